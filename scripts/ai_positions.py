#!/usr/bin/env python3
"""Positions of saved 1814 tournament games, Turn by Turn (docs/ai.md, round 27).

The tournament's saves (`vedette-tournament ... --save-dir DIR`) hold each game's log. This tool
replays a save's log up to a point with `vedette-cli play --script` and reads the position there,
to see what the AI faced without re-running its decisions:

  hunt   at the start of each Turn's Active Supply phase from Turn 5 (its General Supply phase
         done, 6.3-6.4; before the Coalition's first allocation, 7.4): is Napoleon alone (no French
         combat unit with him, 11.20)? the nearest Coalition stack that could hunt him (a
         Commander, combat units, none disrupted: 8.3, 8.4) and the nearest Coalition unit;
         whether his fate die was thrown that Turn ('*' each), and how many hexes within three of
         him hold French combat units ('esc N': where he may escape to, 11.20, as movement.lua's
         escape_hexes counts them but for the hexes 14.11/16.3 close; with none, an overrun
         eliminates him)
  paris  at the start of each Turn's Rally and Movement phase from Turn 7 (the depots made, 7.7):
         French units in Paris (all / ready), 'S' when a Coalition unit holds Bordeaux or
         Marseilles (14.4), and the distances of the Coalition's stacks able to move within three
         hexes of Paris
  force  at the start of Turn T's Rally and Movement phase (--turn, default 10): the Coalition's
         stacks within five hexes of Paris: units, disrupted, single-unit stacks, units in stacks
         able to move
  armies at the start of the Rally and Movement phase of Turns 1, 4, 7 and 10: each Coalition
         army's units on the map, their median distance to Paris, how many are disrupted, and
         how many stand within four hexes of Paris undisrupted (a march and an attack, 8.4, 10.1)
  escort at the start of each Turn's combat phase from Turn 5 (the moves over, 8.9's overruns
         thrown): Napoleon alone or with how many French combat units ('escN'), the Coalition
         stacks next to him that may attack him (10.1: every unit undisrupted, no forage marker;
         their units), and '!' when the Coalition attacked his hex that Turn (11.20: his fate is
         thrown when every unit with him is eliminated)
  trains per Turn, read from the log alone (no replay): the Coalition's Supply Trains for the
         Turn (7.2), depots made (7.7) and converted (7.1), rallies (8.1), moves and passes (8.2),
         and trains allocated to a hex that already had one that Turn (7.3 play note, 8.2)
  attacks every Coalition attack order on Paris, read from the log alone (round 36): the source hex,
         the order test (10.2: die + CR + CCs; 'fails' ends the Turn's attacks, 'is aborted' on a
         1), the attack value and its divisor (11.2-11.3), whether the garrison was all disrupted
         (11.19: 'dis', one die) or not, the result (11.8: a3 = the attacker won by 3; t0 a tie, 11.9), '*' when
         Paris was taken (a win by three or more, 11.12); totals by source hex and garrison
  windows at the Coalition's first allocation of each Turn from Turn 7 (7.4, its supply phase done,
         6.3-6.4) where Paris holds no ready French unit and the south is held (14.4): the stacks
         within five hexes of Paris the rules let take a train (7.3: a Commander, in General
         Supply; `vedette-cli actions`) as hex@distance:ready/units, and the hexes within five that
         got a train that Turn (round 36)
  beside at the start of each Turn's combat phase from Turn 8 (the moves over): the Coalition's
         stacks next to Paris as hex:units, 'dN' when N of them are disrupted, 'F' under a forage
         marker (10.1: neither may attack), '!' when it attacked Paris that Turn; 'S' after the
         Turn's number when the south is held (14.4: Paris then wins); totals over the saves (round 44)
  losses per Turn, read from the log alone: the Coalition's combat units disrupted and eliminated
         by 6.4 (out of supply, a failed forage roll among them), by march attrition (8.7) and by
         combat (11.18, 8.5), its stacks that failed to forage (6.3), and the French Commanders'
         12.1 moves that ended on a Coalition depot (RULINGS S-4, M-27: it supplies nobody while
         he stands there); the totals are per game, for Turns 1-6 (Winter) and 7-12
  orders per game, read from the log alone (round 51): the Coalition's attack orders (10.2): how many
         went ahead, were aborted (a 1) and failed (10.2 b: no more attacks that Turn), the failures
         that the CCs it still had would have passed (die + CR + every CC left >= 7), and its CCs
         left unspent at the Turns' ends (9.1: lost)
  south  per game, read from the log alone (round 51): the Turn a Coalition stack first entered
         Bordeaux or Marseilles (14.4; a move's end or an advance after combat), and the games won
         and lost by that Turn
  hunters at the start of each Turn's Active Supply phase from Turn 5 with Napoleon alone (11.20):
         the Coalition's trains of that Turn allocated to stacks within three hexes of him and within
         four or five (7.3, 8.9: one overrun a Turn is all he gives), and those beyond the first
  overruns each movement-phase overrun of a lone Napoleon by a Coalition stack (8.9: the entry whose
         events throw his fate die, 11.20), replayed to the step before it: the moving stack's
         units then, as T<turn>:<units>; totals by the number of units (round 54)
  fates  per game, read from the log alone (round 50): how it ended ('cap' Napoleon captured,
         11.20; 'city' Paris and the south, 14.4; 'lost'; 'unfinished') and on which Turn, and each fate die of
         Napoleon's (11.20) by Turn as 'T<turn>:<faces>', 'm' after an overrun in the movement
         phase (8.9), 'c' in combat; totals: throws a game, by phase and by face, captures by a 1
         and with no escape, and per Turn the wins and their share of the games still going
  march  per game, read from the log alone (round 58): the Paris-bound armies' moves (Bohemia,
         Silesia, the North; 8.2-8.4) in Winter (Turns 1-6) and Spring: moves, units moved, hexes
         moved by units (unit-hexes) and net unit-hexes towards Paris, the units that ended a
         move nearer, as near, and farther; 'unmoved': their combat units on the map at the start
         that neither moved nor were lost in Winter; totals per game over the won and the lost games

Usage:  scripts/ai_positions.py {hunt|hunters|overruns|paris|force|armies|escort|beside|trains|losses|attacks|windows|fates|orders|south|march} SAVE... [--turn T] [--cli PATH] [--module DIR]
The defaults are build-ai's (else build's) vedette-cli and modules/napoleon_1814 (the module the saves were
played with: a replay refused by the rules stops with the CLI's message).
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PARIS, SOUTH = "5420", ("5929", "4832")  # Paris; Bordeaux and Marseilles (14.4)


def hex_distance(module):
    """Hexes between two labels (scripts/geo/hexgeo.py: the georeference of map.xml)."""
    sys.path.insert(0, os.path.join(ROOT, "scripts", "geo"))
    from hexgeo import from_map_xml  # noqa: E402
    g = from_map_xml(os.path.join(module, "map.xml"))
    return lambda a, b: g.distance(g.parse(a), g.parse(b))


def counter_types(module):
    """counter type -> its category; counter type -> its army (the stat "army", where it has one)."""
    root = ET.parse(os.path.join(module, "counters.xml")).getroot()
    category, army = {}, {}
    for ct in root.iter("counter-type"):
        category[ct.get("id")] = ct.get("category")
        for st in ct.iter("stat"):
            if st.get("id") == "army" and st.get("text"):
                army[ct.get("id")] = st.get("text")
    return category, army


TRAIN_EVENTS = (  # (column, how the log says it): the cnw series' event texts
    ("depots", re.compile(r"^coalition establishes a depot at")),
    ("converted", re.compile(r"^coalition converts the depot at")),
    ("rallies", re.compile(r"^coalition rallies at")),
    ("moves", re.compile(r"^coalition stack from \d+ ends its move")),
    ("passes", re.compile(r"^coalition passes and discards a Supply Train at")),
)
# a train put on a hex: allocated (7.4), or a depot turned back into one on its stack (7.1)
TRAIN_AT = re.compile(r"^coalition (allocates a Supply Train|converts the depot) at (\d+)")
LOSS_EVENTS = (  # (column, how the log says it) for the Coalition's combat units and stacks
    ("dis6.4", re.compile(r"^co_\w+ is disrupted: out of supply \(6\.4\)")),
    ("elim6.4", re.compile(r"^co_\w+ is eliminated \(out of supply")),
    ("dis8.7", re.compile(r"^co_\w+ is disrupted \(march attrition")),
    ("elim8.7", re.compile(r"^co_\w+ is eliminated \(march attrition")),
    ("dis11", re.compile(r"^co_\w+ is disrupted \((11\.18 )?hit")),
    ("elim11", re.compile(r"^co_\w+ is eliminated \((11\.18 )?hit")),
    ("forage", re.compile(r"^The coalition stack at \d+ fails to forage")),
)
DEPOT_MADE = re.compile(r"^coalition (?:establishes|deploys) a depot at (\d+)")
DEPOT_GONE = re.compile(r"^(?:coalition converts the depot at|The coalition [Dd]epot at) (\d+)")
# a stack's move: each step names its units; its end, the hexes it went (8.2-8.4)
MOVE_STEP = re.compile(r"^coalition moves (.*?) with [\w, ]+? from \d+ to \d+ via")
MOVE_END = re.compile(r"^coalition stack from (\d+) ends its move at (\d+) \((\d+) hexes")
MARCH_ARMIES = ("bohemia", "silesia", "north")  # the armies marching on Paris (the module's `army` stat)
COMMANDER_MOVE = re.compile(r"^(\w+) moves from \d+ to (\d+) \(12\.1\)")


def replay(args, save, n, legal=False):
    """The state after the first n actions of the save's log; with `legal`, also the legal actions
    there of the role deciding (`vedette-cli actions`, one per line: "action\t# label")."""
    with tempfile.TemporaryDirectory() as tmp:
        script, out = os.path.join(tmp, "script.txt"), os.path.join(tmp, "at.json")
        with open(script, "w") as f:
            f.write("".join(f"@{e['role']} {e['action']}\n" for e in save["log"][:n]))
        setup = save["setup"]
        cmd = [args.cli, "play", args.module, "--seed", str(setup["seed"]), "--scenario", setup["scenario"],
               "--script", script, "--save", out]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0 or not os.path.exists(out):
            sys.exit(f"ai_positions: replay failed: {r.stderr.strip() or r.stdout.strip()}")
        with open(out) as f:
            state = json.load(f)["state"]
        if not legal:
            return state
        r = subprocess.run([args.cli, "actions", out, "--module", args.module], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"ai_positions: actions failed: {r.stderr.strip() or r.stdout.strip()}")
        return state, r.stdout.splitlines()


def stacks(state):
    at = collections.defaultdict(list)
    for p in state["pieces"]:
        if p["loc"].isdigit():  # a hex label (boxes are "box:...")
            at[p["loc"]].append(p)
    return at


def paris_and_south(at, unit):
    """In `at` (stacks()): the French combat units in Paris, and whether a Coalition combat unit holds
    Bordeaux or Marseilles (14.4: Paris then wins the game)."""
    return [p for p in at[PARIS] if unit(p, "french")], any(unit(p, "coalition") for h in SOUTH for p in at[h])


def game_outcome(save):
    """How the saved game stands for the Coalition: "won", "lost" (a result, not its win) or
    "unfinished" (no result yet)."""
    result = save["state"]["result"]
    return "won" if "Coalition wins" in json.dumps(result) else "lost" if result else "unfinished"


def napoleon_hex(at):
    """The hex Napoleon stands on in `at` (stacks()), None when he is off the map."""
    return next((h for h, ps in at.items() if any(p["id"] == "napoleon" for p in ps)), None)


def first_index(save, pred):
    """Per Turn, how many log entries to replay to stand at the first decision of the first entry
    `pred` accepts. An entry carries the Turn and phase it leads into, with their automatic steps
    (the entry that ends a Turn holds the next one's supply phase, 6.3-6.4): it is replayed too."""
    out = {}
    for i, e in enumerate(save["log"]):
        if pred(e) and e["turn"] not in out:
            out[e["turn"]] = i + 1
    return out


def count_events(counter, table, text):
    """Adds 1 to each column of `table` ((column, pattern), ...) whose pattern the event text matches."""
    for column, pattern in table:
        counter[column] += bool(pattern.match(text))


CC_TURN = re.compile(r"Combat Commands: French \d+, Coalition (\d+)")
SOUTH_MOVE = re.compile(rf"^coalition stack from \d+ ends its move at ({'|'.join(SOUTH)})")
SOUTH_ADVANCE = re.compile(rf"advances into ({'|'.join(SOUTH)})")  # (11.12: the log entry's role is the side's)
ORDER_TEST = re.compile(r"^10\.2: die (\d) \+ CR (\d+) \+ (\d+) CC = \d+: the attack (goes ahead|fails|is aborted)")
ATTACK_VALUE = re.compile(r"^11\.3-11\.5: attack value (-?\d+) \(divisor (\d+)\)")
COMBAT_RESULT = re.compile(r"^11\.(?:8: the (attacker|defender) wins by (\d+)|9: tie)")


def attacks_on(save, target):
    """The Coalition's attack orders on `target` (10.1), each as a dict: turn, source hex, die, CR
    and CCs of the order test (10.2) and its outcome ("goes ahead", "fails", "is aborted"), the
    attack value and its divisor (11.2-11.3), whether the defenders were all disrupted (11.19),
    and who won by how much (11.8; ("tie", 0), 11.9); read from the log alone."""
    out, log = [], save["log"]
    for i, e in enumerate(log):
        parts = e["action"].split()
        if e["role"] != "coalition" or len(parts) != 3 or parts[0] != "attack" or parts[2] != target:
            continue
        a = {"turn": e["turn"], "from": parts[1], "order": None, "value": None, "disrupted_only": False, "result": None}
        for e2 in log[i + 1:i + 16]:
            if e2["action"].startswith("attack "):
                break  # the next order: this one ended without a result
            for ev in e2["events"]:
                text = ev.get("text", "")
                if m := ORDER_TEST.match(text):
                    a["die"], a["cr"], a["cc"], a["order"] = int(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4)
                elif m := ATTACK_VALUE.match(text):
                    a["value"], a["divisor"] = int(m.group(1)), int(m.group(2))
                elif text.startswith("11.19: the defenders are all disrupted"):
                    a["disrupted_only"] = True
                elif m := COMBAT_RESULT.match(text):  # (11.9: a tie)
                    a["result"] = (m.group(1), int(m.group(2))) if m.group(1) else ("tie", 0)
            if a["result"] or a["order"] in ("fails", "is aborted"):
                break
        out.append(a)
    return out


def turn_columns(row, total, per, columns, total_key):
    """The log-only modes' output: a header of `columns`, one "T<turn>:a/b/..." per Turn of `per`
    (Turn -> Counter), each added to `total` under total_key(turn, column); one more game."""
    row.append("(" + "/".join(columns) + ")")
    for turn in sorted(per):
        row.append(f"T{turn}:" + "/".join(str(per[turn][c]) for c in columns))
        for c in columns:
            total[total_key(turn, c)] += per[turn][c]
    total["games"] += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["hunt", "hunters", "overruns", "paris", "force", "armies", "escort", "beside", "trains",
                                     "losses", "attacks", "windows", "fates", "orders", "south", "march"])
    ap.add_argument("saves", nargs="+")
    ap.add_argument("--turn", type=int, default=10)
    clis = [os.path.join(ROOT, b, "framework/apps/cli/vedette-cli") for b in ("build-ai", "build")]
    ap.add_argument("--cli", default=next((c for c in clis if os.access(c, os.X_OK)), clis[0]))
    ap.add_argument("--module", default=os.path.join(ROOT, "modules/napoleon_1814"))
    args = ap.parse_args()
    if args.what not in ("trains", "losses", "attacks", "fates", "orders", "south", "march") and not os.access(args.cli, os.X_OK):  # (the log alone)
        sys.exit(f"ai_positions: no vedette-cli at {args.cli} (build it, or pass --cli)")
    dist, (cat, army) = hex_distance(args.module), counter_types(args.module)
    unit = lambda p, side: cat.get(p["type"]) == "unit" and p["owner"] == side
    commander = lambda p, side: cat.get(p["type"]) == "commander" and p["owner"] == side

    def can_move(ps):  # a Coalition stack that may take a train and move (8.3, 8.4)
        units = [p for p in ps if unit(p, "coalition")]
        return units and any(commander(p, "coalition") for p in ps) and all(p["face"] != "disrupted" for p in units)

    def can_attack(ps):  # a Coalition stack that may attack (10.1: every unit undisrupted, no forage marker)
        units = [p for p in ps if unit(p, "coalition")]
        return units and all(p["face"] != "disrupted" for p in units) and not any(p["type"] == "forage" for p in ps)

    total = collections.Counter()
    for path in args.saves:
        try:
            with open(path) as f:
                save = json.load(f)
        except (OSError, ValueError) as err:
            sys.exit(f"ai_positions: {path}: {err}")
        if "log" not in save or "setup" not in save:
            sys.exit(f"ai_positions: {path}: not a Vedette save (no log or setup)")
        outcome = game_outcome(save)
        won = outcome == "won"
        row = []
        if args.what == "hunt":
            rolls = collections.Counter(e["turn"] for e in save["log"] for ev in e["events"]
                                        if "fate of Napoleon" in ev.get("text", ""))
            supply_phases = first_index(save, lambda e: e["phase"] == "active_supply" and e["turn"] >= 5)
            for turn, i in sorted(supply_phases.items()):
                at = stacks(replay(args, save, i))
                nh = napoleon_hex(at)
                if nh is None:
                    row.append(f"T{turn}:-")
                    continue
                if any(unit(p, "french") for p in at[nh]):
                    row.append(f"T{turn}:escorted" + "*" * rolls[turn])
                    continue
                hunter = min([dist(h, nh) for h, ps in at.items() if can_move(ps)] or [99])
                near = min([dist(h, nh) for h, ps in at.items() if any(unit(p, "coalition") for p in ps)] or [99])
                band = ("a hunter within 3" if hunter <= 3 else
                        "a hunter within 4-5" if hunter <= 5 else "no hunter within 5")
                total["alone"] += 1
                total[band] += 1
                total["thrown, " + band] += rolls[turn] > 0
                total["a unit but no hunter within 3"] += near <= 3 < hunter
                # 11.20 (movement.lua escape_hexes): the hexes he may escape to
                escapes = sum(1 for h, ps in at.items() if 0 < dist(h, nh) <= 3 and any(unit(p, "french") for p in ps))
                if hunter <= 5:
                    total["a hunter within 5, escapes " + ("3+" if escapes >= 3 else str(escapes))] += 1
                row.append(f"T{turn}:alone,hunter {hunter},unit {near},esc {escapes}" + "*" * rolls[turn])
        elif args.what == "paris":
            for turn, i in sorted(first_index(save, lambda e: e["phase"] == "movement" and e["turn"] >= 7).items()):
                at = stacks(replay(args, save, i))
                garrison, south = paris_and_south(at, unit)
                ready = sum(p["face"] != "disrupted" for p in garrison)
                movers = sorted(dist(h, PARIS) for h, ps in at.items() if dist(h, PARIS) <= 3 and can_move(ps))
                row.append(f"T{turn}:{len(garrison)}/{ready}{'S' if south else ''}[{','.join(map(str, movers))}]")
        elif args.what == "escort":
            for turn, i in sorted(first_index(save, lambda e: e["phase"] == "combat" and e["turn"] >= 5).items()):
                at = stacks(replay(args, save, i))
                nh = napoleon_hex(at)
                if nh is None:
                    continue
                escort = sum(unit(p, "french") for p in at[nh])
                ready = sorted(sum(unit(p, "coalition") for p in ps) for h, ps in at.items()
                               if dist(h, nh) == 1 and can_attack(ps))
                attacked = any(e["turn"] == turn and e["role"] == "coalition" and e["action"].startswith("attack ")
                               and e["action"].endswith(" " + nh) for e in save["log"])
                band = f"esc{escort}" if escort else "alone"
                total[band] += 1
                total[band + ", attackers next to him"] += bool(ready)
                total[band + ", attackers next to him, attacked"] += bool(ready) and attacked
                row.append(f"T{turn}:{band}" + (f"[{','.join(map(str, ready))}]" if ready else "") + "!" * attacked)
        elif args.what == "beside":
            ordered = {(a["turn"], a["from"]) for a in attacks_on(save, PARIS)}
            for turn, i in sorted(first_index(save, lambda e: e["phase"] == "combat" and e["turn"] >= 8).items()):
                at = stacks(replay(args, save, i))
                _, south = paris_and_south(at, unit)
                cells = []
                for h, ps in sorted(at.items()):
                    units = [p for p in ps if unit(p, "coalition")]
                    if dist(h, PARIS) != 1 or not units:
                        continue
                    forage = any(p["type"] == "forage" for p in ps)
                    disrupted = sum(p["face"] == "disrupted" for p in units)
                    attacked = (turn, h) in ordered
                    total["stacks"] += 1
                    total["under a forage marker"] += forage
                    total["with a disrupted unit"] += disrupted > 0
                    total["able to attack (10.1)"] += can_attack(ps)
                    total["able, the south held"] += can_attack(ps) and south
                    total["able, the south held, attacked"] += can_attack(ps) and south and attacked
                    total["attacked"] += attacked
                    cells.append(f"{h}:{len(units)}" + (f"d{disrupted}" if disrupted else "") + "F" * forage + "!" * attacked)
                row.append(f"T{turn}{'S' if south else ''}[{' '.join(cells)}]")
        elif args.what == "trains":
            per = collections.defaultdict(collections.Counter)
            given = collections.Counter()  # (Turn, hex): the Coalition's trains there (7.1, 7.4)
            for e in save["log"]:
                for ev in e["events"]:
                    text = ev.get("text", "")
                    m = TRAIN_AT.match(text)
                    if m:  # a train allocated where one stands already: a second one (7.3 play note, 8.2)
                        key = (e["turn"], m.group(2))
                        per[e["turn"]]["second"] += m.group(1) == "allocates a Supply Train" and given[key] > 0
                        given[key] += 1
                    m = re.match(r"coalition allocates (\d+) Supply Trains this Turn", text)
                    if m:
                        per[e["turn"]]["trains"] = int(m.group(1))
                    count_events(per[e["turn"]], TRAIN_EVENTS, text)
            turn_columns(row, total, per, ["trains"] + [c for c, _ in TRAIN_EVENTS] + ["second"], lambda turn, c: c)
        elif args.what == "march":
            ids = {p["id"]: p["type"] for p in save["state"]["pieces"]}
            per = collections.defaultdict(collections.Counter)
            units = None
            # the Paris-bound armies' combat units on the map at the start; those moved or lost in Winter
            start = {p["id"] for p in save["initial"]["pieces"] if p["loc"].isdigit() and unit(p, "coalition")
                     and army.get(p["type"]) in MARCH_ARMIES}
            moved, lost = set(), set()
            for e in save["log"]:
                for ev in e["events"]:
                    text = ev.get("text", "")
                    if e["turn"] <= 6 and (m := re.match(r"^(co_\w+) is eliminated", text)):
                        lost.add(m.group(1))
                    if e["role"] != "coalition":
                        continue
                    if m := MOVE_STEP.match(text):
                        units = [u.strip() for u in m.group(1).split(",")]
                    elif (m := MOVE_END.match(text)) and units:
                        armies = collections.Counter(army.get(ids.get(u, u), "?") for u in units)
                        if armies.most_common(1)[0][0] in MARCH_ARMIES:
                            k = per["winter" if e["turn"] <= 6 else "spring"]
                            gain = dist(m.group(1), PARIS) - dist(m.group(2), PARIS)
                            n = len(units)
                            k["moves"] += 1
                            k["units"] += n
                            if e["turn"] <= 6:
                                moved.update(units)
                            k["unit-hexes"] += n * int(m.group(3))
                            k["net"] += n * gain
                            k["nearer" if gain > 0 else "as near" if gain == 0 else "farther"] += n
                        units = None
            for half in ("winter", "spring"):
                k = per[half]
                row.append(f"{half}:{k['moves']}/{k['units']}/{k['unit-hexes']}/{k['net']}/{k['nearer']}/{k['as near']}/{k['farther']}")
                for c, v in k.items():
                    total[f"{outcome} {half} {c}"] += v
            unmoved = len(start - moved - lost)
            total[f"{outcome} winter unmoved"] += unmoved
            row.append(f"unmoved:{unmoved}")
            total[f"{outcome} games"] += 1
            row.insert(0, "(moves/units/unit-hexes/net/nearer/as near/farther)")
        elif args.what == "losses":
            per = collections.defaultdict(collections.Counter)
            depots = set()
            for e in save["log"]:
                for ev in e["events"]:
                    text = ev.get("text", "")
                    count_events(per[e["turn"]], LOSS_EVENTS, text)
                    if m := DEPOT_MADE.match(text):
                        depots.add(m.group(1))
                    elif m := DEPOT_GONE.match(text):
                        depots.discard(m.group(1))
                    elif (m := COMMANDER_MOVE.match(text)) and e["role"] == "french" and m.group(2) in depots:
                        per[e["turn"]]["raid"] += 1
            turn_columns(row, total, per, [c for c, _ in LOSS_EVENTS] + ["raid"],
                         lambda turn, c: ("T1-6 " if turn <= 6 else "T7-12 ") + c)
        elif args.what == "fates":
            result = json.dumps(save["state"]["result"])
            kind = ("cap" if "11.20" in result else "city") if won else outcome
            end = save["state"]["turn"]
            per_turn = collections.defaultdict(str)
            throws = 0
            for e in save["log"]:
                for ev in e["events"]:
                    m = re.search(r"fate of Napoleon[^:]*: 1d6 = (\d)", ev.get("text", ""))
                    if not m:
                        continue
                    throws += 1
                    phase = "movement" if e["phase"] == "movement" else "combat"
                    per_turn[e["turn"]] += m.group(1) + phase[0]
                    total["throws"] += 1
                    total[f"throws in {phase}"] += 1
                    total[f"face {m.group(1)}"] += 1
            row.append(f"{kind} T{end}, {throws} throws")
            row.extend(f"T{t}:{per_turn[t]}" for t in sorted(per_turn))
            total["games"] += 1
            total[kind] += 1
            total[f"ended T{end:02d} {kind}"] += 1
            if kind == "cap" and not per_turn.get(end, "").count("1"):
                total["no-1 captures"] += 1  # no 1 among that Turn's dice: no French stack to escape to
        elif args.what == "orders":
            cc, spent = {}, collections.Counter()  # per Turn: the Coalition's CCs (9.1-9.2), spent
            g = collections.Counter(dict.fromkeys(("orders", "goes ahead", "is aborted", "fails",
                                                   "failed, passable with the CCs left"), 0))
            for e in save["log"]:
                for ev in e["events"]:
                    text = ev.get("text", "")
                    if m := CC_TURN.search(text):
                        cc[e["turn"]] = int(m.group(1))
                    elif (m := ORDER_TEST.match(text)) and e["role"] == "coalition":
                        die, cr, used = int(m.group(1)), int(m.group(2)), int(m.group(3))
                        spent[e["turn"]] += used
                        g["orders"] += 1
                        g[m.group(4)] += 1
                        left = cc.get(e["turn"], 0) - spent[e["turn"]]
                        g["failed, passable with the CCs left"] += m.group(4) == "fails" and die + cr + used + left >= 7
            g["CCs unspent"] = sum(max(0, n - spent[t]) for t, n in cc.items())
            g["Turns"] = len(cc)
            row.append(", ".join(f"{k} {v}" for k, v in g.items()))
            total.update(g)
            total["games"] += 1
        elif args.what == "south":
            first = None
            for e in save["log"]:
                for ev in e["events"]:
                    text = ev.get("text", "")
                    if first is None and (SOUTH_MOVE.match(text) or e["role"] == "coalition" and SOUTH_ADVANCE.search(text)):
                        first = e["turn"]
            row.append(f"south first entered T{first}" if first else "south never entered")
            total[f"{'T%02d' % first if first else 'never'} {outcome}"] += 1
        elif args.what == "hunters":
            allocs = collections.defaultdict(list)
            for e in save["log"]:
                for ev in e["events"]:
                    if m := TRAIN_AT.match(ev.get("text", "")):
                        allocs[e["turn"]].append(m.group(2))
            for turn, i in sorted(first_index(save, lambda e: e["phase"] == "active_supply" and e["turn"] >= 5).items()):
                at = stacks(replay(args, save, i))
                nh = napoleon_hex(at)
                if nh is None or any(unit(p, "french") for p in at[nh]):
                    continue
                near = sum(dist(h, nh) <= 3 for h in allocs[turn])
                far = sum(3 < dist(h, nh) <= 5 for h in allocs[turn])
                total["Turns with Napoleon alone"] += 1
                total["trains"] += len(allocs[turn])
                total["trains within 3"] += near
                total["trains within 4-5"] += far
                total["Turns with 2+ of them"] += near + far >= 2
                total["trains beyond the first"] += max(0, near + far - 1)
                row.append(f"T{turn}:{near}+{far}/{len(allocs[turn])}")
        elif args.what == "overruns":
            for i, e in enumerate(save["log"]):
                if e["role"] != "coalition" or not e["phase"].startswith("movement"):
                    continue
                if not any(ev.get("text", "").startswith("11.20 fate of Napoleon") for ev in e["events"]):
                    continue
                context = replay(args, save, i).get("decision", {}).get("context") or {}
                n = len(context.get("units", []))
                total["overruns"] += 1
                total[f"by {min(n, 4)}{'+' if n >= 4 else ''} unit{'s' if n != 1 else ''}"] += 1
                row.append(f"T{e['turn']}:{n}")
        elif args.what == "attacks":
            for a in attacks_on(save, PARIS):
                taken = a["result"] is not None and a["result"][0] == "attacker" and a["result"][1] >= 3
                went = a["order"] == "goes ahead"
                garrison = "dis" if a["disrupted_only"] else "ready"
                total[f"from {a['from']}"] += 1
                total[f"order {a['order']}"] += 1
                total[f"ahead, {garrison} garrison"] += went
                total[f"taken (win by 3+, 11.12), {garrison} garrison"] += taken
                value = "" if a["value"] is None else f",AV{a['value']}/{a['divisor']}"
                order = "" if a["order"] is None else f",d{a['die']}+CR{a['cr']}+{a['cc']}CC"
                result = "" if a["result"] is None else f",{a['result'][0][0]}{a['result'][1]}"
                row.append(f"T{a['turn']}:{a['from']}{order}{value},{garrison if went else a['order'] or '?'}{result}"
                           + "*" * taken)
        elif args.what == "windows":
            allocations = first_index(save, lambda e: e["role"] == "coalition" and e["turn"] >= 7
                                      and e["action"].startswith("allocate "))
            for turn, i in sorted(allocations.items()):
                state, legal = replay(args, save, i - 1, legal=True)  # before the first allocation
                at = stacks(state)
                garrison, south = paris_and_south(at, unit)
                if any(p["face"] != "disrupted" for p in garrison) or not south:
                    continue
                cands = []
                for line in legal:  # 7.3: a train to a stack with a Commander, in General Supply
                    m = re.match(r"allocate (\d+)\s+# .*to the stack", line)
                    if m and dist(m.group(1), PARIS) <= 5:
                        units = [p for p in at[m.group(1)] if unit(p, "coalition")]
                        ready = sum(p["face"] != "disrupted" for p in units)
                        cands.append((dist(m.group(1), PARIS), m.group(1), ready, len(units)))
                        total[f"candidates with {ready} ready units"] += 1
                given = [e["action"].split()[1] for e in save["log"] if e["turn"] == turn and e["role"] == "coalition"
                         and e["action"].startswith("allocate ") and dist(e["action"].split()[1], PARIS) <= 5]
                total["window Turns"] += 1
                total["with a candidate of 3+ ready units within 4"] += any(c[0] <= 4 and c[2] >= 3 for c in cands)
                total["trains given within 5"] += len(given)
                row.append(f"T{turn}:{len(garrison)}dis[" + ",".join(f"{h}@{d}:{r}/{n}" for d, h, r, n in sorted(cands))
                           + "]trains[" + ",".join(given) + "]")
        elif args.what == "armies":
            idx = first_index(save, lambda e: e["phase"] == "movement")
            for turn in (1, 4, 7, 10):
                if turn not in idx:
                    continue
                by = collections.defaultdict(list)
                for ps in stacks(replay(args, save, idx[turn])).values():
                    for p in ps:
                        if unit(p, "coalition") and p["type"] in army:
                            by[army[p["type"]]].append(p)
                parts = []
                for name in sorted(by):
                    ps = by[name]
                    d = sorted(dist(p["loc"], PARIS) for p in ps)
                    dis = sum(p["face"] == "disrupted" for p in ps)
                    near = sum(p["face"] != "disrupted" and dist(p["loc"], PARIS) <= 4 for p in ps)
                    parts.append(f"{name} {len(ps)}u d{d[len(d) // 2]} {dis}dis {near}near")
                row.append(f"T{turn}[" + ", ".join(parts) + "]")
        else:
            idx = first_index(save, lambda e: e["phase"] == "movement")
            if args.turn not in idx:
                continue
            at = stacks(replay(args, save, idx[args.turn]))
            total["games"] += 1
            for h, ps in at.items():
                units = [p for p in ps if unit(p, "coalition")]
                if not units or dist(h, PARIS) > 5:
                    continue
                total["stacks"] += 1
                total["units"] += len(units)
                total["disrupted"] += sum(p["face"] == "disrupted" for p in units)
                total["single-unit stacks"] += len(units) == 1
                total["units in stacks able to move"] += len(units) if can_move(ps) else 0
        if row:
            print(("W " if won else "L ") + os.path.basename(path), " ".join(row), flush=True)
    if total and args.what == "fates":
        games = total["games"]
        print(f"{games} games: {total['cap']} won by Napoleon's capture, {total['city']} by the cities, "
              f"{total['lost']} lost, {total['unfinished']} unfinished; {total['throws']} fate dice ({total['throws'] / games:.2f} a game: "
              f"{total['throws in movement']} in movement, {total['throws in combat']} in combat); faces "
              + " ".join(f"{f}:{total[f'face {f}']}" for f in "123456")
              + f"; captures on a Turn with no 1 thrown (no escape) {total['no-1 captures']}")
        going = games
        for t in range(1, 13):
            won_t = total[f"ended T{t:02d} cap"] + total[f"ended T{t:02d} city"]
            if won_t:
                print(f"  Turn {t}: {won_t} won of {going} still going ({100 * won_t / going:.0f}%)")
            going -= won_t + total[f"ended T{t:02d} lost"]
    elif total and args.what == "south":
        for key in sorted(total):
            print(f"  {key}: {total[key]}")
    elif total and args.what == "march":  # per game, won and lost apart
        for outcome in ("won", "lost", "unfinished"):
            n = total[f"{outcome} games"]
            if n:
                for half in ("winter", "spring"):
                    print(f"  {outcome} ({n} games), {half}: " + ", ".join(
                        f"{c} {total[f'{outcome} {half} {c}'] / n:.1f}"
                        for c in ("moves", "units", "unit-hexes", "net", "nearer", "as near", "farther")
                        + (("unmoved",) if half == "winter" else ())) + " a game")
    elif total and args.what == "losses":  # per game
        print({k: round(v / total["games"], 2) for k, v in total.items() if k != "games"} | {"games": total["games"]})
    elif total:
        print(dict(total))


if __name__ == "__main__":
    main()
