"""Draw one frame of a Bake to an image, without a window (QPainter on a QImage).

Drawn from Bake data: bones as tapered shapes from joint to tip, joints as dots,
each chain's reach as two rings around its shoulder (inner and outer reach, scaled by
the shoulder space), its target as a ring with a cross, and the residual as a red
line from the end to the target when it is visible. Given the project, the declared
spaces (the character, scene objects such as a door and its handle) are drawn as in
the editor: small axes at each origin in the space's colour, a band to a parent
space that is not world, and the space's name. Model space is y-up; the image is
y-down, so y flips here. The view fits every joint, tip, target and space origin of
the whole bake, so the frames of one shot share a framing. Used by
``rigeditor render``; needs a QApplication (``offscreen_app`` makes one).
"""
from __future__ import annotations

import os

import numpy as np
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPainterPath, QPen

from rigeditor.app import style

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


def render_image(bake, index: int, size=(800, 600), project=None, images=None) -> QImage:
    """Frame ``index`` (a row of the bake) drawn into a new ``size`` (w, h) image; with
    ``project`` (the bake's), its spaces too, and with ``images`` (the folder its
    picture paths are relative to) its pictures under the bones."""
    offscreen_app()
    w, h = size
    # (Straight alpha: its meshes are drawn by Qt's path, app.mesh_raster.SAME_PIPELINE.)
    image = QImage(w, h, QImage.Format.Format_ARGB32)
    image.fill(BACKGROUND)
    spaces = _space_origins(project, bake) if project is not None else []
    to_px = _fit(bake, index, w, h, [o for _, o, _ in spaces])
    p = QPainter(image)
    try:  # a painter left active on a dying image crashes Qt
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        if project is not None and images is not None and bake.art is not None:
            from rigeditor.app.art_paint import ImageCache, draw_art

            def to_device(pts):
                return np.array([[q.x(), q.y()] for q in map(to_px, np.asarray(pts).reshape(-1, 2))])

            draw_art(p, project, bake.art.row(index), to_device, images, ImageCache())
        if spaces:
            _spaces(p, project, spaces, index, to_px)
        for cb in bake.chains.values():
            _reach(p, cb, index, to_px)
        for k in range(len(bake.bones)):
            _bone(p, to_px(bake.joint_world[index, k]), to_px(bake.tip_world[index, k]))
        for cb in bake.chains.values():
            _target(p, cb, index, to_px)
        if spaces:
            _space_names(p, project, spaces, index, to_px)  # on top, as the editor's labels
        p.setPen(QPen(BONE))
        p.setFont(QFont("Sans", 10))
        p.drawText(QPointF(10, h - 10), f"frame {bake.frames[index]:g}")
    finally:
        p.end()
    return image


def render_png(bake, index: int, size=(800, 600), project=None, images=None) -> bytes:
    """:func:`render_image` as PNG file bytes."""
    return png_bytes(render_image(bake, index, size, project, images))


def png_bytes(image: QImage) -> bytes:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise OSError("the PNG encoder failed")
    buffer.close()
    return bytes(data)


def _fit(bake, index, w, h, extra=()):
    """Model (x, y) -> image QPointF, fitting the whole bake (and ``extra`` (N, 2)
    point arrays) with a margin, y flipped."""
    points = [bake.joint_world.reshape(-1, 2), bake.tip_world.reshape(-1, 2)]
    points += [cb.target_world for cb in bake.chains.values()] + list(extra)
    if bake.art is not None:
        shown = bake.art.attachment >= 0
        points.append(bake.art.corners[shown].reshape(-1, 2))
        # Boxes, clipping polygons and points: where they stand first and last.
        points += [m.vertices(int(i)) for m in bake.art.shapes for i in np.flatnonzero(m.shown)[[0, -1]]]
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


def _space_origins(project, bake):
    """[(name, origin (N, 2), world transform)] of the project's spaces the bake holds,
    parents first (the project's order)."""
    out = []
    for space in project.spaces:
        aff = bake.spaces.get(space.name)
        if aff is not None:
            origin = np.broadcast_to(np.stack([aff.tx, aff.ty], axis=-1), (len(bake), 2))
            out.append((space.name, origin, aff))
    return out


def _spaces(p: QPainter, project, spaces, i, to_px) -> None:
    """The editor's space marks (rigeditor.app.scene.overlays.SpaceLayer) at row ``i``,
    under the bones."""
    origin = {name: to_px(o[i]) for name, o, _ in spaces}
    parents = {s.name: s.parent for s in project.spaces}
    for name, _, aff in spaces:
        c, parent = origin[name], parents.get(name)
        if parent in origin and (c - origin[parent]).manhattanLength() > 1.0:
            band = QColor(style.space_color(project, parent))
            band.setAlpha(110)
            p.setPen(QPen(band, 5.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            p.drawLine(origin[parent], c)
    for name, _, aff in spaces:
        c, color = origin[name], style.space_color(project, name)
        a, b, cc, d = (float(np.reshape(v, -1)[min(i, np.size(v) - 1)]) for v in (aff.a, aff.b, aff.c, aff.d))
        p.setPen(QPen(color, 1.5))
        for (dx, dy), length in (((a, -cc), 18.0), ((b, -d), 11.0)):  # x and y axes, y flipped
            norm = max((dx * dx + dy * dy) ** 0.5, 1e-12)
            p.drawLine(c, c + QPointF(dx, dy) * (length / norm))
        p.setPen(QPen(style.BONE_OUTLINE, 1.0))
        p.setBrush(QBrush(color))
        p.drawRect(int(c.x()) - 3, int(c.y()) - 3, 6, 6)


def _space_names(p: QPainter, project, spaces, i, to_px) -> None:
    p.setFont(QFont("Sans", 9))
    for name, origin, _ in spaces:
        p.setPen(QPen(style.space_color(project, name)))
        p.drawText(to_px(origin[i]) + QPointF(8.0, -8.0), name)
