"""Rigid parts of a textured mesh, drawn as one polygon fill each.

A triangle whose corners all follow one bone with weight 1 (or a mesh without weights,
or the whole mesh in the rest pose) moves rigidly: its texture affine, image pixels ->
device pixels, is the same as its neighbours'. Such triangles are grouped by that
affine and each group is filled once with the picture as a texture brush through it, so
Qt is called a handful of times a group instead of five times a triangle.

Qt's scanline fill costs about the number of edges crossing a scanline, so a group is
not filled as its triangles (tens of thousands of edges, slower than drawing them one
by one): its outline is. The outline is the group's directed triangle edges with each
interior edge cancelled against its opposite, chained into closed loops; the loops
become one polygon joined by bridges walked out and back (they cancel under the
winding rule). The union is filled exactly where the triangles are, with no seams
inside it; the loops are stroked with the same hairline texture pen as the per-triangle
path, so the edges land where they did within a pixel.

One fill of a group samples the picture exactly as its triangles do only because the
texture is shifted far away by whole tiles (a texture brush repeats, so the picture is
unchanged): Qt's raster steps a small transform's texture position along a span in
16.16 fixed point, which makes a pixel's sample depend on where its span starts (one
8-bit level off on a few percent of the pixels between a group and its triangles); past
10,000 px of translation it computes each pixel's position in floating point instead, at
the same cost (measured: a 900 x 650 fill 11.1 against 11.2 ms).
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QPainter, QPen, QPolygonF, QTransform
from shiboken6 import VoidPtr

MIN_GROUP = 16
"""Fewest triangles worth a polygon fill (below that the per-triangle path is as quick;
benchmarks set it huge to time the per-triangle path alone)."""
LINEAR_STEP = 1e-9
"""Affines whose linear parts round to the same multiple of this (device px per image
px) and translations to the same multiple of TRANSLATION_STEP (device px) share a fill:
over a 4,096 px picture that is a few millionths of a pixel, below Qt's 16.16 fixed point."""
TRANSLATION_STEP = 1e-6


FAR_TILES = float(2**24)
"""How far (image px, at least) the texture is shifted: far past Qt's 10,000 px
fixed-point limit whatever the view's own translation, with double precision to spare
(3.7e-9 px at 2^24)."""


def far_shift(width: int, height: int) -> np.ndarray:
    """(2,) image px: whole tiles of a width x height picture, at least FAR_TILES each way."""
    return np.array([np.ceil(FAR_TILES / max(width, 1)) * width, np.ceil(FAR_TILES / max(height, 1)) * height])


def shifted_far(affines, width: int, height: int):
    """``affines`` (T, 3, 2) whose texture is moved by a whole number of tiles of a
    width x height picture, at least FAR_TILES away: the same picture under a repeating
    texture brush, sampled in Qt's per-pixel floating point."""
    off = far_shift(width, height)
    out = np.array(affines, float)
    # device = [q - off, 1] @ M for a texture point q: the translation row absorbs -off.
    out[:, 2] -= off[0] * out[:, 0] + off[1] * out[:, 1]
    return out


def rigid_groups(affines, ok, min_size: int | None = None):
    """Triangles that share one affine: list of (row index of the affine, triangle
    indices (k,)) for groups of at least ``min_size``, and a mask (T,) of the triangles
    left to draw one by one. affines (T, 3, 2) as ``art_paint.triangle_affines``; ok (T,)
    the triangles with a finite affine."""
    min_size = MIN_GROUP if min_size is None else min_size
    rows = np.flatnonzero(ok)
    rest = np.asarray(ok, bool).copy()
    if len(rows) < min_size:
        return [], rest
    steps = np.array([LINEAR_STEP] * 4 + [TRANSLATION_STEP] * 2)
    key = np.round(affines.reshape(len(affines), 6)[rows] / steps).astype(np.int64)
    order = np.lexsort(key.T[::-1])
    key = key[order]
    cut = np.flatnonzero(np.any(key[1:] != key[:-1], axis=1)) + 1
    starts, ends = np.r_[0, cut], np.r_[cut, len(rows)]
    groups = []
    for a, b in zip(starts[ends - starts >= min_size].tolist(), ends[ends - starts >= min_size].tolist()):
        members = np.sort(rows[order[a:b]])
        groups.append((members[0], members))
        rest[members] = False
    return groups, rest


def outline_loops(triangles, points):
    """Closed loops (list of (n,) vertex indices, each without its closing vertex) around
    the union of ``triangles`` (k, 3) indices into ``points`` (V, 2): every triangle
    turned counter-clockwise, each interior edge (a->b against b->a) cancelled, the rest
    chained end to start. A group moves rigidly, so its loops hold in every frame: they
    are kept per group (its triangles as turned, so the key holds whatever the points)
    in ``_LOOPS``."""
    t = np.asarray(triangles, np.int64)
    c = points[t]
    cross = ((c[:, 1, 0] - c[:, 0, 0]) * (c[:, 2, 1] - c[:, 0, 1])
             - (c[:, 1, 1] - c[:, 0, 1]) * (c[:, 2, 0] - c[:, 0, 0]))
    t = np.where((cross < 0)[:, None], t[:, [0, 2, 1]], t)
    key = (hash(t.tobytes()), len(points))
    loops = _LOOPS.get(key)
    if loops is None:
        if len(_LOOPS) >= 256:
            _LOOPS.clear()
        loops = _LOOPS[key] = _loops(t, len(points))
    return loops


_LOOPS: dict = {}


def _loops(t, n_points):
    """outline_loops of triangles ``t`` (k, 3) already turned counter-clockwise."""
    a, b = t.ravel(), t[:, [1, 2, 0]].ravel()
    n = np.int64(n_points)
    pair, inv = np.unique(np.minimum(a, b) * n + np.maximum(a, b), return_inverse=True)
    net = np.zeros(len(pair), np.int64)
    np.add.at(net, inv.ravel(), np.where(a < b, 1, -1))
    outgoing: dict = {}
    for key, mult in zip(pair[net != 0].tolist(), net[net != 0].tolist()):
        lo, hi = divmod(key, int(n))
        u, v = (lo, hi) if mult > 0 else (hi, lo)
        outgoing.setdefault(u, []).extend([v] * abs(mult))
    loops = []
    for u0 in list(outgoing):
        while outgoing[u0]:
            loop, u = [u0], outgoing[u0].pop()
            while u != u0:
                loop.append(u)
                u = outgoing[u].pop()
            loops.append(np.array(loop))
    return loops


def _polygon(points) -> QPolygonF:
    """A QPolygonF of (n, 2) points, written in place (no QPointF a point)."""
    poly = QPolygonF()
    poly.resize(len(points))
    if len(points):
        np.frombuffer(VoidPtr(poly.data(), len(points) * 16, True), dtype=np.float64).reshape(-1, 2)[:] = points
    return poly


def joined(loops):
    """One point sequence through all ``loops``: each loop closed on its first point,
    then a bridge to the next loop's first point; the bridges are walked back at the end,
    so each is crossed once each way and adds nothing under the winding rule."""
    parts = [np.concatenate([lp, lp[:1]]) for lp in loops]
    back = np.array([lp[0] for lp in loops[-2::-1]]).reshape(-1, 2)
    return np.concatenate(parts + [back])


def draw_groups(painter: QPainter, image, groups, affines, triangles, device, seams: bool) -> None:
    """Fill each rigid group (``rigid_groups``) of ``triangles`` (T, 3) over the device
    points (V, 2) with ``image`` through its affine; ``seams``: stroke its outline with
    the hairline."""
    brush = QBrush(image)
    pen = QPen(brush, 1.0)
    for row, members in groups:
        loops = [device[lp] for lp in outline_loops(triangles[members], device)]
        if not loops:
            continue
        (m11, m12), (m21, m22), (dx, dy) = affines[row].tolist()
        brush.setTransform(QTransform(m11, m12, m21, m22, dx, dy))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(brush)
        painter.drawPolygon(_polygon(joined(loops)), Qt.FillRule.WindingFill)
        if seams:
            pen.setBrush(brush)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            for lp in loops:
                painter.drawPolygon(_polygon(lp))
    painter.setPen(Qt.PenStyle.NoPen)
