// The desktop client: start screen, board, panels, hot-seat hand-over, AI in the background,
// saves, replay. It drives the game only through session::Session's actions()/apply() door and
// draws only what Session::view(role) gives the viewing role.
#pragma once

#include <SFML/Graphics.hpp>
#include <atomic>
#include <future>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "board.hpp"
#include "core/action.hpp"
#include "core/defs.hpp"
#include "imgui_sfml_bridge.hpp"
#include "map_renderer.hpp"
#include "script_input.hpp"
#include "session/bot.hpp"
#include "session/session.hpp"
#include "view_model.hpp"

namespace vedette::script {
class RulesHost;
}

namespace vedette::gui {

struct AppOptions {
    std::string module_dir;
    std::string scenario;
    std::optional<std::uint64_t> seed;
    std::string load, replay;
    std::vector<std::string> ai_roles;  // "ROLE" (random bot) or "ROLE=KIND"
    std::string screenshot;
    int frames = 0;
    std::string script;
    float ui_scale = 1.0f;
    unsigned width = 1600, height = 1000;
};

class App {
public:
    explicit App(AppOptions opts);
    ~App();
    int run();

private:
    enum class Screen { Start, Game, Replay };

    // ---- module, game, replay ----
    bool open_module(const std::string& dir);
    bool start_game();
    bool open_save(const std::string& path, bool as_replay);
    bool save_game(const std::string& path);
    void after_change(bool phase_may_change);
    void refresh();
    void apply_action(const std::string& role, const std::string& text);
    void undo();
    void replay_goto(size_t pos);
    void replay_jump(int turn, const std::string& phase);
    std::string data_dir() const;
    std::string side_name(const std::string& id) const;
    sf::Color side_color(const std::string& id) const;

    // ---- AI ----
    void poll_ai();
    void cancel_ai();

    // ---- input ----
    void handle_event(const sf::Event& e);
    void click_hex(const std::string& label);
    void click_piece(const std::string& id);
    void choose(size_t index);
    void key_command(const std::string& combo);
    void fit_map();
    void update_viewport();
    std::string hex_label_at(sf::Vector2f screen) const;

    // ---- drawing ----
    void draw_frame();
    void ui_menu();
    void ui_start();
    void ui_panel();
    void ui_log();
    // The log panel's lines (turn headings, actions, dice, events and, when show_notes_, the
    // AI's debug notes), built from log_ as the viewer may see it; ui_log draws them.
    struct LogLine {
        enum class Kind { Heading, Action, Roll, Event, Note } kind;
        std::string role, text;
    };
    std::vector<LogLine> log_lines() const;
    void ui_chooser();
    void ui_handover();
    void ui_dialogs();
    void ui_stack_viewer();
    void ui_replay_bar();
    void take_screenshot(const std::string& path);

    // ---- script ----
    void run_script_step();
    bool script_error(const ScriptCommand& c, const std::string& msg);

    AppOptions opts_;
    sf::RenderWindow window_;
    ImGuiBridge imgui_;
    sf::Font font_, bold_;
    Screen screen_ = Screen::Start;

    std::shared_ptr<const core::ModuleDef> def_;
    std::shared_ptr<script::RulesHost> rules_;
    std::unique_ptr<MapRenderer> map_;
    std::string module_error_;
    std::string module_dir_input_;

    // start screen choices
    std::string scenario_;
    std::set<std::string> options_;
    std::map<std::string, std::string> controller_;  // side id -> "human" | "ai"
    std::map<std::string, std::string> bot_kind_;    // side id -> session::make_bot kind
    std::uint64_t seed_ = 1;

    std::optional<session::Session> session_;
    std::string viewer_;       // role whose view is drawn ("" = everything: AI-vs-AI, replay)
    std::string handover_to_;  // pending hot-seat hand-over
    ViewModel view_;
    std::vector<core::Action> actions_;
    nlohmann::json log_;
    std::string refusal_, status_;
    std::uint64_t generation_ = 1;
    int last_turn_ = -1;
    int last_phase_ = -1;

    // replay
    nlohmann::json replay_save_;
    std::vector<std::pair<size_t, session::Session>> replay_checkpoints_;
    size_t replay_pos_ = 0, replay_len_ = 0;
    std::string replay_error_;

    // AI
    std::map<std::string, std::unique_ptr<session::Bot>> bots_;
    std::shared_ptr<script::RulesHost> ai_rules_;
    std::future<std::string> ai_job_;
    std::string ai_role_;
    sf::Clock ai_clock_;
    float ai_delay_ = 0.25f;
    std::string ai_error_;

    // board interaction
    Camera cam_;
    Highlights hl_;
    bool colour_blind_ = false;
    bool show_overview_ = true;
    bool show_art_ = true;  // the module's map art, when it has some (View menu)
    bool show_notes_ = false;  // the AI's reasoning (private debug notes) in the log (View menu)
    std::string selected_piece_;
    std::vector<std::string> chooser_;        // entries: action texts, or "select:<piece id>"
    std::vector<std::string> chooser_labels_;
    bool chooser_open_ = false;
    sf::Vector2f chooser_pos_;
    std::string hover_hex_;
    bool dragging_ = false, mouse_down_ = false;
    std::string drag_piece_;     // piece being dragged to a destination (drag-and-drop move)
    bool drag_piece_active_ = false;
    sf::Vector2i press_pos_, last_mouse_;
    sf::FloatRect overview_rect_;
    float panel_width_ = 420;
    sf::FloatRect panel_bg_;  // set by ui_panel(), painted by draw_frame()
    sf::Color panel_bg_color_;
    float menu_height_ = 22;

    // dialogs
    bool show_save_ = false, show_open_ = false, show_about_ = false, show_keys_ = false;
    bool open_as_replay_ = false;
    char path_buf_[1024] = {};
    std::string about_text_;

    // script
    std::vector<ScriptCommand> script_;
    size_t script_pos_ = 0;
    int script_wait_ = 0;
    int script_ai_wait_ = 0;
    bool script_failed_ = false;
    std::vector<std::string> pending_shots_;
    struct PixelCheck {  // expect-pixel: checked once the frame is drawn
        ScriptCommand command;
        sf::Vector2f world;  // the point sampled
        sf::Vector2i at;     // its window pixel, when checked
        sf::Color want;
        int tolerance = 0;
    };
    std::vector<PixelCheck> pending_pixels_;
    void check_pixels();
    int frame_no_ = 0;
    std::vector<double> frame_ms_;  // VEDETTE_TIMING: drawing time of each frame
    double frame_cpu_ms_ = 0;       // and the CPU time they took
    int idle_frames_ = 0;
    bool quit_ = false;
};

}  // namespace vedette::gui
