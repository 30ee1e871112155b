// The static evaluation (docs/ai.md "Evaluation"). Generic parts (material) work for any module
// whose units carry the cnw stats (of2, faces ready/disrupted); the objectives are 1814's 14.4.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "ai/ai.hpp"
#include "script/rules_host.hpp"

namespace vedette::ai {

namespace {


thread_local script::RulesHost* g_feature_rules = nullptr;  // the AI's own RulesHost while it decides

struct Objective {
    hex::Hex hex;
    std::string name;
    bool capital;  // Paris; the others are "one of" (Bordeaux or Marseilles)
    std::unordered_map<std::int64_t, int> dist;  // BFS over playable hexes
};

std::int64_t key(hex::Hex h) { return (static_cast<std::int64_t>(h.q) << 32) ^ static_cast<std::uint32_t>(h.r); }

struct Profile {
    std::string attacker, defender;  // who must take the objectives / who must hold them
    std::vector<Objective> objectives;
    std::vector<int> of2;            // per counter type: OF in halves (0 if not a unit)
    std::vector<bool> unit, napoleon, genuine_train, commander;
    std::vector<int> cr;             // per counter type: a Commander's rating (CR, 10.2), else 0
    std::vector<bool> shortens_game;  // 14.12: Bernadotte and his Swedish corps
    // 14.12: the game's length once they cross the Rhine (0: no such rule)
    int shortened_length = 0;
    std::vector<bool> held_until_turn4;  // 14.8: Soult's and Wellington's commands
    const core::RegionDef* east_of_rhine = nullptr;
    int disrupted_face_of_unit = 1;
    std::map<int, std::vector<hex::Hex>> uss;  // side index -> Ultimate Supply Source hexes
    std::vector<int> depot_face;               // per counter type: the face index "depot", or -1
    // per counter type: the objectives (indices into `objectives`) its army marches on; empty:
    // the nearest one (Paris counted nearer)
    std::vector<std::vector<int>> targets;
    std::set<std::int64_t> cities;             // hexes with the feature "city" (depot sites, 7.7)
    std::vector<hex::Hex> city_hexes;          // the same, in the map's order
    // side -> the cities friendly to another side (regions "<side>_friendly"; without such regions
    // every city): 6.2 lets no route of the side pass one unless its stack holds it
    std::map<int, std::set<std::int64_t>> enemy_cities;
    int eliminated_box = -1;                   // the box "eliminated", if the map has one
    std::vector<bool> deemed_supplied;         // 6.6: Cossacks and garrisons (stat cossack/garrison 1)
    // per counter type, by its stat `type`: 1 cavalry, 3 artillery, else 2 (the order a lone
    // Napoleon's hunter is picked in: the attack on a fortified Paris needs artillery
    // most, 11.3-11.4)
    std::vector<int> arm;
    bool forage_rule = false;                  // 7.6 (b): the cnw series' forage markers
    int forage_type = -1;                      // the forage marker's counter type
    int combat_phase = -1;                     // the phase "combat" (10-11), if the module has one
    std::string cc_track;                      // 9.1: the attacker's Combat Commands left ("<side>_cc")
    std::string attacks_closed_var;            // 10.6, 10.2 b: "attacks_closed_<side>" (the cnw series)
    std::string defender_attacks_closed_var;   // the same for the defender
};

std::map<const core::ModuleDef*, Profile>& profiles() {
    static std::map<const core::ModuleDef*, Profile> p;
    return p;
}

const Profile& profile(const core::ModuleDef& d) {
    auto& ps = profiles();
    if (auto it = ps.find(&d); it != ps.end()) return it->second;
    Profile p;
    for (const auto& ct : d.counter_types) {
        int of2 = 0;
        if (auto it = ct.stats.find("of2"); it != ct.stats.end() && it->second.is_int())
            of2 = static_cast<int>(it->second.as_int());
        p.of2.push_back(of2);
        p.unit.push_back(ct.category == "unit");
        p.napoleon.push_back(ct.id == "napoleon");
        p.commander.push_back(ct.category == "commander");
        auto cr = ct.stats.find("cr");
        p.cr.push_back(cr != ct.stats.end() && cr->second.is_int() ? static_cast<int>(cr->second.as_int()) : 0);
        p.depot_face.push_back(ct.face_index("depot"));
        auto flag = [&](const char* stat) {
            auto it = ct.stats.find(stat);
            return it != ct.stats.end() && it->second.is_int() && it->second.as_int() == 1;
        };
        p.deemed_supplied.push_back(flag("cossack") || flag("garrison"));
        auto ty = ct.stats.find("type");
        const std::string arm =
            ty != ct.stats.end() && ty->second.is_string() ? ty->second.as_string() : "";
        p.arm.push_back(arm == "cavalry" ? 1 : arm == "artillery" ? 3 : 2);
        auto g = ct.stats.find("genuine");
        p.genuine_train.push_back(g != ct.stats.end() && g->second.is_int() && g->second.as_int() == 1);
        auto army = ct.stats.find("army");
        p.held_until_turn4.push_back(d.id == "napoleon_1814" && army != ct.stats.end() && army->second.is_string() &&
                                     (army->second.as_string() == "pyrenees" || army->second.as_string() == "peninsula"));
        // 1814 (14.4, 14.8): Wellington's army marches on Bordeaux, the Austrians of Italy and
        // Murat's Neapolitans on Marseilles, the main armies (Bohemia, Silesia, North) on Paris
        std::vector<int> target;
        if (d.id == "napoleon_1814" && army != ct.stats.end() && army->second.is_string()) {
            const std::string& a = army->second.as_string();
            if (a == "peninsula") target = {1};
            else if (a == "italy_austria" || a == "naples") target = {2};
            else if (a == "bohemia" || a == "silesia" || a == "north") target = {0};
        }
        p.targets.push_back(target);
        auto nation = ct.stats.find("nation");
        p.shortens_game.push_back(d.id == "napoleon_1814" &&
                                  (ct.id == "bernadotte" || (nation != ct.stats.end() && nation->second.is_string() &&
                                                             nation->second.as_string() == "sweden")));
    }
    for (size_t bi = 0; bi < d.map.boxes.size(); ++bi)
        if (d.map.boxes[bi].id == "eliminated") p.eliminated_box = static_cast<int>(bi);
    int city_feature = -1;
    for (size_t fi = 0; fi < d.map.feature_types.size(); ++fi)
        if (d.map.feature_types[fi].id == "city") city_feature = static_cast<int>(fi);
    for (const auto& hd : d.map.hexes)
        if (city_feature >= 0 && std::count(hd.features.begin(), hd.features.end(), city_feature)) {
            p.cities.insert(key(hd.hex));
            p.city_hexes.push_back(hd.hex);
        }
    for (size_t si = 0; si < d.sides.size(); ++si)
        if (const core::RegionDef* r = d.map.region("uss_" + d.sides[si].id)) p.uss[static_cast<int>(si)] = r->hexes;
    for (size_t si = 0; si < d.sides.size(); ++si) {
        bool any_region = false;
        std::set<std::int64_t>& enemy = p.enemy_cities[static_cast<int>(si)];
        for (size_t oi = 0; oi < d.sides.size(); ++oi) {
            const std::string r = d.sides[oi].id + "_friendly";
            if (oi == si || !d.map.region(r)) continue;
            any_region = true;
            for (const hex::Hex& c : p.city_hexes)
                if (d.map.in_region(c, r)) enemy.insert(key(c));
        }
        if (!any_region) enemy = p.cities;
    }
    p.forage_rule = d.counter_type_index("forage") >= 0 && d.sides.size() == 2;
    for (size_t i = 0; i < d.phases.size(); ++i)
        if (d.phases[i].id == "combat") p.combat_phase = static_cast<int>(i);
    p.forage_type = d.counter_type_index("forage");
    if (d.id == "napoleon_1814") {
        p.east_of_rhine = d.map.region("east_of_rhine");
        p.shortened_length = 10;  // 14.12 (rules/main.lua hooks.game_length)
        p.attacker = "coalition";
        p.defender = "french";
        p.cc_track = p.attacker + "_cc";
        p.attacks_closed_var = "attacks_closed_" + p.attacker;
        p.defender_attacks_closed_var = "attacks_closed_" + p.defender;
        const std::pair<const char*, const char*> obj[] = {
            {"5420", "Paris"}, {"5929", "Bordeaux"}, {"4832", "Marseilles"}};
        for (const auto& [label, name] : obj) {
            auto h = d.map.parse_label(label);
            if (!h) continue;
            Objective o{*h, name, std::string(name) == "Paris", {}};
            std::deque<hex::Hex> q{*h};
            o.dist[key(*h)] = 0;
            while (!q.empty()) {
                const hex::Hex c = q.front();
                q.pop_front();
                const int dc = o.dist[key(c)];
                for (const hex::Hex n : hex::neighbours(c)) {
                    const core::HexDef* hd = d.map.find(n);
                    if (!hd || !d.map.terrain_types[static_cast<size_t>(hd->terrain)].playable) continue;
                    if (o.dist.emplace(key(n), dc + 1).second) q.push_back(n);
                }
            }
            p.objectives.push_back(std::move(o));
        }
    }
    return ps.emplace(&d, std::move(p)).first->second;
}

bool winter(const core::GameState& s) {
    const core::TableDef* t = s.def().table("seasons");
    if (!t) return false;
    for (const auto& row : t->rows)
        if (row.size() >= 2 && row[0].is_int() && row[0].as_int() == s.turn)
            return row[1].is_string() && row[1].as_string() == "winter";
    return false;
}

int dist_to(const Objective& o, hex::Hex h) {
    auto it = o.dist.find(key(h));
    return it == o.dist.end() ? 99 : it->second;
}

// The weights of the attacker's terms (docs/ai.md "Evaluation").
constexpr double kObjectivePerHex = 4.0;  // per unit weight (0.5 + OF/4) per hex nearer its objective
constexpr double kOutOfSupply = 10.0;     // per unit (x (1 + OF/2)), doubled: disrupted, or Winter (unsupplied_cost)
constexpr double kDepotUpkeep = 6.0;      // per own depot on the map (7.2)
constexpr double kFrontierCity = 8.0;     // per hex a held city lies beyond the depot net (7.7)
// 14.4 asks for one unit in Paris and one in Bordeaux or Marseilles, not for the whole army: the
// attacker's leading unit towards Paris, and its leading unit towards the nearer southern city,
// are worth this much per hex (so trains go to the spearheads, not spread over every stack).
constexpr double kLeadPerHex = 30.0;
// The last two Turns: per OF (in halves, up to kAssaultCap) of undisrupted attacker units next to
// an objective it does not hold (the force for the attack that takes it).
constexpr double kAssaultPerOf = 5.0;
constexpr double kAssaultCap = 16.0;
// per OF (in halves) of a stack next to an unheld objective on the last two Turns that a train
// keeps free of a forage marker (7.6), so that it may attack or support (10.1)
constexpr double kAssaultTrainPerOf = 10.0;
constexpr int kLeadCap = 12;
// A stack that could reach a lone enemy Napoleon this Turn (14.4, 8.9, 11.20: a one-in-six chance
// at least of winning the game at once) gets a train before any other.
constexpr double kHuntNear = 5000.0;  // within 3 hexes
constexpr double kHuntFar = 2000.0;   // within 5 (a forced march, 8.4)
// The same threat seen by the evaluation: a lone Napoleon with attacker units within 3 (5) hexes.
constexpr double kNapoleonExposedNear = 3000.0;
constexpr double kNapoleonExposedFar = 1000.0;
// An escorted Napoleon whose escort an attack this Turn may eliminate (escort_strike_chance): the
// game's end at that chance, on the scale a lone Napoleon within a march has (kNapoleonExposedNear
// for about a one-in-six chance of reaching him and a fate die of 1)
constexpr double kEscortStrikeWin = 20000.0;
// 14.12: each Turn a crossing of the Rhine by the Swedes takes from the game (two before Turn 11),
// on the scale of a won game (10^6): about a fifth of the games the AI wins as the Coalition are
// won on Turns 11-12, so two Turns are worth more than a fate die against a lone Napoleon (a sixth
// of a game) and far more than four divisions
constexpr double kTurnTaken = 150000.0;
// Beyond a forced march of a lone Napoleon (6 to kApproachHexes hexes): per hex the attacker's
// nearest hunter (a stack with a Commander and an undisrupted combat unit) comes nearer him, so a
// stack closes in over the Turns to come (14.4, 8.9, 11.20; the hunt above takes the chance once
// he is within reach). For a train: the hexes one move (3) gains of that.
constexpr double kApproachPerHex = 100.0;
constexpr int kApproachHexes = 10;
// The depot plan (DepotPlan): per city of it the attacker holds with a combat unit, and once more
// for the site itself; a stack within a march (3 hexes) of one it does not hold yet gets trains.
constexpr double kPlanHold = 40.0;
// a city of the plan held now that the site's link needs (7.8, 6.2: no link passes an enemy city a
// friendly stack does not hold): leaving it cuts the depots beyond it off from the chain, and the
// site can no longer be made: worth more than the march of the stack that holds it
constexpr double kPlanKeep = 150.0;
constexpr double kGarrison = 40.0;       // per defending combat unit in Paris, the last three Turns
constexpr double kHoldBoth = 300000.0;   // Paris and Bordeaux or Marseilles held (14.4)
// Paris held before the south, on a Turn before the last (14.4): the game is won at the end of the
// first Turn that also ends with Bordeaux or Marseilles held, which the Coalition takes in nearly
// every game; taking Paris when its garrison is weak (11.19: disrupted units defend with one die)
// is worth more than waiting for the south (seed 15892, Turn 9)
constexpr double kHoldParisFirst = 20000.0;
// both held before the defender's attacks are over: per half-OF of undisrupted units holding each
// (up to 4.1's six OF), what the defender's attacks must overcome to retake one
constexpr double kHoldGuardPerOf = 400.0;
constexpr int kHoldGuardMaxOf2 = 12;
constexpr double kStrikeNear = 3000.0;   // Paris within a march and an attack, the south held
constexpr double kStrikeFar = 1500.0;    // within a forced march and an attack
constexpr double kStrikePerOf = 250.0;   // the assault's force next to Paris, the south held
constexpr double kStrikeTake = 20000.0;  // x the chance one attack this Turn takes it (take_chance)
// The train of a stack `dp` hexes from the objective that wins by the Turn's end: within a march
// and an attack (kStrikeNear), a forced march and an attack (kStrikeFar), or beyond (0)
double strike_train(int dp) { return dp <= 4 ? kStrikeNear : dp <= 6 ? kStrikeFar : 0.0; }
// 11.8-11.15: one attack rarely clears a garrison of three; with fewer defenders the strike's force
// is likelier to take Paris: its worth is scaled by min(kStrikeClearMax, kStrikeClear / (1 + defenders))
constexpr double kStrikeClear = 4.0;
constexpr double kStrikeClearMax = 2.0;
// 7.6 (b), 6.3-6.4: a stack that fails to forage is disrupted and loses about this many moves (a
// full move of a stack is worth 10 per unit weight in stack_potential)
constexpr double kForageMoves = 1.5;
// 8.1: a rally near an objective the attacker does not hold (within a march and an attack) is
// worth this much per unit weight (a far stack's full march is 10, stack_potential)
constexpr double kRallyNear = 10.0;
constexpr int kRallyNearHexes = 4;
// 8.1, 8.4, 14.4: with the objective that wins by a Turn's end within the strike's reach (6
// hexes), a stack held still by a disrupted unit (8.4: every unit of a moving stack must be
// undisrupted) whose Commanders can rally it is that strike's force a Turn later: its rally is
// worth this share of the strike's train (kStrikeNear, kStrikeFar)
constexpr double kRallyStrikeShare = 0.25;
// 10.3-10.4, C-8: a supporting stack adds its undisrupted units to the attack value (the attacking
// stack its CFs and combined arms): its strength next to an objective counts this share as force
constexpr double kSupportShare = 0.5;
// depot_cost: kDepotCost once more for each this many Turns left to play
constexpr double kDepotCostTurns = 3.0;
// 6.4: what a unit out of General Supply costs: disrupted at the next supply phase, eliminated at
// the one after if still out, so a unit already disrupted counts double. In Winter the attacker's
// units count double from the start: the General Supply phase (6) comes before the Turn's depots
// (7.7), so the unit is disrupted and its stack held still (8.4) whatever is built next, and only
// a depot made next Turn within Winter's 3 hexes (6.2, 7.8) saves it from the phase after. In
// round 22's 144 games the Coalition lost 6.6 units a game on Turns 2-6 to supply after its own
// moves (the Austrian artillery in 142: Schwarzenberg's Turn-1 march from Freiburg to 4822).
double unsupplied_cost(const Profile& p, size_t t, bool disrupted, bool winter_attacker) {
    return kOutOfSupply * (1.0 + p.of2[t] / 4.0) * (disrupted || winter_attacker ? 2.0 : 1.0);
}

// 12.1, 6.2 (RULINGS S-4, M-27): an enemy Commander may end his Commanders' Movement on any city
// of his own territory, a depot's city among them, unless a stack of ours stands there; while he
// stands on it the depot supplies nobody, and the next General Supply phase disrupts every unit
// that depended on it (seed 15863, Turn 7: Ney on the depot at 4722; seed 71296, Turn 8: Eugene
// on the same depot; nine and eight Bohemian units disrupted). The chance the evaluation gives
// that an unguarded depot within an enemy Commander's reach (12.1: three hexes) is taken so:
constexpr double kDepotRaid = 0.5;
constexpr int kCommanderReach = 3;

// Whether a combat unit of `side` stands at `at` (holds the hex, 14.4, 6.2; escorts, 11.20).
bool has_unit(const core::GameState& s, const Profile& p, core::Location at, int side) {
    for (int j : s.stack(at))
        if (s.piece(j).owner == side && p.unit[static_cast<size_t>(s.piece(j).type)]) return true;
    return false;
}

// The distance from `to` to `side`'s nearest hunter: a stack with a Commander and an undisrupted
// combat unit (8.3, 8.4: one that may move), 99 if none.
int nearest_hunter_distance(const core::GameState& s, const Profile& p, int side, hex::Hex to) {
    int best = 99;
    for (const auto& [loc, ids] : s.stacks()) {
        if (!loc.is_hex() || hex::distance(loc.hex, to) >= best) continue;
        bool commander = false, ready = false;
        for (int i : ids) {
            const auto& pc = s.piece(i);
            const size_t t = static_cast<size_t>(pc.type);
            if (pc.owner != side) continue;
            commander = commander || p.commander[t];
            ready = ready || (p.unit[t] && pc.face != p.disrupted_face_of_unit);
        }
        if (commander && ready) best = hex::distance(loc.hex, to);
    }
    return best;
}

// Whether a combat unit of `side` at `at` is disrupted (10.1: its stack may not attack; 8.4:
// nor move).
bool stack_has_disrupted(const core::GameState& s, const Profile& p, core::Location at, int side) {
    for (int j : s.stack(at)) {
        const auto& pc = s.piece(j);
        if (pc.owner == side && p.unit[static_cast<size_t>(pc.type)] && pc.face == p.disrupted_face_of_unit) return true;
    }
    return false;
}

// 14.4: whether `side` holds the capital objective (Paris) and whether it holds any of the others.
struct HeldObjectives {
    bool capital = false, other = false;
};
HeldObjectives held_objectives(const core::GameState& s, const Profile& p, int side) {
    HeldObjectives held;
    for (const auto& o : p.objectives)
        if (has_unit(s, p, core::Location::at(o.hex), side)) (o.capital ? held.capital : held.other) = true;
    return held;
}

// 14.4: the objectives whose occupation by this Turn's end wins the game for the attacking `side`
// (bit oi for objective oi), because it holds the rest of the condition: Paris once it holds
// Bordeaux or Marseilles; each of Bordeaux and Marseilles once it holds Paris and neither of them
// (seed 23769, Turn 12: Paris held since Turn 9, Bordeaux empty and Hill's stack next to it; its
// train was valued 0.9, and the five went to the stacks around Paris). Read once per evaluation.
unsigned decisive_objectives(const core::GameState& s, const Profile& p, int side) {
    if (side < 0) return 0;
    const auto [capital, other] = held_objectives(s, p, side);
    if (capital && other) return 0;  // won already at this Turn's end
    unsigned mask = 0;
    for (size_t oi = 0; oi < p.objectives.size() && oi < 32; ++oi)
        if (p.objectives[oi].capital ? other : capital) mask |= 1u << oi;
    return mask;
}

// Each side's depots on the map (7.7), appended to `out` (side index -> hexes).
void add_depot_hexes(const core::GameState& s, const Profile& p, std::map<int, std::vector<hex::Hex>>& out) {
    for (const auto& pc : s.pieces())
        if (pc.owner >= 0 && pc.loc.is_hex() && p.depot_face[static_cast<size_t>(pc.type)] >= 0 &&
            pc.face == p.depot_face[static_cast<size_t>(pc.type)])
            out[pc.owner].push_back(pc.loc.hex);
}

// 12.1: whether a unit or Commander of `side` stands on its depot at `dh` (no enemy Commander's
// move may end there, so no raid; RULINGS M-27)
bool depot_guarded(const core::GameState& s, const Profile& p, hex::Hex dh, int side) {
    for (int j : s.stack(core::Location::at(dh))) {
        const auto& q = s.piece(j);
        const size_t qt = static_cast<size_t>(q.type);
        if (q.owner == side && (p.unit[qt] || p.commander[qt])) return true;
    }
    return false;
}

// 14.4 asks for Paris and one of Bordeaux or Marseilles: whether `side` holds one of the others.
bool holds_other_objective(const core::GameState& s, const Profile& p, int side) {
    return side >= 0 && held_objectives(s, p, side).other;
}

// Whether a unit of type `t` belongs to an army marching on the other objectives only
// (Bordeaux, Marseilles: not Paris).
bool marches_on_other(const Profile& p, size_t t) {
    if (p.targets[t].empty()) return false;
    for (int oi : p.targets[t])
        if (oi < static_cast<int>(p.objectives.size()) && p.objectives[static_cast<size_t>(oi)].capital) return false;
    return true;
}

// 8.4, 11.2: whether a unit of `side`'s stack at `at` force-marched this Turn (the cnw series
// marks it with the property `forced_march` until the combat phase ends).
bool force_marched(const core::GameState& s, core::Location at, int side) {
    for (int j : s.stack(at))
        if (s.piece(j).owner == side) {
            const core::Value& v = s.prop(j, "forced_march");
            if (v.is_bool() && v.as_bool()) return true;
        }
    return false;
}

// 10.2: the chance an order passes with Commander rating `cr` and `cc` Combat Commands: a die of
// 2 to 6 (a 1 aborts it) with die + CR + CCs of 7 or more (the cnw series' numbers, as
// combat_values.lua has them: evaluate() cannot afford to ask the rules with forced dice, as the
// choice of CCs does, order_test_choice).
double order_chance(int cr, int cc) {
    int pass = 0;
    for (int die = 2; die <= 6; ++die)
        if (die + cr + cc >= 7) ++pass;
    return pass / 6.0;
}

// 7.6, 10.1: a stack under a forage marker may neither attack nor support an attack.
bool foraging(const core::GameState& s, const Profile& p, core::Location at) {
    if (p.forage_type < 0) return false;
    for (int j : s.stack(at))
        if (s.piece(j).type == p.forage_type) return true;
    return false;
}

// 11.4: whether the hexside between two neighbouring hexes is a river (bridged or not) and
// whether it bars an attack (a lake).
void hexside_between(const core::ModuleDef& d, hex::Hex from, hex::Hex to, bool& river,
                     bool& barred) {
    river = barred = false;
    if (auto dir = hex::direction_between(from, to))
        if (const core::HexsideDef* hs = d.map.find_side(hex::hexside(from, *dir)))
            for (int ty : hs->types) {
                const std::string& id = d.map.hexside_types[static_cast<size_t>(ty)].id;
                barred = barred || id == "lake";
                river = river || id == "river";
            }
}

// A defending stack as an attack on it sees it (11.6-11.7, 11.13-11.14, 11.19).
struct Defenders {
    int ready = 0, disrupted = 0;
    // hits that eliminate every unit (11.18: one a disrupted unit, two a ready one)
    int needed = 0;
    int dv = 0;  // defence value before the die (0: all disrupted, 11.19)
    bool fortified = false, difficult = false;  // 11.4: the hex attacked
};

// 10-11, 11.20: the chance that an attack in this Turn's combat phase on the hex of an escorted
// enemy Napoleon eliminates every combat unit with him and his fate die then ends the game: a 1,
// or certainly when no stack of his side with a combat unit stands within three hexes to escape
// to. Per attacking stack: the order (10.2, with the Turn's CCs) times the chance its final attack
// value beats the escort's final defence value by the hits that eliminate it (two a ready unit,
// one a disrupted one, 11.18; at most twice the attacking units, 11.14). The values as
// combat_values.lua gives them (11.3-11.7), without supports: the units' CFs (1 each, 3.2) and
// combined arms, halved after a forced march (11.2), less 3 across a river, 2 into a fortified
// city without artillery or into forest, marsh or rough ground, 1 into a fortified city with
// artillery (11.4), plus the CR up to the units (11.5); an escort of disrupted units only defends
// with a die (11.19). The evaluation does not see the combat phase a move leads to: seed 39641,
// Turns 7-12, Napoleon stood with one or two units at every combat phase and a Coalition stack
// was next to him at two of the six.
struct EscortTarget {
    hex::Hex nap;
    Defenders def;
    double fate = 1.0;  // his fate die's chance of ending the game
    int cc = 0;         // the attacker's CCs for the Turn
};

int combined_arms(unsigned arms) {  // 11.3, 11.6: by the number of different unit types
    const int n = __builtin_popcount(arms);
    return n >= 3 ? 4 : n == 2 ? 2 : 0;
}

// The combat units of `side` at `h` and what an attack on them needs (11.6-11.7: their CFs,
// combined arms and the CR up to the undisrupted units; no supports).
Defenders defenders_at(const core::GameState& s, const Profile& p, hex::Hex h, int side) {
    const core::ModuleDef& d = s.def();
    Defenders g;
    int cr = 0;
    unsigned arms = 0;
    for (int j : s.stack(core::Location::at(h))) {
        const auto& pc = s.piece(j);
        const size_t t = static_cast<size_t>(pc.type);
        if (side < 0 || pc.owner != side) continue;
        if (p.commander[t]) cr = std::max(cr, p.cr[t]);
        if (!p.unit[t]) continue;
        if (pc.face == p.disrupted_face_of_unit) {
            ++g.disrupted;
        } else {
            ++g.ready;
            arms |= 1u << p.arm[t];
        }
    }
    g.needed = 2 * g.ready + g.disrupted;
    g.dv = g.ready > 0 ? g.ready + combined_arms(arms) + std::min(cr, g.ready) : 0;
    if (const core::HexDef* nd = d.map.find(h)) {
        for (int f : nd->features)
            g.fortified =
                g.fortified || d.map.feature_types[static_cast<size_t>(f)].id == "fortified";
        const std::string& ter = d.map.terrain_types[static_cast<size_t>(nd->terrain)].id;
        g.difficult = ter == "forest" || ter == "marsh" || ter == "rough";
    }
    return g;
}

// 9.1: the attacker's CCs for this Turn's attacks: they are received in the phase before combat;
// until then the track holds what the last Turn left, and the basic number (9.2) is what this
// Turn's attacks will have.
int turn_cc(const core::GameState& s, const Profile& p) {
    const auto cc = s.tracks().find(s.phase < p.combat_phase ? p.cc_track + "_basic" : p.cc_track);
    return cc != s.tracks().end() ? std::max(0, static_cast<int>(cc->second)) : 0;
}

// 11.3-11.5: an attacking stack's final attack value before its supports and its die: its
// undisrupted units' CFs (1 each, 3.2) and combined arms over its halving divisor (11.2), less 3
// across a river, 2 into a fortified city without artillery or into difficult ground, 1 into a
// fortified city with artillery (11.4), plus the CR up to its units (11.5); as combat_values.lua.
int attack_before_die(int units, unsigned arms, int div, bool river, const Defenders& g, int cr) {
    int av = (units + combined_arms(arms)) / div;
    if (river) av -= 3;
    const bool artillery = (arms >> 3 & 1u) != 0;
    if ((g.fortified && !artillery) || g.difficult) av -= 2;
    if (g.fortified && artillery) av -= 1;
    return av + std::min(cr, units);
}

// 11.8, 11.19: the chance that `fav` plus the attacker's die beats the defence value `dv` plus the
// defender's die by `enough` or more.
double win_by_chance(double fav, int dv, int enough) {
    int wins = 0;
    for (int da = 1; da <= 6; ++da)
        for (int dd = 1; dd <= 6; ++dd)
            if (fav + da - (dv + dd) >= enough) ++wins;
    return wins / 36.0;
}

// Napoleon's escort at `nap` as an attack on it sees it; false if no combat unit is with him.
bool escort_target(const core::GameState& s, const Profile& p, hex::Hex nap, int nap_owner,
                   EscortTarget& e) {
    e.def = defenders_at(s, p, nap, nap_owner);
    if (e.def.ready + e.def.disrupted == 0) return false;
    e.nap = nap;
    e.fate = 1.0;  // 11.20: a stack of his side with a combat unit within three hexes to escape to
    for (const auto& [loc, ids] : s.stacks())
        if (loc.is_hex() && loc.hex != nap && hex::distance(loc.hex, nap) <= 3 &&
            has_unit(s, p, loc, nap_owner)) {
            e.fate = 1.0 / 6.0;
            break;
        }
    e.cc = turn_cc(s, p);
    return true;
}

// The chance an attack from `from` (the attacker's pieces there, and those at `joining` as if they
// had moved there) eliminates the escort and ends the game; 0 if that stack may not attack (10.1:
// a disrupted unit, a forage marker at `from`) or the hexside forbids it.
double escort_strike_from(const core::GameState& s, const Profile& p, const EscortTarget& e,
                          hex::Hex from, std::optional<core::Location> joining, int att_idx) {
    const core::ModuleDef& d = s.def();
    int units = 0, cr = 0;
    unsigned arms = 0;
    bool held_back = false, marched = false;
    auto gather = [&](core::Location at) {
        for (int j : s.stack(at)) {
            const auto& pc = s.piece(j);
            const size_t t = static_cast<size_t>(pc.type);
            if (pc.owner != att_idx) continue;
            cr = std::max(cr, p.cr[t]);
            if (!p.unit[t]) continue;
            if (pc.face == p.disrupted_face_of_unit) held_back = true;
            ++units;
            arms |= 1u << p.arm[t];
        }
        marched = marched || force_marched(s, at, att_idx);
    };
    gather(core::Location::at(from));
    if (joining) gather(*joining);
    if (units == 0 || held_back || foraging(s, p, core::Location::at(from)) ||
        e.def.needed > 2 * units)
        return 0;
    bool river = false, barred = false;
    hexside_between(d, from, e.nap, river, barred);
    if (barred) return 0;
    const int av = attack_before_die(units, arms, marched ? 2 : 1, river, e.def, cr);
    return order_chance(cr, e.cc) * win_by_chance(av, e.def.dv, e.def.needed) * e.fate;
}

// The best such chance over the attacker's stacks next to Napoleon's hex.
double escort_strike_chance(const core::GameState& s, const Profile& p, hex::Hex nap, int att_idx,
                            int nap_owner) {
    EscortTarget e;
    if (!escort_target(s, p, nap, nap_owner, e)) return 0;
    double best = 0;
    for (const hex::Hex& a : hex::neighbours(nap))
        best = std::max(best, escort_strike_from(s, p, e, a, std::nullopt, att_idx));
    return best;
}

// 11.2 bp3: a stack's halving divisor this Turn (a forced march, force_marched; its combats so
// far: 2 or 4).
int halving_divisor(const core::GameState& s, core::Location at, int side) {
    const bool fm = force_marched(s, at, side);
    int most = 0;
    for (int j : s.stack(at)) {
        if (s.piece(j).owner != side) continue;
        const core::Value& c = s.prop(j, "combats");
        if (c.is_int()) most = std::max(most, static_cast<int>(c.as_int()));
    }
    return most >= 2 || (fm && most >= 1) ? 4 : fm || most >= 1 ? 2 : 1;
}

// 10-11, 14.4: the chance that one attack this Turn takes the objective at `target` from its
// garrison, by the best stack of `att_idx` next to it that may attack (10.1: every unit
// undisrupted, no forage marker), with the other stacks next to it as supports (10.3-10.4, 11.5),
// all `cc` Combat Commands behind it: the order passes (10.2), and the final attack value beats the
// final defence value (11.3-11.7; a garrison of disrupted units only: one die, 11.19) by enough to
// force the garrison out (11.12: three) or to eliminate it (11.13-11.14: a hit per disrupted unit,
// two per undisrupted one, at most two per undisrupted unit of the attack). The numbers are the
// cnw series' (combat_values.lua), the defender's supports left out. 0 for an empty hex (it is
// entered, not attacked).
double take_chance(const core::GameState& s, const Profile& p, hex::Hex target, const Defenders& g,
                   int att_idx, int cc) {
    const core::ModuleDef& d = s.def();
    if (g.ready + g.disrupted == 0) return 0;
    struct Stack {
        hex::Hex at;
        int und = 0, cr = 0, conscripts = 0, div = 1;
        unsigned arms = 0;
        bool held_back = false, river = false, commander = false;
    };
    std::vector<Stack> stacks;
    for (const hex::Hex& a : hex::neighbours(target)) {
        const core::Location at = core::Location::at(a);
        if (foraging(s, p, at)) continue;  // 10.1: neither attacks nor supports
        Stack st;
        st.at = a;
        for (int j : s.stack(at)) {
            const auto& pc = s.piece(j);
            const size_t t = static_cast<size_t>(pc.type);
            if (pc.owner != att_idx) continue;
            if (p.commander[t]) {
                st.commander = true;
                st.cr = std::max(st.cr, p.cr[t]);
            }
            if (!p.unit[t]) continue;
            if (pc.face == p.disrupted_face_of_unit) {
                st.held_back = true;
                continue;
            }
            ++st.und;
            st.arms |= 1u << p.arm[t];
            if (p.of2[t] >= 4) ++st.conscripts;  // (OF 2: the conscripts, 3.2)
        }
        if (st.und == 0) continue;
        bool barred = false;
        hexside_between(d, a, target, st.river, barred);
        if (barred) continue;
        st.div = halving_divisor(s, at, att_idx);
        stacks.push_back(st);
    }
    double best = 0;
    for (const Stack& m : stacks) {
        if (m.held_back) continue;  // 10.1: it may only support
        double fav = attack_before_die(m.und, m.arms, m.div, m.river, g, m.cr);
        int attackers = m.und;
        for (const Stack& o : stacks) {  // 10.4, 11.5: each support at the chance its test passes
            if (&o == &m) continue;
            double v = static_cast<double>(o.und / o.div) - (o.river ? 2 : 0) -
                       ((g.fortified && !(o.arms >> 3 & 1u)) || g.difficult ? 1 : 0) +
                       (o.commander ? 1 : 0);
            if (v <= 0) continue;  // (called upon only where it helps)
            int join = 0;
            for (int die = 1; die <= 6; ++die)
                if (die + o.cr + cc - o.conscripts >= 7) ++join;
            fav += v * join / 6.0;
            if (join > 0) attackers += o.und;
        }
        // (11.12-11.14: a win by three forces the garrison out; fewer hits may eliminate it)
        const int enough = g.needed <= 2 * attackers ? std::min(3, g.needed) : 3;
        best = std::max(best, order_chance(m.cr, cc) * win_by_chance(fav, g.dv, enough));
    }
    return best;
}

// Whether `h` is one of the attacker's objectives (14.4: Paris, Bordeaux, Marseilles).
bool objective_hex_of(const Profile& p, hex::Hex h) {
    for (const auto& o : p.objectives)
        if (o.hex == h) return true;
    return false;
}

// Whether `h` is a city with a depot of `side` (7.6 note: its stack neither forages nor counts).
bool depot_city(const core::GameState& s, const Profile& p, hex::Hex h, int side) {
    if (!p.cities.count(key(h))) return false;
    for (int j : s.stack(core::Location::at(h))) {
        const auto& pc = s.piece(j);
        const size_t t = static_cast<size_t>(pc.type);
        if (pc.owner == side && p.depot_face[t] >= 0 && pc.face == p.depot_face[t]) return true;
    }
    return false;
}

// A genuine Supply Train counter on the map as a train (7.3: allocated, not spent yet), not
// turned into a depot (7.7: the same counter, face up).
bool supply_train(const Profile& p, const core::Piece& pc) {
    const size_t t = static_cast<size_t>(pc.type);
    return p.genuine_train[t] && pc.loc.is_hex() && pc.face != p.depot_face[t];
}

// 7.6 (b), 6.3: the chance that the stack of `side` at `h` fails to forage this Turn if it gets no
// Supply Train: it gets a forage marker when it stands next to two or more friendly stacks with
// combat units (a stack in a city with its side's depot neither forages nor counts; one made only
// of units deemed in supply, 6.6, is ignored), and fails on a die at most its combat units.
double forage_failure_chance(const core::GameState& s, const Profile& p, hex::Hex h, int side) {
    if (!p.forage_rule || depot_city(s, p, h, side)) return 0;
    auto counts = [&](hex::Hex x, int& units) {  // whether the stack at x counts for 7.6
        bool supplied_only = true;
        units = 0;
        for (int j : s.stack(core::Location::at(x))) {
            const auto& pc = s.piece(j);
            const size_t t = static_cast<size_t>(pc.type);
            if (pc.owner != side || !p.unit[t]) continue;
            ++units;
            if (!p.deemed_supplied[t]) supplied_only = false;
        }
        return units > 0 && !supplied_only;
    };
    int units = 0;
    if (!counts(h, units)) return 0;
    int near = 0;
    for (const hex::Hex n : hex::neighbours(h)) {
        int nu = 0;
        if (counts(n, nu) && !depot_city(s, p, n, side)) ++near;
    }
    return near >= 2 ? std::min(units, 6) / 6.0 : 0.0;
}

// The attacker's nearest unit on the map to each objective, in hexes (99: none), among the units
// `counts` accepts (those in supply: a spearhead cut off is disrupted at the next supply phase,
// 6.4, and can neither move nor attack; on the last Turn any unit, as 14.4 counts occupation).
template <typename Counts>
std::vector<int> leads(const core::GameState& s, const Profile& p, int att_idx, Counts counts) {
    std::vector<int> lead(p.objectives.size(), 99);
    for (const auto& pc : s.pieces()) {
        if (pc.owner != att_idx || !pc.loc.is_hex() || !p.unit[static_cast<size_t>(pc.type)]) continue;
        if (!p.deemed_supplied[static_cast<size_t>(pc.type)] && !counts(pc.loc.hex)) continue;
        for (size_t oi = 0; oi < p.objectives.size(); ++oi) lead[oi] = std::min(lead[oi], dist_to(p.objectives[oi], pc.loc.hex));
    }
    return lead;
}

// The lead term for the given distances: the capital's leader plus the best of the others'.
double lead_value(const Profile& p, const std::vector<int>& lead) {
    int capital = kLeadCap, other = kLeadCap;
    bool has_other = false;
    for (size_t oi = 0; oi < p.objectives.size(); ++oi) {
        if (p.objectives[oi].capital) capital = std::min(capital, lead[oi]);
        else {
            other = std::min(other, lead[oi]);
            has_other = true;
        }
    }
    return -kLeadPerHex * (std::min(capital, kLeadCap) + (has_other ? std::min(other, kLeadCap) : 0));
}

// Hexes from `h` to the objective of a unit of type `t`: its army's, else the nearest (Paris,
// the capital, counted at 2/3 of its distance).
int target_distance(const Profile& p, size_t t, hex::Hex h, bool other_held = false) {
    int best = 99;
    // 14.4: once the attacker holds Bordeaux or Marseilles, the armies marching on them have done
    // their part: their marches gain nothing more, and the trains go to the march on Paris (seed
    // 174220, Turn 10: Bordeaux held, three of six trains went to Wellington's stacks in Spain
    // while the main army's stacks stood on the Rhine). Should the enemy retake it, the distances
    // count again.
    if (other_held && marches_on_other(p, t)) return 0;
    if (!p.targets[t].empty()) {
        for (int oi : p.targets[t])
            if (oi < static_cast<int>(p.objectives.size())) best = std::min(best, dist_to(p.objectives[static_cast<size_t>(oi)], h));
        return best;
    }
    for (const auto& o : p.objectives) {
        const int dd = o.capital ? dist_to(o, h) : (dist_to(o, h) * 3 + 1) / 2;
        best = std::min(best, dd);
    }
    return best;
}

// The module's real supply status (rules.ai_features, 6.1-6.2): side index -> keys of the hexes
// holding that side's out-of-supply stacks. False when the module exports no ai_features (or it
// failed): the caller falls back on the distance approximation.
// The supply status depends only on where the pieces are and on which face (depots, disrupted
// cavalry) and on the season: positions that differ only in commanders, markers or the decision
// share it. Cached per decision (set_feature_rules clears it), so the Lua trace runs once per
// distinct position.
thread_local std::unordered_map<std::uint64_t, std::map<int, std::set<std::int64_t>>> g_supply_cache;
thread_local std::uint64_t g_supply_hits = 0, g_supply_misses = 0;
thread_local double g_supply_seconds = 0;

std::uint64_t supply_key(const core::GameState& s, const std::vector<bool>& commander) {
    std::uint64_t h = 1469598103934665603ull ^ static_cast<std::uint64_t>(s.turn);
    auto mix = [&h](std::uint64_t v) {
        h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h *= 1099511628211ull;
    };
    for (int i = 0; i < s.piece_count(); ++i) {
        const auto& pc = s.piece(i);
        if (pc.owner < 0 || !pc.loc.is_hex() || commander[static_cast<size_t>(pc.type)]) continue;
        mix(static_cast<std::uint64_t>(i) * 31 + static_cast<std::uint64_t>(pc.type));
        mix(static_cast<std::uint64_t>(key(pc.loc.hex)));
        mix(static_cast<std::uint64_t>(pc.face) * 7 + static_cast<std::uint64_t>(pc.owner));
    }
    return h;
}

// The supply field of each side traced once at the decision's root (rules.ai_supply_field), and
// the stacks in supply there: the search judges the positions it reaches against them (a stack
// is in supply where the root's field reaches, or where it already was in supply), instead of
// tracing each position. Depots change the field: depot_value traces exactly (g_exact).
struct SupplyRoot {
    bool set = false;
    std::map<int, std::unordered_set<std::int64_t>> field, in;
    std::map<int, std::unordered_set<std::int64_t>> besieged;  // stacks that cannot move (8.4)
    std::map<int, std::vector<hex::Hex>> field_hexes;
    // 12.1, 6.2 (RULINGS S-4, M-27): per side, per depot of its on an enemy city with none of its
    // pieces there and an enemy Commander within his 12.1 reach: the hexes in supply at the root
    // that the rules' field leaves out once that Commander stands on the depot. Traced,
    // because the other sources' routes may be cut by rivers and enemy cities that hex distance
    // cannot see (seed 31731, Turn 7: Grouchy on the depot at 4722, thirteen Bohemian units
    // disrupted at the next supply phase, which distance judged supplied from the depot at 4622)
    std::map<int, std::map<std::int64_t, std::unordered_set<std::int64_t>>> raid_cut;
};
thread_local SupplyRoot g_root;
// Whether `side`'s stack at `h` counts as in supply against the root's field (above); true when
// no root is set (the caller then cannot tell, and does not hold it against the stack)
bool in_root_supply(int side, hex::Hex h) {
    return !g_root.set || g_root.field[side].count(key(h)) > 0 || g_root.in[side].count(key(h)) > 0;
}
// While a depot of the attacker's is converted or removed (7.1, 7.2): the depots it had before,
// which the frontier term keeps measuring from (set_frontier_depots)
thread_local std::optional<std::map<int, std::vector<hex::Hex>>> g_frontier_depots;
thread_local bool g_exact = false;
// Combats can open the attacker's supply routes (6.2: no route through an enemy stack): while
// set (set_field_tracing), evaluate() traces the attacker's supply field of each position it
// judges and counts the reach gained over the root's field (memoized per position).
thread_local bool g_trace_field = false;
thread_local const DepotPlan* g_plan = nullptr;
// memo of site_gain: (Turn, depot net, site) -> gain; the deciding bot's own (set_site_memo)
thread_local SiteMemo* g_site_memo = nullptr;
// A position's own traced field (rules.ai_supply_field): its hexes, and what its reach gains over
// the root's (kLeadPerHex per hex, lead_value). Memoized per position (supply_key).
struct TracedField {
    bool ok = false;
    std::unordered_set<std::int64_t> hexes;
    double gain = 0;
};
thread_local std::unordered_map<std::uint64_t, TracedField> g_field_memo;
// depot_value's gain from the root's field by hex distance (cheap, but blind to terrain and
// rivers: off), or from the real trace (only near units out of supply)
constexpr bool g_depot_approx = false;

bool real_supply(const core::GameState& s, std::map<int, std::set<std::int64_t>>& out,
                 const std::vector<bool>& commander) {
    script::RulesHost* r = g_feature_rules;
    if (!r || &r->def() != &s.def() || !r->has_function("ai_features")) return false;
    const core::ModuleDef& d = s.def();
    const std::uint64_t ck = supply_key(s, commander);
    if (auto it = g_supply_cache.find(ck); it != g_supply_cache.end()) {
        ++g_supply_hits;
        out = it->second;
        return true;
    }
    ++g_supply_misses;
    const auto t0 = std::chrono::steady_clock::now();
    struct Clock {
        std::chrono::steady_clock::time_point t0;
        ~Clock() { g_supply_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); }
    } clock{t0};
    try {
        core::GameState c = s;
        for (size_t si = 0; si < d.sides.size(); ++si) {
            const core::Value v = r->call(c, "ai_features", {core::Value(d.sides[si].id)});
            if (!v.is_object()) return false;
            auto it = v.as_object().find("out_of_supply");
            if (it == v.as_object().end() || !it->second.is_object()) continue;
            for (const auto& [label, flag] : it->second.as_object()) {
                (void)flag;
                if (auto h = d.map.parse_label(label)) out[static_cast<int>(si)].insert(key(*h));
            }
        }
    } catch (const std::exception& e) {
        static bool told = false;
        if (!told && std::getenv("VEDETTE_AI_DEBUG")) {
            told = true;
            std::fprintf(stderr, "[ai] rules.ai_features failed (distance approximation used): %s\n", e.what());
        }
        out.clear();
        return false;
    }
    if (g_supply_cache.size() > 20000) g_supply_cache.clear();
    g_supply_cache.emplace(ck, out);
    return true;
}

}  // namespace

void set_feature_rules(script::RulesHost* rules) {
    g_feature_rules = rules;
    g_supply_cache.clear();
}

void set_depot_plan(const DepotPlan* plan) { g_plan = plan; }

void set_frontier_depots(const core::GameState* before) {
    g_frontier_depots.reset();
    if (!before) return;
    g_frontier_depots.emplace();
    add_depot_hexes(*before, profile(before->def()), *g_frontier_depots);
}

void set_site_memo(SiteMemo* memo) { g_site_memo = memo; }

void set_field_tracing(bool on) {
    g_trace_field = on;
    g_field_memo.clear();
}

// Fills g_root.raid_cut (above) for the root `root`, its fields already traced.
void trace_raid_cuts(const core::GameState& root, script::RulesHost& r) {
    // Not while trains are allocated and depots made (the `supply.` steps, 7.3-7.8): a depot made
    // this Turn changes the field the cut was traced on, and the value of a depot is weighed
    // against the stack's move (depot_value, move_gain) with the distance stand-in on both sides
    if (root.decision.step.rfind("supply.", 0) == 0) return;
    const core::ModuleDef& d = root.def();
    const Profile& p = profile(d);
    std::map<int, std::vector<hex::Hex>> depots;
    add_depot_hexes(root, p, depots);
    for (const auto& [side, hexes] : depots) {
        for (const hex::Hex& dh : hexes) {
            if (!enemy_city(d, side, dh)) continue;  // not an end the enemy's 12.1 allows
            if (depot_guarded(root, p, dh, side)) continue;
            int raider = -1, nearest = kCommanderReach + 1;  // the nearest enemy Commander in reach
            for (int i = 0; i < root.piece_count(); ++i) {
                const auto& pc = root.piece(i);
                if (pc.owner < 0 || pc.owner == side || !pc.loc.is_hex() ||
                    !p.commander[static_cast<size_t>(pc.type)])
                    continue;
                const int dist = hex::distance(pc.loc.hex, dh);
                if (dist < nearest) nearest = dist, raider = i;
            }
            if (raider < 0) continue;
            core::GameState c = root;
            c.move_piece(raider, core::Location::at(dh));
            const core::Value f =
                r.call(c, "ai_supply_field", {core::Value(d.sides[static_cast<size_t>(side)].id)});
            if (!f.is_object()) continue;
            std::unordered_set<std::int64_t> after;
            for (const auto& [label, flag] : f.as_object()) {
                (void)flag;
                if (auto h = d.map.parse_label(label)) after.insert(key(*h));
            }
            // every hex of the root's field (and stack in supply) the raided field leaves out, not
            // only where units stand now: a stack that moves from one such hex to another is as
            // exposed as before (by the units' hexes alone, every move looked safer than staying)
            auto& cut =
                g_root.raid_cut[side][key(dh)];  // an entry, even empty: the depot was traced
            for (const auto* from : {&g_root.field[side], &g_root.in[side]})
                for (const std::int64_t k : *from)
                    if (!after.count(k)) cut.insert(k);
        }
    }
}

void set_supply_root(const core::GameState* root) {
    g_root = {};
    script::RulesHost* r = g_feature_rules;
    if (!root || !r || &r->def() != &root->def() || !r->has_function("ai_supply_field") ||
        !r->has_function("ai_features"))
        return;
    const core::ModuleDef& d = root->def();
    try {
        core::GameState c = *root;
        for (size_t si = 0; si < d.sides.size(); ++si) {
            const int side = static_cast<int>(si);
            const core::Value f = r->call(c, "ai_supply_field", {core::Value(d.sides[si].id)});
            const core::Value v = r->call(c, "ai_features", {core::Value(d.sides[si].id)});
            if (!f.is_object() || !v.is_object()) return;
            for (const auto& [label, flag] : f.as_object()) {
                (void)flag;
                if (auto h = d.map.parse_label(label)) {
                    g_root.field[side].insert(key(*h));
                    g_root.field_hexes[side].push_back(*h);
                }
            }
            auto it = v.as_object().find("in_supply");
            if (it != v.as_object().end() && it->second.is_object())
                for (const auto& [label, flag] : it->second.as_object()) {
                    (void)flag;
                    if (auto h = d.map.parse_label(label)) g_root.in[side].insert(key(*h));
                }
            auto b = v.as_object().find("besieged");  // (optional)
            if (b != v.as_object().end() && b->second.is_object())
                for (const auto& [label, flag] : b->second.as_object()) {
                    (void)flag;
                    if (auto h = d.map.parse_label(label)) g_root.besieged[side].insert(key(*h));
                }
        }
        trace_raid_cuts(*root, *r);
    } catch (const std::exception&) {
        g_root = {};
        return;
    }
    g_root.set = true;
}

std::pair<std::uint64_t, std::uint64_t> supply_cache_stats() { return {g_supply_hits, g_supply_misses}; }
double supply_trace_seconds() { return g_supply_seconds; }

std::string Evaluation::describe() const {
    char buf[240];
    std::snprintf(buf, sizeof buf, "total %.1f = material %.1f + objectives %.1f + cities %.1f + napoleon %.1f + trains %.1f + command %.1f + supply %.1f + length %.1f",
                  total, material, objectives, cities, napoleon, trains, command, supply, length);
    return buf;
}

std::string result_kind(const std::string& result) {
    std::string kind = result.substr(0, result.find(':'));
    const size_t open = result.rfind('(');
    if (open != std::string::npos && open > kind.size() && result.back() == ')')
        kind += " " + result.substr(open);
    return kind;
}

std::string winner_of(const core::ModuleDef& def, const std::string& result) {
    if (result.empty()) return {};
    std::string low = result;
    std::transform(low.begin(), low.end(), low.begin(), [](unsigned char c) { return std::tolower(c); });
    std::string best;
    size_t best_pos = std::string::npos;
    for (const auto& side : def.sides) {
        std::string id = side.id, name = side.name;
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
        for (const std::string& w : {id, name}) {
            if (w.empty()) continue;
            const size_t pos = low.find(w + " win");
            if (pos != std::string::npos && pos < best_pos) {
                best_pos = pos;
                best = side.id;
            }
        }
    }
    return best;
}

std::vector<int> field_leads(const Profile& p, int side, const core::GameState* state);

// What a depot at the city `h` (held by a stack of the attacker `side`) would add to its supply
// field's reach (field_lead_gain, traced exactly), memoized per Turn and depot net; 0 where the
// rules would not let a depot be made now (7.7-7.8).
double site_gain(const core::GameState& s, const Profile& p, int side, hex::Hex h);
// The share of a depot site's gain (site_gain) a stack holding the city earns: the depot is made
// only at the next supply phase (7.7), with a train.
constexpr double kSiteShare = 0.5;

bool trace_field(const core::GameState& state, int side, std::vector<hex::Hex>& out);
std::vector<int> leads_of(const Profile& p, const std::vector<hex::Hex>& field);

// The attacker's supply field traced on `s` (memoized per position); null when it cannot be.
const TracedField* traced_field(const core::GameState& s, const Profile& p, int side) {
    const std::uint64_t k = supply_key(s, p.commander);
    auto it = g_field_memo.find(k);
    if (it == g_field_memo.end()) {
        TracedField f;
        std::vector<hex::Hex> field;
        if (trace_field(s, side, field)) {
            f.ok = true;
            for (const hex::Hex& h : field) f.hexes.insert(key(h));
            const std::vector<int> now = field_leads(p, side, nullptr), after = leads_of(p, field);
            f.gain = now.empty() || after.size() != now.size() ? 0.0 : lead_value(p, after) - lead_value(p, now);
        }
        if (g_field_memo.size() > 5000) g_field_memo.clear();
        it = g_field_memo.emplace(k, std::move(f)).first;
    }
    return it->second.ok ? &it->second : nullptr;
}

// A side's attacks are over for this Turn: the combat phase ended, or it declined further attacks
// or failed an order (10.6, 10.2 b; the cnw series marks that with `attacks_closed_<side>`,
// `closed_var`, reset when the phase begins).
bool attacks_over(const core::GameState& s, const Profile& p, const std::string& closed_var) {
    const core::Value& closed = s.var(closed_var);
    return p.combat_phase >= 0 &&
           (s.phase > p.combat_phase || (s.phase == p.combat_phase && closed.is_bool() && closed.as_bool()));
}

Evaluation evaluate(const core::GameState& s, const std::string& role) {
    const core::ModuleDef& d = s.def();
    const Profile& p = profile(d);
    Evaluation e;
    if (!s.result.empty()) {
        const std::string w = winner_of(d, s.result);
        e.total = w.empty() ? 0 : (w == role ? 1e6 : -1e6);
        return e;
    }
    const int role_idx = d.side_index(role);
    const int att_idx = p.attacker.empty() ? -1 : d.side_index(p.attacker);
    double obj_att = 0, cities_att = 0, nap = 0;
    bool paris = false, south = false;
    int nap_hex_own2 = 0;
    std::optional<hex::Hex> nap_hex;
    int nap_owner = -1;
    std::map<std::int64_t, int> enemy_of2_at;  // attacker OF near Napoleon
    std::map<std::int64_t, hex::Hex> held_cities;  // the attacker's cities in supply
    const bool other_held = att_idx >= 0 && holds_other_objective(s, p, att_idx);
    // 6.1-6.2: the module's own trace (rules.ai_features) when it exports one; otherwise,
    // approximately: a unit is in supply within the supply range (5 hexes, 3 in
    // Winter) of one of its side's depots or Ultimate Supply Sources (terrain, enemy units and
    // depot chains are ignored: a cheap stand-in for the rules' trace).
    std::map<int, std::vector<hex::Hex>> depots;  // each side's depots (the raid term below reads them too)
    add_depot_hexes(s, p, depots);
    std::map<int, std::vector<hex::Hex>> sources = p.uss;
    for (const auto& [side, hexes] : depots) sources[side].insert(sources[side].end(), hexes.begin(), hexes.end());
    const bool in_winter = winter(s);
    const int range = in_winter ? 3 : 5;
    // 6.4 strikes at the next Turn's supply phase: a unit out of supply at the end of the last
    // Turn loses nothing. Before that, a unit disrupted at the start of the last Turn can neither
    // move nor attack in it (8.4, 10.1): full cost, unless it stands on an objective, which 14.4
    // counts by occupation alone (there the cost falls over the last three Turns).
    const int length = game_length(s);
    const double supply_scale = length > 0 && s.turn >= length ? 0.0 : 1.0;
    const double objective_supply_scale = length > 0 ? std::clamp((length - s.turn) / 3.0, 0.0, 1.0) : 1.0;
    const bool winter_attacker = role_idx == att_idx && in_winter;  // unsupplied_cost; the defender's view unchanged
    std::map<int, std::set<std::int64_t>> unsupplied;
    const bool approx = g_root.set && !g_exact;
    const bool real = !approx && real_supply(s, unsupplied, p.commander);
    // While the attacker's fields are traced (set_field_tracing), its units are judged against the
    // position's own field, not the root's: a stack that leaves an enemy city it held cuts the
    // routes through that city (6.2), and the root's field cannot see it (seed 110868, Turn 9:
    // the last unit to advance out of Saint-Dizier left the whole Russian Guard at Vitry out of
    // supply; disrupted at the next supply phase, it never moved again, 7.3, 8.4). Units supplied
    // in place (where the root's stacks were in supply off its field) keep that.
    const TracedField* field = g_trace_field && att_idx >= 0 && !p.objectives.empty() ? traced_field(s, p, att_idx) : nullptr;
    auto supplied = [&](int side, hex::Hex h) {
        if (field && side == att_idx && approx)
            return field->hexes.count(key(h)) > 0 || (g_root.in[side].count(key(h)) > 0 && g_root.field[side].count(key(h)) == 0);
        if (approx) return in_root_supply(side, h);
        if (real) return unsupplied[side].count(key(h)) == 0;
        for (const hex::Hex& src : sources[side])
            if (hex::distance(src, h) <= range) return true;
        return false;
    };
    // 14.12: Bernadotte or a Swedish unit west of the Rhine cuts the game to 10 Turns: two Turns
    // fewer for the Coalition to reach its objectives. Once crossed, every position shares it.
    const bool crossed =
        s.var("bernadotte_crossed").is_bool() && s.var("bernadotte_crossed").as_bool();
    bool shortened = false;
    for (const auto& pc : s.pieces()) {
        if (pc.owner < 0) continue;
        const size_t t = static_cast<size_t>(pc.type);
        if (p.shortens_game[t] && pc.owner == att_idx && pc.loc.is_hex() && p.east_of_rhine &&
            !d.map.in_region(pc.loc.hex, "east_of_rhine"))
            shortened = true;
        if (p.napoleon[t] && pc.loc.is_hex()) {
            nap_hex = pc.loc.hex;
            nap_owner = pc.owner;
        }
        if (p.unit[t] && !p.deemed_supplied[t] && pc.loc.is_hex() && !supplied(pc.owner, pc.loc.hex)) {
            // 6.4: disrupted at the next supply phase; a unit already disrupted may be eliminated
            const double scale = objective_hex_of(p, pc.loc.hex) ? objective_supply_scale : supply_scale;
            const double w = scale * unsupplied_cost(p, t, pc.face == p.disrupted_face_of_unit, winter_attacker && pc.owner == att_idx);
            e.supply += pc.owner == role_idx ? -w : w;
        }
        if (p.genuine_train[t] && pc.loc.is_hex()) {
            const bool depot = p.depot_face[t] >= 0 && pc.face == p.depot_face[t];
            // 7.2: each depot on the map costs a Supply Train in every later Turn
            if (depot) e.trains -= pc.owner == role_idx ? kDepotUpkeep : 0.0;
            else e.trains += pc.owner == role_idx ? 1.5 : -1.5;
        }
        if (!p.unit[t]) continue;
        if (!pc.loc.is_hex()) {
            // not on the map (to come, or eliminated): as far from the objectives as can be
            // (eliminated: counted as 12 hexes away, so a march that risks a unit (8.7) still
            // pays when it brings the stack 3 hexes nearer)
            const bool lost = pc.loc.is_box() && pc.loc.box == p.eliminated_box;
            if (pc.owner == att_idx && !p.objectives.empty())
                obj_att -= kObjectivePerHex * (lost ? 12 : 30) * (0.5 + p.of2[t] / 8.0);
            // 6.4: a unit eliminated is at least as lost as one disrupted and out of supply, so it
            // carries that unit's supply cost too; otherwise destroying a starving enemy stack
            // looked worse than leaving it to starve (seed 142544: Wellington never attacked
            // Soult's disrupted stacks at Bayonne, -195 supply against +26 material)
            if (lost && !p.deemed_supplied[t]) {
                const double w = supply_scale * kOutOfSupply * (1.0 + p.of2[t] / 4.0) * 2.0;
                e.supply += pc.owner == role_idx ? -w : w;
            }
            continue;
        }
        const double v = p.of2[t] * (pc.face == p.disrupted_face_of_unit ? 0.6 : 1.0) + 1.0;
        e.material += pc.owner == role_idx ? v : -v;
        if (pc.owner == att_idx && !p.objectives.empty()) {
            // The attacker's units march on their army's objective (or the nearest, Paris
            // counted nearer); every hex nearer counts, so a march pays against a short spell
            // out of supply.
            const int dd = target_distance(p, t, pc.loc.hex, other_held);
            for (const auto& o : p.objectives)
                if (dist_to(o, pc.loc.hex) == 0) (o.capital ? paris : south) = true;
            obj_att -= kObjectivePerHex * std::min(dd, 30) * (0.5 + p.of2[t] / 8.0);
            if (p.cities.count(key(pc.loc.hex)) && supplied(pc.owner, pc.loc.hex)) held_cities.emplace(key(pc.loc.hex), pc.loc.hex);
        }
    }
    // 7.7-7.8: a city the attacker holds in supply beyond its depot net is where the net can grow
    // next Turn (a depot in an unfriendly city needs a friendly stack): worth holding. While a
    // depot is converted (7.1), measured from the depots before it: giving up the net's front is
    // no gain (seed 23758: the depot made at 4623 on Turn 6 was converted on Turn 7 for the
    // frontier's +32, and the chain stood still).
    if (att_idx >= 0 && !held_cities.empty()) {
        for (const auto& [ck, c] : held_cities) {
            (void)ck;
            double best = 0;
            for (size_t oi = 0; oi < p.objectives.size(); ++oi) {
                int frontier = 99;
                for (const hex::Hex& src : sources[att_idx]) frontier = std::min(frontier, dist_to(p.objectives[oi], src));
                if (g_frontier_depots)
                    if (auto f = g_frontier_depots->find(att_idx); f != g_frontier_depots->end())
                        for (const hex::Hex& src : f->second) frontier = std::min(frontier, dist_to(p.objectives[oi], src));
                best = std::max(best, static_cast<double>(std::min(5, frontier - dist_to(p.objectives[oi], c))));
            }
            obj_att += kFrontierCity * best;
        }
    }
    if (att_idx >= 0 && !p.objectives.empty() && (g_root.set || g_feature_rules) && !g_frontier_depots) {
        // a city held where a depot would carry the supply field nearer the objectives (7.7-7.8)
        // (not while a depot is converted: the stacks stand still, and a depot given up would
        // make its own city such a site)
        double best_site = 0;
        std::set<std::int64_t> seen;
        for (const auto& pc : s.pieces()) {
            if (pc.owner != att_idx || !pc.loc.is_hex() || !p.unit[static_cast<size_t>(pc.type)]) continue;
            const std::int64_t k = key(pc.loc.hex);
            if (!p.cities.count(k) || !seen.insert(k).second) continue;
            best_site = std::max(best_site, site_gain(s, p, att_idx, pc.loc.hex));
        }
        obj_att += kSiteShare * best_site;
        if (field) obj_att += field->gain;
    }
    if (att_idx >= 0 && !p.objectives.empty()) {
        const bool any = length > 0 && length - s.turn <= 0;
        obj_att += lead_value(p, leads(s, p, att_idx, [&](hex::Hex h) { return any || supplied(att_idx, h); }));
        // 14.4 on the last two Turns: an objective the attacker does not hold yet is taken by an
        // attack (10-11) from the hexes around it; undisrupted units there (in supply, or on the
        // last Turn any: 6.4 disrupts only at the next supply phase) are worth their strength
        const unsigned decisive = decisive_objectives(s, p, att_idx);
        const bool one_short = decisive != 0;
        // The force next to an objective is worth something only while it can still attack: once
        // the Turn's combat phase is over, the last Turn's assault is worth nothing, and a strike
        // at Paris waits for the next Turn (the ordinary weight). Otherwise passing kept the force's
        // value and an attack risked it: on seed 79192, Turn 12, the stack next to Paris passed.
        // (10.6, 10.2 b: so is it once the attacker declined further attacks or failed an order;
        // the cnw series marks that with `attacks_closed_<side>`, reset when the phase begins)
        const bool combat_over = attacks_over(s, p, p.attacks_closed_var);
        const bool last_assault = last_two_turns(s);
        if ((last_assault || one_short) && !(any && combat_over)) {
            std::vector<double> force(p.objectives.size(), 0);
            std::vector<double> support(p.objectives.size(), 0);  // of stacks that may only support (10.1, 10.4)
            std::vector<int> best_cr(p.objectives.size(), 0);  // 10.2: the order test adds the highest CR
            for (const auto& pc : s.pieces()) {
                const size_t t = static_cast<size_t>(pc.type);
                if (pc.owner != att_idx || !pc.loc.is_hex() || !p.unit[t] || pc.face == p.disrupted_face_of_unit) continue;
                bool next_to = false;  // (the cheap test first: this runs for every position judged)
                for (const auto& o : p.objectives) next_to = next_to || hex::distance(pc.loc.hex, o.hex) == 1;
                if (!next_to) continue;
                const bool in_supply = p.deemed_supplied[t] || supplied(att_idx, pc.loc.hex);
                // (one objective short, the game is won at this Turn's end: supply matters not)
                if (!any && !one_short && !in_supply) continue;
                if (foraging(s, p, pc.loc)) continue;  // 10.1: it may neither attack nor support
                // 10.1: every unit of an attacking stack must be undisrupted: one disrupted unit
                // holds the whole stack back (no rally comes before this Turn's combat once the
                // moves have begun, 8.1-8.2); it may still support another stack's attack (10.3-
                // 10.4; its undisrupted units add to the attack value, C-8). Counted as the
                // attack's force, the planner stacked undisrupted units onto a disrupted one next
                // to Paris: seed 31719, Turn 12, Barclay's Guard joined a disrupted Cossack unit
                // at 5321 and the three disrupted defenders of Paris were never attacked; in 9 of
                // 25 losses the only undisrupted units next to Paris at Turn 12's combat stood in
                // such stacks.
                const bool held_back = stack_has_disrupted(s, p, pc.loc, att_idx);
                // 11.2: a stack that force-marched this Turn fights with half its strength
                double of2 = force_marched(s, pc.loc, att_idx) ? p.of2[t] / 2.0 : p.of2[t];
                // a strike that does not take Paris this Turn leaves a force out of supply to be
                // disrupted at the next supply phase (6.4), unable to attack again (10.1): it
                // counts half (seed 15840, Turn 9: the Guard force-marched to two hexes from Paris
                // out of supply, was disrupted on Turn 10 and never attacked)
                if (one_short && !any && !in_supply) of2 /= 2.0;
                int cr = 0;  // 10.2: the highest CR in the unit's stack
                for (int j : s.stack(pc.loc))
                    if (s.piece(j).owner == att_idx) cr = std::max(cr, p.cr[static_cast<size_t>(s.piece(j).type)]);
                for (size_t oi = 0; oi < p.objectives.size(); ++oi)
                    if (hex::distance(pc.loc.hex, p.objectives[oi].hex) == 1) {
                        if (held_back) {
                            support[oi] += of2;
                            continue;
                        }
                        force[oi] += of2;
                        best_cr[oi] = std::max(best_cr[oi], cr);
                    }
            }
            // 9.1, 10.2: the attacker's Combat Commands left this Turn
            const auto cc = s.tracks().find(p.cc_track);
            const int cc_left = cc != s.tracks().end() ? static_cast<int>(cc->second) : -1;
            const int cc_turn = turn_cc(s, p);  // (the strike's own chance, take_chance)
            double capital = 0, other = 0;
            for (size_t oi = 0; oi < p.objectives.size(); ++oi) {
                const bool strike = !combat_over && (decisive >> oi & 1u);
                const double per = strike ? kStrikePerOf : kAssaultPerOf;
                // a support adds to an attack, none is made without one (10.3)
                double v = per * std::min(force[oi] + kSupportShare * std::min(support[oi], force[oi]), kAssaultCap);
                // the strike goes ahead only if its order passes (10.2: a die of 2+ and die + CR +
                // CCs of 7+; a failed order ends the Turn's attacks): half its value hangs on that
                // chance, so the CCs it needs are not spent elsewhere first (seed 15840, Turn 9:
                // the Coalition spent two of its four CCs defending in Italy, and its one attack on
                // Paris failed its order with CR 1 and the two left)
                if (strike && cc_left >= 0) v *= 0.5 + 0.5 * order_chance(best_cr[oi], cc_left);
                // and on the defenders left in Paris: an attack on it spends every CC (the order's
                // chance above falls), and the defenders it eliminates must pay for that (seed 2,
                // Turn 12: Bordeaux held, two stacks next to a Paris of three disrupted units; one
                // attack would have eliminated two, and the Coalition attacked elsewhere instead)
                if (strike) {
                    const Defenders g =
                        defenders_at(s, p, p.objectives[oi].hex, d.side_index(p.defender));
                    v *= std::min(kStrikeClearMax, kStrikeClear / (1.0 + g.ready + g.disrupted));
                    // and on how well the force is placed for the one attack that takes it: the
                    // combat's own odds (11.3-11.13), which the force's OF does not tell (units of
                    // CF 1, combined arms, a river between, a forced march's halving, the supports;
                    // round 57: of 97 attacks on a Paris of disrupted units, 28 took it)
                    v += kStrikeTake * take_chance(s, p, p.objectives[oi].hex, g, att_idx, cc_turn);
                }
                if (p.objectives[oi].capital) capital = std::max(capital, v);
                else other = std::max(other, v);
            }
            obj_att += capital + other;
        }
    }
    if (att_idx >= 0 && g_plan)  // (the plan's own cities are counted below)
        for (const std::string& c : g_plan->chain_keep)
            if (auto h = d.map.parse_label(c); h && has_unit(s, p, core::Location::at(*h), att_idx) &&
                std::find(g_plan->hold.begin(), g_plan->hold.end(), c) == g_plan->hold.end())
                obj_att += kPlanKeep;
    if (att_idx >= 0 && g_plan && !g_plan->site.empty()) {
        for (size_t i = 0; i < g_plan->hold.size(); ++i) {
            auto h = d.map.parse_label(g_plan->hold[i]);
            if (h && has_unit(s, p, core::Location::at(*h), att_idx))
                obj_att += i == 0 ? 2.0 * kPlanHold : i >= g_plan->held_from ? kPlanKeep : kPlanHold;
        }
    }
    // 14.4, 11.8-11.12: Paris is taken only when every defender there is eliminated or withdraws,
    // and one attack's hits (11.15) rarely clear a garrison of three: on the last three Turns,
    // each defending combat unit still in Paris, while the attacker does not hold it, costs it
    // kGarrison, so an attack that thins the garrison for the next one (this Turn or the next)
    // pays beyond the material it takes (seed 79192, Turn 12: one attack would have eliminated
    // two of Paris's three Guard units, and was judged not worth it).
    if (att_idx >= 0 && length > 0 && length - s.turn <= 2) {
        for (const auto& o : p.objectives) {
            if (!o.capital) continue;
            int garrison = 0;
            bool held = false;
            for (int i : s.stack(core::Location::at(o.hex))) {
                const auto& pc = s.piece(i);
                if (!p.unit[static_cast<size_t>(pc.type)]) continue;
                if (pc.owner == att_idx) held = true;
                else if (pc.owner >= 0) ++garrison;
            }
            if (!held) cities_att -= kGarrison * garrison;
        }
    }
    if (paris) cities_att += 120;
    if (south) cities_att += 80;
    if (paris && !south && !(length > 0 && s.turn >= length)) cities_att += kHoldParisFirst;
    // both at once: the game is won at the end of this Turn unless the French retake one (14.4),
    // worth a good part of a win (a lone Napoleon's overrun is valued at its one-in-six odds)
    if (paris && south) cities_att += kHoldBoth;
    // 14.4, 10.1, 11.6-11.7: held at this Turn's end, they win; until the defender's attacks are
    // over (the combat phase ended, or it declined or failed an order: 10.6, 10.2 b) it may still
    // attack and retake one, and what stands in the way is the force holding it: per half-OF of the
    // attacker's undisrupted units on Paris (and on the south's one city held), up to a hex's
    // stacking (4.1), so the stacks still to move reinforce it. Without it a lone unit holding
    // Paris looked as good as a full stack (seed 31731, Turn 11: one cavalry unit entered Paris,
    // the stack two hexes away passed, and the French attack from Meaux retook it).
    if (paris && south && p.combat_phase >= 0 &&
        !attacks_over(s, p, p.defender_attacks_closed_var)) {
        int southern_held = 0;
        for (const auto& o : p.objectives)
            if (!o.capital && has_unit(s, p, core::Location::at(o.hex), att_idx)) ++southern_held;
        for (const auto& o : p.objectives) {
            if (!o.capital && southern_held > 1) continue;  // either southern city suffices
            int of2 = 0;
            for (int i : s.stack(core::Location::at(o.hex))) {
                const auto& pc = s.piece(i);
                const size_t t = static_cast<size_t>(pc.type);
                if (pc.owner == att_idx && p.unit[t] && pc.face != p.disrupted_face_of_unit)
                    of2 += p.of2[t];
            }
            cities_att += kHoldGuardPerOf * std::min(of2, kHoldGuardMaxOf2);
        }
    }
    // Napoleon's safety (14.4: his loss ends the game): attacker OF adjacent to his hex versus
    // the defender's OF with him. On the last Turn no later Turn's march reaches him: only a stack
    // next to him (an attack, 10.1, 11.20) or one that may still move this Turn counts, and nothing
    // once the combat phase is over (seed 23771, Turn 12: Barclay left a hex next to Paris, the
    // south held, to stand two hexes from a lone Napoleon).
    const bool last_turn = length > 0 && s.turn >= length;
    if (nap_hex && !(last_turn && attacks_over(s, p, p.attacks_closed_var))) {
        // one pass over the stacks: the OF on and next to his hex, whether he is escorted, and
        // the nearest attacker unit that threatens him (8.9, 11.20: alone, he is overrun by any
        // stack that reaches his hex, and a fate die of 1 loses the game; the attacker's hunt,
        // stack_potential). On the last Turn that is a stack next to him or one whose Supply Train
        // is not spent yet (8.2: a move still to come). And the attacker's nearest hunter (a stack
        // with a Commander and an undisrupted unit, as nearest_hunter_distance) for the approach.
        int mine = 0, theirs = 0, nearest = 99, hunter = 99;
        bool escorted = false;
        for (const auto& [loc, ids] : s.stacks()) {
            if (!loc.is_hex()) continue;
            const int dd = hex::distance(loc.hex, *nap_hex);
            bool unit = false, train = false, commander = false, ready = false, held_back = false;
            for (int i : ids) {
                const auto& pc = s.piece(i);
                const size_t t = static_cast<size_t>(pc.type);
                if (pc.owner == att_idx) {
                    train = train || supply_train(p, pc);
                    commander = commander || p.commander[t];
                    if (!p.unit[t]) continue;
                    unit = true;
                    ready = ready || pc.face != p.disrupted_face_of_unit;
                    held_back = held_back || pc.face == p.disrupted_face_of_unit;
                    if (dd <= 1) theirs += p.of2[t];
                } else if (p.unit[t] && dd == 0) {
                    mine += p.of2[t];
                    if (pc.owner >= 0) escorted = true;
                }
            }
            if (last_turn || att_idx < 0) {
                if (unit && (!last_turn || dd == 1 || train)) nearest = std::min(nearest, dd);
            } else if (unit && dd <= 5 &&
                       ((commander && ready && supplied(att_idx, loc.hex)) ||
                        (dd <= 1 && !held_back && !foraging(s, p, loc)))) {
                // before the last Turn, what may reach him: a stack with a Commander and an
                // undisrupted unit in General Supply, which may take a Supply Train next Turn (7.3,
                // RULINGS S-13) for a march onto him (8.4, 8.9; a disrupted unit with it rallied
                // first, 8.1, since 8.4 moves only a stack whose units are all undisrupted), or one
                // next to him that may attack him (10.1: every unit undisrupted, no forage marker;
                // as escort_strike_from). A stack out of supply is disrupted at the next supply
                // phase (6.4) and gets no train; one without a Commander never moves (8.3). Counted,
                // they drew stacks onto him out of supply for a threat that could not come (round
                // 59). (Only a stack within a forced march counts below: no supply is traced for
                // the others.)
                nearest = std::min(nearest, dd);
            }
            if (commander && ready) hunter = std::min(hunter, dd);
        }
        if (theirs > 0 && theirs >= mine) nap -= 40 + 2 * (theirs - mine);
        // an escort an attack of this Turn's combat phase may eliminate (11.20: his fate die)
        const bool combat_ahead = p.combat_phase >= 0 && s.phase <= p.combat_phase &&
                                  !attacks_over(s, p, p.attacks_closed_var);
        if (escorted && att_idx >= 0 && combat_ahead)
            nap -= kEscortStrikeWin * escort_strike_chance(s, p, *nap_hex, att_idx, nap_owner);
        if (!escorted && att_idx >= 0) {
            nap -= nearest <= 3 ? kNapoleonExposedNear : nearest <= 5 ? kNapoleonExposedFar : 0.0;
            // the approach, while a later Turn is left to hunt him (kApproachPerHex)
            if (nearest > 5 && !last_turn)
                nap -= kApproachPerHex * std::max(0, kApproachHexes - std::max(hunter, 5));
        }
    }
    // 7.6 (b), 6.3: a stack next to two or more friendly stacks with combat units gets a forage
    // marker unless it has a Supply Train, and is out of supply on a die <= its units: valued at
    // that chance (stacks on a city with their depot neither forage nor count).
    if (p.forage_rule)
        for (const auto& [loc, ids] : s.stacks()) {
            if (!loc.is_hex()) continue;
            double weight[2] = {0, 0};  // of the units 6.4 would strike, per side (6.6: not those deemed supplied)
            for (int i : ids) {
                const auto& pc = s.piece(i);
                const size_t t = static_cast<size_t>(pc.type);
                if (pc.owner < 0 || pc.owner > 1 || !p.unit[t] || p.deemed_supplied[t]) continue;
                weight[pc.owner] += kOutOfSupply * (1.0 + p.of2[t] / 4.0);
            }
            for (int side = 0; side < 2; ++side) {
                if (weight[side] == 0) continue;
                const double risk = forage_failure_chance(s, p, loc.hex, side) * weight[side];
                e.supply += side == role_idx ? -risk : risk;
            }
        }
    // 12.1, 6.2: the role's depots an enemy Commander could stand on (kDepotRaid): each costs,
    // at that chance, the units in supply that no other source of the role's reaches (traced at
    // the root, trace_raid_cuts; else by hex distance). Only
    // depots on enemy cities with none of the role's pieces on them are looked at, and the enemy
    // Commanders only when there is such a depot (this runs for every position judged).
    if (role_idx >= 0) {
        std::vector<hex::Hex> exposed;
        for (const hex::Hex& dh : depots[role_idx]) {
            if (!enemy_city(d, role_idx, dh)) continue;  // not an end the enemy's 12.1 allows
            if (!depot_guarded(s, p, dh, role_idx)) exposed.push_back(dh);
        }
        std::vector<hex::Hex> foes;  // enemy Commanders on the map
        if (!exposed.empty())
            for (const auto& pc : s.pieces())
                if (pc.owner >= 0 && pc.owner != role_idx && pc.loc.is_hex() && p.commander[static_cast<size_t>(pc.type)])
                    foes.push_back(pc.loc.hex);
        const std::vector<hex::Hex>& own = sources[role_idx];
        for (const hex::Hex& dh : exposed) {
            if (std::none_of(foes.begin(), foes.end(), [&](hex::Hex f) { return hex::distance(f, dh) <= kCommanderReach; }))
                continue;
            double w = 0;
            // traced at the root (g_root.raid_cut) where it was exposed there, while positions are
            // judged against the root's field (`approx`); else by distance, as the positions a
            // depot's value compares are (g_exact: both sides of the comparison alike)
            const std::unordered_set<std::int64_t>* cut = nullptr;
            if (approx)
                if (auto rs = g_root.raid_cut.find(role_idx); rs != g_root.raid_cut.end())
                    if (auto rc = rs->second.find(key(dh)); rc != rs->second.end())
                        cut = &rc->second;
            for (const auto& u : s.pieces()) {
                const size_t ut = static_cast<size_t>(u.type);
                if (u.owner != role_idx || !u.loc.is_hex() || !p.unit[ut] || p.deemed_supplied[ut]) continue;
                if (cut) {
                    if (cut->count(key(u.loc.hex)))
                        w += supply_scale * unsupplied_cost(p, ut,
                                                            u.face == p.disrupted_face_of_unit,
                                                            winter_attacker);
                    continue;
                }
                if (hex::distance(u.loc.hex, dh) > range || !supplied(role_idx, u.loc.hex)) continue;
                if (std::any_of(own.begin(), own.end(), [&](hex::Hex src) { return src != dh && hex::distance(src, u.loc.hex) <= range; }))
                    continue;
                w += supply_scale * unsupplied_cost(p, ut, u.face == p.disrupted_face_of_unit, winter_attacker);
            }
            e.supply -= kDepotRaid * w;
        }
    }
    // 8.3: only a stack with a Commander moves; 8.1: only with one it rallies. Units of the
    // role's stacks that have a commander count a little (so commanders join the big stacks).
    for (const auto& [loc, ids] : s.stacks()) {
        if (!loc.is_hex()) continue;
        bool cmd = false;
        double w = 0;
        for (int i : ids) {
            const auto& pc = s.piece(i);
            if (pc.owner != role_idx) continue;
            const size_t t = static_cast<size_t>(pc.type);
            if (p.commander[t]) cmd = true;
            else if (p.unit[t]) w += 0.5 + p.of2[t] / 8.0;
        }
        if (cmd) e.command += 2.0 * std::min(w, 6.0);
    }
    (void)nap_hex_own2;
    (void)enemy_of2_at;
    const double sign = (att_idx == role_idx) ? 1.0 : -1.0;
    // 14.12: the Turns a crossing now takes from the game (checked at the Turn's end: on Turns 1-10
    // both of the last two, on Turn 11 the last, on Turn 12 none). Seed 7973: the Swedes
    // force-marched onto a lone Napoleon on Turn 9 (valued -300 then), he escaped, and the game was
    // lost at the end of Turn 10 with the south held and Paris's garrison all disrupted. Nothing is
    // taken from a game won at this Turn's end (Paris and the south held, 14.4).
    if (shortened && !crossed && length > 0 && p.shortened_length > 0 && !(paris && south))
        e.length = -sign * kTurnTaken * std::max(0, length - std::max(p.shortened_length, s.turn));
    e.objectives = sign * obj_att;
    e.cities = sign * cities_att;
    e.napoleon = -sign * nap;
    e.material *= 3.0;
    e.total = e.material + e.objectives + e.cities + e.napoleon + e.trains + e.command + e.supply + e.length;
    return e;
}

constexpr double kDepotCost = 20.0;  // one Turn's Supply Train (7.2): about a middling stack's move

// 7.2: a depot costs one Supply Train in every later Turn until it is converted back (7.1, one a
// Turn and only under a friendly stack): the more Turns left, the dearer. At the start of the
// game that is a train taken from the stacks that must spread out or be fed against forage (7.6).
double depot_cost(const core::GameState& s) {
    const int length = game_length(s);
    const int left = length > 0 ? std::max(0, length - s.turn) : 0;
    return kDepotCost * (1.0 + left / kDepotCostTurns);
}
constexpr double kForwardPerHex = 25.0;  // per hex the depot net gains towards an objective (7.8)

// The attacker's supply net must follow its advance (6.1, 7.8): what a depot at `h` adds by
// reaching nearer the objectives.
double forward_value(const core::GameState& s, const Profile& p, int side, const std::string& role, hex::Hex h) {
    // The attacker's supply net must follow its advance (6.1, 7.8): a depot nearer an objective
    // than every source the net has towards it (depots, trains allocated this Turn, the USS) is
    // worth kForwardPerHex per hex gained, if it serves the army marching on that objective (its units
    // within 3 hexes, by weight, up to 4). Per objective: Wellington's Spanish sources do not
    // bring Paris nearer.
    if (p.attacker.empty() || role != p.attacker || p.objectives.empty()) return 0;
    std::vector<int> from(p.objectives.size(), 99);
    std::vector<double> army(p.objectives.size(), 0);
    auto source = [&](hex::Hex x) {
        for (size_t oi = 0; oi < p.objectives.size(); ++oi) from[oi] = std::min(from[oi], dist_to(p.objectives[oi], x));
    };
    if (auto it = p.uss.find(side); it != p.uss.end())
        for (const hex::Hex& u : it->second) source(u);
    for (const auto& pc : s.pieces()) {
        if (pc.owner != side || !pc.loc.is_hex()) continue;
        const size_t pt = static_cast<size_t>(pc.type);
        const bool depot = p.depot_face[pt] >= 0 && pc.face == p.depot_face[pt];
        bool pending = false;  // a train alone on a city: a depot to be made this Turn
        if (!depot && p.genuine_train[pt] && !(pc.loc.hex == h)) {
            pending = true;
            for (int j : s.stack(pc.loc))
                if (s.piece(j).owner == side && p.unit[static_cast<size_t>(s.piece(j).type)]) pending = false;
        }
        if (depot || pending) source(pc.loc.hex);
        if (p.unit[pt] && hex::distance(pc.loc.hex, h) <= 3) {
            const double w = 0.5 + p.of2[pt] / 8.0;
            if (p.targets[pt].empty()) {
                for (auto& a : army) a += w;
            } else {
                for (int oi : p.targets[pt])
                    if (oi < static_cast<int>(army.size())) army[static_cast<size_t>(oi)] += w;
            }
        }
    }
    double forward = 0;
    for (size_t oi = 0; oi < p.objectives.size(); ++oi)
        forward = std::max(forward, kForwardPerHex * std::max(0, from[oi] - dist_to(p.objectives[oi], h)) * std::min(army[oi], 4.0) / 4.0);
    return forward;
}



// The supply field's lead towards each objective (7.8, 14.4): the nearest hex to it where a stack
// of `side` would be in supply; from the root's field, or (`state` given) traced on that state by
// the module (rules.ai_supply_field). Empty when neither is known.
// The hexes of the supply field of `side` traced on `state` by the module
// (rules.ai_supply_field); false when the module has none or the call failed.
bool trace_field(const core::GameState& state, int side, std::vector<hex::Hex>& out) {
    script::RulesHost* r = g_feature_rules;
    if (!r || &r->def() != &state.def() || !r->has_function("ai_supply_field")) return false;
    try {
        core::GameState c = state;
        const core::Value f = r->call(c, "ai_supply_field", {core::Value(state.def().sides[static_cast<size_t>(side)].id)});
        if (!f.is_object()) return false;
        for (const auto& [label, flag] : f.as_object()) {
            (void)flag;
            if (auto h = state.def().map.parse_label(label)) out.push_back(*h);
        }
    } catch (const std::exception&) {
        return false;
    }
    return true;
}

// The nearest hex of `field` to each objective (99: none).
std::vector<int> leads_of(const Profile& p, const std::vector<hex::Hex>& field) {
    std::vector<int> lead(p.objectives.size(), 99);
    for (const hex::Hex& x : field)
        for (size_t oi = 0; oi < p.objectives.size(); ++oi) lead[oi] = std::min(lead[oi], dist_to(p.objectives[oi], x));
    return lead;
}

std::vector<int> field_leads(const Profile& p, int side, const core::GameState* state) {
    if (state) {
        std::vector<hex::Hex> field;
        if (!trace_field(*state, side, field)) return {};
        return leads_of(p, field);
    }
    if (!g_root.set) return {};
    return leads_of(p, g_root.field_hexes[side]);
}

// What a depot at `h` adds to the reach of the attacker's supply field towards its objectives
// (the spearheads can only go where they stay in supply, 6.4): kLeadPerHex per hex of the field's
// lead gained. `probe`: the state with the depot, traced exactly; null: the root's field
// extended by the supply range around `h` (hex distance).
double field_lead_gain(const core::GameState& s, const Profile& p, int side, const std::string& role, hex::Hex h,
                       const core::GameState* probe) {
    if (p.attacker.empty() || role != p.attacker || p.objectives.empty()) return 0;
    // the root's field, or (no root: a position judged alone) the position's own
    const std::vector<int> now = field_leads(p, side, g_root.set ? nullptr : &s);
    if (now.empty()) return 0;  // no field known (no root, no rules): nothing to gain by
    std::vector<int> after;
    if (probe) after = field_leads(p, side, probe);
    if (after.empty()) {
        after = now;
        const int reach = winter(s) ? 3 : 5;
        for (size_t oi = 0; oi < p.objectives.size(); ++oi)
            after[oi] = std::min(after[oi], std::max(0, dist_to(p.objectives[oi], h) - reach));
    }
    if (now.empty() || after.size() != now.size()) return 0;
    return std::max(0.0, lead_value(p, after) - lead_value(p, now));
}


double site_gain(const core::GameState& s, const Profile& p, int side, hex::Hex h) {
    const core::ModuleDef& d = s.def();
    std::uint64_t k = 1469598103934665603ull ^ static_cast<std::uint64_t>(s.turn) * 1315423911ull;
    auto mix = [&k](std::uint64_t v) { k = (k ^ (v + 0x9e3779b97f4a7c15ull + (k << 6) + (k >> 2))) * 1099511628211ull; };
    for (const auto& pc : s.pieces()) {
        const size_t t = static_cast<size_t>(pc.type);
        if (pc.owner == side && pc.loc.is_hex() && p.depot_face[t] >= 0 && pc.face == p.depot_face[t]) {
            if (pc.loc.hex == h) return 0;  // a depot already
            mix(static_cast<std::uint64_t>(key(pc.loc.hex)));
        }
    }
    mix(static_cast<std::uint64_t>(key(h)) * 31 + 7);
    if (g_site_memo)
        if (auto it = g_site_memo->find(k); it != g_site_memo->end()) return it->second;
    double gain = 0;
    const std::string& side_id = d.sides[static_cast<size_t>(side)].id;
    const int t = d.counter_type_index(side_id + "_supply");
    const int face = t < 0 ? -1 : d.counter_types[static_cast<size_t>(t)].face_index("depot");
    // 7.7-7.8: only where the rules would let a depot be made (a friendly city, or one a friendly
    // stack holds; linked to the USS by the depot chain), asked with a probe train there
    script::RulesHost* r = g_feature_rules;
    const bool linkable = !r || &r->def() != &d || depot_allowed(r, s, side_id, d.map.label(h));
    if (linkable && face >= 0 && s.find_piece("ai_site_probe") < 0) {
        try {
            core::GameState c = s;
            c.create_piece(t, "ai_site_probe", side, core::Location::at(h), face);
            gain = field_lead_gain(s, p, side, d.sides[static_cast<size_t>(side)].id, h, &c);
        } catch (const std::exception&) {
            gain = 0;
        }
    }
    if (g_site_memo) {
        if (g_site_memo->size() > 50000) g_site_memo->clear();
        g_site_memo->emplace(k, gain);
    }
    return gain;
}

bool depot_allowed(script::RulesHost* rules, const core::GameState& g, const std::string& role, const std::string& hex) {
    const core::ModuleDef& d = g.def();
    const int t = d.counter_type_index(role + "_supply");
    auto h = d.map.parse_label(hex);
    if (t < 0 || !h || !rules || g.find_piece("ai_train_probe") >= 0) return true;
    const int train_face = d.counter_types[static_cast<size_t>(t)].face_index("train");
    if (train_face < 0) return true;
    try {
        core::GameState c = g;
        c.create_piece(t, "ai_train_probe", d.side_index(role), core::Location::at(*h), train_face);
        c.decision.role = role;
        c.decision.step = "supply.depot";
        c.decision.context = core::Value();
        // The rules' own answer for this hex (cnw: rules.ai_depot_allowed), else their listing.
        if (rules->has_function("ai_depot_allowed")) {
            const core::Value v =
                rules->call(c, "ai_depot_allowed", {core::Value(role), core::Value(hex)});
            if (v.is_bool()) return v.as_bool();
        }
        for (const auto& a : rules->actions(c, role))
            if (a.kind == "depot" && !a.args.empty() && a.args[0] == hex) return true;
        return false;
    } catch (const std::exception&) {
        return true;  // cannot tell: let the value decide
    }
}

namespace {
// The attacker's depots linked to its USS (rules.ai_linked_depots); nullopt when unknown.
std::optional<std::set<std::string>> linked_depots(script::RulesHost* rules, const core::GameState& g, const std::string& role) {
    if (!rules || &rules->def() != &g.def() || !rules->has_function("ai_linked_depots")) return std::nullopt;
    try {
        core::GameState c = g;
        const core::Value v = rules->call(c, "ai_linked_depots", {core::Value(role)});
        if (!v.is_object()) return std::nullopt;
        std::set<std::string> out;
        for (const auto& [label, flag] : v.as_object()) {
            (void)flag;
            out.insert(label);
        }
        return out;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}
// per depot a conversion cuts off from the chain (7.8: no new depot can link to it)
constexpr double kChainDepot = 40.0;

}  // namespace

void update_depot_plan(DepotPlan& plan, script::RulesHost* rules, const core::GameState& g, const std::string& role) {
    const core::ModuleDef& d = g.def();
    const Profile& p = profile(d);
    const int side = d.side_index(role);
    if (p.attacker.empty() || role != p.attacker || !rules || &rules->def() != &d) {
        plan = DepotPlan{};
        return;
    }
    std::uint64_t k = 1469598103934665603ull ^ static_cast<std::uint64_t>(g.turn) * 2654435761ull;
    for (const auto& pc : g.pieces()) {
        const size_t t = static_cast<size_t>(pc.type);
        if (pc.owner == side && pc.loc.is_hex() && p.depot_face[t] >= 0 && pc.face == p.depot_face[t])
            k = (k ^ static_cast<std::uint64_t>(key(pc.loc.hex))) * 1099511628211ull;
    }
    if (k == plan.key) return;
    plan = DepotPlan{};
    plan.key = k;
    const Objective* capital = nullptr;
    for (const auto& o : p.objectives)
        if (o.capital) capital = &o;
    int unit_type = -1;  // a combat unit of the attacker's, for the probes
    for (const auto& pc : g.pieces())
        if (pc.owner == side && p.unit[static_cast<size_t>(pc.type)] && !p.deemed_supplied[static_cast<size_t>(pc.type)]) {
            unit_type = pc.type;
            break;
        }
    if (!capital || unit_type < 0) return;
    // who stands where: cities with the enemy's combat units cannot be held without a fight
    std::set<std::int64_t> enemy_at, own_at;
    for (const auto& pc : g.pieces())
        if (pc.loc.is_hex() && pc.owner >= 0 && p.unit[static_cast<size_t>(pc.type)])
            (pc.owner == side ? own_at : enemy_at).insert(key(pc.loc.hex));
    const int range = winter(g) ? 3 : 5;  // 7.8: the link between two depots
    // what a new depot links to (7.8): the attacker's depots and Ultimate Supply Sources
    std::vector<hex::Hex> sources;
    if (auto it = p.uss.find(side); it != p.uss.end()) sources = it->second;
    // (only the depots linked to the USS now, when the rules tell: 7.8's chain is traced anew)
    const auto linked_now = linked_depots(rules, g, role);
    const bool linked_known = linked_now.has_value();
    const std::set<std::string> linked = linked_now.value_or(std::set<std::string>{});
    // the attacker's stack leaves city `c` (its units and Commanders: a Commander alone is a stack
    // too, and holds the city for 6.2)
    auto leave_city = [&](core::GameState& x, hex::Hex c) {
        for (int j : std::vector<int>(x.stack(core::Location::at(c)))) {
            const size_t t = static_cast<size_t>(x.piece(j).type);
            if (x.piece(j).owner == side && (p.unit[t] || p.commander[t])) x.move_piece(j, core::Location::nowhere());
        }
    };
    // the cities the attacker holds that its linked depots' links pass: 6.2 lets no link through
    // an enemy city a friendly stack does not hold, so the stack that leaves one cuts the depots
    // beyond it off from the chain (7.8) and no new depot links to them (seed 8, Turn 4: the stack
    // that kept 4523 left it, and the chain stalled until the Summer's longer links)
    if (linked_known && !linked.empty())
        for (const hex::Hex& c : p.city_hexes) {
            if (!own_at.count(key(c)) || !enemy_city(d, side, c)) continue;
            core::GameState without = g;
            leave_city(without, c);
            const auto after = linked_depots(rules, without, role);
            if (after && after->size() < linked.size()) plan.chain_keep.push_back(d.map.label(c));
        }
    std::set<std::int64_t> unlinked, depot_at;  // the attacker's depots cut off from the chain now
    for (const auto& pc : g.pieces()) {
        const size_t t = static_cast<size_t>(pc.type);
        if (pc.owner != side || !pc.loc.is_hex() || p.depot_face[t] < 0 || pc.face != p.depot_face[t]) continue;
        sources.push_back(pc.loc.hex);
        depot_at.insert(key(pc.loc.hex));
        if (linked_known && !linked.count(d.map.label(pc.loc.hex))) unlinked.insert(key(pc.loc.hex));
    }
    // candidate sites nearer the capital than the depot net, within a link of a source; the
    // cities a link's route may pass (6.2: held, or the route cannot pass them) lie between
    // the two: d(source, c) + d(c, site) <= the link's length; through a depot cut off from the
    // chain, the same for its own links (a depot's chain is traced anew each time, 7.8)
    struct Site {
        int dc;  // hexes from the capital: nearer first
        hex::Hex hex;
        std::vector<hex::Hex> helpers;  // cities no one holds that the chain's routes may pass
        std::vector<hex::Hex> held;     // cities the attacker holds there already
    };
    std::vector<Site> sites;
    int net_lead = 99;  // how near the capital the depot net stands
    for (const hex::Hex& src : sources)  // (a depot cut off cannot be the base of a new one)
        if (!unlinked.count(key(src))) net_lead = std::min(net_lead, dist_to(*capital, src));
    for (const hex::Hex& site : p.city_hexes) {
        const std::int64_t hk = key(site);
        if (enemy_at.count(hk) || depot_at.count(hk)) continue;
        const int dc = dist_to(*capital, site);
        if (dc < 1 || dc >= net_lead) continue;
        Site st{dc, site, {}, {}};
        std::set<std::int64_t> seen_city{hk}, seen_node{hk};
        std::vector<hex::Hex> frontier{site};
        bool any_link = false;
        for (int depth = 0; depth < 3 && !frontier.empty(); ++depth) {
            std::vector<hex::Hex> next;
            for (const hex::Hex& node : frontier)
                for (const hex::Hex& src : sources) {
                    if (src == node || hex::distance(src, node) > range) continue;
                    any_link = true;
                    for (const hex::Hex& c : p.city_hexes) {
                        const std::int64_t ck = key(c);
                        if (enemy_at.count(ck) || hex::distance(src, c) + hex::distance(c, node) > range) continue;
                        if (!seen_city.insert(ck).second) continue;
                        (own_at.count(ck) ? st.held : st.helpers).push_back(c);
                    }
                    if (unlinked.count(key(src)) && seen_node.insert(key(src)).second) next.push_back(src);
                }
            frontier = std::move(next);
        }
        if (!any_link) continue;
        sites.push_back(std::move(st));
    }
    std::sort(sites.begin(), sites.end(), [](const Site& a, const Site& b) {
        return a.dc != b.dc ? a.dc < b.dc : a.helpers.size() < b.helpers.size();
    });
    constexpr int kMaxTries = 60;      // probes to find the site and the cities to take
    constexpr int kMaxHeldTries = 20;  // then to tell which cities already held it needs
    int probe_n = 0;
    // the position with probe units on `hold` (where the attacker has none) and without the
    // attacker's stacks on `leave`
    auto probe = [&](const std::vector<hex::Hex>& hold, const std::vector<hex::Hex>& leave) {
        core::GameState c = g;
        for (const hex::Hex& x : hold)
            if (!own_at.count(key(x))) c.create_piece(unit_type, "ai_plan_probe_" + std::to_string(probe_n++), side, core::Location::at(x), 0);
        for (const hex::Hex& x : leave) leave_city(c, x);
        return c;
    };
    for (const Site& st : sites) {
        if (plan.tries >= kMaxTries) break;
        const std::string label = d.map.label(st.hex);
        std::vector<hex::Hex> all = st.helpers;
        all.push_back(st.hex);
        ++plan.tries;
        if (!depot_allowed(rules, probe(all, {}), role, label)) continue;
        // the fewest cities to take: drop each the link does without (the farthest first)
        std::vector<hex::Hex> keep = st.helpers;
        std::sort(keep.begin(), keep.end(), [&](hex::Hex a, hex::Hex b) { return hex::distance(a, st.hex) > hex::distance(b, st.hex); });
        for (size_t i = 0; i < keep.size() && plan.tries < kMaxTries;) {
            std::vector<hex::Hex> trial = keep;
            trial.erase(trial.begin() + static_cast<std::ptrdiff_t>(i));
            trial.push_back(st.hex);
            ++plan.tries;
            if (depot_allowed(rules, probe(trial, {}), role, label)) keep.erase(keep.begin() + static_cast<std::ptrdiff_t>(i));
            else ++i;
        }
        plan.site = label;
        plan.advance = net_lead - st.dc;  // >= 1: sites stand nearer than the net
        plan.hold.push_back(label);
        for (const hex::Hex& x : keep) plan.hold.push_back(d.map.label(x));
        // the cities already held that the link needs (their stacks should stay)
        plan.held_from = plan.hold.size();
        keep.push_back(st.hex);
        for (const hex::Hex& x : st.held) {
            if (plan.tries >= kMaxTries + kMaxHeldTries) break;
            ++plan.tries;
            if (!depot_allowed(rules, probe(keep, {x}), role, label)) plan.hold.push_back(d.map.label(x));
        }
        return;
    }
}


double depot_chain_loss(script::RulesHost* rules, const core::GameState& g, const std::string& role, const std::string& label) {
    const core::ModuleDef& d = g.def();
    const Profile& p = profile(d);
    const int side = d.side_index(role);
    auto h = d.map.parse_label(label);
    if (p.attacker.empty() || role != p.attacker || !h) return 0;
    const auto before = linked_depots(rules, g, role);
    if (!before || !before->count(label)) return 0;  // cut off already: the chain loses nothing
    core::GameState c = g;
    for (int j : std::vector<int>(c.stack(core::Location::at(*h)))) {
        const size_t t = static_cast<size_t>(c.piece(j).type);
        if (c.piece(j).owner == side && p.depot_face[t] >= 0 && c.piece(j).face == p.depot_face[t]) c.move_piece(j, core::Location::nowhere());
    }
    const auto after = linked_depots(rules, c, role);
    if (!after) return 0;
    double loss = 0;
    for (const std::string& x : *before)
        if (x != label && !after->count(x)) loss += kChainDepot;
    // how near the capital the linked net stands, before and after
    for (const auto& o : p.objectives) {
        if (!o.capital) continue;
        int lead_before = 99, lead_after = 99;
        if (auto it = p.uss.find(side); it != p.uss.end())
            for (const hex::Hex& u : it->second) lead_before = lead_after = std::min(lead_before, dist_to(o, u));
        for (const std::string& x : *before)
            if (auto xh = d.map.parse_label(x)) lead_before = std::min(lead_before, dist_to(o, *xh));
        for (const std::string& x : *after)
            if (auto xh = d.map.parse_label(x)) lead_after = std::min(lead_after, dist_to(o, *xh));
        loss += kForwardPerHex * std::max(0, lead_after - lead_before);
    }
    // and the reach of the supply field it carried (the same kLeadPerHex a depot's making earns
    // by field_lead_gain): a stack beyond the field's edge can neither take a train (7.3) nor
    // stay in supply (6.4)
    // (what field_lead_gain credits the depot with, from the position without it)
    loss += field_lead_gain(c, p, side, role, *h, &g);
    return loss;
}

int game_length(const core::GameState& g) {
    const core::Value& v = g.var("game_length");
    return v.is_int() ? static_cast<int>(v.as_int()) : g.def().turn_last;
}

bool last_two_turns(const core::GameState& g) {
    const int length = game_length(g);
    return length > 0 && length - g.turn <= 1;
}

bool winter_turn(const core::GameState& g) { return winter(g); }

bool attacker_role(const core::ModuleDef& d, const std::string& role) {
    const Profile& p = profile(d);
    return !p.attacker.empty() && p.attacker == role;
}

std::string capital_objective(const core::ModuleDef& d) {
    for (const auto& o : profile(d).objectives)
        if (o.capital) return d.map.label(o.hex);
    return "";
}

double objective_take_chance(const core::GameState& s, const std::string& role,
                             const std::string& label) {
    const core::ModuleDef& d = s.def();
    const Profile& p = profile(d);
    auto h = d.map.parse_label(label);
    if (!h || !attacker_role(d, role)) return 0;
    return take_chance(s, p, *h, defenders_at(s, p, *h, d.side_index(p.defender)),
                       d.side_index(role), turn_cc(s, p));
}

bool objective_hex(const core::ModuleDef& d, const std::string& label) {
    const Profile& p = profile(d);
    auto h = d.map.parse_label(label);
    return h && objective_hex_of(p, *h);
}

std::string enemy_napoleon(const core::GameState& s, const std::string& role, bool* alone) {
    const core::ModuleDef& d = s.def();
    const Profile& p = profile(d);
    if (alone) *alone = false;
    if (p.attacker.empty() || role != p.attacker) return "";
    const int att_idx = d.side_index(p.attacker);
    for (int i = 0; i < s.piece_count(); ++i) {
        const auto& pc = s.piece(i);
        if (!p.napoleon[static_cast<size_t>(pc.type)] || pc.owner == att_idx || !pc.loc.is_hex()) continue;
        if (alone) *alone = !has_unit(s, p, pc.loc, pc.owner);
        return d.map.label(pc.loc.hex);
    }
    return "";
}

double depot_forward_value(const core::GameState& s, const std::string& role, const std::string& label) {
    const core::ModuleDef& d = s.def();
    auto h = d.map.parse_label(label);
    if (!h) return 0;
    return forward_value(s, profile(d), d.side_index(role), role, *h);
}

// The depot plan's site (DepotPlan): its depot carries the chain (7.8) nearer Paris, which the
// supply field alone does not show (a depot cut off still supplies, but no new depot links to it).
double plan_site_value(const std::string& label) {
    if (!g_plan || g_plan->site != label) return 0;
    return kForwardPerHex * g_plan->advance;
}

double depot_value(const core::GameState& s, const std::string& role, const std::string& label, bool train_here,
                   bool approximate) {
    struct Exact {  // a depot changes the supply field: trace it for real
        bool was = g_exact;
        Exact() { g_exact = true; }
        ~Exact() { g_exact = was; }
    } exact;
    const core::ModuleDef& d = s.def();
    auto h = d.map.parse_label(label);
    const int t = d.counter_type_index(role + "_supply");
    if (!h || t < 0) return 0;
    const int face = d.counter_types[static_cast<size_t>(t)].face_index("depot");
    if (face < 0) return 0;
    const Profile& p = profile(d);
    const int side = d.side_index(role);
    const bool winter_attacker = role == p.attacker && winter(s);
    // 5, 6.1: on the last Turn no supply phase follows (this Turn's came before the depots, 7.7):
    // a depot supplies nothing and its train is better spent on a move
    if (const int length = game_length(s); length > 0 && s.turn >= length) return -depot_cost(s);
    // A hex that already has a depot, or a train allocated this Turn (7.4: the trains are
    // placed before the depots are made, 7.7), gains nothing from one more.
    for (int i : s.stack(core::Location::at(*h))) {
        const auto& pc = s.piece(i);
        if (pc.owner == side && ((p.genuine_train[static_cast<size_t>(pc.type)] && !train_here) ||
                                 (p.depot_face[static_cast<size_t>(pc.type)] >= 0 && pc.face == p.depot_face[static_cast<size_t>(pc.type)])))
            return 0;
    }
    // what the depot brings into supply, beyond the depots already to be made this Turn (the
    // trains allocated alone on a city)
    core::GameState b = s;
    for (int i = 0; i < b.piece_count(); ++i) {
        const auto& pc = b.piece(i);
        if (pc.owner != side || !pc.loc.is_hex() || !p.genuine_train[static_cast<size_t>(pc.type)] || pc.face == face)
            continue;
        if (train_here && pc.loc.hex == *h) continue;  // the train being decided on
        bool alone = true;
        for (int j : b.stack(pc.loc))
            if (b.piece(j).owner == side && p.unit[static_cast<size_t>(b.piece(j).type)]) alone = false;
        if (alone) b.set_face(i, face);
    }
    core::GameState c = b;
    c.create_piece(t, "ai_depot_probe", side, core::Location::at(*h), face);
    if (g_root.set && (g_depot_approx || approximate)) {
        // the root's supply field, extended by the depot's range (hex distance: an approximation
        // of the route, 6.2): what it brings into supply
        g_exact = false;
        const int reach = winter(b) ? 3 : 5;
        double gain = 0;
        for (const auto& pc : b.pieces()) {
            const size_t pt = static_cast<size_t>(pc.type);
            if (pc.owner != side || !pc.loc.is_hex() || !p.unit[pt] || p.deemed_supplied[pt]) continue;
            const std::int64_t k = key(pc.loc.hex);
            if (g_root.field[side].count(k) || g_root.in[side].count(k)) continue;
            bool served = false;  // by a depot being made this Turn
            for (const auto& q : b.pieces())
                if (q.owner == side && q.loc.is_hex() && q.face == face && p.genuine_train[static_cast<size_t>(q.type)] &&
                    hex::distance(q.loc.hex, pc.loc.hex) <= reach)
                    served = true;
            if (!served && hex::distance(pc.loc.hex, *h) <= reach)
                gain += unsupplied_cost(p, pt, pc.face == p.disrupted_face_of_unit, winter_attacker);
        }
        // the field's reach is traced (site_gain, memoized): by hex distance it ignores the rivers
        // (6.2) and promised depots that carry the field nowhere
        const double field_reach = role == p.attacker ? site_gain(s, p, side, *h) : 0.0;
        return gain + forward_value(s, p, side, role, *h) + field_reach + plan_site_value(label) - depot_cost(s);
    }
    // only own units out of supply near the hex can gain (the trace is costly: skipped otherwise)
    bool near_unsupplied = true;
    {
        std::map<int, std::set<std::int64_t>> out;
        if (real_supply(b, out, p.commander)) {
            near_unsupplied = false;
            const int reach = (winter(b) ? 3 : 5) + 1;
            for (const auto& pc : b.pieces())
                if (pc.owner == side && pc.loc.is_hex() && p.unit[static_cast<size_t>(pc.type)] &&
                    out[side].count(key(pc.loc.hex)) && hex::distance(pc.loc.hex, *h) <= reach)
                    near_unsupplied = true;
        }
    }
    const double gain = near_unsupplied ? evaluate(c, role).supply - evaluate(b, role).supply : 0.0;
    const double forward = forward_value(s, p, side, role, *h);
    // 7.2: every depot on the map costs one Supply Train in each later Turn: about one stack's
    // move (stack_potential of a middling stack)
    return gain + forward + field_lead_gain(s, p, side, role, *h, &c) + plan_site_value(label) - depot_cost(s);
}

bool enemy_city(const core::ModuleDef& d, int side, hex::Hex h) {
    const Profile& p = profile(d);
    auto it = p.enemy_cities.find(side);
    return it != p.enemy_cities.end() && it->second.count(key(h)) > 0;
}

namespace {
// 8.4: at the start of a stack's move (the movement.stack step's `acts`), the units that move
// (those offered a `leave`, hidden ones aside) with the index of that step, its Commanders (offered
// a `drop`) and the hex it stands on
struct MoveStart {
    std::vector<std::pair<int, size_t>> units;  // piece index, index in `acts` of its `leave`
    std::vector<int> commanders;
    std::optional<hex::Hex> at;
};
MoveStart move_start(const core::GameState& root, const std::vector<core::Action>& acts) {
    MoveStart m;
    for (size_t i = 0; i < acts.size(); ++i) {
        const auto& a = acts[i];
        if ((a.kind != "leave" && a.kind != "drop") || a.args.empty() || a.hexes.empty() ||
            a.label.find("hidden") != std::string::npos)
            continue;
        const int id = root.find_piece(a.args[0]);
        if (id < 0) continue;
        if (!m.at) m.at = root.def().map.parse_label(a.hexes[0]);
        if (a.kind == "leave")
            m.units.emplace_back(id, i);
        else
            m.commanders.push_back(id);
    }
    return m;
}
}  // namespace

size_t leave_holder(const core::GameState& root, const std::string& role, const std::vector<core::Action>& acts) {
    const core::ModuleDef& d = root.def();
    const Profile& p = profile(d);
    const int side = d.side_index(role);
    if (!attacker_role(d, role)) return acts.size();
    const MoveStart m = move_start(root, acts);
    if (!m.at || m.units.empty() || !enemy_city(d, side, *m.at)) return acts.size();
    size_t best = acts.size();
    int best_of = 1 << 30;
    for (const auto& [id, i] : m.units) {
        const int of2 = p.of2[static_cast<size_t>(root.piece(id).type)];
        if (of2 < best_of) {
            best_of = of2;
            best = i;
        }
    }
    // any other unit of the side there stays (left behind already, or not moving): it holds the city
    size_t units = 0;
    for (int j : root.stack(core::Location::at(*m.at)))
        if (root.piece(j).owner == side && p.unit[static_cast<size_t>(root.piece(j).type)]) ++units;
    return units > m.units.size() ? acts.size() : best;
}

HuntDetachment hunt_detachment(const core::GameState& root, const std::string& role,
                               const std::vector<core::Action>& acts) {
    HuntDetachment out;
    const core::ModuleDef& d = root.def();
    const Profile& p = profile(d);
    if (!attacker_role(d, role)) return out;
    bool alone = false;
    const std::string nap = enemy_napoleon(root, role, &alone);
    if (!alone) return out;
    const auto nap_hex = d.map.parse_label(nap);
    const MoveStart m = move_start(root, acts);
    // 8.4: five hexes at most (a forced march); a stack of one unit has nothing to leave
    if (!nap_hex || !m.at || m.units.size() < 2 || m.commanders.empty() ||
        hex::distance(*m.at, *nap_hex) > 5)
        return out;
    // the hunter: a unit 6.6 deems in supply (a Cossack: never disrupted out of supply) before
    // any other, then by arm (Profile::arm: cavalry, infantry, artillery last), then the least OF
    auto rank = [&](int id) {
        const size_t t = static_cast<size_t>(root.piece(id).type);
        return std::tuple<int, int, int>{p.deemed_supplied[t] ? 0 : p.arm[t], p.of2[t], id};
    };
    int hunter = m.units.front().first;
    for (const auto& [id, i] : m.units)
        if (rank(id) < rank(hunter)) hunter = id;
    for (const auto& [id, i] : m.units)
        if (id != hunter) out.leave.push_back(root.piece(id).id);
    // 8.1, 8.4, 7.3: the Commander with the least CR goes; the others stay with the units left,
    // which rally and take trains only with a Commander
    const int goes = *std::min_element(m.commanders.begin(), m.commanders.end(), [&](int a, int b) {
        return p.cr[static_cast<size_t>(root.piece(a).type)] <
               p.cr[static_cast<size_t>(root.piece(b).type)];
    });
    for (int id : m.commanders)
        if (id != goes) out.drop.push_back(root.piece(id).id);
    return out;
}

bool holds_victory(const core::GameState& s, const std::string& role) {
    const Profile& p = profile(s.def());
    if (!attacker_role(s.def(), role) || p.objectives.empty()) return false;
    const HeldObjectives held = held_objectives(s, p, s.def().side_index(role));
    return held.capital && held.other;
}

bool one_objective_short(const core::GameState& s, const std::string& role) {
    const Profile& p = profile(s.def());
    return attacker_role(s.def(), role) && decisive_objectives(s, p, s.def().side_index(role)) != 0;
}

int decisive_distance(const core::GameState& s, const std::string& role, const std::string& label) {
    const Profile& p = profile(s.def());
    auto h = s.def().map.parse_label(label);
    if (!h || !attacker_role(s.def(), role)) return -1;
    const unsigned decisive = decisive_objectives(s, p, s.def().side_index(role));
    int best = -1;
    for (size_t oi = 0; oi < p.objectives.size(); ++oi)
        if (decisive >> oi & 1u) {
            const int dn = hex::distance(*h, p.objectives[oi].hex);
            if (best < 0 || dn < best) best = dn;
        }
    return best;
}

std::string attacker_progress(const core::GameState& s, script::RulesHost* rules) {
    const core::ModuleDef& d = s.def();
    const Profile& p = profile(d);
    if (p.attacker.empty() || p.objectives.empty()) return "";
    const int att = d.side_index(p.attacker);
    std::vector<int> nearest(p.objectives.size(), 99);
    int on_map = 0, total = 0, sum_dist = 0;
    for (const auto& pc : s.pieces()) {
        const size_t t = static_cast<size_t>(pc.type);
        if (pc.owner != att || !p.unit[t]) continue;
        ++total;
        if (!pc.loc.is_hex()) continue;
        ++on_map;
        sum_dist += target_distance(p, t, pc.loc.hex);
        for (size_t oi = 0; oi < p.objectives.size(); ++oi) nearest[oi] = std::min(nearest[oi], dist_to(p.objectives[oi], pc.loc.hex));
    }
    std::string out;
    for (size_t oi = 0; oi < p.objectives.size(); ++oi)
        out += p.objectives[oi].name + " " + std::to_string(nearest[oi]) + ", ";
    char mean[32];
    std::snprintf(mean, sizeof mean, "%.1f", on_map ? static_cast<double>(sum_dist) / on_map : 0.0);
    out += std::string("mean to own objective ") + mean + ", " + p.attacker + " units on the map " + std::to_string(on_map) + "/" + std::to_string(total);
    if (rules && &rules->def() == &d) {
        // how near each objective the attacker's supply field reaches (6.1-6.2, traced by the rules)
        script::RulesHost* was = g_feature_rules;
        g_feature_rules = rules;
        const std::vector<int> field = field_leads(p, att, &s);
        g_feature_rules = was;
        for (size_t oi = 0; oi < field.size(); ++oi)
            if (p.objectives[oi].capital) out += ", supply field to " + p.objectives[oi].name + " " + std::to_string(field[oi]);
    }
    return out;
}

double commander_move_prior(const core::GameState& s, const std::string& role, const std::string& piece,
                            const std::string& label) {
    const core::ModuleDef& d = s.def();
    const Profile& p = profile(d);
    const int i = s.find_piece(piece);
    auto to = d.map.parse_label(label);
    if (i < 0 || !to || !s.piece(i).loc.is_hex()) return 0;
    if (p.napoleon[static_cast<size_t>(s.piece(i).type)]) return 1e6;
    const int side = d.side_index(role);
    auto weight = [&](core::Location at, int& commanders) {
        double w = 0;
        commanders = 0;
        for (int j : s.stack(at)) {
            const auto& pc = s.piece(j);
            if (pc.owner != side) continue;
            const size_t t = static_cast<size_t>(pc.type);
            if (p.commander[t]) ++commanders;
            else if (p.unit[t]) w += 0.5 + p.of2[t] / 8.0;
        }
        return std::min(w, 6.0);
    };
    int c_from = 0, c_to = 0;
    const double w_from = weight(s.piece(i).loc, c_from), w_to = weight(core::Location::at(*to), c_to);
    return (c_to == 0 ? 2.0 * w_to : 0.0) - (c_from == 1 ? 2.0 * w_from : 0.0);
}

bool arrives_out_of_supply(const core::GameState& after, const std::string& piece) {
    const int i = after.find_piece(piece);
    if (i < 0) return false;
    const auto& pc = after.piece(i);
    const Profile& p = profile(after.def());
    const size_t t = static_cast<size_t>(pc.type);
    if (!pc.loc.is_hex() || pc.owner < 0 || !p.unit[t] || p.deemed_supplied[t]) return false;
    std::map<int, std::set<std::int64_t>> unsupplied;
    if (!real_supply(after, unsupplied, p.commander)) return false;  // cannot tell: not held against it
    return unsupplied[pc.owner].count(key(pc.loc.hex)) > 0;
}

double stack_potential(const core::GameState& s, const std::string& role, const std::string& label,
                       bool ignore_train, double* standing) {
    if (standing) *standing = 0;
    const core::ModuleDef& d = s.def();
    const Profile& p = profile(d);
    auto h = d.map.parse_label(label);
    if (!h) return 0;
    const int role_idx = d.side_index(role);
    const int att_idx = p.attacker.empty() ? -1 : d.side_index(p.attacker);
    const bool other_held = att_idx >= 0 && holds_other_objective(s, p, att_idx);
    double own = 0, dist = 0, wdist = 0;
    bool cmd = false, disrupted = false;
    int cr_sum = 0, disrupted_units = 0;  // 8.1: a rally restores as many units as the stack's CRs
    for (int i : s.stack(core::Location::at(*h))) {
        const auto& pc = s.piece(i);
        const size_t t = static_cast<size_t>(pc.type);
        if (pc.owner != role_idx) continue;
        if (p.commander[t]) cmd = true;
        cr_sum += p.cr[t];
        if (!p.unit[t]) continue;
        if (p.held_until_turn4[t] && s.turn < 4) continue;  // 14.8: may not move yet
        own += 0.5 + p.of2[t] / 8.0;
        if (!p.objectives.empty()) wdist += (0.5 + p.of2[t] / 8.0) * std::min(target_distance(p, t, *h, other_held), 15);
        if (pc.face == p.disrupted_face_of_unit) disrupted = true, ++disrupted_units;
    }
    if (own == 0) return 0;
    dist = wdist / own;
    const double own_whole = own;  // before the scaling below (8.3, 8.1)
    // 7.6 (b), 6.3: from Turn 2 a train keeps the stack free of a forage marker; without it the
    // stack may fail to forage and be disrupted (6.4), and a disrupted stack neither moves nor
    // attacks until a train and a Commander rally it (8.1, 8.4): about kForageMoves of its moves
    double forage = 0;
    if (cmd && s.turn >= 2) {
        double exposed = 0;  // the weight of its units that 6.4 would strike (6.6: not those deemed in supply)
        for (int i : s.stack(core::Location::at(*h))) {
            const auto& pc = s.piece(i);
            const size_t t = static_cast<size_t>(pc.type);
            if (pc.owner != role_idx || !p.unit[t] || p.deemed_supplied[t]) continue;
            exposed += (0.5 + p.of2[t] / 8.0) * (pc.face == p.disrupted_face_of_unit ? 2.0 : 1.0);
        }
        forage = forage_failure_chance(s, p, *h, role_idx) * kForageMoves * 10.0 * exposed;
    }
    // 8.4 (General Exception): a stack under siege cannot move; a train serves it only to rally
    if (!disrupted && g_root.set)
        if (auto b = g_root.besieged.find(role_idx); b != g_root.besieged.end() && b->second.count(key(*h))) return 0.05;
    // 8.3: no Commander, no move; a disrupted unit: the train serves to rally (8.1) first
    if (!cmd) own *= 0.1;
    else if (disrupted) own *= 0.6;
    // one train per stack is enough (7.3): a second one adds nothing
    for (int i : s.stack(core::Location::at(*h))) {
        const auto& pc = s.piece(i);
        if (!ignore_train && pc.owner == role_idx && supply_train(p, pc)) return 0.05;
    }
    if (role_idx == att_idx) {
        // a stack already on its objective need not move; far ones gain a full move. With the
        // root's supply field known: as much as the stack can gain within 3 hexes (8.4) without
        // leaving it (a move out of supply is not taken, and its train is wasted)
        double reach = 1.0;
        if (g_root.set && !p.objectives.empty()) {
            int best_gain = 0;
            const double here = dist;  // the stack's mean distance, before `own` was scaled
            for (const hex::Hex& x : g_root.field_hexes[role_idx]) {
                if (hex::distance(x, *h) > 3) continue;
                double there = 0, w = 0;
                for (int i : s.stack(core::Location::at(*h))) {
                    const auto& pc = s.piece(i);
                    const size_t t = static_cast<size_t>(pc.type);
                    if (pc.owner != role_idx || !p.unit[t]) continue;
                    there += (0.5 + p.of2[t] / 8.0) * std::min(target_distance(p, t, x, other_held), 15);
                    w += 0.5 + p.of2[t] / 8.0;
                }
                if (w > 0) best_gain = std::max(best_gain, static_cast<int>(std::lround(here - there / w)));
            }
            reach = 0.25 + 0.25 * std::min(best_gain, 3);
        }
        // the spearheads (kLeadPerHex): what the stack's move could add to the lead towards an
        // objective, within 3 hexes (8.4) and, when it is known, the supply field
        double lead_gain = 0;
        if (cmd && !disrupted && !p.objectives.empty()) {
            const std::vector<int> now = leads(s, p, role_idx, [&](hex::Hex x) {
                return in_root_supply(role_idx, x);
            });
            std::vector<int> after = now;
            auto consider = [&](hex::Hex x) {
                for (size_t oi = 0; oi < p.objectives.size(); ++oi) after[oi] = std::min(after[oi], dist_to(p.objectives[oi], x));
            };
            if (g_root.set) {
                for (const hex::Hex& x : g_root.field_hexes[role_idx])
                    if (hex::distance(x, *h) <= 3) consider(x);
            } else {
                for (size_t oi = 0; oi < p.objectives.size(); ++oi)
                    after[oi] = std::min(after[oi], std::max(0, dist_to(p.objectives[oi], *h) - 3));
            }
            lead_gain = lead_value(p, after) - lead_value(p, now);
        }
        // 14.4, 11.20: a lone Napoleon within a march (3 hexes, 5 forced) of an undisrupted stack
        // with a Commander: entering his hex (8.9) wins the game on a fate die of 1
        double hunt = 0;
        bool alone = false;
        const std::string nap = enemy_napoleon(s, role, &alone);
        const int length = game_length(s);
        if (cmd && !disrupted && alone) {
            const hex::Hex nap_hex = *d.map.parse_label(nap);
            const int dn = hex::distance(*h, nap_hex);
            hunt = dn <= 3 ? kHuntNear : dn <= 5 ? kHuntFar : 0.0;
            // beyond a forced march: the nearest hunter's approach (kApproachPerHex), while a later
            // Turn is left to hunt him
            if (dn > 5 && dn <= kApproachHexes + 2 && !(length > 0 && s.turn >= length) &&
                nearest_hunter_distance(s, p, role_idx, nap_hex) >= dn)
                hunt = kApproachPerHex * (std::min(dn, kApproachHexes) - std::max(dn - 3, 5));
        }
        // 11.20, 10.1: an escorted Napoleon two to four hexes away, a march (8.4) from a hex next
        // to him: the stack's attack from there this Turn, as the evaluation counts it
        // (escort_strike_chance), at the best such hex free of enemy units
        if (cmd && !disrupted && !alone && !nap.empty() && p.combat_phase >= 0 &&
            s.phase <= p.combat_phase) {
            const hex::Hex nap_hex = *d.map.parse_label(nap);
            const int dn = hex::distance(*h, nap_hex);
            double best = 0;
            EscortTarget e;
            int nap_owner = -1;
            if (dn >= 2 && dn <= 4)
                for (int i : s.stack(core::Location::at(nap_hex)))
                    if (p.napoleon[static_cast<size_t>(s.piece(i).type)])
                        nap_owner = s.piece(i).owner;
            if (nap_owner >= 0 && escort_target(s, p, nap_hex, nap_owner, e))
                for (const hex::Hex& x : hex::neighbours(nap_hex)) {
                    const core::HexDef* xd = d.map.find(x);
                    if (!xd || !d.map.terrain_types[static_cast<size_t>(xd->terrain)].playable ||
                        hex::distance(x, *h) > 3 ||
                        has_unit(s, p, core::Location::at(x), nap_owner))
                        continue;
                    best = std::max(
                        best, escort_strike_from(s, p, e, x, core::Location::at(*h), role_idx));
                }
            hunt = std::max(hunt, kEscortStrikeWin * best);
        }
        // 14.4: the objective that wins by this Turn's end (Paris with the south held, or the south
        // with Paris held) within a march (3 hexes, 5 forced) and an attack of the stack
        const unsigned decisive = decisive_objectives(s, p, role_idx);
        double strike = 0;
        if (cmd && !disrupted)
            for (size_t oi = 0; oi < p.objectives.size(); ++oi) {
                if (!(decisive >> oi & 1u)) continue;
                const int dp = hex::distance(*h, p.objectives[oi].hex);
                strike = std::max(strike, strike_train(dp));
            }
        // the depot plan: a city of it within a march that no unit of the stack's side holds yet
        double plan = 0;
        if (cmd && !disrupted && g_plan && !g_plan->site.empty())
            for (const std::string& c : g_plan->hold) {
                auto ch = d.map.parse_label(c);
                if (!ch || hex::distance(*ch, *h) > 3 || has_unit(s, p, core::Location::at(*ch), role_idx)) continue;
                plan = std::max(plan, c == g_plan->site ? 2.0 * kPlanHold : kPlanHold);
            }
        // the stack's OF in halves (its units of the role's side)
        auto stack_of2 = [&] {
            double of2 = 0;
            for (int j : s.stack(core::Location::at(*h)))
                if (s.piece(j).owner == role_idx && p.unit[static_cast<size_t>(s.piece(j).type)]) of2 += p.of2[static_cast<size_t>(s.piece(j).type)];
            return of2;
        };
        // 14.4, 7.6, 10.1: on the last two Turns a stack next to an objective the attacker does
        // not hold is the assault's force; without a train it gets a forage marker (next to two
        // friendly stacks, or out of supply outside friendly territory) and may not attack
        double assault = 0;
        if (cmd && !disrupted && last_two_turns(s) && p.forage_rule)
            for (const auto& o : p.objectives) {
                if (hex::distance(o.hex, *h) != 1 || has_unit(s, p, core::Location::at(o.hex), role_idx)) continue;
                const bool supplied_here = in_root_supply(role_idx, *h);
                if (forage_failure_chance(s, p, *h, role_idx) == 0 && supplied_here) continue;
                assault = std::max(assault, kAssaultTrainPerOf * stack_of2());
            }
        // 8.1, 8.4, 10.1: a stack with a disrupted unit can neither move nor attack until a train
        // and its Commanders rally it. Near an objective the attacker does not hold (a march and an
        // attack), it is the force that takes it: its rally is worth a far stack's march, when a
        // Turn is left to use it (seed 2, Turns 9-12: Giulay's four units stood two hexes from
        // Paris on their own depot with one disrupted unit; the stack's train was valued 1.6, the
        // lowest on the map, and it never moved again).
        // The rally (8.1) comes before the combat phase (10) of the same Turn: a stack next to such
        // an objective whose Commanders rally all its disrupted units (10.1: a stack with one may
        // not attack) may attack it this Turn, the last one too, and the train keeps the forage
        // marker off (7.6, 10.1). Its train is then worth an undisrupted stack's there: the
        // assault's (the last two Turns) or the strike's (the south held). In 61 of the 84 losses
        // of 300 games the south was held and a Coalition unit stood next to Paris at the end (in
        // each of 12 saved ones, a stack with a disrupted unit); on the last Turn the rally of one in
        // supply was valued at 0.
        // The strike's reach (14.4, 8.1, 8.4): with the objective winning by a Turn's end two to
        // six hexes away, a stack held still by disrupted units its Commanders all rally, in
        // supply (8.1), marches on it next Turn: its rally is worth kRallyStrikeShare of the
        // strike's train. Seen on seed 47541, Turn 10: the south held, nearly every Bohemian stack
        // 4-7 hexes from Paris held by a disrupted unit; the two in supply were valued 17 and 67
        // for a train against 1500-3000 for an undisrupted stack there.
        double rally = 0;
        if (cmd && disrupted && cr_sum > 0)
            for (size_t oi = 0; oi < p.objectives.size(); ++oi) {
                const auto& o = p.objectives[oi];
                const int dn = hex::distance(o.hex, *h);
                if (has_unit(s, p, core::Location::at(o.hex), role_idx)) continue;
                const bool attack_now = dn == 1 && cr_sum >= disrupted_units;
                if (length > 0 && s.turn >= length && !attack_now) continue;  // no Turn left to use it
                if ((decisive >> oi & 1u) && dn >= 2 && cr_sum >= disrupted_units && in_root_supply(role_idx, *h))
                    rally = std::max(rally, kRallyStrikeShare * strike_train(dn));
                if (dn > kRallyNearHexes) continue;
                const double freed = std::min(1.0, static_cast<double>(cr_sum) / disrupted_units);
                rally = std::max(rally, kRallyNear * own_whole * freed);
                if (!attack_now) continue;
                if (decisive >> oi & 1u) rally = std::max(rally, kStrikeNear);
                if (last_two_turns(s)) rally = std::max(rally, kAssaultTrainPerOf * stack_of2());
            }
        if (standing) *standing = assault + forage + rally;
        return own * 2.0 * std::min(dist, 5.0) * reach + lead_gain + hunt + strike + plan + assault + forage + rally;
    }
    // the defender: stacks with enemies near can strike (or must get away)
    int enemies = 0;
    for (const auto& [loc, ids] : s.stacks()) {
        if (!loc.is_hex() || hex::distance(loc.hex, *h) > 4) continue;
        for (int i : ids) {
            const auto& pc = s.piece(i);
            if (pc.owner >= 0 && pc.owner != role_idx && p.unit[static_cast<size_t>(pc.type)]) ++enemies;
        }
    }
    if (standing) *standing = forage;
    return own * (enemies > 0 ? 4.0 : 1.0) + forage;
}

}  // namespace vedette::ai
