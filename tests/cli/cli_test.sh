#!/usr/bin/env bash
# vedette-cli end to end: the command-line contract of PRODUCT.md, in separate processes.
set -u
CLI=$1
FIX=tests/fixtures/fixture_module
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }
expect_eq() { if [ "$1" == "$2" ]; then ok; else bad "$3: expected [$2], got [$1]"; fi; }
expect_contains() { if grep -qF -- "$2" <<<"$1"; then ok; else bad "$3: [$2] not in [$1]"; fi; }

# validate
out=$("$CLI" validate $FIX 2>&1); expect_eq $? 0 "validate fixture exit"
expect_contains "$out" "is valid" "validate fixture output"

# usage errors exit 2
"$CLI" frobnicate >/dev/null 2>&1; expect_eq $? 2 "unknown command exit"
"$CLI" play $FIX --seed x >/dev/null 2>&1; expect_eq $? 2 "bad seed exit"
out=$("$CLI" --help); expect_contains "$out" "vedette-cli play MODULE_DIR" "help text"

# determinism across processes: byte-identical logs and hashes
for run in a b; do
  "$CLI" play $FIX --seed 42 --bot blue=random --bot red=random --option weather \
      --save "$T/$run.json" --log-jsonl "$T/$run.jsonl" > "$T/$run.out"; expect_eq $? 0 "play $run exit"
done
if cmp -s "$T/a.jsonl" "$T/b.jsonl"; then ok; else bad "logs differ between processes"; fi
if cmp -s "$T/a.out" "$T/b.out"; then ok; else bad "summaries differ between processes"; fi
expect_contains "$(cat "$T/a.out")" '"result":"' "summary has a result"
[ -s "$T/a.jsonl" ] && ok || bad "empty jsonl log"
ls "$T"/*.tmp.* >/dev/null 2>&1 && bad "temporary save file left behind" || ok

# replay --verify passes; a tampered log is named
out=$("$CLI" replay "$T/a.json" --verify); expect_eq $? 0 "replay verify exit"
expect_contains "$out" "replay verified" "replay output"
python3 - "$T/a.json" "$T/tampered.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["log"][2]["hash"] = "0000000000000000"
json.dump(j, open(sys.argv[2], "w"))
PY
out=$("$CLI" replay "$T/tampered.json" --verify 2>&1); expect_eq $? 1 "tampered replay exit"
expect_contains "$out" "log entry 3" "tampered replay names the entry"

# scripted play, --dice, actions/apply/show on a save
printf '# blue moves, then passes twice; red attacks across the bridge\nmove b_inf2 0403\n@blue pass\npass\n@red move r_cav1 0504\npass\nattack 0504 0403\n' > "$T/script.txt"
out=$("$CLI" play $FIX --script "$T/script.txt" --dice 6 --save "$T/s.json"); expect_eq $? 0 "scripted play exit"
expect_contains "$out" '"stopped":"waiting for blue"' "scripted play waits for the defender"
out=$("$CLI" actions "$T/s.json"); expect_contains "$out" "choice stand" "actions lists the defender's choice"
expect_contains "$out" "[F6]" "actions names the rule"
out=$("$CLI" actions "$T/s.json" --json); expect_contains "$out" '"kind": "choice"' "actions --json"
out=$("$CLI" apply "$T/s.json" --role red --action pass 2>&1); expect_eq $? 1 "apply by the wrong role exit"
expect_contains "$out" "it is not red's decision" "apply refusal reason"
out=$("$CLI" apply "$T/s.json" --role blue --action "choice stand" --save "$T/s2.json"); expect_eq $? 0 "apply exit"
expect_contains "$out" "1d6 = 6" "apply shows the forced die"
out=$("$CLI" replay "$T/s2.json" --verify); expect_eq $? 0 "replay after apply"
out=$("$CLI" show "$T/s2.json" --role blue); expect_contains "$out" "box:red_reserve: 1 piece(s) you cannot see" "show hides the reserve"
if grep -q r_inf3 <<<"$out"; then bad "blue's view names the hidden piece"; else ok; fi
out=$("$CLI" show "$T/s2.json" --role blue --json); if grep -q r_inf3 <<<"$out"; then bad "blue's json view names the hidden piece"; else ok; fi
out=$("$CLI" show "$T/s2.json" --all); expect_contains "$out" "r_inf3" "show --all shows everything"

# a refused script line stops with its file:line
printf 'move b_inf1 0808\n' > "$T/bad.txt"
out=$("$CLI" play $FIX --script "$T/bad.txt" 2>&1); expect_eq $? 1 "refused script exit"
expect_contains "$out" "bad.txt:1: blue move b_inf1 0808: refused:" "refused script message"

# damaged saves: clear error, exit 3, never a crash
head -c 500 "$T/a.json" > "$T/trunc.json"
"$CLI" show "$T/trunc.json" --module $FIX >/dev/null 2>&1; expect_eq $? 3 "truncated save exit"
echo '{"format":"vedette-save","version":1,"module":{"id":"fixture"}}' > "$T/empty.json"
"$CLI" show "$T/empty.json" --module $FIX >/dev/null 2>&1; expect_eq $? 3 "hollow save exit"

# broken modules: exit 1, file:line diagnostics
for d in tests/fixtures/broken/*/; do
  out=$("$CLI" validate "${d%/}" 2>&1); code=$?
  expect_eq $code 1 "validate ${d%/} exit"
  grep -qE '^[^:]+:[0-9]+: ' <<<"$out" || grep -qE '^[^:]+: ' <<<"$out" && ok || bad "no file:line in $out"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
