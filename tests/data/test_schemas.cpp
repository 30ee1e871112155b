// Every module XML file in the repository (fixtures and modules/*) is valid against its XSD in
// docs/schemas/, checked with xmllint by scripts/check-schemas.sh.
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

#include "helpers.hpp"

namespace {

struct Run {
    int status = -1;
    std::string output;
};

Run run_script(const std::string& args) {
    std::string cmd = "cd '" + std::string(VEDETTE_SOURCE_DIR) + "' && scripts/check-schemas.sh " +
                      args + " 2>&1";
    Run r;
    FILE* p = popen(cmd.c_str(), "r");
    REQUIRE(p != nullptr);
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) r.output.append(buf, n);
    r.status = pclose(p);
    return r;
}

}  // namespace

TEST_CASE("every module XML file validates against its schema", "[data][schema]") {
    Run r = run_script("");
    INFO(r.output);
    CHECK(r.status == 0);
    CHECK(r.output.find("check-schemas:") != std::string::npos);
    CHECK(r.output.find("tests/fixtures/fixture_module/scenarios/basic.xml validates") !=
          std::string::npos);
}

TEST_CASE("the schema check fails on an invalid file", "[data][schema]") {
    Run r = run_script("tests/fixtures/broken/unknown_attribute/map.xml");
    INFO(r.output);
    CHECK(r.status != 0);
    CHECK(r.output.find("attribute 'terain': The attribute 'terain' is not allowed") !=
          std::string::npos);
    Run wrong = run_script("tests/fixtures/broken/wrong_root/counters.xml");
    CHECK(wrong.status != 0);
    CHECK(wrong.output.find("no schema for root element <units>") != std::string::npos);
}

TEST_CASE("the schemas accept what the loader accepts in the broken modules' valid files",
          "[data][schema]") {
    // Files the loader rejects for reasons a schema cannot see (references across files) are
    // still schema-valid; this keeps schemas and loader from drifting apart silently.
    Run r = run_script(
        "tests/fixtures/broken/unknown_counter_type/scenarios/s.xml "
        "tests/fixtures/broken/unknown_side/counters.xml "
        "tests/fixtures/broken/table_row_width/tables.xml "
        "tests/fixtures/broken/missing_rules/module.xml");
    INFO(r.output);
    CHECK(r.status == 0);
}
