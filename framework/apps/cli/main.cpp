// vedette-cli: the headless front end (PRODUCT.md "The command-line contract"; docs/cli.md).
// Exit codes: 0 success, 1 refused action / invalid module / failed verification,
// 2 usage error, 3 broken input or module bug (script error, damaged save).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/state_json.hpp"
#include "data/loader.hpp"
#include "script/rules_host.hpp"
#include "script/module_tests.hpp"
#include "ai/ai.hpp"
#include "session/bot.hpp"
#include "session/session.hpp"
#include "session/test_driver.hpp"

namespace fs = std::filesystem;
using namespace vedette;
using nlohmann::json;

namespace {

constexpr const char* kUsage = R"(vedette-cli — play, check and test Vedette game modules headless.

Usage:
  vedette-cli validate MODULE_DIR
  vedette-cli play MODULE_DIR [--scenario ID | --setup FILE] [--seed N] [--option NAME]...
                  [--bot ROLE=KIND]... [--dice N,N,...] [--script FILE] [--max-actions N]
                  [--save FILE] [--log-jsonl FILE] [--check-invariants]
  vedette-cli actions SAVE [--role R] [--json] [--module DIR]
  vedette-cli apply SAVE --role R --action TEXT [--save OUT] [--module DIR]
  vedette-cli show SAVE [--role R | --all] [--json] [--module DIR]
  vedette-cli replay SAVE --verify [--module DIR]
  vedette-cli test MODULE_DIR
  vedette-cli --help

Bot kinds: random, ai (= ai-normal), ai-easy, ai-hard (docs/ai.md; VEDETTE_AI_DEBUG=1
explains each AI decision on standard error). See docs/cli.md for details.
)";

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};
struct Refused : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Minimal option parser: positional arguments plus --name [value] options.
struct Args {
    std::vector<std::string> positional;
    std::multimap<std::string, std::string> options;

    bool has(const std::string& k) const { return options.count(k) > 0; }
    std::optional<std::string> get(const std::string& k) const {
        auto it = options.find(k);
        if (it == options.end()) return std::nullopt;
        return it->second;
    }
    std::vector<std::string> all(const std::string& k) const {
        std::vector<std::string> out;
        auto [a, b] = options.equal_range(k);
        for (auto it = a; it != b; ++it) out.push_back(it->second);
        return out;
    }
};

Args parse(int argc, char** argv, int first, const std::vector<std::string>& flags,
           const std::vector<std::string>& valued) {
    Args a;
    for (int i = first; i < argc; ++i) {
        std::string s = argv[i];
        if (s.rfind("--", 0) == 0) {
            std::string name = s.substr(2), value;
            const auto eq = name.find('=');
            bool inline_value = false;
            if (eq != std::string::npos) {
                value = name.substr(eq + 1);
                name = name.substr(0, eq);
                inline_value = true;
            }
            const bool is_flag = std::find(flags.begin(), flags.end(), name) != flags.end();
            const bool is_valued = std::find(valued.begin(), valued.end(), name) != valued.end();
            if (!is_flag && !is_valued) throw UsageError("unknown option --" + name);
            if (is_valued && !inline_value) {
                if (i + 1 >= argc) throw UsageError("--" + name + " needs a value");
                value = argv[++i];
            }
            a.options.emplace(name, value);
        } else {
            a.positional.push_back(s);
        }
    }
    return a;
}

std::uint64_t parse_u64(const std::string& s, const std::string& what) {
    std::uint64_t v = 0;
    if (s.empty() || s.size() > 20) throw UsageError(what + ": expected a number, got '" + s + "'");
    for (char c : s) {
        if (c < '0' || c > '9') throw UsageError(what + ": expected a number, got '" + s + "'");
        const std::uint64_t next = v * 10 + static_cast<std::uint64_t>(c - '0');
        if (next / 10 != v) throw UsageError(what + ": number too large");
        v = next;
    }
    return v;
}

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct Loaded {
    std::shared_ptr<const core::ModuleDef> def;
    std::shared_ptr<script::RulesHost> rules;
};

// Loads a module and its rules; prints diagnostics and returns nullopt when it is broken.
std::optional<Loaded> load(const std::string& dir) {
    auto r = data::load_module(dir);
    if (!r.ok()) {
        for (const auto& e : r.errors) std::cerr << e.str() << "\n";
        std::cerr << dir << ": " << r.errors.size() << " error(s)\n";
        return std::nullopt;
    }
    Loaded l;
    l.def = r.module;
    try {
        l.rules = std::shared_ptr<script::RulesHost>(script::RulesHost::load(l.def));
    } catch (const std::exception& e) {
        std::cerr << dir << "/" << e.what() << "\n";
        return std::nullopt;
    }
    return l;
}

// Finds the module of a save: --module, else the path recorded in the save, else modules/<id>.
std::optional<Loaded> load_for_save(const Args& a, const json& save) {
    std::vector<std::string> candidates;
    if (auto m = a.get("module")) candidates.push_back(*m);
    if (save.is_object() && save.contains("module") && save["module"].is_object()) {
        candidates.push_back(save["module"].value("path", ""));
        const std::string id = save["module"].value("id", "");
        if (!id.empty()) candidates.push_back("modules/" + id);
    }
    for (const auto& c : candidates) {
        if (c.empty() || !fs::exists(fs::path(c) / "module.xml")) continue;
        return load(c);
    }
    throw std::runtime_error("cannot find the save's module; pass --module DIR");
}

void print_summary(const session::Session& s, size_t taken, const std::string& stopped) {
    json j;
    const auto& st = s.state();
    j["result"] = st.result;
    j["turn"] = st.turn;
    j["phase"] = s.def().phases.empty() ? "" : s.def().phases[static_cast<size_t>(st.phase)].id;
    j["actions"] = taken;
    j["log_length"] = s.log().size();
    j["state_hash"] = core::hash_hex(st.hash());
    j["decider"] = s.decider();
    if (!stopped.empty()) j["stopped"] = stopped;
    std::cout << j.dump() << "\n";
}

void write_log_jsonl(const session::Session& s, const std::string& path) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + path);
    for (const auto& e : s.log_json("")) out << e.dump() << "\n";
}

int cmd_validate(int argc, char** argv) {
    Args a = parse(argc, argv, 2, {}, {});
    if (a.positional.size() != 1) throw UsageError("validate needs MODULE_DIR");
    auto l = load(a.positional[0]);
    if (!l) return 1;
    std::cout << a.positional[0] << ": module '" << l->def->id << "' " << l->def->version
              << " is valid (" << l->def->map.hexes.size() << " hexes, "
              << l->def->counter_types.size() << " counter types, " << l->def->scenarios.size()
              << " scenario(s))\n";
    return 0;
}

int cmd_play(int argc, char** argv) {
    Args a = parse(argc, argv, 2, {"check-invariants"},
                   {"scenario", "setup", "seed", "option", "bot", "dice", "script", "max-actions",
                    "save", "log-jsonl"});
    if (a.positional.size() != 1) throw UsageError("play needs MODULE_DIR");
    if (a.has("scenario") && a.has("setup")) throw UsageError("give --scenario or --setup, not both");
    auto l = load(a.positional[0]);
    if (!l) return 1;
    const core::ModuleDef& d = *l->def;

    core::ScenarioDef scenario;
    if (auto file = a.get("setup")) {
        auto r = data::load_setup(d, *file);
        if (!r.ok()) {
            for (const auto& e : r.errors) std::cerr << e.str() << "\n";
            return 1;
        }
        scenario = r.scenario;
    } else {
        if (d.scenarios.empty()) throw std::runtime_error("module '" + d.id + "' has no scenario");
        const std::string id = a.get("scenario").value_or(d.scenarios.front().id);
        const core::ScenarioDef* sc = d.scenario(id);
        if (!sc) throw UsageError("module '" + d.id + "' has no scenario '" + id + "'");
        scenario = *sc;
    }
    session::Setup setup;
    setup.seed = a.has("seed") ? parse_u64(*a.get("seed"), "--seed") : 1;
    for (const auto& o : a.all("option")) setup.options.insert(o);
    if (auto dice = a.get("dice")) {
        std::stringstream ss(*dice);
        std::string item;
        while (std::getline(ss, item, ','))
            setup.forced_dice.push_back(static_cast<int>(parse_u64(item, "--dice")));
    }
    std::map<std::string, std::unique_ptr<session::Bot>> bots;
    for (const auto& b : a.all("bot")) {
        const auto eq = b.find('=');
        if (eq == std::string::npos) throw UsageError("--bot needs ROLE=KIND, got '" + b + "'");
        const std::string role = b.substr(0, eq);
        if (d.side_index(role) < 0) throw UsageError("module '" + d.id + "' has no role '" + role + "'");
        std::string why;
        auto bot = session::make_bot(b.substr(eq + 1), setup.seed + bots.size(), &why);
        if (!bot) throw UsageError(why);
        bots[role] = std::move(bot);
    }
    std::vector<std::pair<int, std::string>> script;
    if (auto file = a.get("script")) {
        std::stringstream ss(read_text(*file));
        std::string line;
        int n = 0;
        while (std::getline(ss, line)) {
            ++n;
            const auto first = line.find_first_not_of(" \t\r");
            if (first == std::string::npos || line[first] == '#') continue;
            script.emplace_back(n, line.substr(first));
        }
    }
    const std::uint64_t max_actions =
        a.has("max-actions") ? parse_u64(*a.get("max-actions"), "--max-actions") : 1000000;

    auto s = session::Session::start(l->def, l->rules, scenario, setup);
    // --check-invariants: after every action, the engine's own invariants and the module's
    // rules.invariants(game) (a list of broken invariants, if the module defines it).
    const bool check = a.has("check-invariants");
    auto check_now = [&](const std::string& after) {
        if (!check) return;
        std::string problem = s.state().check_invariants();
        if (problem.empty() && l->rules->has_function("invariants")) {
            core::GameState copy = s.state();
            const core::Value v = l->rules->call(copy, "invariants");
            if (v.is_string()) problem = v.as_string();
            if (v.is_array() && !v.as_array().empty() && v.as_array()[0].is_string())
                problem = v.as_array()[0].as_string();
        }
        if (!problem.empty())
            throw std::runtime_error("invariant broken after " + after + ": " + problem);
    };
    check_now("set-up");
    size_t taken = 0, next_line = 0;
    std::string stopped;
    while (!s.over()) {
        if (taken >= max_actions) {
            stopped = "max-actions";
            break;
        }
        const std::string role = s.decider();
        std::string action;
        std::string source;
        if (next_line < script.size()) {
            std::string line = script[next_line].second;
            source = a.get("script").value() + ":" + std::to_string(script[next_line].first);
            ++next_line;
            // "@role action" pins the line to a role, so a script fails loudly when out of step.
            if (line[0] == '@') {
                const auto sp = line.find(' ');
                const std::string want = line.substr(1, sp == std::string::npos ? sp : sp - 1);
                if (want != role)
                    throw Refused(source + ": the line is for " + want + " but " + role + " must decide");
                line = sp == std::string::npos ? "" : line.substr(sp + 1);
            }
            action = line;
        } else if (auto it = bots.find(role); it != bots.end()) {
            action = it->second->choose(s, role);
            source = "bot " + role;
            if (action.empty()) {
                stopped = "no legal action for " + role;
                break;
            }
        } else {
            stopped = "waiting for " + role;
            break;
        }
        auto r = s.apply(role, action);
        if (!r.ok) throw Refused(source + ": " + role + " " + action + ": refused: " + r.refusal);
        // a bot's reasoning goes into the log as its role's private debug note
        if (auto it = bots.find(role); it != bots.end() && source.rfind("bot ", 0) == 0)
            s.annotate_last(role, it->second->explain());
        ++taken;
        check_now("action " + std::to_string(s.log().size()) + " (" + role + ": " + action + ")");
    }
    if (auto file = a.get("save")) s.save(*file);
    if (auto file = a.get("log-jsonl")) write_log_jsonl(s, *file);
    print_summary(s, taken, stopped);
    return 0;
}

std::string role_or_decider(const Args& a, const session::Session& s) {
    return a.get("role").value_or(s.decider());
}

int cmd_actions(int argc, char** argv) {
    Args a = parse(argc, argv, 2, {"json"}, {"role", "module"});
    if (a.positional.size() != 1) throw UsageError("actions needs SAVE");
    const json save = session::Session::read_json_file(a.positional[0]);
    auto l = load_for_save(a, save);
    if (!l) return 1;
    auto s = session::Session::from_json(l->def, l->rules, save);
    const std::string role = role_or_decider(a, s);
    const auto acts = s.actions(role);
    if (a.has("json")) {
        json out = json::array();
        for (const auto& act : acts)
            out.push_back({{"text", act.text()}, {"kind", act.kind}, {"args", act.args},
                           {"label", act.label}, {"hexes", act.hexes}, {"pieces", act.pieces}});
        std::cout << json{{"role", role}, {"prompt", s.state().decision.prompt},
                          {"rule", s.state().decision.rule}, {"actions", out}}
                         .dump(1)
                  << "\n";
    } else {
        if (role == s.decider() && !s.state().decision.prompt.empty())
            std::cout << "# " << s.state().decision.prompt
                      << (s.state().decision.rule.empty() ? "" : " [" + s.state().decision.rule + "]")
                      << "\n";
        if (acts.empty()) std::cout << "# no legal action for " << role << "\n";
        for (const auto& act : acts)
            std::cout << act.text() << (act.label.empty() ? "" : "\t# " + act.label) << "\n";
    }
    return 0;
}

int cmd_apply(int argc, char** argv) {
    Args a = parse(argc, argv, 2, {}, {"role", "action", "save", "module"});
    if (a.positional.size() != 1) throw UsageError("apply needs SAVE");
    if (!a.has("role") || !a.has("action")) throw UsageError("apply needs --role and --action");
    const json save = session::Session::read_json_file(a.positional[0]);
    auto l = load_for_save(a, save);
    if (!l) return 1;
    auto s = session::Session::from_json(l->def, l->rules, save);
    auto r = s.apply(*a.get("role"), *a.get("action"));
    if (!r.ok) throw Refused("refused: " + r.refusal);
    for (const auto& e : r.events)
        if (e.visible_to.empty() || e.visible_to == *a.get("role")) std::cout << e.text << "\n";
    s.save(a.get("save").value_or(a.positional[0]));
    print_summary(s, 1, "");
    return 0;
}

void print_view_text(const json& v, const core::ModuleDef& d) {
    std::cout << d.name << " — turn " << v["turn"] << ", phase " << v["phase"].get<std::string>()
              << ", active side " << v["active"].get<std::string>() << "\n";
    if (!v["result"].get<std::string>().empty())
        std::cout << "Result: " << v["result"].get<std::string>() << "\n";
    const auto& dec = v["decision"];
    if (!dec["role"].get<std::string>().empty())
        std::cout << "Waiting for " << dec["role"].get<std::string>() << ": "
                  << dec["prompt"].get<std::string>()
                  << (dec["rule"].get<std::string>().empty() ? "" : " [" + dec["rule"].get<std::string>() + "]")
                  << "\n";
    std::map<std::string, const json*> by_id;
    for (const auto& p : v["pieces"]) by_id[p["id"].get<std::string>()] = &p;
    for (const auto& st : v["stacks"]) {
        std::cout << "  " << st["loc"].get<std::string>() << ":";
        for (const auto& id : st["pieces"]) {
            const json& p = *by_id[id.get<std::string>()];
            std::cout << " " << p["id"].get<std::string>() << " (" << p["type"].get<std::string>();
            if (!p["face"].get<std::string>().empty()) std::cout << ", " << p["face"].get<std::string>();
            std::cout << ")";
        }
        std::cout << "\n";
    }
    if (v.contains("private_boxes"))
        for (const auto& [box, n] : v["private_boxes"].items())
            std::cout << "  " << box << ": " << n << " piece(s) you cannot see\n";
    for (const auto& [k, t] : v["tracks"].items()) std::cout << "  track " << k << " = " << t << "\n";
    for (const auto& [k, p] : v["piles"].items()) {
        std::cout << "  pile " << k << ": ";
        if (p.contains("count")) std::cout << p["count"] << " card(s)";
        else std::cout << p["cards"].size() << " card(s)";
        std::cout << "\n";
    }
}

int cmd_show(int argc, char** argv) {
    Args a = parse(argc, argv, 2, {"all", "json"}, {"role", "module"});
    if (a.positional.size() != 1) throw UsageError("show needs SAVE");
    if (a.has("all") && a.has("role")) throw UsageError("give --role or --all, not both");
    const json save = session::Session::read_json_file(a.positional[0]);
    auto l = load_for_save(a, save);
    if (!l) return 1;
    auto s = session::Session::from_json(l->def, l->rules, save);
    const std::string role = a.has("all") ? "" : role_or_decider(a, s);
    const json v = s.view(role);
    if (a.has("json")) {
        json out = v;
        out["log"] = s.log_json(role);
        std::cout << out.dump(1) << "\n";
    } else {
        print_view_text(v, *l->def);
    }
    return 0;
}

int cmd_replay(int argc, char** argv) {
    Args a = parse(argc, argv, 2, {"verify"}, {"module"});
    if (a.positional.size() != 1) throw UsageError("replay needs SAVE");
    if (!a.has("verify")) throw UsageError("replay needs --verify");
    const json save = session::Session::read_json_file(a.positional[0]);
    auto l = load_for_save(a, save);
    if (!l) return 1;
    const std::string problem = session::Session::verify(l->def, l->rules, save);
    if (!problem.empty()) {
        std::cerr << a.positional[0] << ": replay diverges: " << problem << "\n";
        return 1;
    }
    std::cout << a.positional[0] << ": replay verified (" << save["log"].size()
              << " actions, final hash " << save.value("state_hash", "") << ")\n";
    return 0;
}

int cmd_test(int argc, char** argv) {
    Args a = parse(argc, argv, 2, {}, {});
    if (a.positional.size() != 1) throw UsageError("test needs MODULE_DIR");
    auto l = load(a.positional[0]);
    if (!l) return 1;
    session::SessionTestDriver driver(l->def, l->rules);
    return script::run_module_tests(l->def, driver, std::cout).ok() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << kUsage;
        return 2;
    }
    const std::string cmd = argv[1];
    ai::register_bot_kinds();
    try {
        if (cmd == "--help" || cmd == "-h" || cmd == "help") {
            std::cout << kUsage;
            return 0;
        }
        if (cmd == "validate") return cmd_validate(argc, argv);
        if (cmd == "play") return cmd_play(argc, argv);
        if (cmd == "actions") return cmd_actions(argc, argv);
        if (cmd == "apply") return cmd_apply(argc, argv);
        if (cmd == "show") return cmd_show(argc, argv);
        if (cmd == "replay") return cmd_replay(argc, argv);
        if (cmd == "test") return cmd_test(argc, argv);
        throw UsageError("unknown command '" + cmd + "'");
    } catch (const UsageError& e) {
        std::cerr << "vedette-cli: " << e.what() << "\n(see vedette-cli --help)\n";
        return 2;
    } catch (const Refused& e) {
        std::cerr << "vedette-cli: " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "vedette-cli: " << e.what() << "\n";
        return 3;
    }
}
