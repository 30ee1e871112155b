// A sampling profiler for module authors (VEDETTE_LUA_PROFILE=FILE): where a module's rules spend
// their Lua instructions, function by function and line by line, and how often they call each
// host API function and for how long. Off unless the variable is set: then the count hook samples
// the Lua call stack every kHookStep instructions and guarded<> times each API call.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

struct lua_State;

namespace vedette::script::detail {

class Profiler {
public:
    explicit Profiler(std::string path) : path_(std::move(path)) {}
    // Appends the report to the file (several hosts, e.g. the AI's own, may share one file).
    ~Profiler();
    Profiler(const Profiler&) = delete;
    Profiler& operator=(const Profiler&) = delete;

    void set_title(std::string t) { title_ = std::move(t); }
    // One sample of the running Lua stack (called from the count hook).
    void sample(lua_State* L);
    // Host API bookkeeping: names come from the registration tables (open_api).
    void name_api(const void* fn, std::string name) { api_names_[fn] = std::move(name); }
    void count_api(const void* fn, std::chrono::nanoseconds spent) {
        auto& a = api_[fn];
        ++a.calls;
        a.ns += static_cast<std::uint64_t>(spent.count());
    }

private:
    struct Counts {
        std::uint64_t self = 0, inclusive = 0;
        std::string name;
    };
    struct Api {
        std::uint64_t calls = 0, ns = 0;
    };
    std::string path_, title_;
    std::uint64_t samples_ = 0;
    std::unordered_map<std::string, Counts> functions_;  // "rules/x.lua:12" (where it is defined)
    std::unordered_map<std::string, std::uint64_t> lines_;  // "rules/x.lua:40" (self samples)
    std::unordered_map<const void*, Api> api_;
    std::unordered_map<const void*, std::string> api_names_;
    std::vector<Counts*> seen_;  // scratch: functions already counted in this sample
};

}  // namespace vedette::script::detail
