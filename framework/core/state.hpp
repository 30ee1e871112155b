// The mutable game state (PRODUCT.md §2): everything that changes during a game, owned by the
// host as plain data. Copying a GameState is the undo snapshot and the AI's search node, so it
// holds no pointers into itself and no Lua references. Every mutation goes through a method
// that keeps the invariants (each piece in exactly one place, stacks consistent).
#pragma once

#include <compare>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/defs.hpp"
#include "core/rng.hpp"
#include "core/value.hpp"
#include "hex/hex.hpp"

namespace vedette::core {

// A refused or impossible operation, with a message meant for the player or the modder.
struct RuleError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Location {
    enum class Kind : std::uint8_t { Nowhere, Hex, Box };
    Kind kind = Kind::Nowhere;
    hex::Hex hex;  // when Kind::Hex
    int box = -1;  // index into MapDef::boxes when Kind::Box

    static Location nowhere() { return {}; }
    static Location at(hex::Hex h) { return {Kind::Hex, h, -1}; }
    static Location in_box(int b) { return {Kind::Box, {}, b}; }
    bool is_hex() const { return kind == Kind::Hex; }
    bool is_box() const { return kind == Kind::Box; }
    friend bool operator==(const Location&, const Location&) = default;
    friend auto operator<=>(const Location&, const Location&) = default;
};

// A number never handed out before in this process (thread-safe): Piece::version.
std::uint64_t next_piece_version();

struct Piece {
    std::string id;
    int type = 0;    // index into ModuleDef::counter_types
    int face = 0;    // index into the type's faces
    int owner = -1;  // side index, -1 for none
    bool hidden = false;  // only the owner sees what it is
    Location loc;
    Object props;
    // Not part of the state (never saved, hashed or compared): a new number at construction and
    // at every change through GameState, kept by copies. Equal versions mean equal pieces, so
    // the script layer reuses the Lua table it built for a version (game.piece).
    std::uint64_t version = next_piece_version();
};

// A named ordered pile of cards (a deck, a hand, a discard pile).
struct Pile {
    std::string owner;  // side id, or empty
    enum class Visibility : std::uint8_t { All, Owner, Nobody } visibility = Visibility::Nobody;
    std::vector<std::string> cards;  // top first
};

// What the game waits for: who decides, in which step of which rule.
struct Decision {
    std::string role;    // side id; empty when nobody decides (game over)
    std::string step;    // the module's step name, e.g. "move", "allocate_hits"
    std::string prompt;  // what is asked, in words
    std::string rule;    // the rule number being applied, e.g. "8.2"
    Value context;       // the step's working data (an attack's participants, ...)
};

// Something that happened while applying an action: a message, a die roll, a revelation.
struct Event {
    enum class Kind : std::uint8_t { Message, Roll, Reveal };
    Kind kind = Kind::Message;
    std::string text;
    std::string purpose;     // for rolls: why the dice were rolled
    std::vector<int> dice;   // for rolls
    int sides = 0;           // for rolls
    bool forced = false;     // for rolls: taken from the forced-dice queue
    std::string visible_to;  // empty: everybody; else only this side
};

class GameState {
public:
    explicit GameState(std::shared_ptr<const ModuleDef> def);

    const ModuleDef& def() const { return *def_; }
    const std::shared_ptr<const ModuleDef>& def_ptr() const { return def_; }

    // ---- pieces and stacks ----
    int piece_count() const { return static_cast<int>(pieces_.size()); }
    const Piece& piece(int index) const;
    int find_piece(std::string_view id) const;  // -1 if none
    // Adds a piece; generates "<type>_<n>" when id is empty. Throws RuleError on a duplicate id.
    int create_piece(int type, std::string id, int owner, Location loc, int face = 0,
                     bool hidden = false);
    // Moves to the top of the destination stack (or to `position` from the bottom).
    void move_piece(int index, Location to, int position = -1);
    void set_face(int index, int face);
    void set_owner(int index, int owner);
    void set_hidden(int index, bool hidden);
    void set_prop(int index, const std::string& key, Value v);  // nil erases
    const Value& prop(int index, const std::string& key) const;
    // Pieces at a location, bottom to top. Empty vector when none.
    const std::vector<int>& stack(const Location& loc) const;
    const std::map<Location, std::vector<int>>& stacks() const { return stacks_; }

    // ---- tracks, variables, piles ----
    std::int64_t track(std::string_view id) const;
    void set_track(std::string_view id, std::int64_t value);  // clamped? no: refused outside min..max
    const Value& var(const std::string& name) const;
    void set_var(const std::string& name, Value v);  // nil erases
    const Object& vars() const { return vars_; }
    const std::map<std::string, std::int64_t>& tracks() const { return tracks_; }
    Pile& pile(const std::string& id);  // created empty on first use
    const Pile* find_pile(const std::string& id) const;
    const std::map<std::string, Pile>& piles() const { return piles_; }
    void shuffle_pile(const std::string& id);  // uses the game RNG (no event: order is secret)

    // ---- turn and phase ----
    int turn = 1;
    int phase = 0;        // index into ModuleDef::phases
    int active_side = 0;  // index into ModuleDef::sides
    std::set<std::string> options;  // enabled option ids
    std::string result;   // empty while the game goes on; else the outcome in words

    // ---- dice ----
    // Rolls n dice of `sides` faces, forced results first. Logs an event; bumps the undo barrier.
    std::vector<int> roll(int n, int sides, const std::string& purpose);
    Rng rng;
    std::deque<int> forced_dice;  // consumed in order before the RNG
    std::uint64_t rolls_made = 0;
    // The first die of roll number `fixed_roll` (counted by rolls_made) shows `fixed_face`, the RNG
    // drawn as usual: a search plays one die's outcomes with every other die as it fell (the AI's
    // 11.20 fate). 0: none. Not saved; hashed only when set.
    std::uint64_t fixed_roll = 0;
    int fixed_face = 0;

    // ---- decision and events ----
    Decision decision;
    std::vector<Event> events;  // since the session last took them
    void message(std::string text, std::string visible_to = {});
    void reveal(int index);     // un-hides a piece, logs it, bumps the undo barrier
    std::uint64_t undo_barrier = 0;  // changes whenever undo must not cross this point

    // ---- whole-state helpers ----
    std::uint64_t hash() const;  // stable across processes and platforms
    // Checks internal invariants; returns a description of the first violation, or empty.
    std::string check_invariants() const;

    // For serialisation (framework/core/state_json.cpp) only.
    std::vector<Piece>& pieces_for_load() {
        id_index_.reset();
        return pieces_;
    }
    const std::vector<Piece>& pieces() const { return pieces_; }
    std::map<std::string, std::int64_t>& tracks_for_load() { return tracks_; }
    Object& vars_for_load() { return vars_; }
    std::map<std::string, Pile>& piles_for_load() { return piles_; }
    void rebuild_stacks_from_pieces(const std::vector<std::pair<Location, std::vector<int>>>& order);

private:
    void check_index(int index) const;
    void detach(int index);
    Piece& changed(int index);  // the piece, with a new version

    std::shared_ptr<const ModuleDef> def_;
    std::vector<Piece> pieces_;
    // find_piece's index (id -> index), built on first use for the current pieces: pieces are
    // only ever appended and their ids never change, so it holds while the count is the same.
    // Immutable once built and shared by copies (a copy costs a reference count, not a map).
    struct IdHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    using IdIndex = std::unordered_map<std::string, int, IdHash, std::equal_to<>>;
    mutable std::shared_ptr<const IdIndex> id_index_;
    std::map<Location, std::vector<int>> stacks_;
    std::map<std::string, std::int64_t> tracks_;
    Object vars_;
    std::map<std::string, Pile> piles_;
};

}  // namespace vedette::core
