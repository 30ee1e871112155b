#!/usr/bin/env bash
# scripts/ai_oracle.py (docs/ai.md, round 38): every oracle's edits still find their anchors in
# cnw_series, and a game on each oracle copy plays to its end; a copy onto an existing
# directory is refused.
set -u
TOUR=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
for o in gate winter_forage trains3 chainless freesite freesite1 gate_depot train73 near_supplied believe_gate gate_r1 gate_r2 gate_r1_cities gate_cities gate_depot_cities gate_depot3; do
  if ! python3 scripts/ai_oracle.py "$o" "$T/$o" >"$T/$o.log" 2>&1; then bad "$o: $(cat "$T/$o.log")"; continue; fi
  grep -rq "ORACLE" "$T/$o/cnw_series" && ok || bad "$o: no edit in the copy"
  out=$("$TOUR" "$T/$o/napoleon_1814" --a random --b random --games 1 --seed 3 --side coalition 2>"$T/$o.err")
  grep -q "how they ended: 1 x The" <<<"$out" && ok || bad "$o: the game did not end: $out $(tail -3 "$T/$o.err")"
done
python3 scripts/ai_oracle.py gate "$T/gate" >"$T/again.log" 2>&1; rc=$?
[ $rc -ne 0 ] && grep -q "exists" "$T/again.log" && ok || bad "an existing directory: exit $rc, $(cat "$T/again.log")"
echo "oracles: $pass passed, $fail failed"
[ $fail -eq 0 ]
