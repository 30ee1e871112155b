#include "script/profiler.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>

#include "lua.h"

namespace vedette::script::detail {

void Profiler::sample(lua_State* L) {
    ++samples_;
    seen_.clear();
    lua_Debug ar;
    for (int level = 0; level < 200 && lua_getstack(L, level, &ar); ++level) {
        if (!lua_getinfo(L, level == 0 ? "Sln" : "Sn", &ar)) break;
        if (ar.what[0] == 'C') continue;  // host functions are timed by count_api
        std::string key = std::string(ar.short_src) + ':' + std::to_string(ar.linedefined);
        Counts& f = functions_[key];
        if (f.name.empty())
            f.name = ar.what[0] == 'm' ? "(main chunk)" : ar.name ? ar.name : "?";
        if (level == 0) {
            ++f.self;
            ++lines_[std::string(ar.short_src) + ':' + std::to_string(ar.currentline)];
        }
        if (std::find(seen_.begin(), seen_.end(), &f) == seen_.end()) {  // recursion counts once
            ++f.inclusive;
            seen_.push_back(&f);
        }
    }
}

namespace {
std::string pct(std::uint64_t part, std::uint64_t whole) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(1) << std::setw(6)
      << (whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
    return o.str();
}
}  // namespace

Profiler::~Profiler() {
    try {
        std::ofstream out(path_, std::ios::app);
        if (!out) {
            std::fprintf(stderr, "VEDETTE_LUA_PROFILE: cannot write %s\n", path_.c_str());
            return;
        }
        out << "== Lua profile: " << title_ << " — " << samples_ << " samples of 1000 "
            << "Lua instructions (" << samples_ / 1000 << " M instructions)\n";
        std::vector<std::pair<std::string, const Counts*>> fs;
        for (const auto& [k, c] : functions_) fs.emplace_back(k, &c);
        const auto table = [&](const char* head, auto key) {
            std::sort(fs.begin(), fs.end(), [&](const auto& a, const auto& b) {
                return key(*a.second) != key(*b.second) ? key(*a.second) > key(*b.second)
                                                        : a.first < b.first;
            });
            out << head << "\n   self%  incl%  function (where defined)\n";
            for (std::size_t i = 0; i < fs.size() && i < 40; ++i)
                out << pct(fs[i].second->self, samples_) << ' '
                    << pct(fs[i].second->inclusive, samples_) << "  " << fs[i].second->name
                    << " (" << fs[i].first << ")\n";
        };
        table("-- by own instructions", [](const Counts& c) { return c.self; });
        table("-- by instructions including callees", [](const Counts& c) { return c.inclusive; });

        std::vector<std::pair<std::string, std::uint64_t>> ls(lines_.begin(), lines_.end());
        std::sort(ls.begin(), ls.end(), [](const auto& a, const auto& b) {
            return a.second != b.second ? a.second > b.second : a.first < b.first;
        });
        out << "-- hottest lines\n   self%  line\n";
        for (std::size_t i = 0; i < ls.size() && i < 30; ++i)
            out << pct(ls[i].second, samples_) << "  " << ls[i].first << '\n';

        std::map<std::string, Api> by_name;  // the sandbox's own functions share one line
        for (const auto& [fn, a] : api_) {
            auto n = api_names_.find(fn);
            Api& b = by_name[n == api_names_.end() ? "(sandbox: pairs, string matching, ...)"
                                                   : n->second];
            b.calls += a.calls;
            b.ns += a.ns;
        }
        std::vector<std::pair<std::string, Api>> as(by_name.begin(), by_name.end());
        std::sort(as.begin(), as.end(), [](const auto& a, const auto& b) {
            return a.second.ns != b.second.ns ? a.second.ns > b.second.ns : a.first < b.first;
        });
        out << "-- host API calls (wall time inside the host function)\n       calls      ms  "
               "function\n";
        for (const auto& [name, a] : as)
            out << std::setw(12) << a.calls << ' ' << std::setw(7) << std::fixed
                << std::setprecision(1) << static_cast<double>(a.ns) / 1e6 << "  " << name << '\n';
        out << '\n';
    } catch (...) {
        // A destructor must not throw; a profile that cannot be written is only lost.
    }
}

}  // namespace vedette::script::detail
