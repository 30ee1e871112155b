#include "draw_util.hpp"

#include <cmath>

namespace vedette::gui {

namespace {
int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

sf::Vector2f normal(sf::Vector2f a, sf::Vector2f b) {
    const sf::Vector2f d = b - a;
    const float len = std::sqrt(d.x * d.x + d.y * d.y);
    if (len <= 0.0f) return {0, 0};
    return {-d.y / len, d.x / len};
}

// Decodes one UTF-8 code point; advances i.
sf::Uint32 next_cp(std::string_view s, size_t& i) {
    const unsigned char c = static_cast<unsigned char>(s[i++]);
    if (c < 0x80) return c;
    int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    sf::Uint32 cp = c & (0x3F >> extra);
    while (extra-- > 0 && i < s.size()) cp = (cp << 6) | (static_cast<unsigned char>(s[i++]) & 0x3F);
    return cp;
}
}  // namespace

sf::Color parse_color(std::string_view t, sf::Color fallback) {
    if (t.size() != 7 && t.size() != 9) return fallback;
    if (t[0] != '#') return fallback;
    int v[4] = {0, 0, 0, 255};
    for (size_t k = 0; k < (t.size() - 1) / 2; ++k) {
        const int h = hexval(t[1 + 2 * k]), l = hexval(t[2 + 2 * k]);
        if (h < 0 || l < 0) return fallback;
        v[k] = h * 16 + l;
    }
    return sf::Color(static_cast<sf::Uint8>(v[0]), static_cast<sf::Uint8>(v[1]), static_cast<sf::Uint8>(v[2]),
                     static_cast<sf::Uint8>(v[3]));
}

sf::Color mix(sf::Color a, sf::Color b, float t) {
    auto m = [t](sf::Uint8 x, sf::Uint8 y) { return static_cast<sf::Uint8>(std::lround(x + (y - x) * t)); };
    return sf::Color(m(a.r, b.r), m(a.g, b.g), m(a.b, b.b), m(a.a, b.a));
}

sf::Color darker(sf::Color c, float f) { return mix(c, sf::Color(0, 0, 0, c.a), f); }
sf::Color with_alpha(sf::Color c, sf::Uint8 a) { return sf::Color(c.r, c.g, c.b, a); }

void add_triangle(sf::VertexArray& va, sf::Vector2f a, sf::Vector2f b, sf::Vector2f c, sf::Color col) {
    va.append(sf::Vertex(a, col));
    va.append(sf::Vertex(b, col));
    va.append(sf::Vertex(c, col));
}

void add_quad(sf::VertexArray& va, sf::Vector2f a, sf::Vector2f b, sf::Vector2f c, sf::Vector2f d, sf::Color col) {
    add_triangle(va, a, b, c, col);
    add_triangle(va, a, c, d, col);
}

void add_rect(sf::VertexArray& va, sf::FloatRect r, sf::Color col) {
    add_quad(va, {r.left, r.top}, {r.left + r.width, r.top}, {r.left + r.width, r.top + r.height},
             {r.left, r.top + r.height}, col);
}

void add_rect_outline(sf::VertexArray& va, sf::FloatRect r, float w, sf::Color col) {
    add_rect(va, {r.left, r.top, r.width, w}, col);
    add_rect(va, {r.left, r.top + r.height - w, r.width, w}, col);
    add_rect(va, {r.left, r.top + w, w, r.height - 2 * w}, col);
    add_rect(va, {r.left + r.width - w, r.top + w, w, r.height - 2 * w}, col);
}

void add_line(sf::VertexArray& va, sf::Vector2f a, sf::Vector2f b, float width, sf::Color col) {
    const sf::Vector2f n = normal(a, b) * (width * 0.5f);
    add_quad(va, a + n, b + n, b - n, a - n, col);
}

void add_circle(sf::VertexArray& va, sf::Vector2f c, float r, sf::Color col, int seg) {
    for (int i = 0; i < seg; ++i) {
        const float a0 = 6.2831853f * i / seg, a1 = 6.2831853f * (i + 1) / seg;
        add_triangle(va, c, c + sf::Vector2f(std::cos(a0), std::sin(a0)) * r,
                     c + sf::Vector2f(std::cos(a1), std::sin(a1)) * r, col);
    }
}

void add_ring(sf::VertexArray& va, sf::Vector2f c, float ri, float ro, sf::Color col, int seg) {
    for (int i = 0; i < seg; ++i) {
        const float a0 = 6.2831853f * i / seg, a1 = 6.2831853f * (i + 1) / seg;
        const sf::Vector2f u0(std::cos(a0), std::sin(a0)), u1(std::cos(a1), std::sin(a1));
        add_quad(va, c + u0 * ri, c + u0 * ro, c + u1 * ro, c + u1 * ri, col);
    }
}

void add_convex(sf::VertexArray& va, const sf::Vector2f* p, int n, sf::Color col) {
    for (int i = 1; i + 1 < n; ++i) add_triangle(va, p[0], p[i], p[i + 1], col);
}

void add_star(sf::VertexArray& va, sf::Vector2f c, float ro, float ri, int points, sf::Color col) {
    const int n = points * 2;
    for (int i = 0; i < n; ++i) {
        const float a0 = -1.5707963f + 3.14159265f * i / points, a1 = -1.5707963f + 3.14159265f * (i + 1) / points;
        const float r0 = (i % 2 == 0) ? ro : ri, r1 = (i % 2 == 0) ? ri : ro;
        add_triangle(va, c, c + sf::Vector2f(std::cos(a0), std::sin(a0)) * r0,
                     c + sf::Vector2f(std::cos(a1), std::sin(a1)) * r1, col);
    }
}

void add_dashed(sf::VertexArray& va, sf::Vector2f a, sf::Vector2f b, float width, float dash, float gap,
                sf::Color col) {
    const sf::Vector2f d = b - a;
    const float len = std::sqrt(d.x * d.x + d.y * d.y);
    if (len <= 0) return;
    const sf::Vector2f u = d / len;
    for (float t = 0; t < len; t += dash + gap) add_line(va, a + u * t, a + u * std::min(len, t + dash), width, col);
}

float TextBatch::width(std::string_view s, unsigned size, bool bold) const {
    float w = 0;
    sf::Uint32 prev = 0;
    for (size_t i = 0; i < s.size();) {
        const sf::Uint32 cp = next_cp(s, i);
        (void)prev;
        w += font_->getGlyph(cp, size, bold).advance;
        prev = cp;
    }
    return w;
}

void TextBatch::add(std::string_view s, sf::Vector2f pos, unsigned size, sf::Color col, Align align, bool bold) {
    if (size < 4 || s.empty()) return;
    auto& va = batches_[{size, bold}];
    va.setPrimitiveType(sf::Triangles);
    float x = std::round(pos.x);
    if (align != Align::Left) {
        const float w = width(s, size, bold);
        x = std::round(align == Align::Center ? pos.x - w / 2 : pos.x - w);
    }
    const float baseline = std::round(pos.y + size * 0.95f);
    sf::Uint32 prev = 0;
    for (size_t i = 0; i < s.size();) {
        const sf::Uint32 cp = next_cp(s, i);
        (void)prev;  // no kerning: FreeType kerning lookups per pair cost more than they show
        prev = cp;
        const sf::Glyph& g = font_->getGlyph(cp, size, bold);
        const float l = x + g.bounds.left, t = baseline + g.bounds.top;
        const float r = l + g.bounds.width, b = t + g.bounds.height;
        const float u0 = static_cast<float>(g.textureRect.left), v0 = static_cast<float>(g.textureRect.top);
        const float u1 = u0 + g.textureRect.width, v1 = v0 + g.textureRect.height;
        va.append(sf::Vertex({l, t}, col, {u0, v0}));
        va.append(sf::Vertex({r, t}, col, {u1, v0}));
        va.append(sf::Vertex({r, b}, col, {u1, v1}));
        va.append(sf::Vertex({l, t}, col, {u0, v0}));
        va.append(sf::Vertex({r, b}, col, {u1, v1}));
        va.append(sf::Vertex({l, b}, col, {u0, v1}));
        x += g.advance;
    }
}

void TextBatch::add_halo(std::string_view s, sf::Vector2f pos, unsigned size, sf::Color col, sf::Color halo,
                         Align align, bool bold) {
    static const sf::Vector2f offs[] = {{-1, -1}, {1, 1}, {-1, 1}, {1, -1}};
    for (auto o : offs) add(s, pos + o, size, halo, align, bold);
    add(s, pos, size, col, align, bold);
}

void TextBatch::draw(sf::RenderTarget& target) const {
    for (const auto& [key, va] : batches_) {
        sf::RenderStates st;
        st.texture = &font_->getTexture(key.first);
        target.draw(va, st);
    }
}

}  // namespace vedette::gui
