#include "session/session.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/state_json.hpp"
#include "script/rules_host.hpp"

namespace vedette::session {

using core::GameState;
using nlohmann::json;

namespace {

constexpr size_t kMaxUndo = 200;
constexpr const char* kSaveFormat = "vedette-save";
constexpr int kSaveVersion = 1;

std::string normalise(std::string_view text) {
    // Collapse runs of blanks so "move  b1 0304 " matches "move b1 0304".
    std::string out;
    bool space = false;
    for (char c : text) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            space = !out.empty();
        } else {
            if (space) out += ' ';
            space = false;
            out += c;
        }
    }
    return out;
}

json event_to_json(const core::Event& e) {
    json j;
    static const char* kinds[] = {"message", "roll", "reveal"};
    j["kind"] = kinds[static_cast<int>(e.kind)];
    j["text"] = e.text;
    if (e.kind == core::Event::Kind::Roll) {
        j["purpose"] = e.purpose;
        j["dice"] = e.dice;
        j["sides"] = e.sides;
        if (e.forced) j["forced"] = true;
    }
    if (!e.visible_to.empty()) j["visible_to"] = e.visible_to;
    return j;
}

core::Event event_from_json(const json& j) {
    core::Event e;
    const std::string kind = j.value("kind", "message");
    e.kind = kind == "roll" ? core::Event::Kind::Roll
             : kind == "reveal" ? core::Event::Kind::Reveal
                                : core::Event::Kind::Message;
    e.text = j.value("text", "");
    e.purpose = j.value("purpose", "");
    if (j.contains("dice") && j["dice"].is_array())
        for (const auto& d : j["dice"])
            if (d.is_number_integer()) e.dice.push_back(d.get<int>());
    e.sides = j.value("sides", 0);
    e.forced = j.value("forced", false);
    e.visible_to = j.value("visible_to", "");
    return e;
}

bool event_visible(const core::Event& e, const std::string& role) {
    return role.empty() || e.visible_to.empty() || e.visible_to == role;
}

// Keys beginning with "_" are the module's private bookkeeping: never shown to players.
json strip_private(const json& j) {
    if (!j.is_object()) return j;
    json out = json::object();
    for (const auto& [k, v] : j.items())
        if (k.empty() || k[0] != '_') out[k] = strip_private(v);
    return out;
}

}  // namespace

GameState build_initial_state(std::shared_ptr<const core::ModuleDef> def_ptr,
                              const core::ScenarioDef& sc, const Setup& setup) {
    const core::ModuleDef& d = *def_ptr;
    GameState s(def_ptr);
    s.rng.seed(setup.seed);
    for (int die : setup.forced_dice) s.forced_dice.push_back(die);
    for (const auto& o : setup.options) {
        if (!d.option(o)) throw SessionError("module '" + d.id + "' has no option '" + o + "'");
        s.options.insert(o);
    }
    s.turn = sc.turn;
    if (!sc.phase.empty()) s.phase = std::max(0, d.phase_index(sc.phase));
    if (!sc.first_side.empty()) s.active_side = std::max(0, d.side_index(sc.first_side));
    for (const auto& pl : sc.placements) {
        const int type = d.counter_type_index(pl.type);
        if (type < 0) throw SessionError(pl.pos.file + ":" + std::to_string(pl.pos.line) +
                                         ": unknown counter type '" + pl.type + "'");
        const auto& ct = d.counter_types[static_cast<size_t>(type)];
        const std::string& owner_id = pl.owner.empty() ? ct.side : pl.owner;
        const int owner = owner_id.empty() ? -1 : d.side_index(owner_id);
        const int face = pl.face.empty() ? 0 : ct.face_index(pl.face);
        try {
            const core::Location loc = core::parse_location(d.map, pl.at);
            for (int n = 0; n < std::max(1, pl.count); ++n) {
                std::string id = pl.id;
                if (!id.empty() && pl.count > 1) id += "_" + std::to_string(n + 1);
                const int idx = s.create_piece(type, id, owner, loc, std::max(0, face), pl.hidden);
                for (const auto& [k, v] : pl.props) s.set_prop(idx, k, v);
            }
        } catch (const core::RuleError& e) {
            throw SessionError(pl.pos.file + ":" + std::to_string(pl.pos.line) + ": " + e.what());
        }
    }
    for (const auto& [k, v] : sc.tracks) s.set_track(k, v);
    for (const auto& [k, v] : sc.vars) s.set_var(k, v);
    for (const auto& [deck_id, shuffle] : sc.decks) {
        const core::DeckDef* deck = d.deck(deck_id);
        if (!deck) throw SessionError("scenario '" + sc.id + "' uses unknown deck '" + deck_id + "'");
        auto& pile = s.pile(deck->id);
        pile.owner = deck->owner;
        pile.visibility = core::Pile::Visibility::Nobody;
        pile.cards.clear();
        for (const auto& c : deck->cards) pile.cards.push_back(c.id);
        if (shuffle) s.shuffle_pile(deck->id);
    }
    s.undo_barrier = 0;
    return s;
}

Session::Session(GameState initial, std::shared_ptr<script::RulesHost> rules)
    : initial_(initial), state_(std::move(initial)), rules_(std::move(rules)) {}

Session Session::start(std::shared_ptr<const core::ModuleDef> def,
                       std::shared_ptr<script::RulesHost> rules, const core::ScenarioDef& scenario,
                       const Setup& setup) {
    Session s(build_initial_state(def, scenario, setup), std::move(rules));
    s.setup_ = setup;
    s.setup_.scenario = scenario.id;
    try {
        s.rules_->setup(s.state_);
    } catch (const core::RuleError& e) {
        throw SessionError(std::string("the rules refused to set up the game: ") + e.what());
    } catch (const std::exception& e) {
        throw SessionError(e.what());
    }
    s.setup_events_ = std::move(s.state_.events);
    s.state_.events.clear();
    return s;
}

std::vector<core::Action> Session::actions(const std::string& role) const {
    if (over() || role != state_.decision.role) return {};
    return listed(role);
}

const std::vector<core::Action>& Session::actions_view(const std::string& role) const {
    static const std::vector<core::Action> none;
    if (over() || role != state_.decision.role) return none;
    return listed(role);
}

const std::vector<core::Action>& Session::listed(const std::string& role) const {
    if (cached_ && cached_->role == role) return cached_->actions;
    // Read-only: the host refuses mutations while listing.
    cached_ = CachedActions{role, rules_->actions(state_, role)};
    return cached_->actions;
}

ApplyResult Session::apply(const std::string& role, const std::string& action_text) {
    ApplyResult r;
    if (over()) {
        r.refusal = "the game is over: " + state_.result;
        return r;
    }
    if (role != state_.decision.role) {
        r.refusal = "it is not " + (role.empty() ? std::string("nobody") : role) +
                    "'s decision; waiting for " + state_.decision.role +
                    (state_.decision.prompt.empty() ? "" : " (" + state_.decision.prompt + ")");
        return r;
    }
    const std::string wanted = normalise(action_text);
    const auto& legal = listed(role);  // not a copy: the cache stays until state_ changes
    const core::Action* chosen = nullptr;
    for (const auto& a : legal)
        if (a.text() == wanted) {
            chosen = &a;
            break;
        }
    if (!chosen) {
        r.refusal = "'" + wanted + "' is not a legal action now";
        if (!state_.decision.prompt.empty()) r.refusal += " (" + state_.decision.prompt + ")";
        if (legal.empty()) r.refusal += "; there is no legal action";
        return r;
    }
    GameState next = state_;  // the scratch copy: state_ stays intact whatever happens
    try {
        rules_->apply_to_scratch(next, role, *chosen);
    } catch (const core::RuleError& e) {
        r.refusal = e.what();
        return r;
    }
    // Script errors propagate as exceptions: a module bug is not a refusal. state_ is intact.
    LogEntry entry;
    entry.role = role;
    entry.action = wanted;
    entry.public_action = chosen->public_text;
    entry.turn = next.turn;
    entry.phase = def().phases.empty() ? "" : def().phases[static_cast<size_t>(next.phase)].id;
    entry.events = std::move(next.events);
    next.events.clear();
    if (record_hashes_) entry.hash = core::hash_hex(next.hash());
    undo_.push_back({std::move(state_), log_.size()});
    if (undo_.size() > kMaxUndo) undo_.pop_front();
    state_ = std::move(next);
    cached_.reset();
    r.ok = true;
    r.events = entry.events;
    log_.push_back(std::move(entry));
    return r;
}

bool Session::annotate_last(const std::string& role, std::string note) {
    if (log_.empty() || log_.back().role != role) return false;
    log_.back().note = std::move(note);
    return true;
}

bool Session::can_undo(const std::string& role, std::string* why) const {
    auto no = [&](const std::string& reason) {
        if (why) *why = reason;
        return false;
    };
    if (undo_.empty() || log_.empty() || undo_.back().log_size != log_.size() - 1)
        return no("there is nothing to undo");
    if (log_.back().role != role) return no("the last action was " + log_.back().role + "'s");
    if (undo_.back().state.undo_barrier != state_.undo_barrier)
        return no("dice were rolled or hidden information was revealed since");
    return true;
}

bool Session::undo(const std::string& role, std::string* why) {
    if (!can_undo(role, why)) return false;
    state_ = std::move(undo_.back().state);
    cached_.reset();
    undo_.pop_back();
    log_.pop_back();
    return true;
}

json Session::view(const std::string& role) const {
    json j = core::state_to_json(state_);
    j.erase("rng");  // the RNG state would predict every future roll
    j.erase("forced_dice");
    j["hash"] = core::hash_hex(state_.hash());
    if (role.empty()) return j;
    j.erase("hash");  // a hash of hidden data leaks it to a brute-force search
    const core::ModuleDef& d = def();
    j["vars"] = strip_private(j["vars"]);
    j["decision"]["context"] = strip_private(j["decision"]["context"]);
    // Pieces: hidden ones show only what they look like; private boxes show only a count (or
    // nothing, with hide-count).
    json pieces = json::array();
    std::map<std::string, std::string> alias;  // real id -> id shown
    std::map<std::string, int> private_counts;
    int hidden_n = 0;
    for (const auto& p : state_.pieces()) {
        const bool own = p.owner >= 0 && d.sides[static_cast<size_t>(p.owner)].id == role;
        const std::string loc = core::location_text(d.map, p.loc);
        if (p.loc.is_box() && !own) {
            const auto& box = d.map.boxes[static_cast<size_t>(p.loc.box)];
            if (box.is_private && box.owner != role) {
                if (!box.hide_count) private_counts[loc]++;
                alias[p.id] = "";
                continue;
            }
        }
        const auto& ct = d.counter_types[static_cast<size_t>(p.type)];
        json pj = json::object();
        if (p.hidden && !own) {
            const std::string shown_id = "hidden_" + std::to_string(++hidden_n);
            alias[p.id] = shown_id;
            pj["id"] = shown_id;
            pj["type"] = ct.hidden_as.empty() ? "unknown" : ct.hidden_as;
            pj["face"] = "";
            pj["hidden"] = true;
            pj["props"] = json::object();
        } else {
            alias[p.id] = p.id;
            pj["id"] = p.id;
            pj["type"] = ct.id;
            pj["face"] = ct.faces.empty() ? "" : ct.faces[static_cast<size_t>(p.face)].id;
            pj["hidden"] = p.hidden;
            pj["props"] = strip_private(core::value_to_json(core::Value(p.props)));
        }
        pj["owner"] = p.owner < 0 ? "" : d.sides[static_cast<size_t>(p.owner)].id;
        pj["loc"] = loc;
        pieces.push_back(std::move(pj));
    }
    j["pieces"] = std::move(pieces);
    json stacks = json::array();
    for (const auto& [loc, v] : state_.stacks()) {
        json ids = json::array();
        for (int i : v) {
            const std::string& shown = alias[state_.piece(i).id];
            if (!shown.empty()) ids.push_back(shown);
        }
        if (!ids.empty()) stacks.push_back({{"loc", core::location_text(d.map, loc)}, {"pieces", ids}});
    }
    j["stacks"] = std::move(stacks);
    json counts = json::object();
    for (const auto& [loc, n] : private_counts) counts[loc] = n;
    j["private_boxes"] = std::move(counts);
    json piles = json::object();
    for (const auto& [id, p] : state_.piles()) {
        const bool sees = p.visibility == core::Pile::Visibility::All ||
                          (p.visibility == core::Pile::Visibility::Owner && p.owner == role);
        piles[id] = {{"owner", p.owner}, {"count", p.cards.size()}};
        if (sees) piles[id]["cards"] = p.cards;
    }
    j["piles"] = std::move(piles);
    j["role"] = role;
    return j;
}

json Session::log_json(const std::string& role) const {
    json out = json::array();
    for (const auto& e : log_) {
        json ej;
        ej["role"] = e.role;
        const bool masked = !role.empty() && role != e.role && !e.public_action.empty();
        ej["action"] = masked ? e.public_action : e.action;
        if (role.empty() && !e.public_action.empty()) ej["public_action"] = e.public_action;
        ej["turn"] = e.turn;
        ej["phase"] = e.phase;
        json evs = json::array();
        for (const auto& ev : e.events)
            if (event_visible(ev, role)) evs.push_back(event_to_json(ev));
        ej["events"] = std::move(evs);
        if (role.empty() && !e.hash.empty()) ej["hash"] = e.hash;
        // the deciding role's private reasoning: its own view and the referee's only
        if (!e.note.empty() && (role.empty() || role == e.role)) ej["note"] = e.note;
        out.push_back(std::move(ej));
    }
    return out;
}

json Session::to_json() const {
    const core::ModuleDef& d = def();
    json j;
    j["format"] = kSaveFormat;
    j["version"] = kSaveVersion;
    // The path lets `vedette-cli actions SAVE` find the module again without being told.
    std::error_code ec;
    const auto abs = std::filesystem::absolute(d.dir, ec);
    j["module"] = {{"id", d.id},
                   {"version", d.version},
                   {"content_hash", d.content_hash},
                   {"path", ec ? d.dir : abs.lexically_normal().string()}};
    j["setup"] = {{"scenario", setup_.scenario},
                  {"seed", setup_.seed},
                  {"options", setup_.options},
                  {"forced_dice", setup_.forced_dice}};
    j["initial"] = core::state_to_json(initial_);
    json setup_events = json::array();
    for (const auto& e : setup_events_) setup_events.push_back(event_to_json(e));
    j["setup_events"] = std::move(setup_events);
    j["log"] = log_json("");
    j["state"] = core::state_to_json(state_);
    j["state_hash"] = core::hash_hex(state_.hash());
    return j;
}

void Session::save(const std::string& path) const {
    const std::string text = to_json().dump(1) + "\n";
    // Atomic: write a temporary file next to the target, flush it to disk, then rename over.
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw SessionError("cannot write " + tmp + ": " + std::strerror(errno));
    const bool wrote = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    const bool flushed = std::fflush(f) == 0 && ::fsync(fileno(f)) == 0;
    const bool closed = std::fclose(f) == 0;
    if (!wrote || !flushed || !closed) {
        std::remove(tmp.c_str());
        throw SessionError("cannot write " + tmp + ": " + std::strerror(errno));
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string err = std::strerror(errno);
        std::remove(tmp.c_str());
        throw SessionError("cannot replace " + path + ": " + err);
    }
}

json Session::read_json_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw SessionError("cannot open " + path);
    std::ostringstream ss;
    ss << in.rdbuf();
    try {
        return json::parse(ss.str());
    } catch (const json::parse_error& e) {
        throw SessionError(path + ": not a valid JSON save (" + std::string(e.what()) + ")");
    }
}

namespace {

void check_header(const core::ModuleDef& d, const json& j) {
    if (!j.is_object() || j.value("format", "") != kSaveFormat)
        throw SessionError("not a Vedette save file");
    if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() != kSaveVersion)
        throw SessionError("unsupported save version");
    if (!j.contains("module") || !j["module"].is_object())
        throw SessionError("the save names no module");
    const std::string id = j["module"].value("id", "");
    if (id != d.id) throw SessionError("the save is for module '" + id + "', not '" + d.id + "'");
}

Setup setup_from_json(const json& j) {
    Setup s;
    if (!j.contains("setup") || !j["setup"].is_object()) throw SessionError("the save has no setup");
    const json& sj = j["setup"];
    s.scenario = sj.value("scenario", "");
    if (!sj.contains("seed") || !sj["seed"].is_number_unsigned())
        throw SessionError("setup.seed: expected a non-negative integer");
    s.seed = sj["seed"].get<std::uint64_t>();
    if (sj.contains("options") && sj["options"].is_array())
        for (const auto& o : sj["options"])
            if (o.is_string()) s.options.insert(o.get<std::string>());
    if (sj.contains("forced_dice") && sj["forced_dice"].is_array())
        for (const auto& d : sj["forced_dice"])
            if (d.is_number_integer()) s.forced_dice.push_back(d.get<int>());
    return s;
}

const json& log_of(const json& j) {
    if (!j.contains("log") || !j["log"].is_array()) throw SessionError("the save has no log");
    return j["log"];
}

}  // namespace

Session Session::from_json(std::shared_ptr<const core::ModuleDef> def,
                           std::shared_ptr<script::RulesHost> rules, const json& j) {
    check_header(*def, j);
    try {
        if (!j.contains("initial") || !j.contains("state"))
            throw SessionError("the save has no initial state or no state");
        Session s(core::state_from_json(def, j["initial"]), std::move(rules));
        s.setup_ = setup_from_json(j);
        s.state_ = core::state_from_json(def, j["state"]);
        if (j.contains("setup_events") && j["setup_events"].is_array())
            for (const auto& e : j["setup_events"]) s.setup_events_.push_back(event_from_json(e));
        for (const auto& ej : log_of(j)) {
            if (!ej.is_object()) throw SessionError("log: expected objects");
            LogEntry e;
            e.role = ej.value("role", "");
            e.action = ej.value("action", "");
            e.public_action = ej.value("public_action", "");
            e.turn = ej.value("turn", 0);
            e.phase = ej.value("phase", "");
            e.hash = ej.value("hash", "");
            e.note = ej.value("note", "");
            if (ej.contains("events") && ej["events"].is_array())
                for (const auto& ev : ej["events"]) e.events.push_back(event_from_json(ev));
            s.log_.push_back(std::move(e));
        }
        const std::string expected = j.value("state_hash", "");
        if (!expected.empty() && expected != core::hash_hex(s.state_.hash()))
            throw SessionError("the save's state does not match its recorded hash (damaged file?)");
        return s;
    } catch (const core::FormatError& e) {
        throw SessionError(std::string("damaged save: ") + e.what());
    } catch (const json::exception& e) {
        throw SessionError(std::string("damaged save: ") + e.what());
    }
}

Session Session::load(std::shared_ptr<const core::ModuleDef> def,
                      std::shared_ptr<script::RulesHost> rules, const std::string& path) {
    return from_json(std::move(def), std::move(rules), read_json_file(path));
}

Session Session::restart(std::shared_ptr<const core::ModuleDef> def,
                         std::shared_ptr<script::RulesHost> rules, const json& j) {
    check_header(*def, j);
    try {
        Session s(core::state_from_json(def, j.at("initial")), std::move(rules));
        s.setup_ = setup_from_json(j);
        s.rules_->setup(s.state_);
        s.setup_events_ = std::move(s.state_.events);
        s.state_.events.clear();
        return s;
    } catch (const core::FormatError& e) {
        throw SessionError(std::string("damaged save: ") + e.what());
    } catch (const json::exception& e) {
        throw SessionError(std::string("damaged save: ") + e.what());
    }
}

std::string Session::verify(std::shared_ptr<const core::ModuleDef> def,
                            std::shared_ptr<script::RulesHost> rules, const json& j) {
    try {
        Session s = restart(def, std::move(rules), j);
        const json& log = log_of(j);
        for (size_t i = 0; i < log.size(); ++i) {
            const std::string role = log[i].value("role", "");
            const std::string action = log[i].value("action", "");
            const std::string where = "log entry " + std::to_string(i + 1) + " (" + role + ": " + action + ")";
            ApplyResult r = s.apply(role, action);
            if (!r.ok) return where + " is refused on replay: " + r.refusal;
            const std::string expected = log[i].value("hash", "");
            if (!expected.empty() && expected != s.log_.back().hash)
                return where + " gives state hash " + s.log_.back().hash + ", the save recorded " + expected;
        }
        const std::string final_hash = core::hash_hex(s.state_.hash());
        if (j.value("state_hash", "") != final_hash)
            return "the replayed final state hash " + final_hash + " differs from the save's " +
                   j.value("state_hash", "");
        return {};
    } catch (const core::FormatError& e) {
        throw SessionError(std::string("damaged save: ") + e.what());
    } catch (const json::exception& e) {
        throw SessionError(std::string("damaged save: ") + e.what());
    }
}

}  // namespace vedette::session
