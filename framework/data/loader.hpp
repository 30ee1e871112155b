// The module loader: reads a module folder (module.xml, map.xml, counters.xml, tables.xml,
// cards.xml, scenarios) into an immutable core::ModuleDef, or reports every problem found as
// `file:line: message`, like a compiler. Only this layer sees tinyxml2.
//
// Guarantees: never crashes or hangs on hostile input (limits below), reports all problems of
// all files in one run, and returns either a complete module and no errors, or no module.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/defs.hpp"

namespace vedette::data {

struct Diagnostic {
    std::string file;  // folder + "/" + path relative to the module, as given to the loader
    int line = 0;      // 1-based; 0 when the problem concerns the whole file
    std::string message;
    std::string str() const;  // "file:line: message" ("file: message" when line is 0)
};

struct LoadResult {
    std::shared_ptr<const core::ModuleDef> module;  // null whenever errors is not empty
    std::vector<Diagnostic> errors;
    bool ok() const { return module != nullptr && errors.empty(); }
};

struct SetupResult {
    core::ScenarioDef scenario;  // meaningful only when ok()
    std::vector<Diagnostic> errors;
    bool ok() const { return errors.empty(); }
};

// Limits against hostile or broken files; exceeding one is an error with a message that names
// the limit. Documented in docs/module-format.md.
namespace limits {
inline constexpr std::size_t kMaxFileBytes = 16u << 20;  // any XML file
inline constexpr int kMaxMapSide = 2000;                 // cols and rows each
inline constexpr int kMaxHexes = 250000;                 // cols x rows
inline constexpr std::int64_t kMaxInt = 1000000000;      // |integer| in any file
inline constexpr std::size_t kMaxIdLength = 64;
inline constexpr int kMaxPlaceCount = 1000;      // count= of one <place>
inline constexpr int kMaxPieces = 100000;        // pieces of one scenario
inline constexpr int kMaxScenarios = 1000;       // scenario files of a module
inline constexpr std::size_t kMaxErrors = 1000;  // diagnostics kept; then one "too many" line
inline constexpr std::size_t kMaxHashedFiles = 100000;  // files hashed in a module folder
inline constexpr std::size_t kMaxArtBytes = 256u << 20;  // the map art image (<art file=>)
inline constexpr int kMaxArtSide = 65536;                // its width and height, in pixels
}  // namespace limits

// Loads the module in folder `dir` (files are named dir + "/" + relative path in diagnostics).
LoadResult load_module(const std::string& dir);

// Same, from memory: `files` maps relative paths ("module.xml", "rules/main.lua", ...) to
// contents. `dir` only prefixes file names in diagnostics. Used by tests and the fuzzer.
LoadResult load_module_from_memory(const std::map<std::string, std::string>& files,
                                   const std::string& dir = "mem");

// Loads a scenario (a <scenario> file in the scenarios/*.xml format) that lives outside the
// module (`vedette-cli play --setup FILE`), checking it against `module`.
SetupResult load_setup(const core::ModuleDef& module, const std::string& file);
SetupResult load_setup_from_memory(const core::ModuleDef& module, const std::string& file_name,
                                   std::string_view text);

}  // namespace vedette::data
