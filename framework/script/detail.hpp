// Internals shared by the script layer's translation units. Lua is Debian's C++ build: its errors
// are C++ exceptions (thrown as a pointer type, not std::exception), so Lua errors unwind C++
// frames properly, and every binding must stop its own std::exceptions from reaching Lua.
#pragma once

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/defs.hpp"
#include "core/state.hpp"
#include "core/value.hpp"
#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"
#include "script/block_pool.hpp"
#include "script/profiler.hpp"
#include "script/rules_host.hpp"

namespace vedette::script::detail {

// Instructions between two count-hook calls; the budget is charged in these steps.
constexpr int kHookStep = 1000;

// A bad argument or misuse of the API, reported to the module as a Lua error.
struct ApiError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Everything the C functions need, reachable from any lua_State of the host through the extra
// space (copied into coroutines by lua_newthread).
struct Context {
    std::shared_ptr<const core::ModuleDef> def;
    Limits limits;
    std::string rules_dir;  // module-relative folder of the rules files, e.g. "rules"

    std::size_t mem_used = 0;
    BlockPool pool;  // limited_alloc's small blocks; outlives the lua_State (closed first)

    // The current call's state: cstate is null outside calls (the game API refuses to run
    // then); state is null too when the call may only read (rules.actions).
    const core::GameState* cstate = nullptr;
    core::GameState* state = nullptr;
    int readonly_depth = 0;  // > 0 inside search callbacks
    bool in_call = false;    // the hook only enforces limits inside a call
    bool loading = false;    // require() may read new files only while loading
    std::string call_name;   // "rules.apply", for messages
    std::uint64_t instructions = 0;
    // game.memo(): the table is valid until the state may have changed (a new call, a new
    // binding, any writing API call).
    bool memo_valid = false;
    // game.pieces_memo(): tables kept across calls and states, one per set of pieces (every
    // piece's Piece::version, in piece order: equal versions, equal pieces and stacks), the
    // most recently used kPiecesMemos of them in the registry table pieces_memos[slot + 1].
    struct PiecesMemo {
        std::uint64_t digest = 0;  // of the versions: compared before the versions themselves
        std::vector<std::uint64_t> versions;
        std::uint64_t last_used = 0;
    };
    static constexpr std::size_t kPiecesMemos = 16;
    std::vector<PiecesMemo> pieces_memo_slots;
    std::uint64_t pieces_memo_clock = 0;
    int pieces_memos = LUA_NOREF;
    int pieces_memo_current = -1;  // the slot found for the state, until it may have changed
    void forget_derived() {
        memo_valid = false;
        pieces_memo_current = -1;
    }
    // game.piece's read-only tables, kept from call to call: the registry table piece_views
    // holds at [i + 1] the table built for the piece of index i at version
    // piece_view_versions[i] (Piece::version: equal versions, equal pieces).
    int piece_views = LUA_NOREF;
    std::vector<std::uint64_t> piece_view_versions;
    int piece_refusal = LUA_NOREF;  // the __newindex of every piece table
    // Registry tables that spare hashing strings the rules pass again and again (api.cpp):
    // piece id -> index (a guess, checked), index + 1 -> the id as a Lua string (checked),
    // hex label -> index into MapDef::hexes (for good: the map never changes).
    int piece_lookup = LUA_NOREF;
    int piece_ids = LUA_NOREF;
    int hex_lookup = LUA_NOREF;
    int stat_tables = LUA_NOREF;  // counter type index + 1 -> {stat = value} (game.stat)

    enum class Abort { None, Instructions, Memory };
    Abort abort = Abort::None;
    std::string abort_message;
    std::string abort_traceback;

    // Filled by the message handler: the traceback and the innermost Lua position.
    std::string error_traceback;
    std::string error_file;
    int error_line = 0;
    std::exception_ptr cpp_error;  // a C++ exception from the host's own code within a call

    std::function<void(const std::string&)> print;

    std::unique_ptr<Profiler> profiler;  // VEDETTE_LUA_PROFILE (profiler.hpp); null when off
};

inline Context& ctx(lua_State* L) { return **static_cast<Context**>(lua_getextraspace(L)); }


// ---- limits (sandbox.cpp) ----
void* limited_alloc(void* ud, void* ptr, size_t osize, size_t nsize);
void count_hook(lua_State* L, lua_Debug* ar);
// Charges C-level work to the instruction budget; raises the limit error when it runs out.
void charge(lua_State* L, std::uint64_t units);
// Records an abort (first one wins) and raises it as a Lua error.
[[noreturn]] void raise_abort(lua_State* L);
void set_memory_abort(lua_State* L);

// ---- sandbox (sandbox.cpp) ----
// Opens the allowed libraries and replaces the unsafe or non-deterministic functions.
void open_sandbox(lua_State* L);
// Makes the table at idx read-only in place (its contents move to a hidden backing table).
// `what` names it in the error, e.g. "global '{}'" -> "cannot set global 'x': <why>".
void freeze(lua_State* L, int idx, const std::string& what, const std::string& why);
// Pushes the table whose contents the table at idx shows: its backing table if frozen (then
// true), else itself. pairs, next, rawget, rawlen and to_value look through frozen tables.
bool push_contents(lua_State* L, int idx);
// The parts of a frozen table, for the host's own read-only views (game.piece): the function
// that refuses writes (freeze's message), and the metatable {__index = the table at backing,
// __newindex = the function at newindex, ...} that makes an empty table a view of backing.
void push_frozen_refusal(lua_State* L, const std::string& what, const std::string& why);
void push_frozen_metatable(lua_State* L, int backing, int newindex);
// Replaces string.find/match/gmatch/gsub by a matcher that charges its steps to the
// instruction budget (Lua's own matcher is a C loop the count hook cannot interrupt).
void install_pattern_guards(lua_State* L, int string_table);
// Loads rules/<name>.lua as text; chunk name "@rules/<name>.lua". Pushes the function.
void load_rules_file(lua_State* L, const std::string& relpath);
// After the main file ran: freezes the tables files returned and the globals; ends loading.
void finish_loading(lua_State* L);
// The top-level message handler: records a traceback in the context.
int message_handler(lua_State* L);

// ---- refusals (api.cpp) ----
bool is_refusal(lua_State* L, int idx);
std::string refusal_reason(lua_State* L, int idx);

// ---- the game/map/defs API (api.cpp) ----
void open_api(lua_State* L);

// ---- conversions (convert.cpp) ----
// Lua value at idx -> Value; throws ApiError naming `what` ("game.set_var: value.x[2]").
core::Value to_value(lua_State* L, int idx, const std::string& what);
void push_value(lua_State* L, const core::Value& v);
void push_object(lua_State* L, const core::Object& o);  // as push_value(Value(o)), without the copy

// Runs f, turning a C++ exception into a Lua error raised at the caller's position.
template <lua_CFunction F>
int guarded(lua_State* L) {
    struct Timed {  // only while profiling: how often and how long each host function runs
        Profiler* p;
        std::chrono::steady_clock::time_point t0;
        ~Timed() {
            if (p) p->count_api(reinterpret_cast<const void*>(&guarded<F>),
                                std::chrono::steady_clock::now() - t0);
        }
    } timed{ctx(L).profiler.get(), {}};
    if (timed.p) timed.t0 = std::chrono::steady_clock::now();
    std::string err;
    try {
        return F(L);
    } catch (const std::bad_alloc&) {
        err = "out of memory in the host";
    } catch (const std::exception& e) {
        err = e.what();
    }
    return luaL_error(L, "%s", err.c_str());
}

}  // namespace vedette::script::detail
