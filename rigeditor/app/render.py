"""Draw one frame of a Bake to an image, without a window (QPainter on a QImage).

Drawn from Bake data only: bones as tapered shapes from joint to tip, joints as
dots, each chain's reach as two rings around its shoulder (inner and outer reach,
scaled by the shoulder space), its target as a ring with a cross, and the residual
as a red line from the end to the target when it is visible. Model space is y-up;
the image is y-down, so y flips here. The view fits every joint, tip and target of
the whole bake, so the frames of one shot share a framing. Used by
``rigeditor render``; needs a QApplication (``offscreen_app`` makes one).
"""
from __future__ import annotations

import os

import numpy as np
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPainterPath, QPen

BACKGROUND = QColor("#1f2124")
BONE = QColor("#d8dde6")
JOINT = QColor("#8fb4ff")
TARGET = QColor("#ffb347")
REACH = QColor(120, 160, 255, 110)
RESIDUAL = QColor("#ff5c5c")
MARGIN = 40


def offscreen_app():
    """The running QApplication, or a new one on the offscreen platform if none runs."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication(["rigeditor"])


def render_image(bake, index: int, size=(800, 600), art=None) -> QImage:
    """Frame ``index`` (a row of the bake) drawn into a new ``size`` (w, h) image.
    art: (project, folder of the project file) to draw the pictures under the bones."""
    offscreen_app()
    w, h = size
    image = QImage(w, h, QImage.Format.Format_ARGB32)
    image.fill(BACKGROUND)
    to_px = _fit(bake, index, w, h)
    p = QPainter(image)
    try:  # a painter left active on a dying image crashes Qt
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        if art is not None and bake.art is not None:
            from rigeditor.app.art_paint import ImageCache, draw_art

            def to_device(pts):
                return np.array([[q.x(), q.y()] for q in map(to_px, np.asarray(pts).reshape(-1, 2))])

            draw_art(p, art[0], bake.art.row(index), to_device, art[1], ImageCache())
        for cb in bake.chains.values():
            _reach(p, cb, index, to_px)
        for k in range(len(bake.bones)):
            _bone(p, to_px(bake.joint_world[index, k]), to_px(bake.tip_world[index, k]))
        for cb in bake.chains.values():
            _target(p, cb, index, to_px)
        p.setPen(QPen(BONE))
        p.setFont(QFont("Sans", 10))
        p.drawText(QPointF(10, h - 10), f"frame {bake.frames[index]:g}")
    finally:
        p.end()
    return image


def render_png(bake, index: int, size=(800, 600), art=None) -> bytes:
    """:func:`render_image` as PNG file bytes."""
    return png_bytes(render_image(bake, index, size, art))


def png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise OSError("the PNG encoder failed")
    buffer.close()
    return bytes(data)


def _fit(bake, index, w, h):
    """Model (x, y) -> image QPointF, fitting the whole bake with a margin, y flipped."""
    points = [bake.joint_world.reshape(-1, 2), bake.tip_world.reshape(-1, 2)]
    points += [cb.target_world for cb in bake.chains.values()]
    if bake.art is not None:
        shown = bake.art.attachment >= 0
        points.append(bake.art.corners[shown].reshape(-1, 2))
    pts = np.concatenate(points)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    span = np.maximum(hi - lo, 1e-9)
    scale = min((w - 2 * MARGIN) / span[0], (h - 2 * MARGIN) / span[1])
    centre = (lo + hi) / 2.0

    def to_px(xy):
        return QPointF(w / 2 + (xy[0] - centre[0]) * scale, h / 2 - (xy[1] - centre[1]) * scale)

    to_px.scale = scale
    return to_px


def _bone(p: QPainter, a: QPointF, b: QPointF) -> None:
    d = b - a
    length = (d.x() ** 2 + d.y() ** 2) ** 0.5
    if length < 1e-6:
        return
    n = QPointF(-d.y() / length, d.x() / length) * min(8.0, 0.12 * length)
    path = QPainterPath(a)
    path.lineTo(a + d * 0.2 + n)
    path.lineTo(b)
    path.lineTo(a + d * 0.2 - n)
    path.closeSubpath()
    p.setPen(QPen(BONE.darker(160), 1.0))
    p.setBrush(QBrush(BONE))
    p.drawPath(path)
    p.setBrush(QBrush(JOINT))
    p.drawEllipse(a, 4.0, 4.0)


def _reach(p: QPainter, cb, i, to_px) -> None:
    # Rings are drawn in the shoulder space's scale: reach is measured there.
    t = cb.shoulder_to_world
    scale = abs(np.asarray(t.a * t.d - t.b * t.c, dtype=float).reshape(-1)[
        min(i, np.size(t.a) - 1)]) ** 0.5
    centre = to_px(cb.shoulder_world[i])
    pen = QPen(REACH, 1.5, Qt.PenStyle.DashLine)
    p.setPen(pen)
    p.setBrush(Qt.BrushStyle.NoBrush)
    for r in cb.reach:
        if r > 0:
            radius = r * scale * to_px.scale
            p.drawEllipse(centre, radius, radius)


def _target(p: QPainter, cb, i, to_px) -> None:
    target, end = to_px(cb.target_world[i]), to_px(cb.end_world[i])
    if cb.residual[i] * to_px.scale > 1.0:  # visible: at least a pixel
        p.setPen(QPen(RESIDUAL, 2.0))
        p.drawLine(end, target)
    p.setPen(QPen(TARGET, 2.0))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawEllipse(target, 7.0, 7.0)
    p.drawLine(target - QPointF(10, 0), target + QPointF(10, 0))
    p.drawLine(target - QPointF(0, 10), target + QPointF(0, 10))
