// core/search: Dijkstra ranges and paths, BFS within, connected components.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

#include "core/search.hpp"

using namespace vedette;
using core::search::StepCost;
using hex::Hex;

namespace {

// A parallelogram "map" of axial hexes 0 <= q, r < 6.
bool on_map(Hex h) { return h.q >= 0 && h.q < 6 && h.r >= 0 && h.r < 6; }

StepCost uniform(int c = 1) {
    return [c](Hex, Hex to) -> std::optional<int> {
        if (!on_map(to)) return std::nullopt;
        return c;
    };
}

}  // namespace

TEST_CASE("reachable: uniform costs give hex distance within the budget", "[search]") {
    const Hex from{2, 2};
    auto r = core::search::reachable(from, 2, uniform());
    for (const auto& [h, c] : r) {
        CHECK(on_map(h));
        CHECK(c == hex::distance(from, h));
        CHECK(c <= 2);
    }
    int expected = 0;
    for (Hex h : hex::range(from, 2))
        if (on_map(h)) ++expected;
    CHECK(static_cast<int>(r.size()) == expected);
    CHECK(r.at(from) == 0);
}

TEST_CASE("reachable: blocked hexes and costlier terrain", "[search]") {
    // A wall at q == 3 except at r == 5; entering r == 0 costs 3.
    StepCost cost = [](Hex, Hex to) -> std::optional<int> {
        if (!on_map(to)) return std::nullopt;
        if (to.q == 3 && to.r != 5) return std::nullopt;
        return to.r == 0 ? 3 : 1;
    };
    auto r = core::search::reachable({0, 2}, 20, cost);
    CHECK(r.count({3, 2}) == 0);
    CHECK(r.count({3, 5}) == 1);
    CHECK(r.at({1, 0}) == 3 + 1);  // (0,2)->(0,1) 1, ->(1,0) 3... or via (1,1)->(1,0)
    CHECK(core::search::reachable({0, 0}, -1, cost).empty());
}

TEST_CASE("reachable: each step's cost is asked once, in a fixed order", "[search]") {
    std::vector<std::pair<Hex, Hex>> calls1, calls2;
    auto record = [](std::vector<std::pair<Hex, Hex>>& log) {
        return [&log](Hex a, Hex b) -> std::optional<int> {
            log.push_back({a, b});
            if (!on_map(b)) return std::nullopt;
            return 1;
        };
    };
    core::search::reachable({1, 1}, 3, record(calls1));
    core::search::reachable({1, 1}, 3, record(calls2));
    CHECK(calls1 == calls2);
    std::set<std::pair<Hex, Hex>> unique(calls1.begin(), calls1.end());
    CHECK(unique.size() == calls1.size());
}

TEST_CASE("path: least cost, deterministic among equal paths, nullopt when cut off", "[search]") {
    auto p = core::search::path({0, 0}, {4, 2}, uniform());
    REQUIRE(p);
    CHECK(p->front() == Hex{0, 0});
    CHECK(p->back() == Hex{4, 2});
    CHECK(static_cast<int>(p->size()) == hex::distance({0, 0}, {4, 2}) + 1);
    for (size_t i = 1; i < p->size(); ++i) CHECK(hex::distance((*p)[i - 1], (*p)[i]) == 1);
    CHECK(core::search::path({0, 0}, {4, 2}, uniform()) == p);

    auto same = core::search::path({2, 2}, {2, 2}, uniform());
    REQUIRE(same);
    CHECK(same->size() == 1);

    StepCost walled = [](Hex, Hex to) -> std::optional<int> {
        if (!on_map(to) || to.q == 3) return std::nullopt;
        return 1;
    };
    CHECK_FALSE(core::search::path({0, 0}, {5, 5}, walled));
    CHECK_FALSE(core::search::path({0, 0}, {5, 0}, uniform(), 2));
}

TEST_CASE("path: prefers the cheaper detour", "[search]") {
    // Straight line along r == 0 is expensive in the middle; going around is cheaper.
    StepCost cost = [](Hex, Hex to) -> std::optional<int> {
        if (!on_map(to)) return std::nullopt;
        return (to == Hex{2, 0}) ? 10 : 1;
    };
    auto p = core::search::path({0, 0}, {4, 0}, cost);
    REQUIRE(p);
    CHECK(std::find(p->begin(), p->end(), Hex{2, 0}) == p->end());
}

TEST_CASE("negative costs are refused", "[search]") {
    StepCost neg = [](Hex, Hex) -> std::optional<int> { return -1; };
    CHECK_THROWS_AS(core::search::reachable({0, 0}, 3, neg), std::invalid_argument);
}

TEST_CASE("within: steps through passable hexes only, centre always in", "[search]") {
    auto all = core::search::within({2, 2}, 1, [](Hex h) { return on_map(h); });
    CHECK(all.size() == 7);
    CHECK(std::is_sorted(all.begin(), all.end()));
    auto none = core::search::within({2, 2}, 3, [](Hex) { return false; });
    CHECK(none == std::vector<Hex>{{2, 2}});
    // A wall at q == 3: nothing beyond it.
    auto walled = core::search::within({1, 2}, 5, [](Hex h) { return on_map(h) && h.q != 3; });
    for (Hex h : walled) CHECK(h.q < 3);
    CHECK(core::search::within({0, 0}, 0, [](Hex) { return true; }).size() == 1);
}

TEST_CASE("components: connected groups, sorted, duplicates ignored", "[search]") {
    std::vector<Hex> hs = {{4, 4}, {0, 0}, {0, 1}, {4, 5}, {2, 2}, {0, 0}};
    auto c = core::search::components(hs);
    REQUIRE(c.size() == 3);
    CHECK(c[0] == std::vector<Hex>{{0, 0}, {0, 1}});
    CHECK(c[1] == std::vector<Hex>{{2, 2}});
    CHECK(c[2] == std::vector<Hex>{{4, 4}, {4, 5}});
    auto kept = core::search::components(hs, [](Hex h) { return h.q != 4; });
    CHECK(kept.size() == 2);
    CHECK(core::search::components({}).empty());
}
