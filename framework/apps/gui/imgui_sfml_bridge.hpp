// A small bridge between SFML 2.5 and Dear ImGui 1.86 (Debian's libimgui-dev).
// Input: SFML events are fed to ImGuiIO (mouse, wheel, keys, text, focus, resize).
// Output: ImDrawData is rendered by Dear ImGui's own OpenGL2 backend, which Debian compiles
// into libimgui.a; we only save and restore SFML's GL state around it.
#pragma once

#include <SFML/Graphics/RenderWindow.hpp>
#include <SFML/Window/Event.hpp>
#include <string>
#include <vector>

struct ImFont;

namespace vedette::gui {

struct UiFonts {
    ImFont* regular = nullptr;
    ImFont* bold = nullptr;
    ImFont* mono = nullptr;
};

class ImGuiBridge {
public:
    // Creates the ImGui context and loads fonts at `scale` (1.0 = 15 px text).
    bool init(sf::RenderWindow& window, float scale);
    void shutdown();
    void process_event(const sf::Event& e);
    // Applies a pending scale change (fonts are rebuilt between frames), then starts a frame.
    void new_frame(sf::RenderWindow& window, float dt_seconds);
    void render(sf::RenderWindow& window);
    void set_scale(float scale) { pending_scale_ = scale; }
    float scale() const { return scale_; }
    const UiFonts& fonts() const { return fonts_; }
    bool wants_mouse() const;
    bool wants_keyboard() const;

private:
    void build_fonts(float scale);
    float scale_ = 1.0f;
    float pending_scale_ = 0.0f;
    UiFonts fonts_;
    bool ready_ = false;
};

}  // namespace vedette::gui
