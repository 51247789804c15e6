"""The timeline widget and the keyed-track functions behind it (offscreen)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from rigeditor.app.document import Document
from rigeditor.app.timeline import TimelineWidget
from rigeditor.edits.tracks import (
    clamp_delta, delete_keys, key_item, keyed_tracks, move_keys, set_key,
)
from rigeditor.model import Timeline
from rigeditor.examples.rigs import arm, walk
from rigeditor.model.validation.project import problems

FOOT = ("target", "foot_l", "position")  # walk: keys at 0, 8, 14, 20, 48


@pytest.fixture
def timeline(qtbot):
    doc = Document(walk())
    w = TimelineWidget(doc)
    qtbot.addWidget(w)
    w.resize(1000, 300)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    w.setFocus()
    yield w
    doc.undo_stack.clear()  # while the Document lives: clearing emits its cleanChanged


def _mouse(widget, kind, pos, buttons=Qt.LeftButton, modifiers=Qt.NoModifier):
    kinds = {"press": QEvent.MouseButtonPress, "move": QEvent.MouseMove, "release": QEvent.MouseButtonRelease}
    button = Qt.NoButton if kind == "move" else Qt.LeftButton
    held = Qt.NoButton if kind == "release" else buttons
    p = QPointF(pos)
    QApplication.sendEvent(widget, QMouseEvent(kinds[kind], p, widget.mapToGlobal(p), button, held, modifiers))


def drag(widget, start, end, steps=6):
    """A real left-button drag on ``widget`` (a graphics view's viewport), paced
    like a hand: pyqtgraph drops mouse moves that come faster than 100 a second."""
    _mouse(widget, "press", start)
    for t in np.linspace(0.0, 1.0, steps + 1)[1:]:
        QTest.qWait(12)
        _mouse(widget, "move", QPointF(start) + (QPointF(end) - QPointF(start)) * float(t))
    _mouse(widget, "release", end)
    QApplication.processEvents()


def click(widget, pos, modifiers=Qt.NoModifier):
    _mouse(widget, "press", pos, modifiers=modifiers)
    _mouse(widget, "release", pos, modifiers=modifiers)
    QApplication.processEvents()


def markers(w):
    """(frame, row) of every key marker drawn."""
    x, y = w._keys.getData()
    return set(zip(np.round(x).astype(int).tolist(), np.round(y).astype(int).tolist()))


def row_of(w, path):
    return [t.path for t in w.tracks()].index(path)


# ---------------------------------------------------------------- tracks (pure)

def test_keyed_tracks_lists_every_keyed_channel_with_its_frames():
    tracks = {t.label: t for t in keyed_tracks(walk())}
    assert set(tracks) == {"foot_l · position", "foot_r · position", "character · position", "spine · rotation"}
    assert tracks["foot_l · position"].frames == (0, 8, 14, 20, 48)
    assert tracks["foot_l · position"].path == FOOT
    assert tracks["foot_l · position"].spaces == ("world",) * 5
    assert not tracks["foot_l · position"].stepped


def test_move_keys_retimes_together_and_replaces_a_key_it_lands_on():
    p = walk()
    moved = move_keys(p, {FOOT: (8, 14)}, 6)  # 14 -> 20 lands on the key at 20
    frames = [k.frame for k in moved.target("foot_l").position.keys]
    old = {k.frame: k.value for k in p.target("foot_l").position.keys}
    new = {k.frame: k.value for k in moved.target("foot_l").position.keys}
    assert frames == [0, 14, 20, 48]
    assert new[14] == old[8] and new[20] == old[14]
    assert clamp_delta({FOOT: (8, 48)}, 5, 0, 48) == 0
    assert clamp_delta({FOOT: (8,)}, -20, 0, 48) == -8


def test_set_key_on_stepped_and_first_keys_and_delete():
    p = walk()
    p2, paths = key_item(p, ("chain", "leg_l"), 10)
    chain = p2.chain("leg_l")
    assert [k.interp for k in chain.bend.keys] == ["constant"]
    assert chain.bend.keys[0].value == (-1.0,) and chain.softness.keys[0].frame == 10
    assert not problems(p2)
    assert ("chain", "leg_l", "bend") in [t.path for t in keyed_tracks(p2)]
    p3 = delete_keys(p2, {("chain", "leg_l", "bend"): (10,)})
    assert not p3.chain("leg_l").bend.keys and p3.chain("leg_l").bend.default == (-1.0,)
    # An IK-driven bone keys its chain; an FK bone its rotation.
    assert key_item(p, ("bone", "shin_l"), 3)[1][0][:2] == ("chain", "leg_l")
    p4 = set_key(p, ("bone", "head", "rotation"), 5, 0.25)
    assert p4.bone("head").rotation.value_at(30) == (0.25,)


# ---------------------------------------------------------------- scrubbing

def test_dragging_on_the_ruler_scrubs(timeline):
    doc = timeline.doc
    seen = []
    doc.frameChanged.connect(seen.append)
    vp = timeline.plot.viewport()
    drag(vp, timeline.ruler_point(5), timeline.ruler_point(31), steps=8)
    assert doc.frame == 31
    assert doc.row == doc.bake.index(31) == 31
    assert len(seen) >= 4  # every move scrubbed, not just the release
    assert timeline.playhead.value() == 31


def test_moving_the_playhead_line_sets_the_frame(timeline):
    doc = timeline.doc
    timeline.playhead.setValue(17.4)  # what InfiniteLine does on each drag move
    assert doc.frame == 17 and doc.row == 17
    doc.set_frame(40)
    assert timeline.playhead.value() == 40 and timeline._track_head.value() == 40


def test_click_on_empty_row_sets_frame_and_clears_key_selection(timeline):
    timeline.select_keys([(FOOT, 8)])
    click(timeline.plot.viewport(), timeline._to_viewport(timeline.track_view, 26, row_of(timeline, FOOT)))
    assert timeline.doc.frame == 26 and timeline.selected_keys() == {}


# ---------------------------------------------------------------- keys

def test_k_keys_the_selected_target_at_the_current_frame(timeline, qtbot):
    doc = timeline.doc
    doc.select([("target", "foot_l")])
    doc.set_frame(30)
    before = doc.project.target("foot_l").position.value_at(30)
    qtbot.keyClick(timeline, Qt.Key_K)
    keys = {k.frame: k.value for k in doc.project.target("foot_l").position.keys}
    assert 30 in keys and np.allclose(keys[30], before)
    assert (30, row_of(timeline, FOOT)) in markers(timeline)
    assert timeline.selected_keys() == {FOOT: (30,)}
    assert doc.undo_stack.count() == 1


def test_keys_survive_undo_and_redo(timeline):
    doc = timeline.doc
    doc.select([("target", "foot_l"), ("bone", "head")])
    doc.set_frame(30)
    timeline.key_selection()
    row_head = row_of(timeline, ("bone", "head", "rotation"))
    assert (30, row_head) in markers(timeline)
    doc.undo_stack.undo()
    assert 30 not in [k.frame for k in doc.project.target("foot_l").position.keys]
    assert ("bone", "head", "rotation") not in [t.path for t in timeline.tracks()]
    assert (30, row_of(timeline, FOOT)) not in markers(timeline)
    doc.undo_stack.redo()
    assert 30 in [k.frame for k in doc.project.target("foot_l").position.keys]
    assert (30, row_of(timeline, FOOT)) in markers(timeline)
    assert (30, row_of(timeline, ("bone", "head", "rotation"))) in markers(timeline)


def test_dragging_a_key_retimes_it_in_one_undo_step(timeline):
    doc = timeline.doc
    value = {k.frame: k.value for k in doc.project.target("foot_l").position.keys}[20]
    vp = timeline.plot.viewport()
    row = row_of(timeline, FOOT)
    drag(vp, timeline.key_point(FOOT, 20), timeline._to_viewport(timeline.track_view, 27, row), steps=10)
    keys = {k.frame: k.value for k in doc.project.target("foot_l").position.keys}
    assert 20 not in keys and keys[27] == value
    assert (27, row) in markers(timeline) and (20, row) not in markers(timeline)
    assert doc.undo_stack.count() == 1
    # The bake follows: the foot's declared target at 27 is the moved key's value.
    assert np.allclose(doc.bake.chains["leg_l"].target_declared[27], value)
    doc.undo_stack.undo()
    keys = {k.frame: k.value for k in doc.project.target("foot_l").position.keys}
    assert keys[20] == value and 27 not in keys
    # A second drag is a second undo step.
    doc.undo_stack.redo()
    drag(vp, timeline.key_point(FOOT, 27), timeline._to_viewport(timeline.track_view, 30, row))
    assert doc.undo_stack.count() == 2


def test_click_selects_a_key_and_delete_removes_it(timeline, qtbot):
    doc = timeline.doc
    click(timeline.plot.viewport(), timeline.key_point(FOOT, 14))
    assert timeline.selected_keys() == {FOOT: (14,)}
    click(timeline.plot.viewport(), timeline.key_point(FOOT, 8), Qt.ShiftModifier)
    assert timeline.selected_keys() == {FOOT: (8, 14)}
    qtbot.keyClick(timeline, Qt.Key_Delete)
    assert [k.frame for k in doc.project.target("foot_l").position.keys] == [0, 20, 48]
    assert (14, row_of(timeline, FOOT)) not in markers(timeline)
    assert doc.undo_stack.count() == 1 and timeline.selected_keys() == {}
    doc.undo_stack.undo()
    assert [k.frame for k in doc.project.target("foot_l").position.keys] == [0, 8, 14, 20, 48]


def test_box_drag_selects_keys(timeline):
    vp = timeline.plot.viewport()
    row = row_of(timeline, FOOT)
    drag(vp, timeline._to_viewport(timeline.track_view, 6, row - 0.4),
         timeline._to_viewport(timeline.track_view, 15, row + 1.4))
    assert timeline.selected_keys() == {FOOT: (8, 14)}
    assert timeline.doc.undo_stack.count() == 0


# ---------------------------------------------------------------- transport

def test_arrows_step_and_actions_are_exposed(timeline, qtbot):
    doc = timeline.doc
    doc.set_frame(10)
    qtbot.keyClick(timeline, Qt.Key_Right)
    qtbot.keyClick(timeline, Qt.Key_Right)
    qtbot.keyClick(timeline, Qt.Key_Left)
    assert doc.frame == 11
    shortcuts = [a.shortcut().toString() for a in timeline.actions_for_window()]
    assert shortcuts == ["Space", "Left", "Right", "K", "Del", "Ctrl+C", "Ctrl+V", "Alt+S", "T"]


def test_play_advances_at_the_fps_and_loops(timeline, qtbot):
    doc = timeline.doc
    doc.set_frame(0)
    qtbot.keyClick(timeline, Qt.Key_Space)
    assert timeline.is_playing()
    qtbot.wait(300)  # 24 fps: about 7 frames
    advanced = doc.frame
    assert 2 <= advanced <= 48
    qtbot.keyClick(timeline, Qt.Key_Space)
    assert not timeline.is_playing()
    qtbot.wait(100)
    assert doc.frame == advanced
    timeline.set_loop_range(10, 13)
    assert timeline.loop_range() == (10, 13)
    seen = []
    doc.frameChanged.connect(seen.append)
    timeline.play()
    qtbot.waitUntil(lambda: len(seen) >= 8, timeout=3000)
    timeline.pause()
    assert set(seen) == {10, 11, 12, 13}
    assert seen.index(13) < len(seen) - 1  # it went on after the loop's end: it wrapped


def test_loop_range_stays_inside_the_timeline(timeline):
    timeline.set_loop_range(-5, 500)
    assert timeline.loop_range() == (0, 48)
    timeline.set_loop_range(30, 20)
    assert timeline.loop_range() == (30, 30)


def test_target_keys_take_their_space_colour_and_switch_keys_show():
    from rigeditor.examples.rigs import door
    from rigeditor.app import style

    tracks = {t.label: t for t in keyed_tracks(door())}
    assert tracks["hand · space"].stepped and tracks["hand · space"].spaces == ("door_handle",)
    assert tracks["hand · position"].spaces[-1] == "door_handle"
    assert style.space_color(door(), "door_handle") != style.space_color(door(), "world")


def test_a_loop_over_the_whole_range_follows_it_and_world_has_nothing_to_key(timeline):
    doc = timeline.doc
    longer = replace(doc.project, timeline=Timeline(24.0, 0, 96))
    doc.apply("longer", longer)
    assert timeline.loop_range() == (0, 96)
    shown = timeline.ruler_view.viewRange()[0]
    assert shown[0] <= 0 and shown[1] >= 96  # the view showed it all, and still does
    timeline.set_loop_range(10, 20)
    doc.undo_stack.undo()
    assert timeline.loop_range() == (10, 20)
    doc.select([("space", "world")])
    timeline.key_selection()
    assert doc.undo_stack.count() == 1  # only the "longer" step: nothing was keyed


def test_new_project_rebuilds_rows(timeline):
    timeline.doc.replace_document(arm(), None)
    assert [t.label for t in timeline.tracks()] == ["hand · position"]
    assert timeline.loop_range() == (0, 48)
