// The AI layer: registration, determinism for a seed, decisions from the role's view only.
#include <catch2/catch.hpp>
#include <set>

#include "ai/ai.hpp"
#include "core/state_json.hpp"
#include "data/loader.hpp"
#include "script/rules_host.hpp"

using namespace vedette;

namespace {
struct Game {
    std::shared_ptr<const core::ModuleDef> def;
    std::shared_ptr<script::RulesHost> rules;
};
Game load_1814() {
    auto r = data::load_module(std::string(VEDETTE_SOURCE_DIR) + "/modules/napoleon_1814");
    REQUIRE(r.ok());
    return {r.module, std::shared_ptr<script::RulesHost>(script::RulesHost::load(r.module))};
}
}  // namespace

TEST_CASE("ai bot kinds are registered with the session's make_bot", "[ai]") {
    ai::register_bot_kinds();
    std::string why;
    for (const char* k : {"ai", "ai-easy", "ai-normal", "ai-hard"}) CHECK(session::make_bot(k, 1, &why));
    CHECK_FALSE(session::make_bot("ai-superhuman", 1, &why));
    CHECK(why.find("ai-hard") != std::string::npos);
}

TEST_CASE("winner_of reads the side from the result text", "[ai]") {
    Game g = load_1814();
    CHECK(ai::winner_of(*g.def, "The Coalition wins: it holds Paris") == "coalition");
    CHECK(ai::winner_of(*g.def, "The French win: Paris and Bordeaux") == "french");
    CHECK(ai::winner_of(*g.def, "") == "");
}

TEST_CASE("the AI is deterministic for a seed and plays legal actions", "[ai]") {
    Game g = load_1814();
    session::Setup setup;
    setup.seed = 5;
    auto play = [&](std::uint64_t seed) {
        auto s = session::Session::start(g.def, g.rules, g.def->scenarios.front(), setup);
        s.set_record_hashes(false);
        ai::AiBot a(ai::Level::Normal, seed), b(ai::Level::Normal, seed + 1);
        std::vector<std::string> taken;
        for (int i = 0; i < 25 && !s.over(); ++i) {
            const std::string role = s.decider();
            const std::string act = (role == "french" ? a : b).choose(s, role);
            REQUIRE_FALSE(act.empty());
            REQUIRE(s.apply(role, act).ok);
            taken.push_back(act);
        }
        return taken;
    };
    CHECK(play(7) == play(7));
}

TEST_CASE("determinize keeps what the role sees and draws only what it cannot", "[ai]") {
    Game g = load_1814();
    session::Setup setup;
    setup.seed = 9;
    auto s = session::Session::start(g.def, g.rules, g.def->scenarios.front(), setup);
    core::Rng rng(3);
    const core::GameState d = ai::determinize(s, "coalition", rng);
    // every coalition piece is exactly where the true state has it
    for (const auto& p : s.state().pieces()) {
        if (p.owner != g.def->side_index("coalition")) continue;
        const int i = d.find_piece(p.id);
        REQUIRE(i >= 0);
        CHECK(d.piece(i).loc == p.loc);
    }
    // no hidden French piece keeps its true id (the view renames them)
    for (const auto& p : s.state().pieces())
        if (p.hidden && p.owner == g.def->side_index("french") && p.loc.is_hex()) CHECK(d.find_piece(p.id) < 0);
    CHECK(d.check_invariants().empty());
}

TEST_CASE("determinize puts the enemy's unseen units into its hidden-force boxes (1814 15.1)", "[ai]") {
    Game g = load_1814();
    session::Setup setup;
    setup.seed = 7;
    setup.options = {"hidden_forces"};
    auto s = session::Session::start(g.def, g.rules, g.def->scenarios.front(), setup);
    s.set_record_hashes(false);
    session::RandomBot fr(1), co(2);
    const int french = g.def->side_index("french");
    auto hidden_french = [&](const core::GameState& st) {
        std::set<std::string> out;
        for (const auto& p : st.pieces())
            if (p.owner == french && p.loc.is_box() &&
                g.def->map.boxes[static_cast<size_t>(p.loc.box)].id.rfind("french_hidden_", 0) == 0)
                out.insert(p.id);
        return out;
    };
    for (int i = 0; i < 3000 && !s.over() && hidden_french(s.state()).size() < 3; ++i) {
        const std::string role = s.decider();
        REQUIRE(s.apply(role, (role == "french" ? fr : co).choose(s, role)).ok);
    }
    const auto truth = hidden_french(s.state());
    REQUIRE(truth.size() >= 3);
    core::Rng rng(5);
    const core::GameState d = ai::determinize(s, "coalition", rng);
    CHECK(d.check_invariants().empty());
    // The coalition's sample holds as many hidden French units as there are: the order of battle
    // is public, so the units it sees nowhere are in the boxes (which ones, and where: a guess).
    const auto sampled = hidden_french(d);
    CHECK(sampled.size() == truth.size());
    // each sampled box is one whose marker is on the map
    for (const auto& id : sampled) {
        const auto& p = d.piece(d.find_piece(id));
        const std::string box = g.def->map.boxes[static_cast<size_t>(p.loc.box)].id;
        const int m = d.find_piece(box);
        REQUIRE(m >= 0);
        CHECK(d.piece(m).loc.is_hex());
    }
}

TEST_CASE("rules.ai_features gives each of the role's stacks its real supply status", "[ai]") {
    Game g = load_1814();
    session::Setup setup;
    setup.seed = 5;
    auto s = session::Session::start(g.def, g.rules, g.def->scenarios.front(), setup);
    REQUIRE(g.rules->has_function("ai_features"));
    core::GameState st = s.state();
    for (const std::string role : {"coalition", "french"}) {
        const core::Value v = g.rules->call(st, "ai_features", {core::Value(role)});
        REQUIRE(v.is_object());
        const auto& o = v.as_object();
        REQUIRE(o.count("in_supply"));
        REQUIRE(o.count("out_of_supply"));
        const auto& in = o.at("in_supply").as_object();
        const auto& out = o.at("out_of_supply").as_object();
        CHECK_FALSE(in.empty());  // the set-up stacks near their sources are supplied
        // every hex of the role's units on the map is in exactly one of the two
        const int side = g.def->side_index(role);
        for (const auto& pc : st.pieces()) {
            if (pc.owner != side || !pc.loc.is_hex()) continue;
            if (g.def->counter_types[static_cast<size_t>(pc.type)].category != "unit") continue;
            const std::string h = g.def->map.label(pc.loc.hex);
            CHECK(in.count(h) + out.count(h) == 1);
        }
        for (const auto& [h, flag] : in) CHECK(out.count(h) == 0);
    }
    CHECK(core::state_to_json(st) == core::state_to_json(s.state()));  // read only
}
