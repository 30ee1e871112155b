// map.xml <art>: the module's own map art, calibrated to the grid by two or three hex centres.
#include <catch2/catch.hpp>
#include <cmath>

#include "helpers.hpp"

using namespace vedette;

namespace {

const char* kFixtureArt = R"(<art file="art/map.png">
    <anchor hex="0101" x="38.00" y="30.00"/>
    <anchor hex="0801" x="267.72" y="60.51"/>
    <anchor hex="0106" x="28.35" y="214.21"/>
  </art>)";

// The fixture module with its <art> element replaced by `art`.
std::vector<std::string> errors_with(const std::string& art,
                                     std::map<std::string, std::string> files = test::fixture_files()) {
    test::patch(files, "map.xml", kFixtureArt, art);
    return test::messages(data::load_module_from_memory(files, "m").errors);
}

// Image pixel of layout point (x, y) under the loaded calibration.
std::pair<double, double> image_of(const core::MapArt& a, double x, double y) {
    return {a.to_image[0] * x + a.to_image[1] * y + a.to_image[2],
            a.to_image[3] * x + a.to_image[4] * y + a.to_image[5]};
}

}  // namespace

TEST_CASE("fixture map art: file, size and the calibration derived from three anchors", "[data][art]") {
    auto r = data::load_module(test::source_path("tests/fixtures/fixture_module"));
    REQUIRE(r.ok());
    REQUIRE(r.module->map.art);
    const core::MapArt& a = *r.module->map.art;
    CHECK(a.file == "art/map.png");
    CHECK(a.width == 320);
    CHECK(a.height == 290);
    CHECK(a.opacity == 1.0);
    CHECK(a.vector == core::MapArt::Vector::Grid);
    REQUIRE(a.anchors.size() == 3);
    // scripts/make_fixture_art.py: rotate 3 degrees * diag(22, 21.3) + (38, 30).
    const double c = std::cos(3.0 * M_PI / 180), s = std::sin(3.0 * M_PI / 180);
    CHECK(a.to_image[0] == Approx(22 * c).epsilon(1e-3));
    CHECK(a.to_image[1] == Approx(-21.3 * s).epsilon(1e-2));
    CHECK(a.to_image[3] == Approx(22 * s).epsilon(1e-2));
    CHECK(a.to_image[4] == Approx(21.3 * c).epsilon(1e-3));
    CHECK(a.to_image[2] == Approx(38.0));
    CHECK(a.to_image[5] == Approx(30.0));
    // A hex that is not an anchor (0504: col 4, row 3 -> layout 6, sqrt3 * 3) lands where the
    // script painted its centre.
    auto [u, v] = image_of(a, 6.0, std::sqrt(3.0) * 3);
    CHECK(u == Approx(c * 6 * 22 - s * std::sqrt(3.0) * 3 * 21.3 + 38).margin(0.05));
    CHECK(v == Approx(s * 6 * 22 + c * std::sqrt(3.0) * 3 * 21.3 + 30).margin(0.05));
}

TEST_CASE("map art: two anchors give scale, rotation and offset", "[data][art]") {
    auto files = test::fixture_files();
    test::patch(files, "map.xml", kFixtureArt,
                R"(<art file="art/map.png" opacity="0.5" vector="features">
    <anchor hex="0101" x="10" y="20"/>
    <anchor hex="0301" x="70" y="20"/>
  </art>)");
    auto r = data::load_module_from_memory(files, "m");
    REQUIRE(r.ok());
    const core::MapArt& a = *r.module->map.art;
    CHECK(a.opacity == 0.5);
    CHECK(a.vector == core::MapArt::Vector::Features);
    // 0101 -> layout (0, 0); 0301 -> (3, 0): 20 pixels per unit, no rotation.
    CHECK(a.to_image[0] == Approx(20).epsilon(1e-4));
    CHECK(a.to_image[1] == Approx(0).margin(1e-3));
    CHECK(a.to_image[4] == Approx(20).epsilon(1e-4));
    CHECK(a.to_image[2] == Approx(10));
    CHECK(a.to_image[5] == Approx(20));
}

TEST_CASE("map art errors name the file and line", "[data][art]") {
    using Catch::Matchers::Contains;
    // line 54 is the <art> line in the fixture's map.xml, anchors on 55-57.
    auto missing = errors_with(R"(<art file="art/none.png">
    <anchor hex="0101" x="38" y="30"/>
    <anchor hex="0801" x="267" y="60"/>
  </art>)");
    REQUIRE(missing.size() == 1);
    CHECK(missing[0] == "m/map.xml:54: <art>: art file 'art/none.png' not found");

    auto files = test::fixture_files();
    files["art/bad.png"] = "GIF89a not a png";
    auto not_png = errors_with(R"(<art file="art/bad.png">
    <anchor hex="0101" x="38" y="30"/>
    <anchor hex="0801" x="267" y="60"/>
  </art>)", files);
    REQUIRE(not_png.size() == 1);
    CHECK_THAT(not_png[0], Contains("map.xml:54:") && Contains("is not a PNG image"));

    auto outside = errors_with(R"(<art file="../map.png">
    <anchor hex="0101" x="38" y="30"/>
    <anchor hex="0801" x="267" y="60"/>
  </art>)");
    REQUIRE(outside.size() == 1);
    CHECK_THAT(outside[0], Contains("map.xml:54:") && Contains("must be relative and stay inside"));

    auto bad_numbers = errors_with(R"(<art file="art/map.png" opacity="2">
    <anchor hex="0101" x="3x8" y="30"/>
    <anchor hex="0801" x="267" y="600"/>
  </art>)");
    REQUIRE(bad_numbers.size() == 3);
    CHECK_THAT(bad_numbers[0], Contains("map.xml:54:") && Contains("opacity"));
    CHECK_THAT(bad_numbers[1], Contains("map.xml:55:") && Contains("'3x8'"));
    CHECK(bad_numbers[2] ==
          "m/map.xml:56: art anchor 0801: pixel 267,600 is outside the image (320 x 290 pixels)");

    auto off_map = errors_with(R"(<art file="art/map.png">
    <anchor hex="0101" x="38" y="30"/>
    <anchor hex="0907" x="267" y="60"/>
    <anchor hex="0101" x="28" y="214"/>
  </art>)");
    REQUIRE(off_map.size() == 2);
    CHECK_THAT(off_map[0], Contains("map.xml:56:") && Contains("off the map"));
    CHECK_THAT(off_map[1], Contains("map.xml:57:") && Contains("anchored twice (first at line 55)"));

    auto one = errors_with(R"(<art file="art/map.png">
    <anchor hex="0101" x="38" y="30"/>
  </art>)");
    REQUIRE(one.size() == 1);
    CHECK_THAT(one[0], Contains("map.xml:54:") && Contains("two or three hex centres"));

    auto line = errors_with(R"(<art file="art/map.png">
    <anchor hex="0101" x="38" y="30"/>
    <anchor hex="0102" x="40" y="60"/>
    <anchor hex="0103" x="42" y="90"/>
  </art>)");
    REQUIRE(line.size() == 1);
    CHECK_THAT(line[0], Contains("map.xml:54:") && Contains("lie on one line"));

    auto mirrored = errors_with(R"(<art file="art/map.png">
    <anchor hex="0101" x="38" y="30"/>
    <anchor hex="0801" x="267" y="60"/>
    <anchor hex="0106" x="28" y="5"/>
  </art>)");
    REQUIRE(mirrored.size() == 1);
    CHECK_THAT(mirrored[0], Contains("mirror image"));

    auto same_pixel = errors_with(R"(<art file="art/map.png">
    <anchor hex="0101" x="38" y="30"/>
    <anchor hex="0801" x="38" y="30"/>
  </art>)");
    REQUIRE(same_pixel.size() == 1);
    CHECK_THAT(same_pixel[0], Contains("at least 4 are needed"));
}
