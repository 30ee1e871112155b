#!/usr/bin/env python3
"""Regenerate modules/napoleon_1814/counters.xml and scenarios/campaign.xml from the order of
battle (modules/napoleon_1814/data/oob.txt), the extra places (data/places.txt), the
schedules below and the map (modules/napoleon_1814/map.xml: hex names, georeference, rivers).

    python3 scripts/oob/build_oob.py [--map PATH] [--check] [--summary]

Set-up checks (rule numbers of "1814: Napoleon's Defiance"):
  * 4.1  no hex holds more than six friendly OF (OF counted in halves: 12);
  * 14.1 no Coalition piece is set up adjacent to a French combat unit unless a river hexside
         (bridged or not) separates the two hexes;
  * every set-up hex is on the board, playable, not sea; a mountain hex only with a pass.
A place that breaks a check is moved to the nearest hex that passes, and the move is reported
(so a new map.xml never silently produces an illegal set-up). Nothing here is random.
--check writes nothing; it exits 1 if 4.1/14.1 fail or if counters.xml or campaign.xml are not
what the generator writes from today's inputs (e.g. after a new map.xml).
Python 3 standard library only.
"""
import math
import os
import sys
import xml.etree.ElementTree as ET
from collections import OrderedDict, deque

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
MOD = os.path.join(ROOT, "modules", "napoleon_1814")
EARTH_R = 6371.0
SQRT3 = math.sqrt(3.0)

# ---- nationality colours of rule 3.6 (background; "mark" = the extra symbol the rule names) ----
NATIONS = {
    "france": ("La Grande Armee", "#1f2a5c", ""),
    "austria": ("Austria", "#f2f2ec", ""),
    "bavaria": ("Bavaria", "#f2f2ec", "yellow_cross"),
    "britain": ("Great Britain", "#c0282d", ""),
    "naples": ("Naples", "#6b2d87", ""),
    "portugal": ("Portugal", "#c0282d", "green_symbol"),
    "prussia": ("Prussia", "#8a8d8f", ""),
    "russia": ("Russia", "#2e6b3c", ""),
    "saxony": ("Saxony", "#c48e8e", ""),
    "spain": ("Spain", "#e8842c", ""),
    "sweden": ("Sweden", "#f0cf3a", ""),
    # Not in 3.6 (see RULINGS.md R-3): the Wurttemberg IV Corps served in Schwarzenberg's
    # Austrian-led army; shown white like the Austrians, with its own nationality id.
    "wurttemberg": ("Wurttemberg", "#f2f2ec", ""),
}
CLASS_OF2 = {"veteran": 2, "line": 3, "conscript": 4, "garrison": 0}
SENIORITY_RANK = {"S": 1, "A": 2, "I": 3, "C": 4, "W": 5, "K": 6, "corps": 7}

# ---- Set Up Card figures: RECONSTRUCTED (see SOURCES.md); one number per Turn 1..12 ----------
SUPPLY_TRAINS = {
    "french":    [9, 9, 9, 10, 10, 10, 9, 9, 8, 8, 8, 8],
    "coalition": [8, 8, 9, 10, 10, 10, 11, 11, 12, 12, 12, 12],
}
# Basic combat commands (14.1): French 3, 4 from Turn 4 (RULINGS.md R-1); Coalition 4.
COMBAT_COMMANDS = {
    "french":    [3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4],
    "coalition": [4] * 12,
}
GENUINE_TRAINS = {s: max(v) for s, v in SUPPLY_TRAINS.items()}
MARKER_COUNTS = {"forage": 24, "forced_march": 12, "previous_combat": 12, "two_combats": 8}


def die(msg):
    sys.stderr.write("build_oob: " + msg + "\n")
    sys.exit(2)


# ---- input files ------------------------------------------------------------------------------
def read_table(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            rows.append((n, [p.strip() for p in s.split("|")]))
    return rows


def read_oob(path):
    commanders, units = [], []
    seen = set()
    for n, cells in read_table(path):
        kind = cells[0]
        if len(cells) != 12:
            die("%s:%d: expected 12 fields, got %d" % (path, n, len(cells)))
        _, pid, name, label, nation, a, b, army, corps, wing, extra, setup = cells
        if pid in seen:
            die("%s:%d: duplicate id %s" % (path, n, pid))
        seen.add(pid)
        if nation not in NATIONS:
            die("%s:%d: unknown nation %s" % (path, n, nation))
        side = "french" if nation == "france" else "coalition"
        rec = dict(id=pid, name=name, label=label, nation=nation, side=side, army=army,
                   corps=corps, wing=wing, setup=setup, line=n)
        if kind == "C":
            if b not in SENIORITY_RANK:
                die("%s:%d: unknown seniority %s" % (path, n, b))
            rec.update(cr=int(a), seniority=b, abilities=extra.split())
            commanders.append(rec)
        elif kind == "U":
            if a not in ("infantry", "cavalry", "artillery") or b not in CLASS_OF2:
                die("%s:%d: bad type/class %s/%s" % (path, n, a, b))
            rec.update(type=a, cls=b, flags=set(extra.replace(",", " ").split()))
            units.append(rec)
        else:
            die("%s:%d: unknown kind %s" % (path, n, kind))
    return commanders, units


def parse_setup(s):
    """'@Paris' -> (None, False, 'Paris'); 'T4@Troyes' -> (4, False, 'Troyes'); 'T1+@X'."""
    when, _, place = s.partition("@")
    if not place:
        die("bad setup field %r" % s)
    if not when:
        return None, False, place
    repeat = when.endswith("+")
    return int(when.strip("T+")), repeat, place


# ---- the map ----------------------------------------------------------------------------------
class Map:
    def __init__(self, path):
        root = ET.parse(path).getroot()
        self.cols, self.rows = int(root.get("cols")), int(root.get("rows"))
        num = root.find("numbering")
        self.first_col, self.first_row = int(num.get("first-col")), int(num.get("first-row"))
        self.col_step = int(num.get("col-step", "1"))
        self.cd, self.rd = int(num.get("col-digits", "2")), int(num.get("row-digits", "2"))
        g = root.find("georef")
        self.geo = None
        if g is not None:
            self.geo = dict(lat0=float(g.get("lat0")), lon0=float(g.get("lon0")),
                            hex_km=float(g.get("hex-km")), ox=float(g.get("origin-x-km")),
                            oy=float(g.get("origin-y-km")))
        tt = {t.get("id"): t.get("playable", "true") != "false"
              for t in root.find("terrain-types")}
        hexes = root.find("hexes")
        default = hexes.get("default-terrain")
        self.terrain, self.features, self.name_of, self.by_name = {}, {}, {}, {}
        for c in range(self.cols):
            for r in range(self.rows):
                self.terrain[(c, r)] = default
                self.features[(c, r)] = set()
        for h in hexes:
            cr = self.offset(h.get("at"))
            self.terrain[cr] = h.get("terrain", default)
            self.features[cr] = set(h.get("features", "").split())
            if h.get("name"):
                self.name_of[cr] = h.get("name")
                self.by_name[h.get("name").lower()] = cr
        self.playable = {cr: tt.get(t, True) and t != "sea" for cr, t in self.terrain.items()}
        self.sides = {}
        hs = root.find("hexsides")
        for s in (hs if hs is not None else []):
            a = self.offset(s.get("at"))
            b = self.neighbour(a, s.get("dir"))
            self.sides[frozenset((a, b))] = set(s.get("types", "").split())
        self.regions = {}
        rg = root.find("regions")
        for reg in (rg if rg is not None else []):
            self.regions[reg.get("id")] = {self.offset(x) for x in reg.get("hexes", "").split()}

    def label(self, cr):
        c, r = cr
        return "%0*d%0*d" % (self.cd, self.first_col + self.col_step * c, self.rd,
                             self.first_row + r)

    def offset(self, label):
        lc, lr = int(label[:self.cd]), int(label[self.cd:])
        return ((lc - self.first_col) // self.col_step, lr - self.first_row)

    def on_map(self, cr):
        return 0 <= cr[0] < self.cols and 0 <= cr[1] < self.rows

    DIRS = ("N", "NE", "SE", "S", "SW", "NW")

    def neighbour(self, cr, d):
        c, r = cr
        odd = c & 1
        delta = {"N": (0, -1), "S": (0, 1),
                 "NE": (1, -1 + odd), "SE": (1, odd), "NW": (-1, -1 + odd), "SW": (-1, odd)}[d]
        return (c + delta[0], r + delta[1])

    def neighbours(self, cr):
        return [n for n in (self.neighbour(cr, d) for d in self.DIRS) if self.on_map(n)]

    def river_between(self, a, b):
        return "river" in self.sides.get(frozenset((a, b)), set())

    def enterable(self, cr):
        if not self.on_map(cr) or not self.playable[cr]:
            return False
        if self.terrain[cr] == "mountain":  # 2.2: impassable unless crossed by a pass
            return any("pass" in self.sides.get(frozenset((cr, n)), set())
                       for n in self.neighbours(cr))
        return True

    # georeference (docs/module-format.md)
    def project(self, lat, lon):
        g = self.geo
        p, l = math.radians(lat), math.radians(lon - g["lon0"])
        p0 = math.radians(g["lat0"])
        k = math.sqrt(2.0 / (1 + math.sin(p0) * math.sin(p)
                             + math.cos(p0) * math.cos(p) * math.cos(l)))
        return (EARTH_R * k * math.cos(p) * math.sin(l),
                EARTH_R * k * (math.cos(p0) * math.sin(p)
                               - math.sin(p0) * math.cos(p) * math.cos(l)))

    def centre(self, cr):
        g = self.geo
        R = g["hex_km"] / SQRT3
        c, r = cr
        return g["ox"] + c * 1.5 * R, g["oy"] - (r + 0.5 * (c & 1)) * SQRT3 * R

    def nearest_hex(self, lat, lon):
        x, y = self.project(lat, lon)
        best = min(self.terrain, key=lambda cr: (self.centre(cr)[0] - x) ** 2
                   + (self.centre(cr)[1] - y) ** 2)
        bx, by = self.centre(best)
        return best, math.hypot(bx - x, by - y)


# ---- placement --------------------------------------------------------------------------------
def resolve_place(m, places, name, report):
    if name.isdigit():
        cr = m.offset(name)
        if not m.on_map(cr):
            die("hex %s is not on the map" % name)
        return cr
    if name.lower() in m.by_name:
        return m.by_name[name.lower()]
    if name in places:
        if m.geo is None:
            die("place %s needs the map's georef" % name)
        cr, dist = m.nearest_hex(*places[name])
        if dist > m.geo["hex_km"]:
            report.append("%s lies %.0f km outside the board: placed at the nearest hex %s"
                          % (name, dist, m.label(cr)))
        return cr
    die("unknown place %r (not a hex name of map.xml nor in data/places.txt)" % name)


def of2(piece):
    return CLASS_OF2[piece["cls"]] if "cls" in piece else 0


def build_setup(m, places, commanders, units, report):
    """Returns {piece id: hex} for the Turn 1 set-up after the 4.1/14.1 checks, French first."""
    pieces = [p for p in commanders + units if parse_setup(p["setup"])[0] is None]
    wanted = OrderedDict()
    for p in pieces:
        wanted[p["id"]] = resolve_place(m, places, parse_setup(p["setup"])[2], report)
    where = {}
    load = {"french": {}, "coalition": {}}
    french_combat = set()

    def legal(p, cr):
        if not m.enterable(cr):
            return False
        if p["side"] == "coalition":
            # the Coalition starts in its own friendly territory (1.1), as in December 1813
            if "coalition_friendly" in m.regions and cr not in m.regions["coalition_friendly"]:
                return False
            if cr in french_combat:
                return False
            for n in m.neighbours(cr):
                if n in french_combat and not m.river_between(cr, n):
                    return False
        return True

    # 14.1: the French deploy first, then the Coalition. Every piece set up at one place forms a
    # group (a commander with his divisions) that is placed, or moved, as one stack.
    for side in ("french", "coalition"):
        groups = OrderedDict()
        for p in pieces:
            if p["side"] == side:
                groups.setdefault(parse_setup(p["setup"])[2], []).append(p)
        for place, members in groups.items():
            want = wanted[members[0]["id"]]
            total = sum(of2(p) for p in members)
            if total > 12:
                die("the %s set-up at %s has %.1f OF (4.1 allows 6)" % (side, place, total / 2))
            # French groups stay in French-friendly territory (except the armies set up in
            # Spain and Italy, whose places are outside it)
            ff = m.regions.get("french_friendly")
            keep_ff = side == "french" and ff is not None and members[0]["army"] in (
                "grande_armee", "lyon", "pyrenees") and not any(
                "garrison" in p.get("flags", ()) for p in members)

            def fits(cr):
                if not legal(dict(side=side), cr):
                    return False
                if keep_ff and cr not in ff:
                    return False
                return load[side].get(cr, 0) + total <= 12

            cr = want if fits(want) else None
            if cr is None:
                seen, q = {want}, deque([want])
                while q and cr is None:
                    h = q.popleft()
                    if fits(h):
                        cr = h
                        break
                    for n in m.neighbours(h):
                        if n not in seen:
                            seen.add(n)
                            q.append(n)
                if cr is None:
                    die("no legal hex for the %s set-up at %s" % (side, place))
                why = []
                if not m.enterable(want):
                    why.append("not enterable")
                if load[side].get(want, 0) + total > 12:
                    why.append("4.1 stacking")
                if (side == "coalition" and "coalition_friendly" in m.regions
                        and want not in m.regions["coalition_friendly"]):
                    why.append("not Coalition-friendly territory")
                if keep_ff and want not in ff:
                    why.append("not French-friendly territory")
                if not why:
                    why.append("14.1 adjacent to French combat units")
                report.append("%s set-up at %s (%s) -> %s %s (%s)" % (
                    side, place, m.label(want), m.label(cr), m.name_of.get(cr, ""),
                    ", ".join(why)))
            for p in members:
                where[p["id"]] = cr
                if "cls" in p and side == "french":
                    french_combat.add(cr)
            load[side][cr] = load[side].get(cr, 0) + total
    # a commander must end up with his side's pieces or in a city: move him with his stack
    return where


def verify(m, commanders, units, where):
    """Independent re-check of 4.1 and 14.1 on the final set-up. Returns a list of errors."""
    errors = []
    by = {p["id"]: p for p in commanders + units}
    load = {}
    for pid, cr in where.items():
        p = by[pid]
        load[(p["side"], cr)] = load.get((p["side"], cr), 0) + of2(p)
    for (side, cr), v in load.items():
        if v > 12:
            errors.append("4.1: %s has %s OF of %s" % (m.label(cr), v / 2, side))
    french = {cr for pid, cr in where.items() if by[pid]["side"] == "french" and "cls" in by[pid]}
    for pid, cr in where.items():
        if by[pid]["side"] != "coalition":
            continue
        for n in m.neighbours(cr) + [cr]:
            if n in french and (n == cr or not m.river_between(cr, n)):
                errors.append("14.1: %s at %s next to French combat units at %s"
                              % (pid, m.label(cr), m.label(n)))
    return errors


# ---- XML writers ------------------------------------------------------------------------------
def esc(s):
    return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def stat(out, sid, v):
    if isinstance(v, int):
        out.append('    <stat id="%s" value="%d"/>' % (sid, v))
    else:
        out.append('    <stat id="%s" text="%s"/>' % (sid, esc(v)))


def write_counters(commanders, units):
    o = ['<?xml version="1.0" encoding="UTF-8"?>',
         "<!-- GENERATED by scripts/oob/build_oob.py from data/oob.txt; edit that file and rerun.",
         "     Counter values are RECONSTRUCTED from the historical record, not the publisher's",
         "     counter sheet (see SOURCES.md). OF is stored in halves (stat of2: veteran 2 = OF 1,",
         "     line 3 = OF 1.5, conscript 4 = OF 2, garrison 0) because game data has no fractions.",
         "     Stats of commanders (rule 16.2): cr; seniority (S A I C W K corps) and seniority_rank",
         "     (1 = S ... 7 = corps); army; corps (the corps box); wing; cavalry_corps;",
         "     command_march_drm (8.6 drm when he can command every unit of the stack: -1, Napoleon",
         "     -2, Murat 0); basic_march_drm (14.5, basic game: Napoleon -1);",
         "     special_march_drm (Blucher -1, any stack he accompanies); cf_bonus_max (Napoleon +1",
         "     CF per unit in good order, max 3); attack_cf_bonus_max (Blucher, attacking, max 2);",
         "     cossack_attack_cf_bonus_max (Platov, per Cossack, attacking, max 2);",
         "     move_fail_max (Constantine, Victor: a move fails on 1xd6 <= 2). -->",
         "<counters>"]
    o.append("  <!-- ======================= commanders (3.4, 16.2) ======================= -->")
    for c in commanders:
        o.append('  <counter-type id="%s" name="%s" category="commander" side="%s">'
                 % (c["id"], esc(c["name"]), c["side"]))
        o.append('    <face id="front" name="%s"/>' % esc(c["label"]))
        stat(o, "label", c["label"])
        stat(o, "cr", c["cr"])
        stat(o, "of2", 0)
        stat(o, "seniority", c["seniority"])
        stat(o, "seniority_rank", SENIORITY_RANK[c["seniority"]])
        stat(o, "nation", c["nation"])
        stat(o, "color", NATIONS[c["nation"]][1])
        if NATIONS[c["nation"]][2]:
            stat(o, "mark", NATIONS[c["nation"]][2])
        stat(o, "army", c["army"])
        if c["corps"]:
            stat(o, "corps", c["corps"])
        if c["wing"] and c["seniority"] == "W":
            stat(o, "wing", c["wing"])
        ab = c["abilities"]
        stat(o, "cavalry_corps", 1 if "cavcorps" in ab else 0)
        stat(o, "command_march_drm", -2 if "napoleon" in ab else (0 if "murat" in ab else -1))
        if "napoleon" in ab:
            stat(o, "basic_march_drm", -1)
            stat(o, "cf_bonus_max", 3)
        if "blucher" in ab:
            stat(o, "special_march_drm", -1)
            stat(o, "attack_cf_bonus_max", 2)
        if "platov" in ab:
            stat(o, "cossack_attack_cf_bonus_max", 2)
        if "move_roll" in ab:
            stat(o, "move_fail_max", 2)
        special = [a for a in ab if a != "cavcorps"]
        if special:
            stat(o, "abilities", " ".join(special))
        o.append("  </counter-type>")
    o.append("  <!-- ======================= combat units (3.1-3.3, 3.6) ======================= -->")
    for u in units:
        o.append('  <counter-type id="%s" name="%s" category="unit" side="%s">'
                 % (u["id"], esc(u["name"]), u["side"]))
        o.append('    <face id="ready" name="Ready"/>')
        o.append('    <face id="disrupted" name="Disrupted"/>')
        stat(o, "label", u["label"])
        stat(o, "type", u["type"])
        stat(o, "class", u["cls"])
        stat(o, "of2", CLASS_OF2[u["cls"]])
        stat(o, "cf", 1)
        stat(o, "nation", u["nation"])
        stat(o, "color", NATIONS[u["nation"]][1])
        if NATIONS[u["nation"]][2]:
            stat(o, "mark", NATIONS[u["nation"]][2])
        stat(o, "army", u["army"])
        if u["corps"]:
            stat(o, "corps", u["corps"])
        if u["wing"]:
            stat(o, "wing", u["wing"])
        stat(o, "guard", 1 if "guard" in u["flags"] else 0)
        stat(o, "garrison", 1 if "garrison" in u["flags"] else 0)
        stat(o, "cossack", 1 if "cossack" in u["flags"] else 0)
        o.append("  </counter-type>")
    o.append("  <!-- ======================= markers (3.7) ======================= -->")
    for side, nm in (("french", "French"), ("coalition", "Coalition")):
        o.append('  <counter-type id="%s_supply_back" name="%s supply train (face down)" '
                 'category="marker" side="%s">' % (side, nm, side))
        o.append('    <face id="back" name="Supply train?"/>')
        o.append("  </counter-type>")
        o.append('  <counter-type id="%s_supply" name="%s supply train / depot" category="marker" '
                 'side="%s" hidden-as="%s_supply_back">' % (side, nm, side, side))
        o.append("    <!-- 7: the same counter is a Supply Train on top of a stack (face down until"
                 " used) and a Depot face up at the base of a city hex -->")
        o.append('    <face id="train" name="Supply train"/>')
        o.append('    <face id="depot" name="Depot"/>')
        stat(o, "genuine", 1)
        o.append("  </counter-type>")
        o.append('  <counter-type id="%s_supply_dummy" name="%s dummy supply train (7.5)" '
                 'category="marker" side="%s" hidden-as="%s_supply_back">' % (side, nm, side, side))
        o.append('    <face id="train" name="Leurre! (dummy)"/>')
        stat(o, "genuine", 0)
        o.append("  </counter-type>")
        for i in range(1, 9):
            o.append('  <counter-type id="%s_hidden_%d" name="%s hidden force %d (15.1)" '
                     'category="marker" side="%s">' % (side, i, nm, i, side))
            o.append('    <face id="front" name="%d"/>' % i)
            stat(o, "number", i)
            stat(o, "box", "%s_hidden_%d" % (side, i))   # the private box it stands for (15.1)
            o.append("  </counter-type>")
        o.append('  <counter-type id="%s_cc_marker" name="%s combat commands (9)" category="marker" '
                 'side="%s">' % (side, nm, side))
        o.append('    <face id="front" name="CC"/>')
        o.append("  </counter-type>")
        o.append('  <counter-type id="%s_st_marker" name="%s supply trains available (7.2)" '
                 'category="marker" side="%s">' % (side, nm, side))
        o.append('    <face id="front" name="ST"/>')
        o.append("  </counter-type>")
    for mid, name, rule in (("forage", "Forage", "6.3, 7.6"),
                            ("forced_march", "Forced March", "8.4"),
                            ("previous_combat", "Previous Combat", "11.2"),
                            ("two_combats", "2 or + Combats", "11.2")):
        o.append('  <counter-type id="%s" name="%s (%s)" category="marker">' % (mid, name, rule))
        o.append('    <face id="front" name="%s"/>' % name)
        o.append("  </counter-type>")
    o.append('  <counter-type id="turn_marker" name="Game Turn (14.2)" category="marker">')
    o.append('    <face id="front" name="Turn"/>')
    o.append("  </counter-type>")
    o.append("</counters>")
    return "\n".join(o) + "\n"


def write_scenario(m, commanders, units, where, places, report):
    o = ['<?xml version="1.0" encoding="UTF-8"?>',
         "<!-- GENERATED by scripts/oob/build_oob.py from data/oob.txt and map.xml; edit those and",
         "     rerun. The set-up, reinforcement schedule, Supply Train and CC figures are a",
         "     RECONSTRUCTION of the Set Up Card from the historical record (SOURCES.md).",
         "     Reinforcements are pieces with no place (off the board) and the properties",
         "     arrive_turn (placed in the Reinforcement Phase of that Turn, 13.2), arrive_at (hex",
         "     label) and, for an entry that may happen on that Turn or any later one (14.13),",
         "     arrive_repeat=true. Supply-train, dummy and marker counters start off the board.",
         "     Vars supply_trains_<side> / cc_basic_<side>: twelve numbers, Turns 1..12. -->",
         '<scenario id="campaign" name="The Campaign of 1814 (December 1813 - May 1814)" '
         'first-side="french" turn="1" phase="start">',
         "  <description>The full campaign game, Turns 1-12 (rule 14). The French deploy first, "
         "then the Coalition (14.1). Positions, reinforcements, Supply Trains and Combat Commands "
         "are reconstructed from the historical record of December 1813 (the publisher's Set Up "
         "Card is not available): see SOURCES.md.</description>"]
    by_side = {"french": [], "coalition": []}
    for p in commanders + units:
        by_side[p["side"]].append(p)
    for side in ("french", "coalition"):
        o.append("  <!-- ===================== %s: set-up (14.1) ===================== -->"
                 % side.upper())
        for p in by_side[side]:
            turn, repeat, place = parse_setup(p["setup"])
            if turn is not None:
                continue
            cr = where[p["id"]]
            face = ' face="ready"' if "cls" in p else ""
            o.append('  <place type="%s" id="%s" at="%s"%s/>   <!-- %s -->'
                     % (p["id"], p["id"], m.label(cr), face, esc(m.name_of.get(cr, place))))
        o.append("  <!-- ===================== %s: reinforcements (13.2-13.4) ========== -->"
                 % side.upper())
        rein = [p for p in by_side[side] if parse_setup(p["setup"])[0] is not None]
        rein.sort(key=lambda p: parse_setup(p["setup"])[0])
        for p in rein:
            turn, repeat, place = parse_setup(p["setup"])
            cr = resolve_place(m, places, place, report)
            face = ' face="ready"' if "cls" in p else ""
            o.append('  <place type="%s" id="%s"%s>   <!-- Turn %d: %s -->'
                     % (p["id"], p["id"], face, turn, esc(place)))
            o.append('    <prop name="arrive_turn" value="%d"/>' % turn)
            o.append('    <prop name="arrive_at" text="%s"/>' % m.label(cr))
            if repeat:
                o.append('    <prop name="arrive_repeat" bool="true"/>')
            o.append("  </place>")
        o.append("  <!-- supply trains (7): genuine counters for the largest allocation, two "
                 "dummies (7.5) -->")
        o.append('  <place type="%s_supply" count="%d" owner="%s"/>'
                 % (side, GENUINE_TRAINS[side], side))
        o.append('  <place type="%s_supply_dummy" count="2" owner="%s"/>' % (side, side))
        o.append("  <!-- hidden-force markers 1-8 (15.1) -->")
        for i in range(1, 9):
            o.append('  <place type="%s_hidden_%d" id="%s_hidden_%d" owner="%s"/>'
                     % (side, i, side, i, side))
    o.append("  <!-- shared markers -->")
    for mid, n in MARKER_COUNTS.items():
        o.append('  <place type="%s" count="%d"/>' % (mid, n))
    o.append("  <!-- Set Up Card rows (RECONSTRUCTED): Supply Trains per Turn 1..12 (7.2), basic "
             "Combat Commands per Turn 1..12 (9.2, 14.1; RULINGS.md R-1) -->")
    for side in ("french", "coalition"):
        o.append('  <var name="supply_trains_%s" text="%s"/>'
                 % (side, " ".join(map(str, SUPPLY_TRAINS[side]))))
    for side in ("french", "coalition"):
        o.append('  <var name="cc_basic_%s" text="%s"/>'
                 % (side, " ".join(map(str, COMBAT_COMMANDS[side]))))
    o.append('  <var name="game_length" value="12"/>   <!-- 14.3; 10 after 14.12 -->')
    o.append('  <var name="veterans_transferred" value="0"/>   <!-- 14.9: at most 4 -->')
    o.append('  <var name="murat_joined" bool="false"/>   <!-- 16.3: REC 9 played -->')
    o.append('  <track id="french_cc_basic" value="%d"/>' % COMBAT_COMMANDS["french"][0])
    o.append('  <track id="coalition_cc_basic" value="%d"/>' % COMBAT_COMMANDS["coalition"][0])
    o.append('  <track id="french_cc" value="%d"/>' % COMBAT_COMMANDS["french"][0])
    o.append('  <track id="coalition_cc" value="%d"/>' % COMBAT_COMMANDS["coalition"][0])
    o.append('  <track id="french_supply_trains" value="%d"/>' % SUPPLY_TRAINS["french"][0])
    o.append('  <track id="coalition_supply_trains" value="%d"/>' % SUPPLY_TRAINS["coalition"][0])
    o.append('  <track id="french_depots_lost" value="0"/>')
    o.append('  <track id="coalition_depots_lost" value="0"/>')
    o.append('  <deck id="winter" shuffle="true"/>')
    o.append('  <deck id="spring" shuffle="true"/>')
    o.append("</scenario>")
    return "\n".join(o) + "\n"


def main():
    args = sys.argv[1:]
    map_path = os.path.join(MOD, "map.xml")
    if "--map" in args:
        map_path = args[args.index("--map") + 1]
    check = "--check" in args
    if not os.path.exists(map_path):
        die("no map at %s (use --map PATH)" % map_path)
    m = Map(map_path)
    commanders, units = read_oob(os.path.join(MOD, "data", "oob.txt"))
    places = {r[0]: (float(r[1]), float(r[2]))
              for _, r in read_table(os.path.join(MOD, "data", "places.txt"))}
    report = []
    where = build_setup(m, places, commanders, units, report)
    counters = write_counters(commanders, units)
    scen = write_scenario(m, commanders, units, where, places, report)
    errors = verify(m, commanders, units, where)
    for line in report:
        print("note:", line)
    for e in errors:
        print("ERROR:", e)
    n_side = lambda lst, s: sum(1 for p in lst if p["side"] == s)
    print("commanders: french %d, coalition %d; units: french %d, coalition %d"
          % (n_side(commanders, "french"), n_side(commanders, "coalition"),
             n_side(units, "french"), n_side(units, "coalition")))
    if "--summary" in args:
        by = {p["id"]: p for p in commanders + units}
        hexes = {}
        for pid, cr in where.items():
            hexes.setdefault(cr, []).append(pid)
        for cr in sorted(hexes, key=m.label):
            ids = hexes[cr]
            print("%s %-18s OF %4.1f  %s" % (m.label(cr), m.name_of.get(cr, ""),
                  sum(of2(by[i]) for i in ids) / 2, " ".join(ids)))
    if errors:
        sys.exit(1)
    if check:  # the committed files must be what the generator writes from today's inputs
        stale = []
        for rel, text in (("counters.xml", counters), (os.path.join("scenarios", "campaign.xml"),
                                                       scen)):
            path = os.path.join(MOD, rel)
            if not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
                stale.append(rel)
        for rel in stale:
            print("STALE: %s differs from the generator's output; rerun build_oob.py" % rel)
        print("check: 4.1 and 14.1 hold on the Turn 1 set-up" if not stale else "check failed")
        sys.exit(1 if stale else 0)
    with open(os.path.join(MOD, "counters.xml"), "w", encoding="utf-8") as f:
        f.write(counters)
    os.makedirs(os.path.join(MOD, "scenarios"), exist_ok=True)
    with open(os.path.join(MOD, "scenarios", "campaign.xml"), "w", encoding="utf-8") as f:
        f.write(scen)
    with open(os.path.join(MOD, "data", "setup_report.txt"), "w", encoding="utf-8") as f:
        f.write("# generated by scripts/oob/build_oob.py: places moved by the 4.1/14.1 checks\n")
        f.write("# map: %s\n" % os.path.relpath(map_path, ROOT))
        for line in report:
            f.write(line + "\n")
    print("wrote counters.xml, scenarios/campaign.xml, data/setup_report.txt")


if __name__ == "__main__":
    main()
