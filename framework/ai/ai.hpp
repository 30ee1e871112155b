// The AI (issue 6): a bot for every decision of a module, for either side, at three strengths,
// deterministic for a seed, deciding only from Session::view(role) — never the true state.
//
// How it decides (docs/ai.md): it builds a *determinized* GameState from its role's view
// (hidden enemy trains drawn as genuine or dummy, unknown cards filled in, its own dice), then
// scores each legal action by applying it on a copy with its own RulesHost and playing the rest
// of the current procedure (a stack's move, a combat) with a greedy policy for both sides, and
// evaluating the result (material in OF, distance of the Coalition to its objectives, cities
// held, Napoleon's safety, supply trains). Levels differ by samples, candidates and lookahead.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/rng.hpp"
#include "core/state.hpp"
#include "session/bot.hpp"
#include "session/session.hpp"

namespace vedette::script {
class RulesHost;
}

namespace vedette::ai {

enum class Level { Easy, Normal, Hard };
const char* level_name(Level l);

struct Params {
    int samples = 1;         // determinizations / dice samples per candidate action
    int rollout_steps = 24;  // procedure rollout length cap
    int max_candidates = 64; // candidates scored per decision (the rest get a cheap prior)
    int apply_budget = 900;  // rules.apply calls per decision (deterministic, not a clock)
    double epsilon = 0.0;    // chance of a random legal action (easy)
    bool lookahead = true;   // play the procedure to its end before evaluating
    int plan_nodes = 40;     // positions a stack's move planner visits (8.4: up to 3 hexes away)
    int commander_candidates = 12;  // commanders' moves (12.1) fully scored, by a cheap prior
    // 7.7, 8.2: the stacks' moves a depot step may plan (move_gain, about 0.3 s each): normal's
    // two keep its decisions well under 2 s (issue 6); easy and hard, which have no such limit,
    // plan every one the charge decides against
    int depot_move_checks = 2;
};
Params params_for(Level l);

// Where the "why" of each decision goes (null: nowhere). Also switched on by the environment
// variable VEDETTE_AI_DEBUG=1 (standard error).
void set_debug_stream(std::ostream* out);

// Evaluation of a state from `role`'s point of view (higher is better), with its parts.
struct Evaluation {
    double total = 0, material = 0, objectives = 0, cities = 0, napoleon = 0, trains = 0, command = 0, supply = 0;
    double length = 0;  // 14.12: the game shortened by Bernadotte's crossing (1814)
    std::string describe() const;
};
Evaluation evaluate(const core::GameState& s, const std::string& role);
// The RulesHost whose rules.ai_features (if the module exports it) gives evaluate() the real
// supply status; null: the distance approximation. AiBot sets its own while it decides.
void set_feature_rules(script::RulesHost* rules);
// How much `role` gains by letting the stack at `hex` move or rally this Turn (7.3): used to
// allocate Supply Trains, whose effect the procedure rollout cannot see.
// The cheap prior of moving commander `piece` to `hex` (12.1): the change of the `command` term
// (a stack gaining its first Commander, or losing its last); Napoleon always first.
double commander_move_prior(const core::GameState& s, const std::string& role, const std::string& piece,
                            const std::string& hex);
// `ignore_train`: as if the stack had no Supply Train yet (what it loses if its train becomes a
// depot, 7.7).
// The attacker's nearest unit to each objective (hexes) and its units on the map / in all, for
// tournament reports (1814: how near the Coalition got); "" without objectives.
// With `rules`, also how near the capital its supply field reaches (rules.ai_supply_field).
// 14.4: the attacking `role` holds all of the victory condition but one objective, whose
// occupation by this Turn's end wins the game (1814: Bordeaux or Marseilles held and not Paris, or
// Paris held and neither of the others)
bool one_objective_short(const core::GameState& s, const std::string& role);
// 14.4: the attacking `role` holds the whole victory condition now (1814: a combat unit in Paris
// and in Bordeaux or Marseilles): it wins at this Turn's end unless one is retaken.
bool holds_victory(const core::GameState& s, const std::string& role);
// Hexes from `hex` to the nearest objective whose occupation by this Turn's end wins the game for
// the attacking `role` (one_objective_short); -1 when there is none.
int decisive_distance(const core::GameState& s, const std::string& role, const std::string& hex);
// 10.2, 11.3-11.19: the chance one attack of the attacking `role` this Turn takes the objective at
// `hex` from its garrison (its best stack next to it, the others as supports, every CC of the Turn
// behind it); 0 for an empty hex or another role.
double objective_take_chance(const core::GameState& s, const std::string& role,
                             const std::string& hex);
// 8.4, 11.2, 14.4: whether the move planner looks at a forced march of `role`'s stack ending at
// `dest` (it never does otherwise, but to overrun a lone Napoleon): on the last two Turns, outside
// Winter (attacker_rush), and when one objective is short (one_objective_short) one that ends next
// to that objective or in it.
bool plan_forced_march(const core::GameState& root, const std::string& role, const std::string& dest);
// 6.2: whether `h` is a city friendly to another side than `side` (the module's regions
// "<side>_friendly"; without them, every city): no supply route of `side` passes it unless a stack
// of `side` holds it.
bool enemy_city(const core::ModuleDef& d, int side, hex::Hex h);
// 6.2, 8.4: at the start of a stack's move (`acts`, the movement.stack step), the `leave` step
// that keeps the attacker's weakest unit (the least OF) in the enemy city the stack stands on, so
// that its side's routes still pass it; acts.size() when there is none to take (not the
// attacker, not such a city, a stack of one unit, or a unit staying there already).
size_t leave_holder(const core::GameState& root, const std::string& role, const std::vector<core::Action>& acts);
// 8.4, 8.9, 11.20: at the start of the attacker's stack's move (`acts`, the movement.stack step)
// within five hexes of a lone enemy Napoleon, the units to leave behind and the Commanders to keep
// in place so that one unit (a Cossack first, 6.6; then by the counter stat `type`: cavalry,
// infantry, artillery last; then the least OF) and one Commander (the least CR) go on to overrun
// him: the fate die (11.20) is the same for one unit as for the stack, and the units left stay
// where they stand, in supply (6.4). Empty when there is none to make.
struct HuntDetachment {
    std::vector<std::string> leave;  // piece ids, in order
    std::vector<std::string> drop;
};
HuntDetachment hunt_detachment(const core::GameState& root, const std::string& role,
                               const std::vector<core::Action>& acts);
std::string attacker_progress(const core::GameState& s, script::RulesHost* rules = nullptr);
// 13.2, 6.4: whether `piece`, just placed as a reinforcement in `after`, stands out of General
// Supply (the rules' trace, rules.ai_features; false when the module cannot tell, or for pieces
// 6.6 deems supplied). The reinforcements phase is the Turn's last: the next supply phase finds it
// there and disrupts it.
bool arrives_out_of_supply(const core::GameState& after, const std::string& piece);
// What a Supply Train on the stack at `hex` is worth to `role` (7.3): its move (8.2, 8.4) and what
// the train brings where the stack stands. `standing`, when given, receives the latter alone:
// the forage marker it keeps off (7.6), the rally (8.1) and the last Turns' assault (10.1), which
// the train gives even when the stack does not move.
double stack_potential(const core::GameState& s, const std::string& role, const std::string& hex,
                       bool ignore_train = false, double* standing = nullptr);
// What a depot at `hex` is worth to `role` (the units it would bring into supply).
// `train_here`: a train already stands at `hex` and the question is whether to make it the depot
// (7.7), rather than whether to send one there (7.4).
// `approximate`: judged against the decision's root supply field by hex distance (cheap, blind to
// terrain), to rank candidates before the exact value of the best few.
double depot_value(const core::GameState& s, const std::string& role, const std::string& hex,
                   bool train_here = false, bool approximate = false);
// 7.2: what a depot made now costs in Supply Trains over the Turns left (one each later Turn),
// on the scale of depot_value: charged to a depot made, credited to one converted (7.1).
double depot_cost(const core::GameState& s);
// 7.7-7.8: whether a train of `role` at `hex` could become a depot this Turn (a friendly city, or
// one a friendly stack holds, linked to the USS by the depot chain), asked of `rules` with a probe
// train there and the depot step open; true when it cannot tell (no rules, no such counter).
bool depot_allowed(script::RulesHost* rules, const core::GameState& g, const std::string& role, const std::string& hex);
// The game's length in Turns: the module's last Turn, or the game variable `game_length` when the
// rules changed it (1814 14.12).
int game_length(const core::GameState& g);
// 14.4: the game's last two Turns (occupation at the last Turn's end decides; a forced march, its
// halved strength and the disruption to come matter little by then).
bool last_two_turns(const core::GameState& g);
// Whether the Turn is a Winter one by the module's table "seasons" (the cnw series: 6.2's and
// 7.8's three hexes, 8.6's harsher march attrition); false without such a table.
bool winter_turn(const core::GameState& g);
// Whether `role` is the side that must take the objectives (1814: the Coalition).
bool attacker_role(const core::ModuleDef& d, const std::string& role);
// Whether the hex `label` is one of the attacker's objectives (1814: Paris, Bordeaux, Marseilles).
bool objective_hex(const core::ModuleDef& d, const std::string& label);
// The attacker's capital objective (1814: Paris, 5420); "" when the module has none.
std::string capital_objective(const core::ModuleDef& d);
// 14.4, 11.20: the enemy Napoleon as a target of `role` (the attacker only; 1814 wins at once if he
// is taken): his hex label ("" when he is not on the map or `role` is not the attacker), and
// whether no enemy combat unit stands with him (then a stack entering his hex, 8.9, makes him
// roll for his fate).
std::string enemy_napoleon(const core::GameState& s, const std::string& role, bool* alone = nullptr);
// The forward reach part of depot_value (7.8): kForwardPerHex per hex the attacker's depot net
// would gain towards an objective, scaled by its army there (0 for the defender).
double depot_forward_value(const core::GameState& s, const std::string& role, const std::string& hex);
// Hits and misses of the cache of rules.ai_features results (for tests and the profile).
std::pair<std::uint64_t, std::uint64_t> supply_cache_stats();
double supply_trace_seconds();
// Trace each side's supply field once, at `root` (null: forget it); evaluate() then judges
// positions against it instead of tracing each (rules.ai_supply_field, when the module has it).
void set_supply_root(const core::GameState* root);
// While on, evaluate() also counts what a position's own supply field (traced by the module)
// gains over the root's towards the objectives: attacks that clear a route (6.2).
void set_field_tracing(bool on);  // time spent in rules.ai_features so far (this thread)
// While a depot is converted or removed (7.1, 7.2): the state before it (null: forget it). The
// evaluation's frontier term (held cities beyond the depot net) keeps measuring from its depots,
// and the depot-site term is off: giving up a depot must not pay by the sites it leaves.
void set_frontier_depots(const core::GameState* before);

// The attacker's depot plan (7.7-7.8, 6.2), chosen Turns ahead: the city nearest Paris where a
// depot could be made if the attacker held it and the enemy cities on its link to the depot net
// (6.2: no supply route through an enemy city a friendly stack does not hold), and those cities.
// The evaluation pays for each of them the attacker holds; trains go to stacks near them.
struct DepotPlan {
    std::uint64_t key = 0;          // the Turn and the attacker's depots it was made for
    std::string site;               // "" : no plan
    std::vector<std::string> hold;  // the cities to hold (the site first)
    size_t held_from = 0;           // hold[held_from..]: cities held now that the link needs
    // cities held now that the chain's existing links pass (6.2, 7.8): left, they cut depots off
    std::vector<std::string> chain_keep;
    int advance = 0;                // hexes the depot chain (linked to the USS) gains towards Paris
    int tries = 0;                  // depot_allowed probes spent making it
};
// Re-makes `plan` when the Turn or the attacker's depots changed (asked of `rules` with probe
// units on the cities); `role` must be the attacker, else the plan is cleared.
void update_depot_plan(DepotPlan& plan, script::RulesHost* rules, const core::GameState& g, const std::string& role);
// 7.1, 7.8: what converting the attacker's depot at `hex` into a train costs its depot chain: the
// depots it would cut off from the USS, and the hexes its linked net would fall back from the
// capital (asked of `rules`: rules.ai_linked_depots); 0 for the defender or without the rules.
double depot_chain_loss(script::RulesHost* rules, const core::GameState& g, const std::string& role, const std::string& hex);
// The plan evaluate() and stack_potential() follow while the AI decides (null: none).
void set_depot_plan(const DepotPlan* plan);
// What a depot at a site would gain the attacker's supply field, memoized per Turn, depot net
// and site (the trace is costly). Owned by one bot, so that its games never read another game's
// values (the key leaves out where the stacks stand): null, nothing is memoized.
using SiteMemo = std::unordered_map<std::uint64_t, double>;
void set_site_memo(SiteMemo* memo);

// A GameState consistent with what `role` sees: every hidden enemy piece is given a type drawn
// (with `rng`) among the types that look like it, unknown card piles are filled, and the RNG is
// the AI's own. Never reads the true state beyond Session::view(role).
core::GameState determinize(const session::Session& s, const std::string& role, core::Rng& rng);

// 8.6-8.7: the attrition die of a move of `hexes` hexes, from the module's tables (seasons,
// march_attrition, march_attrition_results), by its results: for each result the die can give (no
// loss, one unit eliminated, one eliminated and one disrupted), the lowest face that gives it, the
// chance of all the faces that do, and the units it eliminates and disrupts. Empty without the
// tables; one face of chance 1 when the move throws no die.
struct AttritionFace {
    int face;
    double chance;
    int eliminated;
    int disrupted;
    bool loss() const { return eliminated + disrupted > 0; }
};
std::vector<AttritionFace> march_attrition_faces(const core::GameState& g, int hexes);

// The side that won, from the game's result text ("The Coalition wins ..."); empty if none.
std::string winner_of(const core::ModuleDef& def, const std::string& result);
// How a game ended, for tallies: the result text before its first ':' and the rule cited in its
// last parentheses, e.g. "The Coalition wins (14.4, 11.20)" (turn numbers and places dropped).
std::string result_kind(const std::string& result);

class AiBot : public session::Bot {
public:
    AiBot(Level level, std::uint64_t seed);
    ~AiBot() override;
    std::string choose(const session::Session& s, const std::string& role) override;

    Level level() const { return level_; }
    // Wall time of each decision this bot took, in seconds (for the tournament's report).
    const std::vector<double>& decision_seconds() const { return times_; }
    const std::string& last_reason() const { return reason_; }
    // The last decision explained in one line (level, role, Turn, step, action, value, the terms
    // it changes, the runner-up): the log's debug note (session::Bot::explain).
    std::string explain() const override { return explanation_; }
    // The Turn a stack of `role` at `hex` last left its Supply Train unused (passed, or moved
    // no nearer its objective), or -1: such a stack gets trains after the others (7.3).
    int stalled_turn(const std::string& role, const std::string& hex) const {
        auto it = stalled_.find(role + " " + hex);
        return it == stalled_.end() ? -1 : it->second;
    }
    void forget_stalled() { stalled_.clear(); }
    // One dice sample of the search's value of `a` for `role` at the session's position (its true
    // state, not determinized), played on `budget` rules applies as a candidate's sample is in
    // `choose`, but evaluated without the decision's supply field and depot plan (evaluate's own
    // fallbacks): for tests of the sampling.
    Evaluation sample_value(const session::Session& s, const std::string& role,
                            const core::Action& a, int sample, int budget);

private:
    // the bot's own rules host for the session's module (loaded once)
    void load_rules(const session::Session& s);
    Evaluation score(const core::GameState& base, const std::string& role, const core::Action& a,
                 int sample, int& budget);
    struct MovePlan {
        size_t first = 0;  // index in the decision's actions of the first step
        double value = -1e18;
        Evaluation eval;
        int nodes = 0;
        bool detach = false;  // the best plan sends one unit on to overrun a lone Napoleon
    };
    MovePlan plan_move(const core::GameState& root, const std::string& role,
                       const std::vector<core::Action>& acts, int& budget);
    // 7.3, 7.7, 8.2: from `g` (a depot step, or an allocation just made), what the move of the
    // stack at `hex`, which holds a train, would gain over passing with that train: the phase
    // played on to the movement sequence (every choice before the stack's turn declined with
    // `done`/`pass`), the stack's move planned whole (plan_move) against passing, as
    // `movement.choose` will weigh it. NaN when it cannot be told (the rules do not offer the
    // stack's move there, or the budget is spent).
    double move_gain(const core::GameState& g, const std::string& role, const std::string& hex,
                     int& budget);
    // 14.4, 8.4: at `movement.choose` (`acts`), the `move` of the stack that can enter an
    // objective whose occupation wins by this Turn's end (one_objective_short: a step `to` or
    // `recon` onto it among the stack's first steps), the one worth most (stack_potential) if
    // several can; acts.size() if none.
    size_t stack_entering_decisive(const core::GameState& g, const std::string& role,
                                   const std::vector<core::Action>& acts, int& budget);
    // 10.2: the Combat Commands to put behind an attack already ordered: for each offer, the
    // chance (over the die's six faces, asked of the rules) that the attack goes ahead; the
    // fewest CCs that reach the best chance. Returns the index in `acts`, -1 if not such a step.
    int order_test_choice(const core::GameState& g, const std::string& role, const std::vector<core::Action>& acts,
                          int& budget, std::vector<double>* chances = nullptr);
    // Plays the procedure begun on `g` out with the greedy policy, for both sides, up to the next
    // free choice (or, when given, until `stop_role` is at `stop_step`: a reconnaissance's answer
    // played out until the moving stack may go on, 8.5).
    void rollout(core::GameState& g, int& budget, const std::string& stop_role = {}, const std::string& stop_step = {});
    std::string greedy(core::GameState& g, const std::string& who, int& budget);

    Level level_;
    Params p_;
    core::Rng rng_;
    std::shared_ptr<script::RulesHost> rules_;
    const core::ModuleDef* rules_def_ = nullptr;
    std::vector<double> times_;
    // 7.3, 8.2: where a stack given a Supply Train could not use it (it passed, or its move
    // brought it no nearer its objective): role + hex -> the Turn. A stack there gets trains
    // after the others for two Turns (terrain, rivers or the supply field hold it back).
    std::map<std::string, int> stalled_;
    // 7.3, 8.2: per "role hex", the planned move's gain over passing (move_gain) of a stack an
    // allocation looked at this Turn (alloc_gain_turn_)
    std::map<std::string, double> alloc_gain_;
    int alloc_gain_turn_ = -1;
    std::string reason_;
    std::string explanation_;
    // the positions (hashes of the role's view) seen in the current run of a repeated step
    // (Turn, role, step): seeing one again ends the step (no cycles)
    std::string cycle_run_;
    std::set<std::size_t> cycle_seen_;
    DepotPlan plan_;  // the attacker's depot plan (re-made when the Turn or its depots change)
    SiteMemo site_memo_;
};

// Registers "ai" (normal), "ai-easy", "ai-normal" and "ai-hard" with session::make_bot.
void register_bot_kinds();

}  // namespace vedette::ai
