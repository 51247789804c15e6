"""Animation authoring through the real window (offscreen): box-select keys in the
dope sheet, drag them 5 frames, undo, paste at another frame, change their
interpolation, drag a handle in the curve editor; the project changes exactly as
intended, one undo step per gesture. Also the animation list."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from rigeditor.app.graph.geometry import drawn
from rigeditor.model.data import clips
from rigeditor.examples.rigs import walk

from test_first_hour import make_window, settle
from test_timeline import click, drag

FOOT = ("target", "foot_l", "position")  # walk: keys at 0, 8, 14, 20, 48


def _past_double_click():
    QTest.qWait(QApplication.doubleClickInterval() + 50)


def _keys(project, path=FOOT):
    return {k.frame: k for k in clips.channel(project, path).keys}


@pytest.fixture
def window(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path, walk())
    w.resize(1500, 950)
    settle()
    yield w, doc
    doc.undo_stack.clear()


def test_dope_sheet_box_select_drag_undo_paste_interpolation(window, qtbot):
    w, doc = window
    tl = w.timeline
    original = doc.project
    row = [t.path for t in tl.tracks()].index(FOOT)
    view = tl.plot.viewport()

    # Box-select the keys at 8, 14 and 20 by dragging over empty rows around them.
    drag(view, tl._to_viewport(tl.track_view, 6.5, row - 0.4), tl._to_viewport(tl.track_view, 21.5, row + 0.4))
    assert tl.selected_keys() == {FOOT: (8, 14, 20)}

    # Drag them 5 frames later: one undo step; the keys keep their values and handles.
    a, b = tl.key_point(FOOT, 14), tl.ruler_point(19)
    drag(view, a, QPointF(b.x(), a.y()))
    before, after = _keys(original), _keys(doc.project)
    assert sorted(after) == [0, 13, 19, 25, 48]
    assert all(after[f + 5] == replace(before[f], frame=f + 5) for f in (8, 14, 20))
    assert doc.undo_stack.undoText().startswith("Move") or doc.undo_stack.undoText().startswith("Retime")
    others = [t for t in original.targets if t.name != "foot_l"]
    assert [t for t in doc.project.targets if t.name != "foot_l"] == others
    doc.undo_stack.undo()
    assert doc.project == original

    # Copy, then paste at frame 30: the first copied key lands on the playhead.
    tl.select_keys([(FOOT, 8), (FOOT, 14), (FOOT, 20)])
    tl.copy_action.trigger()
    doc.set_frame(30)
    tl.paste_action.trigger()
    pasted = _keys(doc.project)
    assert sorted(pasted) == [0, 8, 14, 20, 30, 36, 42, 48]
    assert all(pasted[f + 22].value == before[f].value for f in (8, 14, 20))
    assert doc.undo_stack.undoText() == "Paste 3 keys at frame 30"

    # The pasted keys are selected; T makes them constant (from linear), one step.
    assert tl.selected_keys() == {FOOT: (30, 36, 42)}
    tl.cycle_action.trigger()
    cycled = _keys(doc.project)
    assert [cycled[f].interp for f in (30, 36, 42)] == ["bezier"] * 3
    assert [cycled[f].interp for f in (0, 8, 14, 20)] == [pasted[f].interp for f in (0, 8, 14, 20)]
    tl.set_interpolation("constant")
    assert doc.project.target("foot_l").position.sample([33.0])[0].tolist() == list(pasted[30].value)


def test_curve_editor_drag_a_key_and_an_aligned_handle(window, qtbot):
    w, doc = window
    g = w.graph
    doc.select([("target", "foot_l")])
    settle()
    x_comp, y_comp = g.components
    assert (x_comp.path, x_comp.d, y_comp.d) == (FOOT, 0, 1)
    doc.apply("bezier", doc.project.with_target("foot_l", position=replace(
        doc.project.target("foot_l").position,
        keys=tuple(replace(k, interp="bezier") for k in doc.project.target("foot_l").position.keys))))
    g.frame_selection()
    settle()
    view = g.plot.viewport()

    # Click the key at frame 14 (x), then drag it 3 frames later and 10 units up.
    click(view, g.key_point(x_comp, 14))
    assert g.selected == {(x_comp, 14)}
    before = doc.project
    _past_double_click()
    start = g.key_point(x_comp, 14)
    end = g._to_viewport(17, before.target("foot_l").position.value_at(14)[0] + 10.0)
    drag(view, start, end)
    moved = _keys(doc.project)
    assert 14 not in moved and 17 in moved
    assert moved[17].value[0] == pytest.approx(before.target("foot_l").position.value_at(14)[0] + 10.0, abs=0.5)
    assert moved[17].value[1] == before.target("foot_l").position.value_at(14)[1]  # y untouched
    doc.undo_stack.undo()
    assert doc.project == before

    # Drag the out handle of the key at 14: the in handle turns opposite (aligned).
    click(view, g.key_point(x_comp, 14))
    assert g.selected == {(x_comp, 14)}
    value14 = before.target("foot_l").position.value_at(14)
    _past_double_click()  # a press right after a click is a double click to pyqtgraph
    # Where the automatic handle is drawn: a third of the 6-frame segment along its slope.
    hx, hy = drawn(before.target("foot_l").position, x_comp).handles[2, 1]
    assert hx == 16.0
    drag(view, g.handle_point(x_comp, 14, "out"), g._to_viewport(hx + 1.0, hy + 12.0))
    key = _keys(doc.project)[14]
    out_h, in_h = key.out_handle, key.in_handle
    px, py = g.view.viewPixelSize()
    assert out_h[0] == pytest.approx(3.0, abs=1.5 * px)
    assert out_h[1] == pytest.approx(hy + 12.0 - value14[0], abs=1.5 * py)
    assert in_h[0] < 0
    # Opposite directions in (frame, value): slopes equal, so the curve is smooth there.
    assert out_h[1] / out_h[0] == pytest.approx(in_h[1] / in_h[0], rel=1e-9)
    assert doc.undo_stack.undoText().startswith("Drag out handle")
    doc.undo_stack.undo()
    assert _keys(doc.project)[14] == _keys(before)[14]


def test_animation_list_opens_adds_duplicates_renames_and_deletes(window):
    w, doc = window
    bar = w.timeline.animations
    assert [bar.combo.itemText(i) for i in range(bar.combo.count())] == ["animation"]
    bar.duplicate_animation("animation", "walk_b")
    assert clips.names(doc.project) == ["animation", "walk_b"] and doc.project.animation == "walk_b"
    bar.add_animation("idle")
    assert doc.project.animation == "idle" and not doc.project.target("foot_l").position.keys
    assert bar.combo.currentText() == "idle"
    bar.rename_animation("idle", "rest")
    bar.open_animation("animation")
    assert doc.project.target("foot_l").position.keys  # the walk's keys are back
    bar.delete_animation("walk_b")
    assert clips.names(doc.project) == ["animation", "rest"]
    for _ in range(5):
        doc.undo_stack.undo()
    assert clips.names(doc.project) == ["animation"] and doc.project.animation == "animation"
    assert doc.project == walk()


def test_auto_key_off_a_drag_previews_the_pose_unkeyed_until_k(window, qtbot):
    from PySide6.QtCore import QPoint

    from test_first_hour import drag as scene_drag, px

    w, doc = window
    view, tl = w.scene, w.timeline
    tl.auto_key_action.trigger()
    assert doc.auto_key is False
    doc.set_frame(30)
    settle()
    keyed, steps = doc.project, doc.undo_stack.count()
    foot = doc.bake.chains["leg_l"].target_world[doc.row].copy()
    handle = view.ctx.state.handle[view.ctx.state.targets.index("foot_l")]
    scene_drag(view.viewport(), px(view, handle), px(view, handle) + QPoint(40, -30))
    # The pose moved, nothing was keyed, and the timeline says so.
    assert doc.unkeyed and tl.unkeyed_label.isVisible()
    assert doc.undo_stack.count() == steps
    assert not np.allclose(doc.settled_bake().chains["leg_l"].target_world[doc.row], foot)
    # K keys what is shown, as one step that undoes to the keyed project.
    doc.select([("target", "foot_l")])
    tl.key_action.trigger()
    assert not doc.unkeyed and not tl.unkeyed_label.isVisible()
    assert 30 in _keys(doc.project) and 30 not in _keys(keyed)
    doc.undo_stack.undo()
    assert doc.project == keyed
    # Another preview is dropped by going to another frame.
    scene_drag(view.viewport(), px(view, handle), px(view, handle) + QPoint(-30, 20))
    assert doc.unkeyed
    doc.set_frame(31)
    assert not doc.unkeyed and doc.project == keyed


def test_pose_tools_and_onion_settings_from_the_window(window):
    w, doc = window
    doc.set_frame(10)
    doc.select([("bone", "spine")])
    spine = doc.project.bone("spine").rotation.value_at(10)
    w.pose.copy_action.trigger()
    doc.set_frame(40)
    w.pose.paste_action.trigger()
    assert doc.project.bone("spine").rotation.value_at(40) == spine
    assert doc.undo_stack.undoText() == "Paste pose at frame 40"
    w.pose.reset_action.trigger()
    assert doc.project.bone("spine").rotation.value_at(40) == (0.0,)
    # Onion skin: 2 ghosts before, 1 after, 3 frames apart, drawn by the scene.
    w.set_overlay("onion", True) if hasattr(w, "set_overlay") else w.scene.set_overlay("onion", True)
    w.timeline.set_onion(2, 1, 3)
    settle()
    assert [off for off, _, _ in w.scene.ctx.state.onion] == [-6, -3, 3]


def test_the_inspector_keys_a_bone_s_translate_and_scale(window):
    w, doc = window
    doc.set_mode("animate")
    doc.set_frame(12)
    doc.select([("bone", "spine")])
    settle()
    widget = w.inspector.field("bone.spine.scale.x")
    widget.setValue(0.8)
    settle()
    assert doc.project.bone("spine").scale.value_at(12) == (0.8, 1.0)
    assert doc.undo_stack.undoText() == "Key scale of spine"
    # The spine's frame is squashed along it: the head's origin (at the spine's tip) comes 20 % nearer.
    bake = doc.settled_bake()
    k, h = bake.column("spine"), bake.column("head")
    ox, oy = doc.project.bone("head").rest_offset
    assert ox > 0
    np.testing.assert_allclose(np.linalg.norm(bake.joint_world[doc.row, h] - bake.joint_world[doc.row, k]),
                               np.hypot(ox * 0.8, oy), atol=1e-9)


def test_the_curve_editor_shows_a_scene_drag_when_it_ends(window):
    from PySide6.QtCore import QPoint

    from test_first_hour import drag as scene_drag, px

    w, doc = window
    doc.select([("target", "foot_l")])
    doc.set_frame(30)
    settle()
    g, view = w.graph, w.scene
    before = g._items[g.components[0]][0].getData()[1].copy()
    handle = view.ctx.state.handle[view.ctx.state.targets.index("foot_l")]
    scene_drag(view.viewport(), px(view, handle), px(view, handle) + QPoint(60, 0))
    after = g._items[g.components[0]][0].getData()[1]
    # Keyed at frame 30 by the drag: the x curve shows the new key once the drag is over.
    assert 30 in _keys(doc.project) and not np.array_equal(before, after)


def test_scaling_the_selected_keys_about_the_playhead_is_one_step(window):
    w, doc = window
    tl = w.timeline
    original = doc.project
    tl.select_keys([(FOOT, 8), (FOOT, 14), (FOOT, 20)])
    doc.set_frame(8)
    tl.scale_selected_keys(1.5)
    keys = _keys(doc.project)
    assert sorted(keys) == [0, 8, 17, 26, 48]  # 8 + 6 x 1.5, 8 + 12 x 1.5
    assert keys[17].value == _keys(original)[14].value
    assert tl.selected_keys() == {FOOT: (8, 17, 26)}
    doc.undo_stack.undo()
    assert doc.project == original
