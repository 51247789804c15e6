"""Showing a scene view in the tests (pytest-qt, offscreen)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image
from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage

from rigeditor.app.scene import SceneView

ALIVE = []
"""Documents and views of the running tests: kept alive until the session ends."""


def show_scene(qtbot, doc) -> SceneView:
    """A SceneView of ``doc``, 900 x 650, shown and exposed."""
    view = SceneView(doc)
    ALIVE.append((doc, view))
    qtbot.addWidget(view)
    view.resize(900, 650)
    view.show()
    qtbot.waitExposed(view)
    return view


def release_all() -> None:
    """Close the views shown so far and drop their documents' history while both are
    still alive (a view owned by Python, collected mid-paint, takes its C++ side along;
    an undo stack destroyed while not clean signals into its half-destroyed Document)."""
    while ALIVE:
        doc, view = ALIVE.pop()
        view.close()
        doc.undo_stack.cleanChanged.disconnect()
        doc.undo_stack.clear()


def grab_rgba(view) -> np.ndarray:
    """The view's viewport as (h, w, 4) uint8 RGBA."""
    img = view.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGBA8888)
    ptr = img.constBits()
    return np.frombuffer(ptr, dtype=np.uint8).reshape(img.height(), img.bytesPerLine())[:, :img.width() * 4] \
        .reshape(img.height(), img.width(), 4).copy()


def screen_point(view, world_xy) -> tuple[int, int]:
    """The viewport pixel (x, y) of a world point."""
    p = view.viewportTransform().map(QPointF(float(world_xy[0]), float(world_xy[1])))
    ratio = view.viewport().devicePixelRatioF()
    return int(round(p.x() * ratio)), int(round(p.y() * ratio))


def picture_point(doc, slot, u, v, folder):
    """World point of picture pixel (u, v) (from the top-left) of ``slot`` at the
    document's frame, and that pixel's colour in the PNG (read from ``folder``)."""
    project, bake = doc.project, doc.bake
    row = bake.index(doc.frame)
    s = bake.art.column(slot)
    a = project.art.slots[s].attachments[int(bake.art.attachment[row, s])]
    w = [float(np.asarray(f)[row, s]) for f in bake.art.image_world.fields()]
    x, y = u - a.width / 2, a.height / 2 - v
    world = (w[0] * x + w[1] * y + w[4], w[2] * x + w[3] * y + w[5])
    png = np.asarray(Image.open(Path(folder) / a.path).convert("RGBA"))
    return world, png[int(v), int(u)]
