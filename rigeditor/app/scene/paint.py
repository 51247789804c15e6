"""Painting helpers shared by the scene's layers.

Layers paint in device space (pixels): positions come from the Bake in world units
and are mapped with the painter's transform here, so handles, joints, text and line
widths keep their screen size at any zoom and text is never flipped by the y-up view.

Speed: Qt's raster engine strokes 1-pixel cosmetic pens on a fast path; any other
width goes through the general stroker, 5-20x slower. So every outline here is one
pixel wide, and anything thicker is a filled shape (see ``thick_line``).
"""
from __future__ import annotations

import math
from bisect import bisect_left
from dataclasses import dataclass, field

import numpy as np
import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF, QStaticText, QTransform

from rigeditor.app import style
from rigeditor.app.scene.path_bytes import polygons_path


class DeviceMap:
    """World (x, y) -> device pixels, from a QTransform (Qt's row-vector convention)."""

    def __init__(self, t: QTransform):
        self.m11, self.m12, self.m21, self.m22 = t.m11(), t.m12(), t.m21(), t.m22()
        self.dx, self.dy = t.dx(), t.dy()
        self.scale = math.sqrt(abs(self.m11 * self.m22 - self.m12 * self.m21))  # px per unit
        self._m = np.array([[self.m11, self.m12], [self.m21, self.m22]])
        self._t = np.array([self.dx, self.dy])

    def __call__(self, p) -> np.ndarray:
        return np.asarray(p, dtype=float) @ self._m + self._t

    def linear(self) -> np.ndarray:
        """2x2 matrix mapping world directions (column vectors) to device directions."""
        return np.array([[self.m11, self.m21], [self.m12, self.m22]])

    def key(self) -> tuple:
        return (self.m11, self.m12, self.m21, self.m22, self.dx, self.dy)


def visible(lo, hi, clip) -> np.ndarray:
    """Mask of device boxes [lo, hi] ((K, 2) each) that touch ``clip``: one rectangle
    (x0, y0, x1, y1) or several, (R, 4)."""
    lo, hi = np.asarray(lo).reshape(-1, 2), np.asarray(hi).reshape(-1, 2)
    c = np.asarray(clip, float).reshape(-1, 4)
    if len(c) == 1:
        c = c[0]
        return (hi[:, 0] >= c[0]) & (lo[:, 0] <= c[2]) & (hi[:, 1] >= c[1]) & (lo[:, 1] <= c[3])
    return ((hi[:, None, 0] >= c[None, :, 0]) & (lo[:, None, 0] <= c[None, :, 2])
            & (hi[:, None, 1] >= c[None, :, 1]) & (lo[:, None, 1] <= c[None, :, 3])).any(axis=1)


def polygon(points) -> QPolygonF:
    """A QPolygonF of (K, 2) points, filled through its memory (QPointF is two
    doubles): ~10x faster than building QPointFs one by one past a few points."""
    pts = np.ascontiguousarray(points, dtype=np.float64).reshape(-1, 2)
    poly = QPolygonF()
    poly.resize(len(pts))
    if len(pts):
        buf = shiboken6.VoidPtr(poly.data(), pts.nbytes, True)
        np.frombuffer(buf, dtype=np.float64).reshape(-1, 2)[:] = pts
    return poly


def pt(p) -> QPointF:
    return QPointF(float(p[0]), float(p[1]))


# Qt's enum members, looked up once: each attribute lookup (Qt.NoPen...) costs about a
# microsecond in PySide6, and a repaint asks for a few hundred.
NO_PEN, NO_BRUSH, SOLID_LINE = Qt.NoPen, Qt.NoBrush, Qt.SolidLine
WINDING_FILL, ODD_EVEN_FILL = Qt.WindingFill, Qt.OddEvenFill
SMOOTH = QPainter.Antialiasing

_pens: dict = {}


def pen(color, style_=SOLID_LINE, alpha=None) -> QPen:
    """A one-pixel cosmetic pen (the raster engine's fast path), remembered."""
    key = (color.rgba() if isinstance(color, QColor) else color, style_, alpha)
    p = _pens.get(key)
    if p is None:
        if len(_pens) > 512:
            _pens.clear()
        c = QColor(color)
        if alpha is not None:
            c.setAlpha(int(alpha))
        p = _pens[key] = QPen(c, 1.0, style_)
        p.setCosmetic(True)
    return p


def faded(color, alpha) -> QColor:
    c = QColor(color)
    c.setAlpha(int(min(max(alpha, 0), 255)))
    return c


def thick_line(painter, a, b, width, color) -> None:
    """A line ``width`` px wide from device point a to b, as a filled quad."""
    d = np.asarray(b, float) - np.asarray(a, float)
    n = math.hypot(d[0], d[1])
    if n < 1e-9:
        return
    off = np.array([-d[1], d[0]]) / n * (width / 2)
    painter.setPen(NO_PEN)
    painter.setBrush(color)
    painter.drawPolygon(polygon([a + off, b + off, b - off, a - off]))


def disc(painter, center, radius, color) -> None:
    painter.setPen(NO_PEN)
    painter.setBrush(color)
    painter.drawEllipse(pt(center), radius, radius)


def discs(painter, centers, radius, color, outline=NO_PEN) -> None:
    """Discs of one style, (K, 2) device centres, as one path: one painter call for
    all of them instead of one per disc (radius: a number or (K,) values)."""
    centers = np.asarray(centers, float).reshape(-1, 2)
    if not len(centers):
        return
    path = QPainterPath()
    path.setFillRule(WINDING_FILL)  # overlapping discs add up, never cancel
    # (The rectangle form of addEllipse: half the cost of one with a QPointF centre.)
    if np.ndim(radius) == 0:
        r = float(radius)
        for x, y in centers.tolist():
            path.addEllipse(x - r, y - r, r + r, r + r)
    else:
        for (x, y), r in zip(centers.tolist(), np.asarray(radius, float).reshape(-1).tolist()):
            path.addEllipse(x - r, y - r, r + r, r + r)
    fill_path(painter, path, color, outline)


def polygons(painter, shapes, color, outline=NO_PEN) -> None:
    """Filled polygons of one style, (K, M, 2) device points, as one path."""
    if not len(shapes):
        return
    fill_path(painter, polygons_path([(shapes, True)], WINDING_FILL), color, outline)


def fill_path(painter, path, color, outline=NO_PEN) -> None:
    """Fill ``path`` with ``color`` and stroke it with the one-pixel ``outline``. The
    outline covers the fill's edge, so under an outline the fill is drawn without
    antialiasing: it looks the same and costs a fifth (the outline stays smooth)."""
    if outline is NO_PEN:
        painter.setPen(NO_PEN)
        painter.setBrush(color)
        painter.drawPath(path)
        return
    if color is not NO_BRUSH:
        painter.setPen(NO_PEN)
        painter.setBrush(color)
        smooth = painter.testRenderHint(SMOOTH)
        painter.setRenderHint(SMOOTH, False)
        painter.drawPath(path)
        painter.setRenderHint(SMOOTH, smooth)
    painter.setPen(outline)
    painter.setBrush(NO_BRUSH)
    painter.drawPath(path)


def label_font() -> QFont:
    f = QFont()
    f.setPointSizeF(style.LABEL_FONT_PT)
    return f


def ellipse_points(center_dev, matrix, radius, n=96) -> np.ndarray:
    """Device points of a circle of ``radius`` (local units) through the 2x2
    local->device ``matrix`` around ``center_dev``."""
    t = np.linspace(0.0, 2.0 * np.pi, n + 1)
    local = np.stack([np.cos(t), np.sin(t)]) * radius
    return (matrix @ local).T + center_dev


def similarity_scale(matrix) -> float | None:
    """The scale of a 2x2 matrix that is a rotation/mirror times a uniform scale,
    else None (then a circle maps to a real ellipse)."""
    g = matrix.T @ matrix
    s2 = 0.5 * (g[0, 0] + g[1, 1])
    if s2 <= 0:
        return None
    if abs(g[0, 0] - g[1, 1]) > 1e-6 * s2 or abs(g[0, 1]) > 1e-6 * s2:
        return None
    return math.sqrt(s2)


# ---------------------------------------------------------------------- labels
@dataclass
class Label:
    """Text to draw near ``anchor`` (world). runs: (text, colour) pieces on one line.
    priority: lower is placed first (and wins a crowded spot). gap: pixels from the
    anchor. key: who asked for it (tests read it). rect: device rectangle once placed."""

    key: str
    anchor: np.ndarray
    runs: list
    priority: int = 5
    gap: float = 12.0
    directions: tuple = ((1, -1), (1, 1), (-1, -1), (-1, 1), (0, -1), (0, 1))
    rect: QRectF | None = field(default=None, compare=False)
    anchor_dev: np.ndarray | None = field(default=None, compare=False)
    text: str = field(init=False, repr=False, compare=False)  # the runs' text, joined

    def __post_init__(self):
        # (Set once: functools.cached_property takes a lock on every read before
        # Python 3.12, and the layout reads every label's text on every move.)
        self.text = "".join(r[0] for r in self.runs)

    def signature(self) -> tuple:
        """What the label looks like (to tell whether it must be repainted). Colours
        follow from the text (a cause, a space, a value), so text and place suffice."""
        r = self.rect
        return (self.text, None if r is None else (r.x(), r.y(), r.width(), r.height()))


class TextCache:
    """QStaticText per string (drawn several times faster than drawText) and widths."""

    def __init__(self, font: QFont):
        self.font = font
        self.metrics = QFontMetricsF(font)
        self._static: dict[str, QStaticText] = {}
        self._width: dict[str, float] = {}

    def static(self, text: str) -> QStaticText:
        s = self._static.get(text)
        if s is None:
            if len(self._static) > 2000:
                self._static.clear()
            s = QStaticText(text)
            s.setTextFormat(Qt.PlainText)
            s.prepare(QTransform(), self.font)
            self._static[text] = s
        return s

    def width(self, text: str) -> float:
        w = self._width.get(text)
        if w is None:
            if len(self._width) > 2000:
                self._width.clear()
            w = self._width[text] = self.metrics.horizontalAdvance(text)
        return w


class LabelPlacer:
    """Greedy placement in device space: each label takes the first of its preferred
    spots (at 1x, 2.2x and 3.6x its gap) that overlaps no placed label and no
    obstacle and stays inside ``bounds``; in a crowd it takes the first spot inside
    the bounds, and failing that its first spot."""

    PAD_X, PAD_Y = 5.0, 2.0
    RINGS = np.array([1.0, 2.2, 3.6])

    def __init__(self, text: TextCache, obstacles: np.ndarray, capacity: int = 64, bounds=None):
        self.text = text
        self.bounds = bounds  # (x0, y0, x1, y1): spots reaching outside are the last resort
        obstacles = np.asarray(obstacles, float).reshape(-1, 4)
        self.taken = np.empty((len(obstacles) + capacity, 4))
        self.taken[:len(obstacles)] = obstacles
        self.count = len(obstacles)

    _patterns: dict = {}

    @classmethod
    def _pattern(cls, directions, gap):
        """Candidate spots of a label shape: sign x, sign y, distance, beside (not above)."""
        key = (directions, gap)
        p = cls._patterns.get(key)
        if p is None:
            d = np.asarray(directions, float)
            sx, sy = np.tile(d[:, 0], len(cls.RINGS)), np.tile(d[:, 1], len(cls.RINGS))
            p = cls._patterns[key] = (sx, sy, np.repeat(gap * cls.RINGS, len(d)), sx != 0)
        return p

    def size(self, label: Label):
        w = sum(self.text.width(t) for t, _ in label.runs) + 2 * self.PAD_X
        return w, self.text.metrics.height() + 2 * self.PAD_Y

    def place(self, label: Label, anchor_dev) -> QRectF:
        w, h = self.size(label)
        ax, ay = float(anchor_dev[0]), float(anchor_dev[1])
        sx, sy, g, side = self._pattern(label.directions, label.gap)
        x = np.where(side, np.where(sx > 0, ax + g, ax - g - w), ax - w / 2)
        gy = np.where(side, g * 0.5, g)
        y = np.where(sy > 0, ay + gy, ay - gy - h)
        t = self.taken[:self.count]
        hit = ((x[:, None] < t[None, :, 2]) & (x[:, None] + w > t[None, :, 0]) &
               (y[:, None] < t[None, :, 3]) & (y[:, None] + h > t[None, :, 1])).any(axis=1)
        inside = np.ones_like(hit)
        if self.bounds is not None:
            b = self.bounds
            inside = (x >= b[0]) & (y >= b[1]) & (x + w <= b[2]) & (y + h <= b[3])
        free = np.flatnonzero(~hit & inside)
        if not free.size:
            free = np.flatnonzero(inside)
        k = int(free[0]) if free.size else 0
        if self.count == len(self.taken):
            self.taken = np.concatenate([self.taken, np.empty_like(self.taken)])
        self.taken[self.count] = (x[k], y[k], x[k] + w, y[k] + h)
        self.count += 1
        return QRectF(float(x[k]), float(y[k]), w, h)


    def place_all(self, labels: list, anchors: np.ndarray, one_by_one: bool = False) -> None:
        """Place ``labels`` (in priority order) at their ``anchors`` (K, 2): every label
        whose first spot is free of obstacles, of the other labels' first spots and
        inside the bounds takes it at once (one vectorised test); the rest take the
        spot ``place`` would give them, in order (``one_by_one``: through ``place``
        itself, the reference the tests hold the batched path to). Sets each
        label's ``rect``."""
        if not labels:
            return
        size = np.array([self.size(lb) for lb in labels])
        first = np.array([[p[0][0], p[1][0], p[2][0]] for p in
                          (self._pattern(lb.directions, lb.gap) for lb in labels)])
        sx, sy, g = first[:, 0], first[:, 1], first[:, 2]
        w, h = size[:, 0], size[:, 1]
        ax, ay = anchors[:, 0], anchors[:, 1]
        x = np.where(sx != 0, np.where(sx > 0, ax + g, ax - g - w), ax - w / 2)
        gy = np.where(sx != 0, g * 0.5, g)
        y = np.where(sy > 0, ay + gy, ay - gy - h)
        r = np.stack([x, y, x + w, y + h], axis=1)
        t = self.taken[:self.count]
        blocked = overlaps(r, t).any(axis=1) if len(t) else np.zeros(len(r), dtype=bool)
        pair = overlaps(r, r)
        np.fill_diagonal(pair, False)
        blocked |= pair.any(axis=1)
        if self.bounds is not None:
            b = self.bounds
            blocked |= (x < b[0]) | (y < b[1]) | (x + w > b[2]) | (y + h > b[3])
        easy = np.flatnonzero(~blocked)
        for k in easy.tolist():
            labels[k].rect = QRectF(float(x[k]), float(y[k]), float(w[k]), float(h[k]))
        self._take(r[easy])
        hard = np.flatnonzero(blocked).tolist()
        if one_by_one:
            for k in hard:
                labels[k].rect = self.place(labels[k], anchors[k])
        elif hard:
            self._place_blocked([labels[k] for k in hard], anchors[hard], size[hard])

    def _place_blocked(self, labels: list, anchors: np.ndarray, size: np.ndarray) -> None:
        """``place`` for each of ``labels`` in order, with the same choice of spot:
        every candidate spot of every label is tested against the obstacles and the
        labels placed so far in one call; only the labels placed here, one after
        another, are then tested one spot at a time (a handful of rectangles, in
        plain floats: a crowd re-places about ten labels a frame)."""
        pats = [self._pattern(lb.directions, lb.gap) for lb in labels]
        counts = [len(p[0]) for p in pats]
        sx, sy, g, side = (np.concatenate([p[i] for p in pats]) for i in range(4))
        w, h = np.repeat(size[:, 0], counts), np.repeat(size[:, 1], counts)
        ax, ay = np.repeat(anchors[:, 0], counts), np.repeat(anchors[:, 1], counts)
        x = np.where(side, np.where(sx > 0, ax + g, ax - g - w), ax - w / 2)
        gy = np.where(side, g * 0.5, g)
        y = np.where(sy > 0, ay + gy, ay - gy - h)
        r = np.stack([x, y, x + w, y + h], axis=1)
        t = self.taken[:self.count]
        # Only the obstacles meeting the box around every spot can meet one of them
        # (a crowd's spots cover a corner of the view; the rig's joints fill it).
        lo, hi = r[:, :2].min(axis=0), r[:, 2:].max(axis=0)
        t = t[(t[:, 0] < hi[0]) & (t[:, 2] > lo[0]) & (t[:, 1] < hi[1]) & (t[:, 3] > lo[1])]
        free = ~overlaps(r, t).any(axis=1) if len(t) else np.ones(len(r), dtype=bool)
        inside = np.ones(len(r), dtype=bool)
        if self.bounds is not None:
            b = self.bounds
            inside = (r[:, 0] >= b[0]) & (r[:, 1] >= b[1]) & (r[:, 2] <= b[2]) & (r[:, 3] <= b[3])
        free &= inside
        # Plain ints and floats from here (nested lists would be garbage-collected
        # objects: a frame's few hundred of them cost more than the tests they save).
        start = np.r_[0, np.cumsum(counts)].tolist()
        free_idx = np.flatnonzero(free).tolist()
        flat = r[free_idx].ravel().tolist()  # x0, y0, x1, y1 of each free spot
        inside_idx = np.flatnonzero(inside).tolist()
        placed: list = []  # rectangles placed by this call, in order
        chosen = []
        f = i_in = 0  # where the search in free_idx / inside_idx resumes
        for j, lb in enumerate(labels):
            first, end = start[j], start[j + 1]
            k = None
            for f in range(bisect_left(free_idx, first, f), bisect_left(free_idx, end, f)):
                x0, y0, x1, y1 = flat[4 * f:4 * f + 4]
                if not any(x0 < q[2] and x1 > q[0] and y0 < q[3] and y1 > q[1] for q in placed):
                    k = free_idx[f]
                    placed.append((x0, y0, x1, y1))
                    break
            if k is None:  # a crowd: the first spot inside the bounds, or the first spot
                i_in = bisect_left(inside_idx, first, i_in)
                k = inside_idx[i_in] if i_in < len(inside_idx) and inside_idx[i_in] < end else first
                placed.append(tuple(r[k].tolist()))
            chosen.append(k)
            lb.rect = QRectF(placed[-1][0], placed[-1][1], float(size[j][0]), float(size[j][1]))
        self._take(r[chosen])

    def _take(self, rects: np.ndarray) -> None:
        need = self.count + len(rects)
        if need > len(self.taken):
            self.taken = np.concatenate([self.taken, np.empty((need, 4))])
        self.taken[self.count:need] = rects
        self.count = need


def overlaps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(len(a), len(b)) mask of rectangles (x0, y0, x1, y1) that overlap."""
    return ((a[:, None, 0] < b[None, :, 2]) & (a[:, None, 2] > b[None, :, 0]) &
            (a[:, None, 1] < b[None, :, 3]) & (a[:, None, 3] > b[None, :, 1]))


def draw_label(painter, text: TextCache, label: Label, rect: QRectF) -> None:
    painter.setPen(NO_PEN)
    painter.setBrush(style.LABEL_BACKGROUND)
    painter.drawRoundedRect(rect, 4.0, 4.0)
    x = rect.left() + LabelPlacer.PAD_X
    y = rect.top() + LabelPlacer.PAD_Y
    for t, color in label.runs:
        painter.setPen(pen(color))
        painter.drawStaticText(QPointF(x, y), text.static(t))
        x += text.width(t)


def format_units(value: float) -> str:
    """A distance in model units, with digits that matter."""
    v = abs(value)
    if v >= 100:
        return f"{value:.0f}"
    if v >= 1:
        return f"{value:.1f}"
    if v >= 0.01:
        return f"{value:.2f}"
    return f"{value:.1e}"
