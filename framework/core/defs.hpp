// Immutable definitions of a module: what the XML files say. Loaded once by framework/data,
// shared (const) by every state, session, script and view. Nothing here changes during a game.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/value.hpp"
#include "hex/hex.hpp"

namespace vedette::core {

// Where a definition came from, for error messages ("map.xml:12: ...").
struct SourcePos {
    std::string file;
    int line = 0;
};

struct SideDef {
    std::string id, name, color;
};

struct PhaseDef {
    std::string id, name;
};

struct OptionDef {
    std::string id, name;
    bool default_on = false;
};

struct TrackDef {
    std::string id, name;
    std::int64_t min = 0, max = 0, initial = 0;
};

struct TerrainType {
    std::string id, name, color, symbol;
    bool playable = true;  // false: off-map / not a hex of the game
};

struct HexsideType {
    std::string id, name, color;
};

struct FeatureType {
    std::string id, name;
};

struct HexDef {
    hex::Hex hex;
    std::string label;
    int terrain = 0;            // index into MapDef::terrain_types
    std::vector<int> features;  // indices into MapDef::feature_types, sorted
    std::string name;           // e.g. city name; may be empty
    int board = 0;
};

struct HexsideDef {
    hex::HexsideKey key;
    std::vector<int> types;  // indices into MapDef::hexside_types, sorted
    std::vector<int> lines;  // indices into MapDef::lines (named rivers, roads), sorted
};

// A named linear feature made of hexsides: a river, a road, a lake shore ("the Rhine").
struct LineDef {
    std::string id, name;
    std::string kind;  // a hexside type id (river, road, ...), or empty
};

struct BoxDef {
    std::string id, name;
    std::string owner;         // side id, or empty
    bool is_private = false;   // contents seen only by the owner
    bool hide_count = false;   // private: other roles do not even see how many pieces it holds
};

struct RegionDef {
    std::string id, name;
    std::vector<hex::Hex> hexes;  // sorted
};

struct GeoRef {
    std::string projection;  // "laea"
    double lat0 = 0, lon0 = 0, hex_km = 0, origin_x_km = 0, origin_y_km = 0;
};

// A module's own map art (map.xml <art>), calibrated to the grid by the pixel positions of two
// or three hex centres. The loader checks the file and derives `to_image`; the GUI draws it.
struct MapArt {
    enum class Vector { Grid, Features, All };  // what of the drawn map is still drawn with it
    struct Anchor {
        std::string hex;  // label as written
        double x = 0, y = 0;  // image pixels (origin top left, y down)
    };
    std::string file;  // relative to the module folder
    int width = 0, height = 0;  // image size in pixels (from the PNG header)
    double opacity = 1.0;
    Vector vector = Vector::Grid;
    std::vector<Anchor> anchors;
    // Affine map from layout coordinates (hex::to_pixel with the map's orientation, hex size 1,
    // origin 0) to image pixels: u = m[0]*x + m[1]*y + m[2], v = m[3]*x + m[4]*y + m[5].
    double to_image[6] = {1, 0, 0, 0, 1, 0};
};

struct MapDef {
    std::string id, name;
    hex::Grid grid;
    hex::Numbering numbering;
    // +1: printed column numbers grow eastwards (first-col at offset column 0); -1: they
    // shrink eastwards (the 1814 map). Use label()/parse_label()/offset_label(), which apply
    // it, rather than hex::format_label/parse_label with `numbering` directly.
    int col_step = 1;
    int cols = 0, rows = 0;
    std::optional<GeoRef> georef;
    std::optional<MapArt> art;
    std::vector<TerrainType> terrain_types;
    std::vector<HexsideType> hexside_types;
    std::vector<FeatureType> feature_types;
    std::vector<HexDef> hexes;  // sorted by hex
    std::vector<HexsideDef> hexsides;  // sorted by key
    std::vector<BoxDef> boxes;
    std::vector<RegionDef> regions;
    std::vector<LineDef> lines;

    // Labels of offset positions, whether or not on the map (no index needed).
    std::string offset_label(hex::Offset o, int board = 0) const;
    std::optional<hex::Label> label_offset(std::string_view label) const;  // syntax only

    // Lookups (built by index()).
    const HexDef* find(hex::Hex h) const;
    const HexsideDef* find_side(hex::HexsideKey k) const;
    std::optional<hex::Hex> parse_label(std::string_view label) const;  // must exist on the map
    std::string label(hex::Hex h) const;  // printed label (also for hexes off the map)
    // The printed label of a hex ON the map, without formatting it again (index() keeps them).
    const std::string& label_ref(hex::Hex h) const;
    int box_index(std::string_view id) const;  // -1 if unknown
    int terrain_index(std::string_view id) const;
    int hexside_type_index(std::string_view id) const;
    int feature_index(std::string_view id) const;
    int line_index(std::string_view id) const;
    const RegionDef* region(std::string_view id) const;
    bool in_region(hex::Hex h, std::string_view region_id) const;
    void index();  // call after filling the vectors

private:
    std::unordered_map<std::int64_t, int> hex_index_;
    // Speed (labels are how the rules name hexes): each hex's printed label, by index into
    // `hexes`, and printed label -> index for the labels that parse back to their hex.
    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::vector<std::string> labels_;
    std::unordered_map<std::string, int, StringHash, std::equal_to<>> label_index_;
    std::unordered_map<std::int64_t, int> side_index_;
    std::unordered_map<std::string, std::vector<std::int64_t>> region_sets_;
};

struct FaceDef {
    std::string id, name;
};

struct CounterType {
    std::string id, name, category;  // category: unit, commander, marker, ...
    std::string side;                // default owner side id, may be empty
    std::string hidden_as;           // counter type id shown to others when hidden
    std::vector<FaceDef> faces;
    std::map<std::string, Value> stats;  // integer or text stats
    int face_index(std::string_view id) const;  // -1 if unknown
};

struct TableDef {
    std::string id, name, rule;
    std::vector<std::string> columns;
    std::vector<std::vector<Value>> rows;  // integers or identifiers
};

struct CardDef {
    std::string id, name, side, timing, text;
    std::map<std::string, std::string> attributes;  // any other attributes, for the rules
};

struct DeckDef {
    std::string id, name, owner;
    std::vector<CardDef> cards;
};

struct Placement {
    std::string type;   // counter type id
    std::string id;     // piece id (generated when empty)
    std::string at;     // hex label, "box:ID", or empty (nowhere)
    std::string face;   // face id (first face when empty)
    std::string owner;  // side id (type's side when empty)
    bool hidden = false;
    int count = 1;
    std::map<std::string, Value> props;
    SourcePos pos;
};

struct ScenarioDef {
    std::string id, name, description;
    std::string first_side;
    int turn = 1;
    std::string phase;
    std::vector<Placement> placements;
    std::map<std::string, Value> vars;
    std::map<std::string, std::int64_t> tracks;
    std::vector<std::pair<std::string, bool>> decks;  // deck id, shuffle
    SourcePos pos;
};

struct ModuleDef {
    std::string id, version, name, description;
    int api = 1;
    std::string dir;  // folder the module was loaded from
    std::vector<SideDef> sides;
    std::vector<PhaseDef> phases;
    int turn_first = 1, turn_last = 1;
    std::vector<OptionDef> options;
    std::vector<TrackDef> tracks;
    MapDef map;
    std::vector<CounterType> counter_types;
    std::vector<TableDef> tables;
    std::vector<DeckDef> decks;
    std::vector<ScenarioDef> scenarios;
    std::string rules_main;  // path relative to dir
    // Shared Lua rules libraries (e.g. a series' rules): require("<id>.x") loads
    // <modules>/<folder>/x.lua, where folder is a sibling of this module's folder.
    struct RuleLibrary {
        std::string id, folder;
    };
    std::vector<RuleLibrary> rule_libraries;
    std::string tests_dir;   // path relative to dir, may be empty
    std::string content_hash;  // hex digest over every file of the module

    int side_index(std::string_view id) const;  // -1 if unknown
    int phase_index(std::string_view id) const;
    int counter_type_index(std::string_view id) const;
    const TableDef* table(std::string_view id) const;
    const DeckDef* deck(std::string_view id) const;
    const ScenarioDef* scenario(std::string_view id) const;
    const OptionDef* option(std::string_view id) const;
    const TrackDef* track(std::string_view id) const;
};

}  // namespace vedette::core
