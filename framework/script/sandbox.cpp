// The sandbox of PRODUCT.md §6: which libraries the rules get, what replaces the unsafe or
// non-deterministic parts, and how the instruction and memory limits are enforced, even against
// code that catches errors with pcall/xpcall or hides in coroutines.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include "script/detail.hpp"

namespace vedette::script::detail {

namespace {

// A frozen table's metatable holds its backing table under this address: the rules cannot make
// light userdata, so only the host can mark a table frozen (and __metatable hides it anyway).
const char kFrozenMark = 0;
const char* const kLoaded = "vedette.loaded";  // registry: require name -> result
const char kLoadingSentinel = 0;               // address marks a file being required

std::string mib(std::size_t bytes) {
    std::ostringstream o;
    if (bytes % (1u << 20) == 0)
        o << (bytes >> 20) << " MiB";
    else
        o << bytes << " bytes";
    return o.str();
}

// "rules/main.lua:12: " for the innermost Lua function with a line, or "".
std::string where(lua_State* L) {
    lua_Debug ar;
    for (int level = 0; level < 8 && lua_getstack(L, level, &ar); ++level) {
        lua_getinfo(L, "Sl", &ar);
        if (ar.currentline > 0)
            return std::string(ar.short_src) + ":" + std::to_string(ar.currentline) + ": ";
    }
    return {};
}

void set_instruction_abort(lua_State* L) {
    Context& c = ctx(L);
    c.abort = Context::Abort::Instructions;
    // Runs inside the count hook: no C++ exception may leave it.
    try {
        c.abort_message = where(L) + "instruction limit exceeded in " + c.call_name +
                          ": more than " + std::to_string(c.limits.instructions) +
                          " instructions in one call (an endless loop?)";
    } catch (const std::exception&) {
        c.abort_message.clear();
    }
    luaL_traceback(L, L, nullptr, 0);
    try {
        if (const char* tb = lua_tostring(L, -1)) c.abort_traceback = tb;
    } catch (const std::exception&) {
    }
    lua_pop(L, 1);
}

}  // namespace

// ---- limits ----------------------------------------------------------------------------------

void* limited_alloc(void* ud, void* ptr, size_t osize, size_t nsize) {
    auto* c = static_cast<Context*>(ud);
    const size_t old = ptr ? osize : 0;  // without ptr, osize is a type tag
    if (nsize == 0) {
        if (ptr) {
            if (BlockPool::fits(old))
                c->pool.release(ptr, old);
            else
                std::free(ptr);
        }
        c->mem_used -= old;
        return nullptr;
    }
    if (nsize > old) {
        const size_t room = c->limits.memory > c->mem_used ? c->limits.memory - c->mem_used : 0;
        if (nsize - old > room) return nullptr;  // Lua collects garbage and retries, then fails
    }
    void* p = nullptr;
    const bool small_before = ptr && BlockPool::fits(old), small_after = BlockPool::fits(nsize);
    if (ptr && !small_before && !small_after) {
        p = std::realloc(ptr, nsize);
    } else if (small_before && small_after &&
               BlockPool::size_class(old) == BlockPool::size_class(nsize)) {
        p = ptr;  // the block has room already
    } else {
        p = small_after ? c->pool.alloc(nsize) : std::malloc(nsize);
        if (p && ptr) {
            std::memcpy(p, ptr, std::min(old, nsize));
            if (small_before)
                c->pool.release(ptr, old);
            else
                std::free(ptr);
        }
    }
    if (!p) return nullptr;  // Lua 5.4 turns this into a memory error, even when shrinking
    c->mem_used = c->mem_used - old + nsize;
    return p;
}

[[noreturn]] void raise_abort(lua_State* L) {
    const std::string& m = ctx(L).abort_message;
    lua_pushstring(L, m.empty() ? "a sandbox limit was exceeded" : m.c_str());
    lua_error(L);
    __builtin_unreachable();
}

void set_memory_abort(lua_State* L) {
    Context& c = ctx(L);
    if (c.abort != Context::Abort::None) return;
    c.abort = Context::Abort::Memory;
    try {
        c.abort_message = "memory limit exceeded in " + c.call_name +
                          ": the rules need more than " + mib(c.limits.memory) +
                          " (a runaway table or string?)";
    } catch (const std::exception&) {
        c.abort_message.clear();
    }
}

void count_hook(lua_State* L, lua_Debug*) {
    Context& c = ctx(L);
    if (!c.in_call) return;
    if (c.profiler) c.profiler->sample(L);
    c.instructions += kHookStep;
    if (c.abort == Context::Abort::None && c.instructions > c.limits.instructions)
        set_instruction_abort(L);
    if (c.abort != Context::Abort::None) raise_abort(L);
}

void charge(lua_State* L, std::uint64_t units) {
    Context& c = ctx(L);
    if (!c.in_call) return;
    c.instructions += units;
    if (c.abort == Context::Abort::None && c.instructions > c.limits.instructions)
        set_instruction_abort(L);
    if (c.abort != Context::Abort::None) raise_abort(L);
}

namespace {

// After a protected call inside the sandbox: a limit that was hit stays hit.
void reraise_limits(lua_State* L, int status) {
    if (status == LUA_ERRMEM) set_memory_abort(L);
    if (ctx(L).abort != Context::Abort::None) raise_abort(L);
}

// ---- pcall / xpcall: as lbaselib's, but limits cannot be caught ----

int finish_pcall(lua_State* L, int status, lua_KContext extra) {
    reraise_limits(L, status);
    if (status != LUA_OK && status != LUA_YIELD) {
        lua_pushboolean(L, 0);
        lua_pushvalue(L, -2);
        return 2;
    }
    return lua_gettop(L) - static_cast<int>(extra);
}

int sb_pcall(lua_State* L) {
    luaL_checkany(L, 1);
    lua_pushboolean(L, 1);
    lua_insert(L, 1);
    const int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, finish_pcall);
    return finish_pcall(L, status, 0);
}

// The module's message handler, skipped once a limit is hit: an error raised by the count hook
// leaves hooks disabled until the enclosing pcall returns, so a looping handler could never be
// stopped.
int xpcall_handler(lua_State* L) {
    if (ctx(L).abort != Context::Abort::None) return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

int sb_xpcall(lua_State* L) {
    const int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, guarded<xpcall_handler>, 1);
    lua_replace(L, 2);
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2);
    const int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, finish_pcall);
    return finish_pcall(L, status, 2);
}

// ---- coroutine.resume / wrap: as lcorolib's, but limits cannot be caught ----

int aux_resume(lua_State* L, lua_State* co, int narg) {
    if (!lua_checkstack(co, narg)) {
        lua_pushliteral(L, "too many arguments to resume");
        return -1;
    }
    lua_xmove(L, co, narg);
    int nres = 0;
    const int status = lua_resume(co, L, narg, &nres);
    reraise_limits(L, status);
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            lua_pushliteral(L, "too many results to resume");
            return -1;
        }
        lua_xmove(co, L, nres);
        return nres;
    }
    lua_xmove(co, L, 1);
    return -1;
}

int sb_resume(lua_State* L) {
    lua_State* co = lua_tothread(L, 1);
    luaL_argexpected(L, co, 1, "coroutine");
    const int r = aux_resume(L, co, lua_gettop(L) - 1);
    if (r < 0) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushboolean(L, 1);
    lua_insert(L, -(r + 1));
    return r + 1;
}

int wrap_call(lua_State* L) {
    lua_State* co = lua_tothread(L, lua_upvalueindex(1));
    const int r = aux_resume(L, co, lua_gettop(L));
    if (r < 0) return lua_error(L);
    return r;
}

int sb_wrap(lua_State* L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State* co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    lua_pushcclosure(L, guarded<wrap_call>, 1);
    return 1;
}

// ---- frozen tables ----

std::string key_text(lua_State* L, int idx) {
    if (lua_type(L, idx) == LUA_TSTRING) return lua_tostring(L, idx);
    if (lua_type(L, idx) == LUA_TNUMBER) {
        lua_pushvalue(L, idx);
        std::string s = lua_tostring(L, -1);
        lua_pop(L, 1);
        return "[" + s + "]";
    }
    return std::string("<") + luaL_typename(L, idx) + " key>";
}

int frozen_newindex_impl(lua_State* L) {
    std::string what = lua_tostring(L, lua_upvalueindex(1));
    const std::string key = key_text(L, 2);
    const auto pos = what.find("{}");
    if (pos != std::string::npos) what.replace(pos, 2, key);
    const std::string msg = "cannot set " + what + ": " + lua_tostring(L, lua_upvalueindex(2));
    throw ApiError(msg);
}

int frozen_len(lua_State* L) {  // shared by every frozen table: #t is its contents' length
    push_contents(L, 1);
    lua_pushinteger(L, static_cast<lua_Integer>(lua_rawlen(L, -1)));
    return 1;
}

// ---- deterministic pairs / next ----

// The order pairs() and next() follow: numbers ascending, then strings bytewise, then false,
// true. Other keys have no order that is the same in every process, so iterating them errors.
struct SortKey {
    int rank = 0;
    bool is_int = false;
    lua_Integer i = 0;
    lua_Number d = 0;
    std::string_view s;
    bool b = false;
    int slot = 0;
};

SortKey classify(lua_State* L, int idx, const char* fn) {
    SortKey k;
    switch (lua_type(L, idx)) {
        case LUA_TNUMBER:
            k.rank = 0;
            k.is_int = lua_isinteger(L, idx);
            if (k.is_int)
                k.i = lua_tointeger(L, idx);
            else
                k.d = lua_tonumber(L, idx);
            break;
        case LUA_TSTRING: {
            k.rank = 1;
            size_t n = 0;
            const char* s = lua_tolstring(L, idx, &n);
            k.s = std::string_view(s, n);
            break;
        }
        case LUA_TBOOLEAN:
            k.rank = 2;
            k.b = lua_toboolean(L, idx);
            break;
        default:
            luaL_error(L,
                       "%s: a table with a %s key has no deterministic order (use numbers, "
                       "strings or booleans as keys)",
                       fn, luaL_typename(L, idx));
    }
    return k;
}

bool key_less(const SortKey& a, const SortKey& b) {
    if (a.rank != b.rank) return a.rank < b.rank;
    switch (a.rank) {
        case 0:
            if (a.is_int && b.is_int) return a.i < b.i;
            {
                const lua_Number x = a.is_int ? static_cast<lua_Number>(a.i) : a.d;
                const lua_Number y = b.is_int ? static_cast<lua_Number>(b.i) : b.d;
                if (x != y) return x < y;
                return a.is_int && !b.is_int;
            }
        case 1:
            return a.s < b.s;
        default:
            return !a.b && b.b;
    }
}

int pairs_iter(lua_State* L) {
    lua_Integer i = lua_tointeger(L, lua_upvalueindex(3));
    for (;;) {
        ++i;
        if (lua_rawgeti(L, lua_upvalueindex(2), i) == LUA_TNIL) break;
        lua_pushvalue(L, -1);
        if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) {  // skip keys removed meanwhile
            lua_pushinteger(L, i);
            lua_replace(L, lua_upvalueindex(3));
            return 2;
        }
        lua_pop(L, 2);
    }
    lua_pushinteger(L, i);
    lua_replace(L, lua_upvalueindex(3));
    return 1;
}

int sb_pairs_impl(lua_State* L) {
    luaL_checkany(L, 1);
    lua_settop(L, 1);
    if (!push_contents(L, 1) && luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 3);
        return 3;
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    const int t = 2;
    lua_newtable(L);  // keeps the keys alive while sorting
    const int keep = lua_gettop(L);
    std::vector<SortKey> keys;
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_rawseti(L, keep, ++n);
        SortKey k = classify(L, -1, "pairs");
        k.slot = n;
        keys.push_back(k);
    }
    std::sort(keys.begin(), keys.end(), key_less);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; ++i) {
        lua_rawgeti(L, keep, keys[static_cast<size_t>(i)].slot);
        lua_rawseti(L, -2, i + 1);
    }
    lua_remove(L, keep);
    lua_pushinteger(L, 0);
    lua_pushcclosure(L, guarded<pairs_iter>, 3);  // backing, ordered keys, position
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

// next(t, k): the key after k in pairs order. O(n) per call; use pairs to iterate.
int sb_next_impl(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    push_contents(L, 1);
    const int t = 3;
    lua_pushnil(L);  // best key so far, at 4
    const int best = 4;
    const bool bounded = !lua_isnil(L, 2);
    SortKey bound;
    if (bounded) bound = classify(L, 2, "next");
    bool found = false;
    SortKey best_key;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        lua_pop(L, 1);
        SortKey k = classify(L, -1, "next");
        if ((!bounded || key_less(bound, k)) && (!found || key_less(k, best_key))) {
            lua_pushvalue(L, -1);
            lua_replace(L, best);
            best_key = classify(L, best, "next");
            found = true;
        }
    }
    if (!found) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushvalue(L, best);
    lua_pushvalue(L, best);
    lua_rawget(L, t);
    return 2;
}

int sb_rawget(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    lua_settop(L, 2);
    push_contents(L, 1);
    lua_pushvalue(L, 2);
    lua_rawget(L, -2);
    return 1;
}

int sb_rawset(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    lua_settop(L, 3);
    if (push_contents(L, 1)) {
        // Same refusal as a plain assignment: the frozen table's __newindex says why.
        lua_getmetatable(L, 1);
        lua_getfield(L, -1, "__newindex");
        lua_pushvalue(L, 1);
        lua_pushvalue(L, 2);
        lua_pushvalue(L, 3);
        lua_call(L, 3, 0);
    }
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

int sb_rawlen(lua_State* L) {
    const int t = lua_type(L, 1);
    luaL_argexpected(L, t == LUA_TTABLE || t == LUA_TSTRING, 1, "table or string");
    lua_settop(L, 1);
    if (t == LUA_TTABLE) push_contents(L, 1);
    lua_pushinteger(L, static_cast<lua_Integer>(lua_rawlen(L, -1)));
    return 1;
}

// setmetatable without finalisers or weak tables: both make results depend on when the
// garbage collector runs, and a finaliser would run module code outside any call.
int sb_setmetatable(lua_State* L) {
    if (lua_type(L, 2) == LUA_TTABLE) {
        lua_getfield(L, 2, "__gc");
        if (!lua_isnil(L, -1))
            return luaL_error(L,
                              "setmetatable: __gc metamethods are not allowed in the sandbox "
                              "(they would run at garbage-collection time)");
        lua_pop(L, 1);
        lua_getfield(L, 2, "__mode");
        if (!lua_isnil(L, -1))
            return luaL_error(L,
                              "setmetatable: weak tables (__mode) are not allowed in the "
                              "sandbox (their contents depend on garbage-collection timing)");
        lua_pop(L, 1);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

// ---- load / collectgarbage / print ----

int sb_load(lua_State* L) {
    const int n = lua_gettop(L);
    if (lua_type(L, 1) == LUA_TSTRING) {
        size_t len = 0;
        const char* s = lua_tolstring(L, 1, &len);
        if (len > 0 && s[0] == LUA_SIGNATURE[0])
            return luaL_error(L, "load: binary chunks are not allowed in the sandbox");
    }
    if (n >= 3 && !lua_isnil(L, 3)) {
        const char* mode = luaL_checkstring(L, 3);
        if (std::strchr(mode, 'b'))
            return luaL_error(L,
                              "load: binary chunks are not allowed in the sandbox (mode "
                              "must be \"t\")");
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    if (n >= 2)
        lua_pushvalue(L, 2);
    else
        lua_pushnil(L);
    lua_pushliteral(L, "t");
    int nargs = 3;
    if (n >= 4) {  // an explicit nil env is an env too, as in the original
        lua_pushvalue(L, 4);
        nargs = 4;
    }
    lua_call(L, nargs, LUA_MULTRET);
    return lua_gettop(L) - n;
}

int sb_collectgarbage(lua_State* L) {
    const char* opt = luaL_optstring(L, 1, "collect");
    if (std::strcmp(opt, "count") != 0)
        return luaL_error(L,
                          "collectgarbage: only \"count\" is available in the sandbox (got "
                          "\"%s\")",
                          opt);
    const int kb = lua_gc(L, LUA_GCCOUNT, 0);
    const int b = lua_gc(L, LUA_GCCOUNTB, 0);
    lua_pushnumber(L, static_cast<lua_Number>(kb) + static_cast<lua_Number>(b) / 1024);
    return 1;
}

int sb_print_impl(lua_State* L) {
    const int n = lua_gettop(L);
    std::string line;
    for (int i = 1; i <= n; ++i) {
        size_t len = 0;
        const char* s = luaL_tolstring(L, i, &len);
        if (i > 1) line += '\t';
        line.append(s, len);
        lua_pop(L, 1);
    }
    Context& c = ctx(L);
    if (c.print) c.print(line);
    return 0;
}

// ---- string / table guards ----

int sb_rep_impl(lua_State* L) {
    size_t l = 0, lsep = 0;
    luaL_checklstring(L, 1, &l);
    const lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n > 0) {
        const double total = static_cast<double>(l) * static_cast<double>(n) +
                             static_cast<double>(lsep) * static_cast<double>(n - 1);
        const Context& c = ctx(L);
        const size_t room = c.limits.memory > c.mem_used ? c.limits.memory - c.mem_used : 0;
        if (total > static_cast<double>(room)) {
            std::ostringstream o;
            o.precision(0);
            o << std::fixed << total;
            throw ApiError("string.rep: the result would take " + o.str() +
                           " bytes, more than the sandbox memory limit (" + mib(c.limits.memory) +
                           ") allows");
        }
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

// string.format without %p: addresses differ from run to run, so results would too.
int sb_format_impl(lua_State* L) {
    size_t n = 0;
    const char* f = luaL_checklstring(L, 1, &n);
    for (size_t i = 0; i < n; ++i) {
        if (f[i] != '%') continue;
        if (++i < n && f[i] == '%') continue;
        while (i < n && std::strchr("-+ #0123456789.", f[i])) ++i;
        if (i < n && f[i] == 'p')
            throw ApiError(
                "string.format: %p is not available in the sandbox (addresses differ "
                "from run to run)");
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

// C loops the count hook cannot see are charged to the instruction budget up front.
int sb_tmove(lua_State* L) {
    const lua_Integer f = luaL_checkinteger(L, 2);
    const lua_Integer e = luaL_checkinteger(L, 3);
    if (e >= f) charge(L, static_cast<std::uint64_t>(e) - static_cast<std::uint64_t>(f) + 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

int sb_tshift(lua_State* L) {  // table.insert / table.remove shift up to #t elements
    luaL_checkany(L, 1);
    const lua_Integer n = luaL_len(L, 1);
    if (n > 0) charge(L, static_cast<std::uint64_t>(n));
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

// ---- require ----

bool valid_module_name(std::string_view name) {
    if (name.empty() || name.front() == '.' || name.back() == '.') return false;
    char prev = 0;
    for (char ch : name) {
        const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                        (ch >= '0' && ch <= '9') || ch == '_' || ch == '.';
        if (!ok || (ch == '.' && prev == '.')) return false;
        prev = ch;
    }
    return true;
}

int sb_require_impl(lua_State* L) {
    const std::string name = luaL_checkstring(L, 1);
    if (!valid_module_name(name))
        throw ApiError("require: invalid name '" + name +
                       "': require loads only files of the module's rules folder, named like "
                       "\"combat\" or \"lib.util\" (letters, digits, _ and dots)");
    lua_settop(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, kLoaded);
    const int loaded = 2;
    if (lua_getfield(L, loaded, name.c_str()) != LUA_TNIL) {
        if (lua_touserdata(L, -1) == &kLoadingSentinel)
            throw ApiError("require: '" + name + "' is already being loaded (circular require)");
        return 1;
    }
    lua_pop(L, 1);
    Context& c = ctx(L);
    std::string rel = name;
    std::replace(rel.begin(), rel.end(), '.', '/');
    std::string base = c.rules_dir;
    // "<library id>.x" loads x.lua from the library's folder, a sibling of the module's.
    const auto dot = name.find('.');
    if (dot != std::string::npos)
        for (const auto& lib : c.def->rule_libraries)
            if (name.compare(0, dot, lib.id) == 0 && dot == lib.id.size()) {
                base = "../" + lib.folder;
                rel = rel.substr(dot + 1);
                break;
            }
    rel = base + (base.empty() ? "" : "/") + rel + ".lua";
    if (!c.loading)
        throw ApiError("require: '" + name +
                       "' was not loaded with the rules; require files at the top of a file "
                       "(while the rules load), not during a call");
    lua_pushlightuserdata(L, const_cast<char*>(&kLoadingSentinel));
    lua_setfield(L, loaded, name.c_str());
    load_rules_file(L, rel);
    lua_pushstring(L, name.c_str());
    lua_call(L, 1, 1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, loaded, name.c_str());
    return 1;
}

void set_fn(lua_State* L, int table, const char* name, lua_CFunction f) {
    lua_pushcfunction(L, f);
    lua_setfield(L, table, name);
}

// Replaces t[name] by closure f whose upvalue 1 is the original.
void wrap_fn(lua_State* L, int table, const char* name, lua_CFunction f) {
    lua_getfield(L, table, name);
    lua_pushcclosure(L, f, 1);
    lua_setfield(L, table, name);
}

void remove_fn(lua_State* L, int table, const char* name) {
    lua_pushnil(L);
    lua_setfield(L, table, name);
}

}  // namespace

// ---- public to the layer ---------------------------------------------------------------------

bool push_contents(lua_State* L, int idx) {
    idx = lua_absindex(L, idx);
    if (lua_getmetatable(L, idx)) {
        if (lua_rawgetp(L, -1, &kFrozenMark) == LUA_TTABLE) {
            lua_remove(L, -2);
            return true;
        }
        lua_pop(L, 2);
    }
    lua_pushvalue(L, idx);
    return false;
}

void push_frozen_metatable(lua_State* L, int backing, int newindex) {
    backing = lua_absindex(L, backing);
    newindex = lua_absindex(L, newindex);
    lua_createtable(L, 0, 5);
    lua_pushvalue(L, backing);
    lua_rawsetp(L, -2, &kFrozenMark);
    lua_pushvalue(L, backing);
    lua_setfield(L, -2, "__index");
    lua_pushvalue(L, newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, guarded<frozen_len>);
    lua_setfield(L, -2, "__len");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
}

void push_frozen_refusal(lua_State* L, const std::string& what, const std::string& why) {
    lua_pushstring(L, what.c_str());
    lua_pushstring(L, why.c_str());
    lua_pushcclosure(L, guarded<frozen_newindex_impl>, 2);
}

void freeze(lua_State* L, int idx, const std::string& what, const std::string& why) {
    idx = lua_absindex(L, idx);
    if (push_contents(L, idx)) {  // frozen already
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 1);
    lua_newtable(L);
    const int backing = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, backing);
    }
    lua_pushnil(L);
    while (lua_next(L, backing)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, idx);
    }
    if (lua_getmetatable(L, idx)) lua_setmetatable(L, backing);  // keep inherited lookups
    push_frozen_refusal(L, what, why);
    push_frozen_metatable(L, backing, -1);
    lua_setmetatable(L, idx);
    lua_pop(L, 2);
}

void load_rules_file(lua_State* L, const std::string& relpath) {
    Context& c = ctx(L);
    const std::string full = c.def->dir.empty() ? relpath : c.def->dir + "/" + relpath;
    std::ifstream in(full, std::ios::binary);
    if (!in) throw ApiError("cannot read " + relpath + " (no such file in the module)");
    std::ostringstream buf;
    buf << in.rdbuf();
    const std::string text = buf.str();
    if (!text.empty() && text[0] == LUA_SIGNATURE[0])
        throw ApiError(relpath +
                       ": binary (precompiled) chunks are not allowed; rules are Lua "
                       "source text");
    const std::string chunkname = "@" + relpath;
    if (luaL_loadbufferx(L, text.data(), text.size(), chunkname.c_str(), "t") != LUA_OK)
        lua_error(L);  // the message reads "rules/x.lua:3: ..." already
}

int message_handler(lua_State* L) {
    Context& c = ctx(L);
    if (c.abort != Context::Abort::None || is_refusal(L, 1)) return 1;
    if (!lua_isstring(L, 1)) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) {
            lua_replace(L, 1);
        } else {
            lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
            lua_replace(L, 1);
        }
    }
    lua_settop(L, 1);
    lua_Debug ar;
    for (int level = 1; lua_getstack(L, level, &ar); ++level) {
        lua_getinfo(L, "Sl", &ar);
        if (ar.currentline > 0) {
            try {
                c.error_file = ar.short_src;
            } catch (const std::exception&) {
            }
            c.error_line = ar.currentline;
            break;
        }
    }
    luaL_traceback(L, L, nullptr, 1);
    try {
        if (const char* tb = lua_tostring(L, -1)) c.error_traceback = tb;
    } catch (const std::exception&) {
    }
    lua_pop(L, 1);
    return 1;
}

void finish_loading(lua_State* L) {
    lua_getfield(L, LUA_REGISTRYINDEX, kLoaded);
    const int loaded = lua_gettop(L);
    // Freeze in name order so that the work done never depends on hash order.
    std::vector<std::string> names;
    lua_pushnil(L);
    while (lua_next(L, loaded)) {
        if (lua_type(L, -1) == LUA_TTABLE) names.push_back(lua_tostring(L, -2));
        lua_pop(L, 1);
    }
    std::sort(names.begin(), names.end());
    for (const auto& name : names) {
        lua_getfield(L, loaded, name.c_str());
        freeze(L, -1, "'" + name + ".{}'",
               "rules must not keep game state in module tables (see PRODUCT.md §3)");
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lua_pushglobaltable(L);
    freeze(L, -1, "global '{}'", "rules must not keep game state in globals (see PRODUCT.md §3)");
    lua_pop(L, 1);
    ctx(L).loading = false;
}

void open_sandbox(lua_State* L) {
    luaL_checkversion(L);
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, kLoaded);

    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
    luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1);
    lua_settop(L, 0);

    lua_pushglobaltable(L);
    const int g = lua_gettop(L);
    for (const char* name : {"dofile", "loadfile", "warn"}) remove_fn(L, g, name);
    set_fn(L, g, "pcall", guarded<sb_pcall>);
    set_fn(L, g, "xpcall", guarded<sb_xpcall>);
    set_fn(L, g, "pairs", guarded<sb_pairs_impl>);
    set_fn(L, g, "next", guarded<sb_next_impl>);
    set_fn(L, g, "rawget", guarded<sb_rawget>);
    set_fn(L, g, "rawset", guarded<sb_rawset>);
    set_fn(L, g, "rawlen", guarded<sb_rawlen>);
    set_fn(L, g, "collectgarbage", guarded<sb_collectgarbage>);
    set_fn(L, g, "print", guarded<sb_print_impl>);
    set_fn(L, g, "require", guarded<sb_require_impl>);
    wrap_fn(L, g, "load", guarded<sb_load>);
    wrap_fn(L, g, "setmetatable", guarded<sb_setmetatable>);

    lua_getfield(L, g, LUA_STRLIBNAME);
    const int str = lua_gettop(L);
    remove_fn(L, str, "dump");
    wrap_fn(L, str, "rep", guarded<sb_rep_impl>);
    wrap_fn(L, str, "format", guarded<sb_format_impl>);
    lua_getfield(L, g, LUA_TABLIBNAME);
    const int tab = lua_gettop(L);
    wrap_fn(L, tab, "move", guarded<sb_tmove>);
    wrap_fn(L, tab, "insert", guarded<sb_tshift>);
    wrap_fn(L, tab, "remove", guarded<sb_tshift>);
    lua_getfield(L, g, LUA_MATHLIBNAME);
    const int math = lua_gettop(L);
    remove_fn(L, math, "random");
    remove_fn(L, math, "randomseed");
    lua_getfield(L, g, LUA_COLIBNAME);
    const int co = lua_gettop(L);
    set_fn(L, co, "resume", guarded<sb_resume>);
    set_fn(L, co, "wrap", guarded<sb_wrap>);
    install_pattern_guards(L, str);

    // The string metatable is shared by every string: hide it, or one module could change
    // string behaviour for good.
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 2);

    for (const char* lib :
         {LUA_STRLIBNAME, LUA_TABLIBNAME, LUA_MATHLIBNAME, LUA_UTF8LIBNAME, LUA_COLIBNAME}) {
        lua_getfield(L, g, lib);
        freeze(L, -1, std::string("'") + lib + ".{}'",
               std::string("the ") + lib + " library is read-only");
        lua_pop(L, 1);
    }
    lua_settop(L, 0);
}

}  // namespace vedette::script::detail
