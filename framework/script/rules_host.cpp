#include "script/rules_host.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string_view>
#include <unordered_set>

#include "script/detail.hpp"

namespace vedette::script {

using detail::Context;

namespace {

const char* const kRules = "vedette.rules";

// "rules/main.lua:42: message" -> {"rules/main.lua", 42}; {"", 0} when there is no such prefix.
std::pair<std::string, int> parse_position(const std::string& msg) {
    for (size_t colon = msg.find(':'); colon != std::string::npos;
         colon = msg.find(':', colon + 1)) {
        size_t i = colon + 1;
        int line = 0;
        while (i < msg.size() && std::isdigit(static_cast<unsigned char>(msg[i])) &&
               line < 100000000)
            line = line * 10 + (msg[i++] - '0');
        if (i > colon + 1 && i < msg.size() && msg[i] == ':' && colon > 0)
            return {msg.substr(0, colon), line};
    }
    return {"", 0};
}

bool has_space(const std::string& s) { return s.find_first_of(" \t\r\n\v\f") != std::string::npos; }

int trampoline(lua_State* L) {
    auto* body = static_cast<const std::function<void(lua_State*)>*>(lua_touserdata(L, 1));
    lua_settop(L, 0);
    try {
        (*body)(L);
        return 0;
    } catch (const std::exception&) {
        detail::ctx(L).cpp_error = std::current_exception();
    }
    lua_pushliteral(L, "host error");
    return lua_error(L);
}

int panic(lua_State* L) {
    const char* msg = lua_tostring(L, -1);
    std::fprintf(stderr, "vedette: unprotected Lua error: %s\n", msg ? msg : "?");
    return 0;
}

// The position where the function on top of the stack is defined (the stack is unchanged).
std::pair<std::string, int> defined_at(lua_State* L) {
    lua_Debug ar;
    lua_pushvalue(L, -1);
    lua_getinfo(L, ">S", &ar);
    return {ar.short_src, ar.linedefined};
}

void push_rules_fn(lua_State* L, const std::string& name) {
    lua_getfield(L, LUA_REGISTRYINDEX, kRules);
    lua_getfield(L, -1, name.c_str());
    lua_remove(L, -2);
}

// Reads the list rules.actions returned, checking its shape; module errors name the function.
class ActionReader {
  public:
    ActionReader(lua_State* L, const core::GameState& st, std::pair<std::string, int> at)
        : L(L), st(st), at(std::move(at)) {}

    std::vector<core::Action> read(int idx) {
        idx = lua_absindex(L, idx);
        if (!lua_istable(L, idx))
            fail("rules.actions must return a list of actions, got " +
                 std::string(luaL_typename(L, idx)));
        const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, idx));
        lua_Integer keys = 0;
        lua_pushnil(L);
        while (lua_next(L, idx)) {
            lua_pop(L, 1);
            ++keys;
        }
        if (keys != n) fail("rules.actions must return a list (keys 1..n), not a map");
        std::vector<core::Action> out;
        out.reserve(static_cast<size_t>(n));
        std::unordered_set<std::string> texts;
        texts.reserve(static_cast<size_t>(n));
        for (lua_Integer i = 1; i <= n; ++i) {
            lua_rawgeti(L, idx, i);
            number = i;
            out.push_back(action(lua_gettop(L)));
            lua_pop(L, 1);
            if (!texts.insert(out.back().text()).second)
                fail("two actions read '" + out.back().text() +
                     "'; the text of every action must be unique");
        }
        return out;
    }

  private:
    [[noreturn]] void fail(const std::string& msg) {
        throw ScriptError(at.first + ":" + std::to_string(at.second) + ": " + msg, at.first,
                          at.second, "");
    }
    // Names the action being read ("action #3 (move b1 0304)"): built only for an error.
    [[noreturn]] void bad(const std::string& msg) {
        std::string where = "action #" + std::to_string(number);
        if (current && !current->kind.empty())
            where += " (" + (args_read ? current->text() : current->kind) + ")";
        fail("rules.actions returned a bad " + where + ": " + msg);
    }

    // `field` and `item` name the token in a message ("args[2]"; item 0: the field itself).
    std::string token(int idx, const char* field, lua_Integer item = 0) {
        auto what = [&] {
            return std::string(field) + (item > 0 ? "[" + std::to_string(item) + "]" : "");
        };
        std::string s;
        if (lua_type(L, idx) == LUA_TSTRING) {
            s = lua_tostring(L, idx);
        } else if (lua_isinteger(L, idx)) {
            s = std::to_string(lua_tointeger(L, idx));
        } else {
            bad(what() + " must be a string or an integer, got " + luaL_typename(L, idx));
        }
        if (s.empty() || has_space(s)) bad(what() + " '" + s + "' must be one word (no spaces)");
        return s;
    }

    std::vector<std::string> strings(int t, const char* field) {
        std::vector<std::string> out;
        const int type = lua_getfield(L, t, field);
        if (type == LUA_TTABLE) {
            const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, -1));
            out.reserve(static_cast<size_t>(n));
            for (lua_Integer i = 1; i <= n; ++i) {
                lua_rawgeti(L, -1, i);
                out.push_back(token(-1, field, i));
                lua_pop(L, 1);
            }
        } else if (type != LUA_TNIL) {
            bad(std::string(field) + " must be a list, got " + lua_typename(L, type));
        }
        lua_pop(L, 1);
        return out;
    }

    core::Action action(int t) {
        if (!lua_istable(L, t))
            bad("an action must be a table, got " + std::string(luaL_typename(L, t)));
        std::set<std::string> unknown;
        lua_pushnil(L);
        while (lua_next(L, t)) {
            lua_pop(L, 1);
            if (lua_type(L, -1) != LUA_TSTRING) {
                unknown.insert("<non-string key>");
                continue;
            }
            const std::string_view k = lua_tostring(L, -1);
            if (k != "kind" && k != "args" && k != "label" && k != "hexes" && k != "pieces" &&
                k != "public")
                unknown.insert(std::string(k));
        }
        core::Action a;
        current = &a;
        args_read = false;
        if (!unknown.empty())
            bad("unknown field '" + *unknown.begin() +
                "' (fields: kind, args, label, hexes, pieces, public)");
        if (lua_getfield(L, t, "kind") == LUA_TNIL) bad("it has no kind");
        a.kind = token(-1, "kind");
        lua_pop(L, 1);
        a.args = strings(t, "args");
        args_read = true;
        const int lt = lua_getfield(L, t, "label");
        if (lt == LUA_TSTRING)
            a.label = lua_tostring(L, -1);
        else if (lt != LUA_TNIL)
            bad("label must be a string, got " + std::string(lua_typename(L, lt)));
        lua_pop(L, 1);
        if (a.label.empty()) a.label = a.text();
        const int pt = lua_getfield(L, t, "public");
        if (pt == LUA_TSTRING)
            a.public_text = lua_tostring(L, -1);
        else if (pt != LUA_TNIL)
            bad("public must be a string, got " + std::string(lua_typename(L, pt)));
        lua_pop(L, 1);
        a.hexes = strings(t, "hexes");
        for (const auto& h : a.hexes)
            if (!st.def().map.parse_label(h)) bad("hexes: '" + h + "' is not a hex of the map");
        a.pieces = strings(t, "pieces");
        for (const auto& p : a.pieces)
            if (st.find_piece(p) < 0) bad("pieces: there is no piece '" + p + "'");
        current = nullptr;
        return a;
    }

    lua_State* L;
    const core::GameState& st;
    std::pair<std::string, int> at;
    lua_Integer number = 0;                 // of the action being read
    const core::Action* current = nullptr;  // the action being read, for messages
    bool args_read = false;
};

}  // namespace

struct RulesHost::Impl {
    std::unique_ptr<Context> c;
    lua_State* L = nullptr;
    std::set<std::string> functions;
    std::uint64_t last_instructions = 0;

    ~Impl() {
        if (L) lua_close(L);
    }

    // Runs body inside a protected call with the state bound (cst for reading, st for writing),
    // and turns whatever went wrong into the right C++ exception.
    void run(const std::string& name, const core::GameState* cst, core::GameState* st,
             const std::function<void(lua_State*)>& body) {
        Context& x = *c;
        x.cstate = cst;
        x.state = st;
        x.readonly_depth = 0;
        x.in_call = true;
        x.forget_derived();
        x.call_name = name;
        x.instructions = 0;
        x.abort = Context::Abort::None;
        x.abort_message.clear();
        x.abort_traceback.clear();
        x.error_traceback.clear();
        x.error_file.clear();
        x.error_line = 0;
        x.cpp_error = nullptr;
        struct Unbind {
            Context& x;
            ~Unbind() {
                x.forget_derived();
                x.cstate = nullptr;
                x.state = nullptr;
                x.in_call = false;
            }
        } unbind{x};

        lua_settop(L, 0);
        lua_pushcfunction(L, detail::message_handler);
        lua_pushcfunction(L, trampoline);
        lua_pushlightuserdata(L, const_cast<std::function<void(lua_State*)>*>(&body));
        const int status = lua_pcall(L, 1, 0, 1);
        last_instructions = x.instructions;
        if (status == LUA_OK) {
            lua_settop(L, 0);
            return;
        }
        if (status == LUA_ERRMEM) detail::set_memory_abort(L);
        std::string msg;
        bool refusal = false;
        if (x.abort == Context::Abort::None && !x.cpp_error) {
            refusal = detail::is_refusal(L, -1);
            if (refusal) {
                msg = detail::refusal_reason(L, -1);
            } else {
                const char* m = lua_tostring(L, -1);
                msg = m ? m : "(error object is not a string)";
                if (status == LUA_ERRERR) msg = "error while handling an error: " + msg;
                if (msg.find("stack overflow") != std::string::npos)
                    msg += " (recursion too deep: the Lua stack is limited)";
            }
        }
        lua_settop(L, 0);
        const bool aborted = x.abort != Context::Abort::None;
        if (aborted) lua_gc(L, LUA_GCCOLLECT, 0);  // give the garbage of a runaway back now
        if (aborted) {
            auto [file, line] = parse_position(x.abort_message);
            throw ScriptError(x.abort_message, file, line, x.abort_traceback);
        }
        if (x.cpp_error) std::rethrow_exception(x.cpp_error);
        if (refusal) throw core::RuleError(msg);
        auto [file, line] = parse_position(msg);
        if (file.empty()) {
            file = x.error_file;
            line = x.error_line;
        }
        throw ScriptError(msg, file, line, x.error_traceback);
    }

    void push_game() { lua_getglobal(L, "game"); }

    // Runs a writing call with the strong guarantee.
    void transact(core::GameState& state, const std::string& name,
                  const std::function<void(lua_State*)>& body) {
        core::GameState backup = state;
        try {
            run(name, &state, &state, body);
        } catch (...) {
            state = std::move(backup);
            throw;
        }
    }
};

RulesHost::RulesHost(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RulesHost::~RulesHost() = default;

std::unique_ptr<RulesHost> RulesHost::load(std::shared_ptr<const core::ModuleDef> def,
                                           Limits limits) {
    if (!def) throw std::invalid_argument("RulesHost::load: no module definition");
    if (def->rules_main.empty())
        throw ScriptError("module.xml: the module names no rules file (<rules main=\"...\"/>)",
                          "module.xml", 0, "");
    auto impl = std::make_unique<Impl>();
    impl->c = std::make_unique<Context>();
    Context& c = *impl->c;
    c.def = def;
    c.limits = limits;
    const std::filesystem::path main_path(def->rules_main);
    c.rules_dir = main_path.parent_path().generic_string();
    c.print = [](const std::string& s) { std::cerr << "[rules] " << s << '\n'; };
    if (const char* path = std::getenv("VEDETTE_LUA_PROFILE"); path && *path) {
        static int hosts = 0;  // the AI loads hosts of its own: tell their reports apart
        c.profiler = std::make_unique<detail::Profiler>(path);
        c.profiler->set_title("module " + def->id + ", rules host #" + std::to_string(++hosts));
    }

    lua_State* L = lua_newstate(detail::limited_alloc, &c);
    if (!L) throw ScriptError("cannot create the Lua state (memory limit too small?)", "", 0, "");
    impl->L = L;
    *static_cast<Context**>(lua_getextraspace(L)) = &c;
    lua_atpanic(L, panic);
    lua_sethook(L, detail::count_hook, LUA_MASKCOUNT, detail::kHookStep);

    const std::string main_file = def->rules_main;
    const std::string main_name = main_path.stem().string();
    impl->run("loading the rules", nullptr, nullptr, [&](lua_State* L) {
        detail::open_sandbox(L);
        detail::open_api(L);
        c.loading = true;
        lua_getglobal(L, "require");
        lua_pushstring(L, main_name.c_str());
        lua_call(L, 1, 1);
        if (!lua_istable(L, -1))
            throw ScriptError(
                main_file + ": must return the rules table, got " + luaL_typename(L, -1), main_file,
                0, "");
        const int rules = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, rules)) {
            if (lua_type(L, -2) == LUA_TSTRING && lua_isfunction(L, -1))
                impl->functions.insert(lua_tostring(L, -2));
            lua_pop(L, 1);
        }
        for (const char* required : {"actions", "apply"})
            if (!impl->functions.count(required))
                throw ScriptError(
                    main_file + ": the rules table has no function '" + required + "'", main_file,
                    0, "");
        lua_getfield(L, rules, "setup");
        if (!lua_isnil(L, -1) && !lua_isfunction(L, -1))
            throw ScriptError(main_file + ": rules.setup must be a function", main_file, 0, "");
        lua_pop(L, 1);
        detail::freeze(L, rules, "'rules.{}'",
                       "rules must not keep game state in the rules table (see PRODUCT.md §3)");
        lua_pushvalue(L, rules);
        lua_setfield(L, LUA_REGISTRYINDEX, kRules);
        detail::finish_loading(L);
    });
    lua_gc(L, LUA_GCCOLLECT, 0);
    // Rules calls make many short-lived tables (pieces, action lists, search frontiers) around
    // a long-lived core (the loaded rules): the generational collector's case.
    lua_gc(L, LUA_GCGEN, 0, 0);
    return std::unique_ptr<RulesHost>(new RulesHost(std::move(impl)));
}

void RulesHost::setup(core::GameState& state) {
    if (!has_function("setup")) return;
    impl_->transact(state, "rules.setup", [&](lua_State* L) {
        push_rules_fn(L, "setup");
        impl_->push_game();
        lua_call(L, 1, 0);
    });
}

std::vector<core::Action> RulesHost::actions(const core::GameState& state,
                                             const std::string& role) {
    std::vector<core::Action> out;
    impl_->run("rules.actions", &state, nullptr, [&](lua_State* L) {
        push_rules_fn(L, "actions");
        auto at = defined_at(L);
        impl_->push_game();
        lua_pushlstring(L, role.data(), role.size());
        lua_call(L, 2, 1);
        out = ActionReader(L, state, at).read(-1);
    });
    return out;
}

namespace {
// Pushes rules.apply and its arguments (game, role, {kind=, args=, text=}) and calls it.
void call_apply(lua_State* L, const std::string& role, const core::Action& action) {
    push_rules_fn(L, "apply");
    lua_getglobal(L, "game");
    lua_pushlstring(L, role.data(), role.size());
    lua_createtable(L, 0, 3);
    lua_pushlstring(L, action.kind.data(), action.kind.size());
    lua_setfield(L, -2, "kind");
    lua_createtable(L, static_cast<int>(action.args.size()), 0);
    lua_Integer i = 0;
    for (const auto& a : action.args) {
        lua_pushlstring(L, a.data(), a.size());
        lua_rawseti(L, -2, ++i);
    }
    lua_setfield(L, -2, "args");
    const std::string text = action.text();
    lua_pushlstring(L, text.data(), text.size());
    lua_setfield(L, -2, "text");
    lua_call(L, 3, 0);
}
}  // namespace

void RulesHost::apply_to_scratch(core::GameState& scratch, const std::string& role,
                                 const core::Action& action) {
    impl_->run("rules.apply", &scratch, &scratch,
               [&](lua_State* L) { call_apply(L, role, action); });
}

void RulesHost::apply(core::GameState& state, const std::string& role, const core::Action& action) {
    impl_->transact(state, "rules.apply", [&](lua_State* L) { call_apply(L, role, action); });
}

core::Value RulesHost::call(core::GameState& state, const std::string& function,
                            const std::vector<core::Value>& args) {
    if (!has_function(function))
        throw ScriptError(def().rules_main + ": the rules table has no function '" + function + "'",
                          def().rules_main, 0, "");
    core::Value out;
    impl_->transact(state, "rules." + function, [&](lua_State* L) {
        push_rules_fn(L, function);
        auto at = defined_at(L);
        impl_->push_game();
        luaL_checkstack(L, static_cast<int>(args.size()) + 1, "too many arguments");
        for (const auto& a : args) detail::push_value(L, a);
        lua_call(L, 1 + static_cast<int>(args.size()), 1);
        try {
            out = detail::to_value(L, -1, "rules." + function + " returned a bad result");
        } catch (const detail::ApiError& e) {
            throw ScriptError(at.first + ":" + std::to_string(at.second) + ": " + e.what(),
                              at.first, at.second, "");
        }
    });
    return out;
}

const std::set<std::string>& RulesHost::functions() const { return impl_->functions; }
const core::ModuleDef& RulesHost::def() const { return *impl_->c->def; }
const Limits& RulesHost::limits() const { return impl_->c->limits; }
std::size_t RulesHost::memory_used() const { return impl_->c->mem_used; }
std::uint64_t RulesHost::last_instructions() const { return impl_->last_instructions; }
void RulesHost::set_print(std::function<void(const std::string&)> sink) {
    impl_->c->print = std::move(sink);
}

}  // namespace vedette::script
