// Failed parse_label checks then print the Label instead of {?}.
#define CATCH_CONFIG_ENABLE_OPTIONAL_STRINGMAKER
#include <algorithm>
#include <catch2/catch.hpp>
#include <climits>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <set>
#include <string>
#include <vector>

#include "hex/hex.hpp"

using namespace vedette::hex;

namespace Catch {
template <>
struct StringMaker<Hex> {
    static std::string convert(const Hex& h) {
        return "Hex{" + std::to_string(h.q) + ", " + std::to_string(h.r) + "}";
    }
};
template <>
struct StringMaker<Offset> {
    static std::string convert(const Offset& o) {
        return "Offset{" + std::to_string(o.col) + ", " + std::to_string(o.row) + "}";
    }
};
template <>
struct StringMaker<Label> {
    static std::string convert(const Label& l) {
        return "Label{" + StringMaker<Offset>::convert(l.offset) + ", board " +
               std::to_string(l.board) + "}";
    }
};
template <>
struct StringMaker<HexsideKey> {
    static std::string convert(const HexsideKey& k) {
        return "HexsideKey{" + StringMaker<Hex>::convert(k.hex) + ", " + std::to_string(k.dir) +
               "}";
    }
};
}  // namespace Catch

namespace {

constexpr double kSqrt3 = 1.7320508075688772;

Hex add(Hex a, Hex b) { return {a.q + b.q, a.r + b.r}; }
Hex scale(Hex a, int k) { return {a.q * k, a.r * k}; }

// Centres far apart and on both sides of zero, so every property also sees negative q, r, s.
const std::vector<Hex> kCentres{{0, 0}, {-17, 5}, {40, -73}, {-250, -120}};

// All hexes within distance 30 of each centre (about 11k hexes).
std::vector<Hex> sample_hexes() {
    std::vector<Hex> out;
    for (Hex c : kCentres) {
        const auto disk = range(c, 30);
        out.insert(out.end(), disk.begin(), disk.end());
    }
    return out;
}

// splitmix64: fixed sequence on every platform, unlike std:: distributions.
struct Rng {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    int in(int lo, int hi) { return lo + static_cast<int>(next() % (hi - lo + 1)); }
    double unit() { return static_cast<double>(next() >> 11) / 9007199254740992.0; }
    Hex hex(int lo, int hi) { return {in(lo, hi), in(lo, hi)}; }
};

const std::vector<Grid> kGrids{{Orientation::FlatTop, Parity::Odd},
                               {Orientation::FlatTop, Parity::Even},
                               {Orientation::PointyTop, Parity::Odd},
                               {Orientation::PointyTop, Parity::Even}};

std::string grid_name(Grid g) {
    return std::string(g.orientation == Orientation::FlatTop ? "flat" : "pointy") +
           (g.parity == Parity::Odd ? "-odd" : "-even");
}

Numbering row_letters(int rows, bool from_south) {
    Numbering n;
    n.scheme = Numbering::Scheme::RowLettersColBoard;
    n.first_col = 1;
    n.letters_from_south = from_south;
    n.rows = rows;
    return n;
}

bool near(Point a, Point b) { return std::abs(a.x - b.x) < 1e-9 && std::abs(a.y - b.y) < 1e-9; }

// Compass bearing in degrees, clockwise from north, of pixel vector (x, y) with y pointing down.
double bearing(Point p) {
    const double deg = std::atan2(p.x, -p.y) * 180.0 / std::numbers::pi;
    return deg < 0 ? deg + 360.0 : deg;
}

}  // namespace

// ---- keys --------------------------------------------------------------------------------

TEST_CASE("pack is unique, ordered like (q, r) and inverted by unpack", "[hex][pack]") {
    auto hexes = sample_hexes();
    for (int q : {INT_MIN, INT_MIN + 1, -1, 0, 1, INT_MAX - 1, INT_MAX}) {
        for (int r : {INT_MIN, INT_MIN + 1, -1, 0, 1, INT_MAX - 1, INT_MAX})
            hexes.push_back({q, r});
    }
    std::sort(hexes.begin(), hexes.end());
    hexes.erase(std::unique(hexes.begin(), hexes.end()), hexes.end());
    for (std::size_t i = 0; i < hexes.size(); ++i) {
        INFO(Catch::StringMaker<Hex>::convert(hexes[i]));
        REQUIRE(unpack(pack(hexes[i])) == hexes[i]);
        if (i > 0) REQUIRE(pack(hexes[i - 1]) < pack(hexes[i]));
    }
}

// ---- directions --------------------------------------------------------------------------

TEST_CASE("direction vectors are unit steps, opposites three apart, dir taken modulo 6",
          "[hex][direction]") {
    for (int d = 0; d < 6; ++d) {
        const Hex v = direction_vector(d);
        CHECK(distance(Hex{}, v) == 1);
        CHECK(direction_vector(d + 3) == Hex{-v.q, -v.r});
        CHECK(direction_vector(d + 6) == v);
        CHECK(direction_vector(d - 6) == v);
        CHECK(neighbour(Hex{3, -4}, d) == add(Hex{3, -4}, v));
    }
    CHECK(direction_vector(-1) == direction_vector(5));
}

TEST_CASE("direction names match the pixel bearing of each neighbour, clockwise from 0",
          "[hex][direction][pixel]") {
    struct Case {
        Orientation o;
        int dir;
        std::string_view name;
        double bearing;
    };
    const std::vector<Case> cases{
        {Orientation::FlatTop, 0, "N", 0},      {Orientation::FlatTop, 1, "NE", 60},
        {Orientation::FlatTop, 2, "SE", 120},   {Orientation::FlatTop, 3, "S", 180},
        {Orientation::FlatTop, 4, "SW", 240},   {Orientation::FlatTop, 5, "NW", 300},
        {Orientation::PointyTop, 0, "NE", 30},  {Orientation::PointyTop, 1, "E", 90},
        {Orientation::PointyTop, 2, "SE", 150}, {Orientation::PointyTop, 3, "SW", 210},
        {Orientation::PointyTop, 4, "W", 270},  {Orientation::PointyTop, 5, "NW", 330},
    };
    for (const auto& c : cases) {
        INFO("dir " << c.dir << " " << c.name);
        CHECK(direction_name(c.dir, c.o) == c.name);
        const Layout layout{c.o, 1.0, {}};
        const Point p = to_pixel(direction_vector(c.dir), layout);
        CHECK(bearing(p) == Approx(c.bearing).margin(1e-9));
        CHECK(std::hypot(p.x, p.y) == Approx(kSqrt3));
    }
}

TEST_CASE("parse_direction is case-insensitive and knows only the orientation's names",
          "[hex][direction]") {
    for (Orientation o : {Orientation::FlatTop, Orientation::PointyTop}) {
        for (int d = 0; d < 6; ++d) CHECK(parse_direction(direction_name(d, o), o) == d);
    }
    CHECK(parse_direction("n", Orientation::FlatTop) == 0);
    CHECK(parse_direction("Ne", Orientation::FlatTop) == 1);
    CHECK(parse_direction("sW", Orientation::FlatTop) == 4);
    CHECK(parse_direction("e", Orientation::PointyTop) == 1);
    CHECK(parse_direction("nw", Orientation::PointyTop) == 5);
    CHECK_FALSE(parse_direction("E", Orientation::FlatTop));
    CHECK_FALSE(parse_direction("W", Orientation::FlatTop));
    CHECK_FALSE(parse_direction("N", Orientation::PointyTop));
    CHECK_FALSE(parse_direction("S", Orientation::PointyTop));
    for (std::string_view bad : {"", "NNE", "north", " N", "N "}) {
        CHECK_FALSE(parse_direction(bad, Orientation::FlatTop));
    }
}

TEST_CASE("direction_between inverts neighbour and rejects non-adjacent hexes",
          "[hex][direction][property]") {
    for (Hex h : sample_hexes()) {
        const auto ns = neighbours(h);
        for (int d = 0; d < 6; ++d) {
            REQUIRE(ns[d] == neighbour(h, d));
            REQUIRE(distance(h, ns[d]) == 1);
            REQUIRE(direction_between(h, ns[d]) == d);
            REQUIRE(direction_between(ns[d], h) == (d + 3) % 6);
            REQUIRE_FALSE(direction_between(h, add(h, scale(direction_vector(d), 2))));
        }
        REQUIRE_FALSE(direction_between(h, h));
    }
}

// ---- offsets -----------------------------------------------------------------------------

TEST_CASE("offset coordinates: which neighbour the next column or row is, per grid kind",
          "[hex][offset]") {
    const Hex origin{};
    for (Grid g : kGrids) CHECK(from_offset({0, 0}, g) == origin);
    // Flat-top odd-q: odd columns are shoved down, including column -1.
    const Grid flat_odd{Orientation::FlatTop, Parity::Odd};
    CHECK(from_offset({1, 0}, flat_odd) == neighbour(origin, 2));   // SE
    CHECK(from_offset({-1, 0}, flat_odd) == neighbour(origin, 4));  // SW
    CHECK(from_offset({0, -1}, flat_odd) == neighbour(origin, 0));  // N
    const Grid flat_even{Orientation::FlatTop, Parity::Even};
    CHECK(from_offset({1, 0}, flat_even) == neighbour(origin, 1));   // NE
    CHECK(from_offset({-1, 0}, flat_even) == neighbour(origin, 5));  // NW
    // Pointy-top odd-r: odd rows are shoved right, including row -1.
    const Grid pointy_odd{Orientation::PointyTop, Parity::Odd};
    CHECK(from_offset({1, 0}, pointy_odd) == neighbour(origin, 1));   // E
    CHECK(from_offset({0, 1}, pointy_odd) == neighbour(origin, 2));   // SE
    CHECK(from_offset({0, -1}, pointy_odd) == neighbour(origin, 0));  // NE
    const Grid pointy_even{Orientation::PointyTop, Parity::Even};
    CHECK(from_offset({0, 1}, pointy_even) == neighbour(origin, 3));   // SW
    CHECK(from_offset({0, -1}, pointy_even) == neighbour(origin, 5));  // NW
    CHECK(to_offset({1, -1}, pointy_even) == Offset{1, 0});
}

TEST_CASE("offset <-> axial round trips for all four grid kinds, negatives included",
          "[hex][offset][property]") {
    const auto hexes = sample_hexes();
    for (Grid g : kGrids) {
        INFO(grid_name(g));
        for (Hex h : hexes) REQUIRE(from_offset(to_offset(h, g), g) == h);
        for (int col = -45; col <= 45; ++col) {
            for (int row = -45; row <= 45; ++row) {
                REQUIRE(to_offset(from_offset({col, row}, g), g) == Offset{col, row});
            }
        }
    }
}

TEST_CASE("offset columns and rows sit where the printed map puts them",
          "[hex][offset][pixel][property]") {
    // Hex centres in units of the hex size: flat-top columns are 1.5 apart and rows sqrt(3),
    // shoved half a row; pointy-top rows are 1.5 apart and columns sqrt(3), shoved half a column.
    for (Grid g : kGrids) {
        INFO(grid_name(g));
        const Layout layout{g.orientation, 1.0, {}};
        const double shove = g.parity == Parity::Odd ? 0.5 : -0.5;
        for (int col = -45; col <= 45; ++col) {
            for (int row = -45; row <= 45; ++row) {
                const Point p = to_pixel(from_offset({col, row}, g), layout);
                const bool flat = g.orientation == Orientation::FlatTop;
                const double x = flat ? 1.5 * col : kSqrt3 * (col + shove * (row & 1));
                const double y = flat ? kSqrt3 * (row + shove * (col & 1)) : 1.5 * row;
                INFO("col " << col << " row " << row);
                REQUIRE(p.x == Approx(x).margin(1e-9));
                REQUIRE(p.y == Approx(y).margin(1e-9));
            }
        }
    }
}

// ---- distance, ring, range, line ---------------------------------------------------------

TEST_CASE("distance: known values", "[hex][distance]") {
    CHECK(distance({0, 0}, {0, 0}) == 0);
    CHECK(distance({0, 0}, {3, -1}) == 3);
    CHECK(distance({0, 0}, {2, 2}) == 4);
    CHECK(distance({-3, 5}, {4, -2}) == 7);
    CHECK(distance({-250, -120}, {-240, -125}) == 10);
}

TEST_CASE("distance is a metric: symmetric, zero only on itself, triangle inequality",
          "[hex][distance][property]") {
    Rng rng{1};
    for (int i = 0; i < 20000; ++i) {
        const Hex a = rng.hex(-300, 300);
        const Hex b = rng.hex(-300, 300);
        const Hex c = i % 2 ? rng.hex(-300, 300) : add(a, rng.hex(-3, 3));
        const int ds = std::abs(-a.q - a.r + b.q + b.r);
        INFO(Catch::StringMaker<Hex>::convert(a) << " " << Catch::StringMaker<Hex>::convert(b));
        REQUIRE(distance(a, b) == distance(b, a));
        REQUIRE(distance(a, b) == std::max({std::abs(a.q - b.q), std::abs(a.r - b.r), ds}));
        REQUIRE((distance(a, b) == 0) == (a == b));
        REQUIRE(distance(a, c) <= distance(a, b) + distance(b, c));
        REQUIRE(distance(add(a, c), add(b, c)) == distance(a, b));
    }
}

TEST_CASE("ring: 6r hexes at distance r, neighbours in turn, clockwise from the dir 4 corner",
          "[hex][ring][property]") {
    const Hex o{};
    CHECK(ring(o, 1) == std::vector<Hex>{direction_vector(4), direction_vector(5),
                                         direction_vector(0), direction_vector(1),
                                         direction_vector(2), direction_vector(3)});
    for (Hex c : kCentres) {
        CHECK(ring(c, 0) == std::vector<Hex>{c});
        CHECK(ring(c, -1).empty());
        for (int r = 1; r <= 30; ++r) {
            const auto hexes = ring(c, r);
            REQUIRE(hexes.size() == static_cast<std::size_t>(6 * r));
            REQUIRE(hexes.front() == add(c, scale(direction_vector(4), r)));
            REQUIRE(direction_between(hexes[0], hexes[1]) == 0);
            REQUIRE(std::set<Hex>(hexes.begin(), hexes.end()).size() == hexes.size());
            for (std::size_t i = 0; i < hexes.size(); ++i) {
                REQUIRE(distance(c, hexes[i]) == r);
                REQUIRE(distance(hexes[i], hexes[(i + 1) % hexes.size()]) == 1);
            }
        }
    }
}

TEST_CASE("range: 3n(n+1)+1 hexes sorted by (q, r), exactly the union of rings 0..n",
          "[hex][range][property]") {
    for (Hex c : kCentres) {
        CHECK(range(c, -1).empty());
        std::vector<Hex> rings;
        for (int n = 0; n <= 30; ++n) {
            const auto r = ring(c, n);
            rings.insert(rings.end(), r.begin(), r.end());
            std::sort(rings.begin(), rings.end());
            const auto disk = range(c, n);
            REQUIRE(disk.size() == static_cast<std::size_t>(3 * n * (n + 1) + 1));
            REQUIRE(std::adjacent_find(disk.begin(), disk.end(),
                                       [](Hex a, Hex b) { return !(a < b); }) == disk.end());
            REQUIRE(disk == rings);
        }
    }
}

TEST_CASE("line: known straight lines and a deterministic tie-break", "[hex][line]") {
    const Hex o{};
    CHECK(line(o, o) == std::vector<Hex>{o});
    for (int d = 0; d < 6; ++d) {
        std::vector<Hex> expected;
        for (int k = 0; k <= 5; ++k) expected.push_back(scale(direction_vector(d), k));
        CHECK(line(o, expected.back()) == expected);
    }
    // The midpoint falls exactly on the side between {1, -1} and {1, 0}; the nudge picks {1, 0}.
    CHECK(line(o, {2, -1}) == std::vector<Hex>{{0, 0}, {1, 0}, {2, -1}});
    CHECK(line({-40, 10}, {-38, 9}) == std::vector<Hex>{{-40, 10}, {-39, 10}, {-38, 9}});
}

TEST_CASE("line: distance+1 hexes from a to b, each a neighbour of the previous",
          "[hex][line][property]") {
    Rng rng{2};
    for (int i = 0; i < 5000; ++i) {
        const Hex c = kCentres[i % kCentres.size()];
        const Hex a = add(c, rng.hex(-40, 40));
        const Hex b = add(c, rng.hex(-40, 40));
        INFO(Catch::StringMaker<Hex>::convert(a) << " -> " << Catch::StringMaker<Hex>::convert(b));
        const auto hexes = line(a, b);
        REQUIRE(hexes.size() == static_cast<std::size_t>(distance(a, b) + 1));
        REQUIRE(hexes.front() == a);
        REQUIRE(hexes.back() == b);
        for (std::size_t k = 1; k < hexes.size(); ++k) {
            REQUIRE(distance(hexes[k - 1], hexes[k]) == 1);
        }
        REQUIRE(line(a, b) == hexes);
    }
}

// ---- hexsides ----------------------------------------------------------------------------

TEST_CASE("hexsides: both hexes of an edge give the same canonical key, 6 distinct per hex",
          "[hex][hexside][property]") {
    for (Hex h : sample_hexes()) {
        std::set<HexsideKey> keys;
        std::set<std::int64_t> packed;
        for (int d = 0; d < 6; ++d) {
            const Hex n = neighbour(h, d);
            const HexsideKey k = hexside(h, d);
            REQUIRE(k.dir >= 0);
            REQUIRE(k.dir <= 2);
            REQUIRE(k == hexside(n, d + 3));
            REQUIRE(k == hexside(h, d + 6));
            if (d < 3) REQUIRE(k == HexsideKey{h, d});
            const auto [a, b] = hexside_hexes(k);
            REQUIRE(((a == h && b == n) || (a == n && b == h)));
            REQUIRE(pack(HexsideKey{h, d}) == pack(k));
            keys.insert(k);
            packed.insert(pack(k));
        }
        REQUIRE(keys.size() == 6);
        REQUIRE(packed.size() == 6);
    }
}

TEST_CASE("pack(HexsideKey) is unique across a region and ordered like (q, r, dir)",
          "[hex][hexside][property]") {
    constexpr int kEdge = (1 << 30) - 25;  // near the documented limit of +-2^30
    std::vector<Hex> centres = kCentres;
    centres.push_back({kEdge, -kEdge});
    centres.push_back({-kEdge, kEdge});
    for (Hex c : centres) {
        std::vector<HexsideKey> keys;
        for (Hex h : range(c, 20)) {
            for (int d = 0; d < 6; ++d) keys.push_back(hexside(h, d));
        }
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        // A disk of radius n has 9n^2 + 15n + 6 distinct edges (3 per hex + the outer 6n+3).
        REQUIRE(keys.size() == static_cast<std::size_t>(9 * 20 * 20 + 15 * 20 + 6));
        for (std::size_t i = 1; i < keys.size(); ++i) REQUIRE(pack(keys[i - 1]) < pack(keys[i]));
    }
}

// ---- labels ------------------------------------------------------------------------------

TEST_CASE("ColRow labels: fixed examples", "[hex][label]") {
    const Numbering n;  // first col/row 1, two digits each
    CHECK(format_label({0, 0}, n) == "0101");
    CHECK(format_label({24, 14}, n) == "2515");
    CHECK(format_label({8, 9}, n) == "0910");
    CHECK(format_label({99, 0}, n) == "10001");   // wider than col_digits: printed wider
    CHECK(format_label({0, 0}, n, 3) == "0101");  // no board in this scheme
    CHECK(format_label({-1, 0}, n) == "0001");
    CHECK(format_label({-2, 0}, n) == "-0101");
    CHECK(format_label({0, -5}, n) == "01-04");
    CHECK(format_label({-3, -3}, n) == "-02-02");
    CHECK(format_label({0, -200}, n) == "01-199");

    Numbering wide;
    wide.first_col = 0;
    wide.first_row = 0;
    wide.col_digits = 3;
    wide.row_digits = 3;
    CHECK(format_label({5, 7}, wide) == "005007");

    const auto check = [&](std::string_view text, Offset expected) {
        INFO(text);
        const auto label = parse_label(text, n);
        REQUIRE(label);
        CHECK(label->offset == expected);
        CHECK(label->board == 0);
    };
    check("2515", {24, 14});
    check("0101", {0, 0});
    check("10005", {99, 4});
    check("105", {0, 4});  // an unpadded column is still read
    check("-0101", {-2, 0});
    check("01-04", {0, -5});
    check("-02-02", {-3, -3});
    check("01-199", {0, -200});
    // Documented ambiguity: extra digits belong to the column, never to the row.
    check("01100", {10, -1});
}

TEST_CASE("ColRow labels: malformed input gives nullopt", "[hex][label]") {
    const Numbering n;
    for (std::string_view bad : {"",
                                 "-",
                                 "--",
                                 "1",
                                 "01",
                                 "-01",
                                 "0a01",
                                 " 0101",
                                 "0101 ",
                                 "+0101",
                                 "01+01",
                                 "01-",
                                 "01--05",
                                 "--0105",
                                 "0101(2)",
                                 "A101",
                                 "01-0a",
                                 "99999999999999999999",
                                 "01-99999999999999999999",
                                 "999999999999",
                                 "01-99999999999"}) {
        INFO(bad);
        CHECK_FALSE(parse_label(bad, n));
    }
}

TEST_CASE("ColRow labels round-trip, negative numbers included", "[hex][label][property]") {
    std::vector<Numbering> numberings(3);
    numberings[1].first_col = 0;
    numberings[1].first_row = 0;
    numberings[1].col_digits = 3;
    numberings[1].row_digits = 3;
    numberings[2].first_col = 10;
    numberings[2].first_row = -5;
    numberings[2].col_digits = 1;
    numberings[2].row_digits = 2;
    for (const auto& n : numberings) {
        int max_row = 1;
        for (int i = 0; i < n.row_digits; ++i) max_row *= 10;
        max_row -= 1 + n.first_row;  // the last row whose number fits row_digits
        std::set<std::string> seen;
        for (int col = -150; col <= 150; ++col) {
            for (int row = -150; row <= std::min(150, max_row); ++row) {
                const std::string text = format_label({col, row}, n);
                INFO(text);
                const auto label = parse_label(text, n);
                REQUIRE(label);
                REQUIRE(label->offset == Offset{col, row});
                REQUIRE(seen.insert(text).second);
            }
        }
    }
}

TEST_CASE("RowLettersColBoard labels: War and Peace examples", "[hex][label]") {
    const Numbering n = row_letters(40, true);  // A is offset row 39, Z row 14, AA row 13
    CHECK(format_label({15, 15}, n, 2) == "Y16(2)");
    CHECK(format_label({0, 39}, n, 1) == "A1(1)");
    CHECK(format_label({9, 14}, n, 3) == "Z10(3)");
    CHECK(format_label({9, 13}, n, 3) == "AA10(3)");
    CHECK(format_label({0, 0}, n, 4) == "NN1(4)");
    CHECK(format_label({15, 15}, n) == "Y16");  // board 0: no parentheses
    CHECK(format_label({-5, 15}, n, 2) == "Y-4(2)");
    CHECK(format_label({0, 40}, n, 2) == "?1(2)");  // south of row A: no letters
    Numbering padded = n;
    padded.col_digits = 3;
    CHECK(format_label({15, 15}, padded, 2) == "Y16(2)");  // digits are ColRow-only

    const Numbering north = row_letters(40, false);
    CHECK(format_label({2, 0}, north, 3) == "A3(3)");
    CHECK(format_label({2, 26}, north, 3) == "AA3(3)");
    CHECK(format_label({2, -1}, north, 3) == "?3(3)");
    CHECK(format_label({2, 675}, north) == std::string(26, 'Z') + "3");
    CHECK(format_label({2, 676}, north) == "?3");  // 27 repeats: past the letterable rows

    const auto check = [&](std::string_view text, Offset expected, int board) {
        INFO(text);
        const auto label = parse_label(text, n);
        REQUIRE(label);
        CHECK(label->offset == expected);
        CHECK(label->board == board);
    };
    check("Y16(2)", {15, 15}, 2);
    check("Y16", {15, 15}, 0);
    check("M9(1)", {8, 27}, 1);
    check("M09(1)", {8, 27}, 1);
    check("Y16(02)", {15, 15}, 2);
    check("Y16(I)", {15, 15}, 1);
    check("Y16(II)", {15, 15}, 2);
    check("Y16(III)", {15, 15}, 3);
    check("Y16(IV)", {15, 15}, 4);
    check("AA10(3)", {9, 13}, 3);
    check("ZZ1", {0, -12}, 0);
    check("Y-4(2)", {-5, 15}, 2);
}

TEST_CASE("RowLettersColBoard labels: malformed input gives nullopt", "[hex][label]") {
    const Numbering n = row_letters(40, true);
    const std::string many_letters(27, 'A');
    for (std::string_view bad : {"",
                                 "Y",
                                 "16",
                                 "(2)",
                                 "Y(2)",
                                 "Ab3(2)",
                                 "y16(2)",
                                 "AB3(2)",
                                 "YY16(2)x",
                                 "Y16(",
                                 "Y16()",
                                 "Y16(0)",
                                 "Y16(-1)",
                                 "Y16(IIII)",
                                 "Y16(iv)",
                                 "Y16(VX)",
                                 "Y16(2)x",
                                 "Y16 (2)",
                                 " Y16",
                                 "Y+16",
                                 "Y16((2))",
                                 "Y16)2(",
                                 "Y16(2",
                                 "Y16-",
                                 "Y--16",
                                 "Y16.5",
                                 "Y99999999999999999999(2)",
                                 "Y16(99999999999)",
                                 "Y16(99999999999999999999)",
                                 "?1",
                                 "?1(2)",
                                 "1A"}) {
        INFO(bad);
        CHECK_FALSE(parse_label(bad, n));
    }
    CHECK_FALSE(parse_label(many_letters + "1", n));
    CHECK(parse_label(many_letters.substr(1) + "1", n));
}

TEST_CASE("RowLettersColBoard labels round-trip for every lettered row, both letter directions",
          "[hex][label][property]") {
    for (bool from_south : {true, false}) {
        const Numbering n = row_letters(60, from_south);
        // Letters reach 26 repeats: rows 59 down to 59 - 675 from the south, 0..675 otherwise.
        const int lo = from_south ? 59 - 675 : 0;
        const int hi = from_south ? 59 : 675;
        std::set<std::string> seen;
        for (int row = lo; row <= hi; ++row) {
            for (int col = -100; col <= 100; col += 7) {
                const int board = (row + col) % 5 == 0 ? 0 : 1 + std::abs(row + col) % 12;
                const std::string text = format_label({col, row}, n, board);
                INFO(text);
                const auto label = parse_label(text, n);
                REQUIRE(label);
                REQUIRE(label->offset == Offset{col, row});
                REQUIRE(label->board == board);
                REQUIRE(seen.insert(text).second);
            }
        }
        CHECK_FALSE(parse_label(format_label({0, lo - 1}, n, 1), n));
        CHECK_FALSE(parse_label(format_label({0, hi + 1}, n, 1), n));
    }
}

TEST_CASE("parse_label never throws on garbage and what it accepts formats back the same",
          "[hex][label][property]") {
    const std::string alphabet = "0123456789--()AAYZaiIVX?+ ";
    Numbering colrow;
    const std::vector<Numbering> numberings{colrow, row_letters(40, true), row_letters(40, false)};
    Rng rng{3};
    int accepted = 0;
    for (int i = 0; i < 30000; ++i) {
        std::string text;
        const int len = rng.in(0, 10);
        for (int k = 0; k < len; ++k) text += alphabet[rng.in(0, alphabet.size() - 1)];
        for (const auto& n : numberings) {
            INFO('"' << text << '"');
            std::optional<Label> label;
            REQUIRE_NOTHROW(label = parse_label(text, n));
            if (!label) continue;
            ++accepted;
            const auto again = parse_label(format_label(label->offset, n, label->board), n);
            REQUIRE(again);
            REQUIRE(again->offset == label->offset);
            REQUIRE(again->board == label->board);
        }
    }
    CHECK(accepted > 100);  // the sweep does reach the accepting paths
}

// ---- pixels ------------------------------------------------------------------------------

TEST_CASE("to_pixel: known centres for flat-top and pointy-top", "[hex][pixel]") {
    const Layout flat{Orientation::FlatTop, 10.0, {100.0, 50.0}};
    CHECK(near(to_pixel({0, 0}, flat), {100.0, 50.0}));
    CHECK(near(to_pixel({1, 0}, flat), {115.0, 50.0 + 5 * kSqrt3}));
    CHECK(near(to_pixel({0, 1}, flat), {100.0, 50.0 + 10 * kSqrt3}));
    CHECK(near(to_pixel({-2, -1}, flat), {70.0, 50.0 - 20 * kSqrt3}));
    const Layout pointy{Orientation::PointyTop, 10.0, {100.0, 50.0}};
    CHECK(near(to_pixel({1, -1}, pointy), {100.0 + 10 * kSqrt3, 50.0}));  // east
    CHECK(near(to_pixel({1, 0}, pointy), {100.0 + 5 * kSqrt3, 65.0}));    // south-east
    CHECK(near(to_pixel({-1, -1}, pointy), {100.0, 20.0}));
}

TEST_CASE("from_pixel inverts to_pixel and finds the hex around any interior point",
          "[hex][pixel][property]") {
    Rng rng{4};
    const auto hexes = sample_hexes();
    for (Orientation o : {Orientation::FlatTop, Orientation::PointyTop}) {
        const Layout layout{o, 24.5, {-13.25, 401.5}};
        const double inner = layout.size * kSqrt3 / 2;
        for (Hex h : hexes) {
            INFO(Catch::StringMaker<Hex>::convert(h));
            const Point c = to_pixel(h, layout);
            REQUIRE(from_pixel(c, layout) == h);
            const double angle = rng.unit() * 2 * std::numbers::pi;
            const double radius = rng.unit() * 0.98 * inner;  // inside the inscribed circle
            REQUIRE(from_pixel({c.x + radius * std::cos(angle), c.y + radius * std::sin(angle)},
                               layout) == h);
        }
    }
}

TEST_CASE("corners lie on the circumradius, clockwise, and hexside segments are shared corners",
          "[hex][pixel][hexside][property]") {
    for (Orientation o : {Orientation::FlatTop, Orientation::PointyTop}) {
        const Layout layout{o, 12.0, {7.0, -3.0}};
        for (Hex h : range({-33, 21}, 12)) {
            const Point c = to_pixel(h, layout);
            const auto pts = corners(h, layout);
            for (int i = 0; i < 6; ++i) {
                const Point a = pts[i];
                const Point b = pts[(i + 1) % 6];
                REQUIRE(std::hypot(a.x - c.x, a.y - c.y) == Approx(12.0));
                REQUIRE(std::hypot(a.x - b.x, a.y - b.y) == Approx(12.0));
                // Clockwise on screen (y down): each corner's bearing is 60 degrees on.
                const double turn =
                    bearing({b.x - c.x, b.y - c.y}) - bearing({a.x - c.x, a.y - c.y});
                REQUIRE(std::fmod(turn + 360.0, 360.0) == Approx(60.0));
            }
            for (int d = 0; d < 6; ++d) {
                const Hex n = neighbour(h, d);
                const auto [p, q] = hexside_segment(HexsideKey{h, d}, layout);
                const auto [cp, cq] = hexside_segment(hexside(n, d + 3), layout);
                REQUIRE(((near(p, cp) && near(q, cq)) || (near(p, cq) && near(q, cp))));
                // The segment is side d of h and side d+3 of the neighbour.
                REQUIRE(((near(p, pts[d]) && near(q, pts[(d + 1) % 6])) ||
                         (near(q, pts[d]) && near(p, pts[(d + 1) % 6]))));
                const auto other = corners(n, layout);
                REQUIRE(
                    std::any_of(other.begin(), other.end(), [&](Point x) { return near(x, p); }));
                REQUIRE(
                    std::any_of(other.begin(), other.end(), [&](Point x) { return near(x, q); }));
                // Its midpoint is halfway between the two centres.
                const Point cn = to_pixel(n, layout);
                REQUIRE(
                    near({(p.x + q.x) / 2, (p.y + q.y) / 2}, {(c.x + cn.x) / 2, (c.y + cn.y) / 2}));
            }
        }
    }
}

TEST_CASE("ColRow labels with columns falling eastwards (col_step -1) round-trip", "[labels]") {
    Numbering n;
    n.first_col = 69;
    n.first_row = 10;
    n.col_step = -1;
    CHECK(format_label({27, 18}, n) == "4228");
    CHECK(format_label({0, 0}, n) == "6910");
    for (int c = -5; c < 40; ++c)
        for (int r = -3; r < 30; ++r) {
            const auto l = parse_label(format_label({c, r}, n), n);
            REQUIRE(l);
            CHECK(l->offset == Offset{c, r});
        }
}
