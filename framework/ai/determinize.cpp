// Building a state consistent with one role's view (docs/ai.md "Hidden information").
#include <algorithm>
#include <map>
#include <set>

#include "ai/ai.hpp"
#include "core/state_json.hpp"

namespace vedette::ai {

using nlohmann::json;

namespace {

bool is_genuine(const core::CounterType& ct) {
    auto it = ct.stats.find("genuine");
    return it == ct.stats.end() || !it->second.is_int() || it->second.as_int() != 0;
}

// The private box a marker counter stands for on the map (its text stat "box"), or "".
std::string box_of_marker(const core::CounterType& ct) {
    auto it = ct.stats.find("box");
    return it != ct.stats.end() && it->second.is_string() ? it->second.as_string() : std::string();
}

// Other roles' private boxes (e.g. 1814's hidden forces, 15.1): the view shows no piece in them,
// at most how many there are. The order of battle is public, so the enemy's combat units of the
// scenario that the view shows nowhere are the candidates; each goes into one of the boxes whose
// marker is on the map (every such box holds at least one), where the view gives a box's count
// that many. Units removed from play would be counted too: an accepted approximation.
void fill_private_boxes(const core::ModuleDef& d, const session::Session& s, const std::string& role,
                        const json& counts, json& v, core::Rng& rng) {
    const core::ScenarioDef* sc = d.scenario(s.setup().scenario);
    if (!sc) return;
    std::set<std::string> shown;
    for (const auto& p : v["pieces"]) shown.insert(p.value("id", std::string()));
    // Boxes to fill: those of other roles whose marker is on the map.
    std::vector<std::string> boxes;
    std::map<std::string, int> known;  // box location text -> pieces it holds, when shown
    for (const auto& p : v["pieces"]) {
        const int t = d.counter_type_index(p.value("type", std::string()));
        if (t < 0) continue;
        const std::string box = box_of_marker(d.counter_types[static_cast<size_t>(t)]);
        const std::string loc = p.value("loc", std::string());
        if (box.empty() || loc.empty() || loc.rfind("box:", 0) == 0) continue;
        for (const auto& b : d.map.boxes)
            if (b.id == box && b.is_private && b.owner != role) {
                boxes.push_back("box:" + box);
                if (counts.contains("box:" + box)) known["box:" + box] = counts["box:" + box].get<int>();
            }
    }
    if (boxes.empty()) return;
    std::vector<const core::Placement*> missing;
    for (const auto& pl : sc->placements) {
        if (pl.id.empty() || pl.count != 1 || shown.count(pl.id)) continue;
        const int t = d.counter_type_index(pl.type);
        if (t < 0) continue;
        const auto& ct = d.counter_types[static_cast<size_t>(t)];
        const std::string owner = pl.owner.empty() ? ct.side : pl.owner;
        if (owner == role || owner.empty() || ct.category != "unit") continue;
        missing.push_back(&pl);
    }
    for (size_t k = missing.size(); k > 1; --k)
        std::swap(missing[k - 1], missing[rng.below(static_cast<std::uint32_t>(k))]);
    // One for each box first (a marker on the map stands for a non-empty box), known counts
    // filled exactly, the rest spread at random over the boxes whose size is unknown.
    std::map<std::string, int> want;
    for (const auto& b : boxes) want[b] = known.count(b) ? known[b] : 1;
    std::vector<std::string> open;
    for (const auto& b : boxes)
        if (!known.count(b)) open.push_back(b);
    std::map<std::string, json> stack_of;
    size_t next = 0;
    auto place = [&](const core::Placement& pl, const std::string& box) {
        const auto& ct = d.counter_types[static_cast<size_t>(d.counter_type_index(pl.type))];
        json pj = {{"id", pl.id},
                   {"type", ct.id},
                   {"face", ct.faces.empty() ? std::string() : ct.faces.front().id},
                   {"hidden", false},
                   {"owner", pl.owner.empty() ? ct.side : pl.owner},
                   {"loc", box},
                   {"props", json::object()}};
        v["pieces"].push_back(std::move(pj));
        stack_of[box].push_back(pl.id);
    };
    for (const auto& b : boxes)
        for (int k = 0; k < want[b] && next < missing.size(); ++k) place(*missing[next++], b);
    if (!open.empty())
        while (next < missing.size())
            place(*missing[next++], open[rng.below(static_cast<std::uint32_t>(open.size()))]);
    for (auto& [box, ids] : stack_of) v["stacks"].push_back({{"loc", box}, {"pieces", ids}});
}


}  // namespace

core::GameState determinize(const session::Session& s, const std::string& role, core::Rng& rng) {
    const core::ModuleDef& d = s.def();
    json v = s.view(role);
    v.erase("role");
    const json private_counts = v.value("private_boxes", json::object());
    v.erase("private_boxes");
    v.erase("hash");
    fill_private_boxes(d, s, role, private_counts, v, rng);

    // Hidden pieces: "hidden_N" of type X (the back). Candidate real types: those hidden as X.
    // The number of decoys (genuine = 0) still hidden is what the public pieces do not account
    // for: every decoy counter the role can see face up is not among the hidden ones.
    std::map<std::string, std::vector<size_t>> hidden_by_back;
    std::map<std::string, int> visible_count;  // real type id -> pieces seen face up
    json& pieces = v["pieces"];
    for (size_t i = 0; i < pieces.size(); ++i) {
        const json& p = pieces[i];
        if (p.value("hidden", false) && p.value("id", std::string()).rfind("hidden_", 0) == 0)
            hidden_by_back[p.value("type", std::string())].push_back(i);
        else
            visible_count[p.value("type", std::string())]++;
    }
    for (auto& [back, idx] : hidden_by_back) {
        std::string genuine, decoy;
        for (const auto& ct : d.counter_types) {
            if (ct.hidden_as != back) continue;
            if (is_genuine(ct)) {
                if (genuine.empty()) genuine = ct.id;
            } else if (decoy.empty()) {
                decoy = ct.id;
            }
        }
        if (genuine.empty()) continue;  // unknown look-alike: keep the back (rules may refuse)
        // Total decoys: the counter mix is the same for both sides (7.5: two dummy trains
        // each), so the role counts its own decoy counters in its own view.
        int decoys_total = 0;
        if (!decoy.empty())
            for (const auto& ct : d.counter_types)
                if (ct.side == role && !is_genuine(ct) && !ct.hidden_as.empty())
                    decoys_total += visible_count[ct.id];
        int decoys_hidden = std::max(0, decoys_total - visible_count[decoy]);
        decoys_hidden = std::min<int>(decoys_hidden, static_cast<int>(idx.size()));
        // Choose which hidden pieces are the decoys (a uniform draw without replacement).
        std::vector<size_t> order = idx;
        for (size_t k = order.size(); k > 1; --k)
            std::swap(order[k - 1], order[rng.below(static_cast<std::uint32_t>(k))]);
        for (size_t k = 0; k < order.size(); ++k) {
            json& p = pieces[order[k]];
            const std::string type = static_cast<int>(k) < decoys_hidden ? decoy : genuine;
            p["type"] = type;
            const auto* ct = &d.counter_types[static_cast<size_t>(d.counter_type_index(type))];
            p["face"] = ct->faces.empty() ? std::string() : ct->faces.front().id;
        }
    }

    // Piles: cards the role cannot see are drawn from the decks' cards it has not seen.
    std::set<std::string> seen;
    for (auto& [id, pj] : v["piles"].items())
        if (pj.contains("cards"))
            for (const auto& c : pj["cards"]) seen.insert(c.get<std::string>());
    std::vector<std::string> unseen;
    for (const auto& deck : d.decks)
        for (const auto& c : deck.cards)
            if (!seen.count(c.id)) unseen.push_back(c.id);
    for (size_t k = unseen.size(); k > 1; --k)
        std::swap(unseen[k - 1], unseen[rng.below(static_cast<std::uint32_t>(k))]);
    size_t next = 0;
    for (auto& [id, pj] : v["piles"].items()) {
        if (!pj.contains("cards")) {
            json cards = json::array();
            const int n = pj.value("count", 0);
            for (int k = 0; k < n && next < unseen.size(); ++k) cards.push_back(unseen[next++]);
            pj["cards"] = cards;
            pj["visibility"] = "nobody";
        } else {
            pj["visibility"] = "all";
        }
        pj.erase("count");
    }
    const std::uint64_t st = (static_cast<std::uint64_t>(rng.next_u32()) << 32) | rng.next_u32();
    v["rng"] = {{"algorithm", "pcg32"}, {"state", core::hash_hex(st)}, {"inc", core::hash_hex(0x9e3779b97f4a7c15ull)}};
    v["forced_dice"] = json::array();
    return core::state_from_json(s.state().def_ptr(), v);
}

}  // namespace vedette::ai
