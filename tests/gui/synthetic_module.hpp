// A synthetic module of the 1814 map's size (44 x 36 flat-top hexes) with every kind of terrain,
// hexside and feature the GUI draws, and a view with ~150 counters, for the drawing benchmark and
// for GUI development before real modules exist. Deterministic (fixed pseudo-random sequence).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>

#include "core/defs.hpp"

namespace vedette::gui::testing {

std::shared_ptr<core::ModuleDef> synthetic_module(int cols = 44, int rows = 36);
// A view JSON (the Session::view format) with `n` pieces spread over the map.
nlohmann::json synthetic_view(const core::ModuleDef& def, int n = 150);

}  // namespace vedette::gui::testing
