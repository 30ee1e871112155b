// Loads the fixture module once per test binary.
#pragma once

#include <catch2/catch.hpp>
#include <memory>

#include "data/loader.hpp"
#include "script/rules_host.hpp"
#include "session/session.hpp"

namespace vedette::test {

inline const std::string kFixtureDir = std::string(VEDETTE_SOURCE_DIR) + "/tests/fixtures/fixture_module";

struct Fixture {
    std::shared_ptr<const core::ModuleDef> def;
    std::shared_ptr<script::RulesHost> rules;
};

inline const Fixture& fixture() {
    static const Fixture f = [] {
        auto r = data::load_module(kFixtureDir);
        if (!r.ok()) {
            std::string all;
            for (const auto& e : r.errors) all += e.str() + "\n";
            FAIL("fixture module does not load:\n" << all);
        }
        Fixture out;
        out.def = r.module;
        out.rules = std::shared_ptr<script::RulesHost>(script::RulesHost::load(r.module));
        return out;
    }();
    return f;
}

inline session::Session new_game(std::uint64_t seed = 1, std::vector<int> dice = {},
                                 std::set<std::string> options = {}) {
    const auto& f = fixture();
    session::Setup setup;
    setup.seed = seed;
    setup.forced_dice = std::move(dice);
    setup.options = std::move(options);
    return session::Session::start(f.def, f.rules, *f.def->scenario("basic"), setup);
}

}  // namespace vedette::test
