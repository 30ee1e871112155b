// The data layer: the fixture module loads clean and complete; every broken module reports
// exactly the expected `file:line: message` lines; hostile input is refused with clear limits.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <set>

#include "data/loader.hpp"
#include "helpers.hpp"

using namespace vedette;
using test::messages;
using test::patch;

namespace {

// Diagnostics name files as given ("tests/fixtures/..."): run from the source tree wherever the
// executable is started (CTest already does).
const bool in_source_dir = [] {
    std::filesystem::current_path(VEDETTE_SOURCE_DIR);
    return true;
}();

const core::ModuleDef& fixture() {
    static const auto result = data::load_module("tests/fixtures/fixture_module");
    if (!result.ok()) {
        for (const auto& m : messages(result.errors)) UNSCOPED_INFO(m);
    }
    REQUIRE(result.ok());
    return *result.module;
}

hex::Hex at(const core::MapDef& map, const std::string& label) {
    auto h = map.parse_label(label);
    REQUIRE(h);
    return *h;
}

}  // namespace

// ---- the fixture module --------------------------------------------------------------------

TEST_CASE("fixture module loads clean with the expected contents", "[data][fixture]") {
    const auto& m = fixture();
    CHECK(m.id == "fixture");
    CHECK(m.version == "1.0.0");
    CHECK(m.api == 1);
    CHECK(m.dir == "tests/fixtures/fixture_module");
    CHECK(m.description.rfind("A small two-sided test game: an 8 x 6 map", 0) == 0);
    CHECK(m.sides.size() == 2);
    CHECK(m.side_index("red") == 1);
    CHECK(m.sides[0].color == "#2050c0");
    CHECK(m.phases.size() == 2);
    CHECK(m.phase_index("combat") == 1);
    CHECK(m.turn_first == 1);
    CHECK(m.turn_last == 6);
    REQUIRE(m.option("weather"));
    CHECK_FALSE(m.option("weather")->default_on);
    REQUIRE(m.track("red_morale"));
    CHECK(m.track("red_morale")->initial == 4);
    CHECK(m.track("red_morale")->max == 6);
    CHECK(m.rules_main == "rules/main.lua");
    CHECK(m.tests_dir == "tests");
    CHECK(m.content_hash.size() == 64);
}

TEST_CASE("fixture map: grid, terrain, features, boxes, regions", "[data][fixture]") {
    const auto& map = fixture().map;
    CHECK(map.id == "fixture_map");
    CHECK(map.cols == 8);
    CHECK(map.rows == 6);
    CHECK(map.grid.orientation == hex::Orientation::FlatTop);
    CHECK(map.grid.parity == hex::Parity::Odd);
    CHECK(map.hexes.size() == 48);
    CHECK(std::is_sorted(map.hexes.begin(), map.hexes.end(),
                         [](const auto& a, const auto& b) { return a.hex < b.hex; }));
    CHECK(map.terrain_types.size() == 3);
    CHECK(map.hexside_types.size() == 2);
    CHECK(map.feature_types.size() == 2);
    CHECK(map.hexsides.size() == 11);
    CHECK(map.boxes.size() == 3);
    CHECK(map.regions.size() == 2);

    // Every hex has its printed label, and labels read back as the same hex.
    std::set<std::string> labels;
    for (const auto& h : map.hexes) {
        CHECK(map.label(h.hex) == h.label);
        CHECK(map.parse_label(h.label) == h.hex);
        labels.insert(h.label);
    }
    CHECK(labels.size() == 48);
    CHECK(labels.count("0101") == 1);
    CHECK(labels.count("0806") == 1);
    CHECK_FALSE(map.parse_label("0900"));
    CHECK_FALSE(map.parse_label("0107"));
    CHECK_FALSE(map.parse_label("zz"));

    const int clear = map.terrain_index("clear"), forest = map.terrain_index("forest"),
              mountain = map.terrain_index("mountain");
    CHECK(map.find(at(map, "0101"))->terrain == clear);
    CHECK(map.find(at(map, "0202"))->terrain == forest);
    CHECK(map.find(at(map, "0604"))->terrain == mountain);
    const auto* redburg = map.find(at(map, "0803"));
    CHECK(redburg->name == "Redburg");
    CHECK(redburg->features ==
          std::vector<int>{map.feature_index("city"), map.feature_index("fort")});
    CHECK(map.find(at(map, "0504"))->name == "Midtown");

    CHECK(map.box_index("red_reserve") == 2);
    CHECK(map.boxes[2].owner == "red");
    CHECK(map.boxes[2].is_private);
    CHECK_FALSE(map.boxes[0].is_private);
    CHECK(map.box_index("nowhere") == -1);

    CHECK(map.in_region(at(map, "0104"), "blue_home"));
    CHECK_FALSE(map.in_region(at(map, "0204"), "blue_home"));
    CHECK_FALSE(map.in_region(at(map, "0104"), "no_such_region"));
    REQUIRE(map.region("red_home"));
    CHECK(map.region("red_home")->hexes.size() == 6);
}

TEST_CASE("fixture map: the river separates columns 04 and 05, bridged once", "[data][fixture]") {
    const auto& map = fixture().map;
    const int river = map.hexside_type_index("river"), bridge = map.hexside_type_index("bridge");
    int crossings = 0, bridges = 0;
    for (int row = 1; row <= 6; ++row) {
        hex::Hex a = at(map, "040" + std::to_string(row));
        for (int dir = 0; dir < 6; ++dir) {
            hex::Hex b = hex::neighbour(a, dir);
            const auto* hb = map.find(b);
            if (!hb || hb->label.substr(0, 2) != "05") continue;
            ++crossings;
            const auto* side = map.find_side(hex::hexside(a, dir));
            REQUIRE(side);
            CHECK(std::count(side->types.begin(), side->types.end(), river) == 1);
            bridges += std::count(side->types.begin(), side->types.end(), bridge);
            // The same edge seen from the other hex is the same definition.
            CHECK(map.find_side({b, (dir + 3) % 6}) == side);
        }
    }
    CHECK(crossings == 11);
    CHECK(bridges == 1);
    auto dir = hex::parse_direction("SE", hex::Orientation::FlatTop);
    REQUIRE(dir);
    const auto* bridged = map.find_side({at(map, "0403"), *dir});
    REQUIRE(bridged);
    CHECK(bridged->types == std::vector<int>{river, bridge});
    CHECK(map.find_side({at(map, "0101"), 0}) == nullptr);
}

TEST_CASE("fixture counters, tables and cards", "[data][fixture]") {
    const auto& m = fixture();
    CHECK(m.counter_types.size() == 6);
    int inf = m.counter_type_index("blue_inf");
    REQUIRE(inf >= 0);
    const auto& t = m.counter_types[static_cast<std::size_t>(inf)];
    CHECK(t.side == "blue");
    CHECK(t.category == "unit");
    CHECK(t.faces.size() == 2);
    CHECK(t.face_index("disrupted") == 1);
    CHECK(t.face_index("routed") == -1);
    CHECK(t.stats.at("strength").as_int() == 4);
    CHECK(t.stats.at("arm").as_string() == "infantry");
    const auto& red = m.counter_types[static_cast<std::size_t>(m.counter_type_index("red_cav"))];
    CHECK(red.hidden_as == "red_hidden");
    CHECK(m.counter_types[static_cast<std::size_t>(m.counter_type_index("control"))].side.empty());

    CHECK(m.tables.size() == 3);
    const auto* crt = m.table("crt");
    REQUIRE(crt);
    CHECK(crt->rule == "5.3");
    CHECK(crt->columns.size() == 5);
    CHECK(crt->rows.size() == 6);
    CHECK(crt->rows[0][0].as_int() == 1);
    CHECK(crt->rows[5][4].as_string() == "de");
    const auto* tec = m.table("terrain_effects");
    REQUIRE(tec);
    CHECK(tec->rows[2][1].as_string() == "impassable");
    CHECK(tec->rows[1][1].as_int() == 2);
    CHECK(m.table("nope") == nullptr);

    REQUIRE(m.decks.size() == 1);
    const auto* deck = m.deck("events");
    REQUIRE(deck);
    REQUIRE(deck->cards.size() == 4);
    CHECK(deck->cards[0].id == "reinforcements");
    CHECK(deck->cards[0].side == "red");
    CHECK(deck->cards[0].timing == "turn_start");
    CHECK(deck->cards[0].attributes.at("value") == "1");
    CHECK(deck->cards[0].text ==
          "Red takes one piece from the reserve box and places it in its home edge.");
    CHECK(deck->cards[2].side.empty());
}

TEST_CASE("fixture scenario: placements, stacks, hidden piece, vars, tracks, decks",
          "[data][fixture]") {
    const auto& m = fixture();
    REQUIRE(m.scenarios.size() == 1);
    const auto* sc = m.scenario("basic");
    REQUIRE(sc);
    CHECK(sc->first_side == "blue");
    CHECK(sc->turn == 1);
    CHECK(sc->phase == "movement");
    CHECK(sc->pos.file == "tests/fixtures/fixture_module/scenarios/basic.xml");
    CHECK(sc->pos.line == 2);
    REQUIRE(sc->placements.size() == 9);
    // File order is kept: the stack in Blueville is infantry then cavalry.
    CHECK(sc->placements[0].id == "b_inf1");
    CHECK(sc->placements[0].at == "0103");
    CHECK(sc->placements[1].id == "b_cav1");
    CHECK(sc->placements[1].at == "0103");
    // Defaults are filled in: first face, the type's side.
    CHECK(sc->placements[1].face == "ready");
    CHECK(sc->placements[1].owner == "blue");
    CHECK(sc->placements[1].props.at("charges_left").as_int() == 1);
    CHECK(sc->placements[1].pos.line == 7);
    const auto& reserve = sc->placements[7];
    CHECK(reserve.id == "r_inf3");
    CHECK(reserve.at == "box:red_reserve");
    CHECK(reserve.hidden);
    CHECK(reserve.owner == "red");
    CHECK(sc->placements[5].face == "disrupted");
    const auto& marker = sc->placements[8];
    CHECK(marker.type == "control");
    CHECK(marker.owner.empty());
    CHECK(marker.face == "red");
    CHECK(sc->vars.size() == 3);
    CHECK(sc->vars.at("blue_vp").as_int() == 0);
    CHECK(sc->vars.at("weather").as_string() == "fair");
    CHECK(sc->tracks.at("red_morale") == 4);
    REQUIRE(sc->decks.size() == 1);
    CHECK(sc->decks[0] == std::pair<std::string, bool>{"events", true});
}

TEST_CASE("content hash covers every file, by path and bytes", "[data][hash]") {
    auto files = test::fixture_files();
    auto a = data::load_module_from_memory(files, "x");
    REQUIRE(a.ok());
    CHECK(a.module->content_hash == fixture().content_hash);  // memory and disk agree
    CHECK(data::load_module_from_memory(files, "y").module->content_hash ==
          a.module->content_hash);  // the folder name does not count

    auto rules = files;
    rules["rules/main.lua"] += "\n-- a comment\n";
    CHECK(data::load_module_from_memory(rules, "x").module->content_hash != a.module->content_hash);

    auto extra = files;
    extra["docs/notes.txt"] = "";
    CHECK(data::load_module_from_memory(extra, "x").module->content_hash != a.module->content_hash);

    // Moving bytes from one file to the next changes the hash (sizes are hashed).
    auto moved = files;
    moved["docs/a"] = "xy";
    moved["docs/b"] = "";
    auto moved2 = files;
    moved2["docs/a"] = "x";
    moved2["docs/b"] = "y";
    CHECK(data::load_module_from_memory(moved, "x").module->content_hash !=
          data::load_module_from_memory(moved2, "x").module->content_hash);
}

TEST_CASE("content hash covers the shared rules libraries the module uses", "[data][hash]") {
    auto files = test::fixture_files();
    auto& xml = files["module.xml"];
    const std::string tag = "<rules main=\"rules/main.lua\"/>";
    auto at = xml.find(tag);
    REQUIRE(at != std::string::npos);
    xml.replace(at, tag.size(),
                "<rules main=\"rules/main.lua\"><library id=\"lib\" folder=\"shared_lib\"/></rules>");
    files["../shared_lib/util.lua"] = "return {}\n";
    auto a = data::load_module_from_memory(files, "x");
    REQUIRE(a.ok());

    auto changed = files;
    changed["../shared_lib/util.lua"] = "return { x = 1 }\n";
    CHECK(data::load_module_from_memory(changed, "x").module->content_hash !=
          a.module->content_hash);
    auto added = files;
    added["../shared_lib/more.lua"] = "";
    CHECK(data::load_module_from_memory(added, "x").module->content_hash != a.module->content_hash);
    // A sibling folder the module does not use does not count.
    auto other = files;
    other["../unrelated/x.lua"] = "";
    CHECK(data::load_module_from_memory(other, "x").module->content_hash == a.module->content_hash);
}

// ---- broken modules: one per error kind, exact diagnostics ------------------------------------

TEST_CASE("each broken module reports exactly its errors", "[data][broken]") {
    // Paths are relative to the broken module's folder.
    const std::map<std::string, std::vector<std::string>> expected = {
        {"bad_hex_label", {"scenarios/s.xml:2: place: bad hex label 'A1' (labels look like 0101)"}},
        {"bad_hexside_direction",
         {"map.xml:14: hexside 0102 E: bad direction 'E' for a flat-top map (use N, NE, SE, S, SW, "
          "NW)"}},
        {"bad_id",
         {"module.xml:4: <side>: attribute 'id': 'Red' is not a valid id (use a-z, 0-9 and '_', "
          "starting with a letter, at most 64 characters)"}},
        {"bad_integer", {"map.xml:1: map: attribute 'rows': '3x' is not an integer"}},
        {"dtd_entities", {"map.xml:1: DTDs and <!...> declarations are not allowed"}},
        {"duplicate_hex", {"map.xml:9: duplicate hex 0102 (first at line 7)"}},
        {"duplicate_hexside", {"map.xml:14: duplicate hexside 0102 N (first at line 13)"}},
        {"duplicate_id", {"module.xml:4: duplicate side 'blue' (first at line 3)"}},
        {"duplicate_piece_id",
         {"scenarios/s.xml:3: duplicate piece id 'a1' (first at line 2)",
          "scenarios/s.xml:4: place a2: count must be 1 when id is given"}},
        {"malformed_xml",
         {"map.xml:6: malformed XML: <hexes> is not closed by a matching </hexes>"}},
        {"map_too_large",
         {"map.xml:1: map: attribute 'cols': '2147483647' exceeds the limit of 2000 columns"}},
        {"missing_attribute", {"module.xml:10: <files>: missing attribute 'map'"}},
        {"missing_file", {"module.xml:10: <files>: counters file 'units.xml' not found"}},
        {"missing_hex",
         {"scenarios/s.xml:2: place: hex '0909' is off the map (3 columns x 3 rows)"}},
        {"missing_module_xml", {"module.xml: file not found"}},
        {"missing_rules", {"module.xml:11: <rules>: rules file 'rules/main.lua' not found"}},
        {"not_utf8",
         {"module.xml:1: file is not valid UTF-8 (byte 0xE9); module files must be UTF-8"}},
        {"path_escape",
         {"module.xml:10: <files>: path '../unknown_terrain/map.xml' must be relative and stay "
          "inside the module folder (no '..', no leading '/', no '\\')"}},
        {"table_row_width",
         {"tables.xml:5: table crt: row has 3 cells, expected 2 (columns: roll, result)",
          "tables.xml:6: table crt: row has 1 cell, expected 2 (columns: roll, result)"}},
        {"three_errors",
         {"module.xml:9: <turns>: attribute 'last': 'two' is not an integer",
          "counters.xml:2: counter-type inf: unknown side 'green'",
          "scenarios/s.xml:2: place: hex '0105' is off the map (3 columns x 3 rows)"}},
        {"unknown_attribute", {"map.xml:7: hex 0102: unknown attribute 'terain'"}},
        {"unknown_box", {"scenarios/s.xml:2: place: unknown box 'reserve'"}},
        {"unknown_counter_type", {"scenarios/s.xml:2: place: unknown counter type 'grenadier'"}},
        {"unknown_element", {"counters.xml:5: counter-type inf: unknown element <stats>"}},
        {"unknown_face", {"scenarios/s.xml:2: place: unknown face 'routed' of counter type 'inf'"}},
        {"unknown_phase",
         {"scenarios/s.xml:1: scenario s: attribute 'turn': '3' is out of range (1..2)",
          "scenarios/s.xml:1: scenario s: unknown phase 'combat'"}},
        {"unknown_side", {"counters.xml:2: counter-type inf: unknown side 'green'"}},
        {"unknown_terrain", {"map.xml:7: hex 0102: unknown terrain 'forrest'"}},
        {"unknown_track",
         {"scenarios/s.xml:3: track moral: unknown track 'moral'",
          "scenarios/s.xml:4: track morale: attribute 'value': '9' is out of range (0..5)"}},
        {"wrong_root", {"counters.xml:1: root element is <units>, expected <counters>"}},
    };
    const std::string root = "tests/fixtures/broken";
    std::set<std::string> dirs;
    for (const auto& e : std::filesystem::directory_iterator(root)) {
        if (e.is_directory()) dirs.insert(e.path().filename().string());
    }
    std::set<std::string> tested;
    for (const auto& [name, _] : expected) tested.insert(name);
    CHECK(dirs == tested);  // every broken module has its expectation, and vice versa
    CHECK(dirs.size() >= 12);

    for (const auto& [name, lines] : expected) {
        INFO(name);
        const std::string dir = root + "/" + name;
        auto r = data::load_module(dir);
        CHECK(r.module == nullptr);
        CHECK_FALSE(r.ok());
        std::vector<std::string> want;
        for (const auto& l : lines) want.push_back(dir + "/" + l);
        CHECK(messages(r.errors) == want);
    }
}

TEST_CASE("errors in three different files are all reported", "[data][broken]") {
    auto r = data::load_module("tests/fixtures/broken/three_errors");
    REQUIRE(r.errors.size() == 3);
    CHECK(r.errors[0].file == "tests/fixtures/broken/three_errors/module.xml");
    CHECK(r.errors[1].file == "tests/fixtures/broken/three_errors/counters.xml");
    CHECK(r.errors[2].file == "tests/fixtures/broken/three_errors/scenarios/s.xml");
    CHECK(r.errors[2].line == 2);
    CHECK(r.errors[2].message == "place: hex '0105' is off the map (3 columns x 3 rows)");
}

TEST_CASE("a trailing slash on the folder does not double in file names", "[data]") {
    auto r = data::load_module("tests/fixtures/broken/unknown_terrain/");
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].str() ==
          "tests/fixtures/broken/unknown_terrain/map.xml:7: hex 0102: unknown terrain 'forrest'");
}
