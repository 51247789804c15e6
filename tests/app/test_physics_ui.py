"""Physics constraints in the editor (pytest-qt, offscreen): listed in the outliner,
every setting edited in the inspector as one undo step, keys and reset keys in Animate
mode, and the frames shown are the stepped result of the whole range."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from fakes import FakeDialogs
from rigeditor import edits
from rigeditor.app.document import Document
from rigeditor.app.inspector import Inspector
from rigeditor.app.outliner import Outliner
from rigeditor.examples.rigs import arm
from rigeditor.model.data.project import Bone
from rigeditor.model.evaluation.evaluate import evaluate


def rig():
    """The arm with a three-bone antenna on the forearm, each bone swaying."""
    p = arm()
    antenna = (Bone("ant_0", "forearm", 20.0, (40.0, 0.0), 1.2), Bone("ant_1", "ant_0", 20.0, (20.0, 0.0)),
               Bone("ant_2", "ant_1", 20.0, (20.0, 0.0)))
    p = replace(p, bones=p.bones + antenna)
    for i in range(3):
        p = edits.add_physics(p, f"ant_{i}", name=f"sway_{i}")
    return edits.set_physics_value(p, "sway_0", "damping", 0.9)


def world_angle(bake, bone, row):
    w = bake.bone_bakes[bake.bones.index(bone)].world
    return float(np.arctan2(np.broadcast_to(w.c, bake.frames.shape)[row], np.broadcast_to(w.a, bake.frames.shape)[row]))


def test_the_outliner_lists_physics_constraints_in_their_order_and_selects_them(qtbot):
    doc = Document(edits.set_physics(rig(), "sway_0", order=9))
    w = Outliner(doc, FakeDialogs())
    qtbot.addWidget(w)
    group = w.group("physics")
    assert [group.child(i).text(0) for i in range(group.childCount())] == ["sway_1", "sway_2", "sway_0"]
    w.item_for("physics", "sway_1").setSelected(True)
    assert doc.selection == (("physics", "sway_1"),)
    assert "ant_1 sways (rotate)" in w.item_for("physics", "sway_1").toolTip(0)


def test_each_setting_is_one_undo_step(qtbot):
    doc = Document(rig())
    doc.set_mode("setup")
    w = Inspector(doc, FakeDialogs())
    qtbot.addWidget(w)
    doc.select([("physics", "sway_1")])
    before = doc.project
    w.field("physics.sway_1.x").edited.emit(0.5)
    w.field("physics.sway_1.x").edited.emit(0.25)  # the same field again: merged
    assert doc.project.physics_constraint("sway_1").x == 0.25
    w.field("physics.sway_1.step").edited.emit(120.0)
    shared = w.field("physics.sway_1.wind_global")
    shared.setCurrentIndex(shared.findData(True))
    w.field("physics.sway_1.strength").edited.emit(250.0)  # Setup mode: the setup value
    c = doc.project.physics_constraint("sway_1")
    assert (c.step, c.wind_global, c.strength.default, c.strength.keys) == (120.0, True, (250.0,), ())
    for _ in range(4):
        doc.undo_stack.undo()
    assert doc.project == before


def test_a_bad_value_is_refused_and_changes_nothing(qtbot):
    dialogs = FakeDialogs()
    doc = Document(rig())
    w = Inspector(doc, dialogs)
    qtbot.addWidget(w)
    doc.select([("physics", "sway_1")])
    before = doc.project
    w.field("physics.sway_1.inertia").edited.emit(3.0)  # outside 0..1
    assert doc.project == before
    assert dialogs.asked("error") and "inertia" in dialogs.asked("error")[-1][1]


def test_animate_mode_keys_and_resets_and_shows_the_stepped_range(qtbot):
    doc = Document(rig())
    w = Inspector(doc, FakeDialogs())
    qtbot.addWidget(w)
    doc.set_mode("animate")
    doc.select([("physics", "sway_0")])
    doc.set_frame(10)
    w.field("physics.sway_0.strength").edited.emit(20.0)
    assert [k.frame for k in doc.project.physics_constraint("sway_0").strength.keys] == [10]
    doc.set_frame(20)
    w.field("physics.sway_0.reset").click()
    assert [k.frame for k in doc.project.physics_constraint("sway_0").reset.keys] == [20]
    expected = evaluate(doc.shown_project)
    still = evaluate(replace(doc.shown_project, physics=()))
    for frame in (5, 19, 20, 33):
        doc.set_frame(frame)  # scrubbing: the row of the whole range, stepped from the start
        row = int(np.flatnonzero(doc.bake.frames == frame)[0])
        assert world_angle(doc.bake, "ant_2", row) == pytest.approx(world_angle(expected, "ant_2", frame), abs=1e-12)
    # the antenna lags the arm (its pose differs from the pose without physics), and
    # starts from rest at the reset key
    assert abs(world_angle(expected, "ant_2", 19) - world_angle(still, "ant_2", 19)) > 1e-3
    assert world_angle(expected, "ant_0", 20) == pytest.approx(world_angle(still, "ant_0", 20), abs=1e-9)
