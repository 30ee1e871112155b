// vedette-tournament: N games between two bot kinds, each on both sides, printing the first
// kind's win rate per side with a 95% Wilson interval, the average game length, and the AI's
// decision times (median / max per decision, median / max per Turn; the 99th percentile, and the
// game, Turn, step and action of the largest decision, the one to look at first).
//
//   vedette-tournament MODULE_DIR --a ai --b random [--games N] [--seed S] [--scenario ID]
//                      [--max-actions N] [--side french|coalition|both] [--save-dir DIR]
//
// --save-dir writes each game as a save (DIR/KIND-as-SIDE-SEED.json) to replay or open in the GUI.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "ai/ai.hpp"
#include "data/loader.hpp"
#include "script/rules_host.hpp"

using namespace vedette;

namespace {

std::pair<double, double> wilson(int wins, int n) {
    if (n == 0) return {0, 1};
    const double z = 1.96, p = static_cast<double>(wins) / n;
    const double den = 1 + z * z / n;
    const double mid = (p + z * z / (2.0 * n)) / den;
    const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / den;
    return {std::max(0.0, mid - half), std::min(1.0, mid + half)};
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    std::string dir, a = "ai", b = "random", scenario, only_side = "both", save_dir;
    int games = 20;
    std::uint64_t seed = 1, max_actions = 200000;
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::cerr << k << " needs a value\n";
                std::exit(2);
            }
            return argv[++i];
        };
        if (k == "--a") a = next();
        else if (k == "--b") b = next();
        else if (k == "--games") games = std::stoi(next());
        else if (k == "--seed") seed = std::stoull(next());
        else if (k == "--scenario") scenario = next();
        else if (k == "--side") only_side = next();
        else if (k == "--max-actions") max_actions = std::stoull(next());
        else if (k == "--ai-debug") ai::set_debug_stream(&std::cerr);
        else if (k == "--save-dir") save_dir = next();
        else if (!k.empty() && k[0] != '-') dir = k;
        else {
            std::cerr << "usage: vedette-tournament MODULE_DIR --a KIND --b KIND [--games N] [--seed S]\n"
                         "       [--scenario ID] [--side SIDE|both] [--max-actions N] [--ai-debug]\n"
                         "       [--save-dir DIR]\n";
            return 2;
        }
    }
    if (dir.empty()) {
        std::cerr << "vedette-tournament: MODULE_DIR missing\n";
        return 2;
    }
    // checked before the first game, not after it has been played
    if (!save_dir.empty()) {
        std::error_code ec;
        if (!std::filesystem::is_directory(save_dir, ec)) {
            std::cerr << "vedette-tournament: --save-dir " << save_dir << ": not a directory (create it first)\n";
            return 2;
        }
    }
    ai::register_bot_kinds();
    auto r = data::load_module(dir);
    if (!r.ok()) {
        for (const auto& e : r.errors) std::cerr << e.str() << "\n";
        return 1;
    }
    std::shared_ptr<const core::ModuleDef> def = r.module;
    std::shared_ptr<script::RulesHost> rules(script::RulesHost::load(def));
    const core::ScenarioDef* sc = scenario.empty() ? &def->scenarios.front() : def->scenario(scenario);
    if (!sc) {
        std::cerr << "no scenario '" << scenario << "'\n";
        return 1;
    }
    std::printf("%s: %s vs %s, %d game(s) per side, seeds %llu..\n", def->id.c_str(), a.c_str(),
                b.c_str(), games, static_cast<unsigned long long>(seed));
    std::vector<double> all_times, turn_times;
    double largest = -1;  // the largest AI decision, and where it was taken
    std::string largest_where;
    double cpu_total = 0;
    int games_total = 0;
    for (const auto& side : def->sides) {
        if (only_side != "both" && only_side != side.id) continue;
        int wins = 0, losses = 0, other = 0;
        double turns = 0;
        std::map<std::string, int> endings;  // how the games ended (ai::result_kind)
        for (int g = 0; g < games; ++g) {
            const std::uint64_t gs = seed + static_cast<std::uint64_t>(g) * 7919;
            session::Setup setup;
            setup.seed = gs;
            auto s = session::Session::start(def, rules, *sc, setup);
            s.set_record_hashes(!save_dir.empty());  // a save's replay checks its hashes
            std::map<std::string, std::unique_ptr<session::Bot>> bots;
            std::string why;
            for (const auto& sd : def->sides) {
                bots[sd.id] = session::make_bot(sd.id == side.id ? a : b, gs * 31 + sd.id.size(), &why);
                if (!bots[sd.id]) {
                    std::cerr << why << "\n";
                    return 2;
                }
            }
            std::uint64_t taken = 0;
            const std::clock_t cpu0 = std::clock();
            const auto wall0 = std::chrono::steady_clock::now();
            int turn = s.state().turn;
            double turn_t = 0;
            while (!s.over() && taken < max_actions) {
                const std::string role = s.decider();
                const std::string step = s.state().decision.step;
                const auto t0 = std::chrono::steady_clock::now();
                const std::string act = bots[role]->choose(s, role);
                const double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
                if (act.empty()) break;
                if (dynamic_cast<ai::AiBot*>(bots[role].get())) {
                    all_times.push_back(dt);
                    turn_t += dt;
                    if (dt > largest) {  // where to look first (VEDETTE_AI_DEBUG, the bench)
                        largest = dt;
                        largest_where = "seed " + std::to_string(gs) + ", Turn " +
                                        std::to_string(s.state().turn) + ", " + role + " " + step +
                                        " -> " + act + " (action " +
                                        std::to_string(taken + 1) + ")";
                    }
                }
                const auto res = s.apply(role, act);
                if (!res.ok) {
                    std::cerr << "refused: " << role << " " << act << ": " << res.refusal << "\n";
                    break;
                }
                ++taken;
                if (s.state().turn != turn) {
                    if (turn_t > 0) turn_times.push_back(turn_t);
                    turn_t = 0;
                    turn = s.state().turn;
                }
            }
            if (turn_t > 0) turn_times.push_back(turn_t);
            if (!save_dir.empty()) {
                const std::string path = save_dir + "/" + a + "-as-" + side.id + "-" + std::to_string(gs) + ".json";
                try {
                    s.save(path);
                } catch (const std::exception& e) {
                    std::cerr << "vedette-tournament: cannot save " << path << ": " << e.what() << "\n";
                    return 1;
                }
            }
            const std::string w = ai::winner_of(*def, s.state().result);
            if (w == side.id) ++wins;
            else if (!w.empty()) ++losses;
            else ++other;
            turns += s.state().turn;
            ++endings[s.over() ? ai::result_kind(s.state().result) : "unfinished"];
            const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
            const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
            cpu_total += cpu;
            ++games_total;
            std::fprintf(stderr, "  game %d (%s as %s, seed %llu): %s, turn %d, %llu actions, %.1f s CPU, %.1f s wall; %s\n", g + 1,
                         a.c_str(), side.id.c_str(), static_cast<unsigned long long>(gs),
                         w.empty() ? ("unfinished: " + s.state().result).c_str() : (w + " wins").c_str(),
                         s.state().turn, static_cast<unsigned long long>(taken), cpu, wall,
                         ai::attacker_progress(s.state(), rules.get()).c_str());
        }
        const int n = wins + losses + other;
        const auto [lo, hi] = wilson(wins, n);
        std::printf("%-8s as %-10s: won %3d/%-3d = %5.1f%%  95%% CI [%5.1f%%, %5.1f%%]  avg length %.1f turns\n",
                    a.c_str(), side.id.c_str(), wins, n, 100.0 * wins / std::max(1, n), 100 * lo,
                    100 * hi, turns / std::max(1, n));
        std::string how;
        for (const auto& [kind, count] : endings) how += (how.empty() ? "" : "; ") + std::to_string(count) + " x " + kind;
        if (!how.empty()) std::printf("    how they ended: %s\n", how.c_str());
    }
    if (games_total > 0) std::printf("CPU per game (both bots and the rules): %.1f s on average\n", cpu_total / games_total);
    if (!all_times.empty()) {
        std::printf("AI decision time: median %.1f ms, max %.0f ms over %zu decisions; per Turn median %.2f s, max %.2f s\n",
                    1000 * median(all_times), 1000 * *std::max_element(all_times.begin(), all_times.end()),
                    all_times.size(), median(turn_times),
                    turn_times.empty() ? 0.0 : *std::max_element(turn_times.begin(), turn_times.end()));
        std::vector<double> sorted = all_times;
        std::sort(sorted.begin(), sorted.end());
        std::printf("    99th percentile %.0f ms; the largest: %s\n",
                    1000 * sorted[std::min(sorted.size() - 1, sorted.size() * 99 / 100)],
                    largest_where.c_str());
    }
    return 0;
}
