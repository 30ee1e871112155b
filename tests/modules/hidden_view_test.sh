#!/usr/bin/env bash
# 1814 r.15.1: the opponent may never see a Hidden Force box. Through the CLI as a player would
# use it: each role's view (`show --role R --json`) holds no piece that is in the other side's
# private boxes — not as a piece, not in a stack, not in the decision, not in the log — only the
# marker on the map and the number of pieces in the box. Checked on the set-up (units placed in
# boxes) and again after random play with the option on (hides, moves, transfers, reveals).
set -euo pipefail
CLI=${1:?usage: hidden_view_test.sh VEDETTE_CLI}
SETUP=modules/napoleon_1814/tests/setups/hidden_view.xml
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

check() {   # check SAVE STRICT: STRICT=1 also searches the log (nothing was ever on the map)
  for role in french coalition; do
    "$CLI" show "$1" --all --json > "$T/all.json"
    "$CLI" show "$1" --role "$role" --json > "$T/view.json"
    python3 - "$T/all.json" "$T/view.json" "$role" "$2" <<'PY'
import json, sys
full, view, role, strict = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3], sys.argv[4] == "1"
enemy = "coalition" if role == "french" else "french"
hidden = [p["id"] for p in full["pieces"] if p["loc"].startswith("box:%s_hidden_" % enemy)]
shown = {p["id"] for p in view["pieces"]}
stacked = {i for s in view["stacks"] for i in s["pieces"]}
decision = json.dumps(view["decision"])
log = json.dumps(view["log"])
bad = [i for i in hidden if i in shown or i in stacked or i in decision or (strict and i in log)]
if bad:
    sys.exit("%s sees the hidden %s" % (role, ", ".join(bad)))
counts = view["private_boxes"]
# hide-count: not even how many units a hidden force holds (15.1: the card may not be inspected)
seen = [b for b in counts if b.startswith("box:%s_hidden_" % enemy)]
if seen:
    sys.exit("%s sees the size of %s" % (role, ", ".join(seen)))
own = {p["loc"] for p in full["pieces"] if p["loc"].startswith("box:%s_hidden_" % role)}
mine = {p["loc"] for p in view["pieces"] if p["loc"].startswith("box:%s_hidden_" % role)}
if own != mine:
    sys.exit("%s does not see its own hidden forces %s" % (role, sorted(own - mine)))
print("%s: %d hidden enemy unit(s) unseen, sizes unseen; own boxes %d" % (role, len(hidden), len(mine)))
PY
  done
}

"$CLI" play modules/napoleon_1814 --setup "$SETUP" --option hidden_forces --max-actions 0 \
  --save "$T/start.json" > /dev/null
check "$T/start.json" 1
# The full campaign with random players: every 150 actions, whatever is hidden at that moment.
for n in 150 300 450 600 750 900; do
  "$CLI" play modules/napoleon_1814 --option hidden_forces --seed 7 --bot french=random \
    --bot coalition=random --max-actions "$n" --save "$T/g$n.json" > /dev/null
  check "$T/g$n.json" 0
done
echo "hidden_view_test: ok"
