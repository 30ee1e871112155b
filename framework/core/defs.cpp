#include "core/defs.hpp"

#include <algorithm>

namespace vedette::core {

namespace {

// Definitions are small (tens to a few hundred entries): a linear scan is fast enough and
// needs no index that hand-built ModuleDefs (tests) could forget to build.
template <class Vec>
int index_of(const Vec& v, std::string_view id) {
    for (std::size_t i = 0; i < v.size(); ++i) {
        if (v[i].id == id) return static_cast<int>(i);
    }
    return -1;
}

template <class Vec>
auto* find_by_id(const Vec& v, std::string_view id) {
    int i = index_of(v, id);
    return i < 0 ? nullptr : &v[static_cast<std::size_t>(i)];
}

bool valid_dir(int dir) { return dir >= 0 && dir < 6; }

}  // namespace

// ---- MapDef ----------------------------------------------------------------------------------

void MapDef::index() {
    hex_index_.clear();
    side_index_.clear();
    region_sets_.clear();
    hex_index_.reserve(hexes.size());
    for (std::size_t i = 0; i < hexes.size(); ++i) {
        hex_index_.emplace(hex::pack(hexes[i].hex), static_cast<int>(i));
    }
    labels_.clear();
    label_index_.clear();
    for (const auto& hd : hexes) labels_.push_back(offset_label(hex::to_offset(hd.hex, grid), hd.board));
    for (std::size_t i = 0; i < hexes.size(); ++i)
        if (parse_label(labels_[i]) == hexes[i].hex) label_index_.emplace(labels_[i], static_cast<int>(i));
    side_index_.reserve(hexsides.size());
    for (std::size_t i = 0; i < hexsides.size(); ++i) {
        const auto& k = hexsides[i].key;
        side_index_.emplace(hex::pack(hex::hexside(k.hex, k.dir)), static_cast<int>(i));
    }
    for (const auto& r : regions) {
        std::vector<std::int64_t> keys;
        keys.reserve(r.hexes.size());
        for (auto h : r.hexes) keys.push_back(hex::pack(h));
        std::sort(keys.begin(), keys.end());
        region_sets_[r.id] = std::move(keys);
    }
}

const HexDef* MapDef::find(hex::Hex h) const {
    auto it = hex_index_.find(hex::pack(h));
    return it == hex_index_.end() ? nullptr : &hexes[static_cast<std::size_t>(it->second)];
}

const HexsideDef* MapDef::find_side(hex::HexsideKey k) const {
    if (!valid_dir(k.dir)) return nullptr;
    // Accept either spelling of the edge: callers need not canonicalise.
    auto it = side_index_.find(hex::pack(hex::hexside(k.hex, k.dir)));
    return it == side_index_.end() ? nullptr : &hexsides[static_cast<std::size_t>(it->second)];
}

// Printed column = first_col + col_step * col: with col_step -1, the offset column is negated
// before the hex library adds first_col.
std::string MapDef::offset_label(hex::Offset o, int board) const {
    return hex::format_label({col_step < 0 ? -o.col : o.col, o.row}, numbering, board);
}

std::optional<hex::Label> MapDef::label_offset(std::string_view text) const {
    auto lab = hex::parse_label(text, numbering);
    if (lab && col_step < 0) lab->offset.col = -lab->offset.col;
    return lab;
}

std::optional<hex::Hex> MapDef::parse_label(std::string_view text) const {
    if (auto it = label_index_.find(text); it != label_index_.end())
        return hexes[static_cast<std::size_t>(it->second)].hex;
    auto lab = label_offset(text);
    if (!lab) return std::nullopt;
    if (lab->offset.col < 0 || lab->offset.col >= cols || lab->offset.row < 0 ||
        lab->offset.row >= rows) {
        return std::nullopt;
    }
    hex::Hex h = hex::from_offset(lab->offset, grid);
    const HexDef* d = find(h);
    if (!d) return std::nullopt;
    // Schemes that print a board number: a label naming a board must name the hex's board
    // (0 on either side = not stated).
    if (numbering.scheme == hex::Numbering::Scheme::RowLettersColBoard && d->board != 0 &&
        lab->board != 0 && lab->board != d->board) {
        return std::nullopt;
    }
    return h;
}

std::string MapDef::label(hex::Hex h) const {
    const HexDef* d = find(h);
    if (d && labels_.size() == hexes.size()) return labels_[static_cast<std::size_t>(d - hexes.data())];
    return offset_label(hex::to_offset(h, grid), d ? d->board : 0);
}

const std::string& MapDef::label_ref(hex::Hex h) const {
    static const std::string none;
    const HexDef* d = find(h);
    if (d && labels_.size() == hexes.size()) return labels_[static_cast<std::size_t>(d - hexes.data())];
    return none;
}

int MapDef::box_index(std::string_view id) const { return index_of(boxes, id); }
int MapDef::terrain_index(std::string_view id) const { return index_of(terrain_types, id); }
int MapDef::hexside_type_index(std::string_view id) const { return index_of(hexside_types, id); }
int MapDef::feature_index(std::string_view id) const { return index_of(feature_types, id); }
int MapDef::line_index(std::string_view id) const { return index_of(lines, id); }
const RegionDef* MapDef::region(std::string_view id) const { return find_by_id(regions, id); }

bool MapDef::in_region(hex::Hex h, std::string_view region_id) const {
    auto it = region_sets_.find(std::string(region_id));
    if (it == region_sets_.end()) return false;
    return std::binary_search(it->second.begin(), it->second.end(), hex::pack(h));
}

// ---- counters --------------------------------------------------------------------------------

int CounterType::face_index(std::string_view id) const { return index_of(faces, id); }

// ---- ModuleDef -------------------------------------------------------------------------------

int ModuleDef::side_index(std::string_view id) const { return index_of(sides, id); }
int ModuleDef::phase_index(std::string_view id) const { return index_of(phases, id); }
int ModuleDef::counter_type_index(std::string_view id) const { return index_of(counter_types, id); }
const TableDef* ModuleDef::table(std::string_view id) const { return find_by_id(tables, id); }
const DeckDef* ModuleDef::deck(std::string_view id) const { return find_by_id(decks, id); }
const ScenarioDef* ModuleDef::scenario(std::string_view id) const {
    return find_by_id(scenarios, id);
}
const OptionDef* ModuleDef::option(std::string_view id) const { return find_by_id(options, id); }
const TrackDef* ModuleDef::track(std::string_view id) const { return find_by_id(tracks, id); }

}  // namespace vedette::core
