#!/usr/bin/env bash
# Plays N complete random-vs-random games of a module (seeds 1..N) with every invariant checked
# after every action (vedette-cli play --check-invariants): no script error, no broken
# invariant, every game reaching its end. Issue 4's acceptance asks for 2,000 games of 1814:
#   scripts/random-games.sh modules/napoleon_1814 2000
# The test suite runs a few. Extra arguments go to `vedette-cli play` (e.g. --option NAME).
# JOBS=N plays N games at a time (default: one per core); FIRST=S starts at seed S (seeds
# S..S+N-1), so a long sweep can run in slices.
set -uo pipefail
MODULE=${1:?usage: random-games.sh MODULE_DIR N [play options...]}
N=${2:?usage: random-games.sh MODULE_DIR N [play options...]}
shift 2
CLI=${VEDETTE_CLI:-build/framework/apps/cli/vedette-cli}
SIDES=$(grep -o '<side id="[a-z_]*"' "$MODULE/module.xml" | sed 's/<side id="//;s/"//')
BOTS=""
for s in $SIDES; do BOTS="$BOTS --bot $s=random"; done
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
FIRST=${FIRST:-1}
LAST=$((FIRST + N - 1))
seq "$FIRST" "$LAST" | xargs -P "${JOBS:-$(nproc)}" -I{} sh -c \
  "$CLI play $MODULE --seed {} $BOTS --check-invariants --max-actions 100000 $* > $OUT/{}.out 2> $OUT/{}.err; echo \$? > $OUT/{}.rc"
pass=0; fail=0
for i in $(seq "$FIRST" "$LAST"); do
  if [ "$(cat "$OUT/$i.rc")" = 0 ] && grep -q '"result":"[^"]' "$OUT/$i.out"; then
    pass=$((pass+1))
  else
    fail=$((fail+1))
    echo "seed $i: $(cat "$OUT/$i.err" "$OUT/$i.out" | head -c 400)"
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
