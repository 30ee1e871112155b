#include "fonts.hpp"

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace vedette::gui {

std::string find_font(FontStyle style) {
    std::vector<std::string> names;
    switch (style) {
        case FontStyle::Sans: names = {"DejaVuSans.ttf", "LiberationSans-Regular.ttf", "FreeSans.ttf"}; break;
        case FontStyle::SansBold: names = {"DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf", "FreeSansBold.ttf", "DejaVuSans.ttf"}; break;
        case FontStyle::SansCondensed: names = {"DejaVuSansCondensed.ttf", "DejaVuSans.ttf", "LiberationSansNarrow-Regular.ttf"}; break;
        case FontStyle::SansCondensedBold: names = {"DejaVuSansCondensed-Bold.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans.ttf"}; break;
        case FontStyle::Mono: names = {"DejaVuSansMono.ttf", "LiberationMono-Regular.ttf", "FreeMono.ttf", "DejaVuSans.ttf"}; break;
        case FontStyle::Serif: names = {"DejaVuSerif.ttf", "LiberationSerif-Regular.ttf", "FreeSerif.ttf", "DejaVuSans.ttf"}; break;
        case FontStyle::SerifBold: names = {"DejaVuSerif-Bold.ttf", "LiberationSerif-Bold.ttf", "FreeSerifBold.ttf", "DejaVuSans-Bold.ttf"}; break;
    }
    std::vector<std::string> dirs;
    if (const char* env = std::getenv("VEDETTE_FONT_DIR")) dirs.emplace_back(env);
    dirs.insert(dirs.end(), {"/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu",
                             "/usr/share/fonts/TTF", "/usr/share/fonts/truetype/liberation",
                             "/usr/share/fonts/truetype/freefont", "/usr/local/share/fonts",
                             "/Library/Fonts", "C:/Windows/Fonts"});
    std::error_code ec;
    for (const auto& n : names)
        for (const auto& d : dirs) {
            const std::filesystem::path p = std::filesystem::path(d) / n;
            if (std::filesystem::exists(p, ec)) return p.string();
        }
    return {};
}

}  // namespace vedette::gui
