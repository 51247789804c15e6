"""The inspector (pytest-qt, offscreen): edits go through the undo stack, merge per
field, key in Animate mode, and the read-outs tell the truth about the solve."""
from __future__ import annotations

import math

import numpy as np
import pytest
from PySide6.QtCore import Qt

from fakes import FakeDialogs
from rigeditor import edits
from rigeditor.app.document import Document
from rigeditor.app.inspector import KEEP_WORLD, REDECLARE, Inspector, SpinField
from rigeditor.model import CAUSES
from rigeditor.examples.rigs import arm, walk
from rigeditor.model.data.timeline import constant
from rigeditor.model.validation.project import problems


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
    from rigeditor.edits import tracks

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
    p, _ = edits.add_space(arm(), name="cup", position=(80.0, -40.0), rotation=0.7, scale=(1.5, 1.5))
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
    p, _ = edits.add_space(arm(), name="cup", position=(80.0, -40.0))
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
    assert w.field("readout.limits").text() == "none set"
    assert w.field("readout.converged").text() == "yes"


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


def test_a_range_whose_end_is_edited_no_longer_ends_between_frames(qtbot):
    """An imported animation ending between frames (140.001 of 0..141) exports that
    exact end; once its end is edited in the inspector it ends on the frame chosen,
    even when the end is set back to 141 (the animator chose the whole frame)."""
    from dataclasses import replace

    from rigeditor.model.data.duration import exact_end

    p = walk()
    p = replace(p, timeline=replace(p.timeline, start=0, end=141, exact_end=140.001))
    doc, w, _ = make(qtbot, p)
    assert exact_end(doc.project.timeline) == pytest.approx(140.001)
    w.field("project.start").setValue(5)  # the start alone keeps the end
    assert exact_end(doc.project.timeline) == pytest.approx(140.001)
    w.field("project.end").setValue(150)
    w.field("project.end").setValue(141)
    assert doc.project.timeline.end == 141 and exact_end(doc.project.timeline) is None
    doc.undo_stack.undo()
    doc.undo_stack.undo()  # undone, the exact end is back
    assert exact_end(doc.project.timeline) == pytest.approx(140.001)


# ----------------------------------------------------------------------------- longer chains

def three_bone_chain(solver=None):
    """walk() with neck_top -> beak -> crest on the head, made a chain (FABRIK by default)."""
    p, _ = edits.add_bone(walk(), "head", 30.0, 0.3, name="neck_top")
    p, _ = edits.add_bone(p, "neck_top", 25.0, -0.5, name="beak")
    p, _ = edits.add_bone(p, "beak", 20.0, -0.4, name="crest")
    p, chain = edits.add_chain(p, ("beak", "crest", "neck_top"), "world", 10, solver=solver)
    assert problems(p) == []
    return p, chain


def combo_items(combo):
    return [combo.itemData(i) for i in range(combo.count())]


def test_switching_a_three_bone_chain_to_ccd_is_one_undo_step(qtbot):
    p, chain = three_bone_chain()
    doc, w, _ = make(qtbot, p)
    doc.select([("chain", chain)])
    combo = w.field(f"chain.{chain}.solver")
    assert combo.currentData() == "fabrik"
    assert combo_items(combo) == ["fabrik", "ccd"]  # analytic drives two bones only
    before = doc.undo_stack.count()
    combo.setCurrentIndex(combo.findData("ccd"))
    assert doc.project.chain(chain).solver == "ccd"
    assert doc.undo_stack.count() == before + 1
    assert problems(doc.project) == []
    assert np.all(doc.bake.chains[chain].converged)
    # The rebuilt inspector shows the new solver; undo brings FABRIK back, and the field follows.
    assert w.field(f"chain.{chain}.solver").currentData() == "ccd"
    doc.undo_stack.undo()
    assert doc.project == p
    assert w.field(f"chain.{chain}.solver").currentData() == "fabrik"


def test_tolerance_and_iteration_budget_edits_merge_one_step_each(qtbot):
    p, chain = three_bone_chain()
    doc, w, _ = make(qtbot, p)
    doc.select([("chain", chain)])
    tol, its = w.field(f"chain.{chain}.tolerance"), w.field(f"chain.{chain}.max_iterations")
    assert tol.suffix() == " u" and tol.value() == pytest.approx(p.chain(chain).tolerance)
    for v in (0.01, 0.02, 0.05):
        tol.setValue(v)
    assert doc.undo_stack.count() == 1
    for v in (8, 16, 3):
        its.setValue(v)
    assert doc.undo_stack.count() == 2
    c = doc.project.chain(chain)
    assert c.tolerance == pytest.approx(0.05) and c.max_iterations == 3 and type(c.max_iterations) is int
    assert problems(doc.project) == []
    # The read-out counts against the new budget.
    assert w.field("readout.iterations").text().endswith("/ 3")
    doc.undo_stack.undo()
    assert doc.project.chain(chain).max_iterations == p.chain(chain).max_iterations
    assert its.value() == p.chain(chain).max_iterations
    doc.undo_stack.undo()
    assert doc.project == p


def test_every_joint_of_a_long_chain_has_limits_in_degrees(qtbot):
    p, chain = three_bone_chain()
    doc, w, _ = make(qtbot, p)
    doc.select([("chain", chain)])
    for i in range(3):
        assert not w.field(f"chain.{chain}.limit{i}.min").isEnabled()
    w.field(f"chain.{chain}.limit2.on").setChecked(True)
    w.field(f"chain.{chain}.limit2.min").setValue(-20.0)
    w.field(f"chain.{chain}.limit2.max").setValue(35.0)
    assert doc.project.chain(chain).limits == (None, None, pytest.approx((math.radians(-20), math.radians(35))))
    # The first joint's default limit is a full turn centred on its rest rotation.
    w.field(f"chain.{chain}.limit0.on").setChecked(True)
    rest = doc.project.bone("neck_top").rest_rotation
    assert doc.project.chain(chain).limit(0) == pytest.approx((rest - math.pi, rest + math.pi))
    assert problems(doc.project) == []
    assert np.all(doc.bake.chains[chain].converged)


def test_two_bone_chain_offers_analytic_and_iterative_chains_have_no_bend(qtbot):
    doc, w, _ = make(qtbot)
    doc.select([("chain", "arm")])
    combo = w.field("chain.arm.solver")
    assert combo_items(combo) == ["analytic", "fabrik", "ccd"]
    assert "chain.arm.flip" in w.field_names() and "chain.arm.tolerance" not in w.field_names()
    assert "readout.iterations" not in w.field_names()  # analytic: one exact solve
    combo.setCurrentIndex(combo.findData("fabrik"))
    assert doc.project.chain("arm").solver == "fabrik"
    names = w.field_names()
    assert "chain.arm.flip" not in names and "chain.arm.bend" not in names
    assert {"chain.arm.tolerance", "chain.arm.max_iterations", "readout.iterations"} <= set(names)
    assert problems(doc.project) == []


def test_tail_example_shows_iterations_converged_and_its_wide_limits(qtbot):
    from rigeditor.examples.rigs import tail

    doc, w, _ = make(qtbot, tail())
    doc.select([("chain", "tail")])
    assert w.field("chain.tail.solver").currentData() == "fabrik"
    cb = doc.bake.chains["tail"]
    for frame in (0, 13, 30):
        doc.set_frame(frame)
        i = doc.row
        assert w.field("readout.iterations").text() == f"{int(cb.iterations[i])} / 64"
        expected = "yes" if bool(cb.converged[i]) and CAUSES[int(cb.cause[i])] != "budget" else "no"
        assert w.field("readout.converged").text().startswith(expected)
        assert f"{cb.residual[i]:.3f} u" in w.field("readout.residual").text()
    # Ten rows of limits; the base's 110°..250° is shown whole (not clipped at 180°).
    for i in range(10):
        assert w.field(f"chain.tail.limit{i}.on").isChecked()
    assert w.field("chain.tail.limit0.max").value() == pytest.approx(250.0)
    assert w.field("chain.tail.limit0.min").value() == pytest.approx(110.0)
    assert w.field("chain.tail.tolerance").value() == pytest.approx(0.05)


def test_limits_readout_names_the_joints_on_a_limit(qtbot):
    from rigeditor.app.inspector import joints_at_limit
    from rigeditor.examples.rigs import tail

    doc, w, _ = make(qtbot, tail())
    doc.select([("chain", "tail")])
    c = doc.project.chain("tail")
    seen_bound = False
    for frame in range(0, 49, 4):
        doc.set_frame(frame)
        bound = joints_at_limit(doc, "tail")
        for k, bone in enumerate(c.bones):
            angle = doc.bake.local_rotation[doc.row, doc.bake.column(bone)]
            lo, hi = c.limit(k)
            assert (bone in bound) == (min(abs(angle - lo), abs(angle - hi)) <= 1e-6)
        text = w.field("readout.limits").text()
        assert text == ("at limit: " + ", ".join(bound) if bound else "free")
        seen_bound |= bool(bound)
    assert seen_bound  # the tail does lean on its limits somewhere


def test_a_rebuild_of_the_same_selection_keeps_the_scroll_position(qtbot):
    doc, w, _ = make(qtbot)
    w.resize(360, 300)
    w.show()
    doc.select([("chain", "arm")])
    qtbot.wait(10)
    bar = w._scroll.verticalScrollBar()
    assert bar.maximum() > 200
    bar.setValue(200)
    combo = w.field("chain.arm.solver")
    combo.setCurrentIndex(combo.findData("ccd"))  # a structural change: the sections are rebuilt
    assert w.field("chain.arm.solver") is not combo
    qtbot.waitUntil(lambda: bar.value() == 200)
    doc.select([("target", "hand")])  # something else: from the top
    qtbot.wait(10)
    assert bar.value() == 0


def test_a_chains_soft_reach_is_one_undo_step_and_moves_the_hand(qtbot):
    soft = arm().with_chain("arm", softness=constant(0.1))
    doc, w, _ = make(qtbot, soft)
    doc.select([("chain", "arm")])
    before, steps = doc.settled_bake().chains["arm"].end_world.copy(), doc.undo_stack.count()
    combo = w.field("chain.arm.soft_reach")
    assert combo.currentData() == "exponential"
    combo.setCurrentIndex(combo.findData("quadratic"))
    assert doc.project.chain("arm").soft_reach == "quadratic" and doc.undo_stack.count() == steps + 1
    # Frame 24 pulls the hand beyond full reach: Spine's ease reaches the limb's full
    # length there, RigEditor's stays short of it, so the hand moves.
    after = doc.settled_bake().chains["arm"].end_world
    assert np.abs(after - before).max() > 1.0
    doc.undo_stack.undo()
    assert doc.project.chain("arm").soft_reach == "exponential"


def test_a_spine_softness_beyond_half_the_chain_shows_whole(qtbot):
    # Spine's (quadratic) softness may exceed the chain: 1.5 chains reads 150 %, not the
    # 50 % an exponential one stops at, and an edit past 50 % is kept.
    p = arm().with_chain("arm", soft_reach="quadratic", softness=constant(1.5))
    assert problems(p) == []
    doc, w, _ = make(qtbot, p)
    doc.select([("chain", "arm")])
    soft = w.field("chain.arm.softness")
    assert soft.value() == pytest.approx(150.0)
    soft.setValue(220.0)
    assert doc.project.chain("arm").softness.default == pytest.approx((2.2,))
    doc.select([])
    doc.select([("chain", "arm")])
    assert w.field("chain.arm.softness").value() == pytest.approx(220.0)
