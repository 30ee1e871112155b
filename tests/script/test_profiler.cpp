// The Lua profiler (VEDETTE_LUA_PROFILE=FILE): a rules host loaded with the variable set writes,
// when it is destroyed, which rules functions and lines ran and how often each host API
// function was called.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "module_fixture.hpp"

using namespace vedette;

namespace {

// scan_pieces runs a loop of a known number of game.piece and game.pieces_at calls.
const char* kProfiled = R"lua(
local rules = {}
local function scan_pieces(game)
  local n = 0
  for i = 1, 250 do
    if game.piece("b1").loc == "0202" then n = n + 1 end
    n = n + #game.pieces_at("0202")
  end
  return n
end
function rules.actions(game, role)
  scan_pieces(game)
  return {{kind = "pass"}}
end
function rules.apply() end
return rules
)lua";

std::string read(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The calls column of the host API line naming `fn` ("     750     0.3  game.piece"); -1 if none.
long long api_calls(const std::string& report, const std::string& fn) {
    std::istringstream in(report);
    std::string line;
    while (std::getline(in, line)) {
        const std::string tail = "  " + fn;
        if (line.size() < tail.size() || line.compare(line.size() - tail.size(), tail.size(), tail) != 0)
            continue;
        return std::stoll(line);
    }
    return -1;
}

}  // namespace

TEST_CASE("VEDETTE_LUA_PROFILE writes the hottest rules functions and the host API calls",
          "[profiler]") {
    test::TempModule m({{"rules/main.lua", kProfiled}});
    const auto report_path = m.dir / "profile.txt";
    REQUIRE(::setenv("VEDETTE_LUA_PROFILE", report_path.c_str(), 1) == 0);
    {
        auto host = script::RulesHost::load(m.def);
        ::unsetenv("VEDETTE_LUA_PROFILE");  // only this host profiles
        const auto st = test::tiny_state(m.def);
        for (int i = 0; i < 3; ++i) CHECK(host->actions(st, "blue").size() == 1);
        CHECK_FALSE(std::filesystem::exists(report_path));  // written when the host goes
    }
    ::unsetenv("VEDETTE_LUA_PROFILE");
    const std::string report = read(report_path);
    INFO(report);
    CHECK_THAT(report, Catch::StartsWith("== Lua profile: module tiny, rules host #"));
    // The loop is where the instructions go: its function and its lines are named.
    CHECK_THAT(report, Catch::Contains("scan_pieces (rules/main.lua:3)"));
    CHECK_THAT(report, Catch::Contains("-- hottest lines"));
    CHECK_THAT(report, Catch::Matches("(.|\n)*\n +[0-9.]+  rules/main.lua:[4-7]\n(.|\n)*"));
    // Every host API call is counted: 3 listings of 250 rounds.
    CHECK(api_calls(report, "game.piece") == 750);
    CHECK(api_calls(report, "game.pieces_at") == 750);
    CHECK(api_calls(report, "game.turn") == -1);  // never called, never listed
}
