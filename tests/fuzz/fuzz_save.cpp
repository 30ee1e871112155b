// libFuzzer target: bytes as a save file of the fixture module. Loading and verifying must give
// a clean error or succeed — never crash, hang or leak (see docs/testing.md).
#include <cstddef>
#include <cstdint>
#include <string>

#include "data/loader.hpp"
#include "script/rules_host.hpp"
#include "session/session.hpp"

using namespace vedette;

namespace {
struct Fixture {
    std::shared_ptr<const core::ModuleDef> def;
    std::shared_ptr<script::RulesHost> rules;
};
const Fixture& fixture() {
    static const Fixture f = [] {
        auto r = data::load_module(std::string(VEDETTE_SOURCE_DIR) + "/tests/fixtures/fixture_module");
        if (!r.ok()) __builtin_trap();
        script::Limits limits;
        limits.instructions = 20'000'000;  // a replay of a long fuzzed log must stay fast
        return Fixture{r.module, std::shared_ptr<script::RulesHost>(script::RulesHost::load(r.module, limits))};
    }();
    return f;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto& f = fixture();
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(data, data + size);
    } catch (const nlohmann::json::exception&) {
        return 0;
    }
    try {
        auto s = session::Session::from_json(f.def, f.rules, j);
        (void)s.view("blue");
        (void)s.actions(s.decider());
    } catch (const std::exception&) {
    }
    try {
        if (j.is_object() && j.contains("log") && j["log"].is_array() && j["log"].size() < 200)
            (void)session::Session::verify(f.def, f.rules, j);
    } catch (const std::exception&) {
    }
    return 0;
}
