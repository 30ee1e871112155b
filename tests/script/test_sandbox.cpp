// Sandbox acceptance (PRODUCT.md §6): every escape or runaway gives a clear error, the state
// passed to the failing call is left as it was, and the same host serves the next call.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstring>
#include <vector>

#include "module_fixture.hpp"
#include "script/block_pool.hpp"

using namespace vedette;
using core::Value;
using script::RulesHost;
using script::ScriptError;

namespace {

const char* kMain = R"lua(
local rules = {}
local cases = {}

cases.io = function() return io.open("/etc/passwd") end
cases.os = function() return os.execute("true") end
cases.debug = function() return debug.getinfo(1) end
cases.package = function() return package.loadlib end
cases.dofile = function() return dofile("/etc/passwd") end
cases.loadfile = function() return loadfile("/etc/passwd") end
cases.require_outside = function() return require("../secret") end
cases.require_absolute = function() return require("/etc/passwd") end
cases.dump = function() return string.dump(function() end) end
cases.binary_load = function() return load("\27Lua\84\0\25\147\13\10\26\10") end
cases.binary_mode = function() return load("return 1", "x", "b") end
cases.binary_reader = function()
  local done = false
  local f, err = load(function() if done then return nil end done = true return "\27Lua" end)
  assert(f, err)
end
cases.rep_bomb = function() return string.rep("x", 1 << 40) end
cases.rep_method_bomb = function() return ("xy"):rep(1e12, ",") end
cases.memory_bomb = function() local t = {} for i = 1, 1e9 do t[i] = {i} end end
cases.concat_bomb = function() local s = "x" while true do s = s .. s end end
-- 100 KB strings: the 64 MiB are reached in a few hundred iterations, well within the
-- instruction limit whatever the collector (with 1 KB strings the generational collector, which
-- frees the temporaries at once, let the instruction limit come first).
cases.memory_in_pcall = function()
  local t = {}
  while true do pcall(function() for i = 1, 1e6 do t[#t + 1] = ("x"):rep(100000) .. i end end) end
end
cases.loop = function() while true do end end
cases.loop_pcall = function() while true do pcall(function() while true do end end) end end
cases.loop_pcall_once = function() pcall(function() while true do end end) return "escaped" end
cases.loop_xpcall = function()
  xpcall(function() while true do end end, function(e) return e end)
  return "escaped"
end
cases.loop_xpcall_handler = function()
  xpcall(error, function() while true do end end)
  return "escaped"
end
cases.loop_coroutine = function()
  local co = coroutine.create(function() while true do end end)
  local ok, err = coroutine.resume(co)
  return "escaped"
end
cases.loop_wrap = function()
  pcall(coroutine.wrap(function() while true do end end))
  return "escaped"
end
cases.loop_yielding = function()
  local co = coroutine.wrap(function() while true do coroutine.yield() end end)
  while true do co() end
end
cases.recursion = function() local function f(n) return 1 + f(n + 1) end return f(1) end
cases.c_recursion = function()
  local t = setmetatable({}, {__index = function(t, k) return t[k] end})
  return t.x
end
cases.string_mt = function() return getmetatable("") end
cases.string_mt_index = function() getmetatable("").__index = function() return "pwned" end end
cases.string_mt_set = function() setmetatable(getmetatable(""), {}) end
cases.string_mt_rawset = function() rawset(getmetatable(""), "__index", {}) end
cases.string_lib_patch = function() string.upper = function() return "pwned" end end
cases.string_lib_rawset = function() rawset(string, "upper", print) end
cases.global_assign = function() x = 1 end
cases.global_rawset = function() rawset(_G, "x", 1) end
cases.global_existing = function() pairs = nil end
cases.rules_assign = function() rules.count = 1 end
cases.game_patch = function() game.roll = function() return 6, {6} end end
cases.math_random = function() return math.random(6) end
cases.math_randomseed = function() return math.randomseed(1) end
cases.collectgarbage = function() collectgarbage() end
cases.collectgarbage_count = function() return collectgarbage("count") > 0 end
cases.gc_metamethod = function() setmetatable({}, {__gc = function() while true do end end}) end
cases.weak = function() setmetatable({}, {__mode = "k"}) end
cases.pattern_bomb = function() return string.find(string.rep("a", 300000), "a*b") end
cases.gsub_bomb = function() return ("a"):rep(300000):gsub(".-.-b", "") end
cases.plain_find_bomb = function()
  return string.find(("a"):rep(1e6), ("a"):rep(1e5) .. "b", 1, true)
end
cases.table_move_bomb = function() table.move({}, 1, math.maxinteger - 1, 2) end
cases.insert_len_bomb = function()
  local t = setmetatable({}, {__len = function() return 1 << 50 end})
  table.insert(t, 1, "x")
end
cases.modify_then_loop = function(game)
  game.move("b1", "0101")
  game.set_var("x", 1)
  game.roll(1, 6, "before the loop")
  while true do end
end
cases.modify_then_bomb = function(game)
  game.move("b1", "0101")
  local t = {} for i = 1, 1e9 do t[i] = {i} end
end
cases.format_p = function() return string.format("%5p", {}) end
cases.format_ok = function() return string.format("%d%% %s %5.1f", 3, "x", 1.25) end
cases.upper = function() return ("abc"):upper() .. string.upper("d") end
cases.ping = function(game) return game.turn() end

function rules.actions() return {} end
function rules.apply() end
function rules.run(game, name) return cases[name](game) end
return rules
)lua";

struct Sandbox {
    test::TempModule mod{{{"rules/main.lua", kMain}, {"secret.lua", "return 1"}}};
    std::unique_ptr<RulesHost> host;
    core::GameState st = test::tiny_state(mod.def);

    explicit Sandbox(script::Limits limits = {5'000'000, 64u << 20})
        : host(RulesHost::load(mod.def, limits)) {}

    Value run(const std::string& name) { return host->call(st, "run", {Value(name)}); }

    // Runs a case that must fail; checks the state is intact and the host still works.
    std::string fails(const std::string& name) {
        const core::GameState before = st;
        std::string msg = "(no error)lua";
        try {
            run(name);
        } catch (const ScriptError& e) {
            msg = e.what();
        } catch (const core::RuleError& e) {
            msg = std::string("refusal: ") + e.what();
        }
        CHECK(st.hash() == before.hash());
        CHECK(st.events.size() == before.events.size());
        CHECK(st.rng == before.rng);
        CHECK(run("ping") == Value(1));
        CHECK(run("upper") == Value("ABCD"));
        return msg;
    }
};

}  // namespace

TEST_CASE("no io, os, debug, package, dofile, loadfile", "[sandbox]") {
    Sandbox s;
    CHECK_THAT(s.fails("io"), Catch::Contains("attempt to index a nil value (global 'io')"));
    CHECK_THAT(s.fails("os"), Catch::Contains("attempt to index a nil value (global 'os')"));
    CHECK_THAT(s.fails("debug"), Catch::Contains("attempt to index a nil value (global 'debug')"));
    CHECK_THAT(s.fails("package"),
               Catch::Contains("attempt to index a nil value (global 'package')"));
    CHECK_THAT(s.fails("dofile"), Catch::Contains("attempt to call a nil value (global 'dofile')"));
    CHECK_THAT(s.fails("loadfile"),
               Catch::Contains("attempt to call a nil value (global 'loadfile')"));
}

TEST_CASE("require reads only the rules folder", "[sandbox]") {
    Sandbox s;
    CHECK_THAT(s.fails("require_outside"), Catch::Contains("require: invalid name '../secret'"));
    CHECK_THAT(s.fails("require_absolute"), Catch::Contains("require: invalid name '/etc/passwd'"));
}

TEST_CASE("no binary chunks", "[sandbox]") {
    Sandbox s;
    CHECK_THAT(s.fails("dump"), Catch::Contains("attempt to call a nil value (field 'dump')"));
    CHECK_THAT(s.fails("binary_load"),
               Catch::Contains("load: binary chunks are not allowed in the sandbox"));
    CHECK_THAT(s.fails("binary_mode"), Catch::Contains("load: binary chunks are not allowed"));
    CHECK_THAT(s.fails("binary_reader"), Catch::Contains("attempt to load a binary chunk"));
}

TEST_CASE("memory: string.rep bombs fail fast, runaway tables hit the limit", "[sandbox]") {
    Sandbox s;
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_THAT(s.fails("rep_bomb"),
               Catch::Contains("string.rep: the result would take 1099511627776 bytes, more than "
                               "the sandbox memory limit (64 MiB) allows"));
    CHECK_THAT(s.fails("rep_method_bomb"), Catch::Contains("string.rep: the result would take"));
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
    for (const char* c : {"memory_bomb", "concat_bomb", "memory_in_pcall"}) {
        INFO(c);
        CHECK_THAT(s.fails(c), Catch::Contains("memory limit exceeded in rules.run: the rules "
                                               "need more than 64 MiB"));
        CHECK(s.host->memory_used() < (8u << 20));  // the garbage was given back
    }
}

TEST_CASE("instruction limit: plain loops, pcall, xpcall, coroutines", "[sandbox]") {
    Sandbox s;
    for (const char* c : {"loop", "loop_pcall", "loop_pcall_once", "loop_xpcall",
                          "loop_xpcall_handler", "loop_coroutine", "loop_wrap", "loop_yielding"}) {
        INFO(c);
        const std::string msg = s.fails(c);
        CHECK_THAT(msg, Catch::Contains("instruction limit exceeded in rules.run: more than "
                                        "5000000 instructions in one call"));
        CHECK_THAT(msg, Catch::StartsWith("rules/main.lua:"));
    }
    CHECK(s.host->last_instructions() < 5'000'000);  // the ping after the last failure
}

TEST_CASE("instruction limit: C loops the hook cannot see are charged", "[sandbox]") {
    Sandbox s;
    for (const char* c :
         {"pattern_bomb", "gsub_bomb", "plain_find_bomb", "table_move_bomb", "insert_len_bomb"}) {
        INFO(c);
        const auto t0 = std::chrono::steady_clock::now();
        CHECK_THAT(s.fails(c), Catch::Contains("instruction limit exceeded"));
        CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
    }
}

TEST_CASE("the default instruction limit stops a loop too", "[sandbox]") {
    Sandbox s(script::Limits{});
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_THAT(s.fails("loop"), Catch::Contains("more than 200000000 instructions"));
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(30));
}

TEST_CASE("deep recursion gives a clear error", "[sandbox]") {
    Sandbox s({50'000'000, 256u << 20});
    CHECK_THAT(s.fails("recursion"), Catch::Contains("stack overflow"));
    CHECK_THAT(s.fails("c_recursion"), Catch::Contains("stack overflow"));
}

TEST_CASE("the string metatable is out of reach", "[sandbox]") {
    Sandbox s;
    CHECK(s.run("string_mt") == Value(false));
    CHECK_THAT(s.fails("string_mt_index"), Catch::Contains("attempt to index a boolean value"));
    CHECK_THAT(s.fails("string_mt_set"), Catch::Contains("table expected, got boolean"));
    CHECK_THAT(s.fails("string_mt_rawset"), Catch::Contains("table expected, got boolean"));
    CHECK_THAT(s.fails("string_lib_patch"),
               Catch::Contains("cannot set 'string.upper': the string library is read-only"));
    CHECK_THAT(s.fails("string_lib_rawset"), Catch::Contains("the string library is read-only"));
}

TEST_CASE("globals and the rules table are frozen after load", "[sandbox]") {
    Sandbox s;
    CHECK_THAT(s.fails("global_assign"),
               Catch::Contains("cannot set global 'x': rules must not keep game state in globals "
                               "(see PRODUCT.md §3)"));
    CHECK_THAT(s.fails("global_rawset"),
               Catch::Contains("rules must not keep game state in globals (see PRODUCT.md §3)"));
    CHECK_THAT(s.fails("global_existing"), Catch::Contains("cannot set global 'pairs'"));
    CHECK_THAT(s.fails("rules_assign"),
               Catch::Contains("cannot set 'rules.count': rules must not keep game state in the "
                               "rules table"));
    CHECK_THAT(s.fails("game_patch"), Catch::Contains("the game API is read-only"));
}

TEST_CASE("no math.random, no garbage-collector tricks", "[sandbox]") {
    Sandbox s;
    CHECK_THAT(s.fails("math_random"),
               Catch::Contains("attempt to call a nil value (field 'random')"));
    CHECK_THAT(s.fails("math_randomseed"),
               Catch::Contains("attempt to call a nil value (field 'randomseed')"));
    CHECK_THAT(s.fails("collectgarbage"), Catch::Contains("only \"count\" is available"));
    CHECK(s.run("collectgarbage_count") == Value(true));
    CHECK_THAT(s.fails("gc_metamethod"), Catch::Contains("__gc metamethods are not allowed"));
    CHECK_THAT(s.fails("weak"), Catch::Contains("weak tables (__mode) are not allowed"));
}

TEST_CASE("a runaway after changes leaves the state as it was", "[sandbox]") {
    Sandbox s;
    CHECK_THAT(s.fails("modify_then_loop"), Catch::Contains("instruction limit exceeded"));
    CHECK_THAT(s.fails("modify_then_bomb"), Catch::Contains("memory limit exceeded"));
}

TEST_CASE("limits apply while the rules load", "[sandbox]") {
    test::TempModule m({{"rules/main.lua", "while true do end"}});
    CHECK_THROWS_WITH(RulesHost::load(m.def, {1'000'000, 64u << 20}),
                      Catch::Contains("instruction limit exceeded in loading the rules"));
    test::TempModule m2({{"rules/main.lua", "local t = {} for i = 1, 1e9 do t[i] = {} end"}});
    CHECK_THROWS_WITH(RulesHost::load(m2.def, {100'000'000, 16u << 20}),
                      Catch::Contains("memory limit exceeded"));
}

TEST_CASE("string.format has no %p", "[sandbox]") {
    Sandbox s;
    CHECK_THAT(s.fails("format_p"), Catch::Contains("string.format: %p is not available"));
    CHECK(s.run("format_ok") == Value("3% x   1.2"));
}

TEST_CASE("the Lua allocator's block pool: classes, reuse, alignment", "[sandbox]") {
    using script::detail::BlockPool;
    BlockPool pool;
    CHECK(BlockPool::fits(BlockPool::kMaxBlock));
    CHECK_FALSE(BlockPool::fits(BlockPool::kMaxBlock + 1));
    CHECK(BlockPool::size_class(1) == BlockPool::size_class(16));
    CHECK(BlockPool::size_class(17) == BlockPool::size_class(32));
    // Live blocks never overlap, across classes and slabs, and keep malloc's alignment.
    std::vector<std::pair<char*, std::size_t>> live;
    for (int i = 0; i < 20000; ++i) {
        const std::size_t n = 1 + static_cast<std::size_t>(i * 37) % BlockPool::kMaxBlock;
        auto* p = static_cast<char*>(pool.alloc(n));
        REQUIRE(p != nullptr);
        CHECK(reinterpret_cast<std::uintptr_t>(p) % BlockPool::kGranule == 0);
        std::memset(p, i & 0xff, n);
        live.emplace_back(p, n);
    }
    auto sorted = live;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 1; i < sorted.size(); ++i)
        CHECK(sorted[i - 1].first + sorted[i - 1].second <= sorted[i].first);
    for (size_t i = 0; i < live.size(); ++i)
        CHECK(static_cast<unsigned char>(live[i].first[live[i].second - 1]) == (i & 0xff));
    // A released block serves the next request of its class, not of another class.
    void* p = pool.alloc(40);
    pool.release(p, 40);
    void* q = pool.alloc(100);
    CHECK(q != p);
    CHECK(pool.alloc(33) == p);
}
