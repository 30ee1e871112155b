// The session door: legality, refusals, undo limits, views per role, saves.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/state_json.hpp"
#include "fixture.hpp"

using namespace vedette;
using test::new_game;

namespace {

bool has_action(const std::vector<core::Action>& acts, const std::string& text) {
    for (const auto& a : acts)
        if (a.text() == text) return true;
    return false;
}

std::string temp_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("vedette_test_" + name)).string();
}

}  // namespace

TEST_CASE("a new game waits for Blue's movement with typed actions", "[session]") {
    auto s = new_game();
    CHECK(s.decider() == "blue");
    CHECK(s.state().decision.rule == "F3");
    const auto acts = s.actions("blue");
    CHECK(has_action(acts, "pass"));
    CHECK(has_action(acts, "move b_inf2 0405"));
    for (const auto& a : acts)
        if (a.kind == "move") {
            CHECK(a.pieces.size() == 1);
            CHECK(a.hexes.size() == 1);
        }
    CHECK(s.actions("red").empty());
}

TEST_CASE("refused actions say why and change nothing", "[session]") {
    auto s = new_game();
    const auto hash = s.state().hash();
    auto r = s.apply("red", "pass");
    CHECK(!r.ok);
    CHECK(r.refusal ==
          "it is not red's decision; waiting for blue (Move your units one at a time, then pass to end movement)");
    r = s.apply("blue", "move b_inf1 0808");
    CHECK(!r.ok);
    CHECK(r.refusal ==
          "'move b_inf1 0808' is not a legal action now (Move your units one at a time, then pass to end movement)");
    CHECK(s.state().hash() == hash);
    CHECK(s.log().empty());
    CHECK(s.apply("blue", "  move   b_inf2 0405 ").ok);  // blanks are normalised
    CHECK(s.log().back().action == "move b_inf2 0405");
}

TEST_CASE("F4 stacking: no move ends with three units of a side in a hex", "[session][fixture]") {
    auto s = new_game();
    // 0103 holds b_inf1 and b_cav1 already: nobody else may end a move there.
    CHECK(!has_action(s.actions("blue"), "move b_cav2 0103"));
}

TEST_CASE("undo works until dice are rolled", "[session]") {
    auto s = new_game(1, {6});
    const auto before = s.state().hash();
    REQUIRE(s.apply("blue", "move b_inf2 0405").ok);
    std::string why;
    CHECK(!s.can_undo("red", &why));
    CHECK(why == "the last action was blue's");
    REQUIRE(s.undo("blue"));
    CHECK(s.state().hash() == before);
    CHECK(s.log().empty());
    CHECK(!s.undo("blue", &why));
    CHECK(why == "there is nothing to undo");
}

TEST_CASE("the defender decides: a decision taken by the non-active side", "[session][fixture]") {
    auto s = new_game(3, {6});
    REQUIRE(s.apply("blue", "move b_inf2 0403").ok);
    REQUIRE(s.apply("blue", "pass").ok);
    REQUIRE(s.apply("blue", "pass").ok);
    // Red's cavalry comes to Midtown and attacks across the bridge.
    REQUIRE(s.apply("red", "move r_cav1 0504").ok);
    REQUIRE(s.apply("red", "pass").ok);
    REQUIRE(has_action(s.actions("red"), "attack 0504 0403"));
    REQUIRE(s.apply("red", "attack 0504 0403").ok);
    CHECK(s.decider() == "blue");
    CHECK(s.state().decision.step == "defend");
    CHECK(has_action(s.actions("blue"), "choice stand"));
    REQUIRE(s.apply("blue", "choice stand").ok);
    // The forced 6 was rolled: undo is no longer possible.
    std::string why;
    CHECK(!s.can_undo("blue", &why));
    CHECK(why == "dice were rolled or hidden information was revealed since");
    bool rolled = false;
    for (const auto& e : s.log().back().events)
        if (e.kind == core::Event::Kind::Roll) {
            rolled = true;
            CHECK(e.dice == std::vector<int>{6});
            CHECK(e.forced);
        }
    CHECK(rolled);
}

TEST_CASE("views hide what a role may not see", "[session][view]") {
    auto s = new_game();
    const std::string blue = s.view("blue").dump();
    const std::string red = s.view("red").dump();
    const std::string all = s.view("").dump();
    CHECK(blue.find("r_inf3") == std::string::npos);  // in Red's private reserve
    CHECK(red.find("r_inf3") != std::string::npos);
    CHECK(all.find("r_inf3") != std::string::npos);
    CHECK(s.view("blue")["private_boxes"]["box:red_reserve"] == 1);
    CHECK(!s.view("blue").contains("rng"));
    CHECK(!s.view("red").contains("rng"));
    CHECK(s.view("blue")["piles"]["events"].contains("count"));
    CHECK(!s.view("blue")["piles"]["events"].contains("cards"));
}

TEST_CASE("F5 deploying from the reserve reveals the piece and blocks undo", "[session][fixture]") {
    auto s = new_game();
    REQUIRE(s.apply("blue", "pass").ok);
    REQUIRE(s.apply("blue", "pass").ok);
    REQUIRE(s.decider() == "red");
    REQUIRE(has_action(s.actions("red"), "deploy r_inf3 0801"));
    REQUIRE(s.apply("red", "deploy r_inf3 0801").ok);
    CHECK(s.view("blue").dump().find("r_inf3") != std::string::npos);
    // The action's public text stands in for it in Blue's log; Red and the save see the truth.
    CHECK(s.log_json("blue").back()["action"] == "deploy-reserve 0801");
    CHECK(s.log_json("red").back()["action"] == "deploy r_inf3 0801");
    CHECK(s.log_json("").back()["action"] == "deploy r_inf3 0801");
    CHECK(!s.can_undo("red"));
}

TEST_CASE("save, load and continue equals a straight run", "[session][save]") {
    auto a = new_game(11);
    REQUIRE(a.apply("blue", "move b_inf2 0405").ok);
    const std::string path = temp_path("save.json");
    a.save(path);
    CHECK(!std::filesystem::exists(path + ".tmp." + std::to_string(::getpid())));
    const auto& f = test::fixture();
    auto b = session::Session::load(f.def, f.rules, path);
    CHECK(b.state().hash() == a.state().hash());
    CHECK(b.log().size() == 1);
    REQUIRE(a.apply("blue", "pass").ok);
    REQUIRE(b.apply("blue", "pass").ok);
    CHECK(a.state().hash() == b.state().hash());
    CHECK(session::Session::verify(f.def, f.rules, b.to_json()).empty());
    std::filesystem::remove(path);
}

TEST_CASE("saving into a missing folder fails cleanly", "[session][save]") {
    auto s = new_game();
    CHECK_THROWS_AS(s.save("/nonexistent-folder/x/save.json"), session::SessionError);
}

TEST_CASE("damaged and hostile saves give errors, never a crash", "[session][save]") {
    const auto& f = test::fixture();
    auto s = new_game(5);
    REQUIRE(s.apply("blue", "move b_inf2 0405").ok);
    const auto good = s.to_json();
    const std::string text = good.dump();

    auto load_text = [&](const std::string& t) {
        const std::string path = temp_path("bad.json");
        std::ofstream(path, std::ios::binary) << t;
        try {
            auto x = session::Session::load(f.def, f.rules, path);
            std::filesystem::remove(path);
            return std::string();
        } catch (const session::SessionError& e) {
            std::filesystem::remove(path);
            return std::string(e.what());
        }
    };
    // Truncations at many points.
    for (size_t cut = 0; cut < text.size(); cut += std::max<size_t>(1, text.size() / 97))
        CHECK(!load_text(text.substr(0, cut)).empty());
    CHECK(load_text("[]") == "not a Vedette save file");
    auto j = good;
    j["module"]["id"] = "other";
    CHECK(load_text(j.dump()) == "the save is for module 'other', not 'fixture'");
    j = good;
    j["state"]["turn"] = 5;
    CHECK(load_text(j.dump()) == "the save's state does not match its recorded hash (damaged file?)");
    j = good;
    j["state"]["pieces"][0]["type"] = 12;
    CHECK(load_text(j.dump()) == "damaged save: state.pieces[0].type: expected a string");
    j = good;
    j["log"][0]["action"] = "move b_inf2 0805";
    CHECK(session::Session::verify(f.def, f.rules, j) ==
          "log entry 1 (blue: move b_inf2 0805) is refused on replay: 'move b_inf2 0805' is not a legal "
          "action now (Move your units one at a time, then pass to end movement)");
    // Deeply nested JSON.
    std::string deep(100000, '[');
    CHECK(!load_text(deep).empty());
}
