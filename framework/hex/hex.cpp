#include "hex/hex.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace vedette::hex {
namespace {
// +1: printed column numbers grow eastwards; -1: they fall eastwards (the Europa Simulazioni
// Napoleonic series numbers its maps that way).
std::int64_t col_sign(const Numbering& n) { return n.col_step < 0 ? -1 : 1; }
}  // namespace

namespace {

// One table for both orientations: the pointy-top layout is the flat-top one turned 30 degrees
// clockwise, so direction d is the same axial step whatever the orientation.
constexpr std::array<Hex, 6> kDirections{{{0, -1}, {1, -1}, {1, 0}, {0, 1}, {-1, 1}, {-1, 0}}};
constexpr std::array<std::string_view, 6> kFlatNames{"N", "NE", "SE", "S", "SW", "NW"};
constexpr std::array<std::string_view, 6> kPointyNames{"NE", "E", "SE", "SW", "W", "NW"};

constexpr double kSqrt3 = 1.7320508075688772;

// Unit-size corner offsets; corner d is the counter-clockwise end of hexside d.
constexpr std::array<Point, 6> kFlatCorners{{{-0.5, -kSqrt3 / 2},
                                             {0.5, -kSqrt3 / 2},
                                             {1.0, 0.0},
                                             {0.5, kSqrt3 / 2},
                                             {-0.5, kSqrt3 / 2},
                                             {-1.0, 0.0}}};
constexpr std::array<Point, 6> kPointyCorners{{{0.0, -1.0},
                                               {kSqrt3 / 2, -0.5},
                                               {kSqrt3 / 2, 0.5},
                                               {0.0, 1.0},
                                               {-kSqrt3 / 2, 0.5},
                                               {-kSqrt3 / 2, -0.5}}};

int normalise_dir(int dir) {
    const int d = dir % 6;
    return d < 0 ? d + 6 : d;
}

// Half-hex shift of an offset column (flat) or row (pointy). `x & 1` is the floor parity on
// two's complement, so negative coordinates shove the same way as positive ones.
int shove(int x, Parity p) { return p == Parity::Odd ? (x - (x & 1)) / 2 : (x + (x & 1)) / 2; }

Hex cube_round(double fq, double fr) {
    const double fs = -fq - fr;
    double q = std::round(fq);
    double r = std::round(fr);
    const double s = std::round(fs);
    const double dq = std::abs(q - fq);
    const double dr = std::abs(r - fr);
    const double ds = std::abs(s - fs);
    // Recompute the coordinate that rounded worst so that q + r + s stays 0.
    if (dq > dr && dq > ds) {
        q = -r - s;
    } else if (dr > ds) {
        r = -q - s;
    }
    return {static_cast<int>(q), static_cast<int>(r)};
}

// ---- label helpers ----

// Printed numbers are int + int, so anything beyond this is malformed rather than a real label.
constexpr std::int64_t kMaxLabelNumber = std::int64_t{1} << 40;
// Row letters repeat at most this many times ("A".."Z", "AA".."ZZ", ...); beyond is unprintable.
constexpr int kMaxLetterRepeats = 26;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }

std::optional<std::int64_t> parse_unsigned(std::string_view s) {
    if (s.empty()) return std::nullopt;
    for (char c : s) {
        if (!is_digit(c)) return std::nullopt;
    }
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || end != s.data() + s.size() || v > kMaxLabelNumber) {
        return std::nullopt;
    }
    return v;
}

std::optional<std::int64_t> parse_signed(std::string_view s) {
    const bool negative = !s.empty() && s.front() == '-';
    const auto v = parse_unsigned(negative ? s.substr(1) : s);
    if (!v) return std::nullopt;
    return negative ? -*v : *v;
}

std::optional<int> to_int(std::int64_t v) {
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
        return std::nullopt;
    }
    return static_cast<int>(v);
}

// Sign first, then the magnitude zero-padded to `digits` ("-01"); wider numbers print wider.
void append_padded(std::string& out, std::int64_t v, int digits) {
    if (v < 0) out += '-';
    const std::string magnitude = std::to_string(v < 0 ? -v : v);
    if (static_cast<int>(magnitude.size()) < digits) out.append(digits - magnitude.size(), '0');
    out += magnitude;
}

std::int64_t letter_index(int row, const Numbering& n) {
    return n.letters_from_south ? std::int64_t{n.rows} - 1 - row : row;
}

constexpr std::array<std::pair<int, std::string_view>, 13> kRoman{{{1000, "M"},
                                                                   {900, "CM"},
                                                                   {500, "D"},
                                                                   {400, "CD"},
                                                                   {100, "C"},
                                                                   {90, "XC"},
                                                                   {50, "L"},
                                                                   {40, "XL"},
                                                                   {10, "X"},
                                                                   {9, "IX"},
                                                                   {5, "V"},
                                                                   {4, "IV"},
                                                                   {1, "I"}}};

std::string to_roman(int v) {
    std::string out;
    for (const auto& [value, text] : kRoman) {
        for (; v >= value; v -= value) out += text;
    }
    return out;
}

// Canonical Roman numerals only ("IV", not "IIII"): decode greedily, then re-encode and compare.
std::optional<int> parse_roman(std::string_view s) {
    if (s.empty() || s.size() > 15) return std::nullopt;
    int v = 0;
    std::string_view rest = s;
    for (const auto& [value, text] : kRoman) {
        while (rest.substr(0, text.size()) == text) {
            v += value;
            rest.remove_prefix(text.size());
        }
    }
    if (!rest.empty() || v > 3999 || to_roman(v) != s) return std::nullopt;
    return v;
}

std::optional<int> parse_board(std::string_view s) {
    if (const auto roman = parse_roman(s)) return roman;
    const auto v = parse_unsigned(s);
    if (!v || *v < 1) return std::nullopt;
    return to_int(*v);
}

std::optional<Label> parse_col_row(std::string_view text, const Numbering& n) {
    const std::size_t row_digits = static_cast<std::size_t>(std::max(1, n.row_digits));
    std::string_view col_text;
    std::string_view row_text;
    // A '-' after the first character can only be a negative row's sign, so it splits the label.
    if (const auto sep = text.find('-', 1); sep != std::string_view::npos) {
        col_text = text.substr(0, sep);
        row_text = text.substr(sep);
    } else {
        const std::size_t sign = !text.empty() && text.front() == '-' ? 1 : 0;
        if (text.size() < sign + 1 + row_digits) return std::nullopt;
        col_text = text.substr(0, text.size() - row_digits);
        row_text = text.substr(text.size() - row_digits);
    }
    const auto col = parse_signed(col_text);
    const auto row = parse_signed(row_text);
    if (!col || !row) return std::nullopt;
    const auto c = to_int((*col - n.first_col) * col_sign(n));
    const auto r = to_int(*row - n.first_row);
    if (!c || !r) return std::nullopt;
    return Label{{*c, *r}, 0};
}

std::optional<Label> parse_row_letters(std::string_view text, const Numbering& n) {
    std::size_t pos = 0;
    while (pos < text.size() && is_upper(text[pos])) ++pos;
    const std::string_view letters = text.substr(0, pos);
    if (letters.empty() || letters.size() > kMaxLetterRepeats) return std::nullopt;
    for (char c : letters) {
        if (c != letters.front()) return std::nullopt;
    }

    std::string_view rest = text.substr(pos);
    int board = 0;
    if (!rest.empty() && rest.back() == ')') {
        const auto open = rest.find('(');
        if (open == std::string_view::npos) return std::nullopt;
        const auto b = parse_board(rest.substr(open + 1, rest.size() - open - 2));
        if (!b) return std::nullopt;
        board = *b;
        rest = rest.substr(0, open);
    }
    const auto number = parse_signed(rest);
    if (!number) return std::nullopt;

    const std::int64_t index =
        26 * static_cast<std::int64_t>(letters.size() - 1) + (letters.front() - 'A');
    const auto r = to_int(n.letters_from_south ? std::int64_t{n.rows} - 1 - index : index);
    const auto c = to_int((*number - n.first_col) * col_sign(n));
    if (!c || !r) return std::nullopt;
    return Label{{*c, *r}, board};
}

}  // namespace

std::int64_t pack(Hex h) {
    // q in the high half, r biased to unsigned in the low half: integer order is (q, r) order.
    const auto hi = static_cast<std::uint64_t>(static_cast<std::int64_t>(h.q)) << 32;
    const auto lo = static_cast<std::uint64_t>(static_cast<std::uint32_t>(h.r) ^ 0x80000000u);
    return static_cast<std::int64_t>(hi | lo);
}

Hex unpack(std::int64_t key) {
    const auto lo = static_cast<std::uint32_t>(static_cast<std::uint64_t>(key)) ^ 0x80000000u;
    return {static_cast<int>(key >> 32), static_cast<int>(lo)};
}

Offset to_offset(Hex h, Grid g) {
    if (g.orientation == Orientation::FlatTop) return {h.q, h.r + shove(h.q, g.parity)};
    // Pointy-top rows are constant q + r; the column runs along -r (see the Hex comment).
    const int row = h.q + h.r;
    return {-h.r + shove(row, g.parity), row};
}

Hex from_offset(Offset o, Grid g) {
    if (g.orientation == Orientation::FlatTop) return {o.col, o.row - shove(o.col, g.parity)};
    const int east = o.col - shove(o.row, g.parity);
    return {east + o.row, -east};
}

Hex direction_vector(int dir) { return kDirections[normalise_dir(dir)]; }

Hex neighbour(Hex h, int dir) {
    const Hex d = direction_vector(dir);
    return {h.q + d.q, h.r + d.r};
}

std::array<Hex, 6> neighbours(Hex h) {
    std::array<Hex, 6> out;
    for (int d = 0; d < 6; ++d) out[d] = neighbour(h, d);
    return out;
}

std::string_view direction_name(int dir, Orientation o) {
    return (o == Orientation::FlatTop ? kFlatNames : kPointyNames)[normalise_dir(dir)];
}

std::optional<int> parse_direction(std::string_view name, Orientation o) {
    const auto& names = o == Orientation::FlatTop ? kFlatNames : kPointyNames;
    for (int d = 0; d < 6; ++d) {
        const std::string_view candidate = names[d];
        if (candidate.size() != name.size()) continue;
        bool same = true;
        for (std::size_t i = 0; i < name.size() && same; ++i) {
            const char c = name[i] >= 'a' && name[i] <= 'z' ? name[i] - 'a' + 'A' : name[i];
            same = c == candidate[i];
        }
        if (same) return d;
    }
    return std::nullopt;
}

std::optional<int> direction_between(Hex a, Hex b) {
    const Hex diff{b.q - a.q, b.r - a.r};
    for (int d = 0; d < 6; ++d) {
        if (kDirections[d] == diff) return d;
    }
    return std::nullopt;
}

int distance(Hex a, Hex b) {
    const int dq = a.q - b.q;
    const int dr = a.r - b.r;
    return (std::abs(dq) + std::abs(dr) + std::abs(dq + dr)) / 2;
}

std::vector<Hex> ring(Hex centre, int radius) {
    if (radius < 0) return {};
    if (radius == 0) return {centre};
    std::vector<Hex> out;
    out.reserve(6 * static_cast<std::size_t>(radius));
    const Hex start = direction_vector(4);
    Hex h{centre.q + start.q * radius, centre.r + start.r * radius};
    for (int d = 0; d < 6; ++d) {
        for (int i = 0; i < radius; ++i) {
            out.push_back(h);
            h = neighbour(h, d);
        }
    }
    return out;
}

std::vector<Hex> range(Hex centre, int n) {
    if (n < 0) return {};
    std::vector<Hex> out;
    out.reserve(3 * static_cast<std::size_t>(n) * (n + 1) + 1);
    for (int dq = -n; dq <= n; ++dq) {
        for (int dr = std::max(-n, -dq - n); dr <= std::min(n, -dq + n); ++dr) {
            out.push_back({centre.q + dq, centre.r + dr});
        }
    }
    return out;
}

std::vector<Hex> line(Hex a, Hex b) {
    const int n = distance(a, b);
    // Nudging both ends by the same tiny cube offset moves points that fall exactly on a hexside
    // or corner off it, always to the same side.
    const double aq = a.q + 1e-6;
    const double ar = a.r + 1e-6;
    const double dq = (b.q + 1e-6) - aq;
    const double dr = (b.r + 1e-6) - ar;
    std::vector<Hex> out;
    out.reserve(static_cast<std::size_t>(n) + 1);
    for (int i = 0; i <= n; ++i) {
        const double t = n == 0 ? 0.0 : static_cast<double>(i) / n;
        out.push_back(cube_round(aq + dq * t, ar + dr * t));
    }
    return out;
}

HexsideKey hexside(Hex h, int dir) {
    const int d = normalise_dir(dir);
    if (d < 3) return {h, d};
    return {neighbour(h, d), d - 3};
}

std::pair<Hex, Hex> hexside_hexes(HexsideKey k) { return {k.hex, neighbour(k.hex, k.dir)}; }

std::int64_t pack(HexsideKey k) {
    const HexsideKey c = hexside(k.hex, k.dir);
    // 31 bits of q, 31 bits of biased r, 2 bits of dir: ordered like (q, r, dir).
    const auto q = static_cast<std::uint64_t>(static_cast<std::int64_t>(c.hex.q)) << 33;
    const auto r =
        (static_cast<std::uint64_t>(static_cast<std::int64_t>(c.hex.r) + (1 << 30)) & 0x7fffffffu)
        << 2;
    return static_cast<std::int64_t>(q | r | static_cast<std::uint64_t>(c.dir));
}

std::string format_label(Offset o, const Numbering& n, int board) {
    std::string out;
    if (n.scheme == Numbering::Scheme::ColRow) {
        append_padded(out, std::int64_t{n.first_col} + col_sign(n) * o.col, std::max(1, n.col_digits));
        append_padded(out, std::int64_t{n.first_row} + o.row, std::max(1, n.row_digits));
        return out;
    }
    const std::int64_t index = letter_index(o.row, n);
    if (index < 0 || index >= 26 * kMaxLetterRepeats) {
        out += '?';  // no letters for this row; parse_label rejects it
    } else {
        out.append(static_cast<std::size_t>(index / 26 + 1), static_cast<char>('A' + index % 26));
    }
    out += std::to_string(std::int64_t{n.first_col} + col_sign(n) * o.col);
    if (board != 0) out += '(' + std::to_string(board) + ')';
    return out;
}

std::optional<Label> parse_label(std::string_view text, const Numbering& n) {
    return n.scheme == Numbering::Scheme::ColRow ? parse_col_row(text, n)
                                                 : parse_row_letters(text, n);
}

Point to_pixel(Hex h, const Layout& l) {
    double x = 0;
    double y = 0;
    if (l.orientation == Orientation::FlatTop) {
        x = 1.5 * h.q;
        y = kSqrt3 * (0.5 * h.q + h.r);
    } else {
        x = kSqrt3 / 2 * (h.q - h.r);
        y = 1.5 * (h.q + h.r);
    }
    return {l.origin.x + l.size * x, l.origin.y + l.size * y};
}

Hex from_pixel(Point p, const Layout& l) {
    const double x = (p.x - l.origin.x) / l.size;
    const double y = (p.y - l.origin.y) / l.size;
    if (l.orientation == Orientation::FlatTop) {
        return cube_round(2.0 / 3.0 * x, -x / 3.0 + y / kSqrt3);
    }
    return cube_round(x / kSqrt3 + y / 3.0, y / 3.0 - x / kSqrt3);
}

std::array<Point, 6> corners(Hex h, const Layout& l) {
    const Point c = to_pixel(h, l);
    const auto& unit = l.orientation == Orientation::FlatTop ? kFlatCorners : kPointyCorners;
    std::array<Point, 6> out;
    for (int i = 0; i < 6; ++i) out[i] = {c.x + l.size * unit[i].x, c.y + l.size * unit[i].y};
    return out;
}

std::pair<Point, Point> hexside_segment(HexsideKey k, const Layout& l) {
    const HexsideKey c = hexside(k.hex, k.dir);
    const auto pts = corners(c.hex, l);
    return {pts[c.dir], pts[c.dir + 1]};
}

}  // namespace vedette::hex
