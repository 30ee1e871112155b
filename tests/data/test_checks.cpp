// Single checks of the loader, each on an in-memory copy of the fixture module with one
// change, asserting the exact diagnostics (file names are "mem/<path>").
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <functional>

#include "data/loader.hpp"
#include "helpers.hpp"

using namespace vedette;
using test::messages;
using test::patch;
using Files = std::map<std::string, std::string>;

namespace {

struct Case {
    const char* name;
    std::function<void(Files&)> change;
    std::vector<std::string> expected;
};

std::string cpp_list(const std::vector<std::string>& v) {
    std::string s = "{";
    for (const auto& l : v) {
        s += "\n \"";
        for (char c : l) {
            if (c == '"' || c == '\\') s += '\\';
            s += c;
        }
        s += "\",";
    }
    return s + "}";
}

void run(const std::vector<Case>& cases) {
    const Files base = test::fixture_files();
    for (const auto& c : cases) {
        INFO(c.name);
        Files files = base;
        c.change(files);
        auto r = data::load_module_from_memory(files, "mem");
        CHECK(r.module == nullptr);
        auto got = messages(r.errors);
        INFO("got: " << cpp_list(got));
        CHECK(got == c.expected);
    }
}

// A minimal module around a given map.xml (for grids the fixture does not use).
Files mini_module(const std::string& map_xml) {
    return {
        {"module.xml",
         "<module id=\"mini\" version=\"1\" name=\"Mini\">\n"
         "  <sides><side id=\"blue\"/></sides>\n"
         "  <phases><phase id=\"move\"/></phases>\n"
         "  <turns first=\"1\" last=\"1\"/>\n"
         "  <files map=\"map.xml\" counters=\"counters.xml\"/>\n"
         "  <rules main=\"main.lua\"/>\n"
         "</module>\n"},
        {"map.xml", map_xml},
        {"counters.xml",
         "<counters><counter-type id=\"inf\"><face id=\"front\"/></counter-type></counters>"},
        {"main.lua", ""},
    };
}

}  // namespace

TEST_CASE("module.xml checks", "[data][checks]") {
    run({
        {"unsupported api",
         [](Files& f) { patch(f, "module.xml", "api=\"1\"", "api=\"2\""); },
         {"mem/module.xml:3: module: unsupported api 2 (this Vedette reads api 1)"}},
        {"text where elements belong",
         [](Files& f) { patch(f, "module.xml", "<sides>", "<sides>oops"); },
         {"mem/module.xml:7: <sides>: unexpected text 'oops'"}},
        {"section given twice",
         [](Files& f) {
             patch(f, "module.xml", "  <turns ", "  <turns first=\"1\" last=\"2\"/>\n  <turns ");
         },
         {"mem/module.xml:16: module: duplicate element <turns> (first at line 15)"}},
        {"missing sections",
         [](Files& f) {
             patch(f, "module.xml", "  <rules main=\"rules/main.lua\"/>\n", "");
             patch(f, "module.xml", "  <turns first=\"1\" last=\"6\"/>\n", "");
         },
         {"mem/module.xml:3: module: missing element <turns>",
          "mem/module.xml:3: module: missing element <rules>"}},
        {"turns backwards",
         [](Files& f) {
             patch(f, "module.xml", "first=\"1\" last=\"6\"", "first=\"7\" last=\"6\"");
         },
         {"mem/module.xml:15: <turns>: last turn 6 is before the first turn 7"}},
        {"track bounds",
         [](Files& f) {
             patch(f, "module.xml", "min=\"0\" max=\"6\" initial=\"4\"",
                   "min=\"0\" max=\"6\" initial=\"7\"/>\n    <track id=\"t2\" min=\"5\" max=\"1\"");
         },
         {"mem/module.xml:20: track red_morale: initial 7 is outside min..max (0..6)",
          "mem/module.xml:21: track t2: max 1 is below min 5"}},
        {"bad colour and boolean",
         [](Files& f) {
             patch(f, "module.xml", "color=\"#2050c0\"", "color=\"blue\"");
             patch(f, "module.xml", "default=\"false\"", "default=\"no\"");
         },
         {"mem/module.xml:8: side blue: attribute 'color': 'blue' is not a colour (#rrggbb)",
          "mem/module.xml:17: option weather: attribute 'default': 'no' is not a boolean (true "
          "or false)"}},
        {"paths must stay inside the module",
         [](Files& f) {
             patch(f, "module.xml", "main=\"rules/main.lua\"", "main=\"/etc/passwd\"");
             patch(f, "module.xml", "file=\"scenarios/basic.xml\"",
                   "file=\"scenarios/../../x.xml\"");
         },
         {"mem/module.xml:24: <scenario>: path 'scenarios/../../x.xml' must be relative and stay "
          "inside the module folder (no '..', no leading '/', no '\\')",
          "mem/module.xml:26: <rules>: path '/etc/passwd' must be relative and stay inside the "
          "module folder (no '..', no leading '/', no '\\')"}},
        {"missing tests folder",
         [](Files& f) {
             for (auto it = f.begin(); it != f.end();) {
                 it = it->first.rfind("tests/", 0) == 0 ? f.erase(it) : std::next(it);
             }
         },
         {"mem/module.xml:27: <tests>: tests folder 'tests' not found"}},
        {"unknown element and attribute",
         [](Files& f) {
             patch(f, "module.xml", "<turns first", "<turn first=\"1\"/><turns first");
             patch(f, "module.xml", "name=\"Red\"", "name=\"Red\" colour=\"#000000\"");
         },
         {"mem/module.xml:9: side red: unknown attribute 'colour'",
          "mem/module.xml:15: module: unknown element <turn>"}},
        {"duplicate scenario id across files",
         [](Files& f) {
             f["scenarios/copy.xml"] = f.at("scenarios/basic.xml");
             patch(f, "module.xml", "  </scenarios>",
                   "    <scenario file=\"scenarios/copy.xml\"/>\n  </scenarios>");
         },
         {"mem/scenarios/copy.xml:2: duplicate scenario 'basic' (first at "
          "mem/scenarios/basic.xml:2)"}},
        {"missing scenario file",
         [](Files& f) { f.erase("scenarios/basic.xml"); },
         {"mem/module.xml:24: <scenario>: scenario file 'scenarios/basic.xml' not found"}},
    });
}

TEST_CASE("map.xml checks", "[data][checks]") {
    run({
        {"too many hexes",
         [](Files& f) {
             patch(f, "map.xml", "cols=\"8\" rows=\"6\"", "cols=\"1000\" rows=\"1000\"");
         },
         {"mem/map.xml:4: map: a map of 1000 x 1000 = 1000000 hexes exceeds the limit of 250000 "
          "hexes"}},
        {"absurd sizes",
         [](Files& f) {
             patch(f, "map.xml", "cols=\"8\" rows=\"6\"",
                   "cols=\"99999999999999999999999\" rows=\"-6\"");
         },
         {"mem/map.xml:4: map: attribute 'cols': '99999999999999999999999' exceeds the limit of "
          "2000 columns",
          "mem/map.xml:4: map: attribute 'rows': '-6' is out of range (1..2000)"}},
        {"labels that cannot be read back",
         [](Files& f) { patch(f, "map.xml", "rows=\"6\"", "rows=\"150\""); },
         {"mem/map.xml:5: <numbering>: offset column 0, row 99 would print as '01100', which "
          "does not read back as the same hex"}},
        {"hex labels: malformed, off the map",
         [](Files& f) {
             patch(f, "map.xml", "<hex at=\"0202\"", "<hex at=\"B2\"");
             patch(f, "map.xml", "<hex at=\"0203\"", "<hex at=\"0907\"");
         },
         {"mem/map.xml:21: hex B2: bad hex label 'B2' (labels look like 0101)",
          "mem/map.xml:22: hex 0907: hex '0907' is off the map (8 columns x 6 rows)"}},
        {"features: unknown and repeated",
         [](Files& f) {
             patch(f, "map.xml", "features=\"city fort\"", "features=\"city town city\"");
         },
         {"mem/map.xml:28: hex 0803: unknown feature 'town'",
          "mem/map.xml:28: hex 0803: feature 'city' listed twice"}},
        {"default terrain unknown",
         [](Files& f) {
             patch(f, "map.xml", "default-terrain=\"clear\"", "default-terrain=\"plain\"");
         },
         {"mem/map.xml:19: <hexes>: unknown terrain 'plain'"}},
        {"hexside types: unknown, none",
         [](Files& f) {
             patch(f, "map.xml", "dir=\"NE\" types=\"river\"", "dir=\"NE\" types=\"stream\"");
             patch(f, "map.xml", "dir=\"SE\" types=\"river\"", "dir=\"SE\" types=\" \"");
         },
         {"mem/map.xml:31: hexside 0401 NE: unknown hexside type 'stream'",
          "mem/map.xml:32: hexside 0401 SE: no hexside type given"}},
        {"same hexside given from both hexes",
         [](Files& f) {
             patch(f, "map.xml", "  </hexsides>",
                   "    <hexside at=\"0504\" dir=\"nw\" types=\"river\"/>\n  </hexsides>");
         },
         {"mem/map.xml:42: duplicate hexside 0504 nw (first at line 36)"}},
        {"boxes and regions",
         [](Files& f) {
             patch(f, "map.xml", "owner=\"red\" private=\"true\"", "private=\"true\"");
             patch(f, "map.xml", "owner=\"blue\"", "owner=\"green\"");
             patch(f, "map.xml", "name=\"Red eliminated\" owner=\"red\"",
                   "name=\"Red eliminated\" owner=\"red\" hide-count=\"true\"");
             patch(f, "map.xml", "hexes=\"0101 0102", "hexes=\"0101 0101 0109");
         },
         {"mem/map.xml:44: box blue_eliminated: unknown side 'green'",
          "mem/map.xml:45: box red_eliminated: hide-count needs private=\"true\"",
          "mem/map.xml:46: box red_reserve: a private box needs an owner",
          "mem/map.xml:49: region blue_home: hex 0101 listed twice",
          "mem/map.xml:49: region blue_home: hex '0109' is off the map (8 columns x 6 rows)"}},
        {"missing sections",
         [](Files& f) {
             auto& m = f.at("map.xml");
             m.erase(m.find("  <hexes "), m.find("</hexes>") + 9 - m.find("  <hexes "));
         },
         {"mem/map.xml:4: map: missing element <hexes>"}},
        {"georef ranges",
         [](Files& f) {
             patch(f, "map.xml", "<terrain-types>",
                   "<georef projection=\"laea\" lat0=\"91\" lon0=\"3e1\" hex-km=\"50\" "
                   "origin-x-km=\"0\" origin-y-km=\"0\"/><terrain-types>");
         },
         {"mem/map.xml:6: <georef>: attribute 'lat0': '91' is out of range",
          "mem/map.xml:6: <georef>: attribute 'lon0': '3e1' is not a decimal number"}},
    });
}

TEST_CASE("counters, tables and cards checks", "[data][checks]") {
    run({
        {"hidden-as unknown; no faces",
         [](Files& f) {
             patch(f, "counters.xml", "hidden-as=\"red_hidden\"", "hidden-as=\"red_back\"");
             patch(f, "counters.xml", "    <face id=\"back\" name=\"Back\"/>\n", "");
         },
         {"mem/counters.xml:17: counter-type red_inf: unknown counter type 'red_back' in hidden-as",
          "mem/counters.xml:32: counter-type red_hidden: no <face> (a counter needs at least "
          "one)"}},
        {"stats: two values, none, bad integer, too large",
         [](Files& f) {
             patch(f, "counters.xml", "<stat id=\"strength\" value=\"4\"/>",
                   "<stat id=\"strength\" value=\"4\" text=\"four\"/>");
             patch(f, "counters.xml", "<stat id=\"movement\" value=\"3\"/>",
                   "<stat id=\"movement\"/>");
             patch(f, "counters.xml", "<stat id=\"strength\" value=\"2\"/>",
                   "<stat id=\"strength\" value=\"2x\"/>");
             patch(f, "counters.xml", "<stat id=\"movement\" value=\"5\"/>",
                   "<stat id=\"movement\" value=\"99999999999999999999\"/>");
         },
         {"mem/counters.xml:6: counter-type blue_inf, stat strength: give exactly one of value "
          "(integer) or text",
          "mem/counters.xml:7: counter-type blue_inf, stat movement: give exactly one of value "
          "(integer) or text",
          "mem/counters.xml:13: counter-type blue_cav, stat strength: attribute 'value': '2x' is "
          "not an integer",
          "mem/counters.xml:14: counter-type blue_cav, stat movement: attribute 'value': "
          "'99999999999999999999' is out of range (-1000000000..1000000000)"}},
        {"duplicate face and stat",
         [](Files& f) {
             patch(f, "counters.xml", "<face id=\"disrupted\" name=\"Disrupted\"/>",
                   "<face id=\"ready\" name=\"Disrupted\"/>");
             patch(f, "counters.xml", "<stat id=\"arm\" text=\"infantry\"/>",
                   "<stat id=\"strength\" text=\"infantry\"/>");
         },
         {"mem/counters.xml:5: duplicate face 'ready' (first at line 4)",
          "mem/counters.xml:8: duplicate stat 'strength' (first at line 6)"}},
        {"tables: columns and cells",
         [](Files& f) {
             patch(f, "tables.xml", "<columns>roll odds_1_2", "<columns>roll roll");
             patch(f, "tables.xml", "<row>6 dr de de de</row>", "<row>6 dr de de 5000000000</row>");
             patch(f, "tables.xml", "<columns>terrain move_cost defense_shift</columns>", "");
         },
         {"mem/tables.xml:6: duplicate column 'roll' (first at line 6)",
          "mem/tables.xml:12: table crt: cell '5000000000' is out of range "
          "(-1000000000..1000000000)",
          "mem/tables.xml:15: table terrain_effects: missing element <columns>"}},
        {"cards: unknown side, empty deck",
         [](Files& f) {
             patch(f, "cards.xml", "side=\"red\"", "side=\"green\"");
             patch(f, "cards.xml", "</cards>", "<deck id=\"empty\"/></cards>");
         },
         {"mem/cards.xml:4: card reinforcements: unknown side 'green'",
          "mem/cards.xml:13: deck empty: no <card>"}},
    });
}

TEST_CASE("scenario checks", "[data][checks]") {
    const char* sc = "scenarios/basic.xml";
    run({
        {"scenario attributes",
         [&](Files& f) {
             patch(f, sc, "first-side=\"blue\" turn=\"1\" phase=\"movement\"",
                   "first-side=\"green\" turn=\"7\" phase=\"supply\"");
         },
         {"mem/scenarios/basic.xml:2: scenario basic: unknown side 'green'",
          "mem/scenarios/basic.xml:2: scenario basic: attribute 'turn': '7' is out of range (1..6)",
          "mem/scenarios/basic.xml:2: scenario basic: unknown phase 'supply'"}},
        {"placements",
         [&](Files& f) {
             patch(f, sc, "owner=\"blue\"/>", "owner=\"green\" hidden=\"maybe\"/>");
             patch(f, sc, "<place type=\"blue_inf\" id=\"b_inf2\" at=\"0305\"/>",
                   "<place type=\"blue_inf\" count=\"0\"/>");
             patch(f, sc, "at=\"box:red_reserve\"", "at=\"box:\"");
         },
         {"mem/scenarios/basic.xml:6: place b_inf1: unknown side 'green'",
          "mem/scenarios/basic.xml:6: place b_inf1: attribute 'hidden': 'maybe' is not a boolean "
          "(true or false)",
          "mem/scenarios/basic.xml:10: place: attribute 'count': '0' is out of range (1..1000)",
          "mem/scenarios/basic.xml:15: place r_inf3: unknown box ''"}},
        {"props and vars",
         [&](Files& f) {
             patch(f, sc, "<prop name=\"charges_left\" value=\"1\"/>",
                   "<prop name=\"charges_left\" value=\"1\" bool=\"true\"/><prop name=\"x\"/>");
             patch(f, sc, "<var name=\"red_vp\" value=\"0\"/>",
                   "<var name=\"blue_vp\" value=\"1\"/>");
             patch(f, sc, "<var name=\"weather\" text=\"fair\"/>",
                   "<var name=\"Weather\" bool=\"yes\"/>");
         },
         {"mem/scenarios/basic.xml:8: place b_cav1, prop charges_left: give exactly one of value "
          "(integer), text or bool",
          "mem/scenarios/basic.xml:8: place b_cav1, prop x: give exactly one of value (integer), "
          "text or bool",
          "mem/scenarios/basic.xml:18: duplicate var 'blue_vp' (first at line 17)",
          "mem/scenarios/basic.xml:19: var: attribute 'name': 'Weather' is not a valid id (use "
          "a-z, 0-9 and '_', starting with a letter, at most 64 characters)",
          "mem/scenarios/basic.xml:19: var Weather: attribute 'bool': 'yes' is not a boolean (true "
          "or false)"}},
        {"tracks and decks",
         [&](Files& f) {
             patch(f, sc, "<track id=\"red_morale\" value=\"4\"/>",
                   "<track id=\"red_morale\" value=\"7\"/><track id=\"red_morale\" value=\"1\"/>");
             patch(f, sc, "<deck id=\"events\" shuffle=\"true\"/>",
                   "<deck id=\"events\"/><deck id=\"events\"/><deck id=\"cards\"/>");
         },
         {"mem/scenarios/basic.xml:20: track red_morale: attribute 'value': '7' is out of range "
          "(0..6)",
          "mem/scenarios/basic.xml:20: duplicate track 'red_morale' (first at line 20)",
          "mem/scenarios/basic.xml:21: duplicate deck 'events' (first at line 21)",
          "mem/scenarios/basic.xml:21: deck cards: unknown deck 'cards'"}},
        {"too many pieces",
         [&](Files& f) {
             std::string many;
             for (int i = 0; i < 101; ++i) many += "<place type=\"control\" count=\"1000\"/>";
             patch(f, sc, "<var name=\"blue_vp\"", many + "\n<var name=\"blue_vp\"");
         },
         {"mem/scenarios/basic.xml:17: place: the scenario has more than 100000 pieces (the "
          "limit)"}},
        {"no checks against a map that failed to load",
         [&](Files& f) {
             patch(f, "map.xml", "cols=\"8\"", "cols=\"eight\"");
             patch(f, sc, "at=\"0803\"", "at=\"9999\"");
         },
         {"mem/map.xml:4: map: attribute 'cols': 'eight' is not an integer"}},
    });
}

TEST_CASE("lexical and well-formedness checks", "[data][checks][hostile]") {
    run({
        {"unknown entity",
         [](Files& f) { patch(f, "module.xml", "name=\"Fixture\"", "name=\"&lol;\""); },
         {"mem/module.xml:3: unknown entity '&lol;' (only &amp; &lt; &gt; &quot; &apos; and "
          "&#...; are allowed)"}},
        {"NUL character reference",
         [](Files& f) { patch(f, "module.xml", "name=\"Fixture\"", "name=\"a&#0;b\""); },
         {"mem/module.xml:3: character reference '&#0;' is not an allowed XML character"}},
        {"bare ampersand",
         [](Files& f) { patch(f, "cards.xml", "Red\n", "Red & Co\n"); },
         {"mem/cards.xml:4: '&' must be written as &amp;"}},
        {"control character",
         [](Files& f) {
             patch(f, "counters.xml", "Blue infantry", std::string("Blue\x01infantry"));
         },
         {"mem/counters.xml:3: control character 0x01 is not allowed in XML"}},
        {"UTF-16",
         [](Files& f) { f["tables.xml"] = std::string("\xFF\xFE<\0t\0", 6); },
         {"mem/tables.xml:1: file is not valid UTF-8 (byte 0xFF); module files must be UTF-8"}},
        {"overlong UTF-8",
         [](Files& f) { patch(f, "map.xml", "Redburg", "Red\xC0\xAFurg"); },
         {"mem/map.xml:28: file is not valid UTF-8 (byte 0xC0); module files must be UTF-8"}},
        {"DOCTYPE",
         [](Files& f) {
             patch(f, "cards.xml", "<cards>",
                   "<!DOCTYPE cards SYSTEM \"file:///etc/passwd\">\n<cards>");
         },
         {"mem/cards.xml:2: DTDs and <!...> declarations are not allowed"}},
        {"two root elements",
         [](Files& f) { f.at("counters.xml") += "<counters/>\n"; },
         {"mem/counters.xml:40: malformed XML: more than one root element (<counters> after "
          "<counters>)"}},
        {"empty file",
         [](Files& f) { f["tables.xml"] = ""; },
         {"mem/tables.xml: malformed XML: no root element"}},
        {"unclosed attribute",
         [](Files& f) { patch(f, "tables.xml", "id=\"crt\"", "id=\"crt"); },
         {"mem/tables.xml:5: malformed XML: bad attribute (unquoted, duplicated or malformed) in "
          "element <table>"}},
        {"duplicate attribute",
         [](Files& f) { patch(f, "tables.xml", "id=\"crt\"", "id=\"crt\" id=\"crt\""); },
         {"mem/tables.xml:5: malformed XML: bad attribute (unquoted, duplicated or malformed) in "
          "element <table>"}},
        {"deep nesting",
         [](Files& f) {
             std::string deep;
             for (int i = 0; i < 5000; ++i) deep += "<x>";
             patch(f, "map.xml", "<boxes>", deep + "<boxes>");
         },
         {"mem/map.xml:43: malformed XML: elements nested too deeply (limit 100)"}},
        {"a file over the size limit",
         [](Files& f) { f["cards.xml"] = "<cards>" + std::string(17u << 20, ' ') + "</cards>"; },
         {"mem/cards.xml: file is too large (17825807 bytes; the limit is 16777216)"}},
        {"wrong root",
         [](Files& f) { f["cards.xml"] = "<decks/>"; },
         {"mem/cards.xml:1: root element is <decks>, expected <cards>"}},
        {"missing module.xml",
         [](Files& f) { f.erase("module.xml"); },
         {"mem/module.xml: file not found"}},
    });
}

TEST_CASE("a file full of mistakes stops at the error limit", "[data][checks][hostile]") {
    Files f = test::fixture_files();
    std::string bad;
    for (int i = 0; i < 5000; ++i) bad += "<hex at=\"0101\" terrain=\"nope\"/>\n";
    patch(f, "map.xml", "<hex at=\"0103\"", bad + "<hex at=\"0103\"");
    auto r = data::load_module_from_memory(f);
    CHECK(r.module == nullptr);
    REQUIRE(r.errors.size() == data::limits::kMaxErrors);
    CHECK(r.errors.back().message == "too many errors (limit 1000); stopping");
    CHECK(r.errors.front().str() == "mem/map.xml:20: hex 0101: unknown terrain 'nope'");
}

TEST_CASE("grids: pointy-top, reversed columns, row letters", "[data][checks]") {
    const std::string terrain =
        "  <terrain-types><terrain id=\"clear\"/></terrain-types>\n"
        "  <hexside-types><hexside-type id=\"river\"/></hexside-types>\n";
    SECTION("pointy-top directions") {
        auto files =
            mini_module("<map id=\"m\" orientation=\"pointy\" cols=\"4\" rows=\"3\">\n" + terrain +
                        "  <hexes default-terrain=\"clear\"/>\n"
                        "  <hexsides>\n"
                        "    <hexside at=\"0101\" dir=\"E\" types=\"river\"/>\n"
                        "    <hexside at=\"0102\" dir=\"N\" types=\"river\"/>\n"
                        "  </hexsides>\n"
                        "</map>\n");
        auto r = data::load_module_from_memory(files);
        CHECK(messages(r.errors) ==
              std::vector<std::string>{"mem/map.xml:7: hexside 0102 N: bad direction 'N' for a "
                                       "pointy-top map (use NE, E, SE, SW, W, NW)"});
        patch(files, "map.xml", "dir=\"N\"", "dir=\"w\"");
        r = data::load_module_from_memory(files);
        REQUIRE(r.ok());
        CHECK(r.module->map.hexsides.size() == 2);
        CHECK(r.module->map.grid.orientation == hex::Orientation::PointyTop);
    }
    SECTION("col-step -1: column numbers shrink eastwards") {
        auto files = mini_module(
            "<map id=\"m\" cols=\"3\" rows=\"2\">\n"
            "  <numbering first-col=\"69\" first-row=\"10\" col-step=\"-1\"/>\n" +
            terrain +
            "  <hexes default-terrain=\"clear\"><hex at=\"6811\" name=\"East\"/></hexes>\n"
            "</map>\n");
        auto r = data::load_module_from_memory(files);
        REQUIRE(r.ok());
        const auto& map = r.module->map;
        CHECK(map.col_step == -1);
        auto h = map.parse_label("6811");
        REQUIRE(h);
        CHECK(hex::to_offset(*h, map.grid) == hex::Offset{1, 1});
        CHECK(map.find(*h)->name == "East");
        CHECK(map.label(hex::from_offset({2, 0}, map.grid)) == "6710");
        CHECK_FALSE(map.parse_label("7010"));
        CHECK_FALSE(map.parse_label("6610"));
        for (const auto& hd : map.hexes) CHECK(map.parse_label(hd.label) == hd.hex);
    }
    SECTION("row letters with boards") {
        auto files = mini_module(
            "<map id=\"m\" cols=\"3\" rows=\"30\">\n"
            "  <numbering scheme=\"row-letters-col-board\" first-col=\"1\"/>\n" +
            terrain +
            "  <hexes default-terrain=\"clear\">\n"
            "    <hex at=\"A1(2)\" name=\"South west\"/>\n"
            "    <hex at=\"BB3\" board=\"1\"/>\n"
            "  </hexes>\n"
            "</map>\n");
        auto r = data::load_module_from_memory(files);
        REQUIRE(r.ok());
        const auto& map = r.module->map;
        auto sw = map.parse_label("A1(2)");
        REQUIRE(sw);
        CHECK(hex::to_offset(*sw, map.grid) == hex::Offset{0, 29});  // A is the southern row
        CHECK(map.find(*sw)->board == 2);
        CHECK(map.find(*sw)->label == "A1(2)");
        CHECK(map.parse_label("A1") == sw);                    // the board may be left out
        CHECK_FALSE(map.parse_label("A1(3)"));                 // but not be wrong
        CHECK(map.find(*map.parse_label("BB3"))->board == 1);  // from board=
        CHECK(map.parse_label("BB3(1)") == map.parse_label("BB3"));
        auto hexes = files;
        patch(hexes, "map.xml", "<hex at=\"BB3\" board=\"1\"/>", "<hex at=\"B2(1)\" board=\"3\"/>");
        CHECK(messages(data::load_module_from_memory(hexes).errors) ==
              std::vector<std::string>{"mem/map.xml:7: hex B2(1): board 3 does not match the "
                                       "label's board 1"});
        auto regions = files;
        patch(regions, "map.xml", "</map>",
              "<regions><region id=\"r\" hexes=\"A1 A1(3)\"/></regions></map>");
        CHECK(messages(data::load_module_from_memory(regions).errors) ==
              std::vector<std::string>{"mem/map.xml:9: region r: hex 'A1(3)' is on board 2"});
    }
}

TEST_CASE("set-up files outside the module", "[data][setup]") {
    auto mod = data::load_module("tests/fixtures/fixture_module");
    REQUIRE(mod.ok());
    const auto& m = *mod.module;
    SECTION("a good set-up") {
        auto r =
            data::load_setup_from_memory(m, "my_setup.xml",
                                         "<scenario id=\"custom\" first-side=\"red\">\n"
                                         "  <place type=\"red_cav\" count=\"3\" at=\"0806\"/>\n"
                                         "</scenario>\n");
        REQUIRE(r.ok());
        CHECK(r.scenario.id == "custom");
        CHECK(r.scenario.first_side == "red");
        CHECK(r.scenario.phase == "movement");  // the first phase by default
        CHECK(r.scenario.turn == 1);
        REQUIRE(r.scenario.placements.size() == 1);
        CHECK(r.scenario.placements[0].count == 3);
        CHECK(r.scenario.placements[0].owner == "red");
        CHECK(r.scenario.placements[0].pos.file == "my_setup.xml");
        CHECK(r.scenario.placements[0].pos.line == 2);
    }
    SECTION("a broken set-up") {
        auto r = data::load_setup_from_memory(m, "my_setup.xml",
                                              "<scenario id=\"custom\">\n"
                                              "  <place type=\"red_cav\" at=\"0000\"/>\n"
                                              "  <place type=\"red_gun\" at=\"box:red_reserve\"/>\n"
                                              "</scenario>\n");
        CHECK_FALSE(r.ok());
        CHECK(messages(r.errors) ==
              std::vector<std::string>{
                  "my_setup.xml:2: place: hex '0000' is off the map (8 columns x 6 rows)",
                  "my_setup.xml:3: place: unknown counter type 'red_gun'"});
    }
    SECTION("from disk") {
        auto r = data::load_setup(m, "tests/fixtures/fixture_module/scenarios/basic.xml");
        REQUIRE(r.ok());
        CHECK(r.scenario.placements.size() == 9);
        auto missing = data::load_setup(m, "tests/fixtures/no_such_setup.xml");
        CHECK(messages(missing.errors) ==
              std::vector<std::string>{"tests/fixtures/no_such_setup.xml: file not found"});
        auto wrong = data::load_setup(m, "tests/fixtures/fixture_module/map.xml");
        CHECK(messages(wrong.errors) ==
              std::vector<std::string>{"tests/fixtures/fixture_module/map.xml:4: root element is "
                                       "<map>, expected <scenario>"});
    }
}

TEST_CASE("large files load in linear time", "[data][checks][hostile]") {
    // 100,000s of definitions and references: lookups must not be linear scans.
    using Clock = std::chrono::steady_clock;
    Files f = test::fixture_files();
    std::string types = "<counters>\n";
    const int n = 60000;
    for (int i = 0; i < n; ++i) {
        types += "<counter-type id=\"t" + std::to_string(i) + "\" hidden-as=\"t" +
                 std::to_string(n - 1 - i) + "\"><face id=\"f\"/></counter-type>\n";
    }
    f["counters.xml"] = types + "</counters>\n";
    std::string places = "<scenario id=\"big\">\n";
    for (int i = 0; i < n; ++i) {
        places += "<place type=\"t" + std::to_string(i) + "\" face=\"f\" at=\"001001\"/>\n";
    }
    f["scenarios/basic.xml"] = places + "</scenario>\n";
    // A 500 x 500 map with a region of every hex and a hex with 20,000 features.
    std::string map =
        "<map id=\"m\" cols=\"500\" rows=\"500\">\n<numbering col-digits=\"3\" row-digits=\"3\"/>"
        "<terrain-types><terrain id=\"clear\"/></terrain-types><hex-features>";
    std::string features;
    for (int i = 0; i < 20000; ++i) {
        map += "<feature id=\"x" + std::to_string(i) + "\"/>";
        features += " x" + std::to_string(i);
    }
    map += "</hex-features><hexes default-terrain=\"clear\"><hex at=\"001001\" features=\"" +
           features + "\"/></hexes><regions><region id=\"all\" hexes=\"";
    for (int c = 1; c <= 500; ++c) {
        for (int r = 1; r <= 500; ++r) {
            char label[8];
            std::snprintf(label, sizeof label, "%03d%03d ", c, r);
            map += label;
        }
    }
    f["map.xml"] = map + "\"/></regions></map>\n";
    auto start = Clock::now();
    auto r = data::load_module_from_memory(f);
    auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    INFO("took " << took.count() << " ms");
    if (!r.errors.empty()) UNSCOPED_INFO(r.errors.front().str());
    REQUIRE(r.ok());
    CHECK(r.module->counter_types.size() == n);
    CHECK(r.module->map.hexes.size() == 250000);
    CHECK(r.module->map.region("all")->hexes.size() == 250000);
    CHECK(took < std::chrono::seconds(30));
}
