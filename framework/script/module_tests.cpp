#include "script/module_tests.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "script/detail.hpp"

namespace vedette::script {

using detail::Context;
using detail::guarded;

namespace {

constexpr const char* kDriverKey = "vedette.test_driver";
constexpr const char* kTestsKey = "vedette.tests";

TestDriver& driver(lua_State* L) {
    lua_getfield(L, LUA_REGISTRYINDEX, kDriverKey);
    auto* d = static_cast<TestDriver*>(lua_touserdata(L, -1));
    lua_pop(L, 1);
    if (!d) throw detail::ApiError("no test driver");
    return *d;
}

int game_arg(lua_State* L, int idx) {
    const lua_Integer g = luaL_checkinteger(L, idx);
    return static_cast<int>(g);
}

std::vector<std::string> string_list(lua_State* L, int idx, const char* field) {
    std::vector<std::string> out;
    lua_getfield(L, idx, field);
    if (lua_istable(L, -1)) {
        const lua_Integer n = luaL_len(L, -1);
        for (lua_Integer i = 1; i <= n; ++i) {
            lua_geti(L, -1, i);
            out.emplace_back(luaL_checkstring(L, -1));
            lua_pop(L, 1);
        }
    } else if (!lua_isnil(L, -1)) {
        throw detail::ApiError(std::string("vt.new_game: '") + field + "' must be a list");
    }
    lua_pop(L, 1);
    return out;
}

// vt.new_game{scenario=, seed=, options={...}, dice={...}} -> game handle
int vt_new_game(lua_State* L) {
    TestGameSpec spec;
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        lua_getfield(L, 1, "scenario");
        if (!lua_isnil(L, -1)) spec.scenario = luaL_checkstring(L, -1);
        lua_getfield(L, 1, "seed");
        if (!lua_isnil(L, -1)) spec.seed = static_cast<std::uint64_t>(luaL_checkinteger(L, -1));
        lua_getfield(L, 1, "setup");
        if (!lua_isnil(L, -1)) spec.setup = luaL_checkstring(L, -1);
        lua_pop(L, 3);
        spec.options = string_list(L, 1, "options");
        lua_getfield(L, 1, "dice");
        if (lua_istable(L, -1)) {
            const lua_Integer n = luaL_len(L, -1);
            for (lua_Integer i = 1; i <= n; ++i) {
                lua_geti(L, -1, i);
                spec.dice.push_back(static_cast<int>(luaL_checkinteger(L, -1)));
                lua_pop(L, 1);
            }
        }
        lua_pop(L, 1);
    }
    lua_pushinteger(L, driver(L).new_game(spec));
    return 1;
}

// vt.apply / vt.try change a game's state behind the test's back: inside vt.with(g, fn), what
// was derived from g's state (game.memo, game.piece's tables) is stale afterwards.
std::string apply_in_test(lua_State* L) {
    detail::ctx(L).forget_derived();
    return driver(L).apply(game_arg(L, 1), luaL_checkstring(L, 2), luaL_checkstring(L, 3));
}

// vt.apply(g, role, text): raises "refused: <reason>" when refused.
int vt_apply(lua_State* L) {
    const std::string why = apply_in_test(L);
    if (!why.empty()) throw detail::ApiError("refused: " + why);
    return 0;
}

// vt.try(g, role, text) -> true | false, reason
int vt_try(lua_State* L) {
    const std::string why = apply_in_test(L);
    lua_pushboolean(L, why.empty());
    if (why.empty()) return 1;
    lua_pushstring(L, why.c_str());
    return 2;
}

// vt.actions(g, role) -> list of action texts
int vt_actions(lua_State* L) {
    const auto acts = driver(L).actions(game_arg(L, 1), luaL_checkstring(L, 2));
    lua_createtable(L, static_cast<int>(acts.size()), 0);
    for (size_t i = 0; i < acts.size(); ++i) {
        lua_pushstring(L, acts[i].text().c_str());
        lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
    }
    return 1;
}

// vt.has_action(g, role, text) -> boolean
int vt_has_action(lua_State* L) {
    const std::string want = luaL_checkstring(L, 3);
    const auto acts = driver(L).actions(game_arg(L, 1), luaL_checkstring(L, 2));
    lua_pushboolean(L, std::any_of(acts.begin(), acts.end(),
                                   [&](const core::Action& a) { return a.text() == want; }));
    return 1;
}

// vt.decision(g) -> {role=, step=, prompt=, rule=}; result too when the game is over.
int vt_decision(lua_State* L) {
    const auto& s = driver(L).state(game_arg(L, 1));
    lua_createtable(L, 0, 5);
    lua_pushstring(L, s.decision.role.c_str());
    lua_setfield(L, -2, "role");
    lua_pushstring(L, s.decision.step.c_str());
    lua_setfield(L, -2, "step");
    lua_pushstring(L, s.decision.prompt.c_str());
    lua_setfield(L, -2, "prompt");
    lua_pushstring(L, s.decision.rule.c_str());
    lua_setfield(L, -2, "rule");
    if (!s.result.empty()) {
        lua_pushstring(L, s.result.c_str());
        lua_setfield(L, -2, "result");
    }
    return 1;
}

// vt.events(g) -> texts of the last action's events
int vt_events(lua_State* L) {
    const auto ev = driver(L).last_events(game_arg(L, 1));
    lua_createtable(L, static_cast<int>(ev.size()), 0);
    for (size_t i = 0; i < ev.size(); ++i) {
        lua_pushstring(L, ev[i].c_str());
        lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
    }
    return 1;
}

// Calls the function at stack index 2 as fn(game), with the game API bound to `cs` for reading
// and to `s` for writing (null: read-only), restoring the previous binding afterwards.
int call_bound(lua_State* L, const core::GameState* cs, core::GameState* s) {
    luaL_checktype(L, 2, LUA_TFUNCTION);
    Context& c = detail::ctx(L);
    struct Restore {
        Context& c;
        const core::GameState* cs;
        core::GameState* s;
        ~Restore() {
            c.cstate = cs;
            c.state = s;
            c.forget_derived();
        }
    } restore{c, c.cstate, c.state};
    c.cstate = cs;
    c.state = s;
    c.forget_derived();
    const int base = lua_gettop(L);
    lua_pushvalue(L, 2);
    lua_getglobal(L, "game");
    lua_call(L, 1, LUA_MULTRET);
    return lua_gettop(L) - base;
}

// vt.with(g, fn): calls fn(game) with the game API bound read-only to game g's state.
int vt_with(lua_State* L) { return call_bound(L, &driver(L).state(game_arg(L, 1)), nullptr); }

// vt.edit(g, fn): calls fn(game) with the game API bound WRITABLE to game g's state, to arrange
// a position for a test (place pieces, set variables). Test-only: players never get this.
int vt_edit(lua_State* L) {
    core::GameState& s = driver(L).edit_state(game_arg(L, 1));
    const int n = call_bound(L, &s, &s);
    s.events.clear();
    return n;
}

// test(name, fn): registers a test.
int lua_test(lua_State* L) {
    luaL_checkstring(L, 1);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_getfield(L, LUA_REGISTRYINDEX, kTestsKey);
    const lua_Integer n = luaL_len(L, -1);
    lua_createtable(L, 2, 0);
    lua_pushvalue(L, 1);
    lua_rawseti(L, -2, 1);
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, n + 1);
    return 0;
}

int trampoline(lua_State* L) {
    auto* body = static_cast<std::function<void(lua_State*)>*>(lua_touserdata(L, 1));
    lua_remove(L, 1);
    (*body)(L);
    return 0;
}

// Runs body protected with fresh limits; returns the error message, empty on success.
std::string protected_run(lua_State* L, const std::function<void(lua_State*)>& body) {
    Context& c = detail::ctx(L);
    c.in_call = true;
    c.forget_derived();
    c.instructions = 0;
    c.abort = Context::Abort::None;
    c.abort_message.clear();
    c.cpp_error = nullptr;
    c.error_traceback.clear();
    lua_settop(L, 0);
    lua_pushcfunction(L, detail::message_handler);
    lua_pushcfunction(L, trampoline);
    lua_pushlightuserdata(L, const_cast<std::function<void(lua_State*)>*>(&body));
    const int status = lua_pcall(L, 1, 0, 1);
    c.in_call = false;
    std::string msg;
    if (status != LUA_OK) {
        if (c.abort != Context::Abort::None) {
            msg = c.abort_message;
        } else if (c.cpp_error) {
            try {
                std::rethrow_exception(c.cpp_error);
            } catch (const std::exception& e) {
                msg = e.what();
            }
        } else {
            const char* m = lua_tostring(L, -1);
            msg = m ? m : "(error object is not a string)";
        }
    }
    lua_settop(L, 0);
    return msg;
}

}  // namespace

TestReport run_module_tests(std::shared_ptr<const core::ModuleDef> def, TestDriver& drv,
                            std::ostream& out, Limits limits) {
    TestReport report;
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(def->dir) / (def->tests_dir.empty() ? "tests" : def->tests_dir);
    std::vector<fs::path> files;
    std::error_code ec;
    if (fs::is_directory(dir, ec))
        for (const auto& e : fs::directory_iterator(dir, ec))
            if (e.path().extension() == ".lua") files.push_back(e.path());
    std::sort(files.begin(), files.end());

    Context c;
    c.def = def;
    c.limits = limits;
    c.rules_dir = def->tests_dir.empty() ? "tests" : def->tests_dir;
    c.print = [&out](const std::string& s) { out << "  " << s << "\n"; };
    lua_State* L = lua_newstate(detail::limited_alloc, &c);
    if (!L) throw ScriptError("cannot create the Lua state for the tests", "", 0, "");
    struct Close {
        lua_State* L;
        ~Close() { lua_close(L); }
    } close{L};
    *static_cast<Context**>(lua_getextraspace(L)) = &c;
    lua_sethook(L, detail::count_hook, LUA_MASKCOUNT, detail::kHookStep);

    std::string err = protected_run(L, [&](lua_State* L) {
        detail::open_sandbox(L);
        detail::open_api(L);
        lua_pushlightuserdata(L, &drv);
        lua_setfield(L, LUA_REGISTRYINDEX, kDriverKey);
        lua_newtable(L);
        lua_setfield(L, LUA_REGISTRYINDEX, kTestsKey);
        lua_pushcfunction(L, guarded<lua_test>);
        lua_setglobal(L, "test");
        static const luaL_Reg vt[] = {{"new_game", guarded<vt_new_game>},
                                      {"apply", guarded<vt_apply>},
                                      {"try", guarded<vt_try>},
                                      {"actions", guarded<vt_actions>},
                                      {"has_action", guarded<vt_has_action>},
                                      {"decision", guarded<vt_decision>},
                                      {"events", guarded<vt_events>},
                                      {"with", guarded<vt_with>},
                                      {"edit", guarded<vt_edit>},
                                      {nullptr, nullptr}};
        luaL_newlib(L, vt);
        lua_setglobal(L, "vt");
    });
    if (!err.empty()) throw ScriptError("cannot set up the test environment: " + err, "", 0, "");

    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        std::ostringstream ss;
        ss << in.rdbuf();
        const std::string text = ss.str();
        const std::string chunk = "@" + c.rules_dir + "/" + f.filename().string();
        // Test files may require the module's libraries at their top, like rules files.
        c.loading = true;
        err = protected_run(L, [&](lua_State* L) {
            if (luaL_loadbufferx(L, text.data(), text.size(), chunk.c_str(), "t") != LUA_OK)
                lua_error(L);
            lua_call(L, 0, 0);
        });
        c.loading = false;
        if (!err.empty()) {
            out << "FAIL " << f.filename().string() << ": " << err << "\n";
            ++report.failed;
        }
    }

    lua_getfield(L, LUA_REGISTRYINDEX, kTestsKey);
    const lua_Integer n = luaL_len(L, -1);
    lua_pop(L, 1);
    for (lua_Integer i = 1; i <= n; ++i) {
        std::string name;
        err = protected_run(L, [&](lua_State* L) {
            lua_getfield(L, LUA_REGISTRYINDEX, kTestsKey);
            lua_geti(L, -1, i);
            lua_geti(L, -1, 1);
            name = lua_tostring(L, -1);
            lua_pop(L, 1);
            lua_geti(L, -1, 2);
            lua_call(L, 0, 0);
        });
        if (err.empty()) {
            ++report.passed;
            out << "ok   " << name << "\n";
        } else {
            ++report.failed;
            out << "FAIL " << name << ": " << err << "\n";
        }
    }
    if (report.passed + report.failed == 0) out << "no tests found in " << dir.string() << "\n";
    out << report.passed << " passed, " << report.failed << " failed\n";
    return report;
}

}  // namespace vedette::script
