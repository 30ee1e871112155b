#!/usr/bin/env bash
# One round's runs for issue 6 (docs/ai.md, "Round N"): normal against random as the Coalition,
# 6 games a seed, the seeds shared out over niced processes, each game's save and log line kept
# so that two versions can be compared game for game with scripts/ai_compare.py --saves.
#
#   scripts/ai_round.sh OUTDIR [--bin TOURNAMENT] [--seeds "41 42 ..."] [--procs N]
#                              [--a KIND] [--b KIND] [--side coalition|french] [--compare BASE_DIR]
#                              [--games N] [--max-actions N]
#
# OUTDIR gets saves/ (one save per game), err<seed>.txt (the per-game lines) and out<seed>.txt
# (the tallies); an existing OUTDIR with saves is refused (no run is mixed into another). With
# --compare, the round is then compared with BASE_DIR's (a directory this script wrote).
# Defaults: build/framework/ai/vedette-tournament, seeds 41-57, 6 games a seed (102 games, about
# 20 minutes on two cores), 2 processes, ai against random as the Coalition. Environment
# variables reach the tournament unchanged (VEDETTE_AI_DEBUG and the like).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 2; }
[ $# -ge 1 ] || usage
OUT=$1; shift
BIN=$ROOT/build/framework/ai/vedette-tournament
SEEDS=$(seq 41 57)
PROCS=2 A=ai B=random SIDE=coalition BASE= MAXA= GAMES=6
while [ $# -gt 0 ]; do
    case $1 in
        --bin) BIN=$2; shift 2 ;;
        --seeds) SEEDS=$2; shift 2 ;;
        --procs) PROCS=$2; shift 2 ;;
        --a) A=$2; shift 2 ;;
        --b) B=$2; shift 2 ;;
        --side) SIDE=$2; shift 2 ;;
        --compare) BASE=$2; shift 2 ;;
        --max-actions) MAXA=$2; shift 2 ;;
        --games) GAMES=$2; shift 2 ;;
        *) echo "ai_round: unknown option $1" >&2; usage ;;
    esac
done
[ -x "$BIN" ] || { echo "ai_round: no tournament binary at $BIN (build it: cmake --build build --target vedette-tournament)" >&2; exit 2; }
[[ $GAMES =~ ^[1-9][0-9]*$ ]] || { echo "ai_round: --games must be a positive number, not '$GAMES'" >&2; exit 2; }
[[ $PROCS =~ ^[1-9][0-9]*$ ]] || { echo "ai_round: --procs must be a positive number, not '$PROCS'" >&2; exit 2; }
[ -z "$MAXA" ] || [[ $MAXA =~ ^[1-9][0-9]*$ ]] || { echo "ai_round: --max-actions must be a positive number, not '$MAXA'" >&2; exit 2; }
for s in $SEEDS; do [[ $s =~ ^[0-9]+$ ]] || { echo "ai_round: seed '$s' is not a number" >&2; exit 2; }; done
if [ -n "$BASE" ] && ! ls "$BASE"/err*.txt >/dev/null 2>&1; then
    echo "ai_round: $BASE holds no err<seed>.txt of a round to compare with" >&2; exit 2
fi
if [ -d "$OUT/saves" ] && [ -n "$(ls -A "$OUT/saves")" ]; then
    echo "ai_round: $OUT/saves already holds games: choose another OUTDIR" >&2; exit 2
fi
mkdir -p "$OUT/saves"
EXTRA=${MAXA:+--max-actions $MAXA}
export BIN OUT A B SIDE ROOT EXTRA GAMES
# shellcheck disable=SC2016  # expanded by the inner shell
printf '%s\n' $SEEDS | xargs -P "$PROCS" -I{} sh -c \
    'nice -n 10 "$BIN" "$ROOT/modules/napoleon_1814" --a "$A" --b "$B" --games "$GAMES" --seed {} --side "$SIDE" \
         --save-dir "$OUT/saves" $EXTRA > "$OUT/out{}.txt" 2> "$OUT/err{}.txt"'
# (sed reads the whole tally: `head -1` could close the pipe while Python still writes, and a
# BrokenPipeError failed the round under pipefail)
python3 "$ROOT/scripts/ai_compare.py" --side "$SIDE" --a "$OUT"/err*.txt --b "$OUT"/err*.txt | sed -n "1{s/^A:/this round:/;p;}"
if [ -n "$BASE" ]; then
    python3 "$ROOT/scripts/ai_compare.py" --side "$SIDE" --a "$BASE"/err*.txt --b "$OUT"/err*.txt \
        --saves "$BASE/saves" "$OUT/saves"
fi
