// vedette: the desktop client. See docs/gui.md.
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "ai/ai.hpp"
#include "app.hpp"

namespace {

void usage(std::ostream& os) {
    os << "usage: vedette [MODULE_DIR] [--scenario ID] [--seed N] [--load SAVE] [--replay SAVE]\n"
          "               [--ai ROLE[=KIND]]... [--ui-scale F] [--size WxH]\n"
          "               [--screenshot FILE --frames N] [--script FILE]\n"
          "Without MODULE_DIR: modules/napoleon_1814 (or the fixture module) of the source tree.\n"
          "--ai ROLE: the random bot plays ROLE; KIND: random, ai-easy, ai (normal), ai-hard.\n"
          "--screenshot/--frames/--script are for tests: run scripted GUI commands, save the\n"
          "screen after N frames, and exit. docs/gui.md lists the script commands.\n";
}

}  // namespace

int main(int argc, char** argv) {
    vedette::ai::register_bot_kinds();
    vedette::gui::AppOptions o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::cerr << "vedette: " << a << " needs a value\n";
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--help" || a == "-h") {
            usage(std::cout);
            return 0;
        } else if (a == "--scenario") o.scenario = next();
        else if (a == "--seed") o.seed = std::strtoull(next().c_str(), nullptr, 10);
        else if (a == "--load") o.load = next();
        else if (a == "--replay") o.replay = next();
        else if (a == "--ai") o.ai_roles.push_back(next());
        else if (a == "--screenshot") o.screenshot = next();
        else if (a == "--frames") o.frames = std::atoi(next().c_str());
        else if (a == "--script") o.script = next();
        else if (a == "--ui-scale") o.ui_scale = static_cast<float>(std::atof(next().c_str()));
        else if (a == "--size") {
            const std::string s = next();
            const auto x = s.find('x');
            if (x != std::string::npos) {
                o.width = static_cast<unsigned>(std::atoi(s.substr(0, x).c_str()));
                o.height = static_cast<unsigned>(std::atoi(s.substr(x + 1).c_str()));
            }
        } else if (!a.empty() && a[0] == '-') {
            std::cerr << "vedette: unknown option " << a << "\n";
            usage(std::cerr);
            return 2;
        } else o.module_dir = a;
    }
    if (o.ui_scale < 0.5f || o.ui_scale > 4.0f) o.ui_scale = 1.0f;
    vedette::gui::App app(o);
    return app.run();
}
