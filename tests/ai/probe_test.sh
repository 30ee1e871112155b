#!/usr/bin/env bash
# vedette-ai-probe (docs/ai.md, round 39) on a saved random game: the gate's figures keep their
# order (holding cities or removing cavalry never shrinks a supply field, 6.2), holding the cities
# opens routes in this game, the plan mode reports every depot the save's log makes; a missing
# save, a log the rules refuse and a wrong mode are clear errors.
set -u
TOUR=$1
PROBE=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { pass=$((pass+1)); }
bad() { fail=$((fail+1)); echo "FAIL: $*"; }

"$TOUR" modules/napoleon_1814 --a random --b random --games 1 --seed 3 --side coalition --save-dir "$T" >/dev/null 2>"$T/err" ||
    bad "tournament: $(tail -3 "$T/err")"
S="$T/random-as-coalition-3.json"
"$PROBE" gate "$S" --sites >"$T/gate" 2>"$T/gate.err" && ok || bad "gate exit: $(cat "$T/gate.err")"
[ "$(grep -c '^T[0-9]* next to the capital' "$T/gate")" -ge 3 ] && ok || bad "gate lines: $(cat "$T/gate")"
python3 - "$T/gate" <<'PY' && ok || bad "gate figures: $(cat "$T/gate")"
import re, sys
opened = False
for line in open(sys.argv[1]):
    m = re.match(r"T(\d+) next to the capital in the field (\d) \(cities held (\d), no cavalry (\d), both (\d)\); "
                 r"best depot within 3 \S+ (-?\d) \(cities held: \S+ (-?\d)\)", line)
    if not m:
        continue
    f, h, c, b, d, dh = (int(x) for x in m.groups()[1:])
    assert f <= h <= b and f <= c <= b and b <= 6, line          # 6.2: more friendly cities, fewer screens
    assert d >= f and dh >= h and dh >= d, line                   # a depot adds sources
    opened = opened or dh > d
assert opened, "holding the cities never opened a route"
PY
"$PROBE" plan "$S" >"$T/plan" 2>"$T/plan.err" && ok || bad "plan exit: $(cat "$T/plan.err")"
made=$(python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(sum(1 for e in s['log'] if e['role']=='coalition' and e['action'].startswith('depot ')))" "$S")
[ "$(grep -c 'makes a depot at' "$T/plan")" -eq "$made" ] && [ "$made" -gt 0 ] && ok || bad "plan depots: $made in the log, $(grep -c 'makes a depot' "$T/plan") reported"
grep -q '^T1 depots .*; \(plan site [0-9]*/[0-9]*, hold\|no plan\)' "$T/plan" && ok || bad "plan lines: $(head -3 "$T/plan")"
# the totals over the saves: one save here, a figure for each of its Turns (the nearest depot,
# whether it stood within 3 of Paris, whether a unit held the plan's site), and whether a depot
# stood within 3 of Paris at a Turn's start
python3 - "$T/plan" <<'PY' && ok || bad "plan totals: $(tail -2 "$T/plan")"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
nearest, held = [], []
for l in lines:
    m = re.match(r"T\d+ depots([^;]*); (?:plan site \d+/\d+, hold (\d+)([+-])|no plan)", l)
    if m:
        nearest.append(min([int(x.split("/")[1]) for x in m.group(1).split()] or [99]))
        held.append(None if m.group(2) is None else m.group(3) == "+")
totals = re.match(r"# nearest depot to the capital at the Turn's first allocation \(median; saves with one within 3 "
                  r"of the saves at that Turn, the plan's site held by a unit\):(.*)", lines[-2])
assert totals, lines[-2]
figures = re.findall(r" T(\d+) (\S+) \((\d) of 1, site held (\d)/(\d)\)", totals.group(1))
assert len(figures) == len(nearest), (figures, nearest)
assert all(float(f[1]) == n and int(f[2]) == (n <= 3) for f, n in zip(figures, nearest)), (figures, nearest)
assert all((int(f[3]), int(f[4])) == ((0, 0) if h is None else (int(h), 1)) for f, h in zip(figures, held)), (figures, held)
assert any(h for h in held), held  # the save holds its plan's site on some Turn
within = re.match(r"# saves with a depot within 3 of the capital at a Turn's first allocation: (\d) of 1$", lines[-1])
assert within and int(within.group(1)) == (min(nearest) <= 3), (lines[-1], nearest)
PY
# two saves that ended differently for the Coalition: the totals split by outcome, each line
# counting its own save
python3 -c "
import json,sys; s=json.load(open(sys.argv[1]))
won = s['state']['result'].lower().startswith('the coalition win')
s['state']['result'] = 'The French win: (edited)' if won else 'The Coalition wins: (edited)'
json.dump(s,open(sys.argv[2],'w'))" "$S" "$T/other.json"
"$PROBE" plan "$S" "$T/other.json" >"$T/plan2" 2>"$T/plan2.err" && ok || bad "plan of two exit: $(cat "$T/plan2.err")"
python3 - "$T/plan2" <<'PY' && ok || bad "plan split: $(tail -4 "$T/plan2")"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
assert re.search(r" T1 \S+ \(\d of 2, ", lines[-4]), lines[-4]
assert re.match(r"#   lost: T1 \S+ \(\d of 1, ", lines[-3]) and re.match(r"#   won: T1 \S+ \(\d of 1, ", lines[-2]), lines[-3:-1]
assert lines[-1].endswith(" of 2"), lines[-1]
PY
# errors
"$PROBE" gate "$T/none.json" >/dev/null 2>"$T/e1"; rc=$?
[ $rc -eq 1 ] && grep -q "cannot open" "$T/e1" && ok || bad "missing save: exit $rc, $(cat "$T/e1")"
python3 -c "
import json,sys; s=json.load(open(sys.argv[1]))
i=next(i for i,e in enumerate(s['log']) if e['action'].startswith('allocate '))
s['log'][i]['action']='allocate 9999'
json.dump(s,open(sys.argv[2],'w'))" "$S" "$T/bad.json"
"$PROBE" plan "$T/bad.json" >/dev/null 2>"$T/e2"; rc=$?
[ $rc -eq 1 ] && grep -q "log entry [0-9]* (.*allocate 9999) refused" "$T/e2" && ok || bad "refused log: exit $rc, $(cat "$T/e2")"
"$PROBE" where "$S" >/dev/null 2>"$T/e3"; rc=$?
[ $rc -eq 2 ] && grep -q "usage" "$T/e3" && ok || bad "wrong mode: exit $rc"
echo "probe: $pass passed, $fail failed"
[ $fail -eq 0 ]
