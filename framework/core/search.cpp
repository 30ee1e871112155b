#include "core/search.hpp"

#include <algorithm>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

namespace vedette::core::search {

namespace {

using Entry = std::pair<std::int64_t, hex::Hex>;  // (cost so far, hex): the tie-break order

int checked_cost(const std::optional<int>& c, hex::Hex from, hex::Hex to) {
    if (*c < 0)
        throw std::invalid_argument("step cost " + std::to_string(*c) +
                                    " is negative; costs must be >= 0");
    return *c;
}

// Dijkstra from `from`, settling hexes in (cost, hex) order while their cost <= limit. Stops
// early once `stop` is settled (when given). prev records, for each hex, the hex it was first
// reached from at its final cost.
struct Dijkstra {
    std::map<hex::Hex, std::int64_t> best;
    std::map<hex::Hex, hex::Hex> prev;
    std::set<hex::Hex> settled;

    void run(hex::Hex from, std::int64_t limit, const StepCost& cost,
             std::optional<hex::Hex> stop) {
        std::set<Entry> frontier;
        best[from] = 0;
        frontier.insert({0, from});
        while (!frontier.empty()) {
            const auto [c, h] = *frontier.begin();
            frontier.erase(frontier.begin());
            settled.insert(h);
            if (stop && h == *stop) return;
            for (hex::Hex n : hex::neighbours(h)) {
                if (settled.count(n)) continue;
                const auto step = cost(h, n);
                if (!step) continue;
                const std::int64_t nc = c + checked_cost(step, h, n);
                if (nc > limit) continue;
                auto it = best.find(n);
                // Strictly better only: an equal cost keeps the hex settled first.
                if (it != best.end() && it->second <= nc) continue;
                if (it != best.end()) frontier.erase({it->second, n});
                best[n] = nc;
                prev[n] = h;
                frontier.insert({nc, n});
            }
        }
    }
};

}  // namespace

std::map<hex::Hex, int> reachable(hex::Hex from, int budget, const StepCost& cost) {
    std::map<hex::Hex, int> out;
    if (budget < 0) return out;
    Dijkstra d;
    d.run(from, budget, cost, std::nullopt);
    for (const auto& [h, c] : d.best) out.emplace(h, static_cast<int>(c));
    return out;
}

std::optional<std::vector<hex::Hex>> path(hex::Hex from, hex::Hex to, const StepCost& cost,
                                          int max_cost) {
    if (max_cost < 0) return std::nullopt;
    Dijkstra d;
    d.run(from, max_cost, cost, to);
    if (!d.settled.count(to)) return std::nullopt;
    std::vector<hex::Hex> out{to};
    for (hex::Hex h = to; h != from;) {
        h = d.prev.at(h);
        out.push_back(h);
    }
    std::reverse(out.begin(), out.end());
    return out;
}

std::vector<hex::Hex> within(hex::Hex centre, int n, const HexPred& pass) {
    std::set<hex::Hex> seen{centre};
    std::map<hex::Hex, bool> asked;
    std::vector<hex::Hex> layer{centre};
    for (int step = 0; step < n && !layer.empty(); ++step) {
        std::vector<hex::Hex> next;
        for (hex::Hex h : layer) {
            for (hex::Hex nb : hex::neighbours(h)) {
                if (seen.count(nb)) continue;
                auto it = asked.find(nb);
                if (it == asked.end()) it = asked.emplace(nb, pass(nb)).first;
                if (!it->second) continue;
                seen.insert(nb);
                next.push_back(nb);
            }
        }
        layer = std::move(next);
    }
    return {seen.begin(), seen.end()};
}

std::vector<std::vector<hex::Hex>> components(std::vector<hex::Hex> hexes, const HexPred& keep) {
    std::sort(hexes.begin(), hexes.end());
    hexes.erase(std::unique(hexes.begin(), hexes.end()), hexes.end());
    std::set<hex::Hex> members;
    for (hex::Hex h : hexes)
        if (!keep || keep(h)) members.insert(h);
    std::vector<std::vector<hex::Hex>> out;
    std::set<hex::Hex> done;
    // Members are visited in hex order, so each component starts at its smallest hex.
    for (hex::Hex start : members) {
        if (done.count(start)) continue;
        std::vector<hex::Hex> comp;
        std::vector<hex::Hex> todo{start};
        done.insert(start);
        while (!todo.empty()) {
            hex::Hex h = todo.back();
            todo.pop_back();
            comp.push_back(h);
            for (hex::Hex nb : hex::neighbours(h)) {
                if (members.count(nb) && !done.count(nb)) {
                    done.insert(nb);
                    todo.push_back(nb);
                }
            }
        }
        std::sort(comp.begin(), comp.end());
        out.push_back(std::move(comp));
    }
    return out;
}

}  // namespace vedette::core::search
