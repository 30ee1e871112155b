// Counters drawn from counter data (core::CounterType + the piece's face and props as the view
// gives them): a square in the side's (or nation's) colour, a NATO unit-type symbol, the name
// and the printed numbers; the disrupted face is visibly different; hidden pieces show their
// back (hidden_as). Geometry goes into a triangle array in world units, text into a TextBatch
// in screen pixels.
#pragma once

#include <SFML/Graphics.hpp>
#include <string>

#include "core/defs.hpp"
#include "draw_util.hpp"
#include "map_renderer.hpp"
#include "view_model.hpp"

namespace vedette::gui {

enum class UnitSymbol { None, Infantry, Cavalry, Artillery, Mixed, Commander, Supply, Marker, Hidden };

struct CounterLook {
    sf::Color body, ink, border;
    UnitSymbol symbol = UnitSymbol::None;
    std::string name;       // short name printed at the top
    std::string numbers;    // e.g. "4-3-5" or "CR 3 · S 1"
    std::string corner;     // small text top-left (e.g. class)
    bool disrupted = false;
    bool hidden = false;
};

CounterLook counter_look(const core::ModuleDef& def, const PieceView& p);
// One line per piece for the stack viewer and tooltips: "Ney (III Corps) 4-3-5, disrupted".
std::string counter_description(const core::ModuleDef& def, const PieceView& p);

// side: the counter's edge length in world units.
void add_counter(sf::VertexArray& va, sf::Vector2f center, float side, const CounterLook& look);
void add_counter_text(TextBatch& text, const Camera& cam, sf::Vector2f center, float side, const CounterLook& look);

}  // namespace vedette::gui
