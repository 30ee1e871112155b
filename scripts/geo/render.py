"""SVG rendering of the generated 1814 map (no GUI). Used by build_map.py."""
import math

SCALE = 1.3      # px per km
MARGIN = 40


def svg(m, coast, borders):
    G = m["G"]
    R = G.R
    xs, ys = [], []
    for c in (0, G.cols - 1):
        for r in (0, G.rows - 1):
            x, y = G.centre_xy(c, r)
            xs.append(x)
            ys.append(y)
    xmin, xmax = min(xs) - R, max(xs) + R
    ymin, ymax = min(ys) - R, max(ys) + R
    W = (xmax - xmin) * SCALE + 2 * MARGIN
    H = (ymax - ymin) * SCALE + 2 * MARGIN + 60

    def P(x, y):
        return ((x - xmin) * SCALE + MARGIN, (ymax - y) * SCALE + MARGIN + 50)

    def pts(seq):
        return " ".join("%.1f,%.1f" % P(x, y) for x, y in seq)

    col = {t[0]: t[2] for t in __import__("build_map").TERRAINS}
    out = []
    a = out.append
    a('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
      'font-family="DejaVu Sans, sans-serif">' % (W, H, W, H))
    a('<rect width="100%" height="100%" fill="#f4f1e8"/>')
    a('<text x="%d" y="32" font-size="24" font-weight="bold">1814: Napoleon\'s Defiance - '
      'the board (generated from GSHHG/WDBII/DCW)</text>' % MARGIN)
    # hexes
    a('<g stroke="#8a8578" stroke-width="0.6">')
    for c in range(G.cols):
        for r in range(G.rows):
            t = m["terrain"][(c, r)]
            corners = [G.corner_xy(c, r, i) for i in range(6)]
            a('<polygon points="%s" fill="%s"/>' % (pts(corners), col[t]))
    a("</g>")
    # terrain symbols
    a('<g>')
    for c in range(G.cols):
        for r in range(G.rows):
            t = m["terrain"][(c, r)]
            cx, cy = P(*G.centre_xy(c, r))
            if t == "forest":
                for dx, dy in ((-12, 4), (0, 12), (12, 4), (-6, -8), (8, -8)):
                    a('<circle cx="%.1f" cy="%.1f" r="4.5" fill="#3f7a3a"/>' % (cx + dx, cy + dy))
            elif t == "mountain":
                for dx, dy in ((-12, 8), (10, 8), (0, -8)):
                    x, y = cx + dx, cy + dy
                    a('<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="#6d5a48"/>' % (
                        x - 8, y + 6, x + 8, y + 6, x, y - 9))
            elif t == "rough":
                for dx, dy in ((-12, 6), (0, -10), (12, 6), (0, 14), (-4, 2), (8, -4)):
                    a('<path d="M%.1f,%.1f q4,-6 8,0" stroke="#8a6a40" stroke-width="1.6" '
                      'fill="none"/>' % (cx + dx - 4, cy + dy))
            elif t == "marsh":
                for dy in (-8, 0, 8, 16):
                    a('<path d="M%.1f,%.1f h14 M%.1f,%.1f h8" stroke="#3a7a80" stroke-width="1.4"/>'
                      % (cx - 12, cy + dy, cx + 4, cy + dy - 4))
    a("</g>")
    # real coastline and borders (thin, for orientation)
    a('<g fill="none" stroke="#34506e" stroke-width="0.9" opacity="0.75">')
    for head, seg in coast:
        a('<polyline points="%s"/>' % pts([G.project(la, lo) for lo, la in seg]))
    a("</g>")
    a('<g fill="none" stroke="#7a3a7a" stroke-width="0.8" stroke-dasharray="4,3" opacity="0.6">')
    for head, seg in borders:
        a('<polyline points="%s"/>' % pts([G.project(la, lo) for lo, la in seg]))
    a("</g>")

    def side_line(k):
        h, d = k
        return G.side_xy(h[0], h[1], d)

    def region_edges(reg, other=None):
        res = []
        for h in reg:
            for d in range(6):
                n = G.neighbour(h[0], h[1], d)
                if n in reg:
                    continue
                if other is not None and n not in other:
                    continue
                res.append(G.side_xy(h[0], h[1], d))
        return res

    regs = m["regions"]
    # USS hexes
    a('<g fill="none">')
    for h in regs["uss_coalition"]:
        a('<polygon points="%s" stroke="#c03030" stroke-width="3" stroke-dasharray="3,3" '
          'transform="translate(0,0)"/>' % pts([shrink(G, h, i, 0.8) for i in range(6)]))
    for h in regs["uss_french"]:
        a('<polygon points="%s" stroke="#2040c0" stroke-width="4"/>'
          % pts([shrink(G, h, i, 0.82) for i in range(6)]))
    a("</g>")
    # green line: boundary of Coalition-friendly territory with French-friendly territory
    a('<g stroke="#1a9a3a" stroke-width="5" opacity="0.75" stroke-linecap="round">')
    for (p, q) in region_edges(regs["coalition_friendly"], regs["french_friendly"] | regs["geneva"]):
        a('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>' % (P(*p) + P(*q)))
    a("</g>")
    # France of 1792
    a('<g stroke="#5a2a90" stroke-width="2" stroke-dasharray="2,4" opacity="0.9">')
    for (p, q) in region_edges(regs["france"]):
        a('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>' % (P(*p) + P(*q)))
    a("</g>")
    # rivers, lakes
    st = m["side_types"]
    a('<g stroke-linecap="round">')
    for k, ts in st.items():
        (p, q) = side_line(k)
        if "lake" in ts:
            a('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#5f95e0" stroke-width="9"/>'
              % (P(*p) + P(*q)))
        if "river" in ts:
            a('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#2a5bd0" stroke-width="5"/>'
              % (P(*p) + P(*q)))
    a("</g>")
    # roads / passes: centre-to-centre across the side
    a('<g fill="none" stroke-linecap="round">')
    for k, ts in st.items():
        if not ({"road", "pass"} & ts):
            continue
        h, d = k
        n = G.neighbour(h[0], h[1], d)
        p, q = G.centre_xy(*h), G.centre_xy(*n)
        p = (p[0] * 0.7 + q[0] * 0.3, p[1] * 0.7 + q[1] * 0.3)
        q = (q[0] * 0.7 + G.centre_xy(*h)[0] * 0.3, q[1] * 0.7 + G.centre_xy(*h)[1] * 0.3)
        color = "#c01818" if "pass" in ts else "#7a4010"
        a('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="3" '
          'stroke-dasharray="6,3"/>' % (P(*p) + P(*q) + (color,)))
    a("</g>")
    # bridges: a bar across the river, along the centre line
    a('<g stroke="#111" stroke-width="4">')
    for k, ts in st.items():
        if "bridge" not in ts:
            continue
        h, d = k
        n = G.neighbour(h[0], h[1], d)
        p, q = G.centre_xy(*h), G.centre_xy(*n)
        mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
        ux, uy = (q[0] - p[0]) / 50.0, (q[1] - p[1]) / 50.0
        a('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f"/>' % (
            P(mx - 7 * ux, my - 7 * uy) + P(mx + 7 * ux, my + 7 * uy)))
    a("</g>")
    # hex labels
    a('<g font-size="8" fill="#555" text-anchor="middle">')
    for c in range(G.cols):
        for r in range(G.rows):
            x, y = P(*G.centre_xy(c, r))
            a('<text x="%.1f" y="%.1f">%s</text>' % (x, y - 0.62 * R * SCALE, G.label(c, r)))
    a("</g>")
    # cities
    a('<g font-size="11" text-anchor="middle">')
    for h, name in m["names"].items():
        x, y = P(*G.centre_xy(*h))
        fs = m["features"].get(h, [])
        if "fortified" in fs:
            a('<rect x="%.1f" y="%.1f" width="11" height="11" fill="#111" stroke="#fff" '
              'stroke-width="1"/>' % (x - 5.5, y - 5.5))
        else:
            a('<circle cx="%.1f" cy="%.1f" r="5" fill="#111" stroke="#fff" stroke-width="1"/>' % (x, y))
        big = name in ("Paris", "Bordeaux", "Marseilles", "Lyon", "Milan", "Amsterdam", "Brussels")
        a('<text x="%.1f" y="%.1f" font-weight="%s" stroke="#f4f1e8" stroke-width="3" '
          'paint-order="stroke" font-size="%d">%s</text>' % (
              x, y + 17, "bold" if big else "normal", 13 if big else 10, esc(name)))
    a("</g>")
    # legend
    lx, ly = MARGIN + 10, H - 20
    items = [("#2a5bd0", "river"), ("#5f95e0", "lake hexside"), ("#111", "bridge"),
             ("#7a4010", "road"), ("#c01818", "pass"), ("#1a9a3a", "Coalition/French territory"),
             ("#5a2a90", "France 1792"), ("#c03030", "Coalition USS"), ("#2040c0", "French USS")]
    a('<g font-size="13">')
    for i, (cc, txt) in enumerate(items):
        x = lx + i * 150
        a('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="5"/>' % (
            x, ly - 4, x + 24, ly - 4, cc))
        a('<text x="%d" y="%d">%s</text>' % (x + 30, ly, txt))
    a("</g>")
    a("</svg>")
    return "\n".join(out) + "\n"


def shrink(G, h, i, f):
    cx, cy = G.centre_xy(*h)
    x, y = G.corner_xy(h[0], h[1], i)
    return cx + (x - cx) * f, cy + (y - cy) * f


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;")
