// vedette-ai-probe: what the attacker's AI faced in saved games, read by replaying each save's log
// (no decision is re-run, so a save is read in about a second). docs/ai.md, round 39.
//
//   vedette-ai-probe gate SAVE... [--module DIR] [--sites]
//     at the start of each Turn's movement phase from Turn 7 (the depots made, 7.7): how many of
//     the capital's neighbours lie in the attacker's supply field (rules.ai_supply_field), and how
//     many would with every empty city held by one of its units (6.2: no route through an enemy
//     city a friendly stack does not hold), with no enemy cavalry on the map (6.2's screen), and
//     both; the best single new depot on a city within three of the capital, without and with the
//     cities held (7.8's chain aside: the field only); the attacker's depot nearest the capital,
//     the field's nearest hex to it, and the attacker's stacks that could strike it without a
//     forced march (in the field, within four hexes, a Commander, no disrupted unit: 8.4, 10.1)
//   vedette-ai-probe plan SAVE... [--module DIR]
//     at the attacker's first decision of each Turn's active supply phase (7.1-7.4): the AI's depot
//     plan (DepotPlan: site, the cities to hold, '+' where the attacker holds one now), its depots
//     (hexes from the capital), and the depots it made that Turn (7.7); at the end, over the
//     saves: per Turn the median distance of the nearest depot from the capital and the saves
//     with one within three hexes, and the saves that had one within three at any Turn
//
// For modules of the cnw series (1814): the supply counter "<side>_supply" with its "depot" face,
// cities as the map feature "city", cavalry by the counter stat type = "cavalry".
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "ai/ai.hpp"
#include "data/loader.hpp"
#include "script/rules_host.hpp"
#include "session/session.hpp"

namespace {
using namespace vedette;
using json = nlohmann::json;
namespace fs = std::filesystem;

struct Module {
    std::shared_ptr<const core::ModuleDef> def;
    std::shared_ptr<script::RulesHost> rules;
    std::string dir;
};

std::optional<Module> load_module(const std::string& dir) {
    auto r = data::load_module(dir);
    if (!r.ok()) {
        for (const auto& e : r.errors) std::cerr << e.str() << "\n";
        return std::nullopt;
    }
    Module m{r.module, nullptr, dir};
    m.rules = std::shared_ptr<script::RulesHost>(script::RulesHost::load(m.def));
    return m;
}

std::string module_dir_of(const json& save, const std::string& given) {
    if (!given.empty()) return given;
    if (save.is_object() && save.contains("module") && save["module"].is_object()) {
        for (const std::string& c : {save["module"].value("path", ""), "modules/" + save["module"].value("id", "")})
            if (!c.empty() && fs::exists(fs::path(c) / "module.xml")) return c;
    }
    throw std::runtime_error("cannot find the save's module; pass --module DIR");
}

std::int64_t key(hex::Hex h) { return (static_cast<std::int64_t>(h.q) << 32) ^ static_cast<std::uint32_t>(h.r); }

// What one probe needs of the module: the attacker, the capital, cities, counters.
struct Setting {
    const core::ModuleDef* def = nullptr;
    script::RulesHost* rules = nullptr;
    std::string side_id;
    int side = -1;
    hex::Hex capital{};
    int supply_type = -1, depot_face = -1;
    std::vector<hex::Hex> cities;  // within 9 of the capital, the capital aside

    bool is(const core::Piece& p, const char* category) const { return def->counter_types[static_cast<size_t>(p.type)].category == category; }
    bool cavalry(const core::Piece& p) const {
        const auto& st = def->counter_types[static_cast<size_t>(p.type)].stats;
        auto it = st.find("type");
        return it != st.end() && it->second.is_string() && it->second.as_string() == "cavalry";
    }
    bool depot(const core::Piece& p) const { return p.type == supply_type && p.face == depot_face; }
    // the hexes of the side's supply field (rules.ai_supply_field)
    std::set<std::int64_t> field(const core::GameState& g) const {
        core::GameState c = g;
        std::set<std::int64_t> out;
        const core::Value v = rules->call(c, "ai_supply_field", {core::Value(side_id)});
        if (!v.is_object()) throw std::runtime_error("rules.ai_supply_field did not return a table");
        for (const auto& [label, flag] : v.as_object()) {
            (void)flag;
            if (auto h = def->map.parse_label(label)) out.insert(key(*h));
        }
        return out;
    }
    int next_to_capital(const std::set<std::int64_t>& f) const {
        int n = 0;
        for (const hex::Hex& x : hex::neighbours(capital))
            if (f.count(key(x))) ++n;
        return n;
    }
};

Setting setting_for(const Module& m) {
    Setting st;
    st.def = m.def.get();
    st.rules = m.rules.get();
    const auto& d = *m.def;
    for (size_t i = 0; i < d.sides.size(); ++i)
        if (ai::attacker_role(d, d.sides[i].id)) st.side_id = d.sides[i].id, st.side = static_cast<int>(i);
    const std::string cap = ai::capital_objective(d);
    if (st.side < 0 || cap.empty()) throw std::runtime_error(m.dir + ": the module names no attacker with a capital objective");
    if (!m.rules->has_function("ai_supply_field")) throw std::runtime_error(m.dir + ": the rules have no ai_supply_field");
    st.capital = *d.map.parse_label(cap);
    st.supply_type = d.counter_type_index(st.side_id + "_supply");
    if (st.supply_type < 0) throw std::runtime_error(m.dir + ": no counter type " + st.side_id + "_supply");
    st.depot_face = d.counter_types[static_cast<size_t>(st.supply_type)].face_index("depot");
    int city = -1;
    for (size_t i = 0; i < d.map.feature_types.size(); ++i)
        if (d.map.feature_types[i].id == "city") city = static_cast<int>(i);
    for (const auto& hd : d.map.hexes)
        if (std::count(hd.features.begin(), hd.features.end(), city) && !(hd.hex == st.capital) &&
            hex::distance(hd.hex, st.capital) <= 9)
            st.cities.push_back(hd.hex);
    return st;
}

void gate_line(const Setting& st, const core::GameState& g, bool sites) {
    const auto& d = *st.def;
    int unit_type = -1;
    std::set<std::int64_t> enemy_at;
    for (const auto& p : g.pieces()) {
        if (!p.loc.is_hex()) continue;
        if (p.owner == st.side && unit_type < 0 && st.is(p, "unit")) unit_type = p.type;
        if (p.owner >= 0 && p.owner != st.side) enemy_at.insert(key(p.loc.hex));
    }
    if (unit_type < 0) return;
    const auto f0 = st.field(g);
    core::GameState held = g;  // every city no piece of the enemy stands on, held by a probe unit
    int n = 0;
    for (const hex::Hex& c : st.cities)
        if (!enemy_at.count(key(c)))
            held.create_piece(unit_type, "ai_probe_hold_" + std::to_string(n++), st.side, core::Location::at(c), 0);
    auto without_cavalry = [&](core::GameState x) {
        for (int j = 0; j < x.piece_count(); ++j) {
            const auto& p = x.piece(j);
            if (p.owner >= 0 && p.owner != st.side && p.loc.is_hex() && st.is(p, "unit") && st.cavalry(p))
                x.move_piece(j, core::Location::nowhere());
        }
        return x;
    };
    const auto fh = st.field(held);
    const int n0 = st.next_to_capital(f0), nh = st.next_to_capital(fh);
    const int nc = st.next_to_capital(st.field(without_cavalry(g))), nb = st.next_to_capital(st.field(without_cavalry(held)));
    std::string best = "-", best_held = "-", per;
    int nd = -1, ndh = -1;
    for (const hex::Hex& c : st.cities) {
        if (hex::distance(c, st.capital) > 3 || enemy_at.count(key(c))) continue;
        core::GameState a = g, b = held;
        a.create_piece(st.supply_type, "ai_probe_depot", st.side, core::Location::at(c), st.depot_face);
        b.create_piece(st.supply_type, "ai_probe_depot", st.side, core::Location::at(c), st.depot_face);
        const int x = st.next_to_capital(st.field(a)), y = st.next_to_capital(st.field(b));
        if (x > nd) nd = x, best = d.map.label(c);
        if (y > ndh) ndh = y, best_held = d.map.label(c);
        per += " " + d.map.label(c) + ":" + std::to_string(x) + "/" + std::to_string(y);
    }
    int depot = 99, lead = 99;
    for (const auto& p : g.pieces())
        if (p.owner == st.side && p.loc.is_hex() && st.depot(p)) depot = std::min(depot, hex::distance(p.loc.hex, st.capital));
    for (const auto& hd : d.map.hexes)
        if (f0.count(key(hd.hex))) lead = std::min(lead, hex::distance(hd.hex, st.capital));
    std::string strike;
    for (const auto& [loc, ids] : g.stacks()) {
        if (!loc.is_hex() || hex::distance(loc.hex, st.capital) > 4 || !f0.count(key(loc.hex))) continue;
        int units = 0;
        bool commander = false, disrupted = false;
        for (int j : ids) {
            const auto& p = g.piece(j);
            if (p.owner != st.side) continue;
            if (st.is(p, "commander")) commander = true;
            if (st.is(p, "unit")) {
                ++units;
                disrupted = disrupted || d.counter_types[static_cast<size_t>(p.type)].faces[static_cast<size_t>(p.face)].id == "disrupted";
            }
        }
        if (units > 0 && commander && !disrupted)
            strike += " " + d.map.label(loc.hex) + "@" + std::to_string(hex::distance(loc.hex, st.capital)) + ":" + std::to_string(units);
    }
    std::cout << "T" << g.turn << " next to the capital in the field " << n0 << " (cities held " << nh << ", no cavalry "
              << nc << ", both " << nb << "); best depot within 3 " << best << " " << nd << " (cities held: " << best_held
              << " " << ndh << "); nearest depot " << depot << ", field " << lead << " from the capital; strike stacks"
              << (strike.empty() ? " none" : strike) << "\n";
    if (sites) std::cout << "   sites (field / cities held)" << (per.empty() ? " none" : per) << "\n";
}

// One Turn of the plan mode: the side's nearest depot to the capital (99: none), and whether the
// depot plan's site is held by a combat unit of the side (7.7: a depot on an enemy city needs a
// friendly stack there; the evaluation's kPlanHold counts a combat unit), -1 without a plan.
struct PlanTurn {
    int nearest = 99;
    int site_held = -1;
};

PlanTurn plan_line(const Setting& st, const core::GameState& g) {
    const auto& d = *st.def;
    ai::DepotPlan plan;
    ai::update_depot_plan(plan, st.rules, g, st.side_id);
    std::cout << "T" << g.turn << " depots";
    PlanTurn out;
    for (const auto& p : g.pieces())
        if (p.owner == st.side && p.loc.is_hex() && st.depot(p)) {
            out.nearest = std::min(out.nearest, hex::distance(p.loc.hex, st.capital));
            std::cout << " " << d.map.label(p.loc.hex) << "/" << hex::distance(p.loc.hex, st.capital);
        }
    if (plan.site.empty()) {
        std::cout << "; no plan\n";
        return out;
    }
    std::cout << "; plan site " << plan.site << "/" << hex::distance(*d.map.parse_label(plan.site), st.capital) << ", hold";
    for (const std::string& c : plan.hold) {
        bool held = false;
        for (int j : g.stack(core::Location::at(*d.map.parse_label(c))))
            if (g.piece(j).owner == st.side && st.is(g.piece(j), "unit")) held = true;
        std::cout << " " << c << (held ? "+" : "-");
        if (c == plan.site) out.site_held = held ? 1 : 0;
    }
    std::cout << "\n";
    return out;
}

// The plan mode's totals over the saves, per Turn (the Turns a save reached): the median
// distance of the nearest depot from the capital and how many saves had one within three hexes
// (a march and an attack from Paris's neighbours: docs/ai.md, rounds 39 and 55), and the saves
// whose plan's site was held; then the same split by how the game ended for the side (round 60:
// in the losses the site stood empty on more Turns and the chain stayed further out).
using PlanTotals = std::map<int, std::vector<PlanTurn>>;

void plan_totals_line(const std::string& title, const PlanTotals& turns) {
    std::cout << "# " << title << ":";
    for (const auto& [turn, v] : turns) {
        std::vector<int> n;
        int site = 0, held = 0;
        for (const PlanTurn& t : v) {
            n.push_back(t.nearest);
            if (t.site_held >= 0) ++site, held += t.site_held;
        }
        std::sort(n.begin(), n.end());
        const double median =
            n.size() % 2 ? n[n.size() / 2] : (n[n.size() / 2 - 1] + n[n.size() / 2]) / 2.0;
        std::cout << " T" << turn << " " << median << " ("
                  << std::count_if(n.begin(), n.end(), [](int x) { return x <= 3; }) << " of " << n.size()
                  << ", site held " << held << "/" << site << ")";
    }
    std::cout << "\n";
}

void plan_totals(const std::map<std::string, PlanTotals>& by_outcome, int saves, int saves_near) {
    PlanTotals all;
    for (const auto& [outcome, turns] : by_outcome)
        for (const auto& [turn, v] : turns) all[turn].insert(all[turn].end(), v.begin(), v.end());
    plan_totals_line("nearest depot to the capital at the Turn's first allocation (median; saves with one "
                     "within 3 of the saves at that Turn, the plan's site held by a unit)",
                     all);
    if (by_outcome.size() > 1)
        for (const auto& [outcome, turns] : by_outcome) plan_totals_line("  " + outcome, turns);
    std::cout << "# saves with a depot within 3 of the capital at a Turn's first allocation: "
              << saves_near << " of " << saves << "\n";
}

int usage() {
    std::cerr << "usage: vedette-ai-probe gate|plan SAVE... [--module DIR] [--sites]\n";
    return 2;
}
}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) return usage();
    const std::string mode = argv[1];
    if (mode != "gate" && mode != "plan") return usage();
    std::string module_arg;
    bool sites = false;
    std::vector<std::string> saves;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--module" && i + 1 < argc) module_arg = argv[++i];
        else if (a == "--sites") sites = true;
        else if (a.rfind("--", 0) == 0) return usage();
        else saves.push_back(a);
    }
    if (saves.empty()) return usage();
    std::map<std::string, Module> modules;
    int failed = 0;
    std::map<std::string, PlanTotals> by_outcome;  // plan: per outcome (won, lost, unfinished), per Turn, each save's PlanTurn
    int planned = 0, planned_near = 0;
    for (const std::string& path : saves) {
        try {
            const json save = session::Session::read_json_file(path);
            const std::string dir = module_dir_of(save, module_arg);
            if (!modules.count(dir)) {
                auto m = load_module(dir);
                if (!m) throw std::runtime_error(dir + ": the module does not load");
                modules.emplace(dir, *m);
            }
            const Module& m = modules.at(dir);
            ai::set_feature_rules(m.rules.get());
            const Setting st = setting_for(m);
            std::cout << "# " << path << ": " << save["state"].value("result", "unfinished") << "\n";
            auto s = session::Session::restart(m.def, m.rules, save);
            const auto& log = save.at("log");
            int done = 0;
            std::map<int, PlanTurn> save_turns;  // this save's, counted once it replays whole
            for (size_t i = 0; i <= log.size(); ++i) {
                const core::GameState& g = s.state();
                const std::string phase = m.def->phases[static_cast<size_t>(g.phase)].id;
                const std::string role = i < log.size() ? log[i].at("role").get<std::string>() : "";
                if (g.turn > done && mode == "gate" && g.turn >= 7 && phase == "movement") {
                    done = g.turn;
                    gate_line(st, g, sites);
                }
                if (g.turn > done && mode == "plan" && phase == "active_supply" && role == st.side_id) {
                    done = g.turn;
                    save_turns[g.turn] = plan_line(st, g);
                }
                if (i == log.size()) break;
                const std::string action = log[i].at("action").get<std::string>();
                if (mode == "plan" && role == st.side_id && action.rfind("depot ", 0) == 0)
                    std::cout << "   T" << g.turn << " makes a depot at " << action.substr(6) << "\n";
                if (auto r = s.apply(role, action); !r.ok)
                    throw std::runtime_error("log entry " + std::to_string(i + 1) + " (" + role + " " + action + ") refused: " + r.refusal);
            }
            if (mode == "plan") {
                bool near = false;
                // how the game ended for the side (the tournament's reading of the result, 14.4)
                const std::string result = save["state"].value("result", "");
                const std::string winner = ai::winner_of(*m.def, result);
                const std::string outcome = result.empty() ? "unfinished" : winner == st.side_id ? "won" : "lost";
                for (const auto& [turn, t] : save_turns) {
                    by_outcome[outcome][turn].push_back(t);
                    near = near || t.nearest <= 3;
                }
                ++planned;
                planned_near += near ? 1 : 0;
            }
        } catch (const std::exception& e) {
            std::cerr << path << ": " << e.what() << "\n";
            ++failed;
        }
    }
    if (mode == "plan" && planned > 0) plan_totals(by_outcome, planned, planned_near);
    ai::set_feature_rules(nullptr);
    return failed ? 1 : 0;
}
