"""What a drag move and a scrubbed frame cost the window besides the scene: the
inspector's read-outs and the status bar follow every move and frame without laying
the window out again, and what they show is what a freshly built one shows."""
from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QWidget

from rigeditor.app import gesture_pacing, steady_label
from rigeditor.app.inspector import chain_readout
from rigeditor.app.steady_label import SteadyLabel
from rigeditor.app.style import CAUSE_LABELS
from rigeditor.edits.tracks import keyed_tracks
from windows import make_window, px, settle


class LayoutRequests(QObject):
    """Counts the LayoutRequest events delivered to each watched widget (by name)."""

    def __init__(self, **widgets):
        super().__init__()
        self._names = {id(w): name for name, w in widgets.items()}
        self.count = dict.fromkeys(widgets, 0)
        for w in widgets.values():
            w.installEventFilter(self)

    def eventFilter(self, obj, event):  # noqa: N802 - Qt's name
        if event.type() == QEvent.LayoutRequest and id(obj) in self._names:
            self.count[self._names[id(obj)]] += 1
        return False


def circle(vp, centre: QPoint, radius: float, moves: int, on_move=None):
    """Mouse moves (the button held) once round a circle about ``centre``."""
    for i in range(moves):
        a = 2 * math.pi * i / moves
        QTest.mouseMove(vp, centre + QPoint(round(radius * math.cos(a)), round(radius * math.sin(a))))
        QApplication.processEvents()
        if on_move is not None:
            on_move()


def arm_window(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path)
    doc.set_frame(0)
    settle()
    return w, doc


def hand_point(w, doc) -> QPoint:
    s = w.scene.ctx.state
    return px(w.scene, s.handle[s.targets.index("hand")])


def shown_readouts(w, doc) -> None:
    """Every read-out and the status bar show the solve of the current frame, whole."""
    r = chain_readout(doc, "arm")
    ins = w.inspector
    assert ins.field("readout.residual").text() == f"{r['residual']:.3f} u — {CAUSE_LABELS[r['cause']]}"
    assert ins.field("readout.reach").text() == r["reach"]
    assert ins.field("readout.sensitivity").text() == f"{r['sensitivity']:.2f} °/u"
    assert ins.field("readout.stretch").text() == f"{(r['stretch'] - 1.0) * 100.0:+.1f} %"
    assert f"residual {r['residual']:.3f} u ({r['cause_label']})" in w.chain_status.text()
    assert w.frame_status.text().startswith(f"Frame {doc.frame} ")
    for lab in (ins.field("readout.residual"), ins.field("readout.sensitivity"), ins.field("readout.reach"),
                w.chain_status, w.frame_status):
        assert lab.isVisible() and lab.width() >= lab.sizeHint().width(), lab.objectName()  # nothing cut off


def test_a_drag_lays_out_neither_the_inspector_nor_the_window_once_its_texts_fit(qtbot, tmp_path, monkeypatch):
    # The first time round, the texts (residual, out of reach...) get as wide as they
    # will; the second time round the same texts fit where they are.
    monkeypatch.setattr(steady_label, "SHRINK_MS", 60_000)
    monkeypatch.setattr(gesture_pacing, "PACE_HZ", 1e9)  # every move shown (test_..._reading_pace)
    w, doc = arm_window(qtbot, tmp_path)
    vp, centre = w.scene.viewport(), hand_point(w, doc)
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, centre)
    settle()
    radius = 120.0  # px: in and out of the arm's reach from the hand's rest
    circle(vp, centre, radius, 16)
    counter = LayoutRequests(window=w, inspector=w.inspector._scroll)
    causes = set()
    circle(vp, centre, radius, 16, on_move=lambda: (shown_readouts(w, doc),
                                                    causes.add(chain_readout(doc, "arm")["cause"])))
    assert len(causes) >= 2, causes  # the texts did change width along the way
    assert counter.count == {"window": 0, "inspector": 0}
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, centre)
    settle()
    shown_readouts(w, doc)


def test_scrubbing_lays_out_nothing_once_the_frame_texts_fit(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(steady_label, "SHRINK_MS", 60_000)
    w, doc = arm_window(qtbot, tmp_path)
    doc.select([("chain", "arm")])
    settle()
    frames = range(doc.project.timeline.start, doc.project.timeline.end + 1)
    for f in frames:  # once through: the widest frame number and residual
        doc.set_frame(f)
        QApplication.processEvents()
    counter = LayoutRequests(window=w, inspector=w.inspector._scroll)
    for f in frames:
        doc.set_frame(f)
        QApplication.processEvents()
        shown_readouts(w, doc)
    assert counter.count == {"window": 0, "inspector": 0}


def grab(widget) -> np.ndarray:
    img = widget.grab().toImage()
    return np.array([[img.pixel(x, y) for x in range(img.width())] for y in range(img.height())])


def test_after_a_drag_the_inspector_looks_as_built_afresh(qtbot, tmp_path):
    w, doc = arm_window(qtbot, tmp_path)
    vp, centre = w.scene.viewport(), hand_point(w, doc)
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, centre)
    settle()
    circle(vp, centre, 120.0, 12)
    QTest.mouseMove(vp, centre + QPoint(9, -7))
    QApplication.processEvents()
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, centre + QPoint(9, -7))
    settle()
    after_drag = grab(w.inspector)
    w.inspector._signature = None  # built again from nothing, at the same frame and pose
    w.inspector.refresh()
    settle()
    fresh = grab(w.inspector)
    assert after_drag.shape == fresh.shape
    assert np.array_equal(after_drag, fresh)


def _boxed(qtbot, shrink_ms):
    box = QWidget()
    lay = QHBoxLayout(box)
    label = QLabel("0.1 u")
    holder = SteadyLabel(label, shrink_ms=shrink_ms)
    lay.addWidget(holder)
    lay.addStretch(1)
    qtbot.addWidget(box)
    box.show()
    qtbot.waitExposed(box)
    settle()
    return box, label, holder


def test_a_steady_label_grows_at_once_and_keeps_its_room_while_the_text_flickers(qtbot):
    box, label, holder = _boxed(qtbot, shrink_ms=60_000)
    counter = LayoutRequests(box=box)
    for text in ("0.2 u", "0.3 u", "0.4 u"):  # same width: nothing is laid out
        label.setText(text)
        settle()
    assert counter.count["box"] == 0
    label.setText("12345.678 u — out of reach")  # wider: room at once, the text whole
    settle()
    assert counter.count["box"] >= 1
    assert label.width() >= label.sizeHint().width() and label.text() == "12345.678 u — out of reach"
    wide, counter.count["box"] = holder.width(), 0
    for text in ("0.5 u", "12345.679 u — out of reach", "0.6 u"):  # shorter and back: the room stays
        label.setText(text)
        settle()
        assert holder.width() == wide and label.width() >= label.sizeHint().width()
    assert counter.count["box"] == 0


def test_a_steady_label_gives_room_back_once_the_text_stays_short(qtbot):
    box, label, holder = _boxed(qtbot, shrink_ms=80)
    label.setText("12345.678 u — out of reach")
    settle()
    wide = holder.width()
    label.setText("0.5 u")
    qtbot.waitUntil(lambda: holder.width() < wide, timeout=3000)
    assert abs(holder.sizeHint().width() - label.sizeHint().width()) <= steady_label.SLACK_PX
    assert label.width() >= label.sizeHint().width()


@pytest.mark.parametrize("text", ["", "x", "residual 0.000 u (on target) · in reach"])
def test_a_steady_label_shows_text_set_while_hidden(qtbot, text):
    box = QWidget()
    lay = QHBoxLayout(box)
    label = QLabel()
    lay.addWidget(SteadyLabel(label))
    lay.addStretch(1)
    qtbot.addWidget(box)
    label.setText(text)  # before the window is shown: no layout request is posted
    box.show()
    qtbot.waitExposed(box)
    settle()
    assert label.width() >= label.sizeHint().width()


def test_during_a_drag_the_readouts_follow_at_a_reading_pace_and_end_on_the_last_move(qtbot, tmp_path,
                                                                                      monkeypatch):
    # A pace of one refresh in 1,000 s: after the drag's first move nothing beside the
    # scene changes until the release, which shows the last move's solve.
    monkeypatch.setattr(gesture_pacing, "PACE_HZ", 1e-3)
    w, doc = arm_window(qtbot, tmp_path)
    vp, centre = w.scene.viewport(), hand_point(w, doc)
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, centre)
    settle()
    QTest.mouseMove(vp, centre + QPoint(120, 0))  # out of reach
    settle()
    shown_readouts(w, doc)
    first = (w.inspector.field("readout.residual").text(), w.chain_status.text(), outliner_cause(w))
    out_of_reach = chain_readout(doc, "arm")["cause"]
    assert first[2] == CAUSE_LABELS[out_of_reach]
    moved = set()

    def on_move():  # where the hand's target is solved for, to a micro-unit
        moved.add(tuple(np.round(doc.bake.chains["arm"].target_world[doc.row], 6)))

    circle(vp, centre, 60.0, 10, on_move=on_move)
    # The solve and its cause changed under the pointer (back within reach)...
    assert len(moved) >= 5 and chain_readout(doc, "arm")["cause"] != out_of_reach
    shown = (w.inspector.field("readout.residual").text(), w.chain_status.text(), outliner_cause(w))
    assert shown == first  # ...not beside it
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, centre + QPoint(60, 0))
    QApplication.processEvents()
    shown_readouts(w, doc)  # the last value, at the gesture's end
    assert outliner_cause(w) == CAUSE_LABELS[chain_readout(doc, "arm")["cause"]]


def outliner_cause(w) -> str:
    """The cause the outliner's chain item shows (its colour's status tip)."""
    return w.outliner.item_for("chain", "arm").data(0, Qt.StatusTipRole)


def test_a_slow_drag_shows_every_move_beside_the_scene(qtbot, tmp_path):
    w, doc = arm_window(qtbot, tmp_path)
    vp, centre = w.scene.viewport(), hand_point(w, doc)
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, centre)
    settle()
    for i in range(4):
        QTest.mouseMove(vp, centre + QPoint(30 * i + 10, -20 * i))
        qtbot.wait(round(1000 / gesture_pacing.PACE_HZ) + 40)  # a pointer resting longer than the pace
        assert doc.gesture_active
        shown_readouts(w, doc)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, centre + QPoint(100, -60))
    settle()
    shown_readouts(w, doc)


def _send_mouse(widget, kind, pos):
    kinds = {"press": QEvent.MouseButtonPress, "move": QEvent.MouseMove, "release": QEvent.MouseButtonRelease}
    button = Qt.NoButton if kind == "move" else Qt.LeftButton
    held = Qt.NoButton if kind == "release" else Qt.LeftButton
    p = QPointF(pos)
    QApplication.sendEvent(widget, QMouseEvent(kinds[kind], p, widget.mapToGlobal(p), button, held, Qt.NoModifier))


def key_markers(timeline):
    x, y = timeline._keys.getData()
    return set(zip(np.round(x).astype(int).tolist(), np.round(y).astype(int).tolist()))


def test_a_drag_in_the_scene_paces_the_dope_sheet_and_a_key_drag_in_it_does_not(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(gesture_pacing, "PACE_HZ", 1e-3)
    w, doc = arm_window(qtbot, tmp_path)
    tl = w.timeline
    doc.set_frame(5)  # no key of the hand here: the drag's first move keys it
    settle()
    vp, centre = w.scene.viewport(), hand_point(w, doc)
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, centre)
    settle()
    circle(vp, centre, 40.0, 6)
    row = [t.path for t in tl.tracks()].index(("target", "hand", "position"))
    assert (5, row) in key_markers(tl)  # the key the first move made, shown at once
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, centre)
    QApplication.processEvents()
    assert [t.frames for t in tl.tracks()] == [t.frames for t in keyed_tracks(doc.project)]
    # Retiming that key in the dope sheet: the user looks at it, every move is shown.
    kv = tl.plot.viewport()
    start = tl.key_point(("target", "hand", "position"), 5)
    _send_mouse(kv, "press", start)
    for frame in (6, 7, 8):
        QTest.qWait(12)  # (pyqtgraph drops moves faster than 100 a second)
        _send_mouse(kv, "move", tl._to_viewport(tl.track_view, frame, row))
        QApplication.processEvents()
    assert doc.gesture_active
    moved = {f for f, r in key_markers(tl) if r == row}
    assert 5 not in moved and max(f for f in moved if f < 12) in (7, 8)
    _send_mouse(kv, "release", tl._to_viewport(tl.track_view, 8, row))
    QApplication.processEvents()
    assert (8, row) in key_markers(tl)


class Paints(QObject):
    def __init__(self, widget):
        super().__init__()
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, obj, event):  # noqa: N802
        if event.type() == QEvent.Paint:
            self.count += 1
        return False


def test_a_new_frame_number_repaints_its_box_not_the_timeline_dock_beneath(qtbot, tmp_path):
    w, doc = arm_window(qtbot, tmp_path)
    tl = w.timeline
    dock = tl.parentWidget()
    while dock is not None and dock.metaObject().className() != "QDockWidget":
        dock = dock.parentWidget()
    spin = tl._frame_spin
    painted = Paints(dock), Paints(tl), Paints(spin)
    for f in (3, 9, 27, 41):
        doc.set_frame(f)
        settle()
        assert spin.value() == f
    assert painted[2].count >= 4 and (painted[0].count, painted[1].count) == (0, 0)
    # The box paints the pixels its parents painted under it.
    bar = QRect(0, 0, tl.width(), spin.geometry().bottom() + 2)
    filled = tl.grab(bar).toImage()
    spin.setAutoFillBackground(False)
    spin.update()
    settle()
    assert tl.grab(bar).toImage() == filled
