// The board: the map plus what the viewing role sees on it (stacks of counters) plus the
// highlights of the current decision's legal actions.
#pragma once

#include <SFML/Graphics.hpp>
#include <set>
#include <string>

#include "map_renderer.hpp"
#include "view_model.hpp"

namespace vedette::gui {

struct HighlightColors {
    sf::Color hex, target, piece, selected, hover;
    static HighlightColors standard();
    static HighlightColors colour_blind_safe();  // Okabe-Ito blue / orange / vermillion
};

struct Highlights {
    std::set<std::string> hexes;         // hexes some legal action concerns
    std::set<std::string> target_hexes;  // hexes for the selected piece's actions
    std::set<std::string> pieces;        // pieces some legal action concerns
    std::string selected_piece;
    std::string hover_hex;
    HighlightColors colors = HighlightColors::standard();
};

class BoardPainter {
public:
    static constexpr float kCounterSide = MapRenderer::kHexSize * 1.08f;
    static sf::Vector2f stack_offset(int index_from_bottom, int count);

    // Draws stacks of `view` at their hexes with the highlights; returns nothing, fills `stats`.
    static void draw(sf::RenderTarget& target, const Camera& cam, const MapRenderer& map,
                     const core::ModuleDef& def, const ViewModel& view, const Highlights& hl,
                     const sf::Font& font, const sf::Font& bold);
};

}  // namespace vedette::gui
