"""Plane geometry the board's placement uses: boxes (x0, y0, x1, y1), circles and convex
polygons — whether two overlap, a box moved, the area of a polygon inside a box."""

from __future__ import annotations


def overlap(a, b, gap: float = 0.0) -> bool:
    """Whether two boxes overlap (or come closer than `gap`)."""
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def moved(box, dx: float, dy: float) -> tuple[float, float, float, float]:
    """The box shifted by (dx, dy)."""
    return box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy


def circle_box_overlap(x: float, y: float, r: float, box) -> bool:
    """Whether a circle and a box overlap."""
    nx, ny = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    return (nx - x) ** 2 + (ny - y) ** 2 < r * r


def polygons_overlap(p, q) -> bool:
    """Separating axis test for two convex polygons."""
    for poly in (p, q):
        for i in range(len(poly)):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % len(poly)]
            nx, ny = y2 - y1, x1 - x2
            a = [nx * x + ny * y for x, y in p]
            b = [nx * x + ny * y for x, y in q]
            if max(a) <= min(b) or max(b) <= min(a):
                return False
    return True


def clip_area(poly: list[tuple[float, float]], box: tuple[float, float, float, float]) -> float:
    """Area of a convex polygon inside an axis-aligned box (Sutherland-Hodgman)."""
    pts = poly
    for axis, limit, keep_below in ((0, box[0], False), (0, box[2], True), (1, box[1], False), (1, box[3], True)):
        out = []
        for i, p in enumerate(pts):
            q = pts[i - 1]
            p_in = p[axis] <= limit if keep_below else p[axis] >= limit
            q_in = q[axis] <= limit if keep_below else q[axis] >= limit
            if p_in != q_in:
                k = (limit - q[axis]) / (p[axis] - q[axis])
                out.append((q[0] + k * (p[0] - q[0]), q[1] + k * (p[1] - q[1])))
            if p_in:
                out.append(p)
        pts = out
        if not pts:
            return 0.0
    return abs(sum(pts[i - 1][0] * p[1] - p[0] * pts[i - 1][1] for i, p in enumerate(pts))) / 2
