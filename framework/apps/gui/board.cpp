#include "board.hpp"

#include <cmath>

#include "counters.hpp"
#include "draw_util.hpp"

namespace vedette::gui {

HighlightColors HighlightColors::standard() {
    return {sf::Color(255, 214, 0), sf::Color(40, 200, 90), sf::Color(255, 214, 0), sf::Color(255, 90, 20),
            sf::Color(255, 255, 255)};
}

HighlightColors HighlightColors::colour_blind_safe() {
    // Okabe & Ito (2008): distinguishable under the common colour-vision deficiencies.
    // Hexes orange, destinations reddish purple (not blue: rivers are blue), selection vermillion.
    return {sf::Color(230, 159, 0), sf::Color(204, 121, 167), sf::Color(230, 159, 0), sf::Color(213, 94, 0),
            sf::Color(86, 180, 233)};
}

sf::Vector2f BoardPainter::stack_offset(int i, int count) {
    // Up and to the right, like a real stack seen from slightly below-left; at most 6 steps.
    const int steps = std::min(i, 5);
    const float d = MapRenderer::kHexSize * (count > 4 ? 0.06f : 0.09f);
    const float base = -std::min(count - 1, 5) * d / 2;
    return {base + steps * d, -(base + steps * d)};
}

void BoardPainter::draw(sf::RenderTarget& target, const Camera& cam, const MapRenderer& map,
                        const core::ModuleDef& def, const ViewModel& view, const Highlights& hl,
                        const sf::Font& font, const sf::Font& bold) {
    const sf::View old = target.getView();
    target.setView(cam.view());
    const float px = 1.0f / cam.zoom;  // one screen pixel in world units
    sf::VertexArray under(sf::Triangles), va(sf::Triangles), over(sf::Triangles);

    // Hex highlights under the counters.
    auto hexof = [&](const std::string& label) { return def.map.parse_label(label); };
    for (const auto& l : hl.hexes)
        if (auto h = hexof(l)) {
            map.add_hex_fill(under, *h, with_alpha(hl.colors.hex, 60));
            map.add_hex_outline(under, *h, std::max(3.0f * px, 2.5f), hl.colors.hex, 0.04f);
        }
    for (const auto& l : hl.target_hexes)
        if (auto h = hexof(l)) {
            map.add_hex_fill(under, *h, with_alpha(hl.colors.target, 80));
            map.add_hex_outline(under, *h, std::max(4.0f * px, 3.5f), hl.colors.target, 0.04f);
        }
    if (!hl.hover_hex.empty())
        if (auto h = hexof(hl.hover_hex)) map.add_hex_outline(under, *h, std::max(2.0f * px, 1.5f), hl.colors.hover, 0.0f);

    // Counters, bottom to top; text only for the top counter of each stack (it covers the rest).
    const sf::FloatRect vp = cam.viewport;
    const sf::Vector2f tl = cam.to_world({vp.left, vp.top}), br = cam.to_world({vp.left + vp.width, vp.top + vp.height});
    TextBatch text(font), btext(bold);
    const float side = kCounterSide;
    struct Pending {
        sf::Vector2f c;
        CounterLook look;
    };
    std::vector<Pending> tops;
    for (const auto& st : view.stacks) {
        if (!st.hex || st.pieces.empty()) continue;
        const sf::Vector2f hc = map.hex_center(*st.hex);
        if (hc.x < tl.x - 2 * side || hc.x > br.x + 2 * side || hc.y < tl.y - 2 * side || hc.y > br.y + 2 * side) continue;
        const int n = static_cast<int>(st.pieces.size());
        for (int i = 0; i < n; ++i) {
            const PieceView& p = view.pieces[static_cast<size_t>(st.pieces[static_cast<size_t>(i)])];
            const sf::Vector2f c = hc + stack_offset(i, n);
            const CounterLook look = counter_look(def, p);
            add_counter(va, c, side, look);
            const bool sel = p.id == hl.selected_piece;
            if (sel || hl.pieces.count(p.id)) {
                const sf::Color col = sel ? hl.colors.selected : hl.colors.piece;
                const float w = std::max((sel ? 4.0f : 3.0f) * px, sel ? 3.0f : 2.0f);
                add_rect_outline(va, {c.x - side / 2 - w, c.y - side / 2 - w, side + 2 * w, side + 2 * w}, w, col);
            }
            if (i == n - 1) tops.push_back({c, look});
        }
        if (n > 1 && side * cam.zoom >= 26) {  // stack size badge
            const sf::Vector2f c = hc + stack_offset(n - 1, n) + sf::Vector2f(side * 0.5f, -side * 0.5f);
            add_circle(over, c, side * 0.16f, sf::Color(30, 26, 22), 14);
            add_circle(over, c, side * 0.13f, sf::Color(250, 246, 236), 14);
            btext.add(std::to_string(n), cam.to_screen(c) - sf::Vector2f(0, side * 0.12f * cam.zoom),
                      static_cast<unsigned>(std::clamp(side * 0.2f * cam.zoom, 8.0f, 16.0f)), sf::Color(30, 26, 22), Align::Center, true);
        }
    }
    target.draw(under);
    target.draw(va);
    target.draw(over);
    for (const auto& t : tops) add_counter_text(text, cam, t.c, side, t.look);
    target.setView(sf::View(sf::FloatRect(0, 0, static_cast<float>(cam.window_size.x), static_cast<float>(cam.window_size.y))));
    text.draw(target);
    btext.draw(target);
    target.setView(old);
}

}  // namespace vedette::gui
