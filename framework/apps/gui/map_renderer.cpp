#include "map_renderer.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "draw_util.hpp"

#include <SFML/OpenGL.hpp>
#include <cstdlib>

namespace vedette::gui {

namespace {

constexpr float kSqrt3 = 1.7320508f;

sf::Vector2f pt(hex::Point p) { return {static_cast<float>(p.x), static_cast<float>(p.y)}; }

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

bool has(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

// Deterministic per-hex jitter in [-1, 1].
float jitter(hex::Hex h, int salt) {
    std::uint32_t x = static_cast<std::uint32_t>(h.q * 73856093) ^ static_cast<std::uint32_t>(h.r * 19349663) ^
                      static_cast<std::uint32_t>(salt * 83492791);
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
    return static_cast<float>(x % 2001) / 1000.0f - 1.0f;
}

const sf::Color kInk(40, 34, 28);
const sf::Color kRiver(46, 96, 200);
const sf::Color kWater(120, 168, 216);

}  // namespace

const sf::Color kTable(58, 52, 46);

namespace {

}  // namespace

// ---- Camera ------------------------------------------------------------------------------

sf::View Camera::view() const {
    sf::View v(center, {viewport.width / zoom, viewport.height / zoom});
    v.setViewport({viewport.left / window_size.x, viewport.top / window_size.y, viewport.width / window_size.x,
                   viewport.height / window_size.y});
    return v;
}

sf::Vector2f Camera::to_screen(sf::Vector2f w) const {
    return {viewport.left + viewport.width / 2 + (w.x - center.x) * zoom,
            viewport.top + viewport.height / 2 + (w.y - center.y) * zoom};
}

sf::Vector2f Camera::to_world(sf::Vector2f s) const {
    return {center.x + (s.x - viewport.left - viewport.width / 2) / zoom,
            center.y + (s.y - viewport.top - viewport.height / 2) / zoom};
}

Camera Camera::snapped() const {
    // to_screen(w) = w * zoom + k with k = viewport centre - center * zoom: make k whole.
    Camera c = *this;
    const float kx = viewport.left + viewport.width / 2 - center.x * zoom;
    const float ky = viewport.top + viewport.height / 2 - center.y * zoom;
    c.center.x = (viewport.left + viewport.width / 2 - std::round(kx)) / zoom;
    c.center.y = (viewport.top + viewport.height / 2 - std::round(ky)) / zoom;
    return c;
}

void Camera::zoom_at(sf::Vector2f screen, float factor, float min_zoom, float max_zoom) {
    const sf::Vector2f before = to_world(screen);
    zoom = std::clamp(zoom * factor, min_zoom, max_zoom);
    const sf::Vector2f after = to_world(screen);
    center += before - after;
}

// ---- StaticMesh --------------------------------------------------------------------------

void StaticMesh::set(const sf::VertexArray& va) {
    count_ = va.getVertexCount();
    buffer_.reset();
    array_ = va;
    if (sf::VertexBuffer::isAvailable() && count_ > 0) {
        auto vb = std::make_unique<sf::VertexBuffer>(va.getPrimitiveType(), sf::VertexBuffer::Static);
        if (vb->create(count_) && vb->update(&va[0])) {
            buffer_ = std::move(vb);
            array_.clear();
        }
    }
}

void StaticMesh::draw(sf::RenderTarget& t, const sf::RenderStates& st) const {
    if (buffer_) t.draw(*buffer_, st);
    else if (count_ > 0) t.draw(array_, st);
}

// ---- LayerTexture ------------------------------------------------------------------------

namespace {
constexpr unsigned kGlBgra = 0x80E1;

// gl_FragColor = the texel: no colour modulation, so llvmpipe sees a plain blit.
const sf::Shader* blit_shader() {
    static sf::Shader shader;
    static const bool ok = sf::Shader::isAvailable() && std::getenv("VEDETTE_NO_BLIT_SHADER") == nullptr &&
                           shader.loadFromMemory(
                               "void main() { gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;"
                               " gl_TexCoord[0] = gl_TextureMatrix[0] * gl_MultiTexCoord0; }",
                               "uniform sampler2D texture;"
                               "void main() { gl_FragColor = texture2D(texture, gl_TexCoord[0].xy); }");
    if (ok) shader.setUniform("texture", sf::Shader::CurrentTexture);
    return ok ? &shader : nullptr;
}
}  // namespace

bool LayerTexture::ensure(unsigned w, unsigned h) {
    if (texture_.getSize() == sf::Vector2u(w, h)) return true;
    if (!texture_.create(w, h)) return false;
    // Same texture, re-specified with BGRA pixels: Mesa then stores it as B8G8R8A8, the
    // window's order, which its fast copy path needs. Other drivers just take the hint.
    sf::Texture::bind(&texture_.getTexture());
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, static_cast<GLsizei>(w), static_cast<GLsizei>(h), 0, kGlBgra,
                 GL_UNSIGNED_BYTE, nullptr);
    const bool ok = glGetError() == GL_NO_ERROR;
    sf::Texture::bind(nullptr);
    if (!ok) return texture_.create(w, h);
    return true;
}

void LayerTexture::blit(sf::RenderTarget& t, sf::IntRect src, sf::Vector2f dst) const {
    if (src.width <= 0 || src.height <= 0) return;
    const sf::View old = t.getView();
    t.setView(sf::View(sf::FloatRect(0, 0, static_cast<float>(t.getSize().x), static_cast<float>(t.getSize().y))));
    sf::Sprite sprite(texture_.getTexture(), src);
    sprite.setPosition(dst);
    sf::RenderStates st(sf::BlendNone);  // the layer is opaque (cleared with the table colour)
    st.shader = blit_shader();
    t.draw(sprite, st);
    t.setView(old);
}

// ---- MapRenderer -------------------------------------------------------------------------

MapRenderer::MapRenderer(const core::MapDef& map, const sf::Font& font, const sf::Font& bold)
    : map_(map), font_(font), bold_(bold) {
    layout_.orientation = map.grid.orientation;
    layout_.size = kHexSize;
    layout_.origin = {0, 0};
    build();
}

sf::Vector2f MapRenderer::hex_center(hex::Hex h) const { return pt(hex::to_pixel(h, layout_)); }

const core::HexDef* MapRenderer::hex_at(sf::Vector2f w) const {
    return map_.find(hex::from_pixel({w.x, w.y}, layout_));
}

size_t MapRenderer::vertex_count() const {
    return fills_.vertex_count() + grid_.vertex_count() + overlay_.vertex_count() + markers_.vertex_count();
}

void MapRenderer::add_hex_fill(sf::VertexArray& va, hex::Hex h, sf::Color c, float inset) const {
    const auto cs = hex::corners(h, layout_);
    const sf::Vector2f ctr = hex_center(h);
    for (int i = 0; i < 6; ++i) {
        sf::Vector2f a = pt(cs[i]), b = pt(cs[(i + 1) % 6]);
        a = ctr + (a - ctr) * (1.0f - inset);
        b = ctr + (b - ctr) * (1.0f - inset);
        add_triangle(va, ctr, a, b, c);
    }
}

void MapRenderer::add_hex_outline(sf::VertexArray& va, hex::Hex h, float w, sf::Color c, float inset) const {
    const auto cs = hex::corners(h, layout_);
    const sf::Vector2f ctr = hex_center(h);
    for (int i = 0; i < 6; ++i) {
        sf::Vector2f a = pt(cs[i]), b = pt(cs[(i + 1) % 6]);
        sf::Vector2f ai = ctr + (a - ctr) * (1.0f - inset), bi = ctr + (b - ctr) * (1.0f - inset);
        const float k = 1.0f - inset - w / kHexSize;
        sf::Vector2f ao = ctr + (a - ctr) * k, bo = ctr + (b - ctr) * k;
        add_quad(va, ai, bi, bo, ao, c);
    }
}

void MapRenderer::add_terrain_symbol(sf::VertexArray& va, const std::string& sym, sf::Vector2f c, hex::Hex h) const {
    const float S = kHexSize;
    if (has(sym, "forest") || has(sym, "wood")) {
        const sf::Vector2f spots[] = {{-0.42f, 0.05f}, {0.38f, -0.08f}, {-0.05f, 0.42f}, {0.05f, -0.42f}, {0.45f, 0.38f}};
        for (int i = 0; i < 5; ++i) {
            const sf::Vector2f p = c + sf::Vector2f(spots[i].x + 0.06f * jitter(h, i), spots[i].y + 0.06f * jitter(h, i + 7)) * S;
            const float t = S * 0.17f;
            add_triangle(va, p + sf::Vector2f(0, -t * 1.3f), p + sf::Vector2f(t * 0.85f, t * 0.55f),
                         p + sf::Vector2f(-t * 0.85f, t * 0.55f), sf::Color(34, 88, 40));
            add_rect(va, {p.x - t * 0.12f, p.y + t * 0.55f, t * 0.24f, t * 0.45f}, sf::Color(92, 64, 38));
        }
    } else if (has(sym, "marsh") || has(sym, "swamp")) {
        const sf::Color reed(40, 96, 96);
        for (int i = 0; i < 3; ++i) {
            const sf::Vector2f p = c + sf::Vector2f((i - 1) * 0.38f * S + 0.05f * S * jitter(h, i), ((i % 2) ? -0.25f : 0.22f) * S);
            add_line(va, p + sf::Vector2f(-0.2f * S, 0), p + sf::Vector2f(0.2f * S, 0), S * 0.045f, reed);
            add_line(va, p + sf::Vector2f(-0.12f * S, 0.09f * S), p + sf::Vector2f(0.12f * S, 0.09f * S), S * 0.04f, reed);
            for (int k = -1; k <= 1; ++k)
                add_line(va, p + sf::Vector2f(k * 0.07f * S, 0), p + sf::Vector2f(k * 0.1f * S, -0.16f * S), S * 0.03f, reed);
        }
    } else if (has(sym, "mountain") || has(sym, "alpine")) {
        const sf::Color rock(110, 82, 58), snow(245, 240, 230);
        const sf::Vector2f peaks[] = {{-0.3f, 0.15f}, {0.28f, 0.2f}, {0.0f, -0.22f}};
        const float sizes[] = {0.34f, 0.3f, 0.4f};
        for (int i = 0; i < 3; ++i) {
            const sf::Vector2f p = c + peaks[i] * S;
            const float t = sizes[i] * S;
            add_triangle(va, p + sf::Vector2f(0, -t), p + sf::Vector2f(t, t * 0.6f), p + sf::Vector2f(-t, t * 0.6f), rock);
            add_triangle(va, p + sf::Vector2f(0, -t), p + sf::Vector2f(t * 0.3f, -t * 0.5f),
                         p + sf::Vector2f(-t * 0.3f, -t * 0.5f), snow);
            add_line(va, p + sf::Vector2f(0, -t), p + sf::Vector2f(t * 0.45f, t * 0.6f), S * 0.03f, darker(rock, 0.4f));
        }
    } else if (has(sym, "rough") || has(sym, "hill")) {
        const sf::Color brown(128, 96, 60);
        const sf::Vector2f spots[] = {{-0.35f, 0.15f}, {0.3f, -0.15f}, {0.05f, 0.4f}, {-0.05f, -0.4f}};
        for (int i = 0; i < 4; ++i) {
            const sf::Vector2f p = c + spots[i] * S + sf::Vector2f(jitter(h, i), jitter(h, i + 3)) * (0.05f * S);
            const float t = 0.15f * S;
            add_line(va, p + sf::Vector2f(-t, t * 0.5f), p + sf::Vector2f(0, -t * 0.5f), S * 0.045f, brown);
            add_line(va, p + sf::Vector2f(0, -t * 0.5f), p + sf::Vector2f(t, t * 0.5f), S * 0.045f, brown);
        }
    } else if (has(sym, "sea") || has(sym, "ocean") || has(sym, "water") || has(sym, "lake")) {
        const sf::Color wave(70, 120, 180);
        for (int i = 0; i < 2; ++i) {
            const sf::Vector2f p = c + sf::Vector2f(((i == 0) ? -0.25f : 0.25f) * S, ((i == 0) ? -0.2f : 0.25f) * S);
            const float t = 0.12f * S;
            add_line(va, p + sf::Vector2f(-2 * t, 0), p + sf::Vector2f(-t, -t * 0.5f), S * 0.035f, wave);
            add_line(va, p + sf::Vector2f(-t, -t * 0.5f), p + sf::Vector2f(0, 0), S * 0.035f, wave);
            add_line(va, p, p + sf::Vector2f(t, -t * 0.5f), S * 0.035f, wave);
            add_line(va, p + sf::Vector2f(t, -t * 0.5f), p + sf::Vector2f(2 * t, 0), S * 0.035f, wave);
        }
    } else if (has(sym, "city") || has(sym, "urban") || has(sym, "town")) {
        add_rect(va, {c.x - 0.25f * S, c.y - 0.2f * S, 0.5f * S, 0.4f * S}, sf::Color(150, 120, 100));
    }
}

void MapRenderer::add_feature_marker(sf::VertexArray& va, const core::HexDef& hd, sf::Vector2f c) const {
    const float S = kHexSize;
    bool city = false, fortified = false, capital = false, town = false, depot = false;
    std::vector<std::string> others;
    for (int f : hd.features) {
        const auto& ft = map_.feature_types[static_cast<size_t>(f)];
        const std::string id = lower(ft.id + " " + ft.name);
        if (has(id, "fort") || has(id, "fortress")) fortified = true;
        else if (has(id, "capital")) capital = true;
        else if (has(id, "town") || has(id, "village")) town = true;
        else if (has(id, "city")) city = true;
        else if (has(id, "depot") || has(id, "supply") || has(id, "magazine")) depot = true;
        else others.push_back(id);
    }
    if (fortified) {  // a bastioned trace: an 8-point star under the city square
        add_star(va, c, 0.42f * S, 0.27f * S, 8, kInk);
        add_star(va, c, 0.36f * S, 0.22f * S, 8, sf::Color(200, 60, 50));
    }
    if (city || fortified || capital) {
        const float h = 0.18f * S;
        add_rect(va, {c.x - h - 0.03f * S, c.y - h - 0.03f * S, 2 * h + 0.06f * S, 2 * h + 0.06f * S}, kInk);
        add_rect(va, {c.x - h, c.y - h, 2 * h, 2 * h}, sf::Color(196, 40, 36));
        add_rect(va, {c.x - h * 0.45f, c.y - h * 0.45f, h * 0.9f, h * 0.9f}, sf::Color(240, 220, 200));
    } else if (town) {
        add_circle(va, c, 0.14f * S, kInk, 14);
        add_circle(va, c, 0.1f * S, sf::Color(196, 40, 36), 14);
    }
    if (capital) add_star(va, c + sf::Vector2f(0.32f * S, -0.32f * S), 0.17f * S, 0.07f * S, 5, sf::Color(230, 180, 20));
    if (depot) {
        add_rect(va, {c.x + 0.2f * S, c.y + 0.2f * S, 0.22f * S, 0.16f * S}, kInk);
        add_rect(va, {c.x + 0.22f * S, c.y + 0.22f * S, 0.18f * S, 0.12f * S}, sf::Color(240, 200, 60));
    }
    // Any other feature: a small dot with the feature's initial (the legend names it).
    float ox = -0.4f;
    for (size_t i = 0; i < others.size(); ++i, ox += 0.16f)
        add_circle(va, c + sf::Vector2f(ox * S, 0.42f * S), 0.06f * S, sf::Color(90, 60, 120), 8);
}

void MapRenderer::build() {
    const float S = kHexSize;
    sf::VertexArray fills(sf::Triangles), grid(sf::Lines), over(sf::Triangles), marks(sf::Triangles);
    float minx = 1e9f, miny = 1e9f, maxx = -1e9f, maxy = -1e9f;
    overview_va_ = sf::VertexArray(sf::Triangles);

    // Terrain fills, symbols, grid lines.
    for (const auto& hd : map_.hexes) {
        const auto& tt = map_.terrain_types[static_cast<size_t>(hd.terrain)];
        const std::string sym = lower(tt.symbol.empty() ? tt.id : tt.symbol);
        sf::Color base = parse_color(tt.color, sf::Color(232, 224, 196));
        const bool water = has(sym, "sea") || has(sym, "ocean") || has(sym, "lake");
        if (tt.color.empty() && water) base = kWater;
        const sf::Vector2f c = hex_center(hd.hex);
        const auto cs = hex::corners(hd.hex, layout_);
        // A slightly lighter centre gives the printed-map "wash" look.
        for (int i = 0; i < 6; ++i) {
            const sf::Vector2f a = pt(cs[i]), b = pt(cs[(i + 1) % 6]);
            fills.append(sf::Vertex(c, mix(base, sf::Color::White, 0.10f)));
            fills.append(sf::Vertex(a, base));
            fills.append(sf::Vertex(b, base));
            overview_va_.append(sf::Vertex(c, base));
            overview_va_.append(sf::Vertex(a, base));
            overview_va_.append(sf::Vertex(b, base));
            minx = std::min(minx, a.x), maxx = std::max(maxx, a.x);
            miny = std::min(miny, a.y), maxy = std::max(maxy, a.y);
        }
        add_terrain_symbol(fills, sym, c, hd.hex);
        if (tt.playable) {
            const sf::Color gl(60, 50, 40, 90);
            for (int i = 0; i < 6; ++i) {
                // Each side once: the canonical owner draws it, or this hex if the neighbour is off the map.
                const hex::Hex nb = hex::neighbour(hd.hex, i);
                const core::HexDef* nd = map_.find(nb);
                const bool nb_playable = nd && map_.terrain_types[static_cast<size_t>(nd->terrain)].playable;
                if (nb_playable && i >= 3) continue;
                grid.append(sf::Vertex(pt(cs[i]), gl));
                grid.append(sf::Vertex(pt(cs[(i + 1) % 6]), gl));
            }
        }
        if (!hd.features.empty()) add_feature_marker(marks, hd, c);
        if (!hd.name.empty()) {
            int rank = 0;  // 2: fortified city or capital, 1: city, 0: any other named place
            for (int f : hd.features) {
                const std::string fid = lower(map_.feature_types[static_cast<size_t>(f)].id);
                if (has(fid, "fort") || has(fid, "capital")) rank = 2;
                else if (has(fid, "city")) rank = std::max(rank, 1);
            }
            names_.push_back({c + sf::Vector2f(0, 0.5f * S), hd.name, rank});
        }
    }
    bounds_ = {minx, miny, maxx - minx, maxy - miny};
    // Most important names first: they win when names would overlap.
    std::stable_sort(names_.begin(), names_.end(), [](const Name& a, const Name& b) { return a.rank > b.rank; });

    // Hexsides: rivers, lakes, bridges, roads, passes, borders.
    struct Pending {
        sf::Vector2f a, b;
        int kind;
    };
    std::vector<Pending> bridges, passes;
    for (const auto& sd : map_.hexsides) {
        const auto [p0, p1] = hex::hexside_segment(sd.key, layout_);
        const sf::Vector2f a = pt(p0), b = pt(p1);
        for (int t : sd.types) {
            const auto& ht = map_.hexside_types[static_cast<size_t>(t)];
            const std::string id = lower(ht.id + " " + ht.name);
            const sf::Color col = parse_color(ht.color, kRiver);
            if (has(id, "bridge")) {
                bridges.push_back({a, b, 0});
            } else if (has(id, "lake") || has(id, "sea") || has(id, "coast")) {
                // A lake side: a wide water band with rounded ends.
                const sf::Color lake = parse_color(ht.color, kWater);
                add_line(over, a, b, 0.34f * S, lake);
                add_circle(over, a, 0.17f * S, lake, 10);
                add_circle(over, b, 0.17f * S, lake, 10);
            } else if (has(id, "road") || has(id, "track")) {
                // drawn below, centre to centre
            } else if (has(id, "pass")) {
                passes.push_back({a, b, 0});
            } else if (has(id, "river") || has(id, "stream") || has(id, "canal")) {
                const float w = (has(id, "major") || has(id, "great") || has(id, "large") || has(id, "wide")) ? 0.2f * S
                                : (has(id, "stream") || has(id, "minor")) ? 0.06f * S
                                                                           : 0.1f * S;
                add_line(over, a, b, w, col);
                add_circle(over, a, w * 0.5f, col, 8);
                add_circle(over, b, w * 0.5f, col, 8);
            } else if (has(id, "border") || has(id, "frontier")) {
                add_dashed(over, a, b, 0.08f * S, 0.18f * S, 0.1f * S, parse_color(ht.color, sf::Color(120, 40, 140)));
            } else if (has(id, "impass") || has(id, "cliff") || has(id, "escarp")) {
                add_line(over, a, b, 0.14f * S, parse_color(ht.color, sf::Color(70, 60, 55)));
                const sf::Vector2f d = (b - a) / 5.0f;
                const hex::Point hc = hex::to_pixel(sd.key.hex, layout_);
                sf::Vector2f n = sf::Vector2f(static_cast<float>(hc.x), static_cast<float>(hc.y)) - (a + b) / 2.0f;
                n *= 0.25f;
                for (int k = 1; k < 5; ++k) add_line(over, a + d * static_cast<float>(k), a + d * static_cast<float>(k) + n, 0.05f * S, sf::Color(70, 60, 55));
            } else {
                add_line(over, a, b, 0.1f * S, col);
            }
        }
    }
    // Roads: from each hex centre through the side's midpoint to the other centre.
    for (const auto& sd : map_.hexsides) {
        for (int t : sd.types) {
            const auto& ht = map_.hexside_types[static_cast<size_t>(t)];
            const std::string id = lower(ht.id + " " + ht.name);
            if (!(has(id, "road") || has(id, "track"))) continue;
            const auto [h0, h1] = hex::hexside_hexes(sd.key);
            const sf::Vector2f c0 = hex_center(h0), c1 = hex_center(h1);
            const sf::Color rc = parse_color(ht.color, sf::Color(150, 70, 40));
            const float w = (has(id, "minor") || has(id, "track")) ? 0.05f * S : 0.08f * S;
            add_line(over, c0, c1, w + 0.04f * S, sf::Color(250, 240, 220));
            add_line(over, c0, c1, w, rc);
            add_circle(over, c0, w * 0.5f, rc, 8);
            add_circle(over, c1, w * 0.5f, rc, 8);
        }
    }
    for (const auto& br : bridges) {  // a dark bar across the river at the side's middle
        const sf::Vector2f m = (br.a + br.b) / 2.0f, d = br.b - br.a;
        const float len = std::sqrt(d.x * d.x + d.y * d.y);
        const sf::Vector2f u = d / len, n(-u.y, u.x);
        add_line(over, m - n * (0.22f * S) - u * (0.08f * S), m + n * (0.22f * S) - u * (0.08f * S), 0.05f * S, kInk);
        add_line(over, m - n * (0.22f * S) + u * (0.08f * S), m + n * (0.22f * S) + u * (0.08f * S), 0.05f * S, kInk);
        add_quad(over, m - n * (0.2f * S) - u * (0.07f * S), m + n * (0.2f * S) - u * (0.07f * S),
                 m + n * (0.2f * S) + u * (0.07f * S), m - n * (0.2f * S) + u * (0.07f * S), sf::Color(214, 190, 150));
    }
    for (const auto& ps : passes) {  // ")(" across the side
        const sf::Vector2f m = (ps.a + ps.b) / 2.0f, d = ps.b - ps.a;
        const float len = std::sqrt(d.x * d.x + d.y * d.y);
        const sf::Vector2f u = d / len, n(-u.y, u.x);
        add_line(over, m - u * (0.1f * S) - n * (0.15f * S), m - u * (0.05f * S), 0.05f * S, kInk);
        add_line(over, m - u * (0.05f * S), m - u * (0.1f * S) + n * (0.15f * S), 0.05f * S, kInk);
        add_line(over, m + u * (0.1f * S) - n * (0.15f * S), m + u * (0.05f * S), 0.05f * S, kInk);
        add_line(over, m + u * (0.05f * S), m + u * (0.1f * S) + n * (0.15f * S), 0.05f * S, kInk);
    }

    // Named lines (rivers, roads): a label every dozen hexsides along each.
    {
        std::vector<std::vector<const core::HexsideDef*>> per_line(map_.lines.size());
        for (const auto& sd : map_.hexsides)
            for (int li : sd.lines)
                if (li >= 0 && static_cast<size_t>(li) < per_line.size()) per_line[static_cast<size_t>(li)].push_back(&sd);
        for (size_t li = 0; li < per_line.size(); ++li) {
            const auto& v = per_line[li];
            const std::string kind = lower(map_.lines[li].kind);
            if (v.empty() || map_.lines[li].name.empty() || has(kind, "road")) continue;
            for (size_t k = v.size() / 2 % 12; k < v.size(); k += 12) {
                const auto [p0, p1] = hex::hexside_segment(v[k]->key, layout_);
                line_names_.push_back({(pt(p0) + pt(p1)) / 2.0f, map_.lines[li].name, 0});
            }
        }
    }

    // Region borders: dashed lines along each region's boundary (each edge once per region pair).
    static const sf::Color palette[] = {sf::Color(150, 40, 150), sf::Color(200, 110, 20), sf::Color(30, 120, 160),
                                        sf::Color(140, 30, 30), sf::Color(90, 90, 90)};
    std::set<std::int64_t> drawn;
    for (size_t ri = 0; ri < map_.regions.size(); ++ri) {
        const auto& reg = map_.regions[ri];
        const std::string rid = lower(reg.id + " " + reg.name);
        const bool green = has(rid, "green");
        const sf::Color col = green ? sf::Color(30, 150, 60) : palette[ri % 5];
        std::set<std::int64_t> in;
        for (auto h : reg.hexes) in.insert(hex::pack(h));
        for (auto h : reg.hexes) {
            for (int d = 0; d < 6; ++d) {
                const hex::Hex nb = hex::neighbour(h, d);
                if (in.count(hex::pack(nb)) || !map_.find(nb)) continue;
                const auto key = hex::hexside(h, d);
                if (!green && !drawn.insert(hex::pack(key)).second) continue;
                const auto [p0, p1] = hex::hexside_segment(key, layout_);
                add_dashed(over, pt(p0), pt(p1), (green ? 0.1f : 0.07f) * S, 0.2f * S, 0.1f * S, col);
            }
        }
    }

    auto opaque = [](const sf::VertexArray& va) {
        for (size_t i = 0; i < va.getVertexCount(); ++i)
            if (va[i].color.a != 255) return false;
        return true;
    };
    // Opaque layers are drawn without blending: half the fill cost on a software rasteriser.
    fills_opaque_ = opaque(fills);
    overlay_opaque_ = opaque(over);
    markers_opaque_ = opaque(marks);
    fills_.set(fills);
    grid_.set(grid);
    overlay_.set(over);
    markers_.set(marks);
}

// ---- map art -----------------------------------------------------------------------------

bool MapRenderer::load_art(const std::string& module_dir, std::string* why) {
    art_tiles_.clear();
    if (!map_.art) return true;
    const core::MapArt& art = *map_.art;
    sf::Image image;
    if (!image.loadFromFile(module_dir + "/" + art.file)) {
        *why = "cannot read the map art " + art.file;
        return false;
    }
    // World position of image pixel (u, v): the inverse of the calibration, scaled to kHexSize.
    const double* m = art.to_image;
    const double det = m[0] * m[4] - m[1] * m[3];
    if (det == 0) {
        *why = "the map art's calibration is degenerate";
        return false;
    }
    auto world = [&](double u, double v) {
        u -= m[2], v -= m[5];
        return sf::Vector2f(static_cast<float>(kHexSize * (m[4] * u - m[1] * v) / det),
                            static_cast<float>(kHexSize * (-m[3] * u + m[0] * v) / det));
    };
    // Tiles the driver can hold, overlapping by a pixel on each side so that smooth filtering
    // at a tile's edge reads the real neighbour, not a clamped copy (no seams).
    unsigned max_side = std::min(sf::Texture::getMaximumSize(), 4096u);
    // Tests set smaller tiles to check that a split image stays aligned and seamless.
    if (const char* t = std::getenv("VEDETTE_ART_TILE"); t && std::atoi(t) >= 16)
        max_side = std::min(max_side, static_cast<unsigned>(std::atoi(t)));
    const unsigned step = max_side - 2;
    const unsigned W = image.getSize().x, H = image.getSize().y;
    for (unsigned y0 = 0; y0 < H; y0 += step) {
        for (unsigned x0 = 0; x0 < W; x0 += step) {
            const unsigned w = std::min(step, W - x0), h = std::min(step, H - y0);
            const unsigned bx = x0 > 0 ? 1 : 0, by = y0 > 0 ? 1 : 0;  // border pixels before
            const unsigned tw = w + bx + (x0 + w < W ? 1 : 0), th = h + by + (y0 + h < H ? 1 : 0);
            ArtTile tile;
            tile.texture = std::make_unique<sf::Texture>();
            if (!tile.texture->loadFromImage(image, sf::IntRect(static_cast<int>(x0 - bx), static_cast<int>(y0 - by),
                                                                static_cast<int>(tw), static_cast<int>(th)))) {
                *why = "the map art " + art.file + " does not fit in a texture";
                art_tiles_.clear();
                return false;
            }
            tile.texture->setSmooth(true);
            tile.texture->generateMipmap();  // minified without shimmer when zoomed out
            const sf::Vector2f a = world(x0, y0), b = world(x0 + w, y0), c = world(x0 + w, y0 + h), d = world(x0, y0 + h);
            const sf::Color white = sf::Color::White;
            const float u0 = static_cast<float>(bx), v0 = static_cast<float>(by);
            const float u1 = u0 + static_cast<float>(w), v1 = v0 + static_cast<float>(h);
            tile.quad.append(sf::Vertex(a, white, {u0, v0}));
            tile.quad.append(sf::Vertex(b, white, {u1, v0}));
            tile.quad.append(sf::Vertex(c, white, {u1, v1}));
            tile.quad.append(sf::Vertex(a, white, {u0, v0}));
            tile.quad.append(sf::Vertex(c, white, {u1, v1}));
            tile.quad.append(sf::Vertex(d, white, {u0, v1}));
            art_tiles_.push_back(std::move(tile));
        }
    }
    layer_valid_ = false;
    overview_rect_ = {};
    return true;
}

void MapRenderer::show_art(bool on) {
    if (on == show_art_) return;
    show_art_ = on;
    layer_valid_ = false;
    overview_rect_ = {};  // the overview is redrawn too
}

void MapRenderer::draw_art(sf::RenderTarget& target, sf::Uint8 alpha) const {
    for (const auto& t : art_tiles_) {
        sf::VertexArray q = t.quad;
        for (size_t i = 0; i < q.getVertexCount(); ++i) q[i].color.a = alpha;
        sf::RenderStates st(t.texture.get());
        if (alpha == 255) st.blendMode = sf::BlendNone;
        target.draw(q, st);
    }
}

void MapRenderer::draw(sf::RenderTarget& target, const Camera& cam) const {
    const sf::View old = target.getView();
    target.setView(cam.view());
    const sf::RenderStates none(sf::BlendNone), blend;
    // With the art: the drawn terrain only under it (vector="all"), hexsides, markers and
    // names over it unless vector="grid", the grid always.
    const bool art = showing_art();
    const auto keep = art ? map_.art->vector : core::MapArt::Vector::All;
    if (!art || keep == core::MapArt::Vector::All) fills_.draw(target, fills_opaque_ ? none : blend);
    if (art) draw_art(target, static_cast<sf::Uint8>(std::lround(255 * std::clamp(map_.art->opacity, 0.0, 1.0))));
    if (art) {
        if (cam.zoom * kHexSize >= 7.0f) grid_.draw(target);
        if (keep != core::MapArt::Vector::Grid) {
            overlay_.draw(target, overlay_opaque_ ? none : blend);
            markers_.draw(target, markers_opaque_ ? none : blend);
        }
    } else {
        if (cam.zoom * kHexSize >= 7.0f) grid_.draw(target);
        overlay_.draw(target, overlay_opaque_ ? none : blend);
        markers_.draw(target, markers_opaque_ ? none : blend);
    }
    const bool names = !art || keep != core::MapArt::Vector::Grid;

    // Screen-space text.
    target.setView(sf::View(sf::FloatRect(0, 0, static_cast<float>(cam.window_size.x), static_cast<float>(cam.window_size.y))));
    TextBatch text(font_), bold(bold_);
    const float hex_px = cam.zoom * kHexSize;
    const sf::FloatRect vp = cam.viewport;
    auto visible = [&](sf::Vector2f s, float margin) {
        return s.x > vp.left - margin && s.x < vp.left + vp.width + margin && s.y > vp.top - margin &&
               s.y < vp.top + vp.height + margin;
    };
    if (names && hex_px >= 10.0f) {
        // Greedy placement: a name that would overlap one already placed is left out, so the
        // zoomed-out map shows the fortresses and capitals and more names appear as you zoom in.
        std::vector<sf::FloatRect> placed;
        const int min_rank = hex_px < 22.0f ? 2 : hex_px < 30.0f ? 1 : 0;
        // The halo (4 extra copies of each glyph) costs as much fill as the map itself on a
        // software rasteriser; zoomed out, plain dark text reads well enough.
        const bool halo = hex_px >= 22.0f;
        for (const auto& n : names_) {
            if (n.rank < min_rank) continue;
            const sf::Vector2f s = cam.to_screen(n.world);
            if (!visible(s, 100)) continue;
            const unsigned size = static_cast<unsigned>(std::clamp(hex_px * (n.rank ? 0.3f : 0.25f), 9.0f, 18.0f));
            TextBatch& tb = n.rank ? bold : text;
            const float w = tb.width(n.text, size);
            const sf::FloatRect r(s.x - w / 2 - 2, s.y, w + 4, static_cast<float>(size) + 2);
            bool clash = false;
            for (const auto& p : placed) clash = clash || p.intersects(r);
            if (clash) continue;
            placed.push_back(r);
            if (halo) tb.add_halo(n.text, s, size, kInk, sf::Color(250, 245, 230, 220), Align::Center, false);
            else tb.add(n.text, s, size, kInk, Align::Center, false);
        }
        // River names in blue, where they do not cover a town's name.
        if (hex_px >= 20.0f)
            for (const auto& n : line_names_) {
                const sf::Vector2f s = cam.to_screen(n.world);
                if (!visible(s, 100)) continue;
                const unsigned size = static_cast<unsigned>(std::clamp(hex_px * 0.22f, 9.0f, 15.0f));
                const float w = text.width(n.text, size);
                const sf::FloatRect r(s.x - w / 2 - 2, s.y - size / 2.0f, w + 4, static_cast<float>(size) + 2);
                bool clash = false;
                for (const auto& p : placed) clash = clash || p.intersects(r);
                if (clash) continue;
                placed.push_back(r);
                text.add_halo(n.text, {s.x, s.y - size / 2.0f}, size, sf::Color(30, 70, 170), sf::Color(235, 242, 250, 200),
                              Align::Center, false);
            }
    }
    if (hex_px >= 34.0f) {
        const unsigned size = static_cast<unsigned>(std::clamp(hex_px * 0.2f, 8.0f, 14.0f));
        const sf::Color lc(70, 60, 50, 200);
        const sf::Vector2f tl = cam.to_world({vp.left, vp.top}), br = cam.to_world({vp.left + vp.width, vp.top + vp.height});
        for (const auto& hd : map_.hexes) {
            if (!map_.terrain_types[static_cast<size_t>(hd.terrain)].playable) continue;
            const sf::Vector2f c = hex_center(hd.hex);
            if (c.x < tl.x - kHexSize || c.x > br.x + kHexSize || c.y < tl.y - kHexSize || c.y > br.y + kHexSize) continue;
            const float top = layout_.orientation == hex::Orientation::FlatTop ? -0.8f : -0.9f;
            const std::string label = map_.label(hd.hex);
            text.add(label, cam.to_screen(c + sf::Vector2f(0, top * kHexSize)), size, lc, Align::Center);
        }
    }
    text.draw(target);
    bold.draw(target);
    target.setView(old);
}

void MapRenderer::draw_cached(sf::RenderTarget& target, const Camera& cam) const {
    static const bool disabled = std::getenv("VEDETTE_NO_CACHE") != nullptr;
    if (disabled || !layer_ok_ || cam.viewport.width < 1 || cam.viewport.height < 1) return draw(target, cam);
    // Pixel space at this zoom: P = world * zoom; the camera shows P + k on the screen.
    const float z = cam.zoom;
    const float kx = cam.viewport.left + cam.viewport.width / 2 - cam.center.x * z;
    const float ky = cam.viewport.top + cam.viewport.height / 2 - cam.center.y * z;
    const sf::IntRect visible(static_cast<int>(std::floor(cam.viewport.left - kx)), static_cast<int>(std::floor(cam.viewport.top - ky)),
                              static_cast<int>(std::ceil(cam.viewport.width)), static_cast<int>(std::ceil(cam.viewport.height)));
    // The map's pixels (plus a margin for names and symbols that stick out).
    const int pad = static_cast<int>(std::ceil(kHexSize * z)) + 4;
    const sf::IntRect whole(static_cast<int>(std::floor(bounds_.left * z)) - pad, static_cast<int>(std::floor(bounds_.top * z)) - pad,
                            static_cast<int>(std::ceil(bounds_.width * z)) + 2 * pad, static_cast<int>(std::ceil(bounds_.height * z)) + 2 * pad);
    sf::IntRect need;
    if (!visible.intersects(whole, need)) return;  // only the table is visible
    const int cap = static_cast<int>(std::min(sf::Texture::getMaximumSize(), 4096u));
    if (need.width > cap || need.height > cap) return draw(target, cam);  // a giant window
    auto contains = [](const sf::IntRect& outer, const sf::IntRect& r) {
        return r.left >= outer.left && r.top >= outer.top && r.left + r.width <= outer.left + outer.width &&
               r.top + r.height <= outer.top + outer.height;
    };
    if (!layer_valid_ || layer_zoom_ != z || !contains(layer_rect_, need)) {
        // The view plus a margin (so that a drag re-renders now and then, not every frame), or
        // the whole map when that is all there is to see. Not more: a new zoom renders this
        // much, and its cost grows with the pixels.
        const int margin = 160;
        const sf::IntRect around(visible.left - margin, visible.top - margin, visible.width + 2 * margin,
                                 visible.height + 2 * margin);
        sf::IntRect rect;
        if (!around.intersects(whole, rect)) rect = need;
        if (rect.width > cap) rect.left = std::clamp(rect.left, need.left + need.width - cap, need.left), rect.width = cap;
        if (rect.height > cap) rect.top = std::clamp(rect.top, need.top + need.height - cap, need.top), rect.height = cap;
        if (!layer_.ensure(static_cast<unsigned>(rect.width), static_cast<unsigned>(rect.height))) {
            layer_ok_ = false;
            return draw(target, cam);
        }
        Camera local;
        local.zoom = z;
        local.viewport = {0, 0, static_cast<float>(rect.width), static_cast<float>(rect.height)};
        local.window_size = {static_cast<unsigned>(rect.width), static_cast<unsigned>(rect.height)};
        local.center = {(rect.width / 2.0f + rect.left) / z, (rect.height / 2.0f + rect.top) / z};
        sf::RenderTexture& rt = layer_.target();
        rt.clear(kTable);
        draw(rt, local);
        rt.display();
        layer_rect_ = rect;
        layer_zoom_ = z;
        layer_valid_ = true;
        ++layer_renders_;
    }
    const sf::IntRect src(need.left - layer_rect_.left, need.top - layer_rect_.top, need.width, need.height);
    layer_.blit(target, src, {std::round(need.left + kx), std::round(need.top + ky)});
}

sf::View MapRenderer::overview_view(sf::FloatRect rect, sf::Vector2u win) const {
    // Fit the map's bounds into rect, keeping proportions.
    const float sx = rect.width / bounds_.width, sy = rect.height / bounds_.height;
    const float s = std::min(sx, sy);
    const sf::Vector2f size(rect.width / s, rect.height / s);
    sf::View v({bounds_.left + bounds_.width / 2, bounds_.top + bounds_.height / 2}, size);
    v.setViewport({rect.left / win.x, rect.top / win.y, rect.width / win.x, rect.height / win.y});
    return v;
}

sf::Vector2f MapRenderer::overview_to_world(sf::FloatRect rect, sf::Vector2f screen) const {
    const float s = std::min(rect.width / bounds_.width, rect.height / bounds_.height);
    const sf::Vector2f c(bounds_.left + bounds_.width / 2, bounds_.top + bounds_.height / 2);
    return {c.x + (screen.x - rect.left - rect.width / 2) / s, c.y + (screen.y - rect.top - rect.height / 2) / s};
}

void MapRenderer::draw_overview(sf::RenderTarget& target, sf::FloatRect rect, const Camera& cam) const {
    const sf::View old = target.getView();
    const sf::Vector2u win = target.getSize();
    const auto w = static_cast<unsigned>(rect.width), h = static_cast<unsigned>(rect.height);
    if (w == 0 || h == 0) return;
    if (overview_cache_.getSize() != sf::Vector2u(w, h) || overview_rect_ != rect) {
        // The map at overview scale changes only with the rectangle: render it once.
        if (overview_cache_.getSize() != sf::Vector2u(w, h)) overview_cache_.create(w, h);
        overview_cache_.clear(sf::Color(40, 40, 48));
        overview_cache_.setView(overview_view({0, 0, rect.width, rect.height}, {w, h}));
        if (showing_art()) draw_art(overview_cache_, 255);
        else overview_cache_.draw(overview_va_);
        overview_cache_.display();
        overview_rect_ = rect;
    }
    target.setView(sf::View(sf::FloatRect(0, 0, static_cast<float>(win.x), static_cast<float>(win.y))));
    sf::VertexArray frame(sf::Triangles);
    add_rect(frame, {rect.left - 3, rect.top - 3, rect.width + 6, rect.height + 6}, sf::Color(60, 48, 36, 230));
    target.draw(frame);
    sf::Sprite sprite(overview_cache_.getTexture());
    sprite.setPosition(rect.left, rect.top);
    target.draw(sprite, sf::RenderStates(sf::BlendNone));
    // The camera's view as a rectangle.
    target.setView(overview_view(rect, win));
    const sf::Vector2f tl = cam.to_world({cam.viewport.left, cam.viewport.top});
    const sf::Vector2f br = cam.to_world({cam.viewport.left + cam.viewport.width, cam.viewport.top + cam.viewport.height});
    const float s = std::min(rect.width / bounds_.width, rect.height / bounds_.height);
    sf::VertexArray box(sf::Triangles);
    add_rect_outline(box, {tl.x, tl.y, br.x - tl.x, br.y - tl.y}, 2.0f / s, sf::Color(255, 40, 40));
    target.draw(box);
    target.setView(old);
}

}  // namespace vedette::gui
