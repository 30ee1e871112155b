// Hex geometry: coordinates, neighbours, hexsides, labels and pixel layout.
// Pure value types; no game knowledge, no SFML, no I/O. Axial coordinates (q, r) are the
// canonical form everywhere above this layer; offset coordinates and printed labels are
// conversions at the edges (data files, CLI, GUI).
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vedette::hex {

// Axial coordinates; the cube third coordinate is s = -q - r.
// One axial lattice serves both orientations (so direction_vector needs none). Flat-top is
// redblobgames' flat axial: Hex{1, 0} is the SE neighbour, Hex{0, 1} the S one. Pointy-top is
// that layout turned 30 degrees clockwise, i.e. redblobgames' pointy axial (q', r') =
// (-r, q + r): an offset row is constant q + r, and one step east is Hex{+1, -1}.
struct Hex {
    int q = 0;
    int r = 0;
    constexpr int s() const { return -q - r; }
    friend constexpr bool operator==(Hex, Hex) = default;
    friend constexpr auto operator<=>(Hex, Hex) = default;
};

// A 64-bit key, unique per Hex, ordered like (q, r). Handy for maps and hashing.
// Valid for every int q and r.
std::int64_t pack(Hex h);
Hex unpack(std::int64_t key);

enum class Orientation { FlatTop, PointyTop };

// Which columns (flat-top) or rows (pointy-top) are shoved by half a hex, counting the
// offset column/row 0 as even. "Odd" = odd columns/rows are shoved down (flat) / right (pointy).
enum class Parity { Odd, Even };

struct Grid {
    Orientation orientation = Orientation::FlatTop;
    Parity parity = Parity::Odd;
};

// Offset coordinates: col grows eastwards, row grows southwards (as printed on maps).
struct Offset {
    int col = 0;
    int row = 0;
    friend constexpr bool operator==(Offset, Offset) = default;
};

Offset to_offset(Hex h, Grid g);
Hex from_offset(Offset o, Grid g);

// Directions are numbered 0..5 clockwise.
//   flat-top:   0=N, 1=NE, 2=SE, 3=S, 4=SW, 5=NW
//   pointy-top: 0=NE, 1=E, 2=SE, 3=SW, 4=W, 5=NW
// The opposite of d is (d + 3) % 6.
// Every function taking a dir uses it modulo 6 (negative too), so d + 3 needs no wrap.
Hex direction_vector(int dir);
Hex neighbour(Hex h, int dir);
std::array<Hex, 6> neighbours(Hex h);
std::string_view direction_name(int dir, Orientation o);
// Case-insensitive; accepts the names above. nullopt if unknown for this orientation.
std::optional<int> parse_direction(std::string_view name, Orientation o);
// Direction from a to b if they are adjacent, else nullopt.
std::optional<int> direction_between(Hex a, Hex b);

int distance(Hex a, Hex b);
// Hexes at exactly distance `radius` from centre (radius 0 -> {centre}), clockwise from dir 4
// corner.
std::vector<Hex> ring(Hex centre, int radius);
// All hexes within distance n (inclusive), ordered by (q, r).
std::vector<Hex> range(Hex centre, int n);
// Hexes on the straight line a..b inclusive (cube lerp with epsilon nudge; deterministic).
std::vector<Hex> line(Hex a, Hex b);

// A hexside, canonicalised: the same physical edge always gets the same key.
// Canonical form: dir in {0,1,2} (the hexside of `hex` towards direction dir).
struct HexsideKey {
    Hex hex;
    int dir = 0;
    friend constexpr bool operator==(HexsideKey, HexsideKey) = default;
    friend constexpr auto operator<=>(HexsideKey, HexsideKey) = default;
};
HexsideKey hexside(Hex h, int dir);
// {k.hex, its neighbour across the side}.
std::pair<Hex, Hex> hexside_hexes(HexsideKey k);
// Canonicalises k first; ordered like (q, r, dir). Unique while q and r are in [-2^30, 2^30).
std::int64_t pack(HexsideKey k);

// ---- printed labels ----------------------------------------------------------------------
// How a map prints hex numbers.
//  ColRow: VASSAL-like column then row, zero-padded: "0101", "4228". first_col/first_row are the
//          printed numbers of offset column 0 / row 0; col_digits/row_digits the padding.
//  RowLettersColBoard: War and Peace style "<row letters><col number>(<board>)", e.g. "Y16(2)".
//          Rows are lettered A..Z then AA, BB, .. ZZ (doubled letters). letters_from_south: row
//          letter A is the southernmost row (largest offset row) when true. The board is not
//          derived from geometry: labels carry it, and the map stores it per hex; parse returns it.
//
// Label conventions (format_label / parse_label):
//  ColRow: negative printed numbers round-trip. A number prints as its sign then the magnitude
//          zero-padded to its digits: col -1, row 5 -> "-0105"; col 3, row -2 -> "03-02" (a '-'
//          after the first character starts the row). Without such a '-' the row is the last
//          row_digits digits and the column is everything before it (any width). So a column
//          wider than col_digits round-trips ("10005" = col 100, row 5) but a row wider than
//          row_digits does not: "01100" reads as col 11, row 0. Digits below 1 count as 1. The
//          board argument is ignored; parse returns board 0.
//  RowLettersColBoard: letters continue AAA..ZZZ and so on up to 26 repeats; upper case only,
//          all letters the same ("AB", "Ab" are malformed). A row without letters (letter index
//          < 0, e.g. a row south of the map when letters_from_south, or beyond 26 repeats)
//          prints "?" in place of the letters, which parse rejects. The column number is signed
//          and unpadded ("A-3", "Y16"); parse also accepts leading zeros ("M09"). The board
//          prints as "(n)" unless it is 0, then nothing; parse accepts no board (-> 0) or a
//          board >= 1 in Arabic ("(02)") or canonical Roman numerals ("(IV)"; not "(IIII)" or
//          "(iv)"). first_row, col_digits and row_digits are unused.
//  Both: no whitespace, no '+'; numbers beyond +-2^40 are malformed.
struct Numbering {
    enum class Scheme { ColRow, RowLettersColBoard };
    Scheme scheme = Scheme::ColRow;
    int first_col = 1;
    int col_step = 1;  // +1 or -1: printed column = first_col + col_step * offset column
    int first_row = 1;
    int col_digits = 2;
    int row_digits = 2;
    bool letters_from_south = true;
    int rows = 0;  // number of offset rows (needed when letters_from_south)
};

struct Label {
    Offset offset;
    int board = 0;  // 0 when the scheme has no board
};

std::string format_label(Offset o, const Numbering& n, int board = 0);
// nullopt on any malformed label; never throws.
std::optional<Label> parse_label(std::string_view text, const Numbering& n);

// ---- pixel layout (no SFML types) --------------------------------------------------------
struct Point {
    double x = 0;
    double y = 0;
};

struct Layout {
    Orientation orientation = Orientation::FlatTop;
    double size = 1.0;  // centre-to-corner distance
    Point origin;       // pixel position of Hex{0,0}'s centre
};

Point to_pixel(Hex h, const Layout& l);
Hex from_pixel(Point p, const Layout& l);  // the hex containing p (cube rounding)
// Clockwise; corners[d] is the counter-clockwise end of hexside d and corners[(d + 1) % 6] the
// other (flat-top: corners[0] is the upper-left corner; pointy-top: the top one).
std::array<Point, 6> corners(Hex h, const Layout& l);
// The two end points of a hexside in pixels (for drawing rivers/roads).
// Both hexes of the side have them as corners.
std::pair<Point, Point> hexside_segment(HexsideKey k, const Layout& l);

}  // namespace vedette::hex
