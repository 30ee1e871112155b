#include "session/test_driver.hpp"

#include "data/loader.hpp"

namespace vedette::session {

const Session& SessionTestDriver::at(int game) const {
    if (game < 0 || game >= static_cast<int>(games_.size()))
        throw std::runtime_error("no test game " + std::to_string(game));
    return games_[static_cast<size_t>(game)];
}

int SessionTestDriver::new_game(const script::TestGameSpec& spec) {
    if (games_.size() >= 10000) throw std::runtime_error("too many test games");
    core::ScenarioDef from_file;
    const core::ScenarioDef* sc = nullptr;
    if (!spec.setup.empty()) {
        auto r = data::load_setup(*def_, def_->dir + "/" + spec.setup);
        if (!r.ok()) {
            std::string all;
            for (const auto& e : r.errors) all += (all.empty() ? "" : "; ") + e.str();
            throw std::runtime_error(all);
        }
        from_file = std::move(r.scenario);
        sc = &from_file;
    } else {
        sc = spec.scenario.empty() ? (def_->scenarios.empty() ? nullptr : &def_->scenarios.front())
                                   : def_->scenario(spec.scenario);
        if (!sc) throw std::runtime_error("no scenario '" + spec.scenario + "'");
    }
    Setup setup;
    setup.seed = spec.seed;
    setup.options.insert(spec.options.begin(), spec.options.end());
    setup.forced_dice = spec.dice;
    games_.push_back(Session::start(def_, rules_, *sc, setup));
    std::vector<std::string> ev;
    for (const auto& e : games_.back().setup_events()) ev.push_back(e.text);
    events_.push_back(std::move(ev));
    return static_cast<int>(games_.size()) - 1;
}

std::string SessionTestDriver::apply(int game, const std::string& role, const std::string& text) {
    auto r = at(game).apply(role, text);
    if (!r.ok) return r.refusal;
    auto& ev = events_[static_cast<size_t>(game)];
    ev.clear();
    for (const auto& e : r.events) ev.push_back(e.text);
    return {};
}

}  // namespace vedette::session
