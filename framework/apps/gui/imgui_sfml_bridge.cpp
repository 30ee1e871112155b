#include "imgui_sfml_bridge.hpp"

#include <backends/imgui_impl_opengl2.h>
#include <imgui.h>

#include <cfloat>
#include <cstring>

#include <SFML/OpenGL.hpp>
#include <SFML/Window/Clipboard.hpp>
#include <SFML/Window/Keyboard.hpp>
#include <SFML/Window/Mouse.hpp>

#include "fonts.hpp"

namespace vedette::gui {

namespace {

std::string g_clipboard;

const char* get_clipboard(void*) {
    g_clipboard = sf::Clipboard::getString().toAnsiString();
    return g_clipboard.c_str();
}

void set_clipboard(void*, const char* text) { sf::Clipboard::setString(sf::String::fromUtf8(text, text + std::strlen(text))); }

int mouse_index(sf::Mouse::Button b) {
    switch (b) {
        case sf::Mouse::Left: return 0;
        case sf::Mouse::Right: return 1;
        case sf::Mouse::Middle: return 2;
        default: return -1;
    }
}

}  // namespace

bool ImGuiBridge::init(sf::RenderWindow& window, float scale) {
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // layout is ours, not a file in the working directory
    io.BackendPlatformName = "vedette_sfml";
    using K = sf::Keyboard;
    io.KeyMap[ImGuiKey_Tab] = K::Tab;
    io.KeyMap[ImGuiKey_LeftArrow] = K::Left;
    io.KeyMap[ImGuiKey_RightArrow] = K::Right;
    io.KeyMap[ImGuiKey_UpArrow] = K::Up;
    io.KeyMap[ImGuiKey_DownArrow] = K::Down;
    io.KeyMap[ImGuiKey_PageUp] = K::PageUp;
    io.KeyMap[ImGuiKey_PageDown] = K::PageDown;
    io.KeyMap[ImGuiKey_Home] = K::Home;
    io.KeyMap[ImGuiKey_End] = K::End;
    io.KeyMap[ImGuiKey_Insert] = K::Insert;
    io.KeyMap[ImGuiKey_Delete] = K::Delete;
    io.KeyMap[ImGuiKey_Backspace] = K::BackSpace;
    io.KeyMap[ImGuiKey_Space] = K::Space;
    io.KeyMap[ImGuiKey_Enter] = K::Return;
    io.KeyMap[ImGuiKey_Escape] = K::Escape;
    io.KeyMap[ImGuiKey_KeyPadEnter] = K::Return;
    io.KeyMap[ImGuiKey_A] = K::A;
    io.KeyMap[ImGuiKey_C] = K::C;
    io.KeyMap[ImGuiKey_V] = K::V;
    io.KeyMap[ImGuiKey_X] = K::X;
    io.KeyMap[ImGuiKey_Y] = K::Y;
    io.KeyMap[ImGuiKey_Z] = K::Z;
    io.GetClipboardTextFn = get_clipboard;
    io.SetClipboardTextFn = set_clipboard;
    io.DisplaySize = ImVec2(static_cast<float>(window.getSize().x), static_cast<float>(window.getSize().y));
    window.setActive(true);
    ImGui_ImplOpenGL2_Init();
    build_fonts(scale);
    ready_ = true;
    return true;
}

void ImGuiBridge::build_fonts(float scale) {
    scale_ = scale;
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    const float px = 15.0f * scale;
    auto add = [&](FontStyle st) -> ImFont* {
        const std::string path = find_font(st);
        ImFontConfig cfg;
        cfg.OversampleH = 2;
        if (!path.empty()) {
            static const ImWchar ranges[] = {0x0020, 0x00FF, 0x0100, 0x017F, 0x2010, 0x2027, 0x2190, 0x21FF, 0x25A0, 0x25FF, 0x2600, 0x26FF, 0};
            if (ImFont* f = io.Fonts->AddFontFromFileTTF(path.c_str(), px, &cfg, ranges)) return f;
        }
        cfg.SizePixels = 13.0f * scale;
        return io.Fonts->AddFontDefault(&cfg);
    };
    fonts_.regular = add(FontStyle::Sans);
    fonts_.bold = add(FontStyle::SansBold);
    fonts_.mono = add(FontStyle::Mono);
    ImGui_ImplOpenGL2_DestroyFontsTexture();
    ImGui_ImplOpenGL2_CreateFontsTexture();
    ImGuiStyle style;
    ImGui::StyleColorsLight(&style);
    style.WindowRounding = 3.0f;
    style.FrameRounding = 2.0f;
    style.GrabRounding = 2.0f;
    style.WindowBorderSize = 1.0f;
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0.96f, 0.94f, 0.89f, 1.0f);  // parchment
    style.Colors[ImGuiCol_TitleBgActive] = ImVec4(0.84f, 0.72f, 0.52f, 1.0f);
    style.Colors[ImGuiCol_TitleBg] = ImVec4(0.88f, 0.82f, 0.70f, 1.0f);
    style.Colors[ImGuiCol_PopupBg] = ImVec4(0.99f, 0.97f, 0.92f, 0.98f);
    style.Colors[ImGuiCol_SliderGrab] = ImVec4(0.75f, 0.45f, 0.12f, 1.0f);
    style.Colors[ImGuiCol_SliderGrabActive] = ImVec4(0.85f, 0.50f, 0.10f, 1.0f);
    style.Colors[ImGuiCol_CheckMark] = ImVec4(0.70f, 0.35f, 0.05f, 1.0f);
    style.Colors[ImGuiCol_Text] = ImVec4(0.12f, 0.10f, 0.08f, 1.0f);
    style.Colors[ImGuiCol_Button] = ImVec4(0.78f, 0.72f, 0.60f, 1.0f);
    style.Colors[ImGuiCol_ButtonHovered] = ImVec4(0.88f, 0.78f, 0.55f, 1.0f);
    style.Colors[ImGuiCol_ButtonActive] = ImVec4(0.95f, 0.70f, 0.35f, 1.0f);
    style.Colors[ImGuiCol_Header] = ImVec4(0.82f, 0.76f, 0.63f, 1.0f);
    style.Colors[ImGuiCol_HeaderHovered] = ImVec4(0.90f, 0.80f, 0.58f, 1.0f);
    style.Colors[ImGuiCol_FrameBg] = ImVec4(1.0f, 0.99f, 0.96f, 1.0f);
    style.ScaleAllSizes(scale);
    ImGui::GetStyle() = style;
}

void ImGuiBridge::shutdown() {
    if (!ready_) return;
    ImGui_ImplOpenGL2_Shutdown();
    ImGui::DestroyContext();
    ready_ = false;
}

void ImGuiBridge::process_event(const sf::Event& e) {
    ImGuiIO& io = ImGui::GetIO();
    switch (e.type) {
        case sf::Event::MouseMoved:
            io.MousePos = ImVec2(static_cast<float>(e.mouseMove.x), static_cast<float>(e.mouseMove.y));
            break;
        case sf::Event::MouseButtonPressed:
        case sf::Event::MouseButtonReleased: {
            const int i = mouse_index(e.mouseButton.button);
            if (i >= 0) io.MouseDown[i] = e.type == sf::Event::MouseButtonPressed;
            io.MousePos = ImVec2(static_cast<float>(e.mouseButton.x), static_cast<float>(e.mouseButton.y));
            break;
        }
        case sf::Event::MouseWheelScrolled:
            if (e.mouseWheelScroll.wheel == sf::Mouse::VerticalWheel) io.MouseWheel += e.mouseWheelScroll.delta;
            else io.MouseWheelH += e.mouseWheelScroll.delta;
            break;
        case sf::Event::KeyPressed:
        case sf::Event::KeyReleased: {
            const bool down = e.type == sf::Event::KeyPressed;
            if (e.key.code >= 0 && e.key.code < 512) io.KeysDown[e.key.code] = down;
            io.KeyCtrl = e.key.control;
            io.KeyShift = e.key.shift;
            io.KeyAlt = e.key.alt;
            io.KeySuper = e.key.system;
            break;
        }
        case sf::Event::TextEntered:
            if (e.text.unicode >= 32 && e.text.unicode != 127) io.AddInputCharacter(e.text.unicode);
            break;
        case sf::Event::GainedFocus: io.AddFocusEvent(true); break;
        case sf::Event::LostFocus: io.AddFocusEvent(false); break;
        case sf::Event::MouseLeft: io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX); break;
        default: break;
    }
}

void ImGuiBridge::new_frame(sf::RenderWindow& window, float dt) {
    if (pending_scale_ > 0.0f) {
        build_fonts(pending_scale_);
        pending_scale_ = 0.0f;
    }
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(window.getSize().x), static_cast<float>(window.getSize().y));
    io.DeltaTime = dt > 0.0f ? dt : 1.0f / 60.0f;
    ImGui_ImplOpenGL2_NewFrame();
    ImGui::NewFrame();
}

void ImGuiBridge::render(sf::RenderWindow& window) {
    ImGui::Render();
    window.pushGLStates();
    ImGui_ImplOpenGL2_RenderDrawData(ImGui::GetDrawData());
    window.popGLStates();
    // The backend leaves its scissor box and texture binding behind; SFML's render textures and
    // font pages (which copy textures with framebuffer blits) share this context, so clear them.
    glDisable(GL_SCISSOR_TEST);
    glBindTexture(GL_TEXTURE_2D, 0);
    window.resetGLStates();
}

bool ImGuiBridge::wants_mouse() const { return ImGui::GetIO().WantCaptureMouse; }
bool ImGuiBridge::wants_keyboard() const { return ImGui::GetIO().WantCaptureKeyboard; }

}  // namespace vedette::gui
