#include "counters.hpp"

#include <cmath>

namespace vedette::gui {

namespace {

std::string lower(std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}
bool has(const std::string& s, const char* w) { return s.find(w) != std::string::npos; }

// A stat, overridden by a prop of the same name (e.g. current strength after losses).
std::optional<std::string> stat(const core::CounterType& ct, const PieceView& p, const char* key) {
    if (p.props.is_object() && p.props.contains(key)) {
        const auto& v = p.props[key];
        if (v.is_number_integer()) return std::to_string(v.get<long long>());
        if (v.is_string()) return v.get<std::string>();
    }
    auto it = ct.stats.find(key);
    if (it == ct.stats.end()) return std::nullopt;
    if (it->second.is_int()) return std::to_string(it->second.as_int());
    if (it->second.is_string()) return it->second.as_string();
    return std::nullopt;
}

std::optional<std::string> first_stat(const core::CounterType& ct, const PieceView& p, std::initializer_list<const char*> keys) {
    for (const char* k : keys)
        if (auto v = stat(ct, p, k)) return v;
    return std::nullopt;
}

// Nationality colours (1814 rule 3.6 style: the counter's own nation stat decides, else the side).
std::optional<sf::Color> nation_color(const std::string& n) {
    const std::string s = lower(n);
    if (has(s, "fren") || has(s, "france") || s == "fr") return sf::Color(58, 92, 170);
    if (has(s, "prus") || s == "pr") return sf::Color(70, 70, 76);
    if (has(s, "russ") || s == "ru") return sf::Color(46, 110, 62);
    if (has(s, "aust") || s == "au") return sf::Color(236, 232, 216);
    if (has(s, "brit") || s == "gb" || has(s, "engl")) return sf::Color(190, 40, 40);
    if (has(s, "bava") || s == "ba") return sf::Color(130, 180, 225);
    if (has(s, "swed") || s == "sw") return sf::Color(230, 200, 60);
    if (has(s, "wurt") || has(s, "würt") || has(s, "saxon") || has(s, "german")) return sf::Color(200, 170, 60);
    return std::nullopt;
}

sf::Color ink_for(sf::Color bg) {
    const float lum = 0.299f * bg.r + 0.587f * bg.g + 0.114f * bg.b;
    return lum > 150 ? sf::Color(25, 22, 20) : sf::Color(250, 248, 240);
}

}  // namespace

CounterLook counter_look(const core::ModuleDef& def, const PieceView& p) {
    CounterLook look;
    const core::CounterType* ct =
        p.type_index >= 0 ? &def.counter_types[static_cast<size_t>(p.type_index)] : nullptr;
    sf::Color side_col(150, 150, 150);
    if (p.side_index >= 0) side_col = parse_color(def.sides[static_cast<size_t>(p.side_index)].color, side_col);
    else if (ct && !ct->side.empty()) {
        const int si = def.side_index(ct->side);
        if (si >= 0) side_col = parse_color(def.sides[static_cast<size_t>(si)].color, side_col);
    }
    look.body = side_col;
    look.hidden = p.hidden && (p.face.empty() || !ct);
    if (!ct) {  // an unknown back: only the side colour and a question mark
        look.symbol = UnitSymbol::Hidden;
        look.name = "?";
        look.ink = ink_for(look.body);
        look.border = darker(look.body, 0.5f);
        return look;
    }
    // The counter's own colour (a module's nationality colours, e.g. 1814 rule 3.6), else a
    // known nation's, else the side's.
    if (auto n = first_stat(*ct, p, {"nation", "nationality"}))
        if (auto nc = nation_color(*n)) look.body = *nc;
    if (auto c = first_stat(*ct, p, {"color", "colour"})) look.body = parse_color(*c, look.body);
    const std::string cat = lower(ct->category);
    const std::string arm = lower(first_stat(*ct, p, {"arm", "branch", "unit_type", "type", "kind"}).value_or("") + " " + ct->id + " " + ct->name);
    if (has(cat, "command") || has(cat, "leader") || has(cat, "general")) look.symbol = UnitSymbol::Commander;
    else if (has(cat, "supply") || has(arm, "supply") || has(arm, "train") || has(arm, "depot")) look.symbol = UnitSymbol::Supply;
    else if (has(cat, "marker") || has(cat, "dummy")) look.symbol = has(arm, "dummy") ? UnitSymbol::Hidden : UnitSymbol::Marker;
    else if (has(arm, "cav") || has(arm, "cossack") || has(arm, "hussar") || has(arm, "dragoon")) look.symbol = UnitSymbol::Cavalry;
    else if (has(arm, "art") || has(arm, "gun")) look.symbol = UnitSymbol::Artillery;
    else if (has(arm, "mixed") || has(arm, "corps")) look.symbol = UnitSymbol::Mixed;
    else if (has(cat, "unit") || has(arm, "inf")) look.symbol = UnitSymbol::Infantry;
    if (p.hidden && p.face.empty()) look.symbol = UnitSymbol::Hidden;

    look.name = first_stat(*ct, p, {"short", "abbrev", "label"}).value_or(ct->name);
    if (look.symbol == UnitSymbol::Commander) {
        auto cr = first_stat(*ct, p, {"cr", "command", "rating", "command_rating"});
        auto sen = first_stat(*ct, p, {"seniority", "rank"});
        if (cr) look.numbers = *cr;
        if (sen) look.numbers += (look.numbers.empty() ? "" : "-") + *sen;
    } else {
        for (auto keys : {std::initializer_list<const char*>{"strength", "str", "sp", "cf", "steps", "combat", "attack"},
                          std::initializer_list<const char*>{"of", "of2", "morale", "quality", "defense"},
                          std::initializer_list<const char*>{"movement", "move", "ma", "mp"}}) {
            if (auto v = first_stat(*ct, p, keys)) look.numbers += (look.numbers.empty() ? "" : "-") + *v;
        }
    }
    if (auto c = first_stat(*ct, p, {"class", "size"})) look.corner = *c;
    const std::string face = lower(p.face);
    look.disrupted = has(face, "disrupt") || has(face, "reduced") || has(face, "spent") ||
                     (p.props.is_object() && p.props.value("disrupted", false) == true);
    if (look.disrupted) look.body = mix(look.body, sf::Color(235, 225, 205), 0.45f);
    look.ink = ink_for(look.body);
    look.border = darker(look.body, 0.55f);
    return look;
}

std::string counter_description(const core::ModuleDef& def, const PieceView& p) {
    if (p.type_index < 0) return "unknown piece" + (p.owner.empty() ? std::string() : " (" + p.owner + ")");
    const auto& ct = def.counter_types[static_cast<size_t>(p.type_index)];
    const CounterLook l = counter_look(def, p);
    std::string s = ct.name;
    if (p.hidden && !p.face.empty()) s += " [hidden from the enemy]";
    if (!l.numbers.empty()) s += "  " + l.numbers;
    if (!p.face.empty() && ct.faces.size() > 1) {
        const auto& f = ct.faces[static_cast<size_t>(p.face_index)];
        s += ", " + (f.name.empty() ? f.id : f.name);
    }
    if (p.hidden && p.face.empty()) s = "hidden piece (" + ct.name + ")";
    return s;
}

void add_counter(sf::VertexArray& va, sf::Vector2f c, float side, const CounterLook& l) {
    const float h = side / 2;
    const sf::FloatRect r(c.x - h, c.y - h, side, side);
    add_rect(va, {r.left + side * 0.06f, r.top + side * 0.06f, side, side}, sf::Color(0, 0, 0, 70));  // shadow
    add_rect(va, r, l.border);
    const float bw = side * 0.05f;
    add_rect(va, {r.left + bw, r.top + bw, side - 2 * bw, side - 2 * bw}, l.body);
    // Bevel: a lighter top-left edge.
    add_rect(va, {r.left + bw, r.top + bw, side - 2 * bw, side * 0.03f}, mix(l.body, sf::Color::White, 0.35f));
    if (l.disrupted) {  // diagonal warning band across the counter
        const sf::Color band(200, 40, 30, 200);
        add_quad(va, {r.left + bw, r.top + side * 0.62f}, {r.left + side * 0.38f, r.top + side - bw},
                 {r.left + side * 0.26f, r.top + side - bw}, {r.left + bw, r.top + side * 0.76f}, band);
        add_quad(va, {r.left + side - bw, r.top + side * 0.24f}, {r.left + side - bw, r.top + side * 0.38f},
                 {r.left + side * 0.74f, r.top + bw}, {r.left + side * 0.62f, r.top + bw}, band);
    }
    // The symbol box in the middle.
    const sf::FloatRect box(c.x - side * 0.28f, c.y - side * 0.17f, side * 0.56f, side * 0.34f);
    const float lw = side * 0.035f;
    const sf::Color ink = l.ink;
    switch (l.symbol) {
        case UnitSymbol::Infantry:
        case UnitSymbol::Cavalry:
        case UnitSymbol::Artillery:
        case UnitSymbol::Mixed: {
            const sf::Color fill = l.ink.r > 128 ? darker(l.body, 0.25f) : mix(l.body, sf::Color::White, 0.55f);
            add_rect(va, box, fill);
            add_rect_outline(va, box, lw, ink);
            const sf::Vector2f tl(box.left, box.top), tr(box.left + box.width, box.top),
                bl(box.left, box.top + box.height), br(box.left + box.width, box.top + box.height);
            if (l.symbol == UnitSymbol::Infantry || l.symbol == UnitSymbol::Mixed) {
                add_line(va, tl, br, lw, ink);
                add_line(va, bl, tr, lw, ink);
            }
            if (l.symbol == UnitSymbol::Cavalry || l.symbol == UnitSymbol::Mixed) add_line(va, bl, tr, lw * 1.2f, ink);
            if (l.symbol == UnitSymbol::Artillery) add_circle(va, c, side * 0.08f, ink, 12);
            break;
        }
        case UnitSymbol::Commander: {  // a flag on a pole with a star
            const sf::Vector2f base(c.x - side * 0.2f, c.y + side * 0.2f);
            add_line(va, base, base + sf::Vector2f(0, -side * 0.42f), lw * 1.2f, ink);
            add_rect(va, {base.x, base.y - side * 0.42f, side * 0.42f, side * 0.26f}, ink);
            add_star(va, {base.x + side * 0.21f, base.y - side * 0.29f}, side * 0.1f, side * 0.04f, 5, l.body);
            break;
        }
        case UnitSymbol::Supply: {
            add_rect_outline(va, box, lw, ink);
            add_line(va, {box.left, box.top + box.height * 0.7f}, {box.left + box.width, box.top + box.height * 0.7f}, lw, ink);
            add_circle(va, {box.left + box.width * 0.25f, box.top + box.height + side * 0.05f}, side * 0.05f, ink, 8);
            add_circle(va, {box.left + box.width * 0.75f, box.top + box.height + side * 0.05f}, side * 0.05f, ink, 8);
            break;
        }
        case UnitSymbol::Marker: add_ring(va, c, side * 0.14f, side * 0.2f, ink, 18); break;
        case UnitSymbol::Hidden: {
            // The back: a lattice pattern, no information.
            const sf::Color pat = with_alpha(ink, 90);
            for (int k = 1; k < 4; ++k) {
                const float t = side * k / 4.0f;
                add_line(va, {r.left + bw, r.top + t}, {r.left + t, r.top + bw}, lw * 0.6f, pat);
                add_line(va, {r.left + side - bw, r.top + side - t}, {r.left + side - t, r.top + side - bw}, lw * 0.6f, pat);
            }
            add_ring(va, c, side * 0.15f, side * 0.21f, ink, 18);
            break;
        }
        case UnitSymbol::None: break;
    }
}

void add_counter_text(TextBatch& text, const Camera& cam, sf::Vector2f c, float side, const CounterLook& l) {
    const float px = side * cam.zoom;
    if (px < 26) return;
    const sf::Vector2f tl = cam.to_screen({c.x - side / 2, c.y - side / 2});
    const unsigned nsize = static_cast<unsigned>(std::clamp(px * 0.17f, 7.0f, 18.0f));
    const unsigned bsize = static_cast<unsigned>(std::clamp(px * 0.24f, 8.0f, 24.0f));
    std::string name = l.name;
    // Trim the name to the counter's width.
    while (name.size() > 2 && text.width(name, nsize) > px * 0.9f) {
        name.pop_back();
        while (!name.empty() && (static_cast<unsigned char>(name.back()) & 0xC0) == 0x80) name.pop_back();
    }
    if (l.symbol == UnitSymbol::Hidden && l.hidden) {
        text.add("?", {tl.x + px / 2, tl.y + px * 0.34f}, bsize, l.ink, Align::Center, true);
        return;
    }
    text.add(name, {tl.x + px / 2, tl.y + px * 0.06f}, nsize, l.ink, Align::Center);
    if (!l.numbers.empty()) text.add(l.numbers, {tl.x + px / 2, tl.y + px * 0.7f}, bsize, l.ink, Align::Center, true);
    if (l.disrupted) text.add("D", {tl.x + px * 0.1f, tl.y + px * 0.25f}, nsize, sf::Color(200, 30, 20), Align::Left, true);
}

}  // namespace vedette::gui
