// Determinism: the same seed and actions give the same game; save at any point, load and
// continue equals a straight run; every game replays with matching hashes. Over 200 random
// fixture games, with and without the optional rule.
#include "core/state_json.hpp"
#include "fixture.hpp"
#include "session/bot.hpp"

using namespace vedette;

namespace {

struct Played {
    std::vector<std::pair<std::string, std::string>> actions;  // role, text
    std::string final_hash;
    std::string log_dump;
};

Played play_random(std::uint64_t seed, std::set<std::string> options) {
    auto s = test::new_game(seed, {}, options);
    session::RandomBot blue(seed * 2 + 1), red(seed * 2 + 2);
    Played p;
    for (int n = 0; n < 5000 && !s.over(); ++n) {
        const std::string role = s.decider();
        const std::string text = (role == "blue" ? blue : red).choose(s, role);
        REQUIRE(!text.empty());
        auto r = s.apply(role, text);
        REQUIRE(r.ok);
        REQUIRE(s.state().check_invariants().empty());
        p.actions.emplace_back(role, text);
    }
    REQUIRE(s.over());
    p.final_hash = core::hash_hex(s.state().hash());
    p.log_dump = s.log_json("").dump();
    return p;
}

}  // namespace

TEST_CASE("200 random fixture games: deterministic, save/load/continue, replay verified",
          "[session][determinism]") {
    const auto& f = test::fixture();
    int blue_wins = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        std::set<std::string> options;
        if (seed % 2 == 0) options.insert("weather");
        const Played a = play_random(seed, options);
        const Played again = play_random(seed, options);
        REQUIRE(a.log_dump == again.log_dump);
        REQUIRE(a.final_hash == again.final_hash);

        // Save after k actions (through JSON text), load, continue with the same actions.
        const size_t k = (seed * 7919) % (a.actions.size() + 1);
        auto s = test::new_game(seed, {}, options);
        for (size_t i = 0; i < k; ++i) REQUIRE(s.apply(a.actions[i].first, a.actions[i].second).ok);
        auto loaded = session::Session::from_json(f.def, f.rules, nlohmann::json::parse(s.to_json().dump()));
        REQUIRE(loaded.state().hash() == s.state().hash());
        for (size_t i = k; i < a.actions.size(); ++i)
            REQUIRE(loaded.apply(a.actions[i].first, a.actions[i].second).ok);
        REQUIRE(core::hash_hex(loaded.state().hash()) == a.final_hash);
        REQUIRE(loaded.log_json("").dump() == a.log_dump);
        REQUIRE(session::Session::verify(f.def, f.rules, loaded.to_json()).empty());
        if (loaded.state().result.rfind("Blue", 0) == 0) ++blue_wins;
    }
    // Both outcomes occur: the random games explore the rules, not one path.
    CHECK(blue_wins > 0);
    CHECK(blue_wins < 200);
}

TEST_CASE("a different seed gives a different game", "[session][determinism]") {
    CHECK(play_random(1, {}).log_dump != play_random(2, {}).log_dump);
}
