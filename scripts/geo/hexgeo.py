"""Georeference of the Vedette 1814 map: hex centre <-> lat/lon, labels <-> offsets.

Implements exactly the formula of docs/module-format.md (map.xml, <georef>):
  R = hex_km / sqrt(3)
  x = origin_x_km + col * 1.5 * R
  y = origin_y_km - (row + 0.5 * (col & 1)) * sqrt(3) * R        (flat-top, parity odd)
where (x, y) are Lambert azimuthal equal-area coordinates (km) on a sphere of radius 6371 km
centred on (lat0, lon0); col/row are OFFSET coordinates (col grows eastwards, row southwards).
Printed labels: label column = first_col + col_step * col, label row = first_row + row.
Python stdlib only.
"""
import math

EARTH_R = 6371.0
SQRT3 = math.sqrt(3.0)

# flat-top directions, clockwise from north (same numbering as framework/hex/hex.hpp)
DIRS = ("N", "NE", "SE", "S", "SW", "NW")


class Georef:
    def __init__(self, lat0, lon0, hex_km, origin_x_km, origin_y_km,
                 cols, rows, first_col, first_row, col_step=1):
        self.lat0, self.lon0 = lat0, lon0
        self.hex_km = hex_km
        self.R = hex_km / SQRT3
        self.ox, self.oy = origin_x_km, origin_y_km
        self.cols, self.rows = cols, rows
        self.first_col, self.first_row, self.col_step = first_col, first_row, col_step

    # ---- projection -------------------------------------------------------------------
    def project(self, lat, lon):
        """lat/lon (degrees) -> LAEA x, y (km)."""
        p, l = math.radians(lat), math.radians(lon - self.lon0)
        p0 = math.radians(self.lat0)
        d = 1 + math.sin(p0) * math.sin(p) + math.cos(p0) * math.cos(p) * math.cos(l)
        k = math.sqrt(2.0 / d)
        x = EARTH_R * k * math.cos(p) * math.sin(l)
        y = EARTH_R * k * (math.cos(p0) * math.sin(p) - math.sin(p0) * math.cos(p) * math.cos(l))
        return x, y

    def unproject(self, x, y):
        """LAEA x, y (km) -> lat, lon (degrees)."""
        rho = math.hypot(x, y)
        if rho < 1e-9:
            return self.lat0, self.lon0
        c = 2 * math.asin(min(1.0, rho / (2 * EARTH_R)))
        p0 = math.radians(self.lat0)
        lat = math.asin(math.cos(c) * math.sin(p0) + y * math.sin(c) * math.cos(p0) / rho)
        lon = math.radians(self.lon0) + math.atan2(
            x * math.sin(c), rho * math.cos(p0) * math.cos(c) - y * math.sin(p0) * math.sin(c))
        return math.degrees(lat), math.degrees(lon)

    # ---- grid -------------------------------------------------------------------------
    def centre_xy(self, col, row):
        return (self.ox + col * 1.5 * self.R,
                self.oy - (row + 0.5 * (col & 1)) * SQRT3 * self.R)

    def centre_latlon(self, col, row):
        return self.unproject(*self.centre_xy(col, row))

    def xy_to_offset(self, x, y):
        """Offset (col, row) of the hex containing plane point (x, y) (may be off the grid)."""
        # fractional axial coordinates (flat-top): q along x, r down
        qf = (x - self.ox) / (1.5 * self.R)
        # y measured downwards from origin, in units of sqrt3*R
        yd = (self.oy - y) / (SQRT3 * self.R)
        rf = yd - qf / 2.0
        # cube rounding
        xq, zr = qf, rf
        yc = -xq - zr
        rx, ry, rz = round(xq), round(yc), round(zr)
        dx, dy, dz = abs(rx - xq), abs(ry - yc), abs(rz - zr)
        if dx > dy and dx > dz:
            rx = -ry - rz
        elif dy > dz:
            ry = -rx - rz
        else:
            rz = -rx - ry
        col = int(rx)
        row = int(rz + (col - (col & 1)) // 2)
        return col, row

    def latlon_to_offset(self, lat, lon):
        return self.xy_to_offset(*self.project(lat, lon))

    def on_grid(self, col, row):
        return 0 <= col < self.cols and 0 <= row < self.rows

    # ---- labels -------------------------------------------------------------------------
    def label(self, col, row):
        return "%02d%02d" % (self.first_col + self.col_step * col, self.first_row + row)

    def parse(self, label):
        lc, lr = int(label[:-2]), int(label[-2:])
        return (lc - self.first_col) * self.col_step, lr - self.first_row

    def distance(self, a, b):
        """Hexes between offset positions a and b (col, row): flat-top, odd-q, via cube coordinates."""
        def cube(c, r):
            z = r - (c - (c & 1)) // 2
            return c, z, -c - z
        a, b = cube(*a), cube(*b)
        return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))

    def latlon_to_label(self, lat, lon):
        return self.label(*self.latlon_to_offset(lat, lon))

    def label_to_latlon(self, label):
        return self.centre_latlon(*self.parse(label))

    # ---- neighbours (offset, flat-top, odd-q) -------------------------------------------
    def neighbour(self, col, row, d):
        odd = col & 1
        if d == 0:
            return col, row - 1
        if d == 3:
            return col, row + 1
        if d == 1:
            return col + 1, row - 1 + odd
        if d == 2:
            return col + 1, row + odd
        if d == 4:
            return col - 1, row + odd
        if d == 5:
            return col - 1, row - 1 + odd
        raise ValueError(d)

    def corner_xy(self, col, row, i):
        """Corner i of a flat-top hex; corner i lies between sides i-1 and i... see hexside_corners."""
        cx, cy = self.centre_xy(col, row)
        a = math.radians(60 * i)
        return cx + self.R * math.cos(a), cy + self.R * math.sin(a)

    # side d (N, NE, SE, S, SW, NW) runs between these corner indices (corners at 0,60,..deg,
    # counter-clockwise from east, y up)
    SIDE_CORNERS = {0: (1, 2), 1: (0, 1), 2: (5, 0), 3: (4, 5), 4: (3, 4), 5: (2, 3)}

    def side_xy(self, col, row, d):
        a, b = self.SIDE_CORNERS[d]
        return self.corner_xy(col, row, a), self.corner_xy(col, row, b)


def from_map_xml(path):
    """Build a Georef from a map.xml (<map>, <numbering>, <georef>)."""
    import xml.etree.ElementTree as ET
    root = ET.parse(path).getroot()
    n, g = root.find("numbering"), root.find("georef")
    return Georef(float(g.get("lat0")), float(g.get("lon0")), float(g.get("hex-km")),
                  float(g.get("origin-x-km")), float(g.get("origin-y-km")),
                  int(root.get("cols")), int(root.get("rows")),
                  int(n.get("first-col")), int(n.get("first-row")), int(n.get("col-step", "1")))


if __name__ == "__main__":
    import sys
    if len(sys.argv) < 3:
        print("usage: hexgeo.py MAP.xml LABEL | MAP.xml LAT LON")
        sys.exit(2)
    G = from_map_xml(sys.argv[1])
    if len(sys.argv) == 3:
        lat, lon = G.label_to_latlon(sys.argv[2])
        print("%.4f %.4f" % (lat, lon))
    else:
        print(G.latlon_to_label(float(sys.argv[2]), float(sys.argv[3])))
