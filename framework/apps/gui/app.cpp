#include "app.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>
#include <SFML/OpenGL.hpp>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "counters.hpp"
#include "data/loader.hpp"
#include "draw_util.hpp"
#include "fonts.hpp"
#include "script/rules_host.hpp"

namespace vedette::gui {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

ImVec4 to_im(sf::Color c) { return ImVec4(c.r / 255.f, c.g / 255.f, c.b / 255.f, c.a / 255.f); }

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

// Draws one die face with pips into the current ImGui window.
void die_face(int value, int sides, float size) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    dl->AddRectFilled(p, ImVec2(p.x + size, p.y + size), IM_COL32(252, 250, 244, 255), size * 0.18f);
    dl->AddRect(p, ImVec2(p.x + size, p.y + size), IM_COL32(40, 34, 28, 255), size * 0.18f, 0, 1.5f);
    const float r = size * 0.09f;
    auto pip = [&](float x, float y) { dl->AddCircleFilled(ImVec2(p.x + x * size, p.y + y * size), r, IM_COL32(30, 26, 22, 255)); };
    if (sides == 6 && value >= 1 && value <= 6) {
        if (value % 2 == 1) pip(0.5f, 0.5f);
        if (value >= 2) pip(0.25f, 0.25f), pip(0.75f, 0.75f);
        if (value >= 4) pip(0.75f, 0.25f), pip(0.25f, 0.75f);
        if (value == 6) pip(0.25f, 0.5f), pip(0.75f, 0.5f);
    } else {
        const std::string t = std::to_string(value);
        const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
        dl->AddText(ImVec2(p.x + (size - ts.x) / 2, p.y + (size - ts.y) / 2), IM_COL32(30, 26, 22, 255), t.c_str());
    }
    ImGui::Dummy(ImVec2(size, size));
}

}  // namespace

// =============================================================================================
App::App(AppOptions opts) : opts_(std::move(opts)) {}

App::~App() {
    cancel_ai();
    imgui_.shutdown();
}

std::string App::data_dir() const {
    if (const char* d = std::getenv("VEDETTE_DATA_DIR")) return d;
    if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x) return std::string(x) + "/vedette";
    if (const char* h = std::getenv("HOME")) return std::string(h) + "/.local/share/vedette";
    return "vedette-data";
}

std::string App::side_name(const std::string& id) const {
    if (def_)
        if (int i = def_->side_index(id); i >= 0) return def_->sides[static_cast<size_t>(i)].name;
    return id.empty() ? std::string("nobody") : id;
}

sf::Color App::side_color(const std::string& id) const {
    if (def_)
        if (int i = def_->side_index(id); i >= 0) return parse_color(def_->sides[static_cast<size_t>(i)].color, sf::Color(120, 120, 120));
    return sf::Color(120, 120, 120);
}

// ---- module and game -------------------------------------------------------------------------

bool App::open_module(const std::string& dir) {
    cancel_ai();
    module_error_.clear();
    data::LoadResult r = data::load_module(dir);
    if (!r.ok()) {
        std::ostringstream ss;
        for (size_t i = 0; i < r.errors.size() && i < 20; ++i) ss << r.errors[i].str() << "\n";
        if (r.errors.size() > 20) ss << "... " << r.errors.size() - 20 << " more\n";
        module_error_ = "Cannot load " + dir + ":\n" + ss.str();
        return false;
    }
    try {
        rules_ = std::shared_ptr<script::RulesHost>(script::RulesHost::load(r.module));
    } catch (const std::exception& e) {
        module_error_ = "The module's rules do not load: " + std::string(e.what());
        return false;
    }
    def_ = r.module;
    ai_rules_.reset();
    session_.reset();
    map_ = std::make_unique<MapRenderer>(def_->map, font_, bold_);
    if (std::string why; !map_->load_art(def_->dir, &why)) status_ = why + "; the drawn map is shown instead.";
    map_->show_art(show_art_);
    module_dir_input_ = dir;
    scenario_ = def_->scenarios.empty() ? "" : def_->scenarios.front().id;
    if (!opts_.scenario.empty() && def_->scenario(opts_.scenario)) scenario_ = opts_.scenario;
    options_.clear();
    for (const auto& o : def_->options)
        if (o.default_on) options_.insert(o.id);
    controller_.clear();
    bot_kind_.clear();
    for (const auto& s : def_->sides) {
        controller_[s.id] = "human";
        bot_kind_[s.id] = "random";
    }
    // --ai ROLE: the random bot; --ai ROLE=KIND: the bot kind KIND (ai-easy, ai, ai-hard, ...)
    for (const std::string& r : opts_.ai_roles) {
        const auto eq = r.find('=');
        const std::string role = r.substr(0, eq);
        if (!controller_.count(role)) continue;
        controller_[role] = "ai";
        bot_kind_[role] = eq == std::string::npos ? "random" : r.substr(eq + 1);
    }
    about_text_.clear();
    for (const char* doc : {"SOURCES.md", "MAP.md", "README.md"}) {
        const std::string t = read_text(def_->dir + "/" + doc);
        if (!t.empty()) about_text_ += std::string("==== ") + doc + " ====\n\n" + t + "\n\n";
    }
    fit_map();
    ++generation_;
    return true;
}

bool App::start_game() {
    if (!def_) return false;
    const core::ScenarioDef* sc = def_->scenario(scenario_);
    if (!sc) {
        status_ = "Choose a scenario first.";
        return false;
    }
    cancel_ai();
    session::Setup setup;
    setup.scenario = sc->id;
    setup.seed = seed_;
    setup.options = options_;
    try {
        session_ = session::Session::start(def_, rules_, *sc, setup);
    } catch (const std::exception& e) {
        status_ = std::string("Cannot start: ") + e.what();
        session_.reset();
        return false;
    }
    bots_.clear();
    viewer_.clear();
    for (const auto& s : def_->sides)
        if (controller_[s.id] == "human" && viewer_.empty()) viewer_ = s.id;
    const std::string d = session_->decider();
    if (!d.empty() && controller_[d] == "human") viewer_ = d;
    handover_to_.clear();
    screen_ = Screen::Game;
    selected_piece_.clear();
    refusal_.clear();
    last_turn_ = -1;
    after_change(true);
    status_ = "New game: " + sc->name + ", seed " + std::to_string(seed_);
    return true;
}

bool App::save_game(const std::string& path) {
    if (!session_ || screen_ != Screen::Game) {
        status_ = "No game to save.";
        return false;
    }
    try {
        std::error_code ec;
        fs::create_directories(fs::path(path).parent_path(), ec);
        session_->save(path);
        status_ = "Saved " + path;
        return true;
    } catch (const std::exception& e) {
        status_ = std::string("Save failed: ") + e.what();
        return false;
    }
}

bool App::open_save(const std::string& path, bool as_replay) {
    json j;
    try {
        j = session::Session::read_json_file(path);
    } catch (const std::exception& e) {
        status_ = e.what();
        return false;
    }
    // The save names its module; load it when it is not the one open.
    const std::string mod_id = j.contains("module") && j["module"].is_object() ? j["module"].value("id", "") : "";
    const std::string mod_path = j.contains("module") && j["module"].is_object() ? j["module"].value("path", "") : "";
    if (!def_ || def_->id != mod_id) {
        if (mod_path.empty() || !open_module(mod_path)) {
            status_ = "This save is for module '" + mod_id + "'; open that module first. " + module_error_;
            return false;
        }
    }
    cancel_ai();
    try {
        if (!as_replay) {
            session_ = session::Session::from_json(def_, rules_, j);
            bots_.clear();
            viewer_.clear();
            for (const auto& s : def_->sides)
                if (controller_[s.id] == "human" && viewer_.empty()) viewer_ = s.id;
            const std::string d = session_->decider();
            if (!d.empty() && controller_[d] == "human") viewer_ = d;
            handover_to_.clear();
            screen_ = Screen::Game;
            last_turn_ = -1;
            after_change(true);
            status_ = "Opened " + path;
            return true;
        }
        // Replay: rebuild from the scenario and the save's setup, then re-apply the log.
        replay_save_ = j;
        replay_checkpoints_.clear();
        replay_error_.clear();
        session::Setup setup;
        const json& sj = j.at("setup");
        setup.scenario = sj.value("scenario", "");
        setup.seed = sj.value("seed", std::uint64_t{1});
        if (sj.contains("options"))
            for (const auto& o : sj["options"]) setup.options.insert(o.get<std::string>());
        if (sj.contains("forced_dice"))
            for (const auto& d : sj["forced_dice"]) setup.forced_dice.push_back(d.get<int>());
        const core::ScenarioDef* sc = def_->scenario(setup.scenario);
        if (!sc) throw std::runtime_error("the save's scenario '" + setup.scenario + "' is not in the module");
        session::Session s = session::Session::start(def_, rules_, *sc, setup);
        replay_checkpoints_.emplace_back(0, s);
        replay_len_ = j.at("log").size();
        screen_ = Screen::Replay;
        viewer_.clear();
        handover_to_.clear();
        replay_goto(0);
        status_ = "Replay of " + path + " (" + std::to_string(replay_len_) + " actions)";
        return true;
    } catch (const std::exception& e) {
        status_ = std::string("Cannot open ") + path + ": " + e.what();
        return false;
    }
}

void App::replay_goto(size_t pos) {
    pos = std::min(pos, replay_len_);
    // Start from the last checkpoint at or before pos, re-apply the log entries after it.
    size_t k = 0;
    for (size_t i = 0; i < replay_checkpoints_.size(); ++i)
        if (replay_checkpoints_[i].first <= pos) k = i;
    session::Session s = replay_checkpoints_[k].second;
    const json& log = replay_save_["log"];
    for (size_t i = replay_checkpoints_[k].first; i < pos; ++i) {
        const std::string role = log[i].value("role", ""), action = log[i].value("action", "");
        const session::ApplyResult r = s.apply(role, action);
        if (!r.ok) {
            replay_error_ = "Entry " + std::to_string(i + 1) + " (" + role + ": " + action + ") is refused on replay: " + r.refusal;
            pos = i;
            break;
        }
        const std::string h = log[i].value("hash", "");
        if (!h.empty() && !s.log().empty() && s.log().back().hash != h && replay_error_.empty())
            replay_error_ = "Entry " + std::to_string(i + 1) + " gives a different state than the save recorded.";
        if ((i + 1) % 25 == 0 && replay_checkpoints_.back().first < i + 1) replay_checkpoints_.emplace_back(i + 1, s);
    }
    session_ = std::move(s);
    replay_pos_ = pos;
    refresh();
}

void App::replay_jump(int turn, const std::string& phase) {
    const json& log = replay_save_["log"];
    const int want_phase = def_->phase_index(phase);
    for (size_t k = 0; k < log.size(); ++k) {
        const int t = log[k].value("turn", 0);
        const int p = def_->phase_index(log[k].value("phase", ""));
        if (t > turn || (t == turn && (want_phase < 0 || p >= want_phase))) {
            replay_goto(k + 1);
            return;
        }
    }
    replay_goto(log.size());
}

void App::after_change(bool) {
    if (!session_) return;
    const auto& st = session_->state();
    if (last_turn_ >= 0 && (st.turn != last_turn_ || st.phase != last_phase_) && screen_ == Screen::Game) {
        // Autosave at every phase change, into the user's data dir.
        const std::string path = data_dir() + "/autosave/" + def_->id + ".json";
        try {
            std::error_code ec;
            fs::create_directories(fs::path(path).parent_path(), ec);
            session_->save(path);
        } catch (const std::exception& e) {
            status_ = std::string("Autosave failed: ") + e.what();
        }
    }
    last_turn_ = st.turn;
    last_phase_ = st.phase;
    // Hot-seat: when the decider changes between two humans, hand the screen over.
    const std::string d = session_->decider();
    int humans = 0;
    for (const auto& [side, who] : controller_) humans += who == "human";
    if (screen_ == Screen::Game && !d.empty() && controller_[d] == "human" && d != viewer_) {
        if (humans >= 2 && !viewer_.empty()) handover_to_ = d;
        else viewer_ = d;
    }
    if (humans == 0 && screen_ == Screen::Game) viewer_.clear();
    refresh();
}

void App::refresh() {
    if (!session_) return;
    view_ = ViewModel::parse(session_->view(viewer_), *def_);
    actions_.clear();
    const std::string d = session_->decider();
    const bool human_turn = screen_ == Screen::Game && !d.empty() && controller_[d] == "human" && d == viewer_ &&
                            handover_to_.empty();
    if (human_turn) {
        try {
            actions_ = session_->actions(d);
        } catch (const std::exception& e) {
            refusal_ = std::string("The rules failed to list the actions: ") + e.what();
        }
    }
    log_ = session_->log_json(viewer_);
    if (!selected_piece_.empty()) {
        bool still = false;
        for (const auto& a : actions_) still = still || contains(a.pieces, selected_piece_);
        if (!still) selected_piece_.clear();
    }
    hl_ = Highlights{};
    hl_.colors = colour_blind_ ? HighlightColors::colour_blind_safe() : HighlightColors::standard();
    hl_.selected_piece = selected_piece_;
    for (const auto& a : actions_) {
        if (!selected_piece_.empty()) {
            if (contains(a.pieces, selected_piece_))
                for (const auto& h : a.hexes) hl_.target_hexes.insert(h);
            continue;
        }
        // Without a selection: the pieces that can act, and the hexes of actions that name no
        // piece (a move's destinations appear once its piece is selected).
        if (a.pieces.empty())
            for (const auto& h : a.hexes) hl_.hexes.insert(h);
        for (const auto& p : a.pieces) hl_.pieces.insert(p);
    }
    ++generation_;
}

void App::apply_action(const std::string& role, const std::string& text) {
    if (!session_ || screen_ != Screen::Game) return;
    try {
        const session::ApplyResult r = session_->apply(role, text);
        if (!r.ok) {
            refusal_ = r.refusal;
            return;
        }
        refusal_.clear();
    } catch (const std::exception& e) {
        refusal_ = std::string("Module error: ") + e.what();
        return;
    }
    selected_piece_.clear();
    chooser_open_ = false;
    ai_clock_.restart();
    after_change(true);
}

void App::undo() {
    if (!session_ || screen_ != Screen::Game) return;
    std::string why;
    const std::string role = session_->log().empty() ? viewer_ : session_->log().back().role;
    if (controller_[role] != "human" || (role != viewer_ && !viewer_.empty())) {
        refusal_ = "Cannot undo: the last action was " + side_name(role) + "'s; undo is for your own actions.";
        return;
    }
    if (!session_->undo(role, &why)) {
        refusal_ = "Cannot undo: " + why;
        return;
    }
    refusal_.clear();
    selected_piece_.clear();
    status_ = "Undone.";
    after_change(true);
}

// ---- AI --------------------------------------------------------------------------------------

void App::cancel_ai() {
    if (ai_job_.valid()) ai_job_.wait();  // the bot cannot be interrupted; it is quick
    ai_job_ = {};
    ai_role_.clear();
}

void App::poll_ai() {
    if (!session_ || screen_ != Screen::Game) return;
    if (ai_job_.valid()) {
        if (ai_job_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
        std::string text;
        try {
            text = ai_job_.get();
        } catch (const std::exception& e) {
            ai_error_ = std::string("AI error: ") + e.what();
        }
        const std::string role = ai_role_;
        ai_job_ = {};
        ai_role_.clear();
        if (!text.empty() && session_->decider() == role) {
            const size_t logged = session_->log().size();
            apply_action(role, text);
            // the bot's reasoning: a debug note in the log, private to its role
            if (session_ && session_->log().size() == logged + 1 && bots_.count(role))
                session_->annotate_last(role, bots_[role]->explain());
        } else if (text.empty() && ai_error_.empty()) ai_error_ = side_name(role) + " (AI) has no legal action.";
        return;
    }
    const std::string d = session_->decider();
    if (d.empty() || controller_[d] != "ai" || !ai_error_.empty()) return;
    if (ai_clock_.getElapsedTime().asSeconds() < ai_delay_) return;
    if (!bots_.count(d)) {
        std::string why;
        const std::string kind = bot_kind_.count(d) ? bot_kind_[d] : "random";
        bots_[d] = session::make_bot(kind, seed_ ^ std::hash<std::string>{}(d), &why);
        if (!bots_[d]) {
            ai_error_ = "No bot: " + why;
            return;
        }
    }
    // The bot works on its own copy of the game with its own rules host, in a thread, so the
    // window never waits for it and no Lua state is shared between threads.
    ai_role_ = d;
    json snapshot = session_->to_json();
    auto def = def_;
    session::Bot* bot = bots_[d].get();
    ai_job_ = std::async(std::launch::async, [this, snapshot = std::move(snapshot), def, bot, d]() -> std::string {
        if (!ai_rules_) ai_rules_ = std::shared_ptr<script::RulesHost>(script::RulesHost::load(def));
        session::Session copy = session::Session::from_json(def, ai_rules_, snapshot);
        copy.set_record_hashes(false);
        return bot->choose(copy, d);
    });
}

// ---- input -----------------------------------------------------------------------------------

void App::update_viewport() {
    const sf::Vector2u ws = window_.getSize();
    panel_width_ = std::min(440.0f * imgui_.scale(), ws.x * 0.45f);
    menu_height_ = ImGui::GetFrameHeight();
    cam_.window_size = ws;
    cam_.viewport = {0, menu_height_, std::max(1.0f, ws.x - panel_width_), std::max(1.0f, ws.y - menu_height_)};
    const float ow = std::min(260.0f * imgui_.scale(), cam_.viewport.width * 0.3f);
    overview_rect_ = {cam_.viewport.left + 10, cam_.viewport.top + cam_.viewport.height - ow * 0.75f - 10, ow, ow * 0.75f};
}

void App::fit_map() {
    if (!map_) return;
    update_viewport();
    const sf::FloatRect b = map_->world_bounds();
    cam_.center = {b.left + b.width / 2, b.top + b.height / 2};
    cam_.zoom = std::min(cam_.viewport.width / b.width, cam_.viewport.height / b.height) * 0.98f;
}

std::string App::hex_label_at(sf::Vector2f screen) const {
    if (!map_ || !cam_.viewport.contains(screen)) return {};
    const core::HexDef* h = map_->hex_at(cam_.to_world(screen));
    if (!h) return {};
    return def_->map.label(h->hex);
}

void App::click_piece(const std::string& id) {
    const PieceView* p = view_.piece(id);
    if (!p) {
        refusal_ = "No piece '" + id + "' in your view.";
        return;
    }
    std::vector<std::string> entries, labels;
    for (const auto& a : actions_)
        if (contains(a.pieces, id) && a.hexes.empty()) {
            entries.push_back(a.text());
            labels.push_back(a.label.empty() ? a.text() : a.label);
        }
    bool has_targets = false;
    for (const auto& a : actions_) has_targets = has_targets || (contains(a.pieces, id) && !a.hexes.empty());
    if (has_targets) {
        if (entries.empty()) {
            selected_piece_ = selected_piece_ == id ? std::string() : id;
            refresh();
            return;
        }
        entries.push_back("select:" + id);
        labels.push_back("Select " + counter_description(*def_, *p) + " (then click a hex)");
    }
    if (entries.empty()) {
        refusal_ = "No legal action for " + counter_description(*def_, *p) + " now.";
        return;
    }
    if (entries.size() == 1) {
        apply_action(session_->decider(), entries[0]);
        return;
    }
    chooser_ = entries;
    chooser_labels_ = labels;
    chooser_open_ = true;
    chooser_pos_ = sf::Vector2f(sf::Mouse::getPosition(window_));
}

void App::click_hex(const std::string& label) {
    if (!session_ || screen_ != Screen::Game || label.empty()) return;
    chooser_open_ = false;
    // 1. With a piece selected: the actions that take that piece to this hex.
    std::vector<std::string> entries, labels;
    if (!selected_piece_.empty()) {
        for (const auto& a : actions_)
            if (contains(a.pieces, selected_piece_) && contains(a.hexes, label)) {
                entries.push_back(a.text());
                labels.push_back(a.label.empty() ? a.text() : a.label);
            }
        if (entries.empty()) {
            selected_piece_.clear();
            refresh();
        }
    }
    if (entries.empty()) {
        // 2. Actions about this hex, and pieces here that some action concerns.
        for (const auto& a : actions_)
            if (contains(a.hexes, label) && a.pieces.empty()) {
                entries.push_back(a.text());
                labels.push_back(a.label.empty() ? a.text() : a.label);
            }
        std::vector<std::string> pieces_here;
        if (const StackView* st = view_.stack_at(label))
            for (auto it = st->pieces.rbegin(); it != st->pieces.rend(); ++it) {
                const std::string& pid = view_.pieces[static_cast<size_t>(*it)].id;
                for (const auto& a : actions_)
                    if (contains(a.pieces, pid)) {
                        pieces_here.push_back(pid);
                        break;
                    }
            }
        if (entries.empty() && pieces_here.size() == 1) return click_piece(pieces_here[0]);
        for (const auto& pid : pieces_here) {
            entries.push_back("select:" + pid);
            labels.push_back("Select " + counter_description(*def_, *view_.piece(pid)));
        }
        // Actions about pieces here with the hex as their target too (e.g. attack this hex).
        for (const auto& a : actions_)
            if (contains(a.hexes, label) && !a.pieces.empty() && !contains(entries, a.text())) {
                bool any_here = false;
                for (const auto& p : a.pieces) any_here = any_here || contains(pieces_here, p);
                if (!any_here) {
                    entries.push_back(a.text());
                    labels.push_back(a.label.empty() ? a.text() : a.label);
                }
            }
    }
    if (entries.empty()) {
        refusal_ = "Nothing to do at " + label + " now.";
        return;
    }
    if (entries.size() == 1) {
        chooser_ = entries;
        chooser_labels_ = labels;
        choose(0);
        return;
    }
    chooser_ = entries;
    chooser_labels_ = labels;
    chooser_open_ = true;
    chooser_pos_ = sf::Vector2f(sf::Mouse::getPosition(window_));
}

void App::choose(size_t i) {
    if (i >= chooser_.size()) return;
    const std::string e = chooser_[i];
    chooser_open_ = false;
    chooser_.clear();
    if (e.rfind("select:", 0) == 0) {
        const std::string id = e.substr(7);
        bool direct_only = true;
        for (const auto& a : actions_) direct_only = direct_only && !(contains(a.pieces, id) && !a.hexes.empty());
        if (direct_only) return click_piece(id);
        selected_piece_ = id;
        refresh();
        return;
    }
    apply_action(session_->decider(), e);
}

void App::key_command(const std::string& combo) {
    if (combo == "ctrl+z") undo();
    else if (combo == "ctrl+s") {
        show_save_ = true;
        const std::string def_path = data_dir() + "/saves/" + (def_ ? def_->id : "game") + "-turn" +
                                     std::to_string(view_.turn) + "-" + view_.phase + ".json";
        std::snprintf(path_buf_, sizeof path_buf_, "%s", def_path.c_str());
    } else if (combo == "ctrl+o") {
        show_open_ = true;
        open_as_replay_ = false;
    } else if (combo == "escape") {
        chooser_open_ = false;
        if (!selected_piece_.empty()) {
            selected_piece_.clear();
            refresh();
        }
    } else if (combo == "home") fit_map();
    else if (combo == "plus") cam_.zoom_at({cam_.viewport.left + cam_.viewport.width / 2, cam_.viewport.top + cam_.viewport.height / 2}, 1.25f, 0.05f, 8.0f);
    else if (combo == "minus") cam_.zoom_at({cam_.viewport.left + cam_.viewport.width / 2, cam_.viewport.top + cam_.viewport.height / 2}, 0.8f, 0.05f, 8.0f);
    else if (combo == "left" && screen_ == Screen::Replay) replay_goto(replay_pos_ > 0 ? replay_pos_ - 1 : 0);
    else if (combo == "right" && screen_ == Screen::Replay) replay_goto(replay_pos_ + 1);
}

void App::handle_event(const sf::Event& e) {
    imgui_.process_event(e);
    if (e.type == sf::Event::Closed) quit_ = true;
    if (e.type == sf::Event::Resized) {
        window_.setView(sf::View(sf::FloatRect(0, 0, static_cast<float>(e.size.width), static_cast<float>(e.size.height))));
        update_viewport();
    }
    const bool board = (screen_ == Screen::Game || screen_ == Screen::Replay) && map_ && handover_to_.empty();
    if (e.type == sf::Event::KeyPressed && !imgui_.wants_keyboard()) {
        std::string k;
        switch (e.key.code) {
            case sf::Keyboard::Z: k = e.key.control ? "ctrl+z" : ""; break;
            case sf::Keyboard::S: k = e.key.control ? "ctrl+s" : ""; break;
            case sf::Keyboard::O: k = e.key.control ? "ctrl+o" : ""; break;
            case sf::Keyboard::Escape: k = "escape"; break;
            case sf::Keyboard::Home: k = "home"; break;
            case sf::Keyboard::Add: case sf::Keyboard::Equal: k = "plus"; break;
            case sf::Keyboard::Subtract: case sf::Keyboard::Hyphen: k = "minus"; break;
            case sf::Keyboard::Left: k = screen_ == Screen::Replay && e.key.control ? "left" : ""; break;
            case sf::Keyboard::Right: k = screen_ == Screen::Replay && e.key.control ? "right" : ""; break;
            default: break;
        }
        if (!k.empty()) key_command(k);
    }
    if (!board) return;
    if (e.type == sf::Event::MouseWheelScrolled && !imgui_.wants_mouse()) {
        const sf::Vector2f at(static_cast<float>(e.mouseWheelScroll.x), static_cast<float>(e.mouseWheelScroll.y));
        if (cam_.viewport.contains(at)) cam_.zoom_at(at, std::pow(1.15f, e.mouseWheelScroll.delta), 0.05f, 8.0f);
    }
    if (e.type == sf::Event::MouseButtonPressed && !imgui_.wants_mouse()) {
        const sf::Vector2f at(static_cast<float>(e.mouseButton.x), static_cast<float>(e.mouseButton.y));
        if (show_overview_ && overview_rect_.contains(at)) {
            cam_.center = map_->overview_to_world(overview_rect_, at);
            return;
        }
        mouse_down_ = true;
        dragging_ = false;
        drag_piece_active_ = false;
        drag_piece_.clear();
        press_pos_ = last_mouse_ = {e.mouseButton.x, e.mouseButton.y};
        // Pressing on a piece that has destinations starts a possible drag-and-drop move.
        if (e.mouseButton.button == sf::Mouse::Left && screen_ == Screen::Game)
            if (const StackView* st = view_.stack_at(hex_label_at(at)))
                for (auto it = st->pieces.rbegin(); it != st->pieces.rend() && drag_piece_.empty(); ++it) {
                    const std::string& pid = view_.pieces[static_cast<size_t>(*it)].id;
                    for (const auto& a : actions_)
                        if (contains(a.pieces, pid) && !a.hexes.empty()) {
                            drag_piece_ = pid;
                            break;
                        }
                }
    }
    if (e.type == sf::Event::MouseMoved) {
        const sf::Vector2i p(e.mouseMove.x, e.mouseMove.y);
        if (mouse_down_) {
            if (!dragging_ && (std::abs(p.x - press_pos_.x) + std::abs(p.y - press_pos_.y)) > 5) {
                dragging_ = true;
                if (!drag_piece_.empty()) {
                    drag_piece_active_ = true;
                    selected_piece_ = drag_piece_;
                    refresh();
                }
            }
            if (dragging_ && !drag_piece_active_) cam_.center -= sf::Vector2f(static_cast<float>(p.x - last_mouse_.x), static_cast<float>(p.y - last_mouse_.y)) / cam_.zoom;
        }
        last_mouse_ = p;
        hover_hex_ = imgui_.wants_mouse() ? std::string() : hex_label_at(sf::Vector2f(p));
    }
    if (e.type == sf::Event::MouseButtonReleased && mouse_down_) {
        mouse_down_ = false;
        const sf::Vector2f at(static_cast<float>(e.mouseButton.x), static_cast<float>(e.mouseButton.y));
        if (drag_piece_active_) {
            // Dropped: the action taking the dragged piece to this hex (or a chooser).
            const std::string label = hex_label_at(at);
            const PieceView* p = view_.piece(drag_piece_);
            if (!label.empty() && (!p || p->loc != label)) click_hex(label);
        } else if (!dragging_ && !imgui_.wants_mouse()) {
            if (e.mouseButton.button == sf::Mouse::Left) click_hex(hex_label_at(at));
            else if (e.mouseButton.button == sf::Mouse::Right) key_command("escape");
        }
        dragging_ = false;
        drag_piece_active_ = false;
        drag_piece_.clear();
    }
}

// ---- drawing ---------------------------------------------------------------------------------

void App::draw_frame() {
    window_.clear(kTable);
    const bool board = (screen_ == Screen::Game || screen_ == Screen::Replay) && map_ && session_;
    if (board && handover_to_.empty()) {
        // The map comes from its off-screen layer (redrawn only at a new zoom); counters and
        // highlights are drawn over it every frame. The camera is snapped to whole pixels so
        // that the layer is copied, not resampled, and the counters sit exactly on it.
        const Camera cam = cam_.snapped();
        map_->draw_cached(window_, cam);
        BoardPainter::draw(window_, cam, *map_, *def_, view_, hl_, font_, bold_);
        if (!hover_hex_.empty())
            if (auto h = def_->map.parse_label(hover_hex_)) {
                sf::VertexArray va(sf::Triangles);
                map_->add_hex_outline(va, *h, std::max(2.0f / cam.zoom, 1.5f), hl_.colors.hover, 0.0f);
                const sf::View old = window_.getView();
                window_.setView(cam.view());
                window_.draw(va);
                window_.setView(old);
            }
        if (drag_piece_active_)
            if (const PieceView* p = view_.piece(drag_piece_)) {
                // The dragged counter follows the cursor.
                sf::VertexArray va(sf::Triangles);
                const sf::Vector2f w = cam.to_world(sf::Vector2f(last_mouse_));
                add_counter(va, w, BoardPainter::kCounterSide, counter_look(*def_, *p));
                const sf::View old = window_.getView();
                window_.setView(cam.view());
                window_.draw(va);
                window_.setView(old);
            }
        if (show_overview_) map_->draw_overview(window_, overview_rect_, cam);
    }
    // Last, so that it also hides the counters and highlights that stick out of the board.
    if (panel_bg_.width > 0) {
        sf::VertexArray bg(sf::Triangles);
        add_rect(bg, panel_bg_, panel_bg_color_);
        window_.setView(sf::View(sf::FloatRect(0, 0, static_cast<float>(window_.getSize().x), static_cast<float>(window_.getSize().y))));
        window_.draw(bg, sf::BlendNone);
        panel_bg_ = {};  // ui_panel() sets it again in the next frame that has the panel
    }
}

void App::check_pixels() {
    if (pending_pixels_.empty()) return;
    sf::Texture t;
    t.create(window_.getSize().x, window_.getSize().y);
    t.update(window_);
    const sf::Image img = t.copyToImage();
    const Camera cam = cam_.snapped();  // as draw_frame() drew it
    for (auto& p : pending_pixels_) {
        const sf::Vector2f s = cam.to_screen(p.world);
        p.at = sf::Vector2i(static_cast<int>(std::floor(s.x)), static_cast<int>(std::floor(s.y)));
        if (p.at.x < 0 || p.at.y < 0 || p.at.x >= static_cast<int>(img.getSize().x) || p.at.y >= static_cast<int>(img.getSize().y)) {
            script_error(p.command, "the point is outside the window");
            continue;
        }
        const sf::Color got = img.getPixel(static_cast<unsigned>(p.at.x), static_cast<unsigned>(p.at.y));
        const int d = std::max({std::abs(got.r - p.want.r), std::abs(got.g - p.want.g), std::abs(got.b - p.want.b)});
        char buf[96];
        std::snprintf(buf, sizeof buf, "pixel %d,%d is #%02x%02x%02x, expected #%02x%02x%02x (+-%d)", p.at.x, p.at.y, got.r, got.g,
                      got.b, p.want.r, p.want.g, p.want.b, p.tolerance);
        if (d > p.tolerance) script_error(p.command, buf);
        else std::cerr << "vedette: " << p.command.verb << " " << p.command.rest << ": ok (" << buf << ")\n";
    }
    pending_pixels_.clear();
}

void App::take_screenshot(const std::string& path) {
    sf::Texture t;
    t.create(window_.getSize().x, window_.getSize().y);
    t.update(window_);
    std::error_code ec;
    if (fs::path(path).has_parent_path()) fs::create_directories(fs::path(path).parent_path(), ec);
    if (!t.copyToImage().saveToFile(path)) std::cerr << "vedette: cannot write screenshot " << path << "\n";
    else std::cerr << "vedette: screenshot " << path << "\n";
}

// ---- ImGui panels ----------------------------------------------------------------------------

void App::ui_menu() {
    if (!ImGui::BeginMainMenuBar()) return;
    if (ImGui::BeginMenu("Game")) {
        if (ImGui::MenuItem("New game...")) {
            cancel_ai();
            screen_ = Screen::Start;
        }
        if (ImGui::MenuItem("Open...", "Ctrl+O")) key_command("ctrl+o");
        if (ImGui::MenuItem("Save...", "Ctrl+S", false, screen_ == Screen::Game)) key_command("ctrl+s");
        if (ImGui::MenuItem("Open replay...")) {
            show_open_ = true;
            open_as_replay_ = true;
        }
        if (ImGui::MenuItem("Undo", "Ctrl+Z", false, screen_ == Screen::Game)) undo();
        ImGui::Separator();
        if (ImGui::MenuItem("Quit")) quit_ = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        if (ImGui::MenuItem("Fit map", "Home")) fit_map();
        ImGui::MenuItem("Overview map", nullptr, &show_overview_);
        if (map_ && map_->has_art()) {  // the module ships map art: it or the drawn map
            if (ImGui::MenuItem("Map: the module's art", nullptr, show_art_)) show_art_ = true, map_->show_art(true);
            if (ImGui::MenuItem("Map: drawn from the map data", nullptr, !show_art_)) show_art_ = false, map_->show_art(false);
        }
        if (ImGui::MenuItem("Colour-blind-safe highlights", nullptr, &colour_blind_)) refresh();
        // Debug level: each AI decision's reasoning, where this view may see it (its own side's
        // notes; all of them in a game without human players, or a replay viewed as referee).
        ImGui::MenuItem("AI reasoning in the log (debug)", nullptr, &show_notes_);
        if (ImGui::BeginMenu("UI scale")) {
            for (float s : {1.0f, 1.25f, 1.5f, 1.75f, 2.0f}) {
                char buf[16];
                std::snprintf(buf, sizeof buf, "%.0f%%", s * 100);
                if (ImGui::MenuItem(buf, nullptr, std::abs(imgui_.scale() - s) < 0.01f)) imgui_.set_scale(s);
            }
            ImGui::EndMenu();
        }
        if (screen_ == Screen::Replay && def_ && ImGui::BeginMenu("Replay: view as")) {
            if (ImGui::MenuItem("Everything (referee)", nullptr, viewer_.empty())) viewer_.clear(), refresh();
            for (const auto& s : def_->sides)
                if (ImGui::MenuItem(s.name.c_str(), nullptr, viewer_ == s.id)) viewer_ = s.id, refresh();
            ImGui::EndMenu();
        }
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        if (ImGui::MenuItem("About this module", nullptr, false, def_ != nullptr)) show_about_ = true;
        if (ImGui::MenuItem("Keys and mouse")) show_keys_ = true;
        ImGui::EndMenu();
    }
    // Turn and phase at a glance, in the menu bar.
    if (session_ && def_ && screen_ != Screen::Start) {
        ImGui::Separator();
        ImGui::Text("%s", def_->name.c_str());
        ImGui::Separator();
        ImGui::Text("Turn %d/%d", view_.turn, def_->turn_last);
        const int pi = def_->phase_index(view_.phase);
        if (pi >= 0)
            ImGui::TextColored(ImVec4(0.75f, 0.25f, 0.05f, 1), "%s (phase %d of %zu)", def_->phases[static_cast<size_t>(pi)].name.c_str(),
                               pi + 1, def_->phases.size());
    }
    if (!status_.empty()) {
        ImGui::Separator();
        ImGui::TextDisabled("%s", status_.c_str());
    }
    ImGui::EndMainMenuBar();
}

void App::ui_start() {
    const ImVec2 ds = ImGui::GetIO().DisplaySize;
    const float w = std::min(720.0f * imgui_.scale(), ds.x - 40);
    ImGui::SetNextWindowPos(ImVec2((ds.x - w) / 2, 60 * imgui_.scale()), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(w, 0), ImGuiCond_Always);
    ImGui::Begin("Vedette: new game", nullptr, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize);
    ImGui::PushFont(imgui_.fonts().bold);
    ImGui::TextUnformatted("Module");
    ImGui::PopFont();
    ImGui::SetNextItemWidth(w - 140 * imgui_.scale());
    ImGui::InputText("##module", &module_dir_input_);
    ImGui::SameLine();
    if (ImGui::Button("Load module")) open_module(module_dir_input_);
    if (!module_error_.empty()) ImGui::TextColored(ImVec4(0.7f, 0.1f, 0.1f, 1), "%s", module_error_.c_str());
    if (def_) {
        ImGui::TextWrapped("%s %s: %s", def_->name.c_str(), def_->version.c_str(), def_->description.c_str());
        ImGui::Separator();
        ImGui::PushFont(imgui_.fonts().bold);
        ImGui::TextUnformatted("Scenario");
        ImGui::PopFont();
        const core::ScenarioDef* cur = def_->scenario(scenario_);
        if (ImGui::BeginCombo("##scenario", cur ? cur->name.c_str() : "(none)")) {
            for (const auto& sc : def_->scenarios)
                if (ImGui::Selectable(sc.name.c_str(), sc.id == scenario_)) scenario_ = sc.id;
            ImGui::EndCombo();
        }
        if (cur && !cur->description.empty()) ImGui::TextWrapped("%s", cur->description.c_str());
        if (!def_->options.empty()) {
            ImGui::PushFont(imgui_.fonts().bold);
            ImGui::TextUnformatted("Options");
            ImGui::PopFont();
            for (const auto& o : def_->options) {
                bool on = options_.count(o.id) > 0;
                if (ImGui::Checkbox(o.name.c_str(), &on)) on ? (void)options_.insert(o.id) : (void)options_.erase(o.id);
            }
        }
        ImGui::PushFont(imgui_.fonts().bold);
        ImGui::TextUnformatted("Players");
        ImGui::PopFont();
        for (const auto& s : def_->sides) {
            ImGui::PushID(s.id.c_str());
            ImGui::ColorButton("##c", to_im(parse_color(s.color, sf::Color(128, 128, 128))), ImGuiColorEditFlags_NoTooltip);
            ImGui::SameLine();
            ImGui::Text("%-16s", s.name.c_str());
            ImGui::SameLine(220 * imgui_.scale());
            if (ImGui::RadioButton("Human", controller_[s.id] == "human")) controller_[s.id] = "human";
            static const std::pair<const char*, const char*> kinds[] = {
                {"AI easy", "ai-easy"}, {"AI normal", "ai"}, {"AI hard", "ai-hard"}, {"AI random", "random"}};
            for (const auto& [label, kind] : kinds) {
                ImGui::SameLine();
                if (ImGui::RadioButton(label, controller_[s.id] == "ai" && bot_kind_[s.id] == kind)) {
                    controller_[s.id] = "ai";
                    bot_kind_[s.id] = kind;
                }
            }
            ImGui::PopID();
        }
        ImGui::PushFont(imgui_.fonts().bold);
        ImGui::TextUnformatted("Seed");
        ImGui::PopFont();
        ImGui::SetNextItemWidth(200 * imgui_.scale());
        ImGui::InputScalar("##seed", ImGuiDataType_U64, &seed_);
        ImGui::SameLine();
        if (ImGui::Button("New seed")) seed_ = std::random_device{}() % 1000000;
        ImGui::Spacing();
        if (ImGui::Button("Start game", ImVec2(200 * imgui_.scale(), 0))) start_game();
    }
    ImGui::Separator();
    if (ImGui::Button("Load game...")) {
        show_open_ = true;
        open_as_replay_ = false;
    }
    ImGui::SameLine();
    if (ImGui::Button("Open replay...")) {
        show_open_ = true;
        open_as_replay_ = true;
    }
    if (def_) {
        const std::string autosave = data_dir() + "/autosave/" + def_->id + ".json";
        std::error_code ec;
        if (fs::exists(autosave, ec)) {
            ImGui::SameLine();
            if (ImGui::Button("Continue autosave")) open_save(autosave, false);
        }
        ImGui::SameLine();
        if (ImGui::Button("About this module")) show_about_ = true;
    }
    if (!status_.empty()) ImGui::TextWrapped("%s", status_.c_str());
    ImGui::End();
}

void App::ui_panel() {
    const ImVec2 ds = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(ds.x - panel_width_, menu_height_), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(panel_width_, ds.y - menu_height_), ImGuiCond_Always);
    // The panel's background is painted by draw_frame() as one flat, unblended rectangle:
    // ImGui would fill it with a textured, blended quad, several milliseconds a frame on a
    // software rasteriser.
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    panel_bg_ = {ds.x - panel_width_, menu_height_, panel_width_, ds.y - menu_height_};
    panel_bg_color_ = sf::Color(static_cast<sf::Uint8>(bg.x * 255), static_cast<sf::Uint8>(bg.y * 255), static_cast<sf::Uint8>(bg.z * 255));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0, 0, 0, 0));
    ImGui::Begin("##panel", nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                         ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoBringToFrontOnFocus);
    ImGui::PopStyleColor();
    const std::string d = view_.decision.role;
    // Turn track.
    ImGui::PushFont(imgui_.fonts().bold);
    ImGui::Text("Turn %d of %d", view_.turn, def_->turn_last);
    ImGui::PopFont();
    // The turn track's phases, wrapped to the panel's width; the current one lit.
    const float right = ImGui::GetWindowContentRegionMax().x;
    for (size_t i = 0; i < def_->phases.size(); ++i) {
        const auto& ph = def_->phases[i];
        const float w = ImGui::CalcTextSize(ph.name.c_str()).x + ImGui::GetStyle().FramePadding.x * 2;
        if (i && ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + ImGui::GetStyle().ItemSpacing.x + w < right) ImGui::SameLine();
        const bool cur = ph.id == view_.phase;
        ImGui::PushStyleColor(ImGuiCol_Button, cur ? ImVec4(0.85f, 0.55f, 0.15f, 1) : ImVec4(0.86f, 0.83f, 0.76f, 1));
        ImGui::SmallButton(ph.name.c_str());
        ImGui::PopStyleColor();
    }
    ImGui::Separator();
    if (screen_ == Screen::Replay) {
        ui_replay_bar();
        ImGui::Separator();
    }
    if (!view_.result.empty()) {
        ImGui::PushFont(imgui_.fonts().bold);
        ImGui::TextColored(ImVec4(0.6f, 0.1f, 0.05f, 1), "Game over: %s", view_.result.c_str());
        ImGui::PopFont();
    } else if (!d.empty()) {
        ImGui::ColorButton("##side", to_im(side_color(d)), ImGuiColorEditFlags_NoTooltip, ImVec2(14, 14));
        ImGui::SameLine();
        ImGui::PushFont(imgui_.fonts().bold);
        ImGui::Text("%s to decide%s", side_name(d).c_str(), controller_[d] == "ai" && screen_ == Screen::Game ? " (AI)" : "");
        ImGui::PopFont();
        if (!view_.decision.prompt.empty()) ImGui::TextWrapped("%s", view_.decision.prompt.c_str());
        if (!view_.decision.rule.empty()) ImGui::TextDisabled("Rule %s", view_.decision.rule.c_str());
        if (screen_ == Screen::Game && controller_[d] == "ai") {
            const char* spin = "|/-\\";
            ImGui::Text("The AI is thinking %c", spin[(frame_no_ / 8) % 4]);
        }
    }
    if (!ai_error_.empty()) ImGui::TextColored(ImVec4(0.7f, 0.1f, 0.1f, 1), "%s", ai_error_.c_str());
    // Buttons for actions that are not about a place on the map.
    if (!actions_.empty()) {
        ImGui::Spacing();
        int n = 0;
        for (const auto& a : actions_) {
            if (!a.hexes.empty() || !a.pieces.empty()) continue;
            const std::string label = (a.label.empty() ? a.text() : a.label) + "##" + a.text();
            if (n++ % 2) ImGui::SameLine();
            if (ImGui::Button(label.c_str())) apply_action(d, a.text());
        }
        if (!selected_piece_.empty()) {
            if (const PieceView* p = view_.piece(selected_piece_)) {
                ImGui::TextColored(to_im(hl_.colors.selected), "Selected: %s", counter_description(*def_, *p).c_str());
                ImGui::SameLine();
                if (ImGui::SmallButton("Cancel")) key_command("escape");
            }
        }
        ImGui::TextDisabled("Click a highlighted piece or hex; %zu legal actions.", actions_.size());
        if (ImGui::CollapsingHeader("All legal actions")) {
            ImGui::BeginChild("##acts", ImVec2(0, 140 * imgui_.scale()), true);
            for (const auto& a : actions_) {
                const std::string label = (a.label.empty() ? a.text() : a.label + "  [" + a.text() + "]");
                if (ImGui::Selectable(label.c_str())) apply_action(d, a.text());
            }
            ImGui::EndChild();
        }
    }
    if (screen_ == Screen::Game) {
        std::string why;
        const std::string last_role = session_->log().empty() ? viewer_ : session_->log().back().role;
        bool can = session_->can_undo(last_role, &why) && controller_[last_role] == "human";
        if (can && last_role != viewer_) {
            can = false;
            why = "the last action was " + side_name(last_role) + "'s";
        }
        if (!can) ImGui::BeginDisabled();
        if (ImGui::Button("Undo (Ctrl+Z)")) undo();
        if (!can) ImGui::EndDisabled();
        if (!can && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", why.c_str());
        ImGui::SameLine();
        if (ImGui::Button("Save (Ctrl+S)")) key_command("ctrl+s");
    }
    if (!refusal_.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.72f, 0.08f, 0.05f, 1));
        ImGui::TextWrapped("%s", refusal_.c_str());
        ImGui::PopStyleColor();
    }
    // The latest dice, with their purpose.
    for (auto it = log_.rbegin(); it != log_.rend(); ++it) {
        const json& evs = (*it)["events"];
        const json* roll = nullptr;
        for (const auto& ev : evs)
            if (ev.value("kind", "") == "roll") roll = &ev;
        if (!roll) continue;
        ImGui::Separator();
        ImGui::Text("Last roll: %s", roll->value("purpose", "").c_str());
        for (const auto& dv : (*roll)["dice"]) {
            die_face(dv.get<int>(), roll->value("sides", 6), 26 * imgui_.scale());
            ImGui::SameLine();
        }
        ImGui::NewLine();
        break;
    }
    // Tracks (combat commands, supply trains, victory points...), compact.
    if (!view_.tracks.empty() && ImGui::CollapsingHeader("Tracks")) {
        if (ImGui::BeginTable("##tracks", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
            for (const auto& [k, v] : view_.tracks.items()) {
                const core::TrackDef* td = def_->track(k);
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(td ? td->name.c_str() : k.c_str());
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(v.dump().c_str());
            }
            ImGui::EndTable();
        }
    }
    // The module's public variables (victory status, weather, ...) and the card piles: counts for
    // everyone, card names only where the view shows them (the opponent's hand stays hidden).
    if ((view_.vars.is_object() && !view_.vars.empty()) || (view_.piles.is_object() && !view_.piles.empty())) {
        if (ImGui::CollapsingHeader("Game status and cards")) {
            if (view_.vars.is_object())
                for (const auto& [k, v] : view_.vars.items())
                    if (v.is_primitive()) ImGui::Text("%s: %s", k.c_str(), v.is_string() ? v.get<std::string>().c_str() : v.dump().c_str());
            if (view_.piles.is_object())
                for (const auto& [id, pile] : view_.piles.items()) {
                    const core::DeckDef* deck = def_->deck(id);
                    ImGui::Text("%s%s: %d card(s)", deck ? deck->name.c_str() : id.c_str(),
                                pile.value("owner", "").empty() ? "" : (" (" + side_name(pile.value("owner", "")) + ")").c_str(),
                                pile.value("count", 0));
                    if (pile.contains("cards") && pile["cards"].is_array())
                        for (const auto& c : pile["cards"]) {
                            std::string name = c.is_string() ? c.get<std::string>() : c.dump();
                            for (const auto& dk : def_->decks)  // a hand holds cards of any deck
                                for (const auto& cd : dk.cards)
                                    if (!name.empty() && cd.id == name) {
                                        ImGui::BulletText("%s", cd.name.c_str());
                                        if (ImGui::IsItemHovered() && !cd.text.empty()) ImGui::SetTooltip("%s", cd.text.c_str());
                                        name.clear();
                                    }
                            if (!name.empty()) ImGui::BulletText("%s", name.c_str());
                        }
                }
        }
    }
    // Off-map boxes.
    bool any_box = false;
    for (const auto& st : view_.stacks) any_box = any_box || !st.hex;
    if (any_box || !view_.private_boxes.empty()) {
        if (ImGui::CollapsingHeader("Off-map boxes")) {
            for (const auto& st : view_.stacks) {
                if (st.hex) continue;
                const int bi = def_->map.box_index(st.loc.substr(4));
                ImGui::Text("%s (%zu)", bi >= 0 ? def_->map.boxes[static_cast<size_t>(bi)].name.c_str() : st.loc.c_str(), st.pieces.size());
                for (int pi : st.pieces) {
                    const PieceView& p = view_.pieces[static_cast<size_t>(pi)];
                    ImGui::BulletText("%s", counter_description(*def_, p).c_str());
                    if (ImGui::IsItemClicked() && screen_ == Screen::Game) click_piece(p.id);
                }
            }
            for (const auto& [loc, n] : view_.private_boxes.items()) ImGui::Text("%s: %d hidden pieces", loc.c_str(), n.get<int>());
        }
    }
    ImGui::Separator();
    ui_log();
    ImGui::End();
}

std::vector<App::LogLine> App::log_lines() const {
    std::vector<LogLine> out;
    if (!session_ || !def_) return out;
    int turn = -1;
    std::string phase = "\x01";
    const size_t shown = screen_ == Screen::Replay ? replay_pos_ : log_.size();
    const size_t from = shown > 400 ? shown - 400 : 0;
    // A log entry records the turn/phase after its action; its heading is the one before it.
    int t0 = 1;
    std::string ph0;
    if (const core::ScenarioDef* sc = def_->scenario(session_->setup().scenario)) {
        t0 = sc->turn;
        ph0 = sc->phase.empty() && !def_->phases.empty() ? def_->phases.front().id : sc->phase;
    }
    for (size_t i = from; i < log_.size() && i < shown; ++i) {
        const json& e = log_[i];
        const int t = i == 0 ? t0 : log_[i - 1].value("turn", 0);
        const std::string ph = i == 0 ? ph0 : log_[i - 1].value("phase", "");
        if (t != turn || ph != phase) {
            turn = t;
            phase = ph;
            const int pi = def_->phase_index(ph);
            out.push_back({LogLine::Kind::Heading, "",
                           "Turn " + std::to_string(t) + " - " +
                               (pi >= 0 ? def_->phases[static_cast<size_t>(pi)].name : ph)});
        }
        const std::string role = e.value("role", "");
        out.push_back({LogLine::Kind::Action, role, e.value("action", "")});
        if (e.contains("events"))
            for (const auto& ev : e["events"]) {
                if (ev.value("kind", "") == "roll") {
                    std::string dice;
                    if (ev.contains("dice"))
                        for (const auto& dv : ev["dice"]) dice += (dice.empty() ? "" : " ") + std::to_string(dv.get<int>());
                    out.push_back({LogLine::Kind::Roll, role, "roll " + ev.value("purpose", "") + ": " + dice});
                } else {
                    out.push_back({LogLine::Kind::Event, role, ev.value("text", "")});
                }
            }
        // The note is in log_ only where the viewer may see it (its own role's, or the referee's).
        if (show_notes_ && e.contains("note") && e["note"].is_string() && !e["note"].get<std::string>().empty())
            out.push_back({LogLine::Kind::Note, role, "why: " + e["note"].get<std::string>()});
    }
    return out;
}

void App::ui_log() {
    ImGui::PushFont(imgui_.fonts().bold);
    ImGui::TextUnformatted("Log");
    ImGui::PopFont();
    ImGui::BeginChild("##log", ImVec2(0, 0), true);
    for (const LogLine& l : log_lines()) {
        switch (l.kind) {
            case LogLine::Kind::Heading:
                ImGui::PushFont(imgui_.fonts().bold);
                ImGui::TextColored(ImVec4(0.45f, 0.25f, 0.08f, 1), "%s", l.text.c_str());
                ImGui::PopFont();
                break;
            case LogLine::Kind::Action:
                ImGui::TextColored(to_im(darker(side_color(l.role), 0.2f)), "%s:", side_name(l.role).c_str());
                ImGui::SameLine();
                ImGui::TextWrapped("%s", l.text.c_str());
                break;
            case LogLine::Kind::Roll:
                ImGui::TextColored(ImVec4(0.1f, 0.3f, 0.6f, 1), "    %s", l.text.c_str());
                break;
            case LogLine::Kind::Event:
                ImGui::TextWrapped("    %s", l.text.c_str());
                break;
            case LogLine::Kind::Note:
                ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.42f, 0.42f, 0.42f, 1));
                ImGui::TextWrapped("    %s", l.text.c_str());
                ImGui::PopStyleColor();
                break;
        }
    }
    if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - 4) ImGui::SetScrollHereY(1.0f);
    ImGui::EndChild();
}

void App::ui_replay_bar() {
    ImGui::PushFont(imgui_.fonts().bold);
    ImGui::Text("Replay: action %zu of %zu", replay_pos_, replay_len_);
    ImGui::PopFont();
    if (ImGui::Button("|<")) replay_goto(0);
    ImGui::SameLine();
    if (ImGui::Button("< Back")) replay_goto(replay_pos_ > 0 ? replay_pos_ - 1 : 0);
    ImGui::SameLine();
    if (ImGui::Button("Forward >")) replay_goto(replay_pos_ + 1);
    ImGui::SameLine();
    if (ImGui::Button(">|")) replay_goto(replay_len_);
    int pos = static_cast<int>(replay_pos_);
    if (ImGui::SliderInt("##pos", &pos, 0, static_cast<int>(replay_len_))) replay_goto(static_cast<size_t>(pos));
    // Jump to a turn/phase heading.
    if (ImGui::BeginCombo("Jump to", "turn / phase")) {
        std::set<std::pair<int, int>> seen;
        for (const auto& e : replay_save_["log"]) {
            const int t = e.value("turn", 0), p = def_->phase_index(e.value("phase", ""));
            if (!seen.insert({t, p}).second) continue;
            const std::string label = "Turn " + std::to_string(t) + " - " + (p >= 0 ? def_->phases[static_cast<size_t>(p)].name : "?");
            if (ImGui::Selectable(label.c_str())) replay_jump(t, p >= 0 ? def_->phases[static_cast<size_t>(p)].id : "");
        }
        ImGui::EndCombo();
    }
    if (!replay_error_.empty()) ImGui::TextColored(ImVec4(0.7f, 0.1f, 0.1f, 1), "%s", replay_error_.c_str());
    if (ImGui::Button("Play on from here")) {
        // Continue the game from this point as a new game (the later log is dropped).
        screen_ = Screen::Game;
        for (const auto& s : def_->sides)
            if (viewer_.empty() && controller_[s.id] == "human") viewer_ = s.id;
        after_change(true);
    }
}

void App::ui_chooser() {
    if (!chooser_open_) return;
    ImGui::SetNextWindowPos(ImVec2(chooser_pos_.x + 12, chooser_pos_.y + 12), ImGuiCond_Appearing);
    ImGui::Begin("Which one?", &chooser_open_, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse);
    for (size_t i = 0; i < chooser_.size(); ++i) {
        ImGui::PushID(static_cast<int>(i));
        if (ImGui::Selectable(chooser_labels_[i].c_str())) {
            ImGui::PopID();
            choose(i);
            break;
        }
        ImGui::PopID();
    }
    ImGui::End();
}

void App::ui_handover() {
    if (handover_to_.empty()) return;
    const ImVec2 ds = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ds);
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.13f, 0.11f, 0.10f, 1.0f));
    ImGui::Begin("##handover", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove);
    const std::string title = "Pass to " + side_name(handover_to_);
    ImGui::SetWindowFontScale(2.2f);
    const ImVec2 ts = ImGui::CalcTextSize(title.c_str());
    ImGui::SetCursorPos(ImVec2((ds.x - ts.x) / 2, ds.y * 0.38f));
    ImGui::TextColored(to_im(mix(side_color(handover_to_), sf::Color::White, 0.35f)), "%s", title.c_str());
    ImGui::SetWindowFontScale(1.0f);
    const std::string sub = "The board is hidden so that " + side_name(handover_to_) + " does not see the previous player's secrets.";
    const ImVec2 ss = ImGui::CalcTextSize(sub.c_str());
    ImGui::SetCursorPos(ImVec2((ds.x - ss.x) / 2, ds.y * 0.38f + ts.y + 20));
    ImGui::TextColored(ImVec4(0.85f, 0.82f, 0.75f, 1), "%s", sub.c_str());
    const std::string btn = "I am " + side_name(handover_to_) + ": show my view";
    const float bw = ImGui::CalcTextSize(btn.c_str()).x + 40;
    ImGui::SetCursorPos(ImVec2((ds.x - bw) / 2, ds.y * 0.38f + ts.y + 60));
    if (ImGui::Button(btn.c_str(), ImVec2(bw, 40 * imgui_.scale()))) {
        viewer_ = handover_to_;
        handover_to_.clear();
        selected_piece_.clear();
        refresh();
    }
    ImGui::End();
    ImGui::PopStyleColor();
}

void App::ui_stack_viewer() {
    if (hover_hex_.empty() || chooser_open_ || !handover_to_.empty()) return;
    const StackView* st = view_.stack_at(hover_hex_);
    const core::HexDef* hd = def_->map.parse_label(hover_hex_) ? def_->map.find(*def_->map.parse_label(hover_hex_)) : nullptr;
    ImGui::BeginTooltip();
    std::string title = hover_hex_;
    if (hd) {
        const auto& tt = def_->map.terrain_types[static_cast<size_t>(hd->terrain)];
        title += "  " + tt.name;
        if (!hd->name.empty()) title = hd->name + "  (" + title + ")";
        for (int f : hd->features) title += ", " + def_->map.feature_types[static_cast<size_t>(f)].name;
    }
    ImGui::PushFont(imgui_.fonts().bold);
    ImGui::TextUnformatted(title.c_str());
    ImGui::PopFont();
    if (st) {
        // Top of the stack first.
        for (auto it = st->pieces.rbegin(); it != st->pieces.rend(); ++it) {
            const PieceView& p = view_.pieces[static_cast<size_t>(*it)];
            const CounterLook look = counter_look(*def_, p);
            ImGui::ColorButton(("##" + p.id).c_str(), to_im(look.body), ImGuiColorEditFlags_NoTooltip, ImVec2(14, 14));
            ImGui::SameLine();
            const bool actionable = hl_.pieces.count(p.id) > 0;
            if (actionable) ImGui::TextColored(ImVec4(0.55f, 0.35f, 0.0f, 1), "%s  *", counter_description(*def_, p).c_str());
            else ImGui::TextUnformatted(counter_description(*def_, p).c_str());
        }
    }
    std::vector<std::string> here;
    for (const auto& a : actions_)
        if (contains(a.hexes, hover_hex_) && (selected_piece_.empty() || contains(a.pieces, selected_piece_)))
            here.push_back(a.label.empty() ? a.text() : a.label);
    if (!here.empty()) {
        ImGui::Separator();
        for (size_t i = 0; i < here.size() && i < 6; ++i) ImGui::TextDisabled("click: %s", here[i].c_str());
    }
    ImGui::EndTooltip();
}

void App::ui_dialogs() {
    const ImVec2 ds = ImGui::GetIO().DisplaySize;
    if (show_save_) {
        ImGui::SetNextWindowPos(ImVec2(ds.x / 2, ds.y / 3), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
        ImGui::Begin("Save game", &show_save_, ImGuiWindowFlags_AlwaysAutoResize);
        ImGui::SetNextItemWidth(560 * imgui_.scale());
        ImGui::InputText("File", path_buf_, sizeof path_buf_);
        if (ImGui::Button("Save")) {
            if (save_game(path_buf_)) show_save_ = false;
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) show_save_ = false;
        ImGui::End();
    }
    if (show_open_) {
        ImGui::SetNextWindowPos(ImVec2(ds.x / 2, ds.y / 3), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
        ImGui::Begin(open_as_replay_ ? "Open replay" : "Open saved game", &show_open_, ImGuiWindowFlags_AlwaysAutoResize);
        ImGui::SetNextItemWidth(560 * imgui_.scale());
        ImGui::InputText("File", path_buf_, sizeof path_buf_);
        ImGui::Checkbox("Open as replay", &open_as_replay_);
        // Saves found in the data folder.
        ImGui::BeginChild("##files", ImVec2(560 * imgui_.scale(), 160 * imgui_.scale()), true);
        for (const char* sub : {"/saves", "/autosave"}) {
            std::error_code ec;
            for (const auto& f : fs::directory_iterator(data_dir() + sub, ec)) {
                if (f.path().extension() != ".json") continue;
                if (ImGui::Selectable(f.path().string().c_str())) std::snprintf(path_buf_, sizeof path_buf_, "%s", f.path().string().c_str());
            }
        }
        ImGui::EndChild();
        if (ImGui::Button("Open")) {
            if (open_save(path_buf_, open_as_replay_)) show_open_ = false;
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) show_open_ = false;
        ImGui::End();
    }
    if (show_about_ && def_) {
        ImGui::SetNextWindowSize(ImVec2(720 * imgui_.scale(), 520 * imgui_.scale()), ImGuiCond_Appearing);
        ImGui::Begin("About this module", &show_about_);
        ImGui::PushFont(imgui_.fonts().bold);
        ImGui::Text("%s  (%s %s)", def_->name.c_str(), def_->id.c_str(), def_->version.c_str());
        ImGui::PopFont();
        ImGui::TextWrapped("%s", def_->description.c_str());
        ImGui::Separator();
        if (about_text_.empty()) ImGui::TextWrapped("This module ships no SOURCES.md: it does not say where its data comes from.");
        else ImGui::TextWrapped("%s", about_text_.c_str());
        ImGui::End();
    }
    if (show_keys_) {
        ImGui::Begin("Keys and mouse", &show_keys_, ImGuiWindowFlags_AlwaysAutoResize);
        ImGui::TextUnformatted(
            "Left click: pick the action for a piece or hex (a chooser appears when several match)\n"
            "Right click / Esc: cancel the selection\n"
            "Drag: pan    Arrow keys: pan    Wheel: zoom at the cursor    +/-: zoom    Home: fit map\n"
            "Click the overview map: jump there\n"
            "Ctrl+Z: undo    Ctrl+S: save    Ctrl+O: open\n"
            "Replay: Ctrl+Left / Ctrl+Right: step back / forward");
        ImGui::End();
    }
}

// ---- scripted input (tests) ------------------------------------------------------------------

bool App::script_error(const ScriptCommand& c, const std::string& msg) {
    std::cerr << opts_.script << ":" << c.line << ": " << c.verb << ": " << msg << "\n";
    script_failed_ = true;
    return false;
}

void App::run_script_step() {
    if (script_wait_ > 0) {  // also after the last command: a script may end with "wait N"
        --script_wait_;
        return;
    }
    if (script_pos_ >= script_.size()) return;
    const ScriptCommand& c = script_[script_pos_];
    if (c.verb == "wait-ai") {
        // Until no AI job runs and a human (or nobody) decides; at most 2000 frames.
        const bool idle = !ai_job_.valid() && (!session_ || session_->decider().empty() ||
                                               controller_[session_->decider()] != "ai" || !ai_error_.empty());
        if (!idle && ++script_ai_wait_ < 2000) return;
        if (!idle) script_error(c, "the AI did not finish");
        script_ai_wait_ = 0;
        ++script_pos_;
        return;
    }
    if (c.verb == "wait-log") {
        // wait-log N: until the log has at least N entries (bots playing); at most 5000 frames.
        const size_t n = static_cast<size_t>(std::atol(c.args.empty() ? "0" : c.args[0].c_str()));
        const bool done = session_ && session_->log().size() >= n;
        if (!done && !(session_ && session_->over()) && ++script_ai_wait_ < 5000) return;
        if (!done) script_error(c, "the log has " + std::to_string(session_ ? session_->log().size() : 0) + " entries");
        script_ai_wait_ = 0;
        ++script_pos_;
        return;
    }
    if (c.verb == "advance-to") {
        // advance-to TURN PHASE KIND...: until the game is at TURN/PHASE with a human to decide,
        // take (one per frame) the first legal action of the first listed kind that has one,
        // letting the AI play its turns in between. At most 5000 frames.
        if (!session_) return (void)(++script_pos_, script_error(c, "no game"));
        const int turn = std::atoi(c.args.empty() ? "0" : c.args[0].c_str());
        const std::string phase = c.args.size() > 1 ? c.args[1] : "";
        const std::string d = session_->decider();
        const bool ai_busy = ai_job_.valid() || (!d.empty() && controller_[d] == "ai" && ai_error_.empty());
        const bool there = (view_.turn > turn || (view_.turn == turn && view_.phase == phase)) && !ai_busy;
        if (there || session_->over() || ++script_ai_wait_ > 5000) {
            if (!there) script_error(c, session_->over() ? "the game ended first" : "not reached");
            script_ai_wait_ = 0;
            ++script_pos_;
            return;
        }
        if (ai_busy) return;
        if (!handover_to_.empty()) {
            viewer_ = handover_to_;
            handover_to_.clear();
            refresh();
            return;
        }
        for (size_t k = 2; k < c.args.size(); ++k)
            for (const auto& a : actions_)
                if (a.kind == c.args[k]) {
                    apply_action(d, a.text());
                    return;
                }
        script_ai_wait_ = 0;
        ++script_pos_;
        script_error(c, "no action of the listed kinds at turn " + std::to_string(view_.turn) + " " + view_.phase);
        return;
    }
    ++script_pos_;
    const auto arg = [&](size_t i) { return i < c.args.size() ? c.args[i] : std::string(); };
    if (c.verb == "wait") script_wait_ = std::max(0, std::atoi(arg(0).c_str()));
    else if (c.verb == "screenshot") pending_shots_.push_back(arg(0));
    else if (c.verb == "quit") quit_ = true;
    else if (c.verb == "module") { if (!open_module(c.rest)) script_error(c, module_error_); }
    else if (c.verb == "scenario") scenario_ = arg(0);
    else if (c.verb == "seed") seed_ = std::strtoull(arg(0).c_str(), nullptr, 10);
    else if (c.verb == "option") arg(1) == "off" ? (void)options_.erase(arg(0)) : (void)options_.insert(arg(0));
    else if (c.verb == "side") {
        // side ROLE human | ai (the random bot) | random | ai-easy | ai-normal | ai-hard
        const std::string who = arg(1);
        const bool bot = who == "ai" || who == "random" || who.rfind("ai-", 0) == 0;
        controller_[arg(0)] = bot ? "ai" : "human";
        bot_kind_[arg(0)] = who == "ai" || !bot ? "random" : (who == "ai-normal" ? "ai" : who);
    }
    else if (c.verb == "start") { if (!start_game()) script_error(c, status_); }
    else if (c.verb == "click-hex") click_hex(arg(0));
    else if (c.verb == "click-piece") click_piece(arg(0));
    else if (c.verb == "click-target") {
        // Clicks the N-th (default first) highlighted destination of the selected piece.
        const size_t n = static_cast<size_t>(std::atoi(arg(0).c_str()));
        if (hl_.target_hexes.size() <= n) return (void)script_error(c, "no such highlighted hex");
        click_hex(*std::next(hl_.target_hexes.begin(), static_cast<long>(n)));
    }
    else if (c.verb == "hover") hover_hex_ = arg(0);
    else if (c.verb == "drag") {
        // drag FROM_HEX TO_HEX: press on FROM, move, release on TO, as the mouse would.
        auto a = def_ ? def_->map.parse_label(arg(0)) : std::nullopt;
        auto b = def_ ? def_->map.parse_label(arg(1)) : std::nullopt;
        if (!a || !b) return (void)script_error(c, "unknown hex");
        auto px = [&](hex::Hex h) { return sf::Vector2i(cam_.to_screen(map_->hex_center(h))); };
        sf::Event ev{};
        ev.type = sf::Event::MouseButtonPressed;
        ev.mouseButton = {sf::Mouse::Left, px(*a).x, px(*a).y};
        handle_event(ev);
        ev.type = sf::Event::MouseMoved;
        ev.mouseMove = {px(*b).x, px(*b).y};
        handle_event(ev);
        ev.type = sf::Event::MouseButtonReleased;
        ev.mouseButton = {sf::Mouse::Left, px(*b).x, px(*b).y};
        handle_event(ev);
    }
    else if (c.verb == "choose") {
        if (!chooser_open_) return (void)script_error(c, "no chooser is open");
        size_t i = chooser_.size();
        if (!arg(0).empty() && std::isdigit(static_cast<unsigned char>(arg(0)[0]))) i = static_cast<size_t>(std::atoi(arg(0).c_str()));
        else
            for (size_t k = 0; k < chooser_.size(); ++k)
                if (chooser_[k] == c.rest) i = k;
        if (i >= chooser_.size()) return (void)script_error(c, "no such entry");
        choose(i);
    } else if (c.verb == "action") {
        if (!session_) return (void)script_error(c, "no game");
        const std::string d = session_->decider();
        apply_action(d, c.rest);
        if (!refusal_.empty()) script_error(c, refusal_);
    } else if (c.verb == "first-action") {
        // Takes the first legal action whose kind is one of the args (any kind when none given).
        for (const auto& a : actions_)
            if (c.args.empty() || contains(c.args, a.kind)) {
                apply_action(session_->decider(), a.text());
                return;
            }
        script_error(c, "no legal action of that kind");
    } else if (c.verb == "handover") {
        if (handover_to_.empty()) return (void)script_error(c, "no hand-over screen is shown");
        viewer_ = handover_to_;
        handover_to_.clear();
        refresh();
    } else if (c.verb == "key") key_command(arg(0));
    else if (c.verb == "save") { if (!save_game(c.rest)) script_error(c, status_); }
    else if (c.verb == "open") { if (!open_save(c.rest, false)) script_error(c, status_); }
    else if (c.verb == "replay") { if (!open_save(c.rest, true)) script_error(c, status_); }
    else if (c.verb == "replay-step") {
        const long n = std::atol(arg(0).c_str());
        replay_goto(static_cast<size_t>(std::max<long>(0, static_cast<long>(replay_pos_) + n)));
    } else if (c.verb == "replay-goto") replay_goto(static_cast<size_t>(std::atol(arg(0).c_str())));
    else if (c.verb == "replay-jump") replay_jump(std::atoi(arg(0).c_str()), arg(1));
    else if (c.verb == "zoom") cam_.zoom_at({cam_.viewport.left + cam_.viewport.width / 2, cam_.viewport.top + cam_.viewport.height / 2},
                                         static_cast<float>(std::atof(arg(0).c_str())), 0.05f, 8.0f);
    else if (c.verb == "center") {
        if (auto h = def_ ? def_->map.parse_label(arg(0)) : std::nullopt) cam_.center = map_->hex_center(*h);
        else script_error(c, "no hex " + arg(0));
    } else if (c.verb == "fit") fit_map();
    else if (c.verb == "ui-scale") imgui_.set_scale(static_cast<float>(std::atof(arg(0).c_str())));
    else if (c.verb == "colour-blind") colour_blind_ = arg(0) != "off", refresh();
    else if (c.verb == "map-art") {
        if (!map_ || !map_->has_art()) return (void)script_error(c, "the module has no map art");
        show_art_ = arg(0) != "off";
        map_->show_art(show_art_);
    } else if (c.verb == "expect-pixel") {
        // expect-pixel LABEL DX DY #rrggbb [TOLERANCE]: the pixel at the centre of hex LABEL
        // moved by DX, DY hex sizes (world units / kHexSize), once this frame is drawn.
        const auto h = def_ && map_ ? def_->map.parse_label(arg(0)) : std::nullopt;
        if (!h || c.args.size() < 4) return (void)script_error(c, "usage: expect-pixel LABEL DX DY #rrggbb [TOLERANCE]");
        const sf::Vector2f off(static_cast<float>(std::atof(arg(1).c_str())), static_cast<float>(std::atof(arg(2).c_str())));
        const sf::Color none(1, 2, 3, 0);
        const sf::Color want = parse_color(arg(3), none);
        if (want == none) return (void)script_error(c, "bad colour " + arg(3));
        pending_pixels_.push_back({c, map_->hex_center(*h) + off * MapRenderer::kHexSize, {}, want,
                                   c.args.size() > 4 ? std::atoi(arg(4).c_str()) : 8});
    }
    else if (c.verb == "about") show_about_ = arg(0) != "off";
    else if (c.verb == "ai-notes") show_notes_ = arg(0) != "off";
    else if (c.verb == "expect-log-text" || c.verb == "expect-no-log-text") {
        // expect-[no-]log-text TEXT: whether some line of the log panel contains TEXT.
        bool found = false;
        for (const LogLine& l : log_lines()) found = found || l.text.find(c.rest) != std::string::npos;
        if (found != (c.verb == "expect-log-text"))
            script_error(c, std::string("the log panel ") + (found ? "shows" : "does not show") + " '" + c.rest + "'");
    }
    else if (c.verb == "expect-screen") {
        const char* names[] = {"start", "game", "replay"};
        if (arg(0) != names[static_cast<int>(screen_)]) script_error(c, std::string("screen is ") + names[static_cast<int>(screen_)]);
    } else if (c.verb == "expect-decider") {
        if (!session_ || session_->decider() != arg(0)) script_error(c, "decider is " + (session_ ? session_->decider() : std::string("-")));
    } else if (c.verb == "expect-log-min") {
        if (!session_ || session_->log().size() < static_cast<size_t>(std::atoi(arg(0).c_str())))
            script_error(c, "log has " + std::to_string(session_ ? session_->log().size() : 0) + " entries");
    } else if (c.verb == "expect-turn") {
        if (view_.turn != std::atoi(arg(0).c_str()) || (!arg(1).empty() && view_.phase != arg(1)))
            script_error(c, "at turn " + std::to_string(view_.turn) + " " + view_.phase);
    } else if (c.verb == "print") {
        std::cerr << "vedette script: " << c.rest << "\n";
        if (c.rest == "actions")
            for (const auto& a : actions_) std::cerr << "  " << a.text() << "  (" << a.label << ")\n";
        if (c.rest == "state" && session_)
            std::cerr << "  turn " << view_.turn << " " << view_.phase << " decider " << session_->decider() << " log "
                      << session_->log().size() << " viewer '" << viewer_ << "' handover '" << handover_to_ << "'\n";
    } else script_error(c, "unknown command");
}

// ---- main loop -------------------------------------------------------------------------------

namespace {
// CPU time of the whole process, Mesa's rasteriser threads included (VEDETTE_TIMING).
double process_cpu_ms() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000.0 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1000.0;
}
}  // namespace

int App::run() {
    sf::Clock launch;
    sf::ContextSettings cs;
    // No multisampling: the board is copied from the map layer and counters are axis-aligned
    // squares; 4x samples would only quadruple the fill cost on a software rasteriser.
    cs.antialiasingLevel = 0;
    window_.create(sf::VideoMode(opts_.width, opts_.height), "Vedette", sf::Style::Default, cs);
    window_.setFramerateLimit(60);
    const std::string f1 = find_font(FontStyle::SansCondensed), f2 = find_font(FontStyle::SansCondensedBold);
    if (f1.empty() || !font_.loadFromFile(f1) || !bold_.loadFromFile(f2.empty() ? f1 : f2)) {
        std::cerr << "vedette: no usable font found (install fonts-dejavu-core, or set VEDETTE_FONT_DIR)\n";
        return 1;
    }
    imgui_.init(window_, opts_.ui_scale);
    ImGui::NewFrame();  // so that GetFrameHeight works before the first real frame
    ImGui::EndFrame();
    update_viewport();
    seed_ = opts_.seed.value_or(std::random_device{}() % 1000000);
    if (!opts_.script.empty()) {
        std::string why;
        if (!read_script(opts_.script, &script_, &why)) {
            std::cerr << "vedette: " << why << "\n";
            return 2;
        }
        ai_delay_ = 0.0f;
    }
    std::string dir = opts_.module_dir;
    if (dir.empty()) {
        for (const std::string& cand : {std::string(VEDETTE_SOURCE_DIR) + "/modules/napoleon_1814",
                                       std::string(VEDETTE_SOURCE_DIR) + "/tests/fixtures/fixture_module"})
            if (fs::exists(cand + "/module.xml")) {
                dir = cand;
                break;
            }
    }
    module_dir_input_ = dir;
    if (!dir.empty() && open_module(dir)) {
        if (!opts_.load.empty()) open_save(opts_.load, false);
        else if (!opts_.replay.empty()) open_save(opts_.replay, true);
        else if (!opts_.scenario.empty()) start_game();
    } else if (!opts_.load.empty() || !opts_.replay.empty()) {
        open_save(opts_.load.empty() ? opts_.replay : opts_.load, opts_.load.empty());
    }
    if (!module_error_.empty()) std::cerr << "vedette: " << module_error_ << "\n";

    sf::Clock frame_clock;
    bool first = true;
    while (window_.isOpen() && !quit_) {
        sf::Event e;
        bool input = false;
        while (window_.pollEvent(e)) {
            handle_event(e);
            input = true;
        }
        if (window_.hasFocus() && !imgui_.wants_keyboard() && screen_ != Screen::Start) {
            const float step = 600.0f * frame_clock.getElapsedTime().asSeconds() / cam_.zoom;
            using K = sf::Keyboard;
            if (K::isKeyPressed(K::Left) && !K::isKeyPressed(K::LControl)) cam_.center.x -= step;
            if (K::isKeyPressed(K::Right) && !K::isKeyPressed(K::LControl)) cam_.center.x += step;
            if (K::isKeyPressed(K::Up)) cam_.center.y -= step;
            if (K::isKeyPressed(K::Down)) cam_.center.y += step;
        }
        const bool was_busy = ai_job_.valid();
        const std::uint64_t gen_before = generation_;
        poll_ai();
        run_script_step();
        if (quit_) break;
        // Draw on demand: after input, a change of the game, while the AI thinks or a script
        // runs, and for a few frames after (ImGui settles hover states); otherwise just wait.
        const bool ai_turn = screen_ == Screen::Game && session_ && !session_->decider().empty() &&
                             controller_[session_->decider()] == "ai" && ai_error_.empty();
        const bool busy = input || was_busy || ai_turn || ai_job_.valid() || gen_before != generation_ || !opts_.script.empty() ||
                          !opts_.screenshot.empty() || sf::Keyboard::isKeyPressed(sf::Keyboard::Left) ||
                          sf::Keyboard::isKeyPressed(sf::Keyboard::Right) || sf::Keyboard::isKeyPressed(sf::Keyboard::Up) ||
                          sf::Keyboard::isKeyPressed(sf::Keyboard::Down);
        idle_frames_ = busy ? 0 : idle_frames_ + 1;
        if (idle_frames_ > 6 && !first) {
            sf::sleep(sf::milliseconds(10));
            frame_clock.restart();
            continue;
        }
        static const bool timing = std::getenv("VEDETTE_TIMING") != nullptr;
        sf::Clock draw_clock;
        const double cpu0 = timing ? process_cpu_ms() : 0;
        imgui_.new_frame(window_, frame_clock.restart().asSeconds());
        update_viewport();
        ui_menu();
        if (screen_ == Screen::Start) ui_start();
        else if (session_) {
            ui_panel();
            ui_chooser();
            ui_stack_viewer();
        }
        ui_dialogs();
        ui_handover();
        draw_frame();
        imgui_.render(window_);
        if (timing && !first) {
            // Widgets, board and drawing finished (glFinish), before the buffer swap.
            glFinish();
            frame_ms_.push_back(draw_clock.getElapsedTime().asMicroseconds() / 1000.0);
            frame_cpu_ms_ += process_cpu_ms() - cpu0;
        }
        ++frame_no_;
        for (const auto& p : pending_shots_) take_screenshot(p);
        pending_shots_.clear();
        check_pixels();
        if (!opts_.screenshot.empty() && frame_no_ >= std::max(1, opts_.frames) && script_pos_ >= script_.size()) {
            take_screenshot(opts_.screenshot);
            quit_ = true;
        }
        if (!opts_.script.empty() && opts_.screenshot.empty() && script_pos_ >= script_.size() && script_wait_ == 0) quit_ = true;
        window_.display();
        if (first) {
            first = false;
            if (std::getenv("VEDETTE_TIMING")) std::cerr << "vedette: first frame after " << launch.getElapsedTime().asMilliseconds() << " ms\n";
        }
    }
    cancel_ai();
    window_.close();
    if (std::getenv("VEDETTE_TIMING")) {
        if (!frame_ms_.empty()) {
            std::sort(frame_ms_.begin(), frame_ms_.end());
            std::cerr << "vedette: " << frame_ms_.size() << " frames after the first: median " << frame_ms_[frame_ms_.size() / 2]
                      << " ms, 95th percentile " << frame_ms_[std::min(frame_ms_.size() - 1, frame_ms_.size() * 95 / 100)]
                      << " ms; CPU time (all threads) " << frame_cpu_ms_ / static_cast<double>(frame_ms_.size())
                      << " ms per frame\n";
        }
        std::ifstream st("/proc/self/status");
        for (std::string line; std::getline(st, line);)
            if (line.rfind("VmHWM", 0) == 0) std::cerr << "vedette: peak resident memory " << line.substr(6) << "\n";
    }
    return script_failed_ ? 3 : 0;
}

}  // namespace vedette::gui
