"""A hover, and a drag's start and end, restyle a few elements (the hovered handle,
the dragged chain's reach rings, its jitter label): the scene repaints only those,
and what is on screen is what painting the whole view afresh gives."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from rigeditor.app.document import Document
from rigeditor.app.main import _load
from rigeditor.app.scene.layers import PAINT_ERRORS
from test_scene import _stale_pixels
from views import release_all, show_scene


@pytest.fixture(autouse=True)
def _keep_alive():
    del PAINT_ERRORS[:]
    yield
    release_all()
    assert not PAINT_ERRORS, PAINT_ERRORS[0]


class _Painted(QObject):
    """Records the area (px²) of each paint event's region on a viewport."""

    def __init__(self, widget):
        super().__init__(widget)
        self.areas: list[int] = []
        widget.installEventFilter(self)

    def eventFilter(self, obj, event):  # noqa: N802 - Qt's name
        if event.type() == QEvent.Paint:
            self.areas.append(sum(r.width() * r.height() for r in event.region()))
        return False

    def since(self, mark: int) -> int:
        return sum(self.areas[mark:])


def _px(view, world) -> QPoint:
    p = view.viewportTransform().map(QPointF(float(world[0]), float(world[1])))
    return QPoint(round(p.x()), round(p.y()))


def _dressed_walk(qtbot):
    project, path, images = _load("dressed_walk")
    doc = Document(project, path, images=images)
    doc.set_frame(12)
    view = show_scene(qtbot, doc)
    doc.select([("target", "foot_l")])  # the press below selects nothing new
    QTest.mouseMove(view.viewport(), QPoint(2, 2))  # (Qt drops a move to where the pointer already is)
    QApplication.processEvents()
    assert view.ctx.hover is None
    return doc, view


def test_a_drag_start_and_end_repaint_the_restyled_elements_only(qtbot):
    doc, view = _dressed_walk(qtbot)
    vp = view.viewport()
    whole = vp.width() * vp.height()
    painted = _Painted(vp)
    s = view.ctx.state
    handle = s.handle[s.targets.index("foot_l")].copy()
    at = _px(view, handle)

    mark = len(painted.areas)
    QTest.mouseMove(vp, at)  # hover: the handle grows
    QApplication.processEvents()
    assert view.ctx.hover == ("target", "foot_l")
    assert 0 < painted.since(mark) < whole / 4
    assert _stale_pixels(view) == 0

    mark = len(painted.areas)
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, at)
    QApplication.processEvents()
    assert view.ctx.active_chain == "leg_l"
    assert painted.since(mark) < whole  # (already selected and hovered: little or nothing to restyle)
    assert _stale_pixels(view) == 0

    for k in range(1, 6):
        QTest.mouseMove(vp, at + QPoint(3 * k, -2 * k))
        QApplication.processEvents()
    mark = len(painted.areas)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, at + QPoint(15, -10))
    QApplication.processEvents()
    assert view.ctx.active_chain is None
    assert painted.since(mark) < whole / 2  # (a whole repaint: every picture drawn again)
    assert _stale_pixels(view) == 0
    assert doc.undo_stack.count() == 1


def test_labels_keep_their_place_through_a_hover_and_a_drags_end(qtbot):
    """Only what the pointer restyles moves: the other labels stay put (none jumps as
    the pointer passes over a handle), and no two overlap."""
    doc, view = _dressed_walk(qtbot)
    vp = view.viewport()
    labels = view.layer("labels")

    def rects():
        return {lb.key: (lb.rect.x(), lb.rect.y(), lb.rect.width(), lb.rect.height()) for lb in labels.placed}

    before = rects()
    s = view.ctx.state
    at = _px(view, s.handle[s.targets.index("foot_r")])  # hover foot_r: its chain's jitter is written
    QTest.mouseMove(vp, at)
    QApplication.processEvents()
    now = rects()
    assert "jitter:leg_r" in now and "jitter:leg_r" not in before
    assert {k: v for k, v in now.items() if k in before and k != "jitter:leg_r"} == before
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, at)
    for k in range(1, 4):
        QTest.mouseMove(vp, at + QPoint(0, 4 * k))
    held = rects()
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, at + QPoint(0, 12))
    QApplication.processEvents()
    assert rects() == held
    boxes = [lb.rect for lb in labels.placed]
    assert not any(a.intersects(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    assert _stale_pixels(view) == 0


def test_hovering_another_chain_emphasises_it_and_leaves_nothing_stale(qtbot):
    """Hovering a chain's target or bone draws its reach rings strong and writes its
    jitter; leaving it fades them again."""
    doc, view = _dressed_walk(qtbot)
    vp = view.viewport()
    whole = vp.width() * vp.height()
    painted = _Painted(vp)
    s, bones = view.ctx.state, view.ctx.structure.bones
    shin = bones.index("shin_r")
    points = [s.handle[s.targets.index("foot_r")], (2 * s.joints[shin] + s.tips[shin]) / 3,
              s.handle[0] + (0.0, 2000.0)]
    seen = []
    for world in points:
        mark = len(painted.areas)
        QTest.mouseMove(vp, _px(view, world))
        QApplication.processEvents()
        seen.append((view.ctx.hover, "leg_r" in view.ctx.emphasized))
        assert 0 < painted.since(mark) < whole / 2  # its rings' outlines, not the disc they enclose
        assert _stale_pixels(view) == 0
    assert seen == [(("target", "foot_r"), True), (("bone", "shin_r"), True), (None, False)]
