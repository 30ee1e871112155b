// System font lookup. Vedette ships no font files: it uses the distribution's fonts
// (Debian: fonts-dejavu-core) from their system paths, trying a fallback list.
#pragma once

#include <string>

namespace vedette::gui {

enum class FontStyle { Sans, SansBold, SansCondensed, SansCondensedBold, Mono, Serif, SerifBold };

// The first existing file for the style, or empty when none was found.
// $VEDETTE_FONT_DIR, if set, is tried first.
std::string find_font(FontStyle style);

}  // namespace vedette::gui
