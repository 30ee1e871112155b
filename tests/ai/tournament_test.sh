#!/usr/bin/env bash
# vedette-tournament end to end: a short game per side written with --save-dir, each save then
# verified by `vedette-cli replay --verify` (the hashes recorded while the bots played).
set -u
TOUR=$1
CLI=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }

out=$("$TOUR" modules/napoleon_1814 --a ai-easy --b random --games 1 --seed 3 --max-actions 60 \
      --save-dir "$T" 2>"$T/err"); rc=$?
[ $rc -eq 0 ] && ok || bad "tournament exit $rc: $(cat "$T/err")"
grep -q "as french" <<<"$out" && grep -q "as coalition" <<<"$out" && ok || bad "no per-side lines in [$out]"
# where the largest AI decision was taken
grep -q "the largest: seed 3, Turn [0-9]*, [a-z]* [a-z_.]* -> " <<<"$out" && ok || bad "no largest decision in [$out]"
# how the games ended, per side (60 actions end no game)
[ "$(grep -c "how they ended: 1 x unfinished" <<<"$out")" -eq 2 ] && ok || bad "no endings tally in [$out]"
for side in french coalition; do
  f="$T/ai-easy-as-$side-3.json"
  if [ -f "$f" ]; then ok; else bad "no save $f"; continue; fi
  v=$("$CLI" replay "$f" --verify 2>&1)
  grep -q "replay verified (60 actions" <<<"$v" && ok || bad "replay of $f: $v"
done
# scripts/ai_positions.py fates reads a save's log alone (docs/ai.md, round 50)
f="$T/ai-easy-as-coalition-3.json"
fa=$(python3 scripts/ai_positions.py fates "$f" 2>&1)
grep -q "^1 games: 0 won by Napoleon's capture, 0 by the cities, 0 lost, 1 unfinished; " <<<"$fa" &&
    grep -q "unfinished T[0-9]*, [0-9]* throws" <<<"$fa" && ok || bad "ai_positions.py fates: $fa"
# its orders, south and hunters modes (round 51): the order tests and CCs of the Turn played, the
# south never entered, no Turn 5 to look at
o=$(python3 scripts/ai_positions.py orders "$f" 2>&1)
grep -q "orders [0-9]*, .*CCs unspent [0-9]*, Turns 1$" <<<"$o" && grep -q "'games': 1}$" <<<"$o" && ok ||
    bad "ai_positions.py orders: $o"
so=$(python3 scripts/ai_positions.py south "$f" 2>&1)
grep -q "south never entered" <<<"$so" && grep -q "^  never unfinished: 1$" <<<"$so" && ok ||
    bad "ai_positions.py south: $so"
hu=$(python3 scripts/ai_positions.py hunters "$f" --cli "$CLI" 2>&1); rc=$?
[ $rc -eq 0 ] && [ -z "$hu" ] && ok || bad "ai_positions.py hunters: exit $rc, $hu"
# its overruns mode (round 54): no overrun of Napoleon on Turn 1, nothing printed
ov=$(python3 scripts/ai_positions.py overruns "$f" --cli "$CLI" 2>&1); rc=$?
[ $rc -eq 0 ] && [ -z "$ov" ] && ok || bad "ai_positions.py overruns: exit $rc, $ov"
# its march mode (round 58): the Paris-bound armies' moves of Turn 1 (Winter), none in Spring
ma=$(python3 scripts/ai_positions.py march "$f" 2>&1)
grep -q "^L ai-easy-as-coalition-3.json (moves/units/unit-hexes/net/nearer/as near/farther) winter:[0-9/-]* spring:0/0/0/0/0/0/0 unmoved:[0-9]*$" <<<"$ma" &&
    grep -q "^  unfinished (1 games), winter: moves [0-9.]*, .*, unmoved [0-9.]* a game$" <<<"$ma" && ok ||
    bad "ai_positions.py march: $ma"
# scripts/ai_compare.py: a save directory against itself is played alike throughout
cmp=$(python3 scripts/ai_compare.py --a "$T/err" --b "$T/err" --saves "$T" "$T" 2>&1)
grep -q "saved by both: 2, played action for action alike: 2$" <<<"$cmp" &&
    ! grep -q "played differently" <<<"$cmp" && ok || bad "ai_compare.py --saves: $cmp"
# its sign test on the games only one version won (round 58): exact, two-sided
st=$(cd scripts && python3 -c "import ai_compare as c; print(c.sign_test(0, 0), round(c.sign_test(8, 10), 4), round(c.sign_test(0, 6), 4))" 2>&1)
[ "$st" = "1.0 0.8145 0.0312" ] && ok || bad "ai_compare.py sign_test: $st"
# scripts/ai_round.sh (round 58): a round's runs, its saves kept; the same build on the same seeds
# plays the same games (compared with --compare); an OUTDIR already used is refused
r=$(scripts/ai_round.sh "$T/round" --bin "$TOUR" --seeds 3 --procs 1 --a ai-easy --max-actions 20 2>&1); rc=$?
[ $rc -eq 0 ] && [ "$(ls "$T/round/saves" | wc -l)" -eq 6 ] && grep -q "^this round: " <<<"$r" && ok ||
    bad "ai_round.sh: exit $rc, $r"
r=$(scripts/ai_round.sh "$T/round2" --bin "$TOUR" --seeds 3 --procs 1 --a ai-easy --max-actions 20 \
    --compare "$T/round" 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q "saved by both: 6, played action for action alike: 6$" <<<"$r" && ok ||
    bad "ai_round.sh --compare: exit $rc, $r"
r=$(scripts/ai_round.sh "$T/round" --bin "$TOUR" --seeds 3 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "already holds games" <<<"$r" && ok || bad "ai_round.sh into a used OUTDIR: exit $rc, $r"
r=$(scripts/ai_round.sh "$T/round3" --bin "$TOUR" --seeds 3 --games 0 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "games must be a positive number" <<<"$r" && [ ! -d "$T/round3" ] && ok ||
    bad "ai_round.sh --games 0: exit $rc, $r"
# a directory that does not exist: a clear error before any game is played, exit 2
"$TOUR" modules/napoleon_1814 --a random --b random --games 1 --max-actions 5 --save-dir "$T/missing/dir" \
    >"$T/out2" 2>"$T/err2"; rc=$?
[ $rc -eq 2 ] && grep -q "not a directory" "$T/err2" && ! grep -q "game 1" "$T/out2" "$T/err2" && ok ||
    bad "missing --save-dir: exit $rc, $(cat "$T/err2")"
echo "tournament: $pass passed, $fail failed"
[ $fail -eq 0 ]
