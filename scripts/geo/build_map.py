#!/usr/bin/env python3
"""Regenerate modules/napoleon_1814/map.xml (and the SVG/PNG rendering) from real geodata.

Inputs: GMT 6 with GSHHG high resolution (coastlines, WDBII rivers) and DCW (country polygons),
all local (Debian packages gmt, gmt-gshhg-high, gmt-dcw); the hand-maintained files in
scripts/geo/data/. Python stdlib only. Deterministic: same inputs -> same bytes.

    python3 scripts/geo/build_map.py            # map.xml + docs/images/map_1814.svg/.png
    python3 scripts/geo/build_map.py --no-png   # skip rsvg-convert
    python3 scripts/geo/check.py                # the self-check
"""
import heapq
import math
import os
import subprocess
import sys
import tempfile
from collections import defaultdict, deque

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
DATA = os.path.join(HERE, "data")
sys.path.insert(0, HERE)
from hexgeo import Georef, DIRS, SQRT3  # noqa: E402
import render  # noqa: E402

# ---- the grid (see MAP.md "Numbering") ------------------------------------------------------
GRID = dict(lat0=47.0, lon0=3.0, hex_km=50.0, origin_x_km=-695.0, origin_y_km=726.0,
            cols=28, rows=27, first_col=69, first_row=10, col_step=-1)
G = Georef(**GRID)
REGION = "-R-12/14/39/56"          # lon/lat box enclosing the grid, for GMT
SAMPLE_KM = 5.0                    # spacing of the land/terrain sample points inside a hex
SEA_BELOW = 0.20                   # land fraction below which a hex is sea
COASTAL_BELOW = 0.90               # land fraction below which a land hex is "coastal"
COVER = 0.45                       # share of a hex's land a terrain region must cover
SNAP_KM = 7.0                      # WDBII river points kept within this distance of the waypoints
RIVER_LEVELS = {"0", "1", "2", "3", "4"}
CORNERS = ("E", "NE", "NW", "W", "SW", "SE")   # flat-top hex corners, counter-clockwise from east

OUT_XML = os.path.join(ROOT, "modules", "napoleon_1814", "map.xml")
OUT_SVG = os.path.join(ROOT, "docs", "images", "map_1814.svg")
OUT_PNG = os.path.join(ROOT, "docs", "images", "map_1814.png")

TERRAINS = [  # id, name, colour, extra attributes
    ("clear", "Clear", "#eee6c4", ""),
    ("forest", "Forest", "#7fa86a", ' symbol="forest"'),
    ("marsh", "Marsh", "#a9c9b4", ' symbol="marsh"'),
    ("rough", "Rough ground", "#c9b28a", ' symbol="rough"'),
    ("mountain", "Mountain", "#9c8a78", ' symbol="mountain"'),
    ("sea", "Sea", "#9cc0e0", ' playable="false"'),
    ("offmap", "Off the board", "#d8d8d8", ' playable="false"'),
]
HEXSIDE_TYPES = [
    ("river", "River", "#2f5fd0"),
    ("bridge", "Bridge", "#202020"),
    ("lake", "Lake", "#6fa0e0"),
    ("road", "Road", "#8a4b20"),
    ("pass", "Mountain pass", "#b02020"),
]
FEATURES = [("city", "City"), ("fortified", "Fortified city"),
            ("coastal", "Partly sea (occupiable, rule 2.2)")]


# ---- small helpers ---------------------------------------------------------------------------
def read_table(name):
    rows = []
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            rows.append((lineno, [p.strip() for p in s.split("|")]))
    return rows


def parse_pts(text):
    out = []
    for tok in text.split():
        la, lo = tok.split(",")
        out.append((float(la), float(lo)))
    return out


def gmt(args, stdin=None):
    r = subprocess.run(["gmt"] + args, input=stdin, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("gmt %s failed: %s" % (" ".join(args), r.stderr))
    return r.stdout


def segments(text):
    """Parse GMT multi-segment output -> list of (header, [(lon, lat), ...])."""
    segs, cur, head = [], None, ""
    for line in text.splitlines():
        if line.startswith(">"):
            if cur:
                segs.append((head, cur))
            cur, head = [], line
        elif line.strip():
            a = line.split()
            cur.append((float(a[0]), float(a[1])))
    if cur:
        segs.append((head, cur))
    return segs


def point_in_poly(x, y, poly):
    inside = False
    n = len(poly)
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


class Poly:
    """A lat/lon polygon tested in the projected plane."""
    def __init__(self, pts):
        self.xy = [G.project(la, lo) for la, lo in pts]
        xs = [p[0] for p in self.xy]
        ys = [p[1] for p in self.xy]
        self.box = (min(xs), min(ys), max(xs), max(ys))

    def contains(self, x, y):
        b = self.box
        if x < b[0] or x > b[2] or y < b[1] or y > b[3]:
            return False
        return point_in_poly(x, y, self.xy)


def all_hexes():
    return [(c, r) for c in range(G.cols) for r in range(G.rows)]


def side_key(h, d):
    """Canonical hexside key: (hex, dir) with dir in N, NE, SE of the hex, or the neighbour's."""
    if d <= 2:
        return (h, d)
    n = G.neighbour(h[0], h[1], d)
    return (n, d - 3)


def side_hexes(k):
    h, d = k
    return h, G.neighbour(h[0], h[1], d)


# ---- samples, land, countries -----------------------------------------------------------------
def sample_offsets():
    R = G.R
    pts = []
    n = int(R / SAMPLE_KM) + 1
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            dx, dy = i * SAMPLE_KM, j * SAMPLE_KM + (SAMPLE_KM / 2 if i & 1 else 0)
            if abs(dy) <= SQRT3 / 2 * R and SQRT3 * abs(dx) + abs(dy) <= SQRT3 * R:
                pts.append((dx, dy))
    return pts


def compute_samples():
    offs = sample_offsets()
    samples = []  # (hex, x, y, lat, lon)
    for h in all_hexes():
        cx, cy = G.centre_xy(*h)
        for dx, dy in offs:
            x, y = cx + dx, cy + dy
            la, lo = G.unproject(x, y)
            samples.append((h, x, y, la, lo))
    return samples, len(offs)


def gmt_select_idx(samples, extra):
    """Indices of samples kept by `gmt select` with the given extra options."""
    inp = "".join("%.5f %.5f %d\n" % (s[4], s[3], i) for i, s in enumerate(samples))
    out = gmt(["select", REGION, "-fg"] + extra, inp)
    return {int(float(line.split()[2])) for line in out.splitlines() if line.strip()}


def country_polygons(tmp, code):
    path = os.path.join(tmp, code + ".txt")
    txt = gmt(["coast", REGION, "-E" + code, "-M"])
    with open(path, "w") as f:
        f.write(txt)
    return path, txt


# ---- river / lake chains along hex corners ------------------------------------------------------
class CornerGraph:
    def __init__(self):
        self.key = {}        # rounded xy -> id
        self.xy = []
        self.adj = defaultdict(dict)   # id -> {id: side key}
        for c in range(-1, G.cols + 1):
            for r in range(-1, G.rows + 1):
                ids = [self._id(*G.corner_xy(c, r, i)) for i in range(6)]
                for d in range(6):
                    a, b = G.SIDE_CORNERS[d]
                    k = side_key((c, r), d)
                    ha, hb = side_hexes(k)
                    if not (G.on_grid(*ha) and G.on_grid(*hb)):
                        continue
                    self.adj[ids[a]][ids[b]] = k
                    self.adj[ids[b]][ids[a]] = k

    def _id(self, x, y):
        k = (round(x, 2), round(y, 2))
        if k not in self.key:
            self.key[k] = len(self.xy)
            self.xy.append((x, y))
        return self.key[k]

    def nearest(self, x, y, allowed=None):
        best, bd = None, 1e18
        for i, (cx, cy) in enumerate(self.xy):
            if i not in self.adj or (allowed is not None and i not in allowed):
                continue
            d = (cx - x) ** 2 + (cy - y) ** 2
            if d < bd:
                best, bd = i, d
        return best


def seg_dist(px, py, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / L))
    qx, qy = ax + t * dx, ay + t * dy
    return math.hypot(px - qx, py - qy), t


def poly_dist(px, py, line):
    best = 1e18
    for i in range(len(line) - 1):
        d, _ = seg_dist(px, py, *line[i], *line[i + 1])
        if d < best:
            best = d
    return best


def densify(line, step):
    out = [line[0]]
    for (ax, ay), (bx, by) in zip(line, line[1:]):
        n = max(1, int(math.hypot(bx - ax, by - ay) / step))
        for k in range(1, n + 1):
            out.append((ax + (bx - ax) * k / n, ay + (by - ay) * k / n))
    return out


def true_course(waypoints, wdb_pts):
    """River course in the plane: WDBII points near the waypoint line, ordered along it."""
    W = [G.project(la, lo) for la, lo in waypoints]
    cum = [0.0]
    for a, b in zip(W, W[1:]):
        cum.append(cum[-1] + math.hypot(b[0] - a[0], b[1] - a[1]))
    bx0 = min(p[0] for p in W) - SNAP_KM
    bx1 = max(p[0] for p in W) + SNAP_KM
    by0 = min(p[1] for p in W) - SNAP_KM
    by1 = max(p[1] for p in W) + SNAP_KM
    picked = []
    for (x, y) in wdb_pts:
        if x < bx0 or x > bx1 or y < by0 or y > by1:
            continue
        best, bt = 1e18, 0.0
        for i in range(len(W) - 1):
            d, t = seg_dist(x, y, *W[i], *W[i + 1])
            if d < best:
                best, bt = d, cum[i] + t * (cum[i + 1] - cum[i])
        if best <= SNAP_KM:
            picked.append((bt, x, y))
    # waypoints where no WDBII point is close: keep the waypoint itself
    ts = sorted(p[0] for p in picked)
    for i, (x, y) in enumerate(W):
        t = cum[i]
        lo = 0
        near = False
        for tt in ts:          # small lists: linear is fine
            if abs(tt - t) <= 6.0:
                near = True
                break
        if not near or i == 0 or i == len(W) - 1:
            picked.append((t, x, y))
    picked.sort()
    return [(x, y) for _, x, y in picked], sum(1 for p in picked if True)


def chain_path(cg, course, start=None, end=None, allowed_end=None):
    """Least-cost corner path hugging `course` (list of plane points)."""
    line = densify(course, 4.0)
    # corridor of corners near the course
    cand = set()
    for i, (x, y) in enumerate(cg.xy):
        if i in cg.adj and poly_dist(x, y, line[::3] if len(line) > 30 else line) < 70:
            cand.add(i)
    s = start if start is not None else cg.nearest(*course[0], cand)
    cand.add(s)
    if end is not None:
        cand.add(end)
    if end is None:
        e_set = {cg.nearest(*course[-1], cand)}
        if allowed_end:
            ex, ey = course[-1]
            e_set = {min(allowed_end & cand or allowed_end,
                         key=lambda i: (cg.xy[i][0] - ex) ** 2 + (cg.xy[i][1] - ey) ** 2)}
    else:
        e_set = {end}
    cost_cache = {}

    def edge_cost(a, b):
        k = (a, b) if a < b else (b, a)
        if k not in cost_cache:
            (ax, ay), (bx, by) = cg.xy[a], cg.xy[b]
            c = 0.0
            for f in (0.15, 0.5, 0.85):
                px, py = ax + (bx - ax) * f, ay + (by - ay) * f
                c += poly_dist(px, py, line) ** 2
            cost_cache[k] = c / 3 + 60.0
        return cost_cache[k]
    dist = {s: 0.0}
    prev = {}
    pq = [(0.0, s)]
    goal = None
    while pq:
        d, u = heapq.heappop(pq)
        if d > dist.get(u, 1e30):
            continue
        if u in e_set:
            goal = u
            break
        for v in cg.adj[u]:
            if v not in cand:
                continue
            nd = d + edge_cost(u, v)
            if nd < dist.get(v, 1e30):
                dist[v] = nd
                prev[v] = u
                heapq.heappush(pq, (nd, v))
    if goal is None:
        return []
    path = [goal]
    while path[-1] != s:
        path.append(prev[path[-1]])
    path.reverse()
    return path


def clip_to_grid(course):
    """Keep the longest run of the course whose points lie inside the grid."""
    runs, cur = [], []
    for x, y in course:
        if G.on_grid(*G.xy_to_offset(x, y)):
            cur.append((x, y))
        else:
            if cur:
                runs.append(cur)
            cur = []
    if cur:
        runs.append(cur)
    return max(runs, key=len) if runs else []


# ---- hex line (for roads) -----------------------------------------------------------------------
def hex_route(pts):
    """Hexes visited by the polyline pts (lat/lon), contiguous."""
    xy = densify([G.project(la, lo) for la, lo in pts], 3.0)
    out = []
    for x, y in xy:
        h = G.xy_to_offset(x, y)
        if not out or out[-1] != h:
            if out and G.distance(out[-1], h) > 1:
                # fill the gap with the hex line between
                a, b = out[-1], h
                n = G.distance(a, b)
                ax, ay = G.centre_xy(*a)
                bx, by = G.centre_xy(*b)
                for k in range(1, n):
                    m = G.xy_to_offset(ax + (bx - ax) * k / n + 1e-6, ay + (by - ay) * k / n + 1e-6)
                    if m != out[-1]:
                        out.append(m)
            out.append(h)
    return out


def direction_between(a, b):
    for d in range(6):
        if G.neighbour(a[0], a[1], d) == b:
            return d
    return None


# ---- the build ---------------------------------------------------------------------------------
def build():
    log = []
    samples, per_hex = compute_samples()
    tmp = tempfile.mkdtemp(prefix="vedette_geo_")

    # land (lakes and islands count as land; ocean is sea)
    land_idx = gmt_select_idx(samples, ["-Dh", "-Ns/k/k/k/k"])
    land_n = defaultdict(int)
    land_samples = defaultdict(list)
    for i, s in enumerate(samples):
        if i in land_idx:
            land_n[s[0]] += 1
            land_samples[s[0]].append(i)
    frac = {h: land_n[h] / per_hex for h in all_hexes()}

    # countries by majority of land samples
    codes = ["FR", "BE", "NL", "LU", "DE", "CH", "IT", "ES", "AD", "MC", "LI", "AT", "GB", "JE",
             "GG", "IE", "SM"]
    land_list = [samples[i] for i in sorted(land_idx)]
    land_ids = sorted(land_idx)
    sample_country = {}
    country_lines = {}
    for code in codes:
        path, txt = country_polygons(tmp, code)
        country_lines[code] = txt
        if not txt.strip():
            continue
        kept = gmt_select_idx(land_list, ["-F" + path])
        for k in kept:
            sample_country.setdefault(land_ids[k], code)
    hex_country = {}
    for h in all_hexes():
        votes = defaultdict(int)
        for i in land_samples[h]:
            votes[sample_country.get(i, "--")] += 1
        if votes:
            hex_country[h] = max(sorted(votes), key=lambda c: votes[c])

    # political hand polygons
    terr = {}
    for lineno, p in read_table("territories.txt"):
        terr[p[0]] = Poly(parse_pts(p[2]))

    def share(h, poly):
        ids = land_samples[h]
        if not ids:
            cx, cy = G.centre_xy(*h)
            return 1.0 if poly.contains(cx, cy) else 0.0
        return sum(1 for i in ids if poly.contains(samples[i][1], samples[i][2])) / len(ids)

    # terrain
    terrain = {}
    for h in all_hexes():
        terrain[h] = "clear" if frac[h] >= SEA_BELOW else "sea"
        if terrain[h] != "sea" and hex_country.get(h) in ("GB", "JE", "GG", "IE"):
            terrain[h] = "offmap"
        if terrain[h] != "sea" and share(h, terr["corsica"]) >= 0.5:
            terrain[h] = "offmap"
    regions_t = []
    for lineno, p in read_table("terrain.txt"):
        regions_t.append((p[0], p[1], p[2], Poly(parse_pts(p[3]))))
    terrain_src = {}
    for cls, name, reason, poly in regions_t:
        for h in all_hexes():
            if terrain[h] in ("sea", "offmap"):
                continue
            if share(h, poly) >= COVER:
                terrain[h] = cls
                terrain_src[h] = name

    # cities
    cities = []   # dict(name, lat, lon, kinds, note, hex, moved)
    occupied = {}
    for lineno, p in read_table("cities.txt"):
        name, la, lo, kinds = p[0], float(p[1]), float(p[2]), p[3].split()
        note = p[4] if len(p) > 4 else ""
        c = dict(name=name, lat=la, lon=lo, kinds=kinds, note=note, hex=None, moved=False)
        cities.append(c)
        if "offmap" in kinds:
            continue
        h = G.latlon_to_offset(la, lo)
        if not G.on_grid(*h):
            c["kinds"] = kinds + ["offmap"]
            continue
        if h in occupied:
            x, y = G.project(la, lo)
            cands = []
            for d in range(6):
                n = G.neighbour(h[0], h[1], d)
                if G.on_grid(*n) and n not in occupied and terrain.get(n) not in ("sea", "offmap"):
                    nx, ny = G.centre_xy(*n)
                    cands.append((math.hypot(nx - x, ny - y), n))
            if not cands:
                c["dropped"] = occupied[h]
                log.append("city %s dropped: hex %s taken by %s" % (name, G.label(*h), occupied[h]))
                continue
            h = min(cands)[1]
            c["moved"] = True
        c["hex"] = h
        occupied[h] = name
        if terrain[h] in ("sea", "offmap"):
            log.append("city %s: hex %s was %s, made clear" % (name, G.label(*h), terrain[h]))
            terrain[h] = "clear"

    # ---- hand corrections (terrain) applied before rivers/roads
    corrections = read_table("corrections.txt")
    feat_extra = defaultdict(set)
    feat_remove = defaultdict(set)
    side_add = defaultdict(set)
    side_remove = defaultdict(set)
    region_add = defaultdict(set)
    region_remove = defaultdict(set)
    for lineno, p in corrections:
        words = p[0].split()
        what = words[0]
        if what == "hex":
            h = G.parse(words[1])
            for w in words[2:]:
                if w.startswith("terrain="):
                    terrain[h] = w.split("=", 1)[1]
                elif w.startswith("+"):
                    feat_extra[h].add(w[1:])
                elif w.startswith("-"):
                    feat_remove[h].add(w[1:])
        elif what == "side":
            h = G.parse(words[1])
            k = side_key(h, DIRS.index(words[2]))
            for w in words[3:]:
                (side_add if w.startswith("+") else side_remove)[k].add(w[1:])
        elif what == "region":
            for w in words[2:]:
                (region_add if w.startswith("+") else region_remove)[words[1]].add(G.parse(w[1:]))

    # ---- rivers and lakes
    wdb = []
    for head, pts in segments(gmt(["coast", REGION, "-Dh", "-Ia", "-M"])):
        if head.split()[-1] in RIVER_LEVELS:
            wdb.extend(G.project(la, lo) for lo, la in pts)
    cg = CornerGraph()
    lines = {}        # id -> dict(name, kind, sides[list of keys], corners[list])
    for lineno, p in read_table("rivers.txt"):
        rid, name, kind, into, wps = p[0], p[1], p[2], p[3], parse_pts(p[4])
        if kind == "lake":
            course = [G.project(la, lo) for la, lo in wps]
        else:
            course, _ = true_course(wps, wdb)
        course = clip_to_grid(course)
        allowed_end = None
        if into != "-" and into in lines:
            allowed_end = set(lines[into]["corners"])
        vias = []   # forced corners "LABEL<corner>", e.g. 4615E: keeps a bank city on its bank
        for tok in (p[5].split() if len(p) > 5 else []):
            lab, cn = tok[:4], tok[4:]
            vx, vy = G.corner_xy(*G.parse(lab), CORNERS.index(cn))
            vias.append(cg.key[(round(vx, 2), round(vy, 2))])
        path = []
        if course and vias:
            dense = densify(course, 2.0)
            def param(i):
                x, y = cg.xy[i]
                return min(range(len(dense)), key=lambda j: (dense[j][0]-x)**2 + (dense[j][1]-y)**2)
            vias.sort(key=param)
            pts = [None] + vias + [None]
            for a, b in zip(pts, pts[1:]):
                seg = chain_path(cg, course, start=a, end=b,
                                 allowed_end=allowed_end if b is None else None)
                path = path + (seg[1:] if path and seg and seg[0] == path[-1] else seg)
            # cut loops
            out, pos = [], {}
            for v in path:
                if v in pos:
                    for u in out[pos[v] + 1:]:
                        pos.pop(u, None)
                    out = out[:pos[v] + 1]
                else:
                    pos[v] = len(out)
                    out.append(v)
            path = out
        elif course:
            path = chain_path(cg, course, allowed_end=allowed_end)
        sides = []
        for a, b in zip(path, path[1:]):
            sides.append(cg.adj[a][b])
        lines[rid] = dict(name=name, kind=kind, into=into, sides=sides, corners=path,
                          course=course)

    # drop sea-sea sides (estuaries) and trim
    side_types = defaultdict(set)
    side_names = defaultdict(list)
    for rid, L in lines.items():
        keep = []
        for k in L["sides"]:
            a, b = side_hexes(k)
            if terrain[a] in ("sea", "offmap") and terrain[b] in ("sea", "offmap"):
                continue
            keep.append(k)
        L["sides"] = keep
        t = "lake" if L["kind"] == "lake" else "river"
        for k in keep:
            side_types[k].add(t)
            if rid not in side_names[k]:
                side_names[k].append(rid)

    # bridges at crossing cities
    for c in cities:
        if "bridge" not in c["kinds"] or c["hex"] is None:
            continue
        h = c["hex"]
        x, y = G.project(c["lat"], c["lon"])
        opts = []
        for d in range(6):
            k = side_key(h, d)
            if "river" in side_types.get(k, ()):
                (ax, ay), (bx, by) = G.side_xy(h[0], h[1], d)
                opts.append((math.hypot((ax + bx) / 2 - x, (ay + by) / 2 - y), k))
        opts.sort()
        chosen = [k for dd, k in opts[:1] if dd <= 45.0]   # one bridge: the nearest river side
        for k in chosen:
            side_types[k].add("bridge")
        if not chosen:
            log.append("bridge city %s (%s): no river hexside near" % (c["name"], G.label(*h)))

    # roads and passes
    roads = {}
    for lineno, p in read_table("roads.txt"):
        rid, name, wps = p[0], p[1], parse_pts(p[2])
        route = [h for h in hex_route(wps) if G.on_grid(*h)]
        used = []
        for a, b in zip(route, route[1:]):
            d = direction_between(a, b)
            if d is None:
                continue
            ta, tb = terrain[a], terrain[b]
            if "sea" in (ta, tb) or "offmap" in (ta, tb):
                continue
            k = side_key(a, d)
            if "mountain" in (ta, tb):
                side_types[k].add("pass")
            elif {"forest", "rough"} & {ta, tb}:
                side_types[k].add("road")
            else:
                continue
            used.append(k)
            if rid not in side_names[k]:
                side_names[k].append(rid)
        roads[rid] = dict(name=name, route=route, sides=used)

    for k, ts in side_add.items():
        side_types[k] |= ts
    for k, ts in side_remove.items():
        side_types[k] -= ts

    # ---- regions
    playable = {h for h in all_hexes() if terrain[h] not in ("sea", "offmap")}
    city_hex = {c["name"]: c["hex"] for c in cities if c["hex"] is not None}
    country = {h: hex_country.get(h, "--") for h in playable}
    for h in playable:
        if country[h] == "--":   # centre-less coastal hexes: nearest land neighbour's country
            for d in range(6):
                n = G.neighbour(h[0], h[1], d)
                if n in hex_country:
                    country[h] = hex_country[n]
                    break
    R = {}
    geneva = {city_hex["Geneva"]}
    R["geneva"] = geneva
    R["switzerland"] = {h for h in playable if country[h] in ("CH", "LI")} - geneva
    R["spain"] = {h for h in playable if country[h] in ("ES", "AD")}
    R["northern_italy"] = {h for h in playable if country[h] in ("IT", "SM")}
    R["kingdom_of_italy"] = {h for h in R["northern_italy"] if share(h, terr["kingdom_of_italy"]) >= 0.5}
    R["savoy_nice"] = {h for h in playable if country[h] in ("FR", "MC")
                       and share(h, terr["savoy_nice"]) >= 0.5} - geneva
    R["france"] = {h for h in playable if country[h] in ("FR", "MC")} - R["savoy_nice"] - geneva
    R["belgium"] = {h for h in playable if country[h] == "BE"}
    R["luxembourg"] = {h for h in playable if country[h] == "LU"}
    R["holland"] = {h for h in playable if country[h] == "NL"}
    # east of the Rhine: flood from the German/Dutch hexes of the eastern edge, never crossing
    # the Rhine, within Germany, the Netherlands, Austria, Liechtenstein
    rhine_sides = set(lines["rhine"]["sides"])
    allowed = {h for h in playable if country[h] in ("DE", "NL", "AT", "LI")}
    seeds = [h for h in allowed if h[0] == G.cols - 1]
    east = set(seeds)
    dq = deque(seeds)
    while dq:
        h = dq.popleft()
        for d in range(6):
            n = G.neighbour(h[0], h[1], d)
            if n in allowed and n not in east and side_key(h, d) not in rhine_sides:
                east.add(n)
                dq.append(n)
    R["east_of_rhine"] = east
    R["amsterdam"] = {city_hex["Amsterdam"]}
    # hand corrections of the base regions, before the derived ones
    for rid, hs in region_add.items():
        R[rid] = R.get(rid, set()) | hs
    for rid, hs in region_remove.items():
        R[rid] = R.get(rid, set()) - hs

    # south-west of the Garonne (14.8): French hexes reached from Bayonne without crossing the
    # Garonne, never entering mountains
    gar = set(lines["garonne"]["sides"])
    sw = {city_hex["Bayonne"]}
    dq = deque(sw)
    while dq:
        h = dq.popleft()
        for d in range(6):
            n = G.neighbour(h[0], h[1], d)
            if n in R["france"] and n not in sw and terrain[n] != "mountain" \
                    and side_key(h, d) not in gar:
                sw.add(n)
                dq.append(n)
    R["south_west_of_garonne"] = sw
    R["coalition_friendly"] = R["east_of_rhine"] | R["switzerland"] | R["kingdom_of_italy"] | R["spain"]
    R["french_friendly"] = playable - R["coalition_friendly"] - geneva
    R["uss_french"] = {city_hex[n] for n in ("Paris", "Bordeaux", "Marseilles")}
    east_edge = {h for h in playable if h[0] == G.cols - 1}
    R["uss_coalition"] = (east_edge - {G.parse("4228"), G.parse("4229")}) | \
        {h for h in R["spain"] if h[1] == G.rows - 1 or h[0] == 0}

    # ---- features
    features = defaultdict(list)
    names = {}
    for c in cities:
        if c["hex"] is None:
            continue
        h = c["hex"]
        features[h].append("city")
        if "fortified" in c["kinds"]:
            features[h].append("fortified")
        names[h] = c["name"]
    for h in playable:
        if frac[h] < COASTAL_BELOW:
            features[h].append("coastal")
    for h, fs in feat_extra.items():
        for f in sorted(fs):
            if f not in features[h]:
                features[h].append(f)
    for h, fs in feat_remove.items():
        features[h] = [f for f in features[h] if f not in fs]

    model = dict(G=G, terrain=terrain, frac=frac, features=features, names=names,
                 side_types=side_types, side_names=side_names, lines=lines, roads=roads,
                 regions=R, cities=cities, country=country, log=log, terrain_src=terrain_src,
                 country_lines=country_lines, playable=playable)
    return model


REGION_DOC = [
    ("france", "France (borders of 1792; rule 14.10 'in France')"),
    ("savoy_nice", "Savoy and Nice (French departements 1813, not France of 1792)"),
    ("belgium", "Belgium (French departements 1795-1814)"),
    ("luxembourg", "Luxembourg (French departement of Forets)"),
    ("holland", "Holland (annexed 1810)"),
    ("amsterdam", "Amsterdam: city friendly to France although east of the Rhine (1.1)"),
    ("east_of_rhine", "East of the River Rhine (1.1)"),
    ("switzerland", "Swiss Confederation (1.1, 14.14)"),
    ("geneva", "Geneva (14.15)"),
    ("northern_italy", "Northern Italy, inside the green line (1.1)"),
    ("kingdom_of_italy", "Kingdom of Italy: east of the French border within Northern Italy (1.1, 6.6, 14.11)"),
    ("spain", "Spain (1.1, 14.10)"),
    ("south_west_of_garonne", "South-west of the River Garonne (14.8)"),
    ("coalition_friendly", "Friendly territory for the Coalition (1.1)"),
    ("french_friendly", "Friendly territory for France (1.1; Geneva excluded)"),
    ("uss_french", "French Ultimate Supply Sources (1.1)"),
    ("uss_coalition", "Coalition Ultimate Supply Sources (1.1)"),
]


def esc(s):
    return s.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def write_xml(m):
    G = m["G"]
    L = []
    a = L.append
    a('<?xml version="1.0" encoding="UTF-8"?>')
    a("<!-- GENERATED by scripts/geo/build_map.py from GSHHG/WDBII/DCW (GMT) and scripts/geo/data/*.txt."
      " Do not edit: change the inputs (corrections.txt) and rerun. See MAP.md. -->")
    a('<map id="france_1814" name="1814: France and neighbours, Dec 1813 - May 1814" '
      'orientation="flat" parity="odd" cols="%d" rows="%d">' % (G.cols, G.rows))
    a('  <numbering scheme="colrow" first-col="%d" first-row="%d" col-digits="2" row-digits="2" '
      'col-step="%d"/>' % (G.first_col, G.first_row, G.col_step))
    a('  <georef projection="laea" lat0="%.1f" lon0="%.1f" hex-km="%.1f" origin-x-km="%.1f" '
      'origin-y-km="%.1f"/>' % (G.lat0, G.lon0, G.hex_km, G.ox, G.oy))
    a("  <terrain-types>")
    for tid, name, col, extra in TERRAINS:
        a('    <terrain id="%s" name="%s" color="%s"%s/>' % (tid, name, col, extra))
    a("  </terrain-types>")
    a("  <hexside-types>")
    for tid, name, col in HEXSIDE_TYPES:
        a('    <hexside-type id="%s" name="%s" color="%s"/>' % (tid, name, col))
    a("  </hexside-types>")
    a("  <hex-features>")
    for fid, name in FEATURES:
        a('    <feature id="%s" name="%s"/>' % (fid, esc(name)))
    a("  </hex-features>")
    a('  <hexes default-terrain="clear">')
    for c in range(G.cols):
        for r in range(G.rows):
            h = (c, r)
            t = m["terrain"][h]
            fs = m["features"].get(h, [])
            nm = m["names"].get(h)
            if t == "clear" and not fs and not nm:
                continue
            s = '    <hex at="%s" terrain="%s"' % (G.label(c, r), t)
            if fs:
                s += ' features="%s"' % " ".join(fs)
            if nm:
                s += ' name="%s"' % esc(nm)
            a(s + "/>")
    a("  </hexes>")
    a("  <hexsides>")
    order = ["river", "bridge", "lake", "road", "pass"]
    for k in sorted(m["side_types"], key=lambda k: (k[0][0], k[0][1], k[1])):
        ts = m["side_types"][k]
        if not ts:
            continue
        h, d = k
        s = '    <hexside at="%s" dir="%s" types="%s"' % (
            G.label(*h), DIRS[d], " ".join(t for t in order if t in ts))
        nms = m["side_names"].get(k)
        if nms:
            s += ' names="%s"' % " ".join(nms)
        a(s + "/>")
    a("  </hexsides>")
    a("  <lines>")
    for rid, Ln in m["lines"].items():
        a('    <line id="%s" name="%s" kind="%s"/>' % (rid, esc(Ln["name"]), Ln["kind"]))
    for rid, Rd in m["roads"].items():
        a('    <line id="%s" name="%s" kind="road"/>' % (rid, esc(Rd["name"])))
    a("  </lines>")
    a("  <boxes>")
    a('    <box id="eliminated" name="Eliminated"/>')
    a('    <box id="adjacent_to_map" name="Adjacent to the map (14.9)"/>')
    # 15.1: each side's Hidden Force card, eight boxes that only their owner may see; box
    # <side>_hidden_<n> holds the units the marker of the same id stands for on the map.
    for side, nm in (("french", "French"), ("coalition", "Coalition")):
        for i in range(1, 9):
            a('    <box id="%s_hidden_%d" name="%s hidden force %d (15.1)" owner="%s" private="true" hide-count="true"/>'
              % (side, i, nm, i, side))
    a("  </boxes>")
    a("  <regions>")
    for rid, name in REGION_DOC:
        hs = sorted(m["regions"][rid], key=lambda h: G.label(*h))
        a('    <region id="%s" name="%s" hexes="%s"/>' % (rid, esc(name),
                                                          " ".join(G.label(*h) for h in hs)))
    a("  </regions>")
    a("</map>")
    os.makedirs(os.path.dirname(OUT_XML), exist_ok=True)
    with open(OUT_XML, "w", encoding="utf-8") as f:
        f.write("\n".join(L) + "\n")


def main():
    m = build()
    write_xml(m)
    os.makedirs(os.path.dirname(OUT_SVG), exist_ok=True)
    coast = segments(gmt(["coast", REGION, "-Dh", "-W", "-M", "-A50/0/1"]))
    borders = segments(gmt(["coast", REGION, "-Dh", "-N1", "-M"]))
    with open(OUT_SVG, "w", encoding="utf-8") as f:
        f.write(render.svg(m, coast, borders))
    if "--no-png" not in sys.argv:
        subprocess.run(["rsvg-convert", "-o", OUT_PNG, OUT_SVG], check=True)
    for line in m["log"]:
        print(line)
    print("wrote", os.path.relpath(OUT_XML, ROOT), os.path.relpath(OUT_SVG, ROOT))
    # report for MAP.md
    with open(os.path.join(HERE, "build_report.txt"), "w", encoding="utf-8") as f:
        f.write("# generated by build_map.py: cities moved or dropped, notes\n")
        for c in m["cities"]:
            if c.get("moved"):
                f.write("moved: %s -> %s (true hex %s)\n" % (
                    c["name"], G.label(*c["hex"]), G.latlon_to_label(c["lat"], c["lon"])))
            if c.get("dropped"):
                f.write("not placed: %s (hex %s, taken by %s)\n" % (
                    c["name"], G.latlon_to_label(c["lat"], c["lon"]), c["dropped"]))
        for line in m["log"]:
            f.write(line + "\n")


if __name__ == "__main__":
    main()
