// RulesHost: loading, the three entry points, error reporting, refusals, the strong guarantee.
#include <catch2/catch.hpp>

#include "module_fixture.hpp"

using namespace vedette;
using script::RulesHost;
using script::ScriptError;
using test::TempModule;

namespace {

const char* kMain = R"lua(-- a tiny rules file
local util = require("util")
local rules = {}

function rules.setup(game)
  game.set_var("setup_ran", true)
  game.log("set up")
end

function rules.actions(game, role)
  if role ~= game.decision().role then return {} end
  local out = {}
  for _, id in ipairs(game.pieces({owner = role})) do
    local p = game.piece(id)
    if p.loc and p.loc:sub(1, 4) ~= "box:" then
      for _, n in ipairs(map.neighbours(p.loc)) do
        out[#out + 1] = {kind = "move", args = {id, n}, label = util.describe(id, n),
                         hexes = {n}, pieces = {id}}
      end
    end
  end
  out[#out + 1] = {kind = "pass"}
  return out
end

function rules.apply(game, role, action)
  if action.kind == "move" then
    local id, to = action.args[1], action.args[2]
    if map.terrain(to) == "forest" and game.piece(id).face == "disrupted" then
      game.refuse("a disrupted unit cannot enter a forest (8.3)")
    end
    game.move(id, to)
    game.log(action.text)
  elseif action.kind == "boom" then
    game.move("b1", "0101")
    local t = nil
    return t.field   -- line 37
  elseif action.kind == "refuse_late" then
    game.move("b1", "0101")
    game.refuse("changed my mind")
  end
end

function rules.view(game, role)
  return {role = role, turn = game.turn(), n = #game.pieces()}
end

return rules
)lua";

const char* kUtil = R"lua(local M = {}
function M.describe(id, hex) return "Move " .. id .. " to " .. hex end
return M
)lua";

struct Fixture {
    TempModule mod{{{"rules/main.lua", kMain}, {"rules/util.lua", kUtil}}};
    std::unique_ptr<RulesHost> host = RulesHost::load(mod.def);
    core::GameState st = test::tiny_state(mod.def);
};

}  // namespace

TEST_CASE("load: the rules table and its functions", "[host]") {
    Fixture f;
    CHECK(f.host->has_function("actions"));
    CHECK(f.host->has_function("apply"));
    CHECK(f.host->has_function("setup"));
    CHECK(f.host->has_function("view"));
    CHECK_FALSE(f.host->has_function("describe"));
    CHECK(f.host->memory_used() > 0);
    CHECK(f.host->memory_used() < f.host->limits().memory);
}

TEST_CASE("setup runs rules.setup with the state bound", "[host]") {
    Fixture f;
    f.host->setup(f.st);
    CHECK(f.st.var("setup_ran") == core::Value(true));
    REQUIRE(f.st.events.size() == 1);
    CHECK(f.st.events[0].text == "set up");
}

TEST_CASE("actions are read and validated", "[host]") {
    Fixture f;
    auto acts = f.host->actions(f.st, "blue");
    REQUIRE(!acts.empty());
    CHECK(acts.back().text() == "pass");
    CHECK(acts.back().label == "pass");
    const auto& a = acts.front();
    CHECK(a.kind == "move");
    REQUIRE(a.args.size() == 2);
    CHECK(a.args[0] == "b1");
    CHECK(a.label == "Move b1 to " + a.args[1]);
    CHECK(a.hexes == std::vector<std::string>{a.args[1]});
    CHECK(a.pieces == std::vector<std::string>{"b1"});
    // Neighbours of 0202 on a 5x4 map: six of them.
    CHECK(acts.size() == 2 * 6 + 1);
    CHECK(f.host->actions(f.st, "red").empty());
}

TEST_CASE("apply changes the state; errors leave it intact", "[host]") {
    Fixture f;
    core::Action mv{"move", {"b1", "0203"}, "", {}, {}};
    f.host->apply(f.st, "blue", mv);
    const int b1 = f.st.find_piece("b1");
    CHECK(f.st.def().map.label(f.st.piece(b1).loc.hex) == "0203");
    CHECK(f.st.events.back().text == "move b1 0203");

    const auto before = f.st.hash();
    const auto events = f.st.events.size();
    try {
        f.host->apply(f.st, "blue", core::Action{"boom", {}, "", {}, {}});
        FAIL("no error");
    } catch (const ScriptError& e) {
        CHECK(std::string(e.what()) ==
              "rules/main.lua:37: attempt to index a nil value (local 't')");
        CHECK(e.file == "rules/main.lua");
        CHECK(e.line == 37);
        CHECK(e.traceback.find("stack traceback") != std::string::npos);
        CHECK(e.traceback.find("rules/main.lua:37") != std::string::npos);
    }
    CHECK(f.st.hash() == before);
    CHECK(f.st.events.size() == events);
}

TEST_CASE("game.refuse becomes a RuleError and rolls back", "[host]") {
    Fixture f;
    const int b1 = f.st.find_piece("b1");
    f.st.set_face(b1, 1);
    const auto before = f.st.hash();
    CHECK_THROWS_WITH(f.host->apply(f.st, "blue", core::Action{"move", {"b1", "0302"}, "", {}, {}}),
                      "a disrupted unit cannot enter a forest (8.3)");
    CHECK_THROWS_AS(f.host->apply(f.st, "blue", core::Action{"refuse_late", {}, "", {}, {}}),
                    core::RuleError);
    CHECK(f.st.hash() == before);
    // ... and the host goes on.
    f.host->apply(f.st, "blue", core::Action{"move", {"b1", "0203"}, "", {}, {}});
    CHECK(f.st.hash() != before);
}

TEST_CASE("call: other entry points return Values", "[host]") {
    Fixture f;
    auto v = f.host->call(f.st, "view", {core::Value("blue")});
    REQUIRE(v.is_object());
    CHECK(v.as_object().at("role") == core::Value("blue"));
    CHECK(v.as_object().at("turn") == core::Value(1));
    CHECK(v.as_object().at("n") == core::Value(4));
    CHECK_THROWS_AS(f.host->call(f.st, "nope"), ScriptError);
}

TEST_CASE("load errors name the file and line", "[host]") {
    SECTION("syntax error") {
        TempModule m({{"rules/main.lua", "local x = = 1\nreturn {}\n"}});
        try {
            RulesHost::load(m.def);
            FAIL("loaded");
        } catch (const ScriptError& e) {
            CHECK(std::string(e.what()).rfind("rules/main.lua:1:", 0) == 0);
            CHECK(e.file == "rules/main.lua");
            CHECK(e.line == 1);
        }
    }
    SECTION("syntax error in a required file") {
        TempModule m({{"rules/main.lua", "local u = require('util')\nreturn {}\n"},
                      {"rules/util.lua", "\n\nfunction (\n"}});
        CHECK_THROWS_WITH(RulesHost::load(m.def), Catch::StartsWith("rules/util.lua:3:"));
    }
    SECTION("runtime error") {
        TempModule m({{"rules/main.lua", "local a = nil\nlocal b = a.x\nreturn {}\n"}});
        CHECK_THROWS_WITH(RulesHost::load(m.def),
                          "rules/main.lua:2: attempt to index a nil value (local 'a')");
    }
    SECTION("no rules table") {
        TempModule m({{"rules/main.lua", "return 42\n"}});
        CHECK_THROWS_WITH(RulesHost::load(m.def), Catch::Contains("must return the rules table"));
    }
    SECTION("missing apply") {
        TempModule m({{"rules/main.lua", "return {actions = function() return {} end}\n"}});
        CHECK_THROWS_WITH(RulesHost::load(m.def), Catch::Contains("no function 'apply'"));
    }
    SECTION("missing file") {
        TempModule m({});
        CHECK_THROWS_WITH(RulesHost::load(m.def), Catch::Contains("cannot read rules/main.lua"));
    }
    SECTION("binary chunk file") {
        TempModule m({{"rules/main.lua", std::string("\x1bLua\x54\x00junk", 10)}});
        CHECK_THROWS_WITH(RulesHost::load(m.def), Catch::Contains("binary"));
    }
}

TEST_CASE("bad action lists are module errors naming rules.actions", "[host]") {
    auto host_with = [](const std::string& body) {
        return std::make_unique<TempModule>(TempModule::Files{
            {"rules/main.lua", "local r = {}\nfunction r.actions(game, role)\n" + body +
                                   "\nend\nfunction r.apply() end\nreturn r\n"}});
    };
    struct Case {
        const char* body;
        const char* message;
    };
    const Case cases[] = {
        {"return nil", "must return a list of actions, got nil"},
        {"return {a = 1}", "must return a list"},
        {"return {{}}", "action #1: it has no kind"},
        {"return {{kind = 'move', args = {'b1', 1.5}}}", "args[2] must be a string or an integer"},
        {"return {{kind = 'two words'}}", "kind 'two words' must be one word"},
        {"return {{kind = true}}", "kind must be a string or an integer, got boolean"},
        {"return {{kind = 'move', hexes = {'0101', 'a b'}}}", "hexes[2] 'a b' must be one word"},
        {"return {{kind = 'move', arg = {}}}", "unknown field 'arg'"},
        {"return {{kind = 'move', hexes = {'9999'}}}", "'9999' is not a hex of the map"},
        {"return {{kind = 'move', pieces = {'zz'}}}", "there is no piece 'zz'"},
        {"return {{kind = 'pass'}, {kind = 'pass'}}", "two actions read 'pass'"},
        {"return {'pass'}", "an action must be a table"},
    };
    for (const auto& c : cases) {
        INFO(c.body);
        auto m = host_with(c.body);
        auto host = RulesHost::load(m->def);
        auto st = test::tiny_state(m->def);
        try {
            host->actions(st, "blue");
            FAIL("accepted");
        } catch (const ScriptError& e) {
            CHECK_THAT(e.what(), Catch::StartsWith("rules/main.lua:2: "));
            CHECK_THAT(e.what(), Catch::Contains(c.message));
            CHECK(e.line == 2);
        }
    }
    auto m = host_with("return {{kind = 'number', args = {3, 'x'}}}");
    auto acts = RulesHost::load(m->def)->actions(test::tiny_state(m->def), "blue");
    REQUIRE(acts.size() == 1);
    CHECK(acts[0].text() == "number 3 x");
}

TEST_CASE("actions cannot change the state", "[host]") {
    TempModule m({{"rules/main.lua", R"lua(local r = {}
function r.actions(game, role)
  if role == "roll" then game.roll(1, 6, "why") end
  game.move("b1", "0101")
  return {}
end
function r.apply() end
return r
)lua"}});
    auto host = RulesHost::load(m.def);
    const auto st = test::tiny_state(m.def);
    CHECK_THROWS_WITH(host->actions(st, "blue"),
                      Catch::Contains("game.move: the game cannot be changed in rules.actions"));
    CHECK_THROWS_WITH(host->actions(st, "roll"), Catch::Contains("game.roll: the game cannot"));
}

TEST_CASE("require: files of the rules folder only, at load time", "[host]") {
    TempModule m({{"rules/main.lua", R"lua(
local a = require("lib.a")
local r = {}
function r.actions() return {} end
function r.apply(game, role, action)
  if action.kind == "again" then assert(require("lib.a") == a)
  elseif action.kind == "late" then require("late")
  elseif action.kind == "escape" then require("../secret")
  elseif action.kind == "slash" then require("lib/a")
  end
end
return r
)lua"},
                  {"rules/lib/a.lua", "return {x = 1}"},
                  {"rules/late.lua", "return {}"},
                  {"secret.lua", "return {}"}});
    auto host = RulesHost::load(m.def);
    auto st = test::tiny_state(m.def);
    host->apply(st, "blue", {"again", {}, "", {}, {}});
    CHECK_THROWS_WITH(host->apply(st, "blue", {"late", {}, "", {}, {}}),
                      Catch::Contains("not loaded with the rules"));
    CHECK_THROWS_WITH(host->apply(st, "blue", {"escape", {}, "", {}, {}}),
                      Catch::Contains("invalid name '../secret'"));
    CHECK_THROWS_WITH(host->apply(st, "blue", {"slash", {}, "", {}, {}}),
                      Catch::Contains("invalid name"));
}

TEST_CASE("print goes to the host's sink", "[host]") {
    TempModule m({{"rules/main.lua", R"lua(
print("loading", 1, true, nil)
return {actions = function() print("listing") return {} end, apply = function() end}
)lua"}});
    std::vector<std::string> lines;
    auto host = RulesHost::load(m.def);  // the load-time print went to stderr
    host->set_print([&](const std::string& s) { lines.push_back(s); });
    host->actions(test::tiny_state(m.def), "blue");
    CHECK(lines == std::vector<std::string>{"listing"});
}

TEST_CASE("require: shared rules libraries beside the module folder", "[host]") {
    TempModule m({{"rules/main.lua", R"lua(
local g = require("lib.game")
return {actions = function() return {} end,
        apply = function(game, role, action) if action.kind == "boom" then g.boom() end end,
        name = function() return g.name end}
)lua"}});
    // The library folder is a sibling of the module folder.
    const std::string folder = m.dir.filename().string() + "_lib";
    const auto lib = m.dir.parent_path() / folder;
    std::filesystem::create_directories(lib);
    std::ofstream(lib / "game.lua")
        << "local core = require('lib.core')\n"
           "return {name = core.name, boom = function() error('x') end}\n";
    std::ofstream(lib / "core.lua") << "return {name = 'series'}\n";
    auto def = std::make_shared<core::ModuleDef>(*m.def);
    def->rule_libraries.push_back({"lib", folder});
    auto host = RulesHost::load(def);
    auto st = test::tiny_state(def);
    CHECK(host->call(st, "name") == core::Value("series"));
    CHECK_THROWS_WITH(host->apply(st, "blue", {"boom", {}, "", {}, {}}),
                      "../" + folder + "/game.lua:2: x");
    std::filesystem::remove_all(lib);
}
