// Runs a module's own Lua tests (`vedette-cli test MODULE_DIR`). The tests live in the module's
// tests folder; each file calls test("8.4 name", function() ... end). Games are started and
// driven through a TestDriver that the session layer implements (the script layer sits below
// the session), so tests go through the same door as every player. The tests run in their own
// sandboxed Lua state, with the same limits as the rules.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "core/action.hpp"
#include "core/defs.hpp"
#include "core/state.hpp"
#include "script/rules_host.hpp"

namespace vedette::script {

struct TestGameSpec {
    std::string scenario;  // empty: the module's first scenario
    std::string setup;     // a set-up file relative to the module folder (instead of scenario)
    std::uint64_t seed = 1;
    std::vector<std::string> options;
    std::vector<int> dice;  // forced die results, in order
};

class TestDriver {
  public:
    virtual ~TestDriver() = default;
    // Starts a game and returns its handle; throws std::exception with the reason.
    virtual int new_game(const TestGameSpec& spec) = 0;
    virtual const core::GameState& state(int game) const = 0;
    // Test-only back door to arrange a position (vt.edit): the state, writable, outside the
    // session's door. Nothing is logged; the undo history is dropped.
    virtual core::GameState& edit_state(int game) = 0;
    virtual std::vector<core::Action> actions(int game, const std::string& role) = 0;
    // Empty when applied, else the refusal.
    virtual std::string apply(int game, const std::string& role, const std::string& text) = 0;
    // Texts of the events of the last action (dice, messages).
    virtual std::vector<std::string> last_events(int game) const = 0;
};

struct TestReport {
    int passed = 0;
    int failed = 0;
    bool ok() const { return failed == 0 && passed > 0; }
};

// Runs every tests/*.lua file of the module (sorted by name), printing one line per test and a
// closing "N passed, N failed" line. A module without tests is a failure ("no tests found").
TestReport run_module_tests(std::shared_ptr<const core::ModuleDef> def, TestDriver& driver,
                            std::ostream& out, Limits limits = {});

}  // namespace vedette::script
