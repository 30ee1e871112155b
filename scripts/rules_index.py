#!/usr/bin/env python3
"""Writes modules/napoleon_1814/RULES.md: every rule number of the 1814 rulebook -> where it is
implemented -> the module tests named after it. Run after adding rules or tests:

    python3 scripts/rules_index.py [--check]

--check exits 1 when RULES.md is out of date or a rule has neither a test nor a recorded reason
(the test suite runs it this way). Test names must start with the rule number ("8.4 ...",
"6.1-6.2 ...", "14.1 / 9.2 ..."); every number a name starts with counts for that rule.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
RULEBOOK = ROOT.parent / "shared" / "rules" / "1814-napoleons-defiance.txt"
MODULE = ROOT / "modules" / "napoleon_1814"
OUT = MODULE / "RULES.md"

# Where each section lives. Files are relative to modules/.
WHERE = {
    "1": "definitions used throughout: cnw_series/core.lua (territory, season, difficult terrain)",
    "2": "cnw_series/core.lua (terrain, rivers, roads, passes, map edge) + map.xml",
    "3": "counters.xml (stats) + cnw_series/core.lua (CF, OF, disruption)",
    "4": "cnw_series/movement.lua, combat.lua, reinforcements.lua (capacity checks); game.lua invariants",
    "5": "cnw_series/game.lua (sequence of play)",
    "6": "cnw_series/supply.lua",
    "7": "cnw_series/supply.lua",
    "8": "cnw_series/movement.lua",
    "9": "cnw_series/combat.lua",
    "10": "cnw_series/combat.lua",
    "11": "cnw_series/combat.lua, combat_values.lua",
    "12": "cnw_series/commanders.lua",
    "13": "cnw_series/reinforcements.lua",
    "14": "napoleon_1814/rules/main.lua (scenario hooks), rules/scenario.lua (14.9, 14.10) + the phase modules",
    "15": "15.1: napoleon_1814/rules/hidden.lua + cnw_series/core.lua (a stack's units include its hidden boxes), movement.lua (hidden moves, 8.2/8.5 reveals), combat.lua (hook combat_reveal); 15.2: napoleon_1814/rules/scenario.lua (hooks stack_capacity, train_actions, end_of_movement)",
    "16": "16.1: cnw_series/cards.lua (decks, draw, choice, effect primitives) + napoleon_1814/rules/events.lua (1814 binding, hooks)",
    "16.2": "cnw_series/command.lua (called by supply.lua 7.3, movement.lua 8.1/8.2/8.6 and the move roll, "
            "combat.lua 11.3-11.7) + params.command_structure in napoleon_1814/rules/main.lua",
    "16.3": "napoleon_1814/rules/main.lua (setup lists the army in var neutral_pieces; hooks hex_closed, closure_class, "
            "unit_may_move, combat_may_*, invariants) + cnw_series/core.lua (is_neutral, closed)",
    "16.4": "napoleon_1814/rules/main.lua (hook victory_at_end_of_turn)",
}

# Rules that need no test of their own, with the reason.
NO_TEST = {
    "1.1": "definitions; each term is tested where a rule uses it",
    "1.2": "rounding down: tested through 11.2 halving and 11.15",
    "2.1": "what the board represents (map.xml; MAP.md checks the geography)",
    "3.1": "what the pieces represent (counters.xml)",
    "3.5": "refers to 16.2",
    "3.6": "nationality colours are data (counters.xml stat color), drawn by the GUI",
    "3.7": "marker counters exist (counters.xml)",
    "4.2": "attacking and supporting stacks stay in their own hexes during combat, so their OF is "
           "never counted in the defending hex; an advance is checked against 4.1 (11.12 tests)",
    "4.3": "definition of 'stack'",
    "5.2": "the Turn ends after the last phase: tested by 5.1/14.3 game-length tests",
    "5.3": "refers to 14.3 and 14.4",
    "14.2": "the Turn marker: the engine's turn counter",
}


def rule_numbers(text):
    seen = []
    for m in re.finditer(r"^(\d{1,2}\.\d{1,2})[ .]", text, re.M):
        n = m.group(1)
        if n not in seen:
            seen.append(n)
    # 12.2 is printed as "13.2" in the 1814 book (commanders' alternation); list it as 12.2.
    if "12.2" not in seen:
        seen.insert(seen.index("12.1") + 1, "12.2")
    return sorted(seen, key=lambda n: tuple(int(x) for x in n.split(".")))


def titles(text):
    out = {}
    for m in re.finditer(r"^(\d{1,2}\.\d{1,2})[ .]+(.*)$", text, re.M):
        n, rest = m.group(1), m.group(2)
        if n not in out:
            out[n] = re.sub(r"[*_\[\]]", "", rest)[:70].rstrip()
    return out


def tests_by_rule():
    by = {}
    for f in sorted((MODULE / "tests").glob("*.lua")):
        for m in re.finditer(r'^\s*test\(\s*"([^"]+)"', f.read_text(encoding="utf-8"), re.M):
            name = m.group(1)
            head = re.match(r"^([\d.\s/,\-–and]+)", name)
            if not head:
                continue
            nums = re.findall(r"\d{1,2}\.\d{1,2}", head.group(1))
            # ranges "6.1-6.2" count for every rule between
            for r in re.finditer(r"(\d{1,2})\.(\d{1,2})\s*[-–]\s*(\d{1,2})\.(\d{1,2})", head.group(1)):
                s1, a, s2, b = map(int, r.groups())
                if s1 == s2:
                    nums += [f"{s1}.{k}" for k in range(a, b + 1)]
            for n in dict.fromkeys(nums):
                by.setdefault(n, []).append((f.name, name))
    return by


def rules_from_index():
    """Rule numbers and texts from the committed RULES.md, for checkouts without the rulebook
    (it lives in the workplace's shared/ folder, next to the repository, not inside it)."""
    rules, title = [], {}
    for m in re.finditer(r"^\| (\d{1,2}\.\d{1,2}) \| (.*?) \| ", OUT.read_text(encoding="utf-8"), re.M):
        rules.append(m.group(1))
        title[m.group(1)] = m.group(2)
    return rules, title


def render():
    if RULEBOOK.exists():
        text = RULEBOOK.read_text(encoding="utf-8")
        rules = rule_numbers(text)
        title = titles(text)
    else:
        rules, title = rules_from_index()
    tests = tests_by_rule()
    lines = [
        "# 1814: Napoleon's Defiance — rules index",
        "",
        "Every rule number of the 1814 rulebook, where it is implemented, and the module tests",
        "named after it (`vedette-cli test modules/napoleon_1814`). Generated by",
        "`scripts/rules_index.py` from the rulebook and `tests/*.lua`; do not edit by hand.",
        "Interpretations are in [RULINGS.md](RULINGS.md).",
        "",
        "| rule | text | implemented in | tests |",
        "|---|---|---|---|",
    ]
    missing = []
    for n in rules:
        sec = n.split(".")[0]
        where = WHERE.get(n, WHERE.get(sec, ""))   # a rule's own entry, else its section's
        t = tests.get(n, [])
        if t:
            cell = "<br>".join(f"`{name}` ({fname})" for fname, name in t)
        elif n in NO_TEST:
            cell = "— " + NO_TEST[n]
        else:
            cell = "**no test: not implemented**"
            missing.append(n)
        lines.append(f"| {n} | {title.get(n, '').replace('|', '/')} | {where} | {cell} |")
    lines += ["", f"Rules without a test: {', '.join(missing) if missing else 'none'}.", ""]
    return "\n".join(lines), missing


def main():
    content, missing = render()
    if "--check" in sys.argv:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != content:
            print("RULES.md is out of date: run python3 scripts/rules_index.py")
            return 1
        print(f"RULES.md is up to date ({len(missing)} rule(s) without a test: {', '.join(missing)})")
        return 0
    OUT.write_text(content, encoding="utf-8")
    print(f"wrote {OUT} ({len(missing)} rule(s) without a test)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
