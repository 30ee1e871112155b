// Lua values <-> core::Value. The game state holds only nil, booleans, 64-bit integers, strings,
// arrays and string-keyed maps; anything else is refused with the path of the offending part.
#include <cmath>
#include <set>
#include <vector>

#include "script/detail.hpp"

namespace vedette::script::detail {

namespace {

constexpr int kMaxDepth = 64;

struct ToValue {
    lua_State* L;
    const std::string& what;
    std::set<const void*> open;  // tables on the current path, to catch cycles

    [[noreturn]] void fail(const std::string& path, const std::string& why) {
        throw ApiError(what + ": " + path + " " + why);
    }

    core::Value convert(int idx, const std::string& path, int depth) {
        idx = lua_absindex(L, idx);
        switch (lua_type(L, idx)) {
            case LUA_TNIL:
                return {};
            case LUA_TBOOLEAN:
                return core::Value(static_cast<bool>(lua_toboolean(L, idx)));
            case LUA_TNUMBER: {
                if (lua_isinteger(L, idx)) return core::Value(std::int64_t{lua_tointeger(L, idx)});
                const lua_Number n = lua_tonumber(L, idx);
                lua_Integer i = 0;
                if (lua_numbertointeger(std::floor(n), &i) && static_cast<lua_Number>(i) == n)
                    return core::Value(std::int64_t{i});
                lua_pushvalue(L, idx);
                const std::string text = lua_tostring(L, -1);
                lua_pop(L, 1);
                fail(path, "is " + text +
                               ", not an integer (the game state holds no floating point; "
                               "round it with math.floor or //)");
            }
            case LUA_TSTRING: {
                size_t n = 0;
                const char* s = lua_tolstring(L, idx, &n);
                return core::Value(std::string(s, n));
            }
            case LUA_TTABLE: {
                luaL_checkstack(L, 6, "value too deep");
                push_contents(L, idx);  // a frozen table (a piece from game.piece) stores its contents
                core::Value v = table(lua_gettop(L), path, depth);
                lua_pop(L, 1);
                return v;
            }
            default:
                fail(path, std::string("is a ") + luaL_typename(L, idx) +
                               "; only nil, booleans, integers, strings and tables of them can "
                               "be stored in the game state");
        }
    }

    core::Value table(int idx, const std::string& path, int depth) {
        const void* p = lua_topointer(L, idx);
        if (open.count(p)) fail(path, "contains itself (a cycle cannot be stored)");
        if (depth >= kMaxDepth)
            fail(path, "is nested more than " + std::to_string(kMaxDepth) + " tables deep");
        luaL_checkstack(L, 4, "value too deep");
        open.insert(p);
        // Classify the keys first: an array is exactly 1..n, a map has only string keys.
        std::int64_t count = 0, max_int = 0;
        bool ints = false, strings = false;
        lua_pushnil(L);
        while (lua_next(L, idx)) {
            lua_pop(L, 1);
            ++count;
            if (lua_type(L, -1) == LUA_TSTRING) {
                strings = true;
            } else if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1) {
                ints = true;
                max_int = std::max<std::int64_t>(max_int, lua_tointeger(L, -1));
            } else {
                std::string key;
                if (lua_type(L, -1) == LUA_TNUMBER) {
                    lua_pushvalue(L, -1);
                    key = std::string("[") + lua_tostring(L, -1) + "]";
                    lua_pop(L, 1);
                } else {
                    key = std::string("a ") + luaL_typename(L, -1);
                }
                lua_pop(L, 1);
                fail(path, "has the key " + key +
                               "; tables in the game state are arrays (keys 1..n) or maps "
                               "with string keys");
            }
        }
        core::Value out;
        if (ints && strings) {
            fail(path, "mixes array items and string keys; use one or the other");
        } else if (ints) {
            if (max_int != count)
                fail(path, "is an array with holes (keys up to " + std::to_string(max_int) +
                               " but only " + std::to_string(count) +
                               " items); nil cannot be stored in an array");
            core::Array a;
            a.reserve(static_cast<size_t>(count));
            for (std::int64_t i = 1; i <= count; ++i) {
                lua_rawgeti(L, idx, i);
                a.push_back(convert(-1, path + "[" + std::to_string(i) + "]", depth + 1));
                lua_pop(L, 1);
            }
            out = core::Value(std::move(a));
        } else if (strings) {
            core::Object o;
            lua_pushnil(L);
            while (lua_next(L, idx)) {
                const std::string key = lua_tostring(L, -2);
                o.emplace(key, convert(-1, path + "." + key, depth + 1));
                lua_pop(L, 1);
            }
            out = core::Value(std::move(o));
        } else {
            out = core::Value(core::Array{});  // {} is an empty array
        }
        open.erase(p);
        return out;
    }
};

}  // namespace

core::Value to_value(lua_State* L, int idx, const std::string& what) {
    ToValue t{L, what, {}};
    return t.convert(idx, "value", 0);
}

void push_value(lua_State* L, const core::Value& v) {
    luaL_checkstack(L, 3, "value too deep");
    if (v.is_nil()) {
        lua_pushnil(L);
    } else if (v.is_bool()) {
        lua_pushboolean(L, v.as_bool());
    } else if (v.is_int()) {
        lua_pushinteger(L, v.as_int());
    } else if (v.is_string()) {
        lua_pushlstring(L, v.as_string().data(), v.as_string().size());
    } else if (v.is_array()) {
        const auto& a = v.as_array();
        lua_createtable(L, static_cast<int>(a.size()), 0);
        lua_Integer i = 0;
        for (const auto& e : a) {
            push_value(L, e);
            lua_rawseti(L, -2, ++i);
        }
    } else {
        push_object(L, v.as_object());
    }
}

void push_object(lua_State* L, const core::Object& o) {
    luaL_checkstack(L, 3, "value too deep");
    lua_createtable(L, 0, static_cast<int>(o.size()));
    for (const auto& [k, e] : o) {
        lua_pushlstring(L, k.data(), k.size());
        push_value(L, e);
        lua_rawset(L, -3);
    }
}

}  // namespace vedette::script::detail
