#!/usr/bin/env bash
# AI tournaments for issue 6 (docs/ai.md): N games per pairing and side, printing win rates with
# 95% Wilson intervals, average game length and the AI's decision times.
#   scripts/tournament.sh [GAMES] [BUILD_DIR]     (default 200 games, build-ai)
# Pairings: ai (normal) vs random, ai-hard vs ai-easy, ai vs ai-easy. Each on both sides, one
# process at a time at nice 10 (a normal-vs-random game costs ~10 s of CPU with the AI as the French, ~20 s as
# the Coalition; hard vs easy ~25-32 s; docs/ai.md).
# The per-game lines (winner, Turn, actions, CPU and wall time) go to standard error.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-200}
BUILD=${2:-build-ai}
BIN=$BUILD/framework/ai/vedette-tournament
if [ ! -x "$BIN" ]; then
    cmake -S . -B "$BUILD" -DVEDETTE_BUILD_GUI=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$BUILD" --target vedette-tournament -j1
fi
for pair in "ai random" "ai-hard ai-easy" "ai ai-easy"; do
    set -- $pair
    nice -n 10 "$BIN" modules/napoleon_1814 --a "$1" --b "$2" --games "$GAMES" --seed 1
done
