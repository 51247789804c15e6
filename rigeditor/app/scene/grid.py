"""The scene's background grid, painted in device pixels so lines stay crisp."""
from __future__ import annotations

import math

import numpy as np
from PySide6.QtCore import QLineF, QRectF
from PySide6.QtGui import QPainter

from rigeditor.app import style
from rigeditor.app.scene.paint import DeviceMap

MINOR_PX = 12.0  # minor lines at least this far apart on screen


def nice_step(at_least: float) -> float:
    """The smallest 1, 2 or 5 x 10^k not below ``at_least`` (> 0)."""
    at_least = max(at_least, 1e-12)
    k = math.floor(math.log10(at_least))
    for m in (1, 2, 5, 10):
        if m * 10 ** k >= at_least * (1 - 1e-9):
            return m * 10 ** k
    return 10 ** (k + 1)


def grid_steps(px_per_unit: float) -> tuple[float, float]:
    """(minor, major) spacing in model units: minors at least MINOR_PX apart, a
    major every 5 minors (every 2 when the minor step is a 5)."""
    minor = nice_step(MINOR_PX / px_per_unit)
    mantissa = round(minor / 10 ** math.floor(math.log10(minor)))
    return minor, minor * (2 if mantissa == 5 else 5)


def draw_grid(painter: QPainter, rect: QRectF, px_per_unit: float) -> None:
    """Grid lines over ``rect`` (scene coordinates; the painter maps scene to device,
    with no rotation): minor lines, majors, and the x = 0 and y = 0 axes brighter."""
    dm = DeviceMap(painter.worldTransform())
    dev = painter.worldTransform().mapRect(rect)
    minor, major = grid_steps(px_per_unit)
    painter.resetTransform()
    painter.setRenderHint(QPainter.Antialiasing, False)
    xs = np.arange(math.ceil(rect.left() / minor), math.floor(rect.right() / minor) + 1) * minor
    ys = np.arange(math.ceil(rect.top() / minor), math.floor(rect.bottom() / minor) + 1) * minor
    px, py = np.round(xs * dm.m11 + dm.dx), np.round(ys * dm.m22 + dm.dy)

    def kinds(v):
        axis = np.abs(v) < minor * 1e-6
        q = v / major
        major_ = (np.abs(q - np.round(q)) < 1e-6) & ~axis
        return ~major_ & ~axis, major_, axis

    kx, ky = kinds(xs), kinds(ys)
    for color, mx, my in zip((style.GRID_MINOR, style.GRID_MAJOR, style.GRID_AXIS), kx, ky):
        lines = [QLineF(x, dev.top(), x, dev.bottom()) for x in px[mx]]
        lines += [QLineF(dev.left(), y, dev.right(), y) for y in py[my]]
        if lines:
            painter.setPen(color)
            painter.drawLines(lines)
