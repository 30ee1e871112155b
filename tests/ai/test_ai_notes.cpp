// The AI's reasoning in the game's log (issue 6): a debug note on a log entry, private to the
// role that took the action, never part of the state, its hash or a replay.
#include <catch2/catch.hpp>

#include "ai/ai.hpp"
#include "data/loader.hpp"
#include "script/rules_host.hpp"

using namespace vedette;

namespace {
struct Loaded {
    std::shared_ptr<const core::ModuleDef> def;
    std::shared_ptr<script::RulesHost> rules;
};
Loaded load(const std::string& rel) {
    auto r = data::load_module(std::string(VEDETTE_SOURCE_DIR) + "/" + rel);
    REQUIRE(r.ok());
    return {r.module, std::shared_ptr<script::RulesHost>(script::RulesHost::load(r.module))};
}
session::Session fixture_game(const Loaded& l) {
    session::Setup setup;
    setup.seed = 11;
    return session::Session::start(l.def, l.rules, *l.def->scenario("basic"), setup);
}
bool has_note(const nlohmann::json& log, size_t i) { return log.at(i).contains("note"); }
}  // namespace

TEST_CASE("a log note is shown to its role and the referee only", "[ai][session][notes]") {
    const Loaded l = load("tests/fixtures/fixture_module");
    auto s = fixture_game(l);
    REQUIRE(s.apply("blue", "move b_inf2 0405").ok);
    const auto hash = s.state().hash();
    const std::string logged_hash = s.log().back().hash;
    CHECK_FALSE(s.annotate_last("red", "red did not take it"));  // not red's entry
    REQUIRE(s.annotate_last("blue", "why: closer to the objective"));
    CHECK(s.state().hash() == hash);  // no state change
    CHECK(s.log().back().hash == logged_hash);
    CHECK(s.log_json("blue").at(0).at("note") == "why: closer to the objective");
    CHECK(s.log_json("").at(0).at("note") == "why: closer to the objective");
    CHECK_FALSE(has_note(s.log_json("red"), 0));
    // kept by saves, and replays ignore it
    const nlohmann::json save = s.to_json();
    auto b = session::Session::from_json(l.def, l.rules, save);
    CHECK(b.log().back().note == "why: closer to the objective");
    CHECK_FALSE(has_note(b.log_json("red"), 0));
    CHECK(session::Session::verify(l.def, l.rules, save).empty());
    // an annotated game and an unannotated one end in the same state
    auto c = fixture_game(l);
    REQUIRE(c.apply("blue", "move b_inf2 0405").ok);
    CHECK(c.state().hash() == s.state().hash());
    CHECK(c.to_json()["state_hash"] == save["state_hash"]);
}

TEST_CASE("the AI explains each decision in its role's log note", "[ai][notes]") {
    const Loaded l = load("modules/napoleon_1814");
    session::Setup setup;
    setup.seed = 3;
    auto s = session::Session::start(l.def, l.rules, l.def->scenarios.front(), setup);
    ai::AiBot bot(ai::Level::Normal, 5);
    session::RandomBot other(6);
    int notes = 0;
    for (int i = 0; i < 30 && !s.over(); ++i) {
        const std::string role = s.decider();
        session::Bot& b = role == "coalition" ? static_cast<session::Bot&>(bot) : other;
        const std::string act = b.choose(s, role);
        REQUIRE_FALSE(act.empty());
        REQUIRE(s.apply(role, act).ok);
        if (role == "coalition") {
            const std::string why = bot.explain();
            CHECK(why.find(act) != std::string::npos);  // names the action it explains
            CHECK(why.find("coalition") != std::string::npos);
            REQUIRE(s.annotate_last(role, why));
            ++notes;
        } else {
            CHECK(other.explain().empty());
        }
    }
    REQUIRE(notes > 0);
    const nlohmann::json save = s.to_json();
    CHECK(session::Session::verify(l.def, l.rules, save).empty());
    size_t seen_by_coalition = 0, seen_by_french = 0;
    for (const auto& e : s.log_json("coalition")) seen_by_coalition += e.contains("note");
    for (const auto& e : s.log_json("french")) seen_by_french += e.contains("note");
    CHECK(seen_by_coalition == static_cast<size_t>(notes));
    CHECK(seen_by_french == 0);
}
