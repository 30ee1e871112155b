// The AI bot: determinize, score each legal action by a procedure rollout on a copy, evaluate.
#include "ai/ai.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <limits>
#include <set>
#include <sstream>

#include "core/state_json.hpp"
#include "script/rules_host.hpp"

namespace vedette::ai {

namespace {

// A stack whose Supply Train bought less than this gain of the objectives term (about one hex
// for one unit) is "stalled": for kStalledTurns Turns its train value is scaled by kStalledFactor.
constexpr double kStalledGain = 2.0;
constexpr int kStalledTurns = 2;
constexpr double kStalledFactor = 0.3;
// 7.3, 8.2: at an allocation, how many stacks' moves may be planned (move_gain; the depot step's
// number is the level's, Params::depot_move_checks), and how much of a stack's train value must be
// its move for an allocation to ask
constexpr int kAllocMoveChecks = 2;
constexpr double kMoveCheckMin = 10.0;
// 10.2: the order test's chance that is enough (a die of 3 or more): more CCs go to other attacks.
constexpr double kOrderTestEnough = 4.0 / 6.0 - 1e-9;
// Dice samples for an attack on an objective (its outcome may decide the game).
constexpr int kObjectiveAttackSamples = 6;
constexpr int kObjectiveAttackShare = 60;
// 10.1: how much better leaving a unit out of an ordered attack must look (one dice sample).
constexpr double kExcludeMargin = 5.0;  // applies per such sample, at least: a whole combat

std::ostream* g_debug = nullptr;
bool g_debug_env_checked = false;
int g_debug_level = 1;  // 2: every candidate's value

std::ostream* debug_out() {
    if (!g_debug_env_checked) {
        g_debug_env_checked = true;
        if (const char* e = std::getenv("VEDETTE_AI_DEBUG"); e && *e && std::string(e) != "0")
            if (!g_debug) {
                g_debug = &std::cerr;
                g_debug_level = std::atoi(e) > 1 ? 2 : 1;
            }
    }
    return g_debug;
}

// Steps that continue a procedure already begun (a stack's move, a combat, its aftermath): the
// rollout plays them out; any other step is a fresh free choice, where the rollout stops.
bool continues_procedure(const std::string& step) {
    static const std::set<std::string> free_choice = {
        "movement.choose", "combat.order", "commanders.move", "reinforcements.place",
        "supply.allocate", "supply.depot", "supply.convert", "supply.remove_depot",
        "supply.setup_depot", "movement.rally", "game.begin_phase", "hidden.arrange"};
    return !free_choice.count(step);
}

// Actions the AI never takes while another is available (they only undo a choice).
bool futile(const core::Action& a, const std::string& step) {
    // 8.6-8.7: a forced march risks march attrition and halves the stack in combat; the
    // rollout's single dice sample misjudges it, so the AI keeps to the normal allowance.
    if (step == "movement.stack" && a.kind == "to" && a.label.find("forced march") != std::string::npos) return true;
    // 8.2: passing in the movement sequence discards a Supply Train for nothing while a stack
    // could move (staying put is still possible: the stack may stop where it stands).
    if (step == "movement.choose" && a.kind == "pass") return true;
    return a.kind == "cancel" || (step == "movement.stack" && (a.kind == "leave" || a.kind == "drop"));
}

// 8.6: a move of two hexes or more may cost march attrition, decided by one die at the
// destination. Such a move is valued over the six faces of that die (forced in turn), not on one
// sample, so one unlucky roll never condemns marching.
bool attrition_risk(const core::Action& a, const std::string& step) {
    if (step != "movement.stack") return false;
    if (a.kind == "end") return true;  // the die is thrown when the move ends
    if (a.kind != "to") return false;
    const size_t open = a.label.rfind('(');
    if (open == std::string::npos) return false;
    return std::atoi(a.label.c_str() + open + 1) >= 2;
}

// The hexes a "to" step of a move has used so far: "Go to 4520 (2 hexes)" -> 2; -1 if not said.
int hexes_in_label(const std::string& label) {
    const size_t open = label.rfind('(');
    if (open == std::string::npos) return -1;
    const int n = std::atoi(label.c_str() + open + 1);
    return n > 0 ? n : -1;
}

// 8.6: the hexes a moving stack's march attrition counts so far, as the rules keep them in the
// movement step's context (`att`: a hex of difficult terrain, or one entered by a reconnaissance
// in force, counts two); -1 when the module does not say (the labels' hexes then stand in).
int attrition_hexes(const core::GameState& g) {
    const core::Value& c = g.decision.context;
    if (!c.is_object()) return -1;
    const auto it = c.as_object().find("att");
    return it != c.as_object().end() && it->second.is_int() ? static_cast<int>(it->second.as_int()) : -1;
}

// 14.4, 11.20: an attack on `hex` may decide the game: an objective, or Napoleon's hex (the
// attacker's: a 1 on his fate die, or no escape, wins it).
bool game_deciding_target(const core::GameState& g, const std::string& role, const std::string& hex) {
    return objective_hex(g.def(), hex) || enemy_napoleon(g, role) == hex;
}
// The hex the combat being resolved attacks (the series' `combat_current.to`), "" outside one.
std::string combat_target(const core::GameState& g) {
    if (const core::Value& c = g.var("combat_current"); c.is_object())
        if (auto to = c.as_object().find("to"); to != c.as_object().end() && to->second.is_string())
            return to->second.as_string();
    return "";
}

// 8.6: the hexes march attrition counts once the step `to` is taken: those counted so far
// (`att`) and the hexes the step spends (its label's total less the context's `spent`; difficult
// terrain counts two in both); the label's total when the context does not say.
int attrition_after(const core::GameState& g, const core::Action& to) {
    const int total = hexes_in_label(to.label);
    const int att = attrition_hexes(g);
    const core::Value& c = g.decision.context;
    if (total < 0 || att < 0 || !c.is_object()) return total;
    const auto spent = c.as_object().find("spent");
    if (spent == c.as_object().end() || !spent->second.is_int()) return total;
    return att + std::max(0, total - static_cast<int>(spent->second.as_int()));
}

// 11.20: the purpose of the die for Napoleon's fate ("11.20 fate of <his name>": the cnw series'
// commanders_fate, for an attack on his hex and an overrun, 8.9), "" when he is not on the map.
std::string napoleon_fate_purpose(const core::GameState& g) {
    for (const auto& pc : g.pieces()) {
        const auto& ct = g.def().counter_types[static_cast<size_t>(pc.type)];
        if (ct.id == "napoleon" && pc.loc.is_hex()) return "11.20 fate of " + (ct.name.empty() ? pc.id : ct.name);
    }
    return "";
}
// The roll numbered `number` (GameState::rolls_made before it) among g's events after its first
// `from`, whose first roll was numbered `first`; nullptr if g made no such roll.
const core::Event* roll_numbered(const core::GameState& g, size_t from, std::uint64_t first, std::uint64_t number) {
    for (size_t e = from; e < g.events.size(); ++e)
        if (g.events[e].kind == core::Event::Kind::Roll && first++ == number) return &g.events[e];
    return nullptr;
}

void add(Evaluation& sum, const Evaluation& e, double w) {
    sum.total += w * e.total;
    sum.material += w * e.material;
    sum.objectives += w * e.objectives;
    sum.cities += w * e.cities;
    sum.napoleon += w * e.napoleon;
    sum.trains += w * e.trains;
    sum.command += w * e.command;
    sum.supply += w * e.supply;
    sum.length += w * e.length;
}

// 8.2: the hex of the stack whose Supply Train a movement pass discards (the rules give it as
// the action's hex); "" when the action names none.
std::string train_hex(const core::Action& a) { return a.hexes.empty() ? std::string() : a.hexes[0]; }

bool forced_march(const core::Action& a) { return a.label.find("forced march") != std::string::npos; }

}  // namespace

// 8.6-8.7: the attrition die of a move of `hexes`, read from the module's tables "seasons",
// "march_attrition" (season hexes forced_march attrition drm) and "march_attrition_results"
// (min_score max_score eliminated disrupted): one face for each result the die can give (no loss;
// one unit eliminated; one eliminated and one disrupted), the lowest face that gives it, with the
// chance of all the faces that do. Empty when the module has no such tables (the move planner then
// plays the die's six faces).
std::vector<AttritionFace> march_attrition_faces(const core::GameState& g, int hexes) {
    const core::ModuleDef& d = g.def();
    const core::TableDef* seasons = d.table("seasons");
    const core::TableDef* table = d.table("march_attrition");
    const core::TableDef* results = d.table("march_attrition_results");
    if (!seasons || !table || !results || hexes < 0) return {};
    std::string season;
    for (const auto& row : seasons->rows)
        if (row.size() >= 2 && row[0].is_int() && row[0].as_int() == g.turn && row[1].is_string()) season = row[1].as_string();
    const std::vector<core::Value>* best = nullptr;
    for (const auto& row : table->rows)
        if (row.size() >= 5 && row[0].is_string() && row[0].as_string() == season && row[1].is_int() &&
            row[1].as_int() <= hexes && (!best || row[1].as_int() > (*best)[1].as_int()))
            best = &row;
    if (!best) return {};
    if (!(*best)[3].is_string() || (*best)[3].as_string() != "yes") return {{1, 1.0, 0, 0}};
    const int drm = (*best)[4].is_int() ? static_cast<int>((*best)[4].as_int()) : 0;
    // the result row a score falls in (as the series' movement.lua: above the last row, the last)
    auto result = [&](int score) {
        const std::vector<core::Value>* last = nullptr;
        for (const auto& row : results->rows) {
            if (row.size() < 4 || !row[0].is_int() || !row[1].is_int()) continue;
            if (score >= row[0].as_int() && score <= row[1].as_int()) return &row;
            if (!last || row[1].as_int() > (*last)[1].as_int()) last = &row;
        }
        return last && score > (*last)[1].as_int() ? last : nullptr;
    };
    auto count = [](const std::vector<core::Value>* row, size_t col) {
        return row && (*row)[col].is_int() ? static_cast<int>((*row)[col].as_int()) : 0;
    };
    std::vector<AttritionFace> out;
    for (int f = 1; f <= 6; ++f) {
        const auto* row = result(f + drm);
        const int eliminated = count(row, 2), disrupted = count(row, 3);
        auto same = std::find_if(out.begin(), out.end(), [&](const AttritionFace& a) {
            return a.eliminated == eliminated && a.disrupted == disrupted;
        });
        if (same == out.end())
            same = out.insert(out.end(), AttritionFace{f, 0.0, eliminated, disrupted});
        same->chance += 1.0 / 6.0;
    }
    return out;
}

const char* level_name(Level l) {
    switch (l) {
        case Level::Easy: return "easy";
        case Level::Normal: return "normal";
        case Level::Hard: return "hard";
    }
    return "?";
}

Params params_for(Level l) {
    Params p;
    switch (l) {
        case Level::Easy:
            p.samples = 1;
            p.lookahead = false;
            p.epsilon = 0.25;
            p.apply_budget = 300;
            p.plan_nodes = 12;
            p.commander_candidates = 6;
            p.depot_move_checks = std::numeric_limits<int>::max();
            break;
        case Level::Normal:
            break;
        case Level::Hard:
            p.samples = 3;
            p.plan_nodes = 60;
            p.commander_candidates = 24;
            p.apply_budget = 2400;
            p.depot_move_checks = std::numeric_limits<int>::max();
            break;
    }
    return p;
}

void set_debug_stream(std::ostream* out) {
    g_debug_env_checked = true;
    g_debug = out;
}

AiBot::AiBot(Level level, std::uint64_t seed)
    : level_(level), p_(params_for(level)), rng_(seed ^ 0xa1a1a1a1c0ffeeull) {}
AiBot::~AiBot() = default;

// 10.2: an attack goes ahead when 1d6 (not a 1) + the stack's best CR + the CCs allocated reach 7;
// a failed test ends the side's attacks for the Turn (10.2 b). The evaluation cannot see CCs
// (they are lost at the Turn's end), so neither a one-die rollout nor the greedy policy weighs
// them: each offer is tried on every face instead, and the attack counted as going ahead when
// the combat goes on (a further combat step, or the rules' "(10.2 c)" in the log).
int AiBot::order_test_choice(const core::GameState& g, const std::string& role, const std::vector<core::Action>& acts,
                             int& budget, std::vector<double>* chances) {
    if (g.decision.step != "combat.attacker_cc" || !g.forced_dice.empty()) return -1;
    // an attack on an objective or on Napoleon's hex (14.4, 11.20) gets every CC that raises its
    // chance: it can decide the game, and a failed test (10.2 b) ends the Turn's attacks anyway
    const std::string target = combat_target(g);
    const bool all_in = !target.empty() && game_deciding_target(g, role, target);
    int best = -1;
    double best_p = -1;
    if (chances) chances->assign(acts.size(), -1);
    for (size_t i = 0; i < acts.size(); ++i) {
        if (acts[i].kind != "cc") continue;
        int ahead = 0, tried = 0;
        for (int face = 1; face <= 6; ++face) {
            core::GameState c = g;
            c.forced_dice = {face};
            const size_t events_before = c.events.size();
            --budget;
            try {
                rules_->apply(c, role, acts[i]);
            } catch (const std::exception&) {
                continue;
            }
            ++tried;
            bool on = c.result.empty() && c.decision.step.rfind("combat.", 0) == 0 &&
                      c.decision.step != "combat.order" && continues_procedure(c.decision.step);
            for (size_t e = events_before; e < c.events.size() && !on; ++e)
                if (c.events[e].text.find("(10.2 c)") != std::string::npos) on = true;
            if (on) ++ahead;
        }
        if (tried == 0) continue;
        const double p = static_cast<double>(ahead) / tried;
        if (chances) (*chances)[i] = p;
        if (p > best_p + 1e-9) {  // offers run 0, 1, 2...: the fewest CCs for the best chance
            best_p = p;
            best = static_cast<int>(i);
        }
        if (p >= kOrderTestEnough && !all_in) break;  // enough: the CCs left serve the Turn's other attacks
    }
    return best;
}

// The greedy default policy of rollouts: the action whose immediate result evaluates best for
// `who` (no further lookahead). Applies the chosen action; returns its text.
std::string AiBot::greedy(core::GameState& g, const std::string& who, int& budget) {
    std::vector<core::Action> acts;
    try {
        acts = rules_->actions(g, who);
    } catch (const std::exception&) {
        return {};
    }
    if (acts.empty()) return {};
    const std::string step = g.decision.step;
    if (const int cc = order_test_choice(g, who, acts, budget); cc >= 0) {
        try {
            rules_->apply(g, who, acts[static_cast<size_t>(cc)]);
        } catch (const std::exception&) {
            return {};
        }
        return acts[static_cast<size_t>(cc)].text();
    }
    // a short budget must still weigh ending the procedure (a move's end, where march
    // attrition is thrown): those choices are tried first
    std::stable_partition(acts.begin(), acts.end(), [](const core::Action& a) {
        return a.kind == "end" || a.kind == "done" || a.kind == "confirm";
    });
    int best = -1;
    double best_v = -1e18;
    core::GameState best_state = g;
    for (size_t i = 0; i < acts.size(); ++i) {
        if (futile(acts[i], step) && acts.size() > 1) continue;
        if (budget <= 0 && best >= 0) break;
        if (attrition_risk(acts[i], step) && g.forced_dice.empty()) {
            // the value is the mean over the die's faces; play on from the most typical face
            std::vector<core::GameState> outcomes;
            std::vector<double> vals;
            for (int face = 1; face <= 6; ++face) {
                core::GameState c = g;
                c.forced_dice = {face};
                --budget;
                try {
                    rules_->apply(c, who, acts[i]);
                } catch (const std::exception&) {
                    continue;
                }
                c.forced_dice.clear();
                vals.push_back(evaluate(c, who).total);
                outcomes.push_back(std::move(c));
            }
            if (vals.empty()) continue;
            double mean = 0;
            for (double v : vals) mean += v;
            mean /= static_cast<double>(vals.size());
            size_t typical = 0;
            for (size_t k = 1; k < vals.size(); ++k)
                if (std::fabs(vals[k] - mean) < std::fabs(vals[typical] - mean)) typical = k;
            if (mean > best_v) {
                best_v = mean;
                best = static_cast<int>(i);
                best_state = std::move(outcomes[typical]);
            }
            continue;
        }
        core::GameState c = g;
        --budget;
        try {
            rules_->apply(c, who, acts[i]);
        } catch (const std::exception&) {
            continue;
        }
        const double v = evaluate(c, who).total;
        if (v > best_v) {
            best_v = v;
            best = static_cast<int>(i);
            best_state = std::move(c);
        }
    }
    if (best < 0) return {};
    g = std::move(best_state);
    return acts[static_cast<size_t>(best)].text();
}

// 8.4, 8.6, 7.2: outside Winter the attacker's stacks may force-march (5 hexes instead of 3).
// Its tempo is its trains, one per stack's move: a forced march carries a stack two hexes further
// for the same train, and outside Winter the march attrition is milder (a drm of +1 or +2, not
// +2 or +3) and the supply routes and depot links reach five hexes (6.2, 7.8), so the stack can
// end its march in supply. The planner weighs each end with its attrition odds (plan_move).
// Seen in the losses of rounds 13 and 15 (docs/ai.md): the armies marching on Paris stood 8.0
// and 8.5 hexes from it on average on Turn 12 (seeds 2 and 166300).
bool attacker_rush(const core::GameState& root, const std::string& role) {
    return attacker_role(root.def(), role) && !winter_turn(root) && root.def().table("seasons") != nullptr;
}

bool plan_forced_march(const core::GameState& root, const std::string& role, const std::string& dest) {
    // 8.4: on the last two Turns a forced march may win the game (14.4 counts occupation at the
    // Turn's end; the halved combat strength and the disruption to come matter little by then)
    if (last_two_turns(root) || attacker_rush(root, role)) return true;
    // In Winter (the attacker's Spring marches are allowed above), so may one when the south is
    // held (Paris by this Turn's end wins, 14.4), but only one that ends next to Paris: short of
    // it, the march only halves the stack (11.2) and leaves it out of supply, to be disrupted
    // before it can attack (6.4, 10.1; seed 15840, Turn 9: the Guard force-marched to two hexes
    // from Paris, lost a unit to attrition and never attacked; Turn 9 is a Spring Turn, where the
    // planner now weighs such a march at its odds like any other end: docs/ai.md, round 16)
    // (or, Paris held, one that ends next to Bordeaux or Marseilles or in it: decisive_distance)
    const int to_decisive = decisive_distance(root, role, dest);
    return to_decisive >= 0 && to_decisive <= 1;
}

// 14.4, 8.4: the stack that can enter an objective whose occupation wins by this Turn's end
// (declared in ai.hpp).
size_t AiBot::stack_entering_decisive(const core::GameState& g, const std::string& role,
                                      const std::vector<core::Action>& acts, int& budget) {
    if (!one_objective_short(g, role)) return acts.size();
    size_t best = acts.size();
    double best_v = -1e18;
    for (size_t i = 0; i < acts.size(); ++i) {
        const auto& a = acts[i];
        if (a.kind != "move" || a.args.empty()) continue;
        const int dn = decisive_distance(g, role, a.args[0]);
        if (dn < 1 || dn > 5) continue;  // 8.4: five hexes at most, by a forced march
        core::GameState c = g;
        --budget;
        try {
            rules_->apply(c, role, a);
            if (c.decision.step != "movement.stack" || c.decision.role != role) continue;
            const auto steps = rules_->actions(c, role);
            const bool enters =
                std::any_of(steps.begin(), steps.end(), [&](const core::Action& step) {
                    return (step.kind == "to" || step.kind == "recon") && !step.args.empty() &&
                           decisive_distance(c, role, step.args[0]) == 0;
                });
            if (!enters) continue;
        } catch (const std::exception&) {
            continue;
        }
        const double v = stack_potential(g, role, a.args[0], true);
        if (v > best_v) {
            best_v = v;
            best = i;
        }
    }
    return best;
}

// A stack's whole move at once (8.4): every hex it can reach with the steps offered (marches and
// reconnaissance in force; forced marches where plan_forced_march allows), breadth first up to `plan_nodes` positions;
// each valued as if the move ended there, march attrition (8.6-8.7) counted at its odds: the end
// is applied with the die's best face and, when attrition can strike, its worst, weighted by the
// chance read from the module's tables. Returns the index in `acts` of the first step towards the
// best end (or of `end` itself).
AiBot::MovePlan AiBot::plan_move(const core::GameState& root, const std::string& role,
                                 const std::vector<core::Action>& acts, int& budget) {
    MovePlan plan;
    struct Node {
        core::GameState g;
        size_t first;  // index in `acts` of the step that leads here
        int hexes;     // hexes used so far (-1: unknown)
        bool holder;   // a unit was left behind to hold the city (below)
        bool detach = false;  // one unit sent on to overrun a lone Napoleon (below)
        bool hunted = false;  // a step of this plan overran him
    };
    // forced marches (8.4) looked at: plan_forced_march
    const bool rush = last_two_turns(root) || one_objective_short(root, role) || attacker_rush(root, role);
    // where the stack stands: the hexes used so far are one less than the cheapest step's
    int root_hexes = -1;
    for (const auto& a : acts)
        if (a.kind == "to" && !forced_march(a)) {
            const int n = hexes_in_label(a.label);
            if (n > 0 && (root_hexes < 0 || n - 1 < root_hexes)) root_hexes = n - 1;
        }
    // 14.4, 11.20: a lone enemy Napoleon is a target worth a forced march (8.4)
    bool nap_alone = false;
    const std::string nap = enemy_napoleon(root, role, &nap_alone);
    // 8.9, 11.20: the enemy Commanders on the map; a step that overruns one (enters or passes
    // through his hex) makes him roll for his fate, a 1 eliminating him (Napoleon: the game, 14.4)
    const int side = root.def().side_index(role);
    std::vector<int> enemy_commanders;
    for (int i = 0; i < root.piece_count(); ++i) {
        const auto& pc = root.piece(i);
        if (pc.owner >= 0 && pc.owner != side && pc.loc.is_hex() &&
            root.def().counter_types[static_cast<size_t>(pc.type)].category == "commander")
            enemy_commanders.push_back(i);
    }
    // the Commanders on a lone Napoleon's hex (himself among them)
    std::vector<int> on_napoleon;
    if (nap_alone)
        for (int i : enemy_commanders)
            if (root.def().map.label(root.piece(i).loc.hex) == nap) on_napoleon.push_back(i);
    auto overran_napoleon = [&](const core::GameState& before, const core::GameState& after) {
        for (int i : on_napoleon)
            if (!(before.piece(i).loc == after.piece(i).loc)) return true;
        return false;
    };
    auto overrun = [&](const core::GameState& before, const core::GameState& after) {
        int k = 0;
        for (int i : enemy_commanders) k += !(before.piece(i).loc == after.piece(i).loc);
        return k;
    };
    // A step whose dice decide its worth (an `end`, or a step that overruns Commanders or spends
    // the whole allowance), valued at their odds, not on the one face the copy's dice gave:
    // siblings share that face, so all such steps of a plan looked lucky or unlucky together and
    // the planner took the lucky ones. The dice: each of `fates` overrun Commanders (face 1, one in
    // six: eliminated; face 6: escaped) and, when the step ends the move (`ended`: an `end`, or
    // 8.4's whole allowance spent), the attrition die (8.6) at its chance for `hexes` (read from
    // the module's tables; without them, the mean over its faces). Each outcome is played out
    // until the stack may go on or the move is over (escapes placed, attrition's victims).
    // Seen on seed 23780, Turn 9: a stack went 4923-5020-4920-5020, five hexes and a forced march
    // where three reached 5020; on 96 games, 1003 Coalition moves of five hexes against 269 of
    // four, and 452 units lost to Spring's five-hex attrition.
    auto dice_value = [&](const core::GameState& g, const core::Action& a, int fates, bool ended, int hexes,
                          Evaluation& ev) {
        auto with = [&](int fate, int attrition) {
            core::GameState c = g;
            c.forced_dice.assign(static_cast<size_t>(fates), fate);
            if (ended) c.forced_dice.push_back(attrition);
            --budget;
            rules_->apply(c, role, a);
            int small = 12;  // (an escape is placed before the move ends: the dice wait for it)
            rollout(c, small, role, "movement.stack");
            c.forced_dice.clear();
            return evaluate(c, role);
        };
        // 8.7: each result of the attrition die (no loss; one unit eliminated; one eliminated and
        // one disrupted) at the chance of its faces. Before, every loss was played as the worst
        // face's: Spring's five-hex march (drm +2) was valued with a disrupted unit in the stack
        // half the time where the die gives one one time in six (faces 4-5 eliminate a unit and
        // leave the rest ready to attack and move, 10.1, 8.4), and Winter's four and five hexes
        // likewise.
        const std::vector<AttritionFace> faces =
            ended ? march_attrition_faces(g, std::max(hexes, 0)) : std::vector<AttritionFace>{};
        const double eliminated = fates > 0 ? 1.0 / 6.0 : 0.0;
        // the best outcome first (the Commanders eliminated, no attrition): it bounds the mean, and
        // a step whose best cannot beat the plan so far is looked at no further (the same plan
        // wherever the evaluation is monotone in the faces: 9 of 10 games played alike, seed 7)
        const int best_fate = fates > 0 ? 1 : 6;
        const Evaluation top = with(best_fate, 1);
        if (top.total <= plan.value) {
            ev = top;
            return ev.total;
        }
        auto outcome = [&](int fate, int attrition) {
            return fate == best_fate && attrition == 1 ? top : with(fate, attrition);
        };
        Evaluation mean;
        for (const auto& [fate, w] : {std::pair<int, double>{1, eliminated}, {6, 1.0 - eliminated}}) {
            if (w <= 0) continue;
            if (!ended) {
                add(mean, outcome(fate, 1), w);
            } else if (faces.empty()) {  // no table: the mean over the die's faces
                for (int f = 1; f <= 6; ++f) add(mean, outcome(fate, f), w / 6.0);
            } else {
                for (const auto& f : faces) add(mean, outcome(fate, f.face), w * f.chance);
            }
        }
        ev = mean;
        return ev.total;
    };
    std::deque<Node> open;
    std::set<std::string> seen;
    // 8.4: the hexes this move has passed already (the rules' record of the move, its `path`)
    // are not entered again: what a return reaches was in reach from there without the hexes it
    // spends, and the longer march only adds attrition (8.6). (133 of 3843 Coalition moves of 96
    // games re-entered a hex, most on a lucky attrition face: dice_value above.)
    if (const core::Value& c = root.decision.context; c.is_object())
        if (auto path = c.as_object().find("path"); path != c.as_object().end() && path->second.is_array())
            for (const core::Value& hx : path->second.as_array())
                if (hx.is_string()) {
                    seen.insert(hx.as_string());
                    seen.insert("h" + hx.as_string());
                    seen.insert("d" + hx.as_string());
                }
    open.push_back({root, acts.size(), root_hexes, false});
    // 6.2, 8.4: a stack of the attacker's leaving an enemy city lets its side's supply routes
    // through it no more; leaving its weakest unit behind keeps them open (a stack in a French
    // city is what lets the Coalition's routes and depot links pass). The moves of the rest are
    // planned too, and the positions judged alike (the traced field sees the routes kept).
    const size_t holder = leave_holder(root, role, acts);
    if (holder < acts.size()) {
        Node h{root, holder, root_hexes, true};
        --budget;
        try {
            rules_->apply(h.g, role, acts[holder]);
            open.push_back(std::move(h));
        } catch (const std::exception&) {
        }
    }
    // 8.9, 11.20: the overrun of a lone Napoleon throws the same fate die for one unit as for
    // four, and a stack's march onto him mostly leaves it out of supply, disrupted at the next
    // supply phase (6.4: 861 of 1322 such disruptions on Turns 7-12 of round 53's games struck
    // units that had moved the Turn before, and 238 of its 521 overruns were made by stacks of
    // two or more units). So the plan also looks at one unit and one Commander going
    // on alone (hunt_detachment), the rest left where they stand; only its ends that overrun
    // him count.
    // the plan's first step (its index in `acts`): the first leave
    size_t detach_first = acts.size();
    const HuntDetachment detach = hunt_detachment(root, role, acts);
    for (size_t i = 0; i < acts.size() && !detach.leave.empty(); ++i)
        if (acts[i].kind == "leave" && !acts[i].args.empty() &&
            acts[i].args[0] == detach.leave.front())
            detach_first = i;
    if (detach_first < acts.size()) {
        Node h{root, detach_first, root_hexes, false};
        h.detach = true;
        // each step as the rules offer it after the ones before (`leave` ids, then `drop` ids)
        auto take = [&](const std::string& kind, const std::string& id) {
            for (const auto& a : rules_->actions(h.g, role))
                if (a.kind == kind && !a.args.empty() && a.args[0] == id) {
                    --budget;
                    rules_->apply(h.g, role, a);
                    return true;
                }
            return false;
        };
        bool ok = true;
        try {
            for (const std::string& id : detach.leave) ok = take("leave", id) && ok;
            for (const std::string& id : detach.drop) take("drop", id);
        } catch (const std::exception&) {
            ok = false;
        }
        if (ok && h.g.decision.step == "movement.stack" && h.g.decision.role == role)
            open.push_back(std::move(h));
        else
            detach_first = acts.size();
    }
    int node_cap = rush ? 2 * p_.plan_nodes : p_.plan_nodes;  // 5 hexes reach further
    if (holder < acts.size()) node_cap += node_cap / 2;
    if (detach_first < acts.size()) node_cap += node_cap / 2;
    while (!open.empty() && plan.nodes < node_cap && budget > 0) {
        Node n = std::move(open.front());
        open.pop_front();
        ++plan.nodes;
        std::vector<core::Action> here;
        if (n.first == acts.size() && !n.holder)
            here = acts;
        else {
            try {
                here = rules_->actions(n.g, role);
            } catch (const std::exception&) {
                continue;
            }
        }
        if (n.g.decision.step != "movement.stack" || n.g.decision.role != role) {
            // the step ended the move itself (a reconnaissance repulsed): value the position
            if (n.detach && !n.hunted) continue;
            const Evaluation ev = evaluate(n.g, role);
            if (ev.total > plan.value) {
                plan.value = ev.total;
                plan.eval = ev;
                plan.first = n.first;
                plan.detach = n.detach;
            }
            continue;
        }
        for (size_t i = 0; i < here.size(); ++i) {
            const auto& a = here[i];
            if (a.kind == "end") {
                if (n.detach && !n.hunted) continue;  // the detachment serves the overrun only
                Evaluation ev;
                double v;
                try {
                    const int att = attrition_hexes(n.g);
                    v = dice_value(n.g, a, 0, true, att >= 0 ? att : n.hexes, ev);
                } catch (const std::exception&) {
                    continue;
                }
                if (v > plan.value) {
                    plan.value = v;
                    plan.eval = ev;
                    plan.first = n.first == acts.size() ? i : n.first;
                    plan.detach = n.detach;
                }
            } else if (a.kind == "to" || a.kind == "recon") {
                const std::string dest = a.args.empty() ? a.text() : a.args[0];
                const bool hunt = nap_alone && a.kind == "to" && dest == nap;
                if (a.kind == "to" && !hunt && forced_march(a) && !plan_forced_march(root, role, dest)) continue;
                const std::string variant = n.holder   ? "h"
                                            : n.detach ? "d"
                                                       : "";  // (the seen hexes per plan)
                if (a.kind == "to" && !seen.insert(variant + dest).second) continue;
                Node c{n.g, n.first == acts.size() ? i : n.first, a.kind == "to" ? hexes_in_label(a.label) : -1, n.holder};
                c.detach = n.detach;
                c.hunted = n.hunted;
                --budget;
                try {
                    rules_->apply(c.g, role, a);
                    // 8.5: the enemy's answer (withdraw or hold, the dice, the hit) is played out
                    // until the stack may go on or its move has ended, and the position judged
                    // after it: before it, the position looked as good as ending the move there
                    // with no march attrition (seed 15840, Turn 2: the Guard, 3 hexes marched in
                    // Winter, went on into Mainz; the attrition of 5 hexes eliminated one unit and
                    // disrupted another, and the stack sat in Mainz out of supply all game)
                    if (a.kind == "recon") rollout(c.g, budget, role, "movement.stack");
                    if (a.kind == "to") {
                        // what the dice decided in the sample: the escapes the enemy places (8.9,
                        // 11.20) played out first (the move goes on from there), to see who was
                        // overrun and whether the move is over
                        if (c.g.decision.role != role) {
                            int small = 12;
                            rollout(c.g, small, role, "movement.stack");
                        }
                        const int fates = overrun(n.g, c.g);
                        const bool ended = !(c.g.decision.step == "movement.stack" && c.g.decision.role == role);
                        if (fates > 0 && overran_napoleon(n.g, c.g)) c.hunted = true;
                        if ((fates > 0 || ended) && (!c.detach || c.hunted)) {
                            Evaluation ev;
                            const double v = dice_value(n.g, a, fates, ended, attrition_after(n.g, a), ev);
                            if (v > plan.value) {
                                plan.value = v;
                                plan.eval = ev;
                                plan.first = c.first;
                                plan.detach = c.detach;
                            }
                            if (ended) continue;
                        }
                    }
                } catch (const std::exception&) {
                    continue;
                }
                open.push_back(std::move(c));
            }
        }
    }
    return plan;
}

double AiBot::move_gain(const core::GameState& root, const std::string& role,
                        const std::string& hex, int& budget) {
    constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
    core::GameState g = root;
    // each choice before the stack's turn to move is declined where the rules let it be (no more
    // allocations or depots, no rallies, the other side's stacks pass): the move is weighed
    // against the position as `root` leaves it
    for (int n = 0; n < 40; ++n) {
        if (!g.result.empty() || g.decision.role.empty() || budget <= 0) return kUnknown;
        const auto acts = rules_->actions(g, g.decision.role);
        if (acts.empty()) return kUnknown;
        if (g.decision.role == role && g.decision.step == "movement.choose") {
            const core::Action* move = nullptr;
            const core::Action* pass = nullptr;
            for (const auto& a : acts) {
                if (a.kind == "move" && !a.args.empty() && a.args[0] == hex) move = &a;
                if (a.kind == "pass" && train_hex(a) == hex) pass = &a;
            }
            if (!move || !pass) return kUnknown;
            try {
                core::GameState stay = g;
                --budget;
                rules_->apply(stay, role, *pass);
                const double stay_v = evaluate(stay, role).total;
                --budget;
                rules_->apply(g, role, *move);
                if (g.decision.step != "movement.stack" || g.decision.role != role) return kUnknown;
                const MovePlan mp = plan_move(g, role, rules_->actions(g, role), budget);
                if (mp.value < -1e17) return kUnknown;
                return mp.value - stay_v;
            } catch (const std::exception&) {
                return kUnknown;
            }
        }
        const core::Action* pick = nullptr;
        for (const auto& a : acts)
            if (a.kind == "done" || a.kind == "pass") {
                pick = &a;
                break;
            }
        if (!pick) return kUnknown;
        try {
            --budget;
            rules_->apply(g, g.decision.role, *pick);
        } catch (const std::exception&) {
            return kUnknown;
        }
    }
    return kUnknown;
}

void AiBot::rollout(core::GameState& g, int& budget, const std::string& stop_role, const std::string& stop_step) {
    for (int n = 0; n < p_.rollout_steps; ++n) {
        if (!g.result.empty() || g.decision.role.empty()) return;
        if (!continues_procedure(g.decision.step)) return;
        if (!stop_role.empty() && g.decision.role == stop_role && g.decision.step == stop_step) return;
        if (budget <= 0) return;
        if (greedy(g, g.decision.role, budget).empty()) return;
    }
}

namespace {

// The terms that changed most between two evaluations, e.g. "objectives +12.0, material -3.0":
// what the AI expects its choice to bring (docs/ai.md "Explaining decisions").
std::string changes(const Evaluation& before, const Evaluation& after) {
    const std::pair<const char*, double> d[] = {
        {"material", after.material - before.material},   {"objectives", after.objectives - before.objectives},
        {"cities", after.cities - before.cities},         {"napoleon", after.napoleon - before.napoleon},
        {"trains", after.trains - before.trains},         {"command", after.command - before.command},
        {"supply", after.supply - before.supply},         {"length", after.length - before.length}};
    std::vector<std::pair<const char*, double>> v;
    for (const auto& x : d)
        if (std::fabs(x.second) >= 0.5) v.push_back(x);
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return std::fabs(a.second) > std::fabs(b.second); });
    std::ostringstream o;
    o.precision(1);
    o << std::fixed << std::showpos;
    for (size_t i = 0; i < v.size() && i < 4; ++i) o << (i ? ", " : "") << v[i].first << " " << v[i].second;
    return v.empty() ? "no term changes" : o.str();
}

}  // namespace

Evaluation AiBot::score(const core::GameState& base, const std::string& role, const core::Action& a,
                        int sample, int& budget) {
    auto play = [&](std::deque<int> forced, std::uint64_t fixed_roll, int fixed_face,
                    int& applies) {
        core::GameState g = base;
        g.rng.restore(base.rng.state() + static_cast<std::uint64_t>(sample) * 0x9e3779b97f4a7c15ull,
                      base.rng.inc());
        g.forced_dice = std::move(forced);
        g.fixed_roll = fixed_roll;
        g.fixed_face = fixed_face;
        --applies;
        rules_->apply(g, role, a);  // throws when the determinized state disagrees
        // a forced face stays for the die thrown when the move ends, later in the rollout
        if (p_.lookahead) rollout(g, applies);
        g.fixed_face = 0;
        return g;
    };
    auto once = [&](int forced_face) { return evaluate(play({forced_face}, 0, 0, budget), role); };
    if (!attrition_risk(a, base.decision.step)) {
        const int given = budget;  // what the sample's own play may spend
        const core::GameState g = play(base.forced_dice, 0, 0, budget);
        // 14.4, 11.20: when the sample throws Napoleon's fate, the game turns on that one die (1:
        // eliminated, the game over), so both of its outcomes are played, every other die as the
        // sample's, and weighted 1/6 and 5/6. On the sample's one face, six samples of an attack
        // on a lone Napoleon all saw him escape (seed 39641, Turn 7: the attack judged -2738
        // against 324 for passing, and not made); in round 42's 42 games the Coalition attacked
        // Napoleon's hex on 17 of the 39 combat phases it could.
        const std::string fate = napoleon_fate_purpose(base);
        if (fate.empty()) return evaluate(g, role);
        std::uint64_t roll = base.rolls_made;  // the number of each of the sample's rolls
        for (size_t e = base.events.size(); e < g.events.size(); ++e) {
            const core::Event& ev = g.events[e];
            if (ev.kind != core::Event::Kind::Roll) continue;
            if (ev.purpose != fate || ev.forced) {
                ++roll;
                continue;
            }
            Evaluation mean;
            for (const auto& [face, w] : {std::pair<int, double>{1, 1.0 / 6.0}, {6, 5.0 / 6.0}}) {
                // any face but 1 lets him escape: the sample itself is that outcome, or the 1
                if (face == 1 ? ev.dice[0] == 1 : ev.dice[0] != 1) {
                    add(mean, evaluate(g, role), w);
                    continue;
                }
                // the other face's play follows the sample's path to the die, so it gets the
                // sample's own budget (the greedy rollout looks at fewer candidates on less, and
                // stops when it is spent): played on what the sample left, it stopped short of
                // the die, and the sample's own face counted alone, a 1 as a won game (seed 59,
                // Turn 9: an attack on Napoleon's stack of three valued 166872 on one such sample
                // of six and made instead of the attack on a Paris of disrupted units, 101674)
                int again = given;
                const core::GameState c = play(base.forced_dice, roll, face, again);
                budget -= given - again;
                const core::Event* r = roll_numbered(c, base.events.size(), base.rolls_made, roll);
                if (!r || r->purpose != fate)
                    return evaluate(g, role);  // the path changed: the sample's own value
                add(mean, evaluate(c, role), w);
            }
            return mean;
        }
        return evaluate(g, role);
    }
    // each face gets its own share of the budget, so late faces are still played to the end
    // of the move (where the die is thrown) rather than judged before it
    const int total = budget;
    int spent = 0;
    Evaluation mean;
    for (int face = 1; face <= 6; ++face) {
        budget = std::max(3, total / 6);
        const int given = budget;
        add(mean, once(face), 1.0 / 6.0);
        spent += given - budget;
    }
    budget = total - spent;
    return mean;
}

void AiBot::load_rules(const session::Session& s) {
    if (rules_ && rules_def_ == &s.def()) return;
    rules_ = script::RulesHost::load(s.state().def_ptr());
    rules_->set_print([](const std::string&) {});
    rules_def_ = &s.def();
}

Evaluation AiBot::sample_value(const session::Session& s, const std::string& role,
                               const core::Action& a, int sample, int budget) {
    load_rules(s);
    return score(s.state(), role, a, sample, budget);
}

std::string AiBot::choose(const session::Session& s, const std::string& role) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto acts = s.actions(role);
    explanation_.clear();
    if (acts.empty()) return {};
    const std::string step = s.state().decision.step;
    const std::string head = std::string(level_name(level_)) + " " + role + ", turn " + std::to_string(s.state().turn) + " " + step + ": ";
    auto done = [&](const core::Action& a) {
        times_.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        if (explanation_.empty()) explanation_ = head + a.text() + " — " + reason_;
        return a.text();
    };
    if (acts.size() == 1) {
        reason_ = "only one legal action";
        // 8.2, 8.4: a stack whose train the rules let do nothing but pass (no hex it may enter,
        // e.g. beside enemy cavalry in the Pyrenees) is stalled like one that chose to pass
        // (seed 2: Wellington's stack at 6232 took a train and discarded it on seven Turns)
        if (step == "movement.choose" && acts[0].kind == "pass")
            if (const std::string at = train_hex(acts[0]); !at.empty()) stalled_[role + " " + at] = s.state().turn;
        return done(acts[0]);
    }
    // No cycles: in a repeated choice that can be ended (`done`/`pass`), a position the role has
    // already seen in this run of the step (same Turn and step, its own pieces where they were,
    // the same tracks) ends it. Without this, choices that undo each other (1814 15.1: hide a
    // unit, bring it back, hide it...) could go on for ever. The tracks count: an attack aborted
    // on a die of 1 (cnw 10.2 a) leaves every piece where it was but spends its Combat Commands,
    // and the player may order the attack again.
    for (size_t i = 0; i < acts.size(); ++i) {
        if (acts[i].kind != "done" && acts[i].kind != "pass") continue;
        const std::string run = std::to_string(s.state().turn) + " " + role + " " + step;
        if (run != cycle_run_) {
            cycle_run_ = run;
            cycle_seen_.clear();
        }
        // the role's own pieces (what its own choices change; it knows them whole): where each
        // stands and on which face, in id order (a unit brought back stands elsewhere in its stack)
        std::string own;
        const int me = s.def().side_index(role);
        for (const auto& pc : s.state().pieces())
            if (pc.owner == me)
                own += pc.id + "@" + core::location_text(s.def().map, pc.loc) + "/" + std::to_string(pc.face) + ";";
        for (const auto& [id, value] : s.state().tracks()) own += id + "=" + std::to_string(value) + ";";
        if (!cycle_seen_.insert(std::hash<std::string>{}(own)).second) {
            reason_ = "this position was seen before in this step: ended, so the choices cannot cycle";
            return done(acts[i]);
        }
        break;
    }
    if (p_.epsilon > 0 && rng_.below(1000) < static_cast<std::uint32_t>(p_.epsilon * 1000)) {
        std::vector<size_t> ok;
        for (size_t i = 0; i < acts.size(); ++i)
            if (!futile(acts[i], step)) ok.push_back(i);
        if (!ok.empty()) {
            reason_ = "easy: a random choice";
            return done(acts[ok[rng_.below(static_cast<std::uint32_t>(ok.size()))]]);
        }
    }
    load_rules(s);
    // evaluate() asks this host for the module's real supply status (rules.ai_features)
    struct FeatureGuard {
        explicit FeatureGuard(script::RulesHost* r) { set_feature_rules(r); }
        ~FeatureGuard() { set_feature_rules(nullptr); }
    } feature_guard(rules_.get());
    struct SiteMemoGuard {
        explicit SiteMemoGuard(SiteMemo* m) { set_site_memo(m); }
        ~SiteMemoGuard() { set_site_memo(nullptr); }
    } site_memo_guard(&site_memo_);
    std::vector<core::GameState> worlds;
    for (int k = 0; k < p_.samples; ++k) worlds.push_back(determinize(s, role, rng_));
    struct RootGuard {
        explicit RootGuard(const core::GameState* g) { set_supply_root(g); }
        ~RootGuard() { set_supply_root(nullptr); }
    } root_guard(step == "supply.convert" || step == "supply.remove_depot" ? nullptr : &worlds[0]);
    struct FrontierGuard {
        explicit FrontierGuard(const core::GameState* g) { set_frontier_depots(g); }
        ~FrontierGuard() { set_frontier_depots(nullptr); }
    } frontier_guard(step == "supply.convert" || step == "supply.remove_depot" ? &worlds[0] : nullptr);
    // (converting or removing a depot changes the supply field itself: traced for real)
    // An attack may clear a route for the attacker's supply, and a stack on a city lets the
    // attacker's routes through it (6.2: no route through an enemy city unless a friendly stack
    // holds it): the fields of the positions these choices reach are traced, and the attacker's
    // supply judged on them (an advance out of a held city can cut the routes through it)
    struct FieldGuard {
        explicit FieldGuard(bool on) { set_field_tracing(on); }
        ~FieldGuard() { set_field_tracing(false); }
    } field_guard(step == "combat.order" ||
                  (attacker_role(s.def(), role) &&
                   (step == "movement.choose" || step == "movement.stack" || step.rfind("combat.", 0) == 0)));
    // the attacker's depot plan, Turns ahead (7.7-7.8): the cities to hold for its next depot
    if (attacker_role(s.def(), role)) {
        const std::uint64_t was = plan_.key;
        update_depot_plan(plan_, rules_.get(), worlds[0], role);
        if (plan_.key != was)
            if (std::ostream* out = debug_out()) {
                *out << "[ai] " << role << ", turn " << s.state().turn << ": depot plan ";
                if (plan_.site.empty()) *out << "none";
                else {
                    *out << "site " << plan_.site << ", hold";
                    for (const auto& c : plan_.hold) *out << " " << c;
                }
                if (!plan_.chain_keep.empty()) {
                    *out << "; the chain passes";
                    for (const auto& c : plan_.chain_keep) *out << " " << c;
                }
                *out << " (" << plan_.tries << " probes)\n";
            }
    }
    struct PlanGuard {
        explicit PlanGuard(const DepotPlan* p) { set_depot_plan(p); }
        ~PlanGuard() { set_depot_plan(nullptr); }
    } plan_guard(attacker_role(s.def(), role) ? &plan_ : nullptr);
    const Evaluation before = evaluate(worlds[0], role);

    int budget = p_.apply_budget;
    std::vector<double> value(acts.size(), -1e18);
    std::vector<Evaluation> outcome(acts.size());  // the mean evaluation after each candidate
    std::vector<bool> scored(acts.size(), false);
    bool direct = false;  // values are the train scores below, not evaluations
    std::vector<std::string> notes(acts.size());  // what a designer should read besides the value
    std::vector<std::string> parts(acts.size());  // how a candidate's value is made up (debug level 2)
    std::string
        passed_over;  // supply.allocate: the stacks whose planned moves would not beat passing
    if (step == "supply.allocate") {
        // 7.3/7.7: a train lets a stack move or rally, or makes a depot. Stacks are scored by
        // what moving them is worth; depots by a steady value (supply lines for the advance);
        // dummies and passing are worth nothing.
        direct = true;
        // ranked with cheap values first (depots judged against the root's supply field); the
        // best depots are then valued exactly, and asked of the rules whether they can be made
        // this Turn (7.8), until the best candidate is settled
        std::vector<double> stack_v(acts.size(), -1), standing_v(acts.size(), 0);
        std::vector<bool> depot_candidate(acts.size(), false), settled(acts.size(), true);
        for (size_t i = 0; i < acts.size(); ++i) {
            const auto& a = acts[i];
            double v = -1;
            if (a.kind == "allocate" && !a.args.empty()) {
                const bool stack = a.label.find("stack") != std::string::npos;
                const bool depot = a.label.find("depot") != std::string::npos;
                stack_v[i] = v =
                    stack ? stack_potential(worlds[0], role, a.args[0], false, &standing_v[i]) : 0;
                if (auto it = stalled_.find(role + " " + a.args[0]);
                    stack && it != stalled_.end() && s.state().turn - it->second <= kStalledTurns) {
                    stack_v[i] = v = v * kStalledFactor;
                    standing_v[i] *= kStalledFactor;
                }
                if (depot) {
                    const double dv = depot_value(worlds[0], role, a.args[0], false, true);
                    if (dv > v) {
                        v = dv;
                        depot_candidate[i] = true;
                        settled[i] = false;
                    }
                }
            }
            value[i] = v + rng_.below(1000) / 1e6;
            scored[i] = true;
        }
        for (int refine = 0; refine < 6; ++refine) {
            size_t top = 0;
            for (size_t i = 1; i < acts.size(); ++i)
                if (value[i] > value[top]) top = i;
            if (settled[top]) break;
            settled[top] = true;
            double v = stack_v[top];
            if (depot_allowed(rules_.get(), worlds[0], role, acts[top].args[0]))
                v = std::max(v, depot_value(worlds[0], role, acts[top].args[0]));
            value[top] = v + rng_.below(1000) / 1e6;
        }
        // 7.3, 8.2: the train goes to the stack worth most, by stack_potential. When most of that
        // is its move, the move is planned as movement.choose will plan it (move_gain, once a
        // Turn per stack); a move that would not beat passing leaves the train only what it gives
        // where the stack stands (a forage marker kept off, a rally). Seed 23805, Turns 7 and 8:
        // Giulay's stack on Chaumont, a city of the depot plan, took the Turn's first train
        // (182 and 94) and passed both times, its planned move 105 and 66 below staying.
        if (s.state().turn != alloc_gain_turn_) {
            alloc_gain_.clear();
            alloc_gain_turn_ = s.state().turn;
        }
        for (int check = 0; check < kAllocMoveChecks; ++check) {
            size_t top = 0;
            for (size_t i = 1; i < acts.size(); ++i)
                if (value[i] > value[top]) top = i;
            const auto& a = acts[top];
            if (a.kind != "allocate" || a.args.empty() || stack_v[top] <= 0 ||
                value[top] > stack_v[top] + 1e-3)
                break;
            if (stack_v[top] - standing_v[top] < kMoveCheckMin)
                break;  // the train's worth is mostly standing
            const std::string key = role + " " + a.args[0];
            auto it = alloc_gain_.find(key);
            if (it == alloc_gain_.end()) {
                double gain = std::numeric_limits<double>::quiet_NaN();
                core::GameState g = worlds[0];
                try {
                    --budget;
                    rules_->apply(g, role, a);
                    gain = move_gain(g, role, a.args[0], budget);
                } catch (const std::exception&) {
                }
                it = alloc_gain_.emplace(key, gain).first;
            }
            const double gain = it->second;
            if (std::isnan(gain) || gain > 0) break;
            std::ostringstream n;
            n.precision(1);
            n << std::fixed << " " << a.args[0] << " (its move " << gain
              << " over passing: " << standing_v[top] << " standing, not " << stack_v[top] << ")";
            passed_over += n.str();
            stack_v[top] = standing_v[top];
            value[top] = standing_v[top] + rng_.below(1000) / 1e6;
        }
    }
    if (step == "supply.depot" || step == "supply.setup_depot") {
        // 7.7 (14.1 at set-up): a depot is worth the supply and the forward reach it brings, net of
        // the train it costs in every later Turn (7.2) and of the move its stack gives up (the
        // train on a stack is that stack's move); making no more depots is worth nothing.
        direct = true;
        const bool here = step == "supply.depot";
        std::vector<double> depot_v(acts.size(), 0), forgone(acts.size(), 0),
            standing(acts.size(), 0);
        std::vector<size_t> hinge;  // depots worth something that the forgone move decides against
        for (size_t i = 0; i < acts.size(); ++i) {
            const auto& a = acts[i];
            if (a.kind == "depot" && !a.args.empty()) {
                depot_v[i] = depot_value(worlds[0], role, a.args[0], here);
                if (here)
                    forgone[i] = stack_potential(worlds[0], role, a.args[0], true, &standing[i]);
                if (here && depot_v[i] > 0 && forgone[i] > depot_v[i]) hinge.push_back(i);
                std::ostringstream w;
                w.precision(1);
                w << std::fixed << " = depot " << depot_v[i] << " - the stack's move " << forgone[i]
                  << " (standing " << standing[i] << ")";
                parts[i] = w.str();
            }
            value[i] = depot_v[i] - forgone[i] + rng_.below(1000) / 1e6;
            scored[i] = true;
        }
        // The move the depot takes the train from is valued by stack_potential; where that decides
        // against the depot, the move is planned as movement.choose will plan it (the depots that
        // would lead without the charge first, at most the level's depot_move_checks), and a move
        // that would not beat passing costs the depot only what the train gives the stack
        // standing (7.6, 8.1). Seed 23812, Turn 8: the train on Chaumont, the depot plan's site
        // with its cities held, was kept for a move worth 206 by stack_potential; the stack then
        // passed, its move 8.5 below staying, and no depot was made.
        std::sort(hinge.begin(), hinge.end(), [&](size_t x, size_t y) {
            return depot_v[x] - standing[x] > depot_v[y] - standing[y];
        });
        for (size_t k = 0; k < hinge.size() && k < static_cast<size_t>(p_.depot_move_checks); ++k) {
            const size_t i = hinge[k];
            const double gain = move_gain(worlds[0], role, acts[i].args[0], budget);
            const bool charged = std::isnan(gain) || gain > 0;
            if (!charged) {
                value[i] = depot_v[i] - standing[i] + rng_.below(1000) / 1e6;
                parts[i] += ", charged standing";
            }
            std::ostringstream n;
            n.precision(1);
            n << std::fixed << "the stack's move, planned, ";
            if (std::isnan(gain))
                n << "could not be weighed";
            else
                n << "gains " << gain << " over passing";
            if (charged)
                n << ": the depot is charged the move's stack_potential " << forgone[i];
            else
                n << ": the depot is charged what the train gives standing, " << standing[i]
                  << ", not " << forgone[i];
            notes[i] = n.str();
        }
    }
    if (step == "combat.attacker_cc") {
        std::vector<double> chance;
        if (order_test_choice(worlds[0], role, acts, budget, &chance) >= 0) {
            direct = true;  // the chance the attack goes ahead, less a little per CC spent
            for (size_t i = 0; i < acts.size(); ++i) {
                if (chance[i] < 0) continue;
                value[i] = chance[i] - 1e-3 * static_cast<double>(i);
                scored[i] = true;
            }
        }
    }
    bool planned = false;  // a stack's move: planned whole (plan_move), not scored per step
    std::string moving_stack;  // movement.choose: the hex of the stack whose move was weighed
    if (step == "movement.stack") {
        const MovePlan mp = plan_move(worlds[0], role, acts, budget);
        if (mp.value > -1e17) {
            planned = true;
            value[mp.first] = mp.value;
            outcome[mp.first] = mp.eval;
            scored[mp.first] = true;
            if (mp.detach)
                notes[mp.first] =
                    "one unit and one Commander go on to overrun the lone Napoleon (8.9, 11.20), "
                    "the rest stay";
        }
    } else if (step == "movement.choose") {
        // 8.2: each stack with a train either moves or stays (its train discarded by passing: a
        // begun move cannot end where it started). The stacks go in the order of what their move
        // is worth (stack_potential); the first one's move is planned whole (plan_move) and
        // taken if it beats staying, else that stack passes.
        planned = true;
        size_t first = acts.size();
        double first_v = -1e18;
        for (size_t i = 0; i < acts.size(); ++i)
            if (acts[i].kind == "move" && !acts[i].args.empty()) {
                const double v = stack_potential(worlds[0], role, acts[i].args[0], true) + rng_.below(1000) / 1e6;
                if (v > first_v) {
                    first_v = v;
                    first = i;
                }
            }
        // 14.4, 8.4: a stack that can enter an objective whose occupation wins by this Turn's end
        // (only an objective empty of enemy combat units can be entered) moves first, before the
        // other moves change that. Ranked by stack_potential alone, another stack went first (seed
        // 15890, Turn 11: Paris empty, the south held; a reconnaissance in force from 5220 pushed
        // Meaux's French stack into Paris, 8.5, 11.11, and Barclay's stack, two hexes from Paris
        // with its train, never had the chance).
        const size_t entering = stack_entering_decisive(worlds[0], role, acts, budget);
        if (entering < acts.size()) first = entering;
        if (first < acts.size()) {
            const std::string at = acts[first].args[0];
            moving_stack = at;
            for (size_t i = 0; i < acts.size(); ++i) {
                const auto& a = acts[i];
                // the stack's own move, or passing with its train (the one at its hex)
                const bool pass_here = a.kind == "pass" && train_hex(a) == at;
                if (i != first && !pass_here) continue;
                core::GameState g = worlds[0];
                --budget;
                try {
                    rules_->apply(g, role, a);
                    if (a.kind == "pass") {
                        outcome[i] = evaluate(g, role);
                        value[i] = outcome[i].total;
                    } else {
                        if (g.decision.step != "movement.stack" || g.decision.role != role) continue;
                        const MovePlan mp = plan_move(g, role, rules_->actions(g, role), budget);
                        if (mp.value < -1e17) continue;
                        outcome[i] = mp.eval;
                        value[i] = mp.value;
                    }
                    scored[i] = true;
                } catch (const std::exception&) {
                }
            }
        }
    }
    // Ending a repeated choice (no more attacks, commanders, reinforcements...) leaves the
    // position as it stands: valued so, at the same horizon as the other candidates (the state
    // after `done` already contains the next phase, whose effects every candidate shares).
    // 10.6, 14.4: while the attacker's force next to an objective is worth its attack (the strike at
    // Paris with the south held, or the last two Turns), declining further attacks gives that up;
    // valued as the position stands, the pass kept the force's worth, and every attack on Paris,
    // which spends the CCs the strike is counted by, looked worse than passing (seed 2, Turn 12:
    // Bordeaux held, two stacks next to a Paris of three disrupted units, and the Coalition passed)
    const bool attacker_orders = step == "combat.order" && attacker_role(s.def(), role);
    const bool strike_on = attacker_orders && one_objective_short(s.state(), role);
    const bool strike_at_stake = strike_on || (attacker_orders && last_two_turns(s.state()));
    auto stops_here = [&](const core::Action& a) {
        if (strike_at_stake && a.kind == "pass") return false;
        return (a.kind == "done" || a.kind == "pass") && !continues_procedure(step) && step != "movement.choose" &&
               step != "game.begin_phase";
    };
    // 12.1: commanders' moves are many (every commander to every hex within 3): a cheap prior
    // (what the move does to the `command` term: a stack gaining or losing its only Commander)
    // picks the few worth a full look; Napoleon's moves come first (14.4: prior 10^6), up to the
    // shortlist's size (then the French bot's other commanders get no look while he may move).
    // The candidates to score, in order. The shortlist replaces the cap on candidates: a move late
    // in the list (a commander of the armies listed last, Napoleon) is looked at as well (seed
    // 142544, Turn 1: of 248 moves only the first 64 could be scored, so Blucher and Yorck never
    // moved in 12.1 and the Silesian stacks without a Commander could neither move nor get a train).
    std::vector<size_t> order(acts.size());
    for (size_t i = 0; i < acts.size(); ++i) order[i] = i;
    bool shortlist = false;
    if (step == "commanders.move" && static_cast<int>(acts.size()) > p_.commander_candidates) {
        std::vector<std::pair<double, size_t>> prior;
        for (size_t i = 0; i < acts.size(); ++i) {
            double v = 1e9;  // pass and anything unusual: always looked at
            if (acts[i].kind == "move" && acts[i].args.size() >= 2)
                v = commander_move_prior(worlds[0], role, acts[i].args[0], acts[i].args[1]) + rng_.below(1000) / 1e6;
            prior.push_back({v, i});
        }
        std::sort(prior.begin(), prior.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        order.clear();
        for (size_t k = 0; k < prior.size() && static_cast<int>(k) < p_.commander_candidates; ++k) order.push_back(prior[k].second);
        shortlist = true;
    }
    // 14.4: holding the whole victory condition in the combat phase, the attacker wins at the
    // Turn's end unless the defender retakes an objective; no attack of its own can add to that,
    // while one ordered from an objective may lose the units holding it (11.18: the winner takes
    // hits too; 11.20) and every CC spent is one fewer for defending it (10.3). It declines (10.6).
    // Judged on one die, shared by every candidate, all attacks looked as good as standing still:
    // seed 63384, Turn 12, Paris and Bordeaux held, the one unit in Paris attacked out of it, was
    // eliminated, and the French won.
    if (attacker_orders && holds_victory(worlds[0], role)) {
        bool can_pass = false;
        for (size_t i : order) can_pass = can_pass || acts[i].kind == "pass";
        if (can_pass)
            order.erase(std::remove_if(order.begin(), order.end(), [&](size_t i) { return acts[i].kind == "attack"; }),
                        order.end());
    }
    // 13.4, 13.2, 6.4: a side that may hold its reinforcements back (`done`) places none where it
    // would stand out of General Supply. The phase is the Turn's last, so the next supply phase
    // finds the unit there and disrupts it (6.4); held still by it (8.4) it can only be saved by a
    // depot made next Turn and rallied the Turn after (8.1), and is eliminated otherwise. Held
    // back, it arrives when its hex is in supply. The units to come counted 30 hexes from the
    // objective and an eliminated one 12, so arriving to die looked like progress: in round 22's
    // 144 games the Coalition placed Kapzevich's and Roder's units at Koblenz (4517) and the Saxons
    // at Cologne (4615), beyond its field behind the Rhine, and lost them in 100-132 games each.
    std::string held_back;  // the reinforcements so held back, for the explanation
    if (step == "reinforcements.place") {
        bool can_wait = false;
        for (size_t i : order) can_wait = can_wait || acts[i].kind == "done";
        if (can_wait)
            order.erase(std::remove_if(order.begin(), order.end(),
                                       [&](size_t i) {
                                           const auto& a = acts[i];
                                           if (a.kind != "place" || a.pieces.empty()) return false;
                                           core::GameState g = worlds[0];
                                           try {
                                               rules_->apply(g, role, a);
                                           } catch (const std::exception&) {
                                               return false;
                                           }
                                           if (!arrives_out_of_supply(g, a.pieces[0])) return false;
                                           held_back += " " + a.pieces[0];
                                           return true;
                                       }),
                        order.end());
    }
    // 14.4, 10.2 (b): with the south held, taking Paris wins (with Paris held, Bordeaux or
    // Marseilles); an order that fails anywhere ends the Turn's attacks, and CCs spent elsewhere
    // are not behind the strike: the attacks on that objective come first (the others, judged on
    // one die, looked better after a lucky roll: seed 2, Turn 12, an attack near Bordeaux was
    // chosen while two stacks stood next to a Paris of three disrupted units)
    if (strike_on) {
        auto on_decisive = [&](size_t i) {
            return acts[i].kind == "attack" && acts[i].args.size() >= 2 &&
                   decisive_distance(worlds[0], role, acts[i].args[1]) == 0;
        };
        // (an attack on Napoleon's stack may win the game too, 11.20: it stays)
        const std::string napoleon_at = enemy_napoleon(worlds[0], role);
        auto on_napoleon = [&](size_t i) { return acts[i].kind == "attack" && acts[i].args.size() >= 2 && acts[i].args[1] == napoleon_at; };
        bool any = false;
        for (size_t i : order) any = any || on_decisive(i);
        // on the last Turn passing loses the game (14.4), whatever the attack's odds: it is not
        // looked at (seed 110867, Turn 12: Rayevsky's stack next to a Paris of four Guard units
        // passed; the attack and the pass were judged -908 and -962 on six dice)
        const int length = game_length(s.state());
        const bool last_turn = length > 0 && s.state().turn >= length;
        if (any)
            order.erase(std::remove_if(order.begin(), order.end(),
                                       [&](size_t i) {
                                           return (acts[i].kind == "attack" && !on_decisive(i) && !on_napoleon(i)) ||
                                                  (last_turn && acts[i].kind == "pass");
                                       }),
                        order.end());
    }
    // the units ordered into an attack on an objective or on Napoleon's stack (below)
    const std::string attacked = step == "combat.order_units" ? combat_target(worlds[0]) : "";
    const bool deciding_combat = !attacked.empty() && game_deciding_target(worlds[0], role, attacked);
    // Spread the budget: each candidate gets its share, so late candidates are not starved.
    const int n_cand = shortlist ? static_cast<int>(order.size())
                                 : static_cast<int>(std::min<size_t>(acts.size(), static_cast<size_t>(p_.max_candidates)));
    for (size_t r = 0; r < order.size() && !direct && !planned; ++r) {
        const size_t i = order[r];
        if (futile(acts[i], step)) continue;
        // beyond the cap only the actions that end a repeated choice are still looked at
        if (!shortlist && static_cast<int>(i) >= p_.max_candidates && !stops_here(acts[i])) continue;
        const int rank = static_cast<int>(shortlist ? r : i);  // the candidate's place, for its share
        if (stops_here(acts[i])) {
            Evaluation mean;
            for (const auto& w : worlds) add(mean, evaluate(w, role), 1.0 / static_cast<double>(worlds.size()));
            outcome[i] = mean;
            value[i] = mean.total + 0.01 + (rng_.below(1000) / 1e6);  // nothing gained: stop
            scored[i] = true;
            continue;
        }
        Evaluation sum;
        int n = 0;
        // an attack on an objective or on Napoleon's stack (14.4, 11.20: it may win the game) is
        // judged over several dice, not one: its value is mostly the chance of taking the hex. So
        // are the units ordered into such an attack (10.1): on one die, shared by every candidate,
        // a die the attack lost made each unit left out look like hits saved and a die it won made
        // none matter, so the die chose, not the odds (in the 27 losses of round 22's 144 games, 8
        // of 42 attacks on an objective left units out)
        const bool deciding = (step == "combat.order" && acts[i].kind == "attack" && acts[i].args.size() >= 2 &&
                               game_deciding_target(worlds[0], role, acts[i].args[1])) ||
                              deciding_combat;
        const int samples = deciding ? std::max(p_.samples, kObjectiveAttackSamples) : p_.samples;
        for (int k = 0; k < samples; ++k) {
            int share = samples > p_.samples  // each of the objective's dice gets a full share
                            ? std::max(kObjectiveAttackShare, budget / std::max(1, n_cand - rank))
                            : std::max(2, budget / std::max(1, (n_cand - rank) * samples));
            const int before_share = share;
            try {
                add(sum, score(worlds[static_cast<size_t>(k) % worlds.size()], role, acts[i], k, share), 1.0);
                ++n;
            } catch (const std::exception&) {
            }
            budget -= before_share - share;
        }
        if (n > 0) {
            Evaluation mean;
            add(mean, sum, 1.0 / n);
            outcome[i] = mean;
            value[i] = mean.total + (rng_.below(1000) / 1e6);  // seeded tie-break
            scored[i] = true;
        }
    }
    // 7.1: converting a depot of the attacker's chain cuts the depots beyond it off (7.8: no new
    // depot links to them) and sets its net back; the rollout cannot see that. It also gives back
    // the Supply Train the depot costs in every later Turn (7.2), which the evaluation counts as
    // one Turn's share only (kDepotUpkeep): outside Winter it is credited as a depot made is
    // charged (depot_cost). Without it a depot that kept a few units in supply was never converted
    // (seed 49, Turn 9: Wellington's set-up depot at 6233, his army gone on towards Bordeaux,
    // valued 32 below keeping it, the +7.5 of the upkeep and the train included; by Turn 12 its
    // six depots took six of its twelve trains a Turn, 7.2). In Winter trains are passed
    // for want of marches in supply (8.2: two a Turn on Turns 1-2) and the chain's depots carry
    // the advance the rollout does not see: credited there, the Bohemian chain's first depot was
    // converted on Turns 1 and 2 of every game, and of 41 games 27 were won against 33 (+5 -11).
    if (step == "supply.convert") {
        const double freed = winter_turn(worlds[0]) ? 0.0 : depot_cost(worlds[0]);
        for (size_t i = 0; i < acts.size(); ++i)
            if (acts[i].kind == "convert" && !acts[i].args.empty() && scored[i])
                value[i] +=
                    freed - depot_chain_loss(rules_.get(), worlds[0], role, acts[i].args[0]);
    }
    // 10.1: a unit left out of an attack only weakens it; leaving one out must be clearly better
    // than one sample's noise
    if (step == "combat.order_units")
        for (size_t i = 0; i < acts.size(); ++i)
            if (acts[i].kind == "exclude" && scored[i]) value[i] -= kExcludeMargin;
    size_t best = 0;
    bool any = false;
    for (size_t i = 0; i < acts.size(); ++i)
        if (scored[i] && (!any || value[i] > value[best])) {
            best = i;
            any = true;
        }
    if (!any) {  // nothing could be scored on our copy: take the first non-futile action
        for (size_t i = 0; i < acts.size(); ++i)
            if (!futile(acts[i], step)) {
                best = i;
                break;
            }
        reason_ = "no action could be scored; first sensible one";
    } else {
        std::ostringstream why;
        why.precision(1);
        why << std::fixed;
        if (direct && step == "combat.attacker_cc") why << "order test (10.2) passes with chance " << value[best];
        else if (direct) why << "train value " << value[best];
        else if (planned) why << "planned move, value " << value[best] << " vs now " << before.total << " (" << changes(before, outcome[best]) << ")";
        else why << "value " << value[best] << " vs now " << before.total << " (" << changes(before, outcome[best]) << ")";
        // the runner-up, so a designer sees what was weighed
        size_t second = best;
        for (size_t i = 0; i < acts.size(); ++i)
            if (scored[i] && i != best && (second == best || value[i] > value[second])) second = i;
        if (second != best) why << "; next best '" << acts[second].text() << "' " << value[second];
        why << " [" << acts.size() << " actions, " << (p_.apply_budget - budget) << " applies]";
        reason_ = why.str();
    }
    if (any && !notes[best].empty()) reason_ += "; " + notes[best];
    if (!passed_over.empty())
        reason_ += "; moves planned, no better than passing (8.2):" + passed_over;
    if (!held_back.empty()) reason_ += "; held back, out of supply on arrival (13.4, 6.4):" + held_back;
    explanation_ = head + acts[best].text() + " (" + acts[best].label + ") — " + reason_;
    // a train that bought no progress: that stack gets trains last for a while (7.3)
    if (!moving_stack.empty() && any &&
        (acts[best].kind == "pass" || outcome[best].objectives - before.objectives < kStalledGain))
        stalled_[role + " " + moving_stack] = s.state().turn;
    if (std::ostream* out = debug_out()) {
        *out << "[ai] " << explanation_ << " {"
             << static_cast<int>(1000 * std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count())
             << " ms; supply traces " << supply_cache_stats().second << " / "
             << static_cast<int>(1000 * supply_trace_seconds()) << " ms so far}\n    before: " << before.describe();
        if (any && !direct) *out << "\n    after:  " << outcome[best].describe();
        *out << "\n";
        if (g_debug_level > 1)
            for (size_t i = 0; i < acts.size(); ++i)
                *out << "      " << acts[i].text() << ": " << (scored[i] ? std::to_string(value[i]) : "not scored")
                     << parts[i] << "\n";
    }
    return done(acts[best]);
}

void register_bot_kinds() {
    session::register_bot_kind("ai", [](std::uint64_t seed) { return std::make_unique<AiBot>(Level::Normal, seed); });
    session::register_bot_kind("ai-normal", [](std::uint64_t seed) { return std::make_unique<AiBot>(Level::Normal, seed); });
    session::register_bot_kind("ai-easy", [](std::uint64_t seed) { return std::make_unique<AiBot>(Level::Easy, seed); });
    session::register_bot_kind("ai-hard", [](std::uint64_t seed) { return std::make_unique<AiBot>(Level::Hard, seed); });
}

}  // namespace vedette::ai
