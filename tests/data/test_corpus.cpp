// Hostile and broken XML (tests/corpus/xml/KIND-*.xml) put in place of one file of the fixture
// module: every one must be refused with errors, without crashing or hanging. The suite also
// runs under ASan/UBSan, which turns memory errors here into failures.
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>

#include "data/loader.hpp"
#include "helpers.hpp"

using namespace vedette;

namespace {

// File kind (the name's prefix before '-') -> the fixture file it replaces.
const std::map<std::string, std::string> kFileOfKind = {
    {"module", "module.xml"}, {"map", "map.xml"},     {"counters", "counters.xml"},
    {"tables", "tables.xml"}, {"cards", "cards.xml"}, {"scenario", "scenarios/basic.xml"},
};

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

}  // namespace

TEST_CASE("every corpus file is refused with errors, never a crash", "[data][corpus]") {
    const auto base = test::fixture_files();
    const auto fixture = data::load_module_from_memory(base);
    REQUIRE(fixture.ok());
    int files = 0;
    for (const auto& e :
         std::filesystem::directory_iterator(test::source_path("tests/corpus/xml"))) {
        const std::string name = e.path().filename().string();
        INFO(name);
        const std::string kind = name.substr(0, name.find('-'));
        REQUIRE(kFileOfKind.count(kind) == 1);
        const std::string bytes = test::read_file(e.path().string());

        auto files_in = base;
        files_in[kFileOfKind.at(kind)] = bytes;
        auto start = std::chrono::steady_clock::now();
        auto r = data::load_module_from_memory(files_in);
        auto took = std::chrono::steady_clock::now() - start;
        CHECK(r.module == nullptr);
        CHECK_FALSE(r.errors.empty());
        CHECK(r.errors.size() <= data::limits::kMaxErrors);
        CHECK(took < std::chrono::seconds(10));
        for (const auto& d : r.errors) {
            // Every diagnostic names a file of the module and says something.
            CHECK(d.file.rfind("mem/", 0) == 0);
            CHECK(d.line >= 0);
            CHECK_FALSE(d.message.empty());
            CHECK(d.message.size() < 400);  // quoted values are shortened
            CHECK(d.message.find_first_of("\n\r") == std::string::npos);
            CHECK(valid_utf8(d.message));
        }
        if (kind == "scenario") {
            auto s = data::load_setup_from_memory(*fixture.module, name, bytes);
            CHECK_FALSE(s.ok());
        }
        ++files;
    }
    CHECK(files >= 10);
}
