// The session side of module tests: starts games and drives them through Session, so a
// module's Lua tests go through the same door as players, bots and the GUI.
#pragma once

#include <memory>
#include <vector>

#include "script/module_tests.hpp"
#include "session/session.hpp"

namespace vedette::session {

class SessionTestDriver : public script::TestDriver {
public:
    SessionTestDriver(std::shared_ptr<const core::ModuleDef> def, std::shared_ptr<script::RulesHost> rules)
        : def_(std::move(def)), rules_(std::move(rules)) {}

    int new_game(const script::TestGameSpec& spec) override;
    const core::GameState& state(int game) const override { return at(game).state(); }
    core::GameState& edit_state(int game) override { return at(game).state_for_tests(); }
    std::vector<core::Action> actions(int game, const std::string& role) override {
        return at(game).actions(role);
    }
    std::string apply(int game, const std::string& role, const std::string& text) override;
    std::vector<std::string> last_events(int game) const override { return events_.at(static_cast<size_t>(game)); }

private:
    const Session& at(int game) const;
    Session& at(int game) { return const_cast<Session&>(static_cast<const SessionTestDriver*>(this)->at(game)); }

    std::shared_ptr<const core::ModuleDef> def_;
    std::shared_ptr<script::RulesHost> rules_;
    std::vector<Session> games_;
    std::vector<std::vector<std::string>> events_;
};

}  // namespace vedette::session
