// Drawing benchmark (not a test): the whole synthetic 1814-sized map with every counter visible
// at full zoom-out, median frame time over N frames (glFinish before stopping the clock), plus
// screenshots at three zoom levels. Run under Xvfb: xvfb-run -a -s "-screen 0 1600x1000x24" ...
#include <SFML/Graphics.hpp>
#include <SFML/OpenGL.hpp>
#include <algorithm>
#include <sys/resource.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "board.hpp"
#include "data/loader.hpp"
#include "fonts.hpp"
#include "map_renderer.hpp"
#include "synthetic_module.hpp"
#include "view_model.hpp"

using namespace vedette;
using namespace vedette::gui;

// CPU time of the whole process (all threads, llvmpipe's included), in ms: on a shared, loaded
// machine it is a steadier measure than wall time.
static double cpu_ms() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000.0 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1000.0;
}

static void shot(sf::RenderWindow& w, const std::string& path) {
    sf::Texture t;
    t.create(w.getSize().x, w.getSize().y);
    t.update(w);
    t.copyToImage().saveToFile(path);
}

int main(int argc, char** argv) {
    std::string out = ".", map_file;
    int frames = 120;
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--out")) out = argv[++i];
        else if (!std::strcmp(argv[i], "--frames")) frames = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--map")) map_file = argv[++i];
    }
    sf::Clock launch;
    auto def = testing::synthetic_module();
    if (!map_file.empty()) {
        // A real map.xml (e.g. modules/napoleon_1814/map.xml) in a minimal module, with the
        // synthetic counter types, so the benchmark measures the real map.
        std::ifstream in(map_file);
        std::stringstream ss;
        ss << in.rdbuf();
        const std::map<std::string, std::string> files = {
            {"module.xml", "<module id=\"bench\" version=\"1\" name=\"Bench\" api=\"1\"><sides>"
                           "<side id=\"blue\" name=\"Blue\" color=\"#3a5caa\"/><side id=\"red\" name=\"Red\" color=\"#b03a2e\"/>"
                           "</sides><phases><phase id=\"movement\" name=\"Movement\"/></phases><turns first=\"1\" last=\"1\"/>"
                           "<files map=\"map.xml\" counters=\"counters.xml\"/><rules main=\"rules/main.lua\"/></module>"},
            {"map.xml", ss.str()},
            {"counters.xml", "<counters/>"},
            {"rules/main.lua", "return {}"}};
        auto r = data::load_module_from_memory(files, "bench");
        if (!r.ok()) {
            for (const auto& e : r.errors) std::fprintf(stderr, "%s\n", e.str().c_str());
            return 1;
        }
        auto real = std::make_shared<core::ModuleDef>(*r.module);
        real->counter_types = def->counter_types;
        def = real;
    }
    const ViewModel view = ViewModel::parse(testing::synthetic_view(*def, map_file.empty() ? 180 : 120), *def);
    sf::RenderWindow win(sf::VideoMode(1600, 1000), "map bench", sf::Style::Default, sf::ContextSettings(0, 0, std::getenv("AA") ? std::atoi(std::getenv("AA")) : 0));
    win.setVerticalSyncEnabled(false);
    sf::Font font, bold;
    if (!font.loadFromFile(find_font(FontStyle::SansCondensed)) || !bold.loadFromFile(find_font(FontStyle::SansCondensedBold))) {
        std::fprintf(stderr, "no font\n");
        return 1;
    }
    MapRenderer map(def->map, font, bold);
    Camera cam;
    cam.window_size = win.getSize();
    cam.viewport = {0, 0, 1600, 1000};
    const sf::FloatRect b = map.world_bounds();
    cam.center = {b.left + b.width / 2, b.top + b.height / 2};
    cam.zoom = std::min(1600 / b.width, 1000 / b.height);
    Highlights hl;
    for (int i = 0; i < 30; ++i) hl.hexes.insert(def->map.hexes[static_cast<size_t>(i * 37 % def->map.hexes.size())].label);
    bool cached = false;
    SceneCache scene;
    sf::RenderTexture offscreen;
    offscreen.create(1600, 1000);
    sf::RenderTarget* tgt = &win;
    auto frame = [&] {
        sf::RenderTarget& win = *tgt;
        win.clear(kTable);
        static const char* skip = std::getenv("SKIP");
        const std::string sk = skip ? skip : "";
        auto paint = [&](sf::RenderTarget& t, const Camera& c) {
            if (sk.find('m') == std::string::npos) map.draw(t, c);
            if (sk.find('b') == std::string::npos) BoardPainter::draw(t, c, map, *def, view, hl, font, bold);
        };
        if (cached) scene.draw(win, cam, 1, paint);
        else paint(win, cam);
        if (sk.find('o') == std::string::npos) map.draw_overview(win, {10, 1000 - 170, 240, 160}, cam);
    };
    frame();
    win.display();
    const float first_frame_ms = launch.getElapsedTime().asSeconds() * 1000;
    std::vector<double> times;
    sf::Clock clk;
    const double w0 = cpu_ms();
    for (int i = 0; i < frames; ++i) {
        clk.restart();
        frame();
        glFinish();
        times.push_back(clk.getElapsedTime().asMicroseconds() / 1000.0);
        win.display();
    }
    std::sort(times.begin(), times.end());
    // Same with the map cache (camera still: the usual case between two inputs).
    const double cpu_window = (cpu_ms() - w0) / frames;
    cached = true;
    std::vector<double> warm;
    const double w1 = cpu_ms();
    for (int i = 0; i < frames; ++i) {
        clk.restart();
        frame();
        glFinish();
        warm.push_back(clk.getElapsedTime().asMicroseconds() / 1000.0);
        win.display();
    }
    const double cpu_window_cached = (cpu_ms() - w1) / frames;
    std::sort(warm.begin(), warm.end());
    // Off-screen (no buffer swap to the X server): the drawing cost alone.
    std::vector<double> off_cold, off_warm;
    double cpu_cold = 0, cpu_warm = 0;
    tgt = &offscreen;
    for (int pass = 0; pass < 2; ++pass) {
        cached = pass == 1;
        const double c0 = cpu_ms();
        for (int i = 0; i < frames; ++i) {
            offscreen.setActive(true);
            clk.restart();
            frame();
            glFinish();
            (pass ? off_warm : off_cold).push_back(clk.getElapsedTime().asMicroseconds() / 1000.0);
        }
        (pass ? cpu_warm : cpu_cold) = (cpu_ms() - c0) / frames;
    }
    std::sort(off_cold.begin(), off_cold.end());
    std::sort(off_warm.begin(), off_warm.end());
    tgt = &win;
    cached = false;
    cached = true;
    frame();
    shot(win, out + "/bench_full_cached.png");
    cached = false;
    frame();
    shot(win, out + "/bench_full.png");
    cam.zoom *= 2.5f;
    frame();
    shot(win, out + "/bench_mid.png");
    cam.zoom *= 3.0f;
    cam.center = map.hex_center(def->map.hexes[600].hex);
    frame();
    shot(win, out + "/bench_close.png");
    std::printf("{\"offscreen_median_ms\": %.3f, \"offscreen_cached_median_ms\": %.3f, \"window_median_ms\": %.3f, "
                "\"window_cached_median_ms\": %.3f, \"cpu_per_frame_ms\": %.3f, \"cpu_per_frame_cached_ms\": %.3f, \"cpu_window_ms\": %.3f, \"cpu_window_cached_ms\": %.3f, \"first_frame_ms\": %.1f, \"map_vertices\": %zu}\n",
                off_cold[off_cold.size() / 2], off_warm[off_warm.size() / 2], times[times.size() / 2],
                warm[warm.size() / 2], cpu_cold, cpu_warm, cpu_window, cpu_window_cached, first_frame_ms, map.vertex_count());
    return 0;
}
