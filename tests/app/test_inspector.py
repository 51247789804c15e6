"""The inspector (pytest-qt, offscreen): edits go through the undo stack, merge per
field, key in Animate mode, and the read-outs tell the truth about the solve."""
from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import Qt

from rigeditor.app import commands
from rigeditor.app.document import Document
from rigeditor.app.inspector import KEEP_WORLD, REDECLARE, Inspector, SpinField
from rigeditor.model.examples import arm, walk
from rigeditor.model.validate import problems


class FakeDialogs:
    """Scripted answers; records every question."""

    def __init__(self, **answers):
        self.answers = answers
        self.calls = []

    def _answer(self, name, default, *args):
        self.calls.append((name, args))
        return self.answers.get(name, default)

    def error(self, parent, title, message):
        self._answer("error", None, title, message)

    def info(self, parent, title, message):
        self._answer("info", None, title, message)

    def confirm(self, parent, title, message):
        return self._answer("confirm", True, title, message)

    def ask_save_changes(self, parent, name):
        return self._answer("ask_save_changes", "discard", name)

    def choose(self, parent, title, message, options):
        return self._answer("choose", options[0], title, message, options)

    def open_file(self, parent, *args):
        return self._answer("open_file", None, *args)

    def save_file(self, parent, *args):
        return self._answer("save_file", None, *args)

    def pick(self, parent, title, label, items, current=0):
        return self._answer("pick", items[current], title, label, items)

    def form(self, parent, title, fields):
        return self._answer("form", {k: d for k, _, d, _ in fields}, title, fields)


def make(qtbot, project=None, **answers):
    doc = Document(project or arm())
    dialogs = FakeDialogs(**answers)
    w = Inspector(doc, dialogs)
    qtbot.addWidget(w)
    w.resize(360, 900)
    return doc, w, dialogs


def side_of_line(a, b, p):
    """Sign of p relative to the line a -> b (+1 left, -1 right)."""
    return np.sign((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]))


def test_flip_elbow_mirrors_pose_keeps_end_and_undo_restores(qtbot):
    doc, w, _ = make(qtbot)
    doc.set_frame(0)  # target (200, 60): inside reach
    doc.select([("chain", "arm")])
    cb = doc.bake.chains["arm"]
    i = doc.row
    shoulder, target = cb.shoulder_world[i].copy(), cb.target_world[i].copy()
    elbow, end = cb.elbow_world[i].copy(), cb.end_world[i].copy()
    before = side_of_line(shoulder, target, elbow)
    assert before != 0

    qtbot.mouseClick(w.field("chain.arm.flip"), Qt.LeftButton)
    cb = doc.bake.chains["arm"]
    assert side_of_line(shoulder, target, cb.elbow_world[i]) == -before
    assert np.allclose(cb.end_world[i], end, atol=1e-9)
    assert np.allclose(cb.shoulder_world[i], shoulder)
    assert doc.project.chain("arm").bend.default == (-1.0,)
    assert "−1" in w.field("chain.arm.bend").text()
    assert doc.undo_stack.undoText() == "Flip elbow of arm"

    doc.undo_stack.undo()
    cb = doc.bake.chains["arm"]
    assert np.allclose(cb.elbow_world[i], elbow)
    assert doc.project == arm()


def test_flip_elbow_in_animate_keys_a_keyed_bend_stepped(qtbot):
    from rigeditor.app import tracks

    p = tracks.set_key(arm(), ("chain", "arm", "bend"), 0, 1.0)
    doc, w, _ = make(qtbot, p)
    doc.set_mode("animate")
    doc.select([("chain", "arm")])
    doc.set_frame(30)
    w.flip_elbow("arm")
    bend = doc.project.chain("arm").bend
    assert [(k.frame, k.value[0], k.interp) for k in bend.keys] == [(0, 1.0, "constant"), (30, -1.0, "constant")]
    assert doc.bake.chains["arm"].bend[doc.bake.index(29)] == 1.0
    assert doc.bake.chains["arm"].bend[doc.row] == -1.0


def test_field_edits_merge_into_one_undo_step(qtbot):
    doc, w, _ = make(qtbot)
    doc.select([("chain", "arm")])
    soft = w.field("chain.arm.softness")
    for v in (2.0, 4.0, 6.5):
        soft.setValue(v)
    assert doc.undo_stack.count() == 1
    assert doc.project.chain("arm").softness.default == pytest.approx((0.065,))
    assert problems(doc.project) == []
    # A different field is a new step.
    w.field("chain.arm.mix").setValue(0.5)
    assert doc.undo_stack.count() == 2
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.project == arm()
    assert soft.value() == 0.0  # the field follows undo


def test_spin_fields_never_emit_nan_or_inf(qtbot):
    got = []
    s = SpinField(-10.0, 10.0)
    qtbot.addWidget(s)
    s.edited.connect(got.append)
    for v in (float("nan"), float("inf"), -float("inf"), 3.0):
        s.setValue(v)
        s.set_model(v)
    assert got and all(math.isfinite(v) for v in got)
    assert math.isfinite(s.value())


def test_space_switch_keep_world_position_keeps_target_in_place(qtbot):
    p, _ = commands.add_space(arm(), name="cup", position=(80.0, -40.0), rotation=0.7, scale=(1.5, 1.5))
    doc, w, dialogs = make(qtbot, p, choose=KEEP_WORLD)
    doc.set_frame(18)
    doc.select([("target", "hand")])
    world_before = doc.bake.chains["arm"].target_world[doc.row].copy()
    combo = w.field("target.hand.space")
    combo.setCurrentIndex(combo.findData("cup"))
    assert dialogs.calls[-1][0] == "choose"
    t = doc.project.target("hand")
    assert t.space.value_at(18) == "cup" and t.space.value_at(17) == "world"
    assert np.allclose(doc.bake.chains["arm"].target_world[doc.row], world_before, atol=1e-9)
    assert problems(doc.project) == []
    assert doc.undo_stack.count() == 1
    # The position field now shows the numbers in the cup's space.
    local = doc.project.target("hand").position.value_at(18)
    assert w.field("target.hand.position.x").value() == pytest.approx(local[0], abs=0.01)


def test_space_redeclare_keeps_numbers(qtbot):
    p, _ = commands.add_space(arm(), name="cup", position=(80.0, -40.0))
    doc, w, _ = make(qtbot, p, choose=REDECLARE)
    doc.set_frame(18)
    doc.select([("target", "hand")])
    before = doc.project.target("hand").position
    w.change_target_space("hand", "cup")
    assert doc.project.target("hand").position == before
    assert doc.project.target("hand").space.default == "cup"


def test_target_position_edit_keys_in_animate_mode(qtbot):
    doc, w, _ = make(qtbot)
    doc.set_mode("animate")
    doc.set_frame(30)
    doc.select([("target", "hand")])
    w.field("target.hand.position.x").setValue(111.0)
    keys = {k.frame: k.value for k in doc.project.target("hand").position.keys}
    assert 30 in keys and keys[30][0] == pytest.approx(111.0)
    assert doc.bake.chains["arm"].target_declared[doc.row][0] == pytest.approx(111.0)


def test_chain_settings_limits_strategy_smoothing(qtbot):
    doc, w, _ = make(qtbot)
    doc.select([("chain", "arm")])
    w.field("chain.arm.limit1.on").setChecked(True)
    w.field("chain.arm.limit1.min").setValue(10.0)
    w.field("chain.arm.limit1.max").setValue(120.0)
    lim = doc.project.chain("arm").limit(1)
    assert lim == pytest.approx((math.radians(10), math.radians(120)))
    combo = w.field("chain.arm.strategy")
    combo.setCurrentIndex(combo.findData("stretch"))
    assert doc.project.chain("arm").strategy.kind == "stretch"
    assert w.field("chain.arm.max_stretch").isEnabled()
    w.field("chain.arm.max_stretch").setValue(8.0)
    assert doc.project.chain("arm").strategy.max_stretch == pytest.approx(0.08)
    combo = w.field("chain.arm.smoothing")
    combo.setCurrentIndex(combo.findData("one_euro"))
    w.field("chain.arm.beta").setValue(0.02)
    sm = doc.project.chain("arm").smoothing
    assert (sm.kind, sm.beta) == ("one_euro", pytest.approx(0.02))
    assert problems(doc.project) == []


def test_readouts_show_residual_cause_and_reach(qtbot):
    doc, w, _ = make(qtbot)
    doc.select([("chain", "arm")])
    doc.set_frame(24)  # target (300, 0): 25 beyond full reach
    assert "25.000" in w.field("readout.residual").text()
    assert "out of reach" in w.field("readout.residual").text()
    assert w.field("readout.reach").text() == "out of reach"
    doc.set_frame(0)
    assert w.field("readout.reach").text() == "in reach"
    assert "on target" in w.field("readout.residual").text()


def test_rest_pose_fields_follow_the_mode(qtbot):
    doc, w, _ = make(qtbot, walk())
    doc.select([("bone", "head")])
    doc.set_mode("animate")
    assert not w.field("bone.head.rest_rotation").isEnabled()
    assert w.field("bone.head.rotation").isEnabled()
    doc.set_mode("setup")
    rest = w.field("bone.head.rest_rotation")
    assert rest.isEnabled()
    rest.setValue(15.0)
    assert doc.project.bone("head").rest_rotation == pytest.approx(math.radians(15))
    w.field("bone.head.length").setValue(25.0)
    assert doc.project.bone("head").length == 25.0


def test_rename_in_inspector_updates_references_and_selection(qtbot):
    doc, w, _ = make(qtbot)
    doc.select([("bone", "upper_arm")])
    edit = w.field("bone.upper_arm.name")
    edit.setText("humerus")
    edit.editingFinished.emit()
    assert doc.project.chain("arm").bones == ("humerus", "forearm")
    assert doc.selection == (("bone", "humerus"),)
    assert "bone.humerus.name" in w.field_names()


def test_project_fps_and_range(qtbot):
    doc, w, _ = make(qtbot)
    w.field("project.fps").setValue(30.0)
    w.field("project.end").setValue(60)
    assert doc.project.timeline.fps == 30.0 and doc.project.timeline.end == 60
    w.field("project.end").setValue(-5)  # before the start: refused
    assert doc.project.timeline.end == 60
