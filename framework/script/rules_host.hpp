// The Lua rules host (PRODUCT.md §3, §6): loads a module's rules into a sandboxed Lua state and
// calls them over host-owned game state. The only layer that sees Lua headers; this public
// header does not include them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/action.hpp"
#include "core/defs.hpp"
#include "core/state.hpp"
#include "core/value.hpp"

namespace vedette::script {

struct Limits {
    // Lua VM instructions per call (load, setup, actions, apply, call), counted in steps of
    // 1000; C-level loops of table.move/insert/remove and pattern matching are charged too.
    std::uint64_t instructions = 200'000'000;
    // Bytes the whole Lua state may hold (code, module tables, temporaries of a call).
    std::size_t memory = 256u << 20;
};

// A bug in the module's Lua (or a broken module): not a refusal. what() is the Lua message,
// normally prefixed by the module-relative position: "rules/main.lua:42: attempt to ...".
struct ScriptError : std::runtime_error {
    ScriptError(const std::string& message, std::string file, int line, std::string traceback)
        : std::runtime_error(message),
          file(std::move(file)),
          line(line),
          traceback(std::move(traceback)) {}
    std::string file;       // module-relative, e.g. "rules/main.lua"; empty when unknown
    int line = 0;           // 0 when unknown
    std::string traceback;  // Lua stack traceback ("stack traceback:\n\t..."), may be empty
};

class RulesHost {
  public:
    // Creates the sandbox, runs def->rules_main (which must return the rules table with
    // functions `actions` and `apply`, optionally `setup` and others), then freezes the globals.
    // Throws ScriptError (syntax error, runtime error, bad rules table, limits).
    static std::unique_ptr<RulesHost> load(std::shared_ptr<const core::ModuleDef> def,
                                           Limits limits = {});
    ~RulesHost();
    RulesHost(const RulesHost&) = delete;
    RulesHost& operator=(const RulesHost&) = delete;

    // Every call below binds `state` for its duration only, and gives the strong guarantee:
    // on any exception the state is left exactly as it was. A refusal raised by the module
    // (game.refuse) is thrown as core::RuleError; anything else the module does wrong is a
    // ScriptError. The host stays usable after either.

    // rules.setup(game), if the module defines it: once, after the scenario is placed.
    void setup(core::GameState& state);
    // rules.actions(game, role): the legal actions, validated. The state is read-only here:
    // the game API's mutators (and game.roll) raise an error.
    std::vector<core::Action> actions(const core::GameState& state, const std::string& role);
    // rules.apply(game, role, {kind=, args=, text=}).
    void apply(core::GameState& state, const std::string& role, const core::Action& action);
    // The same without the strong guarantee, for a caller that applies on its own scratch copy
    // and throws it away on any exception (Session::apply): it spares the backup copy. After an
    // exception `scratch` is unspecified (but valid).
    void apply_to_scratch(core::GameState& scratch, const std::string& role,
                          const core::Action& action);
    // rules[function](game, args...) for other entry points (views, bots, module tests);
    // returns the first result converted to a Value. Throws ScriptError if it is not a function.
    core::Value call(core::GameState& state, const std::string& function,
                     const std::vector<core::Value>& args = {});

    // Names of the functions in the rules table, sorted.
    const std::set<std::string>& functions() const;
    bool has_function(const std::string& name) const { return functions().count(name) > 0; }

    const core::ModuleDef& def() const;
    const Limits& limits() const;
    std::size_t memory_used() const;          // bytes the Lua state holds now
    std::uint64_t last_instructions() const;  // instructions charged to the last call

    // Where the module's print() goes (default: standard error, prefixed "[rules] ").
    void set_print(std::function<void(const std::string&)> sink);

    struct Impl;

  private:
    explicit RulesHost(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace vedette::script
