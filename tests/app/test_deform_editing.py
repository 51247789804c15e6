"""Deform keys in the editor: in Animate mode the mesh tool's vertex drag keys a
deform at the current frame (one undo step; the setup vertices stay), and the dope
sheet shows the keys on the slot's row."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest

from rigeditor.app.document import Document
from rigeditor.app.timeline import TimelineWidget
from rigeditor.app.tools import EditTool
from rigeditor.examples.art_files import example_project
from rigeditor.io import load_project
from views import release_all, show_scene

SKINNED = example_project("skinned_arm")


@pytest.fixture(autouse=True)
def _release():
    yield
    release_all()


def _px(view, world) -> QPoint:
    p = view.viewportTransform().map(QPointF(float(world[0]), float(world[1])))
    return QPoint(round(p.x()), round(p.y()))


def _drag(view, doc, i, frame, offset=QPoint(6, -4)):
    doc.set_frame(frame)
    start = doc.bake.art.meshes[0].vertices(doc.row).copy()
    vp = view.viewport()
    a = _px(view, start[i])
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, a)
    for k in (1, 2, 3):
        QTest.mouseMove(vp, a + offset * k / 3)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, a + offset)
    return start


def test_an_animate_mode_drag_keys_a_deform_at_the_frame_in_one_undo_step(qtbot):
    doc = Document(load_project(SKINNED), SKINNED)
    assert doc.mode == "animate"
    view = show_scene(qtbot, doc)
    view.frame_all()
    qtbot.wait(10)
    doc.select([("slot", "arm")])
    EditTool.of(doc).set_tool("mesh")
    setup = doc.project.art.slots[0].attachments[0].vertices.copy()
    i = doc.project.art.slots[0].attachments[0].hull_count() + 5  # an interior vertex
    start = _drag(view, doc, i, 24)
    after = doc.bake.art.meshes[0].vertices(doc.row)
    scale = view.viewportTransform().m11()
    expected = start.copy()
    expected[i] += np.array([6, 4]) / scale  # the view flips y
    np.testing.assert_allclose(after, expected, atol=1.0 / scale)
    assert doc.undo_stack.count() == 1
    (track,) = doc.project.art.deforms
    assert [k.frame for k in track.keys] == [24.0]
    np.testing.assert_array_equal(doc.project.art.slots[0].attachments[0].vertices, setup)
    # before the key the mesh is as it was: the key at 24 is the only one
    doc.set_frame(0)
    np.testing.assert_allclose(doc.bake.art.meshes[0].vertices(doc.row),
                               Document(load_project(SKINNED), SKINNED).bake.art.meshes[0].vertices(0), atol=1e-9)
    doc.undo_stack.undo()
    assert doc.project.art.deforms == ()
    # Setup mode shows no deform and edits the setup vertices
    doc.undo_stack.redo()
    doc.set_mode("setup")
    np.testing.assert_allclose(doc.bake.art.meshes[0].vertices(doc.row),
                               Document(load_project(SKINNED), SKINNED).bake.art.meshes[0].vertices(0), atol=1e-9)


def test_the_dope_sheet_shows_deform_keys_on_the_slots_row(qtbot):
    doc = Document(load_project(SKINNED), SKINNED)
    view = show_scene(qtbot, doc)
    view.frame_all()
    qtbot.wait(10)
    doc.select([("slot", "arm")])
    EditTool.of(doc).set_tool("mesh")
    i = doc.project.art.slots[0].attachments[0].hull_count() + 5
    _drag(view, doc, i, 12)
    _drag(view, doc, i + 1, 30)
    w = TimelineWidget(doc)
    qtbot.addWidget(w)
    w.resize(1000, 260)
    w.show()
    qtbot.waitExposed(w)
    QTest.qWait(20)
    labels = [t.label for t in w.tracks()]
    row = labels.index("arm · deform arm")
    assert w.tracks()[row].frames == (12.0, 30.0)
    x, y = w._keys.getData()
    drawn = set(zip(np.round(x).astype(int).tolist(), np.round(y).astype(int).tolist()))
    assert {(12, row), (30, row)} <= drawn
