// Searches over the hex lattice for the rules: movement ranges, paths, command radii, connected
// groups. Generic over hex::Hex with callbacks, so they know nothing of maps, pieces or Lua; the
// script layer binds them to the module's cost functions. Every result is deterministic: ties are
// broken by (cost, hex), neighbours are tried in direction order 0..5, and results are ordered.
#pragma once

#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <vector>

#include "hex/hex.hpp"

namespace vedette::core::search {

// Cost of stepping from `from` into the adjacent `to`; nullopt when the step is not allowed
// (off the map, blocked). Costs must be >= 0 (std::invalid_argument otherwise).
using StepCost = std::function<std::optional<int>(hex::Hex from, hex::Hex to)>;
using HexPred = std::function<bool(hex::Hex)>;

constexpr int kNoLimit = std::numeric_limits<int>::max();

// Every hex reachable from `from` with a total cost <= budget, with its least cost (`from`
// itself at 0). Each directed step's cost is asked at most once, from hexes in (cost, hex) order.
std::map<hex::Hex, int> reachable(hex::Hex from, int budget, const StepCost& cost);

// A least-cost path from..to inclusive (Dijkstra; among equal-cost paths the one whose hexes
// were settled first in (cost, hex) order), or nullopt if `to` cannot be reached within
// max_cost. The caller's cost function must block the way off a finite map, or the search of an
// unreachable `to` never ends unless max_cost bounds it.
std::optional<std::vector<hex::Hex>> path(hex::Hex from, hex::Hex to, const StepCost& cost,
                                          int max_cost = kNoLimit);

// Hexes within n steps of centre, moving only through hexes where pass(h) is true (centre
// itself always counts). pass is asked at most once per hex. Sorted by hex.
std::vector<hex::Hex> within(hex::Hex centre, int n, const HexPred& pass);

// Connected components (by adjacency) of the given hexes, keeping only those where keep(h) is
// true (all when keep is empty; keep is asked once per hex, in hex order). Duplicates are
// ignored. Each component is sorted by hex; components are ordered by their first hex.
std::vector<std::vector<hex::Hex>> components(std::vector<hex::Hex> hexes,
                                              const HexPred& keep = {});

}  // namespace vedette::core::search
