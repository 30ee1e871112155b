// Drawing benchmark (not a test): the whole map (synthetic, or --map FILE) with every counter
// visible at full zoom-out. Median and 95th-percentile frame times over N frames (glFinish
// before stopping the clock) for five kinds of frame: still, redraw (the counters' highlights
// change), pan, zoom (the map layer rendered again) and uncached (no map layer at all); CPU
// time per frame, time to the first frame, resident memory; screenshots at three zoom levels.
// Run under Xvfb: xvfb-run -a -s "-screen 0 1600x1000x24" vedette_gui_bench [--map F] [--frames N]
#include <SFML/Graphics.hpp>
#include <SFML/OpenGL.hpp>
#include <algorithm>
#include <sys/resource.h>

#include <cstdio>
#include <fstream>
#include <regex>
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
            // the boxes' owners are the real module's sides, unknown here: drop them
            {"map.xml", std::regex_replace(ss.str(), std::regex(R"( (owner|private|hide-count)="[^"]*")"), "")},
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
    Highlights hl2 = hl;  // a different decision: other hexes lit, a piece selected
    hl2.hexes.clear();
    for (int i = 0; i < 30; ++i) hl2.hexes.insert(def->map.hexes[static_cast<size_t>(i * 41 % def->map.hexes.size())].label);
    if (!view.pieces.empty()) hl2.selected_piece = view.pieces.front().id;

    // One frame as the app draws it: the map from its layer (or drawn directly), the counters
    // and highlights, the overview. `cached` false: every shape and glyph drawn (no layer).
    static const char* skip_env = std::getenv("SKIP");
    const std::string skip = skip_env ? skip_env : "";
    auto frame = [&](const Camera& c0, const Highlights& h, bool cached) {
        const Camera c = c0.snapped();
        win.clear(kTable);
        if (skip.find('m') == std::string::npos) {
            if (cached) map.draw_cached(win, c);
            else map.draw(win, c);
        }
        if (skip.find('b') == std::string::npos) BoardPainter::draw(win, c, map, *def, view, h, font, bold);
        if (skip.find('o') == std::string::npos) map.draw_overview(win, {10, 1000 - 170, 240, 160}, c);
    };
    frame(cam, hl, true);
    win.display();
    const float first_frame_ms = launch.getElapsedTime().asSeconds() * 1000;

    struct Series {
        std::vector<double> wall;
        double cpu = 0;
        int layer_renders = 0;
        double median() const { return wall[wall.size() / 2]; }
        double p95() const { return wall[std::min(wall.size() - 1, wall.size() * 95 / 100)]; }
    };
    // Wall time from the start of a frame to glFinish (the drawing done), like a real frame
    // without the buffer swap; CPU time of the whole process (llvmpipe's threads included).
    auto measure = [&](auto&& one) {
        Series s;
        for (int i = 0; i < 5; ++i) one(i), glFinish(), win.display();  // warm up
        const int renders0 = map.layer_renders();
        const double c0 = cpu_ms();
        sf::Clock clk;
        for (int i = 0; i < frames; ++i) {
            clk.restart();
            one(i);
            glFinish();
            s.wall.push_back(clk.getElapsedTime().asMicroseconds() / 1000.0);
            win.display();
        }
        s.cpu = (cpu_ms() - c0) / frames;
        s.layer_renders = map.layer_renders() - renders0;
        std::sort(s.wall.begin(), s.wall.end());
        return s;
    };
    // still: nothing changed since the last frame (redrawn after a mouse move, say).
    const Series still = measure([&](int) { frame(cam, hl, true); });
    // redraw: the counters' decision changed every frame (other highlights, a selection).
    const Series redraw = measure([&](int i) { frame(cam, i % 2 ? hl2 : hl, true); });
    // pan: the camera moves 7 pixels a frame (a drag), same zoom.
    Camera moving = cam;
    const Series pan = measure([&](int i) {
        moving.center = cam.center + sf::Vector2f(static_cast<float>((i % 40) - 20), static_cast<float>((i % 30) - 15)) * (7.0f / cam.zoom);
        frame(moving, i % 2 ? hl2 : hl, true);
    });
    // pan_close: the same drag zoomed in 3x: the layer holds the view plus a margin and is
    // rendered again when the view leaves it.
    Camera close = cam;
    close.zoom *= 3.0f;
    const Series pan_close = measure([&](int i) {
        close.center = cam.center + sf::Vector2f(static_cast<float>(i), static_cast<float>(i / 2)) * (7.0f / close.zoom);
        frame(close, hl, true);
    });
    // zoom: a new zoom level every frame (a wheel turn): the map layer is rendered again.
    Camera zooming = cam;
    const Series zoom = measure([&](int i) {
        zooming.zoom = cam.zoom * (i % 2 ? 1.0f : 1.02f);
        frame(zooming, hl, true);
    });
    // uncached: every map shape and glyph drawn to the window each frame (no layer).
    const Series uncached = measure([&](int) { frame(cam, hl, false); });

    frame(cam, hl, true);
    shot(win, out + "/bench_full.png");
    Camera closer = cam;
    closer.zoom *= 2.5f;
    frame(closer, hl, true);
    shot(win, out + "/bench_mid.png");
    closer.zoom *= 3.0f;
    closer.center = map.hex_center(def->map.hexes[def->map.hexes.size() / 2].hex);
    frame(closer, hl, true);
    shot(win, out + "/bench_close.png");

    long rss_kb = 0, hwm_kb = 0;
    {
        std::ifstream st("/proc/self/status");
        for (std::string line; std::getline(st, line);) {
            if (line.rfind("VmRSS:", 0) == 0) rss_kb = std::atol(line.c_str() + 6);
            if (line.rfind("VmHWM:", 0) == 0) hwm_kb = std::atol(line.c_str() + 6);
        }
    }
    auto json = [](const char* name, const Series& s) {
        std::printf("  \"%s\": {\"median_ms\": %.2f, \"p95_ms\": %.2f, \"cpu_ms\": %.2f, \"layer_renders\": %d},\n", name,
                    s.median(), s.p95(), s.cpu, s.layer_renders);
    };
    std::printf("{\n");
    json("still", still);
    json("redraw", redraw);
    json("pan", pan);
    json("pan_close", pan_close);
    json("zoom", zoom);
    json("uncached", uncached);
    std::printf("  \"first_frame_ms\": %.1f, \"rss_mb\": %.1f, \"peak_rss_mb\": %.1f, \"map_vertices\": %zu, \"frames\": %d\n}\n",
                first_frame_ms, rss_kb / 1024.0, hwm_kb / 1024.0, map.vertex_count(), frames);
    return 0;
}
