#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite (what CI runs):
#   1. every test (unit, module, CLI end-to-end, GUI under xvfb) on the normal build;
#   2. the layers that parse untrusted input or run module code (core, data, script, session:
#      hostile XML corpus, damaged saves, sandbox escapes, random games) again under
#      AddressSanitizer + UBSan. VEDETTE_SKIP_SANITIZERS=1 skips step 2 (local quick runs).
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=$(nproc)

scripts/setup.sh build
(cd build && ctest --output-on-failure -j"$JOBS" --timeout 900)

if [ "${VEDETTE_SKIP_SANITIZERS:-0}" != 1 ]; then
  echo "== AddressSanitizer + UBSan =="
  cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVEDETTE_SANITIZE=ON \
        -DVEDETTE_BUILD_GUI=OFF >/dev/null
  cmake --build build-asan -j"$JOBS" --target test_core test_data test_script test_session
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  # The 200-game determinism sweep already ran above; under the sanitizers a few games suffice.
  build-asan/tests/core/test_core
  build-asan/tests/data/test_data
  build-asan/tests/script/test_script
  build-asan/tests/session/test_session "~[determinism]"
  build-asan/tests/session/test_session "a different seed gives a different game"
  echo "sanitizers: 5 passed, 0 failed"
fi
