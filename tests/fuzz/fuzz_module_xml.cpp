// libFuzzer target: one module XML file of the fixture module replaced by the fuzz input, loaded
// through data::load_module_from_memory. Build and run: docs/testing.md ("Fuzzing the loader").
//
// Which file the input replaces: if it starts like XML ('<', whitespace or a UTF-8 BOM) the root
// element's name decides (module, map, counters, tables, cards, scenario), so the fixture and
// corpus files are seeds as they are; otherwise the first byte selects the kind (byte % 6) and
// the rest is the file.
//
// Beyond "no crash, no sanitizer report", it checks the loader's promises and traps if one breaks:
// a module xor errors; at most limits::kMaxErrors diagnostics; every message non-empty, on one
// line and valid UTF-8; on success, every hex label reads back as its hex.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "data/loader.hpp"

using namespace vedette;

namespace {

const char* const kFiles[6] = {"module.xml", "map.xml",   "counters.xml",
                               "tables.xml", "cards.xml", "scenarios/basic.xml"};
const char* const kRoots[6] = {"module", "map", "counters", "tables", "cards", "scenario"};

std::map<std::string, std::string>* g_fixture = nullptr;
std::shared_ptr<const core::ModuleDef> g_module;

void check(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "fuzz_module_xml: broken promise: %s\n", what);
        __builtin_trap();
    }
}

bool valid_utf8(const std::string& s) {
    for (std::size_t i = 0; i < s.size();) {
        unsigned char c = static_cast<unsigned char>(s[i]);
        std::size_t n = c < 0x80             ? 1
                        : (c & 0xE0) == 0xC0 ? 2
                        : (c & 0xF0) == 0xE0 ? 3
                        : (c & 0xF8) == 0xF0 ? 4
                                             : 0;
        if (n == 0 || i + n > s.size()) return false;
        for (std::size_t k = 1; k < n; ++k) {
            if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
        }
        i += n;
    }
    return true;
}

// Kind from the root element's name, for inputs that look like XML; -1 otherwise.
int kind_from_root(const std::string& s) {
    std::size_t i = 0;
    if (s.compare(0, 3, "\xEF\xBB\xBF") == 0) i = 3;
    if (i >= s.size() || !(s[i] == '<' || s[i] == ' ' || s[i] == '\n' || s[i] == '\t')) return -1;
    for (std::size_t p = s.find('<', i); p != std::string::npos; p = s.find('<', p + 1)) {
        if (p + 1 < s.size() && (s[p + 1] == '?' || s[p + 1] == '!')) continue;
        std::size_t e = p + 1;
        while (e < s.size() && (std::isalnum(static_cast<unsigned char>(s[e])) || s[e] == '-')) ++e;
        std::string name = s.substr(p + 1, e - p - 1);
        for (int k = 0; k < 6; ++k) {
            if (name == kRoots[k]) return k;
        }
        return 1;  // unknown root: exercise the map (the biggest reader)
    }
    return 1;
}

void check_result(const data::LoadResult& r) {
    check((r.module != nullptr) == r.errors.empty(), "a module xor errors");
    check(r.errors.size() <= data::limits::kMaxErrors, "bounded diagnostics");
    for (const auto& d : r.errors) {
        check(!d.message.empty(), "message not empty");
        check(d.line >= 0, "line >= 0");
        const std::string s = d.str();
        check(s.find('\n') == std::string::npos, "one line per diagnostic");
        check(valid_utf8(s), "diagnostics are UTF-8");
    }
    if (!r.module) return;
    const auto& map = r.module->map;
    for (const auto& h : map.hexes) {
        check(map.find(h.hex) == &h, "find(hex)");
        check(map.parse_label(h.label) == h.hex, "labels read back");
    }
    for (const auto& sc : r.module->scenarios) {
        for (const auto& p : sc.placements) {
            check(r.module->counter_type_index(p.type) >= 0, "placement types exist");
            if (!p.at.empty() && p.at.compare(0, 4, "box:") != 0) {
                check(map.parse_label(p.at).has_value(), "placement hexes exist");
            }
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(VEDETTE_SOURCE_DIR) / "tests/fixtures/fixture_module";
    g_fixture = new std::map<std::string, std::string>;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file()) continue;
        std::ifstream in(e.path(), std::ios::binary);
        std::ostringstream s;
        s << in.rdbuf();
        (*g_fixture)[e.path().lexically_relative(dir).generic_string()] = s.str();
    }
    auto r = data::load_module_from_memory(*g_fixture);
    if (!r.ok()) {
        std::fprintf(stderr, "fuzz_module_xml: the fixture module does not load\n");
        std::abort();
    }
    g_module = r.module;
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string input(reinterpret_cast<const char*>(data), size);
    int kind = kind_from_root(input);
    if (kind < 0) {
        if (input.empty()) return 0;
        kind = static_cast<unsigned char>(input[0]) % 6;
        input.erase(0, 1);
    }
    auto files = *g_fixture;
    files[kFiles[kind]] = input;
    check_result(data::load_module_from_memory(files));
    if (kind == 5) {
        auto s = data::load_setup_from_memory(*g_module, "setup.xml", input);
        for (const auto& d : s.errors) check(valid_utf8(d.str()), "setup diagnostics are UTF-8");
    }
    return 0;
}
