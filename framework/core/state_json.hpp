// Exact JSON form of a GameState and of Values (saves, views, the CLI's --json output).
// Reading validates everything against the module's definitions: a hostile or damaged save
// gives a FormatError naming the JSON path, never a crash or a half-built state.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/state.hpp"

namespace vedette::core {

struct FormatError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

nlohmann::json value_to_json(const Value& v);
Value value_from_json(const nlohmann::json& j, const std::string& path, int depth = 0);

std::string location_text(const MapDef& map, const Location& loc);  // "0304", "box:dead", ""
// Parses "0304" / "box:dead" / "" ; throws RuleError with the reason.
Location parse_location(const MapDef& map, std::string_view text);

nlohmann::json state_to_json(const GameState& s);
GameState state_from_json(std::shared_ptr<const ModuleDef> def, const nlohmann::json& j);

std::string hash_hex(std::uint64_t h);  // 16 lower-case hex digits

}  // namespace vedette::core
