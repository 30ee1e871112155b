#include "synthetic_module.hpp"

#include <cmath>
#include <set>

namespace vedette::gui::testing {

namespace {
struct Lcg {
    std::uint64_t s;
    std::uint32_t next() {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<std::uint32_t>(s >> 33);
    }
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint32_t>(n)); }
};
}  // namespace

std::shared_ptr<core::ModuleDef> synthetic_module(int cols, int rows) {
    auto d = std::make_shared<core::ModuleDef>();
    d->id = "synthetic";
    d->name = "Synthetic benchmark module";
    d->sides = {{"blue", "Blue", "#3a5caa"}, {"red", "Red", "#b03a2e"}};
    d->phases = {{"movement", "Movement"}, {"combat", "Combat"}};
    auto& m = d->map;
    m.id = "synthetic";
    m.cols = cols;
    m.rows = rows;
    m.grid = {hex::Orientation::FlatTop, hex::Parity::Odd};
    m.numbering.rows = rows;
    m.terrain_types = {{"clear", "Clear", "#e9e2c4", "", true},
                       {"forest", "Forest", "#b9cf9a", "forest", true},
                       {"marsh", "Marsh", "#c8d8c0", "marsh", true},
                       {"rough", "Rough", "#dccba0", "rough", true},
                       {"mountain", "Mountain", "#cdb48e", "mountain", true},
                       {"sea", "Sea", "#9cc2e4", "sea", false}};
    m.hexside_types = {{"river", "River", "#2f62c8"}, {"major_river", "Major river", "#2050b8"},
                       {"bridge", "Bridge", ""}, {"lake", "Lake", "#8fb8e0"}, {"road", "Road", "#9a4a2a"},
                       {"pass", "Pass", ""}};
    m.feature_types = {{"city", "City"}, {"fortified", "Fortified city"}, {"capital", "Capital"}};
    Lcg rng{12345};
    for (int c = 0; c < cols; ++c)
        for (int r = 0; r < rows; ++r) {
            core::HexDef h;
            h.hex = hex::from_offset({c, r}, m.grid);
            h.label = hex::format_label({c, r}, m.numbering);
            const double n = std::sin(c * 0.37) * std::cos(r * 0.29) + std::sin((c + r) * 0.13) * 0.6;
            if (c + r * 0.3 < 4 || (r > rows - 3 && c < 10)) h.terrain = 5;
            else if (n > 0.75) h.terrain = 4;
            else if (n > 0.45) h.terrain = 3;
            else if (n < -0.8) h.terrain = 2;
            else if (rng.below(100) < 18) h.terrain = 1;
            m.hexes.push_back(h);
        }
    std::sort(m.hexes.begin(), m.hexes.end(), [](const auto& a, const auto& b) { return a.hex < b.hex; });
    m.index();
    static const char* names[] = {"Paris", "Reims", "Troyes", "Châlons", "Soissons", "Laon", "Meaux", "Provins",
                                  "Nogent", "Arcis", "Sens", "Auxerre", "Vitry", "Brienne", "Montereau", "Épernay",
                                  "Château-Thierry", "Fontainebleau", "Melun", "Nangis", "Sézanne", "Langres",
                                  "Chaumont", "Bar-sur-Aube", "Saint-Dizier", "Compiègne", "Noyon", "Craonne"};
    int ni = 0;
    for (auto& h : m.hexes) {
        if (h.terrain == 5) continue;
        if (rng.below(100) < 3 && ni < 28) {
            h.features = {0};
            if (rng.below(3) == 0) h.features = {0, 1};
            if (ni == 0) h.features = {0, 1, 2};
            h.name = names[ni++];
        } else if (rng.below(100) < 3) {
            h.name = "Village";
        }
    }
    // Rivers: random walks along hexsides; bridges on some; a lake; roads between neighbours.
    std::map<hex::HexsideKey, std::set<int>> sides;
    for (int river = 0; river < 7; ++river) {
        hex::Hex h = hex::from_offset({6 + rng.below(cols - 8), rng.below(rows)}, m.grid);
        int dir = rng.below(6);
        const int type = river < 2 ? 1 : 0;
        for (int step = 0; step < 40; ++step) {
            if (!m.find(h)) break;
            sides[hex::hexside(h, dir)].insert(type);
            if (rng.below(9) == 0) sides[hex::hexside(h, dir)].insert(2);
            // walk: move to a neighbour that shares the next corner
            if (rng.below(2) == 0) {
                h = hex::neighbour(h, dir);
                dir = (dir + 4) % 6;
            } else {
                dir = (dir + 1) % 6;
            }
        }
    }
    for (int k = 0; k < 6; ++k) sides[hex::hexside(hex::from_offset({30, 8}, m.grid), k)].insert(3);
    for (int road = 0; road < 10; ++road) {
        hex::Hex h = hex::from_offset({6 + rng.below(cols - 8), rng.below(rows)}, m.grid);
        int dir = rng.below(6);
        for (int step = 0; step < 14; ++step) {
            const hex::Hex nb = hex::neighbour(h, dir);
            if (!m.find(nb)) break;
            sides[hex::hexside(h, dir)].insert(4);
            h = nb;
            dir = (dir + (rng.below(3) - 1) + 6) % 6;
        }
    }
    sides[hex::hexside(hex::from_offset({35, 20}, m.grid), 1)].insert(5);
    for (const auto& [k, t] : sides) m.hexsides.push_back({k, std::vector<int>(t.begin(), t.end()), {}});
    std::sort(m.hexsides.begin(), m.hexsides.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
    core::RegionDef fr{"france", "France", {}}, gl{"green_line", "Green line", {}};
    for (const auto& h : m.hexes) {
        const auto o = hex::to_offset(h.hex, m.grid);
        if (o.col >= 22 && h.terrain != 5) fr.hexes.push_back(h.hex);
        if (o.col >= 12 && o.col <= 16 + o.row / 6 && h.terrain != 5) gl.hexes.push_back(h.hex);
    }
    std::sort(fr.hexes.begin(), fr.hexes.end());
    std::sort(gl.hexes.begin(), gl.hexes.end());
    m.regions = {fr, gl};
    m.boxes = {{"eliminated", "Eliminated", "", false}};
    m.index();

    auto unit = [&](std::string id, std::string name, std::string side, std::string cat, std::string arm,
                    std::vector<std::pair<std::string, core::Value>> stats) {
        core::CounterType ct;
        ct.id = id;
        ct.name = name;
        ct.side = side;
        ct.category = cat;
        ct.faces = {{"front", "Ready"}, {"disrupted", "Disrupted"}};
        if (!arm.empty()) ct.stats["arm"] = core::Value(arm);
        for (auto& [k, v] : stats) ct.stats[k] = v;
        d->counter_types.push_back(ct);
    };
    unit("fr_inf", "Ney III", "blue", "unit", "infantry", {{"strength", 6}, {"morale", 4}, {"movement", 5}, {"nation", core::Value("french")}});
    unit("fr_cav", "Grouchy", "blue", "unit", "cavalry", {{"strength", 3}, {"morale", 4}, {"movement", 8}});
    unit("fr_art", "Guard Art.", "blue", "unit", "artillery", {{"strength", 4}, {"movement", 4}});
    unit("fr_cmd", "Napoleon", "blue", "commander", "", {{"cr", 5}, {"seniority", 1}});
    unit("ru_inf", "Sacken", "red", "unit", "infantry", {{"strength", 5}, {"morale", 3}, {"movement", 5}, {"nation", core::Value("russian")}});
    unit("pr_inf", "Yorck", "red", "unit", "infantry", {{"strength", 5}, {"morale", 4}, {"movement", 5}, {"nation", core::Value("prussian")}});
    unit("au_cav", "Liechtenstein", "red", "unit", "cavalry", {{"strength", 3}, {"morale", 3}, {"movement", 8}, {"nation", core::Value("austrian")}});
    unit("al_cmd", "Blücher", "red", "commander", "", {{"cr", 4}, {"seniority", 2}});
    unit("supply_back", "Supply?", "red", "marker", "supply", {});
    d->counter_types.back().faces = {{"back", "Back"}};
    return d;
}

nlohmann::json synthetic_view(const core::ModuleDef& def, int n) {
    using nlohmann::json;
    json pieces = json::array(), stacks = json::array();
    Lcg rng{777};
    std::map<std::string, std::vector<std::string>> at;
    std::vector<std::string> order;
    for (int i = 0; i < n; ++i) {
        const auto& h = def.map.hexes[static_cast<size_t>(rng.below(static_cast<int>(def.map.hexes.size())))];
        if (!def.map.terrain_types[static_cast<size_t>(h.terrain)].playable) continue;
        const int t = rng.below(static_cast<int>(def.counter_types.size()));
        if (def.side_index(def.counter_types[static_cast<size_t>(t)].side) < 0) continue;
        const auto& ct = def.counter_types[static_cast<size_t>(t)];
        json p = {{"id", ct.id + "_" + std::to_string(i)}, {"type", ct.id}, {"face", ct.faces[0].id},
                  {"owner", ct.side}, {"hidden", false}, {"loc", h.label}, {"props", json::object()}};
        if (rng.below(6) == 0 && ct.faces.size() > 1) p["face"] = "disrupted";
        if (ct.id == "supply_back") {
            p["hidden"] = true;
            p["face"] = "";
            p["id"] = "hidden_" + std::to_string(i);
        }
        // a few stacks: put some pieces on the previous location
        if (!order.empty() && rng.below(3) == 0) p["loc"] = order.back();
        const std::string loc = p["loc"];
        if (!at.count(loc)) order.push_back(loc);
        at[loc].push_back(p["id"]);
        pieces.push_back(p);
    }
    for (const auto& loc : order) stacks.push_back({{"loc", loc}, {"pieces", at[loc]}});
    return {{"pieces", pieces}, {"stacks", stacks}, {"turn", 1}, {"phase", "movement"}, {"active", "blue"},
            {"result", ""}, {"role", "blue"},
            {"decision", {{"role", "blue"}, {"step", "move"}, {"prompt", "Move a unit"}, {"rule", "8.1"}}}};
}

}  // namespace vedette::gui::testing
