"""A skinned mesh in the scene repaints where it was and where it is: its box is its
deformed vertices' device box, any vertex that moves is damage, and a scrub leaves
nothing stale on screen."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from rigeditor.app.document import Document
from rigeditor.app.scene.layers import PAINT_ERRORS
from rigeditor.app.scene.paint import DeviceMap
from rigeditor.examples.art_files import example_project
from rigeditor.io import load_project
from views import release_all, show_scene

EXAMPLE = example_project("skinned_arm")


@pytest.fixture(autouse=True)
def _release():
    yield
    release_all()


def _view(qtbot, frame):
    doc = Document(load_project(EXAMPLE), EXAMPLE)
    doc.set_frame(frame)
    return doc, show_scene(qtbot, doc)


def test_a_meshs_box_is_its_deformed_device_box(qtbot):
    doc, view = _view(qtbot, 17)
    layer, state = view.layer("art"), view.ctx.state
    dm = DeviceMap(view.viewportTransform())
    (column, vertices), = state.art.meshes.items()
    device = np.array([[dm([p])[0][0], dm([p])[0][1]] for p in vertices.tolist()])  # one point at a time
    _, lo, hi = layer.elements(state, dm)
    np.testing.assert_allclose(lo[column], device.min(axis=0) - 2.0, atol=1e-9)
    np.testing.assert_allclose(hi[column], device.max(axis=0) + 2.0, atol=1e-9)


def test_any_vertex_of_a_mesh_that_moves_is_damage(qtbot):
    doc, view = _view(qtbot, 17)
    layer, state = view.layer("art"), view.ctx.state
    dm = DeviceMap(view.viewportTransform())
    (column, vertices), = state.art.meshes.items()
    for k in (0, len(vertices) // 2, len(vertices) - 1):  # a hull vertex, an interior one, the last
        moved = vertices.copy()
        moved[k] += (0.0, 1e-3)  # inside the box: only the look of the mesh changes
        other = replace(state, art=replace(state.art, meshes={column: moved}))
        boxes = layer.damage(state, other, dm)
        assert len(boxes) == 1, k
        assert boxes[0][0] <= dm(vertices)[:, 0].min() and boxes[0][2] >= dm(vertices)[:, 0].max()


def _pixels(image):
    image = image.convertToFormat(QImage.Format_RGB32)
    w, h = image.width(), image.height()
    raw = np.frombuffer(image.constBits(), np.uint8).reshape(h, image.bytesPerLine())
    return raw[:, : w * 4].reshape(h, w, 4).astype(int)


def test_scrubbing_a_skinned_mesh_leaves_nothing_stale(qtbot):
    doc, view = _view(qtbot, 0)
    for frame in (3, 9, 17, 24, 30, 41):
        doc.set_frame(frame)
        QApplication.processEvents()
    on_screen = _pixels(QApplication.primaryScreen().grabWindow(view.winId()).toImage())
    fresh = _pixels(view.grab().toImage())
    assert on_screen.shape == fresh.shape
    assert int(np.count_nonzero(np.abs(on_screen - fresh).max(axis=2) > 40)) == 0
    assert PAINT_ERRORS == []
