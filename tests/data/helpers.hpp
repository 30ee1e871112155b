// Shared helpers of the data-layer tests.
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "data/loader.hpp"

namespace vedette::test {

inline std::string source_path(const std::string& rel) {
    return std::string(VEDETTE_SOURCE_DIR) + "/" + rel;
}

inline std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Every file of a folder, keyed by relative path: an in-memory module.
inline std::map<std::string, std::string> read_tree(const std::string& dir) {
    std::map<std::string, std::string> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file()) continue;
        files[e.path().lexically_relative(dir).generic_string()] = read_file(e.path().string());
    }
    return files;
}

inline std::map<std::string, std::string> fixture_files() {
    return read_tree(source_path("tests/fixtures/fixture_module"));
}

inline std::vector<std::string> messages(const std::vector<data::Diagnostic>& errors) {
    std::vector<std::string> out;
    for (const auto& d : errors) out.push_back(d.str());
    return out;
}

// Replaces the first occurrence of `from` (which must exist) in files[name].
inline void patch(std::map<std::string, std::string>& files, const std::string& name,
                  const std::string& from, const std::string& to) {
    auto& text = files.at(name);
    auto at = text.find(from);
    if (at == std::string::npos) throw std::runtime_error("patch: '" + from + "' not in " + name);
    text.replace(at, from.size(), to);
}

}  // namespace vedette::test
