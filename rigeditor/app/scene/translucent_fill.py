"""A translucent fill of a many-polygon path at the cost of an opaque one.

Qt's raster engine fills a complex path (many overlapping subpaths, winding) in a
translucent colour span by span through its general blender: 49 limit wedges along a
tail cost 0.99 ms that way, the same path in an opaque colour 0.09 ms. Written
(composition mode Source: no blending) into a transparent buffer the size of what it
covers, the path fills as fast, and the buffer drawn over the picture blends each
covered pixel by the same sum Qt's translucent fill uses (colour + what is there times
one minus its alpha): the same pixels, to the bit (the buffer sits on whole device
pixels, so no pixel centre moves). 0.14 ms for those wedges, buffer included.
"""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPixmap
from PySide6.QtWidgets import QWidget

from rigeditor.app.scene.paint import SMOOTH


def fill_translucent(painter: QPainter, path: QPainterPath, color: QColor) -> None:
    """Fill ``path`` (device pixels: the painter maps nothing) with ``color``, without
    antialiasing, as ``QPainter.fillPath`` does. An opaque colour, a painter that maps,
    blends other than normally or is translucent itself, or a fractional device pixel
    ratio fill directly."""
    device = painter.device()
    size = logical_size(device)
    ratio = device.devicePixelRatioF() if size is not None else 1.0
    if size is None or color.alpha() == 255 or not painter.transform().isIdentity() or ratio != int(ratio) or \
            painter.opacity() != 1.0 or \
            painter.compositionMode() != QPainter.CompositionMode.CompositionMode_SourceOver:
        _direct(painter, path, color)
        return
    box = path.boundingRect().intersected(QRectF(0.0, 0.0, *size))  # (a zoomed-in path reaches far off it)
    if painter.hasClipping():
        box = box.intersected(painter.clipBoundingRect())
    if box.isEmpty():
        return
    # Whole pixels around what is covered (a pixel is filled when its centre is inside).
    x0, y0 = math.floor(box.left()) - 1, math.floor(box.top()) - 1
    w, h = math.ceil(box.right()) + 1 - x0, math.ceil(box.bottom()) + 1 - y0
    buffer = QImage(int(w * ratio), int(h * ratio), QImage.Format.Format_ARGB32_Premultiplied)
    buffer.setDevicePixelRatio(ratio)
    buffer.fill(0)
    inner = QPainter(buffer)
    try:
        inner.setRenderHint(SMOOTH, False)
        inner.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
        inner.translate(-x0, -y0)
        inner.fillPath(path, color)
    finally:
        inner.end()
    painter.drawImage(QPointF(x0, y0), buffer)


def logical_size(device) -> tuple[float, float] | None:
    """(width, height) of a paint device in the painter's (logical) pixels, or None for
    a kind of device this does not know: a picture's or pixmap's size is in device
    pixels, a widget's already logical."""
    if isinstance(device, (QImage, QPixmap)):
        ratio = device.devicePixelRatioF()
        return device.width() / ratio, device.height() / ratio
    if isinstance(device, QWidget):
        return float(device.width()), float(device.height())
    return None


def _direct(painter: QPainter, path: QPainterPath, color: QColor) -> None:
    smooth = painter.testRenderHint(SMOOTH)
    painter.setRenderHint(SMOOTH, False)
    painter.fillPath(path, color)
    painter.setRenderHint(SMOOTH, smooth)
