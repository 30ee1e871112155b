// The session: the one door through which a game changes (PRODUCT.md §3). GUI, CLI, AIs and
// tests all call actions() / apply(); the session checks that the action is legal, applies it
// on a copy (so a failing rule leaves the game intact), logs it with its dice and the resulting
// state hash, keeps undo snapshots, computes per-role views, and saves/loads/replays.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/action.hpp"
#include "core/defs.hpp"
#include "core/state.hpp"

namespace vedette::script {
class RulesHost;
}

namespace vedette::session {

struct LogEntry {
    std::string role;
    std::string action;  // text form
    std::string public_action;  // what other roles see instead, when the text is secret
    int turn = 0;
    std::string phase;
    std::vector<core::Event> events;
    std::string hash;  // state hash after the action (16 hex digits), empty if not recorded
    // Debug level, private to `role`: why that role chose the action (an AI's reasoning). Shown
    // only to `role` and to the referee view (""); never part of the state, its hash or a replay.
    std::string note;
};

// Everything needed to start a game again from scratch.
struct Setup {
    std::string scenario;  // scenario id (or the set-up file's scenario id)
    std::uint64_t seed = 1;
    std::set<std::string> options;
    std::vector<int> forced_dice;
};

struct ApplyResult {
    bool ok = false;
    std::string refusal;  // why not, in words, when !ok
    std::vector<core::Event> events;
};

// A module bug (script error) or broken input, as opposed to a refused action.
struct SessionError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Session {
public:
    // Builds the initial state from the scenario and calls the rules' setup.
    static Session start(std::shared_ptr<const core::ModuleDef> def,
                         std::shared_ptr<script::RulesHost> rules, const core::ScenarioDef& scenario,
                         const Setup& setup);

    const core::GameState& state() const { return state_; }
    // Module tests only (vt.edit): the state, writable, outside the door. Drops the undo history.
    core::GameState& state_for_tests() {
        undo_.clear();
        cached_.reset();
        return state_;
    }
    const core::ModuleDef& def() const { return state_.def(); }
    const std::vector<LogEntry>& log() const { return log_; }
    const std::vector<core::Event>& setup_events() const { return setup_events_; }
    const Setup& setup() const { return setup_; }
    bool over() const { return !state_.result.empty(); }
    // The role that must decide now (empty when the game is over).
    const std::string& decider() const { return state_.decision.role; }

    // Legal actions for `role` now (empty when it is not that role's decision).
    std::vector<core::Action> actions(const std::string& role) const;
    // The same without copying the list: valid until the game changes (apply, undo, load).
    const std::vector<core::Action>& actions_view(const std::string& role) const;
    // Takes one action given in its text form. A refusal leaves everything unchanged.
    ApplyResult apply(const std::string& role, const std::string& action_text);

    // Attaches a debug note (LogEntry::note) to the last log entry, if `role` took it; false
    // otherwise. Changes no state: hashes, undo and replays are untouched.
    bool annotate_last(const std::string& role, std::string note);

    // Undo the last action if `role` took it and no die was rolled / nothing was revealed since.
    bool can_undo(const std::string& role, std::string* why = nullptr) const;
    bool undo(const std::string& role, std::string* why = nullptr);

    // What `role` may see (empty role: everything, for referees and debugging).
    nlohmann::json view(const std::string& role) const;
    // The log as `role` may see it.
    nlohmann::json log_json(const std::string& role) const;

    // Whether to compute the state hash after every action (saves and replays need it; bots
    // and benchmarks may switch it off).
    void set_record_hashes(bool on) { record_hashes_ = on; }

    // ---- saves ----
    nlohmann::json to_json() const;
    // Writes atomically (temporary file + rename). Throws SessionError with the reason.
    void save(const std::string& path) const;
    // Loads a save made with this module; the state comes from the snapshot.
    static Session from_json(std::shared_ptr<const core::ModuleDef> def,
                             std::shared_ptr<script::RulesHost> rules, const nlohmann::json& j);
    static Session load(std::shared_ptr<const core::ModuleDef> def,
                        std::shared_ptr<script::RulesHost> rules, const std::string& path);
    static nlohmann::json read_json_file(const std::string& path);

    // The save's game at its start: its initial state after the rules' setup, with an empty
    // log. Replays (verify, the GUI's replay viewer) re-apply the save's log from here.
    static Session restart(std::shared_ptr<const core::ModuleDef> def,
                           std::shared_ptr<script::RulesHost> rules, const nlohmann::json& save);
    // Replays the save's log from its initial state; returns an empty string when every hash
    // matches, else a description of the first diverging entry.
    static std::string verify(std::shared_ptr<const core::ModuleDef> def,
                              std::shared_ptr<script::RulesHost> rules, const nlohmann::json& save);

private:
    Session(core::GameState initial, std::shared_ptr<script::RulesHost> rules);

    core::GameState initial_;  // after scenario placement, before rules setup
    core::GameState state_;
    std::shared_ptr<script::RulesHost> rules_;
    Setup setup_;
    std::vector<LogEntry> log_;
    std::vector<core::Event> setup_events_;
    struct Snapshot {
        core::GameState state;
        size_t log_size;
    };
    std::deque<Snapshot> undo_;  // oldest first; the oldest goes when there are kMaxUndo
    bool record_hashes_ = true;
    // The last listing of legal actions, until the state changes: a client lists the actions,
    // then applies one, and apply() checks legality against the same list without asking the
    // rules twice.
    struct CachedActions {
        std::string role;
        std::vector<core::Action> actions;
    };
    mutable std::optional<CachedActions> cached_;
    // The decider's legal actions, from the cache (filled on first use).
    const std::vector<core::Action>& listed(const std::string& role) const;
};

// Places a scenario's pieces, tracks, variables and decks into a fresh state.
core::GameState build_initial_state(std::shared_ptr<const core::ModuleDef> def,
                                    const core::ScenarioDef& scenario, const Setup& setup);

}  // namespace vedette::session
