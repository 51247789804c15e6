"""Drawing boxes, clipping polygons and points, and clipping pictures, with QPainter
(the scene's art layer and ``rigeditor render``, through ``art_paint.draw_art``).

A box is a thin outline in its colour, a clipping polygon a dashed one, a point a
small cross with a tick along its direction. A picture a clipping polygon masks is
drawn with the polygon (device pixels) as the painter's clip path: the visible part
is the picture inside the polygon, what spine-core's clipped triangles cover.
"""
from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF

from rigeditor.model.data.shapes import BOX, POINT

CROSS = 5.0
"""Device pixels: half the arms of a point's cross."""
TICK = 16.0
"""Device pixels: the length of a point's direction tick."""


def _polygon(device) -> QPolygonF:
    return QPolygonF([QPointF(float(x), float(y)) for x, y in device])


def _colour(a, dim: bool) -> QColor:
    r, g, b, alpha = (min(max(float(v), 0.0), 1.0) for v in a.tint)
    return QColor.fromRgbF(r, g, b, max(alpha, 0.25) * (0.5 if dim else 1.0))


def draw_shape(painter: QPainter, a, pose, index: int, to_device, dim: bool = False) -> None:
    """Draw shape attachment ``a`` placed by ``pose`` (a ``ShapePose``) at row ``index``."""
    device = np.asarray(to_device(pose.vertices(index)), float)
    if not np.all(np.isfinite(device)):
        return
    painter.save()
    try:
        painter.resetTransform()
        painter.setOpacity(1.0)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        colour = _colour(a, dim)
        if a.kind == POINT:
            r = pose.rotation(index)
            o = device[0]
            # The direction in device pixels: the world direction through the view's map.
            tip = np.asarray(to_device(pose.vertices(index) + [[math.cos(r), math.sin(r)]]), float)[0] - o
            norm = float(np.hypot(*tip))
            d = tip / norm if norm > 1e-12 else np.array([1.0, 0.0])
            painter.setPen(QPen(colour, 1.5))
            c = QPointF(*o)
            painter.drawLine(c - QPointF(CROSS, CROSS), c + QPointF(CROSS, CROSS))
            painter.drawLine(c - QPointF(CROSS, -CROSS), c + QPointF(CROSS, -CROSS))
            painter.drawLine(c, c + QPointF(*(d * TICK)))
            return
        pen = QPen(colour, 1.5 if a.kind == BOX else 1.25,
                   Qt.PenStyle.SolidLine if a.kind == BOX else Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        painter.setPen(pen)
        painter.drawPolygon(_polygon(device))
    finally:
        painter.restore()


def clip_to(painter: QPainter, world_polygon, to_device) -> None:
    """Clip what the painter draws next to ``world_polygon`` ((V, 2) world points),
    within any clip it already has (the caller saves and restores the painter)."""
    device = np.asarray(to_device(world_polygon), float)
    path = QPainterPath()
    if np.all(np.isfinite(device)):
        path.addPolygon(_polygon(device))
        path.closeSubpath()
    path.setFillRule(Qt.FillRule.WindingFill)
    saved = painter.transform()
    painter.resetTransform()  # the path is in device pixels
    painter.setClipPath(path, Qt.ClipOperation.IntersectClip if painter.hasClipping() else Qt.ClipOperation.ReplaceClip)
    painter.setTransform(saved)
