#!/usr/bin/env bash
# Builds the benchmarks in Release and runs them. Not a test: figures for humans and notes.
# Usage: scripts/bench.sh [google-benchmark flags, e.g. --benchmark_filter=1814]
# JOBS=N sets the build's parallelism (default: every core). Before/after figures of the 1814
# benchmarks: docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DVEDETTE_BUILD_GUI=OFF -DVEDETTE_BUILD_TESTS=ON \
      -DVEDETTE_BENCH=ON >/dev/null
cmake --build build-bench --target vedette_bench -j"${JOBS:-$(nproc)}"
build-bench/tests/bench/vedette_bench --benchmark_counters_tabular=true "$@"
