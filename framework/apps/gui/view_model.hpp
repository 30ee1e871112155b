// What the GUI knows about a game: exactly the JSON a role's view gives (Session::view(role)),
// parsed into plain structs, with indexes for drawing and hit-testing. The GUI never reads the
// session's state directly, so it cannot show what the role may not see.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/defs.hpp"

namespace vedette::gui {

struct PieceView {
    std::string id, type, face, owner, loc;
    bool hidden = false;
    nlohmann::json props = nlohmann::json::object();
    int type_index = -1;  // into ModuleDef::counter_types (-1: "unknown" back)
    int face_index = 0;
    int side_index = -1;
};

struct StackView {
    std::string loc;
    std::optional<hex::Hex> hex;  // when the location is a map hex
    std::vector<int> pieces;      // indices into ViewModel::pieces, bottom to top
};

struct DecisionView {
    std::string role, step, prompt, rule;
};

struct ViewModel {
    std::string role;
    std::vector<PieceView> pieces;
    std::vector<StackView> stacks;
    std::map<std::string, int> piece_by_id;
    std::map<std::string, int> stack_by_loc;
    int turn = 0;
    std::string phase, active, result;
    DecisionView decision;
    nlohmann::json tracks, vars, piles, private_boxes;

    static ViewModel parse(const nlohmann::json& view, const core::ModuleDef& def);
    const StackView* stack_at(const std::string& loc) const;
    const PieceView* piece(const std::string& id) const;
};

}  // namespace vedette::gui
