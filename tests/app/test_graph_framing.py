"""The curve editor frames what it shows (pytest-qt, offscreen): a new selection's
curves and a new frame range come into view, unless the user has zoomed or panned;
F frames again and follows from then on."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from rigeditor.app.document import Document
from rigeditor.app.graph.editor import GraphEditor
from rigeditor.model.data import clips
from rigeditor.examples.rigs import walk

FOOT = ("target", "foot_l", "position")


def _editor(qtbot):
    doc = Document(walk())
    editor = GraphEditor(doc)
    qtbot.addWidget(editor)
    editor.resize(600, 300)
    editor.show()
    qtbot.waitExposed(editor)
    return doc, editor


def _keys(doc, path=FOOT, frames=None):
    """(frame, value) of every key of ``path``'s components in [frames]."""
    keys = clips.channel(doc.project, path).keys
    lo, hi = frames if frames is not None else (-np.inf, np.inf)
    return [(k.frame, v) for k in keys if lo <= k.frame <= hi for v in k.value]


def _in_view(editor, frame, value) -> bool:
    """The point is drawn inside the plot's view box (pixels, not data units)."""
    p = editor.view.mapViewToScene(QPointF(float(frame), float(value)))
    return editor.view.sceneBoundingRect().contains(p)


def _wheel(editor, steps=1):
    """The user turns the wheel over the curves (pyqtgraph zooms the view)."""
    vp = editor.plot.viewport()
    c = QPointF(vp.rect().center())
    ev = QWheelEvent(c, QPointF(vp.mapToGlobal(c.toPoint())), QPoint(), QPoint(0, 120 * steps), Qt.NoButton,
                     Qt.NoModifier, Qt.NoScrollPhase, False)
    QApplication.sendEvent(vp, ev)


def test_a_new_selection_brings_its_curves_into_view(qtbot):
    doc, editor = _editor(qtbot)
    keys = _keys(doc)
    assert not all(_in_view(editor, f, v) for f, v in keys)  # nothing selected: -1..1, the foot's keys off screen
    doc.select([("target", "foot_l")])
    assert editor.components and all(_in_view(editor, f, v) for f, v in keys)
    (y0, y1) = editor.view.viewRange()[1]
    values = [v for _, v in keys]
    assert y1 - y0 < 2 * (max(values) - min(values))  # framed, not lost in a huge range


def test_a_shorter_range_is_framed_and_a_zoom_is_kept_until_f(qtbot):
    doc, editor = _editor(qtbot)
    doc.select([("target", "foot_l")])
    tl = doc.project.timeline
    assert (tl.start, tl.end) == (0, 48)
    doc.apply("Set frame range", replace(doc.project, timeline=replace(tl, end=24)))
    (x0, x1), _ = editor.view.viewRange()
    assert x0 <= 0 and 24 <= x1 < 24 + 0.2 * 24  # the new range, not the 48 frames before
    assert all(_in_view(editor, f, v) for f, v in _keys(doc, frames=(0, 24)))
    # The user zooms: a later selection or range leaves their view alone...
    _wheel(editor, 2)
    zoomed = editor.view.viewRange()
    doc.select([("target", "foot_r")])
    doc.apply("Set frame range", replace(doc.project, timeline=replace(doc.project.timeline, end=36)))
    np.testing.assert_allclose(editor.view.viewRange(), zoomed)
    # ...until F frames again, and the view follows from then on.
    editor.frame_selection()
    assert all(_in_view(editor, f, v) for f, v in _keys(doc, ("target", "foot_r", "position"), (0, 36)))
    doc.apply("Set frame range", replace(doc.project, timeline=replace(doc.project.timeline, end=12)))
    (x0, x1), _ = editor.view.viewRange()
    assert x0 <= 0 and 12 <= x1 < 12 + 0.2 * 12
