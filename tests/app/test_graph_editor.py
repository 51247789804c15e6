"""The curve editor's drags, driven through its gesture handler offscreen."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt

from rigeditor.app import style
from rigeditor.app.document import Document
from rigeditor.app.graph.editor import GraphEditor
from rigeditor.examples.rigs import walk
from rigeditor.model.data.timeline import control_points
from rigeditor.model.validation.project import problems

FOOT = ("target", "foot_l", "position")


class _Drag:
    """What pyqtgraph hands a view's mouseDragEvent: a start, moves, a finish."""

    def __init__(self, stage, modifiers=Qt.NoModifier):
        self.stage, self._modifiers = stage, modifiers

    def isStart(self):
        return self.stage == "start"

    def isFinish(self):
        return self.stage == "finish"

    def modifiers(self):
        return self._modifiers


def _drag(editor, start: QPointF, *moves: QPointF):
    editor._drag_event(_Drag("start"), start, start)
    for i, pos in enumerate(moves):
        editor._drag_event(_Drag("finish" if i == len(moves) - 1 else "move"), pos, start)


def _editor(qtbot):
    doc = Document(walk())
    editor = GraphEditor(doc)
    qtbot.addWidget(editor)
    editor.resize(600, 300)
    editor.show_paths([FOOT])
    return doc, editor


def test_dragging_keys_past_the_end_stops_them_at_the_animation_end(qtbot):
    doc, editor = _editor(qtbot)
    tl = doc.project.timeline
    key = next(k for k in doc.project.target("foot_l").position.keys if k.frame == 14)
    start = QPointF(14.0, key.value[0])  # the x curve's key at frame 14
    _drag(editor, start, QPointF(30.0, key.value[0] + 1.0), QPointF(tl.end + 500.0, key.value[0] + 2.0))
    keys = doc.project.target("foot_l").position.keys
    assert max(k.frame for k in keys) == tl.end
    moved = next(k for k in keys if k.frame == tl.end)
    assert moved.value == (key.value[0] + 2.0, key.value[1])  # only the dragged curve's value changed
    assert {(c.d, f) for c, f in editor.selected} == {(0, tl.end)}
    doc.undo_stack.undo()
    assert doc.project.target("foot_l").position.keys[2].frame == 14  # one undo step


def test_dragging_an_aligned_handle_upright_keeps_the_other_one_its_length(qtbot):
    doc, editor = _editor(qtbot)
    ch = doc.project.target("foot_l").position
    i = next(j for j, k in enumerate(ch.keys) if k.frame == 8)
    pts = control_points(ch)
    in_before = np.r_[pts.x2[i - 1] - 8, pts.y2[i - 1] - pts.values[i]]  # the automatic in handle
    editor._drag = {"handle": (next(c for c in editor.components if c.d == 1), 8, "out"),
                    "project": doc.project, "gesture": doc.begin_gesture()}
    editor._move_handle(editor._drag, QPointF(8 + 1e-8, ch.keys[i].value[1] + 10.0), aligned=True)
    doc.end_gesture()
    key = doc.project.target("foot_l").position.keys[i]
    assert key.out_handle[0] == pytest.approx(1e-8) and key.out_handle[2] == pytest.approx(10.0)
    assert np.linalg.norm(key.in_handle) == pytest.approx(np.linalg.norm(in_before)) and key.in_handle[2] < 0  # straight down
    assert problems(doc.project) == []


def test_key_markers_bound_what_pyqtgraph_would_after_zooms_and_edits(qtbot):
    # The markers' bounding rect is remembered between calls; pyqtgraph's own
    # computation, asked afresh, must agree after every change of view or keys.
    import pyqtgraph as pg

    doc, editor = _editor(qtbot)
    editor.show()
    qtbot.waitExposed(editor)
    keys = editor._items[editor.components[0]][1]

    def agree():
        assert keys.boundingRect() == pg.ScatterPlotItem.boundingRect(keys)

    agree()
    comp = editor.components[0]
    frame = editor._items[comp][1].data["x"][1]
    editor.view.setRange(xRange=(frame - 4, frame + 4), padding=0.1)
    qtbot.wait(10)
    agree()
    before = keys.boundingRect()
    at = editor.view.mapSceneToView(editor.plot.mapToScene(editor.key_point(comp, int(frame))))
    _drag(editor, at, at + QPointF(0, 2 * keys.boundingRect().height()))
    agree()
    assert keys.boundingRect() != before  # the key dragged past the others moved the bounds
    editor.resize(900, 500)
    qtbot.wait(10)
    agree()


def test_the_curve_editor_draws_a_faint_grid_at_its_ticks(qtbot):
    doc, editor = _editor(qtbot)
    qtbot.waitExposed(editor)
    image = editor.plot.grab().toImage()
    background = style.BACKGROUND
    # A column at frame 30, between keys 20 and 48 where both curves are flat, over
    # the empty band between them: grid there, nothing else.
    view = editor.plot.getViewBox()
    on_line = editor.plot.mapFromScene(view.mapViewToScene(QPointF(30.0, 32.7)))
    off_line = editor.plot.mapFromScene(view.mapViewToScene(QPointF(32.6, 32.7)))

    def colour(point):
        c = image.pixelColor(point.x(), point.y())
        return np.array([c.red(), c.green(), c.blue()])

    base = np.array([background.red(), background.green(), background.blue()])
    assert np.abs(colour(off_line) - base).max() <= 2  # the plain background
    line = max(np.abs(colour(on_line + QPoint(dx, 0)) - base).max() for dx in (-1, 0, 1))
    assert 4 <= line <= 80  # a line, and a faint one
