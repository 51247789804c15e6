"""Painter paths of many polygons written at once from arrays.

A QPainterPath built a point at a time costs a Python call a point (moveTo, lineTo),
or about 5 us a polygon through ``addPolygon`` of a QPolygonF filled from numpy. Qt
reads a path from a stream of its elements (``QDataStream >> QPainterPath``: their
count, each one's type and coordinates, then the current subpath's start and the fill
rule, big-endian); numpy writes that stream for every polygon in one go, and the path
read back holds the same elements as one built a point at a time (``==`` holds), so
it draws the same pixels. Below MIN_POINTS the stream's fixed cost is more than the
calls it saves; a polygon repeating a point (which lineTo would drop) goes point by
point too.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QByteArray, QDataStream, QIODevice, Qt
from PySide6.QtGui import QPainterPath

MIN_POINTS = 24
"""Fewest points written as a stream; fewer go point by point (measured: the stream
costs about 12 us however small, a point by point about 0.5 us a point)."""

_ELEMENT = np.dtype([("type", ">i4"), ("x", ">f8"), ("y", ">f8")])
_MOVE, _LINE = 0, 1  # QPainterPath.ElementType
_RULES = {Qt.FillRule.OddEvenFill: 0, Qt.FillRule.WindingFill: 1}


def polygons_path(groups, fill_rule=Qt.FillRule.WindingFill) -> QPainterPath:
    """One path of every polygon of ``groups``: (shapes (G, P, 2) device points, closed)
    pairs, each polygon its own subpath, in order; a closed one ends as
    ``closeSubpath`` ends it (a line back to its first point), an open one is a
    polyline."""
    groups = [(np.asarray(s, float), c) for s, c in groups if len(s) and np.shape(s)[1]]
    path = QPainterPath()
    path.setFillRule(fill_rule)
    if sum(s.shape[0] * s.shape[1] for s, _ in groups) < MIN_POINTS or any(_repeats(s, c) for s, c in groups):
        for shapes, closed in groups:
            for shape in shapes.tolist():
                path.moveTo(*shape[0])
                for x, y in shape[1:]:
                    path.lineTo(x, y)
                if closed:
                    path.closeSubpath()
        return path
    parts, count, last_move = [], 0, 0
    for shapes, closed in groups:
        g, p = shapes.shape[:2]
        n = p + 1 if closed else p
        el = np.empty((g, n), _ELEMENT)
        el["type"] = _LINE
        el["type"][:, 0] = _MOVE
        el["x"][:, :p], el["y"][:, :p] = shapes[..., 0], shapes[..., 1]
        if closed:
            el["x"][:, p], el["y"][:, p] = shapes[:, 0, 0], shapes[:, 0, 1]
        parts.append(el.tobytes())
        last_move = count + (g - 1) * n
        count += g * n
    # The current subpath starts at the last moveTo (an element index), as Qt keeps it.
    tail = np.array([last_move, _RULES[fill_rule]], ">i4")
    data = QByteArray(np.array([count], ">i4").tobytes() + b"".join(parts) + tail.tobytes())
    QDataStream(data, QIODevice.OpenModeFlag.ReadOnly) >> path
    return path


def _repeats(shapes: np.ndarray, closed: bool) -> bool:
    """Whether a polygon repeats a point right after itself (or, closed, ends on its
    first point), is a lone point or is not finite: Qt drops or folds such elements,
    which the stream would keep."""
    if shapes.shape[1] < 2 or not np.isfinite(shapes).all():  # (lone points fold; Qt skips NaN, inf)
        return True
    same = (np.diff(shapes, axis=1) == 0).all(axis=2).any()
    return bool(same or (closed and (shapes[:, -1] == shapes[:, 0]).all(axis=1).any()))
