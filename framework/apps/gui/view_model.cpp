#include "view_model.hpp"

namespace vedette::gui {

using nlohmann::json;

namespace {
std::string str(const json& j, const char* key) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_string()) return {};
    return j[key].get<std::string>();
}
}  // namespace

ViewModel ViewModel::parse(const json& v, const core::ModuleDef& def) {
    ViewModel m;
    m.role = str(v, "role");
    if (v.contains("pieces") && v["pieces"].is_array()) {
        for (const auto& pj : v["pieces"]) {
            PieceView p;
            p.id = str(pj, "id");
            p.type = str(pj, "type");
            p.face = str(pj, "face");
            p.owner = str(pj, "owner");
            p.loc = str(pj, "loc");
            p.hidden = pj.value("hidden", false);
            if (pj.contains("props") && pj["props"].is_object()) p.props = pj["props"];
            p.type_index = def.counter_type_index(p.type);
            if (p.type_index >= 0) {
                const auto& ct = def.counter_types[static_cast<size_t>(p.type_index)];
                p.face_index = std::max(0, ct.face_index(p.face));
            }
            p.side_index = def.side_index(p.owner);
            m.piece_by_id[p.id] = static_cast<int>(m.pieces.size());
            m.pieces.push_back(std::move(p));
        }
    }
    if (v.contains("stacks") && v["stacks"].is_array()) {
        for (const auto& sj : v["stacks"]) {
            StackView s;
            s.loc = str(sj, "loc");
            if (s.loc.empty()) continue;
            if (s.loc.rfind("box:", 0) != 0) s.hex = def.map.parse_label(s.loc);
            if (sj.contains("pieces") && sj["pieces"].is_array())
                for (const auto& id : sj["pieces"])
                    if (id.is_string()) {
                        auto it = m.piece_by_id.find(id.get<std::string>());
                        if (it != m.piece_by_id.end()) s.pieces.push_back(it->second);
                    }
            m.stack_by_loc[s.loc] = static_cast<int>(m.stacks.size());
            m.stacks.push_back(std::move(s));
        }
    }
    m.turn = v.value("turn", 0);
    m.phase = str(v, "phase");
    m.active = str(v, "active");
    m.result = str(v, "result");
    if (v.contains("decision") && v["decision"].is_object()) {
        const json& d = v["decision"];
        m.decision = {str(d, "role"), str(d, "step"), str(d, "prompt"), str(d, "rule")};
    }
    m.tracks = v.value("tracks", json::object());
    m.vars = v.value("vars", json::object());
    m.piles = v.value("piles", json::object());
    m.private_boxes = v.value("private_boxes", json::object());
    return m;
}

const StackView* ViewModel::stack_at(const std::string& loc) const {
    auto it = stack_by_loc.find(loc);
    return it == stack_by_loc.end() ? nullptr : &stacks[static_cast<size_t>(it->second)];
}

const PieceView* ViewModel::piece(const std::string& id) const {
    auto it = piece_by_id.find(id);
    return it == piece_by_id.end() ? nullptr : &pieces[static_cast<size_t>(it->second)];
}

}  // namespace vedette::gui
