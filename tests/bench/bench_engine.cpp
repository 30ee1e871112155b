// Engine benchmarks (scripts/bench.sh): random playouts, snapshot copies, module load,
// Lua -> C++ call overhead. Figures go into the issue notes, never into unit tests.
#include <benchmark/benchmark.h>

#include "data/loader.hpp"
#include "script/rules_host.hpp"
#include "session/bot.hpp"
#include "session/session.hpp"

using namespace vedette;

namespace {

const std::string kFixture = std::string(VEDETTE_SOURCE_DIR) + "/tests/fixtures/fixture_module";

struct Loaded {
    std::shared_ptr<const core::ModuleDef> def;
    std::shared_ptr<script::RulesHost> rules;
};

const Loaded& fixture() {
    static const Loaded l = [] {
        auto r = data::load_module(kFixture);
        if (!r.ok()) throw std::runtime_error("fixture module does not load");
        return Loaded{r.module, std::shared_ptr<script::RulesHost>(script::RulesHost::load(r.module))};
    }();
    return l;
}

session::Session start(std::uint64_t seed) {
    session::Setup setup;
    setup.seed = seed;
    return session::Session::start(fixture().def, fixture().rules, *fixture().def->scenario("basic"), setup);
}

void BM_FixtureRandomPlayout(benchmark::State& st) {
    std::uint64_t seed = 1;
    std::int64_t actions = 0;
    for (auto _ : st) {
        auto s = start(seed);
        s.set_record_hashes(false);
        session::RandomBot blue(seed), red(seed + 1);
        while (!s.over()) {
            const std::string role = s.decider();
            s.apply(role, (role == "blue" ? blue : red).choose(s, role));
            ++actions;
        }
        ++seed;
    }
    st.counters["games/s"] = benchmark::Counter(static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
    st.counters["actions/game"] = static_cast<double>(actions) / static_cast<double>(st.iterations());
}
BENCHMARK(BM_FixtureRandomPlayout)->Unit(benchmark::kMillisecond);

void BM_SnapshotCopy(benchmark::State& st) {
    auto s = start(1);
    for (auto _ : st) {
        core::GameState copy = s.state();
        benchmark::DoNotOptimize(copy);
    }
}
BENCHMARK(BM_SnapshotCopy);

void BM_StateHash(benchmark::State& st) {
    auto s = start(1);
    for (auto _ : st) benchmark::DoNotOptimize(s.state().hash());
}
BENCHMARK(BM_StateHash);

void BM_ModuleLoad(benchmark::State& st) {
    for (auto _ : st) {
        auto r = data::load_module(kFixture);
        auto host = script::RulesHost::load(r.module);
        benchmark::DoNotOptimize(host);
    }
}
BENCHMARK(BM_ModuleLoad)->Unit(benchmark::kMillisecond);

// rules.bench_calls(game, n) makes n calls of game.turn(): Lua -> C++ -> Lua round trips.
void BM_LuaToCppCall(benchmark::State& st) {
    auto s = start(1);
    core::GameState state = s.state();
    const int n = 10000;
    for (auto _ : st) fixture().rules->call(state, "bench_calls", {core::Value(n)});
    st.SetItemsProcessed(st.iterations() * n);
}
BENCHMARK(BM_LuaToCppCall)->Unit(benchmark::kMicrosecond);

void BM_ListActions(benchmark::State& st) {
    auto s = start(1);
    for (auto _ : st) benchmark::DoNotOptimize(s.actions(s.decider()));
}
BENCHMARK(BM_ListActions)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
