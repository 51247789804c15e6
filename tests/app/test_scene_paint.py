"""How the scene paints (pytest-qt, offscreen): one item draws every layer, a layer
that fails is reported without taking the others along, outlined shapes filled
without antialiasing look like antialiased ones, and a drag shows no hover left
over from before the press."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath
from PySide6.QtTest import QTest

from rigeditor.app import style
from rigeditor.app.document import Document
from rigeditor.app.scene.layers import PAINT_ERRORS, bone_outline
from rigeditor.app.scene.stack import LayerStack
from rigeditor.app.scene.paint import fill_path, pen, polygon, polygons
from rigeditor.examples.rigs import EXAMPLES
from views import grab_rgba, release_all, screen_point, show_scene


@pytest.fixture(autouse=True)
def _release():
    del PAINT_ERRORS[:]
    yield
    release_all()
    del PAINT_ERRORS[:]


def make_view(qtbot, example, frame=0):
    doc = Document(EXAMPLES[example]())
    doc.set_frame(frame)
    return doc, show_scene(qtbot, doc)


def test_one_scene_item_paints_every_layer(qtbot):
    _, view = make_view(qtbot, "walk", frame=12)
    stacks = [item for item in view.scene().items() if isinstance(item, LayerStack)]
    assert len(stacks) == 1
    assert {id(layer) for layer in stacks[0].layers} == {id(view.layer(n)) for n in view._layers}
    z = [layer.zValue() for layer in stacks[0].layers]
    assert z == sorted(z)


def test_a_failing_layer_is_reported_and_the_others_paint_as_if_it_were_off(qtbot):
    _, view = make_view(qtbot, "walk", frame=12)
    jitter = view.layer("jitter")

    def broken(painter, dm, mask):
        painter.setBrush(QColor("#00ff00"))  # state a layer leaves behind must not leak
        raise RuntimeError("jitter broke")

    jitter.draw = broken
    failed = grab_rgba(view)
    assert len(PAINT_ERRORS) == 1 and "JitterLayer" in PAINT_ERRORS[0] and "jitter broke" in PAINT_ERRORS[0]
    del jitter.draw
    view.set_overlay("jitter", False)
    np.testing.assert_array_equal(failed, grab_rgba(view))
    view.set_overlay("jitter", True)
    assert np.count_nonzero(np.abs(grab_rgba(view).astype(int) - failed).max(axis=2) > 40) > 50  # the dots


def _paint(shapes, fast: bool) -> np.ndarray:
    image = QImage(200, 200, QImage.Format_RGB32)
    image.fill(style.BACKGROUND)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.Antialiasing, True)
    if fast:
        polygons(painter, shapes, style.BONE_IK, pen(style.BONE_OUTLINE))
    else:  # fill and outline both antialiased, in one call
        painter.setPen(pen(style.BONE_OUTLINE))
        painter.setBrush(style.BONE_IK)
        for shape in shapes:
            painter.drawPolygon(polygon(shape))
    painter.end()
    image = image.convertToFormat(QImage.Format_RGBA8888)
    raw = np.frombuffer(image.constBits(), np.uint8).reshape(200, image.bytesPerLine())[:, :800]
    return raw.reshape(200, 200, 4)[:, :, :3].astype(int)


@pytest.mark.parametrize("angle", [0.0, 0.3, 1.1, 2.0, 2.9])
def test_an_outlined_fill_without_antialiasing_looks_antialiased(angle):
    # The outline covers the fill's edge: edge pixels differ by a faint shade at
    # most (drawing everything aliased differs by up to 193 on ~140 pixels here).
    d0 = np.array([[100.0 - 70 * np.cos(angle), 100.0 - 70 * np.sin(angle)], [30.3, 170.6]])
    d1 = np.array([[100.0 + 70 * np.cos(angle), 100.0 + 70 * np.sin(angle)], [60.8, 150.1]])
    shapes, _ = bone_outline(d0, d1)
    fast, smooth = _paint(shapes, True), _paint(shapes, False)
    diff = np.abs(fast - smooth).max(axis=2)
    inside = np.count_nonzero(np.abs(smooth - np.array([0xf2, 0xc1, 0x4e])).max(axis=2) < 8)
    assert inside > 1000  # the bodies were drawn
    assert diff.max() <= 40


def test_fill_path_leaves_the_painters_antialiasing_as_it_found_it():
    image = QImage(20, 20, QImage.Format_RGB32)
    painter = QPainter(image)
    path = QPainterPath()
    path.addEllipse(2.0, 2.0, 10.0, 10.0)
    for smooth in (True, False):
        painter.setRenderHint(QPainter.Antialiasing, smooth)
        fill_path(painter, path, style.TEXT, pen(style.BONE_OUTLINE))
        assert painter.testRenderHint(QPainter.Antialiasing) is smooth
    painter.end()


def test_a_press_on_a_target_drops_the_hover_left_from_before(qtbot):
    # A bone lit by the pointer earlier must not stay lit through a drag that began
    # on a target without a move in between (a pen tablet, a synthetic press).
    doc, view = make_view(qtbot, "arm", frame=0)
    s = view.ctx.state
    col = view.ctx.structure.bones.index("upper_arm")
    joint, tip = s.joints[col], s.tips[col]
    vp = view.viewport()
    QTest.mouseMove(vp, QPoint(*screen_point(view, joint + 0.5 * (tip - joint))))
    assert view.ctx.hover == ("bone", "upper_arm")
    halo = grab_rgba(view)
    handle = s.handle[s.targets.index("hand")]
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, QPoint(*screen_point(view, handle)))
    assert view.ctx.hover == ("target", "hand")
    QTest.mouseMove(vp, QPoint(*screen_point(view, handle)) + QPoint(2, 1))
    # Where the halo showed beside the bone (bright), the drag shows none.
    d0, d1 = (np.array([screen_point(view, p)], float) for p in (joint, tip))
    ring, _ = bone_outline(d0, d1, grow=1.5)
    x, y = np.round(ring[0, 1]).astype(int)
    assert halo[y, x, :3].mean() > 120
    assert grab_rgba(view)[y, x, :3].mean() < 120
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, QPoint(*screen_point(view, handle)) + QPoint(2, 1))
