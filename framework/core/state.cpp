#include "core/state.hpp"

#include <algorithm>
#include <atomic>

namespace vedette::core {

std::uint64_t next_piece_version() {
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

namespace {
const std::vector<int> kEmptyStack;
const Value kNil;

// FNV-1a over a canonical byte walk of the state: fixed-width little-endian integers and
// length-prefixed strings, ordered containers only. Stable across processes and platforms.
struct Hasher {
    std::uint64_t h = 0xcbf29ce484222325ull;
    void byte(std::uint8_t b) {
        h ^= b;
        h *= 0x100000001b3ull;
    }
    void u64(std::uint64_t v) {
        for (int i = 0; i < 8; ++i) byte(static_cast<std::uint8_t>(v >> (8 * i)));
    }
    void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
    void str(const std::string& s) {
        u64(s.size());
        for (unsigned char c : s) byte(c);
    }
    void value(const Value& v) {
        byte(static_cast<std::uint8_t>(v.storage().index()));
        if (v.is_bool()) byte(v.as_bool() ? 1 : 0);
        else if (v.is_int()) i64(v.as_int());
        else if (v.is_string()) str(v.as_string());
        else if (v.is_array()) {
            u64(v.as_array().size());
            for (const auto& e : v.as_array()) value(e);
        } else if (v.is_object()) {
            object(v.as_object());
        }
    }
    void object(const Object& o) {
        u64(o.size());
        for (const auto& [k, e] : o) {
            str(k);
            value(e);
        }
    }
    void location(const Location& l) {
        byte(static_cast<std::uint8_t>(l.kind));
        i64(l.hex.q);
        i64(l.hex.r);
        i64(l.box);
    }
};
}  // namespace

GameState::GameState(std::shared_ptr<const ModuleDef> def) : def_(std::move(def)) {
    for (const auto& t : def_->tracks) tracks_[t.id] = t.initial;
    for (const auto& o : def_->options)
        if (o.default_on) options.insert(o.id);
}

void GameState::check_index(int index) const {
    if (index < 0 || index >= piece_count())
        throw RuleError("no piece with index " + std::to_string(index));
}

const Piece& GameState::piece(int index) const {
    check_index(index);
    return pieces_[static_cast<size_t>(index)];
}

int GameState::find_piece(std::string_view id) const {
    if (!id_index_ || id_index_->size() != pieces_.size()) {
        auto index = std::make_shared<IdIndex>();
        index->reserve(pieces_.size());
        for (size_t i = 0; i < pieces_.size(); ++i)
            index->emplace(pieces_[i].id, static_cast<int>(i));  // the first of equal ids wins
        if (index->size() != pieces_.size()) {  // duplicate ids (a hand-made save): scan
            for (size_t i = 0; i < pieces_.size(); ++i)
                if (pieces_[i].id == id) return static_cast<int>(i);
            return -1;
        }
        id_index_ = std::move(index);
    }
    auto it = id_index_->find(id);
    return it == id_index_->end() ? -1 : it->second;
}

int GameState::create_piece(int type, std::string id, int owner, Location loc, int face,
                            bool hidden) {
    if (type < 0 || type >= static_cast<int>(def_->counter_types.size()))
        throw RuleError("unknown counter type index " + std::to_string(type));
    const auto& ct = def_->counter_types[static_cast<size_t>(type)];
    if (face < 0 || (face >= static_cast<int>(ct.faces.size()) && !(ct.faces.empty() && face == 0)))
        throw RuleError("counter type '" + ct.id + "' has no face " + std::to_string(face));
    if (owner < -1 || owner >= static_cast<int>(def_->sides.size()))
        throw RuleError("unknown side index " + std::to_string(owner));
    if (id.empty()) {
        // The first free "<type>_<n>": deterministic whatever the creation order.
        for (int n = 1;; ++n) {
            std::string candidate = ct.id + "_" + std::to_string(n);
            if (find_piece(candidate) < 0) {
                id = std::move(candidate);
                break;
            }
        }
    } else if (find_piece(id) >= 0) {
        throw RuleError("a piece with id '" + id + "' already exists");
    }
    Piece p;
    p.id = std::move(id);
    p.type = type;
    p.face = face;
    p.owner = owner;
    p.hidden = hidden;
    pieces_.push_back(std::move(p));
    const int index = piece_count() - 1;
    move_piece(index, loc);
    return index;
}

Piece& GameState::changed(int index) {
    auto& p = pieces_[static_cast<size_t>(index)];
    p.version = next_piece_version();
    return p;
}

void GameState::detach(int index) {
    auto& p = pieces_[static_cast<size_t>(index)];
    if (p.loc.kind == Location::Kind::Nowhere) return;
    auto it = stacks_.find(p.loc);
    if (it != stacks_.end()) {
        auto& v = it->second;
        v.erase(std::remove(v.begin(), v.end(), index), v.end());
        if (v.empty()) stacks_.erase(it);
    }
}

void GameState::move_piece(int index, Location to, int position) {
    check_index(index);
    if (to.is_hex() && !def_->map.find(to.hex))
        throw RuleError("no hex " + def_->map.label(to.hex) + " on the map");
    if (to.is_box() && (to.box < 0 || to.box >= static_cast<int>(def_->map.boxes.size())))
        throw RuleError("no box with index " + std::to_string(to.box));
    detach(index);
    auto& p = changed(index);
    p.loc = to;
    if (to.kind == Location::Kind::Nowhere) return;
    auto& v = stacks_[to];
    if (position < 0 || position >= static_cast<int>(v.size()))
        v.push_back(index);
    else
        v.insert(v.begin() + position, index);
}

void GameState::set_face(int index, int face) {
    check_index(index);
    const auto& ct = def_->counter_types[static_cast<size_t>(pieces_[static_cast<size_t>(index)].type)];
    if (face < 0 || face >= static_cast<int>(ct.faces.size()))
        throw RuleError("counter type '" + ct.id + "' has no face " + std::to_string(face));
    changed(index).face = face;
}

void GameState::set_owner(int index, int owner) {
    check_index(index);
    if (owner < -1 || owner >= static_cast<int>(def_->sides.size()))
        throw RuleError("unknown side index " + std::to_string(owner));
    changed(index).owner = owner;
}

void GameState::set_hidden(int index, bool hidden) {
    check_index(index);
    changed(index).hidden = hidden;
}

void GameState::set_prop(int index, const std::string& key, Value v) {
    check_index(index);
    auto& props = changed(index).props;
    if (v.is_nil())
        props.erase(key);
    else
        props[key] = std::move(v);
}

const Value& GameState::prop(int index, const std::string& key) const {
    const auto& props = piece(index).props;
    auto it = props.find(key);
    return it == props.end() ? kNil : it->second;
}

const std::vector<int>& GameState::stack(const Location& loc) const {
    auto it = stacks_.find(loc);
    return it == stacks_.end() ? kEmptyStack : it->second;
}

std::int64_t GameState::track(std::string_view id) const {
    auto it = tracks_.find(std::string(id));
    if (it == tracks_.end()) throw RuleError("no track '" + std::string(id) + "'");
    return it->second;
}

void GameState::set_track(std::string_view id, std::int64_t value) {
    const TrackDef* t = def_->track(id);
    if (!t) throw RuleError("no track '" + std::string(id) + "'");
    if (value < t->min || value > t->max)
        throw RuleError("track '" + t->id + "' runs from " + std::to_string(t->min) + " to " +
                        std::to_string(t->max) + "; " + std::to_string(value) + " is outside");
    tracks_[t->id] = value;
}

const Value& GameState::var(const std::string& name) const {
    auto it = vars_.find(name);
    return it == vars_.end() ? kNil : it->second;
}

void GameState::set_var(const std::string& name, Value v) {
    if (v.is_nil())
        vars_.erase(name);
    else
        vars_[name] = std::move(v);
}

Pile& GameState::pile(const std::string& id) { return piles_[id]; }

const Pile* GameState::find_pile(const std::string& id) const {
    auto it = piles_.find(id);
    return it == piles_.end() ? nullptr : &it->second;
}

void GameState::shuffle_pile(const std::string& id) {
    auto& cards = pile(id).cards;
    // Fisher-Yates with the game RNG: reproducible from the seed.
    for (size_t i = cards.size(); i > 1; --i) {
        const size_t j = rng.below(static_cast<std::uint32_t>(i));
        std::swap(cards[i - 1], cards[j]);
    }
    ++undo_barrier;
}

std::vector<int> GameState::roll(int n, int sides, const std::string& purpose) {
    if (n < 1 || n > 100) throw RuleError("cannot roll " + std::to_string(n) + " dice");
    if (sides < 2 || sides > 1000) throw RuleError("cannot roll a " + std::to_string(sides) + "-sided die");
    Event e;
    e.kind = Event::Kind::Roll;
    e.purpose = purpose;
    e.sides = sides;
    for (int i = 0; i < n; ++i) {
        int d;
        if (!forced_dice.empty()) {
            d = forced_dice.front();
            forced_dice.pop_front();
            if (d < 1 || d > sides)
                throw RuleError("forced die " + std::to_string(d) + " is not a result of a d" +
                                std::to_string(sides));
            e.forced = true;
        } else {
            d = rng.die(sides);
            if (fixed_face > 0 && i == 0 && rolls_made == fixed_roll) {
                if (fixed_face > sides)
                    throw RuleError("fixed die " + std::to_string(fixed_face) + " is not a result of a d" +
                                    std::to_string(sides));
                d = fixed_face;
                e.forced = true;
            }
        }
        e.dice.push_back(d);
    }
    ++rolls_made;
    ++undo_barrier;
    std::string text = purpose.empty() ? "Roll" : purpose;
    text += ": " + std::to_string(n) + "d" + std::to_string(sides) + " =";
    int total = 0;
    for (int d : e.dice) {
        text += " " + std::to_string(d);
        total += d;
    }
    if (n > 1) text += " (total " + std::to_string(total) + ")";
    e.text = std::move(text);
    events.push_back(e);
    return e.dice;
}

void GameState::message(std::string text, std::string visible_to) {
    Event e;
    e.kind = Event::Kind::Message;
    e.text = std::move(text);
    e.visible_to = std::move(visible_to);
    events.push_back(std::move(e));
}

void GameState::reveal(int index) {
    check_index(index);
    if (!pieces_[static_cast<size_t>(index)].hidden) return;
    auto& p = changed(index);
    p.hidden = false;
    ++undo_barrier;
    Event e;
    e.kind = Event::Kind::Reveal;
    e.text = "Revealed " + p.id + " (" + def_->counter_types[static_cast<size_t>(p.type)].name + ")";
    events.push_back(std::move(e));
}

std::uint64_t GameState::hash() const {
    Hasher h;
    h.u64(pieces_.size());
    for (const auto& p : pieces_) {
        h.str(p.id);
        h.i64(p.type);
        h.i64(p.face);
        h.i64(p.owner);
        h.byte(p.hidden ? 1 : 0);
        h.location(p.loc);
        h.object(p.props);
    }
    h.u64(stacks_.size());
    for (const auto& [loc, v] : stacks_) {
        h.location(loc);
        h.u64(v.size());
        for (int i : v) h.i64(i);
    }
    h.u64(tracks_.size());
    for (const auto& [k, v] : tracks_) {
        h.str(k);
        h.i64(v);
    }
    h.object(vars_);
    h.u64(piles_.size());
    for (const auto& [k, p] : piles_) {
        h.str(k);
        h.str(p.owner);
        h.byte(static_cast<std::uint8_t>(p.visibility));
        h.u64(p.cards.size());
        for (const auto& c : p.cards) h.str(c);
    }
    h.i64(turn);
    h.i64(phase);
    h.i64(active_side);
    h.u64(options.size());
    for (const auto& o : options) h.str(o);
    h.str(result);
    h.u64(rng.state());
    h.u64(rng.inc());
    h.u64(forced_dice.size());
    for (int d : forced_dice) h.i64(d);
    h.u64(rolls_made);
    if (fixed_face > 0) {
        h.u64(fixed_roll);
        h.i64(fixed_face);
    }
    h.str(decision.role);
    h.str(decision.step);
    h.str(decision.prompt);
    h.str(decision.rule);
    h.value(decision.context);
    return h.h;
}

std::string GameState::check_invariants() const {
    size_t placed = 0;
    for (const auto& [loc, v] : stacks_) {
        if (v.empty()) return "an empty stack is recorded";
        for (int i : v) {
            if (i < 0 || i >= piece_count()) return "a stack holds an unknown piece index";
            if (!(pieces_[static_cast<size_t>(i)].loc == loc))
                return "piece " + pieces_[static_cast<size_t>(i)].id + " is in a stack it is not located at";
        }
        placed += v.size();
    }
    size_t expected = 0;
    for (const auto& p : pieces_)
        if (p.loc.kind != Location::Kind::Nowhere) ++expected;
    if (placed != expected) return "a piece is in more than one stack, or in none";
    return {};
}

void GameState::rebuild_stacks_from_pieces(
    const std::vector<std::pair<Location, std::vector<int>>>& order) {
    stacks_.clear();
    for (const auto& [loc, v] : order) stacks_[loc] = v;
}

}  // namespace vedette::core
