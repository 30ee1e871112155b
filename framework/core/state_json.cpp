#include "core/state_json.hpp"

#include <charconv>
#include <cstdio>

namespace vedette::core {

using nlohmann::json;

namespace {

constexpr int kMaxDepth = 64;

[[noreturn]] void fail(const std::string& path, const std::string& what) {
    throw FormatError(path + ": " + what);
}

const json& field(const json& j, const char* key, const std::string& path) {
    if (!j.is_object()) fail(path, "expected an object");
    auto it = j.find(key);
    if (it == j.end()) fail(path, std::string("missing \"") + key + "\"");
    return *it;
}

std::string get_string(const json& j, const char* key, const std::string& path) {
    const json& v = field(j, key, path);
    if (!v.is_string()) fail(path + "." + key, "expected a string");
    return v.get<std::string>();
}

std::int64_t get_int(const json& j, const char* key, const std::string& path) {
    const json& v = field(j, key, path);
    if (!v.is_number_integer()) fail(path + "." + key, "expected an integer");
    return v.get<std::int64_t>();
}

std::uint64_t get_u64_hex(const json& j, const char* key, const std::string& path) {
    const std::string s = get_string(j, key, path);
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
    if (ec != std::errc() || p != s.data() + s.size() || s.empty())
        fail(path + "." + key, "expected hexadecimal digits");
    return v;
}

bool get_bool(const json& j, const char* key, const std::string& path) {
    const json& v = field(j, key, path);
    if (!v.is_boolean()) fail(path + "." + key, "expected true or false");
    return v.get<bool>();
}

const char* visibility_name(Pile::Visibility v) {
    switch (v) {
        case Pile::Visibility::All: return "all";
        case Pile::Visibility::Owner: return "owner";
        default: return "nobody";
    }
}

}  // namespace

std::string hash_hex(std::uint64_t h) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

json value_to_json(const Value& v) {
    if (v.is_nil()) return nullptr;
    if (v.is_bool()) return v.as_bool();
    if (v.is_int()) return v.as_int();
    if (v.is_string()) return v.as_string();
    if (v.is_array()) {
        json a = json::array();
        for (const auto& e : v.as_array()) a.push_back(value_to_json(e));
        return a;
    }
    json o = json::object();
    for (const auto& [k, e] : v.as_object()) o[k] = value_to_json(e);
    return o;
}

Value value_from_json(const json& j, const std::string& path, int depth) {
    if (depth > kMaxDepth) fail(path, "nested too deeply");
    if (j.is_null()) return {};
    if (j.is_boolean()) return j.get<bool>();
    if (j.is_number_integer()) return j.get<std::int64_t>();
    if (j.is_string()) return j.get<std::string>();
    if (j.is_array()) {
        Array a;
        a.reserve(j.size());
        for (size_t i = 0; i < j.size(); ++i)
            a.push_back(value_from_json(j[i], path + "[" + std::to_string(i) + "]", depth + 1));
        return a;
    }
    if (j.is_object()) {
        Object o;
        for (const auto& [k, e] : j.items()) o[k] = value_from_json(e, path + "." + k, depth + 1);
        return o;
    }
    fail(path, "numbers in game data must be integers");
}

std::string location_text(const MapDef& map, const Location& loc) {
    switch (loc.kind) {
        case Location::Kind::Hex: return map.label(loc.hex);
        case Location::Kind::Box: return "box:" + map.boxes[static_cast<size_t>(loc.box)].id;
        default: return {};
    }
}

Location parse_location(const MapDef& map, std::string_view text) {
    if (text.empty()) return Location::nowhere();
    if (text.substr(0, 4) == "box:") {
        const int b = map.box_index(text.substr(4));
        if (b < 0) throw RuleError("no box '" + std::string(text.substr(4)) + "'");
        return Location::in_box(b);
    }
    auto h = map.parse_label(text);
    if (!h) throw RuleError("no hex '" + std::string(text) + "' on the map");
    return Location::at(*h);
}

json state_to_json(const GameState& s) {
    const ModuleDef& d = s.def();
    json j;
    json pieces = json::array();
    for (const auto& p : s.pieces()) {
        const auto& ct = d.counter_types[static_cast<size_t>(p.type)];
        json pj;
        pj["id"] = p.id;
        pj["type"] = ct.id;
        pj["face"] = ct.faces.empty() ? std::string() : ct.faces[static_cast<size_t>(p.face)].id;
        pj["owner"] = p.owner < 0 ? std::string() : d.sides[static_cast<size_t>(p.owner)].id;
        pj["hidden"] = p.hidden;
        pj["loc"] = location_text(d.map, p.loc);
        pj["props"] = value_to_json(Value(p.props));
        pieces.push_back(std::move(pj));
    }
    j["pieces"] = std::move(pieces);
    // Stack order matters (top of stack, hidden forces); pieces list by id, bottom first.
    json stacks = json::array();
    for (const auto& [loc, v] : s.stacks()) {
        json ids = json::array();
        for (int i : v) ids.push_back(s.piece(i).id);
        stacks.push_back({{"loc", location_text(d.map, loc)}, {"pieces", ids}});
    }
    j["stacks"] = std::move(stacks);
    j["tracks"] = s.tracks();
    j["vars"] = value_to_json(Value(s.vars()));
    json piles = json::object();
    for (const auto& [id, p] : s.piles())
        piles[id] = {{"owner", p.owner}, {"visibility", visibility_name(p.visibility)},
                     {"cards", p.cards}};
    j["piles"] = std::move(piles);
    j["turn"] = s.turn;
    j["phase"] = d.phases.empty() ? std::string() : d.phases[static_cast<size_t>(s.phase)].id;
    j["active"] = d.sides.empty() ? std::string() : d.sides[static_cast<size_t>(s.active_side)].id;
    j["options"] = s.options;
    j["result"] = s.result;
    j["rng"] = {{"algorithm", "pcg32"}, {"state", hash_hex(s.rng.state())},
                {"inc", hash_hex(s.rng.inc())}};
    j["forced_dice"] = s.forced_dice;
    j["rolls_made"] = s.rolls_made;
    j["undo_barrier"] = s.undo_barrier;
    j["decision"] = {{"role", s.decision.role},
                     {"step", s.decision.step},
                     {"prompt", s.decision.prompt},
                     {"rule", s.decision.rule},
                     {"context", value_to_json(s.decision.context)}};
    return j;
}

GameState state_from_json(std::shared_ptr<const ModuleDef> def_ptr, const json& j) {
    const ModuleDef& d = *def_ptr;
    GameState s(def_ptr);
    const std::string root = "state";
    if (!j.is_object()) fail(root, "expected an object");

    const json& pieces = field(j, "pieces", root);
    if (!pieces.is_array()) fail(root + ".pieces", "expected an array");
    auto& out = s.pieces_for_load();
    for (size_t i = 0; i < pieces.size(); ++i) {
        const std::string path = root + ".pieces[" + std::to_string(i) + "]";
        const json& pj = pieces[i];
        Piece p;
        p.id = get_string(pj, "id", path);
        if (p.id.empty()) fail(path + ".id", "empty piece id");
        for (const auto& q : out)
            if (q.id == p.id) fail(path + ".id", "duplicate piece id '" + p.id + "'");
        const std::string type = get_string(pj, "type", path);
        p.type = d.counter_type_index(type);
        if (p.type < 0) fail(path + ".type", "unknown counter type '" + type + "'");
        const auto& ct = d.counter_types[static_cast<size_t>(p.type)];
        const std::string face = get_string(pj, "face", path);
        p.face = ct.faces.empty() && face.empty() ? 0 : ct.face_index(face);
        if (p.face < 0) fail(path + ".face", "counter type '" + type + "' has no face '" + face + "'");
        const std::string owner = get_string(pj, "owner", path);
        p.owner = owner.empty() ? -1 : d.side_index(owner);
        if (!owner.empty() && p.owner < 0) fail(path + ".owner", "unknown side '" + owner + "'");
        p.hidden = get_bool(pj, "hidden", path);
        try {
            p.loc = parse_location(d.map, get_string(pj, "loc", path));
        } catch (const RuleError& e) {
            fail(path + ".loc", e.what());
        }
        Value props = value_from_json(field(pj, "props", path), path + ".props");
        if (!props.is_object() && !(props.is_array() && props.as_array().empty()))
            fail(path + ".props", "expected an object");
        if (props.is_object()) p.props = props.as_object();
        out.push_back(std::move(p));
    }

    const json& stacks = field(j, "stacks", root);
    if (!stacks.is_array()) fail(root + ".stacks", "expected an array");
    std::vector<std::pair<Location, std::vector<int>>> order;
    std::vector<int> seen(out.size(), 0);
    for (size_t i = 0; i < stacks.size(); ++i) {
        const std::string path = root + ".stacks[" + std::to_string(i) + "]";
        Location loc;
        try {
            loc = parse_location(d.map, get_string(stacks[i], "loc", path));
        } catch (const RuleError& e) {
            fail(path + ".loc", e.what());
        }
        const json& ids = field(stacks[i], "pieces", path);
        if (!ids.is_array() || ids.empty()) fail(path + ".pieces", "expected a non-empty array");
        std::vector<int> v;
        for (const auto& id : ids) {
            if (!id.is_string()) fail(path + ".pieces", "expected piece ids");
            const int idx = s.find_piece(id.get<std::string>());
            if (idx < 0) fail(path + ".pieces", "unknown piece '" + id.get<std::string>() + "'");
            if (!(out[static_cast<size_t>(idx)].loc == loc))
                fail(path + ".pieces", "piece '" + id.get<std::string>() + "' is located elsewhere");
            if (seen[static_cast<size_t>(idx)]++)
                fail(path + ".pieces", "piece '" + id.get<std::string>() + "' listed twice");
            v.push_back(idx);
        }
        for (const auto& [l, _] : order)
            if (l == loc) fail(path + ".loc", "location listed twice");
        order.emplace_back(loc, std::move(v));
    }
    for (size_t i = 0; i < out.size(); ++i)
        if (out[i].loc.kind != Location::Kind::Nowhere && !seen[i])
            fail(root + ".stacks", "piece '" + out[i].id + "' is in no stack");
    s.rebuild_stacks_from_pieces(order);

    const json& tracks = field(j, "tracks", root);
    if (!tracks.is_object()) fail(root + ".tracks", "expected an object");
    for (const auto& [k, v] : tracks.items()) {
        if (!d.track(k)) fail(root + ".tracks." + k, "unknown track");
        if (!v.is_number_integer()) fail(root + ".tracks." + k, "expected an integer");
        s.tracks_for_load()[k] = v.get<std::int64_t>();
    }
    Value vars = value_from_json(field(j, "vars", root), root + ".vars");
    if (vars.is_object()) s.vars_for_load() = vars.as_object();
    else if (!(vars.is_array() && vars.as_array().empty())) fail(root + ".vars", "expected an object");

    const json& piles = field(j, "piles", root);
    if (!piles.is_object()) fail(root + ".piles", "expected an object");
    for (const auto& [k, pj] : piles.items()) {
        const std::string path = root + ".piles." + k;
        Pile p;
        p.owner = get_string(pj, "owner", path);
        const std::string vis = get_string(pj, "visibility", path);
        if (vis == "all") p.visibility = Pile::Visibility::All;
        else if (vis == "owner") p.visibility = Pile::Visibility::Owner;
        else if (vis == "nobody") p.visibility = Pile::Visibility::Nobody;
        else fail(path + ".visibility", "expected all, owner or nobody");
        const json& cards = field(pj, "cards", path);
        if (!cards.is_array()) fail(path + ".cards", "expected an array");
        for (const auto& c : cards) {
            if (!c.is_string()) fail(path + ".cards", "expected card ids");
            p.cards.push_back(c.get<std::string>());
        }
        s.piles_for_load()[k] = std::move(p);
    }

    const std::int64_t turn = get_int(j, "turn", root);
    if (turn < -1000000 || turn > 1000000) fail(root + ".turn", "out of range");
    s.turn = static_cast<int>(turn);
    const std::string phase = get_string(j, "phase", root);
    s.phase = d.phases.empty() ? 0 : d.phase_index(phase);
    if (s.phase < 0) fail(root + ".phase", "unknown phase '" + phase + "'");
    const std::string active = get_string(j, "active", root);
    s.active_side = d.sides.empty() ? 0 : d.side_index(active);
    if (s.active_side < 0) fail(root + ".active", "unknown side '" + active + "'");
    s.options.clear();
    const json& opts = field(j, "options", root);
    if (!opts.is_array()) fail(root + ".options", "expected an array");
    for (const auto& o : opts) {
        if (!o.is_string() || !d.option(o.get<std::string>())) fail(root + ".options", "unknown option");
        s.options.insert(o.get<std::string>());
    }
    s.result = get_string(j, "result", root);
    const json& rng = field(j, "rng", root);
    if (get_string(rng, "algorithm", root + ".rng") != "pcg32")
        fail(root + ".rng.algorithm", "only pcg32 is known");
    s.rng.restore(get_u64_hex(rng, "state", root + ".rng"), get_u64_hex(rng, "inc", root + ".rng"));
    const json& forced = field(j, "forced_dice", root);
    if (!forced.is_array()) fail(root + ".forced_dice", "expected an array");
    for (const auto& f : forced) {
        if (!f.is_number_integer() || f.get<std::int64_t>() < 1 || f.get<std::int64_t>() > 1000)
            fail(root + ".forced_dice", "expected die results");
        s.forced_dice.push_back(f.get<int>());
    }
    s.rolls_made = static_cast<std::uint64_t>(get_int(j, "rolls_made", root));
    s.undo_barrier = static_cast<std::uint64_t>(get_int(j, "undo_barrier", root));
    const json& dec = field(j, "decision", root);
    s.decision.role = get_string(dec, "role", root + ".decision");
    if (!s.decision.role.empty() && d.side_index(s.decision.role) < 0)
        fail(root + ".decision.role", "unknown side '" + s.decision.role + "'");
    s.decision.step = get_string(dec, "step", root + ".decision");
    s.decision.prompt = get_string(dec, "prompt", root + ".decision");
    s.decision.rule = get_string(dec, "rule", root + ".decision");
    s.decision.context = value_from_json(field(dec, "context", root + ".decision"),
                                         root + ".decision.context");
    return s;
}

}  // namespace vedette::core
