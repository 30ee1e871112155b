// Checks that GUI screenshots are non-trivial: not blank, a map with many colours in the board
// area, text in the prompt panel. Usage: vedette_gui_check KIND IMAGE [KIND IMAGE]...
// KIND: game (board + panel), start (start screen), handover (hand-over screen), any.
#include <SFML/Graphics/Image.hpp>
#include <cstdio>
#include <map>
#include <set>
#include <string>

namespace {

struct Stats {
    size_t distinct = 0;
    double non_dominant = 0;  // share of pixels that are not the most common colour
};

Stats region(const sf::Image& img, unsigned x0, unsigned y0, unsigned x1, unsigned y1) {
    std::map<unsigned, size_t> count;
    size_t total = 0;
    for (unsigned y = y0; y < y1; y += 1)
        for (unsigned x = x0; x < x1; x += 1) {
            const sf::Color c = img.getPixel(x, y);
            ++count[(c.r >> 3) << 10 | (c.g >> 3) << 5 | (c.b >> 3)];
            ++total;
        }
    size_t top = 0;
    for (const auto& [k, n] : count) top = std::max(top, n);
    return {count.size(), total ? 1.0 - static_cast<double>(top) / total : 0};
}

bool check(const std::string& kind, const std::string& path) {
    sf::Image img;
    if (!img.loadFromFile(path)) {
        std::printf("FAIL %s: cannot read\n", path.c_str());
        return false;
    }
    const unsigned w = img.getSize().x, h = img.getSize().y;
    bool ok = w >= 640 && h >= 480;
    const Stats all = region(img, 0, 0, w, h);
    std::printf("%s: %ux%u, %zu colours, %.1f%% non-background\n", path.c_str(), w, h, all.distinct, all.non_dominant * 100);
    if (all.distinct < 8) ok = false;
    if (kind == "game") {
        // Board: the left part under the menu bar. Panel: the right-hand 300 px, upper half.
        const Stats board = region(img, 0, h / 10, w * 6 / 10, h * 9 / 10);
        const Stats panel = region(img, w - 300, 30, w, h / 2);
        std::printf("  board: %zu colours, %.1f%% non-dominant; panel: %zu colours, %.1f%% ink\n", board.distinct,
                    board.non_dominant * 100, panel.distinct, panel.non_dominant * 100);
        ok = ok && board.distinct >= 40 && board.non_dominant > 0.2 && panel.distinct >= 6 && panel.non_dominant > 0.01;
    } else if (kind == "start") {
        const Stats mid = region(img, w / 4, h / 10, w * 3 / 4, h / 2);
        ok = ok && mid.distinct >= 6 && mid.non_dominant > 0.01;
    } else if (kind == "handover") {
        // Mostly one dark colour (the board is hidden), with the message in the middle.
        const Stats mid = region(img, w / 4, h / 3, w * 3 / 4, h * 2 / 3);
        ok = ok && all.non_dominant < 0.2 && mid.non_dominant > 0.002;
    }
    std::printf("%s %s (%s)\n", ok ? "ok  " : "FAIL", path.c_str(), kind.c_str());
    return ok;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3 || argc % 2 == 0) {
        std::fprintf(stderr, "usage: vedette_gui_check KIND IMAGE [KIND IMAGE]...\n");
        return 2;
    }
    bool ok = true;
    for (int i = 1; i + 1 < argc; i += 2) ok = check(argv[i], argv[i + 1]) && ok;
    return ok ? 0 : 1;
}
