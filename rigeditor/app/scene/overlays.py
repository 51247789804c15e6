"""The solver's honesty on screen: reach rings, residual, jitter, joint limits, the
mirror solution and space origins. Each overlay is one layer that the view shows or
hides (``SceneView.set_overlay``); all read the current FrameState.
"""
from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QLineF, QPointF, Qt
from PySide6.QtGui import QPainterPath, QPolygonF

from rigeditor.app import style
from rigeditor.app.scene.layers import Layer, _box, arc_directions_many
from rigeditor.app.scene.path_bytes import polygons_path
from rigeditor.app.scene.translucent_fill import fill_translucent
from rigeditor.app.scene.sprites import Sprites
from rigeditor.app.scene.paint import (
    NO_BRUSH, NO_PEN, ODD_EVEN_FILL, SMOOTH, SOLID_LINE, WINDING_FILL, Label, discs, ellipse_points, faded, format_units, pen,
    polygon, pt, similarity_scale, thick_line,
)
from rigeditor.model import CAUSES

RESIDUAL_VISIBLE = 1e-6  # residual drawn when above this fraction of the chain's reach


def _empty():
    z = np.zeros((0, 2))
    return np.zeros((0, 1)), z, z


class ReachLayer(Layer):
    """Around each chain's shoulder: the inner |a-b| (dashed) and outer a+b circles,
    drawn in the shoulder space (a scaled or squashed space shows its real reach).
    Faint, except for the chains being dragged, selected or hovered (emphasised).
    Soft reach: the outer circle turns the soft-reach colour; an emphasised chain
    also shows the soft band filled and dotted circles where softening starts
    (outer - s, and inner + s)."""

    def _matrices(self, state, dm):
        return np.einsum("ij,kjl->kil", dm.linear(), state.ring)

    def elements(self, state, dm):
        if not state.chains:
            return _empty()
        m = self._matrices(state, dm)
        # Frobenius norm >= the largest stretch: a box that surely holds the ring.
        radius = state.reach[:, 1] * np.sqrt(np.sum(m * m, axis=(1, 2))) + 3.0
        c = dm(state.shoulder)
        sig = np.concatenate([state.shoulder, state.ring.reshape(-1, 4), state.reach, state.soft[:, None]], axis=1)
        return sig, c - radius[:, None], c + radius[:, None]

    def look(self, state):
        """Emphasis changes the look, not the geometry: a drag's start and end repaint
        the rings of the chains it emphasises (not every ring it moves past)."""
        return np.array([[n in self.ctx.emphasized] for n in state.chains], dtype=bool).reshape(-1, 1)

    ARC_SEGMENTS = 16  # boxes along each restyled circle

    def look_damage(self, state, dm, changed):
        """Boxes along the circles and soft bands of each restyled ring: a ring's own
        box is the whole disc, most of the view when zoomed on a long chain, for
        outlines a few pixels wide."""
        ms = self._matrices(state, dm)
        centers = dm(state.shoulder)
        k = self.ARC_SEGMENTS
        t = np.linspace(0.0, 2.0 * np.pi, k + 1)
        unit = np.stack([np.cos(t), np.sin(t)])  # (2, k + 1)
        out = []
        for i in np.flatnonzero(changed):
            inner, outer = (float(v) for v in state.reach[i])
            if outer <= 0:
                continue
            soft = max(min(float(state.soft[i]), 0.5 * (outer - inner)), 0.0)
            # Each annulus drawn in either look: the outer circle down to its soft band,
            # the inner circle up to its.
            bands = [(outer - soft, outer)] + ([(inner, inner + soft)] if inner > 0 else [])
            m, c = ms[i], centers[i]
            stretch = float(np.sqrt(np.sum(m * m)))  # >= the largest device radius per unit
            for r0, r1 in bands:
                p0 = (m @ (unit * r0)).T + c
                p1 = (m @ (unit * r1)).T + c
                pts = np.stack([p0[:-1], p0[1:], p1[:-1], p1[1:]], axis=1)  # (k, 4, 2)
                # A chord's box misses the arc's bulge: r (1 - cos(pi / k)), plus the pen.
                pad = stretch * r1 * (1.0 - np.cos(np.pi / k)) + 3.0
                out.append(np.concatenate([pts.min(axis=1) - pad, pts.max(axis=1) + pad], axis=1))
        return np.concatenate(out) if out else np.zeros((0, 4))

    def draw(self, painter, dm, mask):
        # The rings rarely move (a shoulder moves with its parent only): their paths
        # are built once per (rings, view, exposed set) and drawn one per pen.
        sig, _, _ = self.cached_elements(self.ctx.state, dm)
        key = (sig.tobytes(), self.look(self.ctx.state).tobytes(), dm.key(), mask.tobytes())
        cached = getattr(self, "_paths", None)
        if cached is None or cached[0] != key:
            cached = self._paths = (key, self._build_paths(dm, mask))
        fills, strokes = cached[1]
        if fills:
            painter.setPen(NO_PEN)
            painter.setBrush(style.SOFT_BAND)
            painter.setRenderHint(SMOOTH, False)  # a faint fill: no edge to smooth
            for band in fills:
                painter.drawPath(band)
            painter.setRenderHint(SMOOTH, True)
        painter.setBrush(NO_BRUSH)
        for ring_pen, path in strokes.values():
            painter.setPen(ring_pen)
            painter.drawPath(path)

    def _build_paths(self, dm, mask):
        """(soft bands to fill, {pen key: (pen, path of rings)}) of the exposed chains."""
        s, ctx = self.ctx.state, self.ctx
        ms = self._matrices(s, dm)
        centers = dm(s.shoulder)
        fills, strokes = [], {}

        def ring(color, line, alpha, c, m, scale, r):
            entry = strokes.get((color.rgba(), line, alpha))
            if entry is None:
                entry = strokes[(color.rgba(), line, alpha)] = (pen(color, line, alpha=alpha), QPainterPath())
            _circle_path(entry[1], c, m, scale, r)

        for i in np.flatnonzero(mask):
            inner, outer = s.reach[i]
            if outer <= 0:
                continue
            m, c = ms[i], centers[i]
            strong = s.chains[i] in ctx.emphasized
            alpha = 220 if strong else 90
            scale = similarity_scale(m)
            soft = min(float(s.soft[i]), 0.5 * (outer - inner))  # as the solver caps it
            if soft > 0 and strong:
                band = QPainterPath()
                band.setFillRule(ODD_EVEN_FILL)
                for r in [outer - soft, outer] + ([inner, inner + soft] if inner > 0 else []):
                    _circle_path(band, c, m, scale, r)
                fills.append(band)
                for r in [outer - soft] + ([inner + soft] if inner > 0 else []):
                    ring(style.CAUSE_COLORS["soft_reach"], Qt.DotLine, alpha, c, m, scale, r)
            # A soft chain's outer circle is drawn in the soft-reach colour.
            ring(style.CAUSE_COLORS["soft_reach"] if soft > 0 else style.REACH_RING, SOLID_LINE, alpha, c, m, scale, outer)
            if inner > 0:
                ring(style.REACH_RING, Qt.DashLine, alpha, c, m, scale, inner)
        return fills, strokes


def _circle_path(path, center_dev, matrix, scale, radius):
    """Add a circle of ``radius`` (local units) through ``matrix`` to ``path``."""
    if scale is not None:
        path.addEllipse(pt(center_dev), radius * scale, radius * scale)
    else:
        path.addPolygon(polygon(ellipse_points(center_dev, matrix, radius)))


class ResidualLayer(Layer):
    """From each chain's end effector to its target: a line in the cause's colour and
    the distance written beside it (``texts`` lists what is shown). Drawn only when the
    residual exceeds RESIDUAL_VISIBLE x the chain's reach; an unexplained residual is
    red and says so."""

    def shown(self, state) -> np.ndarray:
        if not state.chains:
            return np.zeros(0, dtype=bool)
        return state.residual > RESIDUAL_VISIBLE * np.maximum(state.reach[:, 1], 1e-12)

    def elements(self, state, dm):
        if not state.chains:
            return _empty()
        show = self.shown(state)
        sig = np.concatenate([state.end, state.target, show[:, None], state.cause[:, None]], axis=1)
        lo, hi = _box([dm(state.end), dm(state.target)], 6.0)
        return sig, lo, hi

    @property
    def texts(self) -> list[str]:
        return [lb.text for lb in self.labels()]

    def labels(self):
        if not self.isVisible() or self.ctx.state is None:
            return []
        s = self.ctx.state
        out = []
        for i in np.flatnonzero(self.shown(s)):
            cause = CAUSES[int(s.cause[i])]
            color = style.CAUSE_COLORS[cause]
            out.append(Label(f"residual:{s.chains[i]}", (s.end[i] + s.target[i]) / 2,
                             [(f"{format_units(s.residual[i])} u", color),
                              (f"  {style.CAUSE_LABELS[cause]}", color)],
                             priority=1 if cause == "unexplained" else 2, gap=8.0))
        return out

    def draw(self, painter, dm, mask):
        s = self.ctx.state
        idx = np.flatnonzero(mask & self.shown(s))
        if not len(idx):
            return
        a_all, b_all = dm(s.end[idx]), dm(s.target[idx])
        for a, b, cause in zip(a_all, b_all, s.cause[idx].tolist()):
            color = style.CAUSE_COLORS[CAUSES[int(cause)]]
            thick_line(painter, a, b, 2.0, color)
            painter.setPen(pen(style.BONE_OUTLINE))
            painter.setBrush(color)
            painter.drawEllipse(QPointF(a[0], a[1]), 3.0, 3.0)


class JitterLayer(Layer):
    """The elbow of each chain coloured by angle sensitivity (degrees of joint
    rotation per unit of target motion, style.sensitivity_color: green safe -> red
    danger), ringed when dangerous; the value is written when it is dangerous or the
    chain is emphasised."""

    PAD = 12.0

    def elements(self, state, dm):
        if not state.chains:
            return _empty()
        d = dm(state.elbow)
        return np.concatenate([state.elbow, state.sensitivity[:, None]], axis=1), d - self.PAD, d + self.PAD

    def labels(self):
        if not self.isVisible() or self.ctx.state is None:
            return []
        s, out = self.ctx.state, []
        for i, name in enumerate(s.chains):
            v = float(s.sensitivity[i])
            if v >= style.SENSITIVITY_DANGER_DEG or name in self.ctx.emphasized:
                out.append(Label(f"jitter:{name}", s.elbow[i],
                                 [(f"{v:.2g}°/u" if v < 10 else f"{v:.0f}°/u", style.sensitivity_color(v))],
                                 priority=4, gap=9.0))
        return out

    def draw(self, painter, dm, mask):
        s = self.ctx.state
        idx = np.flatnonzero(mask)
        outline = pen(style.BONE_OUTLINE)
        for (x, y), v in zip(dm(s.elbow[idx]).tolist(), s.sensitivity[idx].tolist()):
            c = style.sensitivity_color(v)
            centre = QPointF(x, y)
            if v >= style.SENSITIVITY_DANGER_DEG:
                painter.setPen(pen(c))
                painter.setBrush(NO_BRUSH)
                painter.drawEllipse(centre, 9.5, 9.5)
                painter.drawEllipse(centre, 10.5, 10.5)
            painter.setPen(outline)
            painter.setBrush(c)
            painter.drawEllipse(centre, 5.5, 5.5)


class LimitLayer(Layer):
    """At each limited joint: the allowed range as a wedge of LIMIT_ARC_RADIUS_PX
    around the joint, measured from the parent's frame, with a tick at the current
    angle. The bound joint (on a frame where the chain is limited) turns the limit
    cause's colour and its wedge fills stronger."""

    PAD = style.LIMIT_ARC_RADIUS_PX + 8.0

    def elements(self, state, dm):
        arcs = state.limits
        if not len(arcs):
            return _empty()
        c = dm(arcs.center)
        sig = np.column_stack([arcs.center, arcs.frame.reshape(-1, 4), arcs.lo, arcs.hi, arcs.angle, arcs.bound])
        return sig, c - self.PAD, c + self.PAD

    def draw(self, painter, dm, mask):
        radius = style.LIMIT_ARC_RADIUS_PX
        shown = np.flatnonzero(mask)
        if not len(shown):
            return
        limits = self.ctx.state.limits
        centres = dm(limits.center[shown])
        frames = np.einsum("ij,kjl->kil", dm.linear(), limits.frame[shown])
        lo, hi, bounds = limits.lo[shown], limits.hi[shown], limits.bound[shown]
        # One path per look (free and bound wedges, their outlines), written from the
        # arrays at once (a point at a time was most of the paint of a long chain), and
        # one drawLines of ticks: a 50-joint chain is a handful of painter calls.
        wedges, rims = {False: [], True: []}, []
        for key, idx in _by_range(lo, hi).items():
            dirs = arc_directions_many(frames[idx], *key)  # (G, P, 2)
            # Each wedge: the joint, then its rim, closed.
            shapes = np.concatenate([centres[idx][:, None], centres[idx][:, None] + dirs * radius], axis=1)
            bound = bounds[idx]
            for look in (False, True):
                if (bound == look).any():
                    wedges[look].append((shapes[bound == look], True))
            if bound.any():
                rims.append((centres[idx][bound][:, None] + dirs[bound] * (radius + 1.0), False))
        for bound in (False, True):
            if not wedges[bound]:
                continue
            color = style.CAUSE_COLORS["limit"] if bound else style.LIMIT_ARC
            # The wedges' edges are stroked (antialiased) right after: filling without
            # antialiasing looks the same and costs a third; filled through a buffer,
            # overlapping wedges cost a fifth of that again (translucent_fill).
            path = polygons_path(wedges[bound], WINDING_FILL)
            fill_translucent(painter, path, faded(color, 110 if bound else 40))
            painter.setPen(pen(color, alpha=255 if bound else 200))
            painter.setBrush(NO_BRUSH)
            # (A stroke ignores the fill rule: the free wedges' outline is the same path.)
            painter.drawPath(polygons_path(wedges[bound] + rims) if bound and rims else path)
        # The ticks at the current angles, 5 px past the arc, computed for all at once.
        angle = limits.angle[shown]
        tip = np.einsum("kij,kj->ki", frames, np.stack([np.cos(angle), np.sin(angle)], axis=1))
        tip = centres + tip * ((radius + 5) / np.maximum(np.hypot(tip[:, 0], tip[:, 1]), 1e-12))[:, None]
        painter.setPen(pen(style.TEXT))
        painter.drawLines([QLineF(*row) for row in np.concatenate([centres, tip], axis=1).tolist()])


def _by_range(lo, hi) -> dict:
    """Indices per (lo, hi) bounds (radians, arrays of the arcs): joints limited alike
    share one arc shape."""
    out: dict = {}
    for k, key in enumerate(zip(lo.tolist(), hi.tolist())):
        out.setdefault(key, []).append(k)
    return out


class GhostLayer(Layer):
    """The mirror solution (the other bend): faint dashed bones shoulder -> ghost
    elbow -> end, skipped where it coincides with the pose (near straight)."""

    def elements(self, state, dm):
        if not state.chains:
            return _empty()
        sig = np.concatenate([state.shoulder, state.ghost, state.end, state.elbow], axis=1)
        lo, hi = _box([dm(state.shoulder), dm(state.ghost), dm(state.end)], 5.0)
        return sig, lo, hi

    def draw(self, painter, dm, mask):
        s = self.ctx.state
        idx = np.flatnonzero(mask)
        sh, gh, el, en = dm(np.stack([s.shoulder[idx], s.ghost[idx], s.elbow[idx], s.end[idx]]))
        apart = np.sqrt(np.sum((gh - el) ** 2, axis=1)) >= 2.0  # else it coincides with the pose
        if not apart.any():
            return
        # All ghosts at once: one drawLines of dashes, one path of elbow circles. A
        # chain's dashes are kept while its ghost stays put (only a dragged one moves).
        ghost_pen = pen(style.GHOST, alpha=130)
        painter.setBrush(NO_BRUSH)
        painter.setPen(ghost_pen)
        known, kept, lines = getattr(self, "_dashes", {}), {}, []
        for row in np.concatenate([sh, gh, en], axis=1)[apart].tolist():
            key = tuple(row)
            dashes = known.get(key)
            if dashes is None:
                a, b = np.array([row[0:2], row[2:4]]), np.array([row[2:4], row[4:6]])
                dashes = dash_lines(a, b)
            kept[key] = dashes
            lines.extend(dashes)
        self._dashes = kept
        painter.drawLines(lines)
        discs(painter, gh[apart], 3.5, NO_BRUSH, ghost_pen)


DASH_PX, GAP_PX = 3.0, 4.0  # square caps add half a pixel each end: the look of Qt's DashLine


def dash_lines(a, b) -> list:
    """Device segments a -> b ((K, 2) each) cut into DASH_PX dashes GAP_PX apart, as
    QLineFs for one solid one-pixel pen: the look of a DashLine pen, which Qt strokes
    antialiased through its general stroker at several times the cost."""
    d = b - a
    length = np.sqrt(d[:, 0] ** 2 + d[:, 1] ** 2)
    period = DASH_PX + GAP_PX
    count = np.ceil(length / period).astype(int)
    seg = np.repeat(np.arange(len(a)), count)
    start = (np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)) * period
    end = np.minimum(start + DASH_PX, length[seg])
    u = d[seg] / np.maximum(length[seg], 1e-12)[:, None]
    p0 = a[seg] + u * start[:, None]
    p1 = a[seg] + u * end[:, None]
    return [QLineF(x0, y0, x1, y1) for x0, y0, x1, y1 in np.concatenate([p0, p1], axis=1).tolist()]


class SpaceLayer(Layer):
    """Origins of the declared spaces (character and scene objects) as small axes in
    the space's colour, a band to a parent space that is not world (a door and its
    handle read as the door, in the door's colour), and the space's name."""

    PAD = 24.0

    def __init__(self, ctx, z):
        super().__init__(ctx, z)
        self._sprites = Sprites()

    def _rows(self, state):
        o = state.space_origin
        names = list(o)
        origin = np.array([o[n][0] for n in names]).reshape(-1, 2)
        parent = np.array([o[o[n][2]][0] if o[n][2] in o else o[n][0] for n in names]).reshape(-1, 2)
        lin = np.array([o[n][1].ravel() for n in names]).reshape(-1, 4)
        return names, origin, parent, lin

    def elements(self, state, dm):
        if not state.space_origin:
            return _empty()
        _, origin, parent, lin = self._rows(state)
        lo, hi = _box([dm(origin), dm(parent)], self.PAD)
        return np.concatenate([origin, parent, lin], axis=1), lo, hi

    def labels(self):
        if not self.isVisible() or self.ctx.state is None:
            return []
        return [Label(f"space:{name}", origin, [(name, self.ctx.space_color(name))],
                      priority=8, gap=8.0, directions=((1, 1), (-1, 1), (1, -1), (-1, -1)))
                for name, (origin, _, _) in self.ctx.state.space_origin.items()]

    def draw(self, painter, dm, mask):
        # Every origin's device points at once, then plain floats a space: the same
        # shapes as drawn a numpy scalar at a time, at a fifth of the Python cost.
        o = self.ctx.state.space_origin
        names, origin, parent, lin = self._rows(self.ctx.state)
        idx = np.flatnonzero(mask)
        dlin = dm.linear()
        outline = pen(style.BONE_OUTLINE)
        for k, (cx, cy), (px, py) in zip(idx.tolist(), dm(origin[idx]).tolist(), dm(parent[idx]).tolist()):
            name = names[k]
            color = self.ctx.space_color(name)
            up = o[name][2]
            if up in o and math.hypot(cx - px, cy - py) > 1.0:
                # A band that stays put is drawn from its picture (sprites.py): its
                # antialiased fill was most of this layer's paint.
                band = faded(self.ctx.space_color(up), 110)
                box = (min(px, cx) - 3.0, min(py, cy) - 3.0, max(px, cx) + 3.0, max(py, cy) + 3.0)
                self._sprites.draw(painter, ("band", px, py, cx, cy, band.rgba()), box,
                                   lambda p, px=px, py=py, cx=cx, cy=cy, band=band: _band(p, px, py, cx, cy, 5.0, band))
            (a00, a01), (a10, a11) = (dlin @ lin[k].reshape(2, 2)).tolist()
            painter.setPen(pen(color))
            for ax, ay, length in ((a00, a10, 18.0), (a01, a11, 11.0)):
                n = max(math.hypot(ax, ay), 1e-12)
                painter.drawLine(QLineF(cx, cy, cx + ax / n * length, cy + ay / n * length))
            painter.setPen(outline)
            painter.setBrush(color)
            painter.drawRect(int(cx) - 3, int(cy) - 3, 6, 6)


def _band(painter, ax, ay, bx, by, width, color) -> None:
    """``paint.thick_line`` from (ax, ay) to (bx, by) in floats (the same quad)."""
    dx, dy = bx - ax, by - ay
    n = math.hypot(dx, dy)
    if n < 1e-9:
        return
    ox, oy = -dy / n * (width / 2), dx / n * (width / 2)
    painter.setPen(NO_PEN)
    painter.setBrush(color)
    painter.drawPolygon(QPolygonF([QPointF(ax + ox, ay + oy), QPointF(bx + ox, by + oy),
                                   QPointF(bx - ox, by - oy), QPointF(ax - ox, ay - oy)]))
