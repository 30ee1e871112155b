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


}  // namespace

core::GameState determinize(const session::Session& s, const std::string& role, core::Rng& rng) {
    const core::ModuleDef& d = s.def();
    json v = s.view(role);
    v.erase("role");
    v.erase("private_boxes");
    v.erase("hash");

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
