#!/usr/bin/env python3
"""Self-check of modules/napoleon_1814/map.xml against the facts it was built from.

Reads only map.xml and scripts/geo/data/*.txt (no GMT). Prints one line per check and a summary;
exit status 1 if any check fails.  python3 scripts/geo/check.py [path/to/map.xml]
"""
import os
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict, deque

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
from hexgeo import from_map_xml, DIRS  # noqa: E402

MAP = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "modules", "napoleon_1814", "map.xml")
failures = []


def check(ok, text):
    print(("ok    " if ok else "FAIL  ") + text)
    if not ok:
        failures.append(text)


def main():
    G = from_map_xml(MAP)
    root = ET.parse(MAP).getroot()
    playable_t = {t.get("id"): t.get("playable", "true") != "false"
                  for t in root.find("terrain-types")}
    default = root.find("hexes").get("default-terrain")
    terrain = {(c, r): default for c in range(G.cols) for r in range(G.rows)}
    feats, names = {}, {}
    for e in root.find("hexes"):
        h = G.parse(e.get("at"))
        terrain[h] = e.get("terrain", default)
        feats[h] = set(e.get("features", "").split())
        if e.get("name"):
            names[e.get("name")] = h
    playable = {h for h, t in terrain.items() if playable_t[t]}
    sides = {}
    line_sides = defaultdict(list)
    for e in root.find("hexsides"):
        h = G.parse(e.get("at"))
        d = DIRS.index(e.get("dir"))
        n = G.neighbour(h[0], h[1], d)
        key = frozenset((h, n))
        sides[key] = set(e.get("types").split())
        for nm in e.get("names", "").split():
            line_sides[nm].append((h, d))
    lines = {e.get("id"): e.get("kind") for e in root.find("lines")}
    regions = {e.get("id"): {G.parse(x) for x in e.get("hexes").split()}
               for e in root.find("regions")}
    land = {h for h in playable}
    print("map %s: %d x %d = %d hexes, %d playable (land), %d sea, %d off-board" % (
        os.path.relpath(MAP, ROOT), G.cols, G.rows, G.cols * G.rows, len(land),
        sum(1 for t in terrain.values() if t == "sea"),
        sum(1 for t in terrain.values() if t == "offmap")))

    # 1. georef round trip
    bad = 0
    for c in range(G.cols):
        for r in range(G.rows):
            la, lo = G.centre_latlon(c, r)
            if G.latlon_to_offset(la, lo) != (c, r) or G.parse(G.label(c, r)) != (c, r):
                bad += 1
    check(bad == 0, "georef: every hex centre -> lat/lon -> same hex, label round trip (%d bad)" % bad)

    # 2. cities within one hex of their real position
    worst, missing, far = 0, [], []
    n_cities = 0
    with open(os.path.join(HERE, "data", "cities.txt"), encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            p = [x.strip() for x in s.split("|")]
            if "offmap" in p[3].split():
                continue
            true = G.latlon_to_offset(float(p[1]), float(p[2]))
            if not G.on_grid(*true):
                continue
            n_cities += 1
            if p[0] not in names:
                missing.append(p[0])
                continue
            d = G.distance(true, names[p[0]])
            worst = max(worst, d)
            if d > 1:
                far.append("%s %s->%s" % (p[0], G.label(*true), G.label(*names[p[0]])))
            if "city" not in feats.get(names[p[0]], set()):
                missing.append(p[0] + " (no city feature)")
            if "fortified" in p[3].split() and "fortified" not in feats.get(names[p[0]], set()):
                missing.append(p[0] + " (not fortified)")
    check(not missing and not far, "cities: %d placed, all within one hex of their real position "
          "(max distance %d)%s" % (n_cities, worst, (" missing: %s far: %s" % (missing, far))
                                   if missing or far else ""))

    # 3. rivers and lakes: one connected chain each
    def corners(h, d):
        (ax, ay), (bx, by) = G.side_xy(h[0], h[1], d)
        return (round(ax, 1), round(ay, 1)), (round(bx, 1), round(by, 1))
    for rid, kind in lines.items():
        if kind == "road":
            continue
        ss = line_sides.get(rid, [])
        adj = defaultdict(set)
        for h, d in ss:
            a, b = corners(h, d)
            adj[a].add(b)
            adj[b].add(a)
        comps, seen = 0, set()
        for v in adj:
            if v in seen:
                continue
            comps += 1
            dq = deque([v])
            seen.add(v)
            while dq:
                u = dq.popleft()
                for w in adj[u]:
                    if w not in seen:
                        seen.add(w)
                        dq.append(w)
        maxdeg = max((len(v) for v in adj.values()), default=0)
        typ = "lake" if kind == "lake" else "river"
        typed = all(typ in sides[frozenset((h, G.neighbour(h[0], h[1], d)))] for h, d in ss)
        check(len(ss) > 0 and comps == 1 and maxdeg <= 2 and typed,
              "%s %s: %d hexsides, %d chain(s), max degree %d" % (kind, rid, len(ss), comps, maxdeg))

    # 4. reachability from Paris (sea/off-board hexes, lake hexsides and mountains are
    #    impassable; a mountain hex is entered or left only through a pass hexside)
    paris = names["Paris"]

    def can_cross(a, b):
        t = sides.get(frozenset((a, b)), set())
        if "lake" in t:
            return False
        if terrain[a] == "mountain" or terrain[b] == "mountain":
            return "pass" in t
        return True
    seen = {paris}
    dq = deque([paris])
    while dq:
        h = dq.popleft()
        for d in range(6):
            n = G.neighbour(h[0], h[1], d)
            if n in land and n not in seen and can_cross(h, n):
                seen.add(n)
                dq.append(n)
    unreach = sorted(G.label(*h) for h in land - seen if terrain[h] != "mountain")
    mount_unreach = sum(1 for h in land - seen if terrain[h] == "mountain")
    check(not unreach, "reachability: %d of %d non-mountain land hexes reachable from Paris %s"
          "(%d mountain hexes without a pass, impassable)%s" % (
              len([h for h in seen if terrain[h] != "mountain"]),
              len([h for h in land if terrain[h] != "mountain"]), G.label(*paris), mount_unreach,
              (" unreachable: " + " ".join(unreach)) if unreach else ""))
    cities_unreach = sorted(n for n, h in names.items() if h not in seen)
    check(not cities_unreach, "every city reachable from Paris%s" % (
        (": not " + " ".join(cities_unreach)) if cities_unreach else ""))

    # 5. named hexes of the rules
    def lab(s):
        return G.parse(s)
    east_col = G.cols - 1
    for s in ("4227", "4228", "4229"):
        h = lab(s)
        check(G.on_grid(*h) and h in land and h[0] == east_col,
              "hex %s exists, is land, on the eastern map edge (%s)" % (s, terrain.get(h)))
    check(lab("4227") in regions["kingdom_of_italy"], "4227 (Murat's entry, 14.11) is in the Kingdom of Italy")
    check(lab("4228") not in regions["uss_coalition"] and lab("4229") not in regions["uss_coalition"],
          "4228 and 4229 are not Coalition USS (1.1)")
    for s in ("4329", "4428"):
        h = lab(s)
        check(h in land and h in regions["northern_italy"] and h in regions["french_friendly"],
              "hex %s exists, land, Northern Italy, French territory (6.6) - %s" % (
                  s, [n for n, x in names.items() if x == h]))
    v = names.get("Vliessingen")
    check(v is not None and "city" in feats[v] and v in land, "Vliessingen is a city hex (%s)" % (
        G.label(*v) if v else "-"))
    check(regions["uss_french"] == {names["Paris"], names["Bordeaux"], names["Marseilles"]},
          "uss_french = Paris, Bordeaux, Marseilles")
    bad = [G.label(*h) for h in regions["uss_coalition"]
           if not (h[0] == east_col or (h in regions["spain"] and (h[1] == G.rows - 1 or h[0] == 0)))]
    check(not bad and regions["uss_coalition"] <= land,
          "uss_coalition: %d hexes, all on the eastern edge or Spain's southern/western edge%s" % (
              len(regions["uss_coalition"]), (" bad: " + " ".join(bad)) if bad else ""))
    check(regions["geneva"] == {names["Geneva"]} and not (regions["geneva"] & regions["switzerland"]),
          "Geneva is its own region, not Swiss (14.15)")
    check(names["Amsterdam"] in regions["east_of_rhine"], "Amsterdam lies east of the Rhine (1.1 exception)")
    for n in ("Strasbourg", "Metz", "Cologne", "Mainz", "Koblenz", "Antwerp", "Brussels"):
        check(names[n] not in regions["coalition_friendly"], "%s is not Coalition territory" % n)
    for n in ("Frankfurt", "Freiburg", "Zurich", "Milan", "Pamplona"):
        check(names[n] in regions["coalition_friendly"], "%s is Coalition territory" % n)
    check(names["Bayonne"] in regions["south_west_of_garonne"]
          and names["Toulouse"] not in regions["south_west_of_garonne"]
          and names["Bordeaux"] not in regions["south_west_of_garonne"],
          "south_west_of_garonne holds Bayonne, not Toulouse/Bordeaux (%d hexes)"
          % len(regions["south_west_of_garonne"]))
    print("%d checks failed" % len(failures) if failures else "all checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
