#!/usr/bin/env python3
"""Two AI versions compared game for game (docs/ai.md: "paired" figures).

vedette-tournament prints one line per game on standard error ("game N (ai as coalition, seed S):
coalition wins, turn T, ..."); the same seed gives the same game until the two versions decide
differently. Given each version's logs, this prints each one's wins (95% Wilson interval) and
mean length, and on the games both played the wins and the seeds only one of them won (+ for B,
- for A), with an exact sign test on those (p: the chance a coin would share them out as
unevenly). With each version's save directories (`vedette-tournament --save-dir`), it also counts
the games both saved that were played action for action alike (the same actions in their logs),
and how many of the others each version won: a change judged on the games it changed (docs/ai.md,
round 50: a seed set where A happened to win the long games more often than its average
flatters A there).

Usage:  scripts/ai_compare.py --a LOG... --b LOG... [--side coalition|french] [--saves DIR_A DIR_B]
"""
import argparse
import json
import math
import os
import re
import sys

LINE = re.compile(r"game \d+ \((\S+) as (\w+), seed (\d+)\): (\w+) wins, turn (\d+)")


def load(paths, side):
    games = {}
    for path in paths:
        try:
            with open(path) as f:
                for line in f:
                    m = LINE.search(line)
                    if m and m.group(2) == side:
                        games[int(m.group(3))] = (m.group(4) == side, int(m.group(5)))
        except OSError as err:
            sys.exit(f"ai_compare: {path}: {err}")
    return games


def actions(path):
    """The actions of a save's log, in order."""
    try:
        with open(path) as f:
            return [e["action"] for e in json.load(f)["log"]]
    except (OSError, ValueError, KeyError, TypeError) as err:
        sys.exit(f"ai_compare: {path}: not a readable save ({err})")


def alike(dir_a, dir_b):
    """The saves both directories hold (by file name, e.g. ai-as-coalition-SEED.json), how many of
    them have the same actions, and the seeds of those that differ."""
    names = sorted(set(n for n in os.listdir(dir_a) if n.endswith(".json")) &
                   set(n for n in os.listdir(dir_b) if n.endswith(".json")))
    differ = [n for n in names if actions(os.path.join(dir_a, n)) != actions(os.path.join(dir_b, n))]
    seeds = [int(m.group(1)) for n in differ if (m := re.search(r"-(\d+)\.json$", n))]
    return len(names), len(names) - len(differ), seeds


def wilson(k, n, z=1.96):
    if n == 0:
        return 0.0, 0.0
    p = k / n
    c = (p + z * z / (2 * n)) / (1 + z * z / n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return 100 * (c - h), 100 * (c + h)


def sign_test(plus, minus):
    """Two-sided exact sign test (McNemar's, exact) on the games only one version won: the chance
    that a coin shared them out at least as unevenly (1.0 when none differ)."""
    n, k = plus + minus, min(plus, minus)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", nargs="+", required=True, help="version A's tournament logs (standard error)")
    ap.add_argument("--b", nargs="+", required=True, help="version B's")
    ap.add_argument("--side", default="coalition", help="the side the AI played (default coalition)")
    ap.add_argument("--saves", nargs=2, metavar=("DIR_A", "DIR_B"),
                    help="the two versions' save directories: count the games played alike")
    args = ap.parse_args()
    for d in args.saves or []:
        if not os.path.isdir(d):
            sys.exit(f"ai_compare: {d}: not a directory")
    a, b = load(args.a, args.side), load(args.b, args.side)
    for name, g in (("A", a), ("B", b)):
        won = sum(w for w, _ in g.values())
        lo, hi = wilson(won, len(g))
        print(f"{name}: {won}/{len(g)} won [{lo:.1f}%, {hi:.1f}%], mean length "
              f"{sum(t for _, t in g.values()) / max(1, len(g)):.1f} Turns")
    common = sorted(set(a) & set(b))
    plus = [s for s in common if b[s][0] and not a[s][0]]
    minus = [s for s in common if a[s][0] and not b[s][0]]
    print(f"both played {len(common)}: A {sum(a[s][0] for s in common)}, B {sum(b[s][0] for s in common)} "
          f"(+{len(plus)} -{len(minus)})")
    if plus or minus:
        # which version won the games that went differently: a coin's share of them is noise (round 58:
        # four variants that each won most of A's losses on seeds 41-57 and lost as many of its wins)
        print(f"  sign test on the {len(plus) + len(minus)} games only one won: p = "
              f"{sign_test(len(plus), len(minus)):.2f} (B - A = {len(plus) - len(minus):+d})")
        print("  B won, A lost: " + " ".join(map(str, plus)))
        print("  A won, B lost: " + " ".join(map(str, minus)))
    if args.saves:
        n, same, differ = alike(*args.saves)
        print(f"saved by both: {n}, played action for action alike: {same}")
        differ = [s for s in differ if s in a and s in b]
        if differ:
            print(f"  played differently, with both results: {len(differ)}: A won "
                  f"{sum(a[s][0] for s in differ)}, B won {sum(b[s][0] for s in differ)}")


if __name__ == "__main__":
    main()
