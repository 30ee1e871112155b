// A tiny module built in memory for the script tests: a 5x4 flat-top map, two sides, a few
// counter types, a table, a deck; Lua files written to a fresh temporary folder.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include "core/defs.hpp"
#include "core/state.hpp"
#include "script/rules_host.hpp"

namespace vedette::test {

inline std::shared_ptr<core::ModuleDef> tiny_def(const std::string& dir) {
    auto d = std::make_shared<core::ModuleDef>();
    d->id = "tiny";
    d->version = "1.0.0";
    d->name = "Tiny";
    d->dir = dir;
    d->rules_main = "rules/main.lua";
    d->sides = {{"blue", "Blue", "#2050c0"}, {"red", "Red", "#c02020"}};
    d->phases = {{"movement", "Movement"}, {"combat", "Combat"}};
    d->turn_first = 1;
    d->turn_last = 12;
    d->options = {{"hidden_forces", "Hidden forces", false}};
    d->tracks = {{"blue_cc", "Blue combat commands", 0, 6, 3}};

    auto& m = d->map;
    m.id = "tiny";
    m.grid = {hex::Orientation::FlatTop, hex::Parity::Odd};
    m.numbering = {};  // colrow, "0101"
    m.cols = 5;
    m.rows = 4;
    m.terrain_types = {{"clear", "Clear", "#fff", ""}, {"forest", "Forest", "#0a0", "forest"}};
    m.hexside_types = {{"river", "River", "#00f"}, {"bridge", "Bridge", ""}};
    m.feature_types = {{"city", "City"}, {"fortified", "Fortified"}};
    for (int c = 0; c < m.cols; ++c) {
        for (int r = 0; r < m.rows; ++r) {
            core::HexDef h;
            h.hex = hex::from_offset({c, r}, m.grid);
            h.label = hex::format_label({c, r}, m.numbering);
            m.hexes.push_back(h);
        }
    }
    std::sort(m.hexes.begin(), m.hexes.end(),
              [](const auto& a, const auto& b) { return a.hex < b.hex; });
    auto at = [&](const char* label) -> core::HexDef& {
        for (auto& h : m.hexes)
            if (h.label == label) return h;
        throw std::runtime_error("no hex");
    };
    at("0202").terrain = 1;
    at("0302").terrain = 1;
    at("0303").features = {0, 1};
    at("0303").name = "Paris";
    const hex::Hex a = at("0101").hex, b = at("0102").hex;
    core::HexsideDef river;
    river.key = hex::hexside(a, *hex::direction_between(a, b));
    river.types = {0, 1};
    m.hexsides.push_back(river);
    m.boxes = {{"eliminated", "Eliminated", "", false}, {"reserve", "Reserve", "red", true}};
    core::RegionDef north{"north", "North", {}};
    for (const char* l : {"0101", "0201", "0301"}) north.hexes.push_back(at(l).hex);
    std::sort(north.hexes.begin(), north.hexes.end());
    m.regions = {north};
    m.index();

    core::CounterType inf;
    inf.id = "blue_inf";
    inf.name = "Infantry";
    inf.category = "unit";
    inf.side = "blue";
    inf.faces = {{"front", "Ready"}, {"disrupted", "Disrupted"}};
    inf.stats = {{"strength", core::Value(2)}, {"class", core::Value("veteran")}};
    core::CounterType red = inf;
    red.id = "red_inf";
    red.side = "red";
    core::CounterType supply;
    supply.id = "supply";
    supply.name = "Supply train";
    supply.category = "marker";
    supply.side = "blue";
    supply.hidden_as = "supply_back";
    supply.faces = {{"front", "Supply"}};
    d->counter_types = {inf, red, supply};

    core::TableDef crt;
    crt.id = "crt";
    crt.name = "Combat results";
    crt.rule = "11.4";
    crt.columns = {"roll", "result"};
    crt.rows = {{core::Value(1), core::Value("ar")}, {core::Value(6), core::Value("de")}};
    d->tables = {crt};

    core::DeckDef deck;
    deck.id = "events";
    deck.name = "Events";
    deck.owner = "red";
    deck.cards = {{"ev1", "Rain", "", "immediate", "It rains.", {{"weather", "rain"}}},
                  {"ev2", "Sun", "red", "held", "It shines.", {}},
                  {"ev3", "Snow", "", "immediate", "It snows.", {}}};
    d->decks = {deck};
    return d;
}

// A temporary module folder with the given files (path relative to the module -> text).
struct TempModule {
    std::filesystem::path dir;
    std::shared_ptr<core::ModuleDef> def;

    using Files = std::initializer_list<std::pair<const char*, std::string>>;
    explicit TempModule(Files files) {
        static std::atomic<int> counter{0};
        dir = std::filesystem::temp_directory_path() /
              ("vedette_script_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir / "rules");
        for (const auto& [path, text] : files) write(path, text);
        def = tiny_def(dir.string());
    }
    ~TempModule() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
    void write(const std::string& path, const std::string& text) const {
        std::filesystem::create_directories((dir / path).parent_path());
        std::ofstream(dir / path, std::ios::binary) << text;
    }
};

// A state with a few pieces: b1, b2 (blue) at 0202; r1 (red) at 0303; s1 (supply, hidden) in
// box reserve; the events deck as a pile.
inline core::GameState tiny_state(const std::shared_ptr<const core::ModuleDef>& def) {
    core::GameState st(def);
    auto loc = [&](const char* l) { return core::Location::at(*def->map.parse_label(l)); };
    st.create_piece(0, "b1", 0, loc("0202"));
    st.create_piece(0, "b2", 0, loc("0202"));
    st.create_piece(1, "r1", 1, loc("0303"));
    st.create_piece(2, "s1", 0, core::Location::in_box(1), 0, true);
    st.pile("events").cards = {"ev1", "ev2", "ev3"};
    st.decision.role = "blue";
    return st;
}

}  // namespace vedette::test
