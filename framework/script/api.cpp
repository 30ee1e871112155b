// The Lua API over the host's state and definitions: `game` (bound to the current call's
// GameState), `map` and `defs` (the module's immutable definitions). Hexes are printed labels,
// boxes "box:<id>", pieces, sides, faces, phases and counter types their ids. Every list comes
// in a documented order (docs/lua-api.md); nothing exposes hash-container order.
#include <algorithm>
#include <set>
#include <vector>

#include "core/search.hpp"
#include "script/detail.hpp"

namespace vedette::script::detail {

namespace {

const char* const kRefusalMeta = "vedette.refusal";

using core::GameState;
using core::Location;
using core::ModuleDef;

[[noreturn]] void bad(const char* fn, const std::string& msg) {
    throw ApiError(std::string(fn) + ": " + msg);
}

std::string arg_name(int i, const char* name) {
    return "argument #" + std::to_string(i) + " (" + name + ")";
}

const ModuleDef& def_of(lua_State* L) { return *ctx(L).def; }

const GameState& reader(lua_State* L, const char* fn) {
    const Context& c = ctx(L);
    if (!c.cstate)
        bad(fn,
            "no game is bound: the game API works only during a rules call (setup, actions, "
            "apply), not while the rules load");
    return *c.cstate;
}

GameState& writer(lua_State* L, const char* fn) {
    Context& c = ctx(L);
    reader(L, fn);
    if (c.readonly_depth > 0)
        bad(fn,
            "the game cannot be changed inside a search callback (cost or predicate "
            "functions only look)");
    if (!c.state)
        bad(fn, "the game cannot be changed in " + c.call_name +
                    " (listing actions must leave the state as it is)");
    c.forget_derived();  // whatever was derived from the state may be stale now
    return *c.state;
}

// ---- arguments ----

std::string str_arg(lua_State* L, int i, const char* fn, const char* name) {
    if (lua_type(L, i) != LUA_TSTRING)
        bad(fn, arg_name(i, name) + " must be a string, got " + luaL_typename(L, i));
    size_t n = 0;
    const char* s = lua_tolstring(L, i, &n);
    return std::string(s, n);
}

bool has_arg(lua_State* L, int i) { return !lua_isnoneornil(L, i); }

std::int64_t int_arg(lua_State* L, int i, const char* fn, const char* name) {
    if (lua_isinteger(L, i)) return lua_tointeger(L, i);
    if (lua_type(L, i) == LUA_TNUMBER) {
        lua_Integer v = 0;
        const lua_Number n = lua_tonumber(L, i);
        if (lua_numbertointeger(n, &v) && static_cast<lua_Number>(v) == n) return v;
        bad(fn, arg_name(i, name) + " must be an integer, got " + std::to_string(n));
    }
    bad(fn, arg_name(i, name) + " must be an integer, got " + luaL_typename(L, i));
}

int small_int_arg(lua_State* L, int i, const char* fn, const char* name) {
    const std::int64_t v = int_arg(L, i, fn, name);
    if (v < -1'000'000'000 || v > 1'000'000'000)
        bad(fn, arg_name(i, name) + " is out of range (" + std::to_string(v) + ")");
    return static_cast<int>(v);
}

bool bool_arg(lua_State* L, int i, const char* fn, const char* name) {
    if (lua_type(L, i) != LUA_TBOOLEAN)
        bad(fn, arg_name(i, name) + " must be a boolean, got " + luaL_typename(L, i));
    return lua_toboolean(L, i);
}

// ---- the strings the rules pass again and again ----
// Piece ids and hex labels arrive as Lua strings, which Lua interns: a registry table keyed by
// them answers with a pointer comparison where the host's maps would hash the text every time.

// The hex the string at index i (a string) labels, or none. The map never changes: what was
// found is kept for good.
std::optional<hex::Hex> lookup_hex(lua_State* L, int i) {
    i = lua_absindex(L, i);
    const Context& c = ctx(L);
    const auto& m = c.def->map;
    lua_rawgeti(L, LUA_REGISTRYINDEX, c.hex_lookup);
    lua_pushvalue(L, i);
    if (lua_rawget(L, -2) == LUA_TNUMBER) {
        const auto k = static_cast<size_t>(lua_tointeger(L, -1));
        lua_pop(L, 2);
        return m.hexes[k].hex;
    }
    lua_pop(L, 1);
    size_t n = 0;
    const char* s = lua_tolstring(L, i, &n);
    const auto h = m.parse_label(std::string_view(s, n));
    if (h) {
        lua_pushvalue(L, i);
        lua_pushinteger(L, static_cast<lua_Integer>(m.find(*h) - m.hexes.data()));
        lua_rawset(L, -3);
    }
    lua_pop(L, 1);
    return h;
}

// The index of the piece whose id is the string at index i (a string), or -1. The registry
// table's guess is checked against the state: states of one module number their pieces alike,
// almost always.
int lookup_piece(lua_State* L, int i, const GameState& st) {
    i = lua_absindex(L, i);
    size_t n = 0;
    const char* id = lua_tolstring(L, i, &n);
    const std::string_view want(id, n);
    lua_rawgeti(L, LUA_REGISTRYINDEX, ctx(L).piece_lookup);
    lua_pushvalue(L, i);
    if (lua_rawget(L, -2) == LUA_TNUMBER) {
        const lua_Integer k = lua_tointeger(L, -1);
        if (k >= 0 && k < st.piece_count() && st.piece(static_cast<int>(k)).id == want) {
            lua_pop(L, 2);
            return static_cast<int>(k);
        }
    }
    lua_pop(L, 1);
    const int p = st.find_piece(want);
    if (p >= 0) {
        lua_pushvalue(L, i);
        lua_pushinteger(L, p);
        lua_rawset(L, -3);
    }
    lua_pop(L, 1);
    return p;
}

// The string argument at index i, whole (embedded zeros too), for messages.
std::string arg_text(lua_State* L, int i) {
    size_t n = 0;
    const char* s = lua_tolstring(L, i, &n);
    return std::string(s, n);
}

// Pushes the id of piece p, reusing the Lua string made for it before.
void push_piece_id(lua_State* L, const GameState& st, int p) {
    const std::string& id = st.piece(p).id;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ctx(L).piece_ids);
    if (lua_rawgeti(L, -1, p + 1) == LUA_TSTRING) {
        size_t n = 0;
        const char* s = lua_tolstring(L, -1, &n);
        if (std::string_view(s, n) == id) {
            lua_remove(L, -2);
            return;
        }
    }
    lua_pop(L, 1);
    lua_pushlstring(L, id.data(), id.size());
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, p + 1);
    lua_remove(L, -2);
}

hex::Hex hex_arg(lua_State* L, int i, const char* fn, const char* name = "hex") {
    if (lua_type(L, i) != LUA_TSTRING) str_arg(L, i, fn, name);  // raises the error
    if (auto h = lookup_hex(L, i)) return *h;
    bad(fn, "'" + arg_text(L, i) + "' is not a hex of the map");
}

Location parse_loc(const ModuleDef& d, const std::string& s, const char* fn) {
    if (s.rfind("box:", 0) == 0) {
        const int b = d.map.box_index(std::string_view(s).substr(4));
        if (b < 0) bad(fn, "no box '" + s.substr(4) + "' on the map");
        return Location::in_box(b);
    }
    auto h = d.map.parse_label(s);
    if (!h) bad(fn, "'" + s + "' is neither a hex of the map nor \"box:<id>\"");
    return Location::at(*h);
}

Location loc_arg(lua_State* L, int i, const char* fn) {
    if (lua_type(L, i) == LUA_TSTRING)
        if (auto h = lookup_hex(L, i)) return Location::at(*h);
    return parse_loc(def_of(L), str_arg(L, i, fn, "location"), fn);
}

int piece_arg(lua_State* L, int i, const char* fn, const GameState& st) {
    if (lua_type(L, i) != LUA_TSTRING) str_arg(L, i, fn, "piece id");  // raises the error
    const int p = lookup_piece(L, i, st);
    if (p < 0) bad(fn, "no piece '" + arg_text(L, i) + "'");
    return p;
}

std::string ids_of_sides(const ModuleDef& d) {
    std::string s;
    for (const auto& side : d.sides) s += (s.empty() ? "" : ", ") + side.id;
    return s;
}

int parse_side(const ModuleDef& d, const std::string& id, const char* fn) {
    const int s = d.side_index(id);
    if (s < 0) bad(fn, "unknown side '" + id + "' (sides: " + ids_of_sides(d) + ")");
    return s;
}

int counter_type(const ModuleDef& d, const std::string& id, const char* fn) {
    const int t = d.counter_type_index(id);
    if (t < 0) bad(fn, "unknown counter type '" + id + "'");
    return t;
}

int face_of(const core::CounterType& ct, const std::string& id, const char* fn) {
    const int f = ct.face_index(id);
    if (f < 0) bad(fn, "counter type '" + ct.id + "' has no face '" + id + "'");
    return f;
}

// Checks that the table at idx has only the given string keys (typos are bugs).
void check_fields(lua_State* L, int idx, const char* fn, const char* what,
                  std::initializer_list<const char*> allowed) {
    std::set<std::string> unknown;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        bool ok = false;
        if (lua_type(L, -1) == LUA_TSTRING) {
            const std::string k = lua_tostring(L, -1);
            for (const char* a : allowed) ok = ok || k == a;
            if (!ok) unknown.insert("'" + k + "'");
        } else {
            unknown.insert(std::string("a ") + luaL_typename(L, -1) + " key");
        }
    }
    if (!unknown.empty()) {
        std::string list;
        for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        bad(fn, std::string(what) + " has an unknown field " + *unknown.begin() +
                    " (fields: " + list + ")");
    }
}

// Optional string field of the table at idx.
std::optional<std::string> opt_field(lua_State* L, int idx, const char* key, const char* fn) {
    const int t = lua_getfield(L, idx, key);
    std::optional<std::string> out;
    if (t == LUA_TSTRING)
        out = lua_tostring(L, -1);
    else if (t != LUA_TNIL)
        bad(fn, std::string("field '") + key + "' must be a string, got " + lua_typename(L, t));
    lua_pop(L, 1);
    return out;
}

// ---- results ----

void push_str(lua_State* L, const std::string& s) { lua_pushlstring(L, s.data(), s.size()); }

void push_opt(lua_State* L, const std::string& s) {
    if (s.empty())
        lua_pushnil(L);
    else
        push_str(L, s);
}

void push_list(lua_State* L, const std::vector<std::string>& v) {
    lua_createtable(L, static_cast<int>(v.size()), 0);
    lua_Integer i = 0;
    for (const auto& s : v) {
        push_str(L, s);
        lua_rawseti(L, -2, ++i);
    }
}

void set_str(lua_State* L, const char* key, const std::string& v) {
    push_str(L, v);
    lua_setfield(L, -2, key);
}

void set_opt(lua_State* L, const char* key, const std::string& v) {
    push_opt(L, v);
    lua_setfield(L, -2, key);
}

std::string loc_text(const ModuleDef& d, const Location& loc) {
    if (loc.is_hex()) return d.map.label(loc.hex);
    if (loc.is_box()) return "box:" + d.map.boxes[static_cast<size_t>(loc.box)].id;
    return {};
}

std::vector<std::string> labels(const ModuleDef& d, const std::vector<hex::Hex>& hs) {
    std::vector<std::string> out;
    out.reserve(hs.size());
    for (auto h : hs) out.push_back(d.map.label(h));
    return out;
}

const std::string& side_id(const ModuleDef& d, int s) {
    static const std::string none;
    return s >= 0 && s < static_cast<int>(d.sides.size()) ? d.sides[static_cast<size_t>(s)].id
                                                          : none;
}

// ---- game: pieces ----

// game.piece's tables are read-only views, built once per piece version (rules scans ask for
// every piece again and again): an empty proxy table whose frozen metatable reads through to
// the backing table at the top of the stack, which it replaces.
void to_piece_view(lua_State* L, int refusal) {
    lua_createtable(L, 0, 0);
    push_frozen_metatable(L, -2, refusal);
    lua_setmetatable(L, -2);
    lua_remove(L, -2);
}

void push_piece_view(lua_State* L, const GameState& st, int i, int id_idx) {
    const Context& c = ctx(L);
    const auto& d = *c.def;
    const auto& p = st.piece(i);
    const auto& ct = d.counter_types[static_cast<size_t>(p.type)];
    lua_rawgeti(L, LUA_REGISTRYINDEX, c.piece_refusal);
    const int refusal = lua_gettop(L);
    lua_createtable(L, 0, 7);
    lua_pushvalue(L, id_idx);  // the id, as given (equal to p.id)
    lua_setfield(L, -2, "id");
    set_str(L, "type", ct.id);
    if (p.face >= 0 && p.face < static_cast<int>(ct.faces.size()))
        set_str(L, "face", ct.faces[static_cast<size_t>(p.face)].id);
    set_opt(L, "owner", side_id(d, p.owner));
    lua_pushboolean(L, p.hidden);
    lua_setfield(L, -2, "hidden");
    if (p.loc.is_hex() && !d.map.label_ref(p.loc.hex).empty()) {
        set_str(L, "loc", d.map.label_ref(p.loc.hex));
    } else {
        set_opt(L, "loc", loc_text(d, p.loc));
    }
    push_object(L, p.props);
    to_piece_view(L, refusal);
    lua_setfield(L, -2, "props");
    to_piece_view(L, refusal);
    lua_remove(L, refusal);
}

int g_piece(lua_State* L) {
    const char* fn = "game.piece";
    const auto& st = reader(L, fn);
    if (lua_type(L, 1) != LUA_TSTRING) str_arg(L, 1, fn, "piece id");  // raises the error
    lua_settop(L, 1);
    const int i = lookup_piece(L, 1, st);
    if (i < 0) {
        lua_pushnil(L);
        return 1;
    }
    Context& c = ctx(L);
    auto& versions = c.piece_view_versions;
    const auto slot = static_cast<size_t>(i);
    const std::uint64_t version = st.piece(i).version;
    lua_rawgeti(L, LUA_REGISTRYINDEX, c.piece_views);
    if (slot < versions.size() && versions[slot] == version) {
        lua_rawgeti(L, 2, i + 1);
        return 1;
    }
    if (slot >= versions.size()) versions.resize(slot + 1, 0);  // versions start at 1
    push_piece_view(L, st, i, 1);
    lua_pushvalue(L, -1);
    lua_rawseti(L, 2, i + 1);
    versions[slot] = version;
    return 1;
}

// game.memo() -> a table for data derived from the current state (a supply field, who stands
// where): the same table until the state changes, a fresh empty one after any change (every
// writing call), at every rules call and at every binding. Never saved, never hashed: it only
// spares recomputing pure functions of the state.
const char* const kMemo = "vedette.memo";
int g_memo(lua_State* L) {
    reader(L, "game.memo");
    Context& c = ctx(L);
    if (c.memo_valid) {
        if (lua_getfield(L, LUA_REGISTRYINDEX, kMemo) == LUA_TTABLE) return 1;
        lua_pop(L, 1);
    }
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, kMemo);
    c.memo_valid = true;
    return 1;
}

// game.pieces_memo() -> a table for data derived from the pieces alone (where each stands, its
// face, owner and props, the order of the stacks): the same table for as long as the pieces are
// the same, across rules calls and across copies of a state (an AI's search applies many actions
// to copies of one position). Recognised by the pieces' versions (Piece::version: a new number at
// every change, kept by copies), so a table is never shared by two different sets of pieces.
int g_pieces_memo(lua_State* L) {
    const GameState& st = reader(L, "game.pieces_memo");
    Context& c = ctx(L);
    if (c.pieces_memos == LUA_NOREF) {
        lua_newtable(L);
        c.pieces_memos = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, c.pieces_memos);
    const int slots = lua_gettop(L);
    if (c.pieces_memo_current >= 0) {  // found in this call, and nothing written since
        lua_rawgeti(L, slots, c.pieces_memo_current + 1);
        lua_remove(L, slots);
        return 1;
    }
    const auto& pieces = st.pieces();
    charge(L, pieces.size() / 16 + 1);
    std::uint64_t digest = 1469598103934665603ull;
    for (const auto& p : pieces) digest = (digest ^ p.version) * 1099511628211ull;
    auto& all = c.pieces_memo_slots;
    int found = -1;
    for (size_t i = 0; i < all.size() && found < 0; ++i) {
        const auto& e = all[i];
        if (e.digest != digest || e.versions.size() != pieces.size()) continue;
        bool same = true;
        for (size_t k = 0; k < pieces.size() && same; ++k)
            same = e.versions[k] == pieces[k].version;
        if (same) found = static_cast<int>(i);
    }
    if (found < 0) {
        if (all.size() < Context::kPiecesMemos) {
            found = static_cast<int>(all.size());
            all.emplace_back();
        } else {  // the least recently used makes way
            found = 0;
            for (size_t i = 1; i < all.size(); ++i)
                if (all[i].last_used < all[static_cast<size_t>(found)].last_used)
                    found = static_cast<int>(i);
        }
        auto& e = all[static_cast<size_t>(found)];
        e.digest = digest;
        e.versions.resize(pieces.size());
        for (size_t k = 0; k < pieces.size(); ++k) e.versions[k] = pieces[k].version;
        lua_newtable(L);
        lua_rawseti(L, slots, found + 1);
    }
    all[static_cast<size_t>(found)].last_used = ++c.pieces_memo_clock;
    c.pieces_memo_current = found;
    lua_rawgeti(L, slots, found + 1);
    lua_remove(L, slots);
    return 1;
}

int g_pieces_at(lua_State* L) {
    const char* fn = "game.pieces_at";
    const auto& st = reader(L, fn);
    const Location loc = loc_arg(L, 1, fn);
    const auto& stack = st.stack(loc);
    lua_createtable(L, static_cast<int>(stack.size()), 0);
    lua_Integer n = 0;
    for (int i : stack) {
        push_piece_id(L, st, i);
        lua_rawseti(L, -2, ++n);
    }
    return 1;
}

int g_pieces(lua_State* L) {
    const char* fn = "game.pieces";
    const auto& st = reader(L, fn);
    const auto& d = def_of(L);
    std::optional<int> owner, type;
    std::optional<std::string> category, face;
    std::optional<Location> loc;
    if (has_arg(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        check_fields(L, 1, fn, "the filter", {"owner", "type", "category", "loc", "face"});
        if (auto s = opt_field(L, 1, "owner", fn)) owner = parse_side(d, *s, fn);
        if (auto s = opt_field(L, 1, "type", fn)) type = counter_type(d, *s, fn);
        category = opt_field(L, 1, "category", fn);
        face = opt_field(L, 1, "face", fn);
        if (auto s = opt_field(L, 1, "loc", fn)) loc = parse_loc(d, *s, fn);
    }
    lua_newtable(L);
    lua_Integer n = 0;
    for (const auto& p : st.pieces()) {
        const auto& ct = d.counter_types[static_cast<size_t>(p.type)];
        if (owner && p.owner != *owner) continue;
        if (type && p.type != *type) continue;
        if (category && ct.category != *category) continue;
        if (loc && !(p.loc == *loc)) continue;
        if (face && (p.face >= static_cast<int>(ct.faces.size()) ||
                     ct.faces[static_cast<size_t>(p.face)].id != *face))
            continue;
        push_piece_id(L, st, static_cast<int>(&p - st.pieces().data()));
        lua_rawseti(L, -2, ++n);
    }
    return 1;
}

int g_stat(lua_State* L) {
    const char* fn = "game.stat";
    const auto& st = reader(L, fn);
    const auto& p = st.piece(piece_arg(L, 1, fn, st));
    if (lua_type(L, 2) != LUA_TSTRING) str_arg(L, 2, fn, "stat");  // raises the error
    lua_settop(L, 2);
    // The stats of a counter type as a Lua table, made on first use (definitions never change).
    // Stats are integers and strings: a table shared by every call would be a shared mutable.
    const Context& c = ctx(L);
    const auto& stats = c.def->counter_types[static_cast<size_t>(p.type)].stats;
    lua_rawgeti(L, LUA_REGISTRYINDEX, c.stat_tables);
    if (lua_rawgeti(L, 3, p.type + 1) == LUA_TNIL) {
        lua_pop(L, 1);
        lua_createtable(L, 0, static_cast<int>(stats.size()));
        for (const auto& [k, v] : stats) {
            if (v.is_array() || v.is_object()) continue;  // looked up afresh below
            push_str(L, k);
            push_value(L, v);
            lua_rawset(L, -3);
        }
        lua_pushvalue(L, -1);
        lua_rawseti(L, 3, p.type + 1);
    }
    lua_pushvalue(L, 2);
    if (lua_rawget(L, -2) != LUA_TNIL) return 1;
    auto it = stats.find(arg_text(L, 2));
    if (it == stats.end())
        lua_pushnil(L);
    else
        push_value(L, it->second);
    return 1;
}

int g_create(lua_State* L) {
    const char* fn = "game.create";
    auto& st = writer(L, fn);
    const auto& d = def_of(L);
    const int type = counter_type(d, str_arg(L, 1, fn, "counter type"), fn);
    const auto& ct = d.counter_types[static_cast<size_t>(type)];
    std::string id;
    int owner = ct.side.empty() ? -1 : d.side_index(ct.side);
    int face = 0;
    bool hidden = false;
    Location at;
    if (has_arg(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        check_fields(L, 2, fn, "the options", {"id", "owner", "at", "face", "hidden"});
        if (auto s = opt_field(L, 2, "id", fn)) {
            if (s->empty()) bad(fn, "the piece id must not be empty");
            id = *s;
        }
        if (auto s = opt_field(L, 2, "owner", fn)) owner = parse_side(d, *s, fn);
        if (auto s = opt_field(L, 2, "at", fn)) at = parse_loc(d, *s, fn);
        if (auto s = opt_field(L, 2, "face", fn)) face = face_of(ct, *s, fn);
        const int t = lua_getfield(L, 2, "hidden");
        if (t != LUA_TNIL) hidden = bool_arg(L, lua_gettop(L), fn, "hidden");
        lua_pop(L, 1);
    }
    if (!id.empty() && st.find_piece(id) >= 0)
        bad(fn, "a piece with id '" + id + "' already exists");
    const int i = st.create_piece(type, id, owner, at, face, hidden);
    push_str(L, st.piece(i).id);
    return 1;
}

int g_move(lua_State* L) {
    const char* fn = "game.move";
    auto& st = writer(L, fn);
    const int p = piece_arg(L, 1, fn, st);
    const Location to = loc_arg(L, 2, fn);
    int position = -1;
    if (has_arg(L, 3)) {
        position = small_int_arg(L, 3, fn, "position");
        if (position < 1) bad(fn, "the position counts from 1 (the bottom of the stack)");
        --position;
    }
    st.move_piece(p, to, position);
    return 0;
}

int g_remove(lua_State* L) {
    const char* fn = "game.remove";
    auto& st = writer(L, fn);
    st.move_piece(piece_arg(L, 1, fn, st), Location::nowhere());
    return 0;
}

int g_set_face(lua_State* L) {
    const char* fn = "game.set_face";
    auto& st = writer(L, fn);
    const int p = piece_arg(L, 1, fn, st);
    const auto& ct = def_of(L).counter_types[static_cast<size_t>(st.piece(p).type)];
    st.set_face(p, face_of(ct, str_arg(L, 2, fn, "face"), fn));
    return 0;
}

int g_set_owner(lua_State* L) {
    const char* fn = "game.set_owner";
    auto& st = writer(L, fn);
    const int p = piece_arg(L, 1, fn, st);
    const int owner = has_arg(L, 2) ? parse_side(def_of(L), str_arg(L, 2, fn, "side"), fn) : -1;
    st.set_owner(p, owner);
    return 0;
}

int g_set_hidden(lua_State* L) {
    const char* fn = "game.set_hidden";
    auto& st = writer(L, fn);
    const int p = piece_arg(L, 1, fn, st);
    st.set_hidden(p, bool_arg(L, 2, fn, "hidden"));
    return 0;
}

int g_reveal(lua_State* L) {
    const char* fn = "game.reveal";
    auto& st = writer(L, fn);
    st.reveal(piece_arg(L, 1, fn, st));
    return 0;
}

int g_set_prop(lua_State* L) {
    const char* fn = "game.set_prop";
    auto& st = writer(L, fn);
    const int p = piece_arg(L, 1, fn, st);
    const std::string key = str_arg(L, 2, fn, "key");
    st.set_prop(p, key, to_value(L, 3, fn));
    return 0;
}

int g_prop(lua_State* L) {
    const char* fn = "game.prop";
    const auto& st = reader(L, fn);
    const int p = piece_arg(L, 1, fn, st);
    push_value(L, st.prop(p, str_arg(L, 2, fn, "key")));
    return 1;
}

int g_occupied(lua_State* L) {
    const auto& st = reader(L, "game.occupied");
    const auto& d = def_of(L);
    lua_newtable(L);
    lua_Integer n = 0;
    for (const auto& [loc, v] : st.stacks()) {  // ordered by Location: hexes by (q, r)
        if (!loc.is_hex() || v.empty()) continue;
        push_str(L, d.map.label(loc.hex));
        lua_rawseti(L, -2, ++n);
    }
    return 1;
}

// ---- game: tracks, variables, piles ----

int g_track(lua_State* L) {
    const char* fn = "game.track";
    const auto& st = reader(L, fn);
    const std::string id = str_arg(L, 1, fn, "track");
    if (!def_of(L).track(id)) bad(fn, "no track '" + id + "'");
    lua_pushinteger(L, st.track(id));
    return 1;
}

int g_set_track(lua_State* L) {
    const char* fn = "game.set_track";
    auto& st = writer(L, fn);
    const std::string id = str_arg(L, 1, fn, "track");
    st.set_track(id, int_arg(L, 2, fn, "value"));
    return 0;
}

int g_var(lua_State* L) {
    const char* fn = "game.var";
    const auto& st = reader(L, fn);
    push_value(L, st.var(str_arg(L, 1, fn, "name")));
    return 1;
}

int g_set_var(lua_State* L) {
    const char* fn = "game.set_var";
    auto& st = writer(L, fn);
    const std::string name = str_arg(L, 1, fn, "name");
    st.set_var(name, to_value(L, 2, fn));
    return 0;
}

int g_pile(lua_State* L) {
    const char* fn = "game.pile";
    const auto& st = reader(L, fn);
    const auto* p = st.find_pile(str_arg(L, 1, fn, "pile"));
    push_list(L, p ? p->cards : std::vector<std::string>{});
    return 1;
}

int g_draw(lua_State* L) {
    const char* fn = "game.draw";
    auto& st = writer(L, fn);
    const std::string from = str_arg(L, 1, fn, "from");
    const std::string to = str_arg(L, 2, fn, "to");
    const auto* fp = st.find_pile(from);
    if (!fp || fp->cards.empty()) {
        lua_pushnil(L);
        return 1;
    }
    auto& src = st.pile(from).cards;
    const std::string card = src.front();
    src.erase(src.begin());
    auto& dst = st.pile(to).cards;
    dst.insert(dst.begin(), card);
    push_str(L, card);
    return 1;
}

int g_move_card(lua_State* L) {
    const char* fn = "game.move_card";
    auto& st = writer(L, fn);
    const std::string card = str_arg(L, 1, fn, "card");
    const std::string from = str_arg(L, 2, fn, "from");
    const std::string to = str_arg(L, 3, fn, "to");
    const auto* fp = st.find_pile(from);
    if (!fp || std::find(fp->cards.begin(), fp->cards.end(), card) == fp->cards.end())
        bad(fn, "card '" + card + "' is not in pile '" + from + "'");
    auto& src = st.pile(from).cards;
    src.erase(std::find(src.begin(), src.end(), card));
    auto& dst = st.pile(to).cards;
    dst.insert(dst.begin(), card);
    return 0;
}

// game.set_pile(id, owner, visibility): who owns a pile (a side, or nil for none) and who may
// see its cards in views ("all", "owner" or "nobody"); the others see only a count.
int g_set_pile(lua_State* L) {
    const char* fn = "game.set_pile";
    auto& st = writer(L, fn);
    const std::string id = str_arg(L, 1, fn, "pile");
    std::string owner;
    if (has_arg(L, 2)) {
        owner = str_arg(L, 2, fn, "owner");
        if (!owner.empty()) parse_side(def_of(L), owner, fn);
    }
    const std::string vis = str_arg(L, 3, fn, "visibility");
    core::Pile::Visibility v;
    if (vis == "all") v = core::Pile::Visibility::All;
    else if (vis == "owner") v = core::Pile::Visibility::Owner;
    else if (vis == "nobody") v = core::Pile::Visibility::Nobody;
    else bad(fn, "visibility '" + vis + "' is not all, owner or nobody");
    if (v == core::Pile::Visibility::Owner && owner.empty()) bad(fn, "visibility 'owner' needs an owner");
    auto& pile = st.pile(id);
    pile.owner = owner;
    pile.visibility = v;
    return 0;
}

int g_shuffle(lua_State* L) {
    const char* fn = "game.shuffle";
    auto& st = writer(L, fn);
    st.shuffle_pile(str_arg(L, 1, fn, "pile"));
    return 0;
}

// ---- game: turn ----

int g_turn(lua_State* L) {
    lua_pushinteger(L, reader(L, "game.turn").turn);
    return 1;
}

int g_set_turn(lua_State* L) {
    const char* fn = "game.set_turn";
    auto& st = writer(L, fn);
    st.turn = small_int_arg(L, 1, fn, "turn");
    return 0;
}

int g_phase(lua_State* L) {
    const auto& st = reader(L, "game.phase");
    const auto& d = def_of(L);
    if (st.phase >= 0 && st.phase < static_cast<int>(d.phases.size()))
        push_str(L, d.phases[static_cast<size_t>(st.phase)].id);
    else
        lua_pushnil(L);
    return 1;
}

int g_set_phase(lua_State* L) {
    const char* fn = "game.set_phase";
    auto& st = writer(L, fn);
    const auto& d = def_of(L);
    const std::string id = str_arg(L, 1, fn, "phase");
    const int p = d.phase_index(id);
    if (p < 0) {
        std::string list;
        for (const auto& ph : d.phases) list += (list.empty() ? "" : ", ") + ph.id;
        bad(fn, "unknown phase '" + id + "' (phases: " + list + ")");
    }
    st.phase = p;
    return 0;
}

int g_active(lua_State* L) {
    const auto& st = reader(L, "game.active");
    push_opt(L, side_id(def_of(L), st.active_side));
    return 1;
}

int g_set_active(lua_State* L) {
    const char* fn = "game.set_active";
    auto& st = writer(L, fn);
    st.active_side = parse_side(def_of(L), str_arg(L, 1, fn, "side"), fn);
    return 0;
}

int g_option(lua_State* L) {
    const char* fn = "game.option";
    const auto& st = reader(L, fn);
    const std::string id = str_arg(L, 1, fn, "option");
    if (!def_of(L).option(id)) bad(fn, "unknown option '" + id + "'");
    lua_pushboolean(L, st.options.count(id) > 0);
    return 1;
}

// ---- game: dice, log, decisions ----

int g_roll(lua_State* L) {
    const char* fn = "game.roll";
    auto& st = writer(L, fn);
    const int n = small_int_arg(L, 1, fn, "n");
    const int sides = small_int_arg(L, 2, fn, "sides");
    if (lua_type(L, 3) != LUA_TSTRING)
        bad(fn, arg_name(3, "purpose") +
                    " must be a string saying why the dice are rolled (it "
                    "is logged), got " +
                    luaL_typename(L, 3));
    const std::vector<int> dice = st.roll(n, sides, lua_tostring(L, 3));
    lua_Integer total = 0;
    lua_createtable(L, static_cast<int>(dice.size()), 0);
    lua_Integer i = 0;
    for (int v : dice) {
        total += v;
        lua_pushinteger(L, v);
        lua_rawseti(L, -2, ++i);
    }
    lua_pushinteger(L, total);
    lua_insert(L, -2);
    return 2;
}

int g_log(lua_State* L) {
    const char* fn = "game.log";
    auto& st = writer(L, fn);
    std::string text = str_arg(L, 1, fn, "text");
    std::string to;
    if (has_arg(L, 2)) {
        to = str_arg(L, 2, fn, "visible_to");
        parse_side(def_of(L), to, fn);
    }
    st.message(std::move(text), std::move(to));
    return 0;
}

int g_decide(lua_State* L) {
    const char* fn = "game.decide";
    auto& st = writer(L, fn);
    luaL_checktype(L, 1, LUA_TTABLE);
    check_fields(L, 1, fn, "the decision", {"role", "step", "prompt", "rule", "context"});
    core::Decision dec;
    if (auto s = opt_field(L, 1, "role", fn)) {
        if (!s->empty()) parse_side(def_of(L), *s, fn);
        dec.role = *s;
    }
    dec.step = opt_field(L, 1, "step", fn).value_or("");
    dec.prompt = opt_field(L, 1, "prompt", fn).value_or("");
    dec.rule = opt_field(L, 1, "rule", fn).value_or("");
    lua_getfield(L, 1, "context");
    dec.context = to_value(L, -1, "game.decide: context");
    lua_pop(L, 1);
    st.decision = std::move(dec);
    return 0;
}

int g_decision(lua_State* L) {
    const auto& dec = reader(L, "game.decision").decision;
    lua_createtable(L, 0, 5);
    set_opt(L, "role", dec.role);
    set_str(L, "step", dec.step);
    set_str(L, "prompt", dec.prompt);
    set_str(L, "rule", dec.rule);
    push_value(L, dec.context);
    lua_setfield(L, -2, "context");
    return 1;
}

int g_finish(lua_State* L) {
    const char* fn = "game.finish";
    auto& st = writer(L, fn);
    const std::string text = str_arg(L, 1, fn, "result");
    if (text.empty()) bad(fn, "the result must say who won, in words");
    st.result = text;
    st.decision = core::Decision{};  // nobody decides once the game is over
    return 0;
}

int g_result(lua_State* L) {
    push_opt(L, reader(L, "game.result").result);
    return 1;
}

int g_refuse(lua_State* L) {
    const char* fn = "game.refuse";
    reader(L, fn);
    const std::string reason = str_arg(L, 1, fn, "reason");
    lua_createtable(L, 0, 1);
    push_str(L, reason);
    lua_setfield(L, -2, "reason");
    luaL_setmetatable(L, kRefusalMeta);
    return lua_error(L);
}

int refusal_tostring(lua_State* L) {
    lua_getfield(L, 1, "reason");
    lua_pushfstring(L, "refused: %s", lua_tostring(L, -1));
    return 1;
}

// ---- game: searches ----

struct ReadOnly {
    Context& c;
    explicit ReadOnly(Context& c) : c(c) { ++c.readonly_depth; }
    ~ReadOnly() { --c.readonly_depth; }
};

// Calls the Lua function at fn_idx with the labels; returns its single result on the stack.
void call_back(lua_State* L, int fn_idx, const std::vector<std::string>& args) {
    luaL_checkstack(L, static_cast<int>(args.size()) + 2, "search callback");
    lua_pushvalue(L, fn_idx);
    for (const auto& a : args) push_str(L, a);
    lua_call(L, static_cast<int>(args.size()), 1);
}

core::search::StepCost cost_callback(lua_State* L, int fn_idx, const char* fn) {
    const auto& d = def_of(L);
    return [L, fn_idx, fn, &d](hex::Hex a, hex::Hex b) -> std::optional<int> {
        if (!d.map.find(b)) return std::nullopt;  // never off the map
        const std::string la = d.map.label(a), lb = d.map.label(b);
        call_back(L, fn_idx, {la, lb});
        std::optional<int> out;
        if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 0 &&
            lua_tointeger(L, -1) <= 1'000'000'000) {
            out = static_cast<int>(lua_tointeger(L, -1));
        } else if (!lua_isnil(L, -1) && !(lua_isboolean(L, -1) && !lua_toboolean(L, -1))) {
            std::string g = luaL_typename(L, -1);
            if (lua_type(L, -1) == LUA_TNUMBER) {
                lua_pushvalue(L, -1);
                g = lua_tostring(L, -1);
                lua_pop(L, 1);
            }
            bad(fn, "the cost function returned " + g + " for the step " + la + " -> " + lb +
                        "; it must return an integer >= 0, or nil when the step is not allowed");
        }
        lua_pop(L, 1);
        return out;
    };
}

core::search::HexPred pred_callback(lua_State* L, int fn_idx) {
    const auto& d = def_of(L);
    return [L, fn_idx, &d](hex::Hex h) {
        if (!d.map.find(h)) return false;
        call_back(L, fn_idx, {d.map.label(h)});
        const bool ok = lua_toboolean(L, -1);
        lua_pop(L, 1);
        return ok;
    };
}

int g_reachable(lua_State* L) {
    const char* fn = "game.reachable";
    reader(L, fn);
    const hex::Hex from = hex_arg(L, 1, fn, "from");
    const int budget = small_int_arg(L, 2, fn, "budget");
    luaL_checktype(L, 3, LUA_TFUNCTION);
    ReadOnly ro(ctx(L));
    const auto found = core::search::reachable(from, budget, cost_callback(L, 3, fn));
    const auto& d = def_of(L);
    lua_createtable(L, 0, static_cast<int>(found.size()));
    for (const auto& [h, c] : found) {
        push_str(L, d.map.label(h));
        lua_pushinteger(L, c);
        lua_rawset(L, -3);
    }
    return 1;
}

int g_path(lua_State* L) {
    const char* fn = "game.path";
    reader(L, fn);
    const hex::Hex from = hex_arg(L, 1, fn, "from");
    const hex::Hex to = hex_arg(L, 2, fn, "to");
    luaL_checktype(L, 3, LUA_TFUNCTION);
    const int max_cost =
        has_arg(L, 4) ? small_int_arg(L, 4, fn, "max_cost") : core::search::kNoLimit;
    ReadOnly ro(ctx(L));
    const auto p = core::search::path(from, to, cost_callback(L, 3, fn), max_cost);
    if (!p)
        lua_pushnil(L);
    else
        push_list(L, labels(def_of(L), *p));
    return 1;
}

int g_within(lua_State* L) {
    const char* fn = "game.within";
    reader(L, fn);
    const hex::Hex centre = hex_arg(L, 1, fn, "centre");
    const int n = small_int_arg(L, 2, fn, "n");
    luaL_checktype(L, 3, LUA_TFUNCTION);
    ReadOnly ro(ctx(L));
    push_list(L, labels(def_of(L), core::search::within(centre, n, pred_callback(L, 3))));
    return 1;
}

int g_components(lua_State* L) {
    const char* fn = "game.components";
    reader(L, fn);
    luaL_checktype(L, 1, LUA_TTABLE);
    const auto& d = def_of(L);
    std::vector<hex::Hex> hexes;
    const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, 1));
    for (lua_Integer i = 1; i <= n; ++i) {
        lua_rawgeti(L, 1, i);
        if (lua_type(L, -1) != LUA_TSTRING)
            bad(fn, "labels[" + std::to_string(i) + "] must be a hex label, got " +
                        luaL_typename(L, -1));
        const std::string label = lua_tostring(L, -1);
        const auto h = d.map.parse_label(label);
        if (!h) bad(fn, "'" + label + "' is not a hex of the map");
        hexes.push_back(*h);
        lua_pop(L, 1);
    }
    core::search::HexPred keep;
    if (has_arg(L, 2)) {
        luaL_checktype(L, 2, LUA_TFUNCTION);
        keep = pred_callback(L, 2);
    }
    ReadOnly ro(ctx(L));
    const auto comps = core::search::components(std::move(hexes), keep);
    lua_createtable(L, static_cast<int>(comps.size()), 0);
    lua_Integer i = 0;
    for (const auto& c : comps) {
        push_list(L, labels(d, c));
        lua_rawseti(L, -2, ++i);
    }
    return 1;
}

// ---- map ----

int m_exists(lua_State* L) {
    if (lua_type(L, 1) != LUA_TSTRING) str_arg(L, 1, "map.exists", "hex");  // raises the error
    lua_pushboolean(L, lookup_hex(L, 1).has_value());
    return 1;
}

const core::HexDef& hexdef_arg(lua_State* L, int i, const char* fn) {
    return *def_of(L).map.find(hex_arg(L, i, fn));
}

int m_terrain(lua_State* L) {
    const auto& h = hexdef_arg(L, 1, "map.terrain");
    push_str(L, def_of(L).map.terrain_types[static_cast<size_t>(h.terrain)].id);
    return 1;
}

int m_features(lua_State* L) {
    const auto& h = hexdef_arg(L, 1, "map.features");
    std::vector<std::string> out;
    for (int f : h.features) out.push_back(def_of(L).map.feature_types[static_cast<size_t>(f)].id);
    push_list(L, out);
    return 1;
}

int m_has_feature(lua_State* L) {
    const char* fn = "map.has_feature";
    const auto& h = hexdef_arg(L, 1, fn);
    const std::string f = str_arg(L, 2, fn, "feature");
    const int fi = def_of(L).map.feature_index(f);
    if (fi < 0) bad(fn, "unknown feature '" + f + "'");
    lua_pushboolean(L, std::find(h.features.begin(), h.features.end(), fi) != h.features.end());
    return 1;
}

int m_name(lua_State* L) {
    push_opt(L, hexdef_arg(L, 1, "map.name").name);
    return 1;
}

int m_neighbours(lua_State* L) {
    const auto& m = def_of(L).map;
    const hex::Hex h = hex_arg(L, 1, "map.neighbours");
    std::vector<std::string> out;
    for (hex::Hex n : hex::neighbours(h))
        if (m.find(n)) out.push_back(m.label(n));
    push_list(L, out);
    return 1;
}

int m_distance(lua_State* L) {
    const char* fn = "map.distance";
    lua_pushinteger(L, hex::distance(hex_arg(L, 1, fn, "a"), hex_arg(L, 2, fn, "b")));
    return 1;
}

const core::HexsideDef* side_between(lua_State* L, const char* fn) {
    const hex::Hex a = hex_arg(L, 1, fn, "a"), b = hex_arg(L, 2, fn, "b");
    const auto dir = hex::direction_between(a, b);
    if (!dir)
        bad(fn,
            lua_tostring(L, 1) + std::string(" and ") + lua_tostring(L, 2) + " are not adjacent");
    return def_of(L).map.find_side(hex::hexside(a, *dir));
}

int m_hexside(lua_State* L) {
    const auto* s = side_between(L, "map.hexside");
    std::vector<std::string> out;
    if (s)
        for (int t : s->types)
            out.push_back(def_of(L).map.hexside_types[static_cast<size_t>(t)].id);
    push_list(L, out);
    return 1;
}

int m_has_hexside(lua_State* L) {
    const char* fn = "map.has_hexside";
    const auto* s = side_between(L, fn);
    const std::string type = str_arg(L, 3, fn, "type");
    const int t = def_of(L).map.hexside_type_index(type);
    if (t < 0) bad(fn, "unknown hexside type '" + type + "'");
    lua_pushboolean(L, s && std::find(s->types.begin(), s->types.end(), t) != s->types.end());
    return 1;
}

const core::RegionDef& region_arg(lua_State* L, int i, const char* fn) {
    const std::string id = str_arg(L, i, fn, "region");
    const auto* r = def_of(L).map.region(id);
    if (!r) bad(fn, "unknown region '" + id + "'");
    return *r;
}

int m_in_region(lua_State* L) {
    const char* fn = "map.in_region";
    const hex::Hex h = hex_arg(L, 1, fn);
    const auto& r = region_arg(L, 2, fn);
    lua_pushboolean(L, std::binary_search(r.hexes.begin(), r.hexes.end(), h));
    return 1;
}

int m_region(lua_State* L) {
    const auto& r = region_arg(L, 1, "map.region");
    std::vector<hex::Hex> hs = r.hexes;
    std::sort(hs.begin(), hs.end());
    push_list(L, labels(def_of(L), hs));
    return 1;
}

int m_hexes(lua_State* L) {
    const auto& m = def_of(L).map;
    std::vector<hex::Hex> hs;
    hs.reserve(m.hexes.size());
    for (const auto& h : m.hexes) hs.push_back(h.hex);
    std::sort(hs.begin(), hs.end());
    push_list(L, labels(def_of(L), hs));
    return 1;
}

int m_direction(lua_State* L) {
    const char* fn = "map.direction";
    const auto& m = def_of(L).map;
    const auto dir = hex::direction_between(hex_arg(L, 1, fn, "a"), hex_arg(L, 2, fn, "b"));
    if (!dir) {
        lua_pushnil(L);
        return 1;
    }
    push_str(L, std::string(hex::direction_name(*dir, m.grid.orientation)));
    return 1;
}

int m_boxes(lua_State* L) {
    std::vector<std::string> out;
    for (const auto& b : def_of(L).map.boxes) out.push_back(b.id);
    push_list(L, out);
    return 1;
}

// ---- defs ----

int d_counter(lua_State* L) {
    const char* fn = "defs.counter";
    const auto& d = def_of(L);
    const auto& ct = d.counter_types[static_cast<size_t>(
        counter_type(d, str_arg(L, 1, fn, "counter type"), fn))];
    lua_createtable(L, 0, 7);
    set_str(L, "id", ct.id);
    set_str(L, "name", ct.name);
    set_str(L, "category", ct.category);
    set_opt(L, "side", ct.side);
    set_opt(L, "hidden_as", ct.hidden_as);
    std::vector<std::string> faces;
    for (const auto& f : ct.faces) faces.push_back(f.id);
    push_list(L, faces);
    lua_setfield(L, -2, "faces");
    push_value(L, core::Value(core::Object(ct.stats.begin(), ct.stats.end())));
    lua_setfield(L, -2, "stats");
    return 1;
}

int d_table(lua_State* L) {
    const char* fn = "defs.table";
    const std::string id = str_arg(L, 1, fn, "table");
    const auto* t = def_of(L).table(id);
    if (!t) bad(fn, "unknown table '" + id + "'");
    lua_createtable(L, 0, 5);
    set_str(L, "id", t->id);
    set_str(L, "name", t->name);
    set_str(L, "rule", t->rule);
    push_list(L, t->columns);
    lua_setfield(L, -2, "columns");
    lua_createtable(L, static_cast<int>(t->rows.size()), 0);
    lua_Integer i = 0;
    for (const auto& row : t->rows) {
        push_value(L, core::Value(row));
        lua_rawseti(L, -2, ++i);
    }
    lua_setfield(L, -2, "rows");
    return 1;
}

int d_sides(lua_State* L) {
    std::vector<std::string> out;
    for (const auto& s : def_of(L).sides) out.push_back(s.id);
    push_list(L, out);
    return 1;
}

int d_phases(lua_State* L) {
    std::vector<std::string> out;
    for (const auto& p : def_of(L).phases) out.push_back(p.id);
    push_list(L, out);
    return 1;
}

int d_card(lua_State* L) {
    const char* fn = "defs.card";
    const std::string id = str_arg(L, 1, fn, "card");
    for (const auto& deck : def_of(L).decks) {
        for (const auto& c : deck.cards) {
            if (c.id != id) continue;
            lua_createtable(L, 0, 7);
            set_str(L, "id", c.id);
            set_str(L, "name", c.name);
            set_opt(L, "side", c.side);
            set_opt(L, "timing", c.timing);
            set_str(L, "text", c.text);
            set_str(L, "deck", deck.id);
            lua_createtable(L, 0, static_cast<int>(c.attributes.size()));
            for (const auto& [k, v] : c.attributes) set_str(L, k.c_str(), v);
            lua_setfield(L, -2, "attributes");
            return 1;
        }
    }
    bad(fn, "unknown card '" + id + "'");
}

int d_turns(lua_State* L) {
    lua_pushinteger(L, def_of(L).turn_first);
    lua_pushinteger(L, def_of(L).turn_last);
    return 2;
}

#define FN(name, f) \
    { name, guarded<f> }

const luaL_Reg kGame[] = {FN("piece", g_piece),
                          FN("pieces_at", g_pieces_at),
                          FN("pieces", g_pieces),
                          FN("stat", g_stat),
                          FN("create", g_create),
                          FN("move", g_move),
                          FN("remove", g_remove),
                          FN("set_face", g_set_face),
                          FN("set_owner", g_set_owner),
                          FN("set_hidden", g_set_hidden),
                          FN("reveal", g_reveal),
                          FN("set_prop", g_set_prop),
                          FN("prop", g_prop),
                          FN("occupied", g_occupied),
                          FN("track", g_track),
                          FN("set_track", g_set_track),
                          FN("var", g_var),
                          FN("set_var", g_set_var),
                          FN("pile", g_pile),
                          FN("draw", g_draw),
                          FN("move_card", g_move_card),
                          FN("shuffle", g_shuffle),
                          FN("set_pile", g_set_pile),
                          FN("turn", g_turn),
                          FN("set_turn", g_set_turn),
                          FN("phase", g_phase),
                          FN("set_phase", g_set_phase),
                          FN("active", g_active),
                          FN("set_active", g_set_active),
                          FN("option", g_option),
                          FN("roll", g_roll),
                          FN("log", g_log),
                          FN("decide", g_decide),
                          FN("decision", g_decision),
                          FN("finish", g_finish),
                          FN("result", g_result),
                          FN("refuse", g_refuse),
                          FN("memo", g_memo),
                          FN("pieces_memo", g_pieces_memo),
                          FN("reachable", g_reachable),
                          FN("path", g_path),
                          FN("within", g_within),
                          FN("components", g_components),
                          {nullptr, nullptr}};

const luaL_Reg kMap[] = {
    FN("exists", m_exists),           FN("terrain", m_terrain), FN("features", m_features),
    FN("has_feature", m_has_feature), FN("name", m_name),       FN("neighbours", m_neighbours),
    FN("distance", m_distance),       FN("hexside", m_hexside), FN("has_hexside", m_has_hexside),
    FN("in_region", m_in_region),     FN("region", m_region),   FN("hexes", m_hexes),
    FN("direction", m_direction),     FN("boxes", m_boxes),     {nullptr, nullptr}};

const luaL_Reg kDefs[] = {FN("counter", d_counter), FN("table", d_table), FN("sides", d_sides),
                          FN("phases", d_phases),   FN("card", d_card),   FN("turns", d_turns),
                          {nullptr, nullptr}};

#undef FN

}  // namespace

bool is_refusal(lua_State* L, int idx) {
    if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return false;
    luaL_getmetatable(L, kRefusalMeta);
    const bool yes = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    return yes;
}

std::string refusal_reason(lua_State* L, int idx) {
    lua_pushliteral(L, "reason");
    lua_rawget(L, idx < 0 ? idx - 1 : idx);
    std::string r = lua_isstring(L, -1) ? lua_tostring(L, -1) : "";
    lua_pop(L, 1);
    return r;
}

void open_api(lua_State* L) {
    Context& c = ctx(L);
    push_frozen_refusal(L, "'{}' in a piece table",
                        "game.piece returns a read-only view of the state (change pieces with "
                        "game.move, game.set_prop, ...)");
    c.piece_refusal = luaL_ref(L, LUA_REGISTRYINDEX);
    for (int* ref : {&c.piece_views, &c.piece_lookup, &c.piece_ids, &c.hex_lookup, &c.stat_tables}) {
        lua_newtable(L);
        *ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    c.piece_view_versions.clear();

    luaL_newmetatable(L, kRefusalMeta);
    lua_pushcfunction(L, guarded<refusal_tostring>);
    lua_setfield(L, -2, "__tostring");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 1);

    const std::pair<const char*, const luaL_Reg*> libs[] = {
        {"game", kGame}, {"map", kMap}, {"defs", kDefs}};
    for (const auto& [name, fns] : libs) {
        lua_newtable(L);
        luaL_setfuncs(L, fns, 0);
        if (Profiler* p = ctx(L).profiler.get())
            for (const luaL_Reg* r = fns; r->name; ++r)
                p->name_api(reinterpret_cast<const void*>(r->func),
                            std::string(name) + '.' + r->name);
        freeze(L, -1, std::string("'") + name + ".{}'",
               std::string("the ") + name + " API is read-only");
        lua_setglobal(L, name);
    }
}

}  // namespace vedette::script::detail
