"""Transform constraints in evaluate(): each mode against poses worked out by hand."""
import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rigeditor import edits
from rigeditor.model.data.project import Bone, Project, Timeline
from rigeditor.model.data.timeline import Channel, Key, constant
from rigeditor.model.evaluation.evaluate import evaluate


def world(bake, name):
    w = bake.bone_bakes[bake.bones.index(name)].world
    return np.array([np.broadcast_to(v, bake.frames.shape) for v in (w.a, w.b, w.c, w.d, w.tx, w.ty)]).T


def rig(arm_turn=0.3, lamp_turn=1.1, lamp_at=(-3.0, 4.0), lamp_scale=(1.0, 1.0)) -> Project:
    """hip (root, turned 0.2) -> arm (at the hip's tip) -> hand; a lamp elsewhere."""
    bones = (Bone("hip", None, 2.0, (1.0, 0.5), 0.2), Bone("arm", "hip", 1.5, (2.0, 0.0), arm_turn),
             Bone("hand", "arm", 1.0, (1.5, 0.0), 0.0),
             Bone("lamp", None, 1.0, lamp_at, lamp_turn, scale=constant(*lamp_scale)))
    return Project(timeline=Timeline(24.0, 0, 4), bones=bones)


def constrained(project, **settings):
    return edits.add_transform(project, ["arm"], "lamp", name="tc", **settings)


def mixes(project, **values):
    for mix, v in values.items():
        project = edits.set_mix(project, "tc", mix, v)
    return project


def test_world_absolute_with_full_mixes_puts_the_bone_on_its_target():
    bake = evaluate(constrained(rig(lamp_scale=(1.5, 0.5))))
    assert world(bake, "arm") == pytest.approx(world(bake, "lamp"), abs=1e-12)


def test_its_children_follow_the_constrained_frame():
    bake = evaluate(constrained(rig()))
    arm, hand = world(bake, "arm")[0], world(bake, "hand")[0]
    # the hand sits 1.5 along the arm's x axis, turned like it (its own turn is 0)
    assert hand[4:] == pytest.approx([arm[4] + 1.5 * arm[0], arm[5] + 1.5 * arm[2]], abs=1e-12)
    assert hand[:4] == pytest.approx(arm[:4], abs=1e-12)


def test_mixes_of_zero_leave_the_pose_alone():
    p = rig()
    free = evaluate(p)
    bake = evaluate(mixes(constrained(p), mix_rotate=0, mix_x=0, mix_y=0, mix_scale_x=0, mix_scale_y=0,
                          mix_shear_y=0))
    for b in ("hip", "arm", "hand", "lamp"):
        assert world(bake, b) == pytest.approx(world(free, b), abs=1e-12)


def test_half_a_rotate_mix_turns_halfway_and_keeps_the_origin():
    p = rig()
    own = 0.2 + 0.3  # the arm's world angle: the hip's turn plus its own
    bake = evaluate(mixes(constrained(p), mix_x=0, mix_y=0, mix_scale_x=0, mix_scale_y=0, mix_shear_y=0,
                          mix_rotate=0.5))
    a = world(bake, "arm")[0]
    assert math.atan2(a[2], a[0]) == pytest.approx(own + (1.1 - own) / 2, abs=1e-12)
    # the origin: the hip's tip (hip at (1, 0.5), 2 long, turned 0.2)
    assert a[4:] == pytest.approx([1.0 + 2 * math.cos(0.2), 0.5 + 2 * math.sin(0.2)], abs=1e-12)


def test_an_offset_is_measured_in_the_targets_frame():
    bake = evaluate(mixes(constrained(rig(), offset_x=2.0, offset_rotation=0.25), mix_scale_x=0, mix_scale_y=0,
                          mix_shear_y=0))
    a = world(bake, "arm")[0]
    assert a[4:] == pytest.approx([-3 + 2 * math.cos(1.1), 4 + 2 * math.sin(1.1)], abs=1e-12)
    assert math.atan2(a[2], a[0]) == pytest.approx(1.1 + 0.25, abs=1e-12)


def test_world_relative_adds_the_targets_transform():
    bake = evaluate(mixes(constrained(rig(), relative=True), mix_scale_x=0, mix_scale_y=0, mix_shear_y=0,
                          mix_x=0.5, mix_y=0.5))
    a = world(bake, "arm")[0]
    origin = np.array([1.0 + 2 * math.cos(0.2), 0.5 + 2 * math.sin(0.2)])
    assert a[4:] == pytest.approx(origin + 0.5 * np.array([-3.0, 4.0]), abs=1e-12)
    assert math.atan2(a[2], a[0]) == pytest.approx(0.5 + 1.1, abs=1e-12)


def test_local_absolute_copies_the_targets_local_values():
    # the lamp's local rotation 1.1 and offset (-3, 4) become the arm's, under the hip
    bake = evaluate(mixes(constrained(rig(), local=True), mix_scale_x=0, mix_scale_y=0, mix_shear_y=0))
    a = world(bake, "arm")[0]
    hip = 0.2
    x, y = -3.0, 4.0
    assert a[4:] == pytest.approx([1.0 + x * math.cos(hip) - y * math.sin(hip),
                                   0.5 + x * math.sin(hip) + y * math.cos(hip)], abs=1e-12)
    assert math.atan2(a[2], a[0]) == pytest.approx(hip + 1.1, abs=1e-12)


def test_local_relative_adds_the_targets_local_rotation():
    bake = evaluate(mixes(constrained(rig(), local=True, relative=True), mix_x=0, mix_y=0, mix_scale_x=0,
                          mix_scale_y=0, mix_shear_y=0, mix_rotate=0.5))
    a = world(bake, "arm")[0]
    assert math.atan2(a[2], a[0]) == pytest.approx(0.2 + 0.3 + 0.5 * 1.1, abs=1e-12)


def test_constraints_run_in_their_order():
    p = rig()
    p = edits.add_transform(p, ["arm"], "lamp", name="first")
    p = edits.add_transform(p, ["hip"], "arm", name="second")  # after: the hip lands on the moved arm
    lamp = world(evaluate(p), "lamp")[0]
    assert world(evaluate(p), "hip")[0] == pytest.approx(lamp, abs=1e-12)
    swapped = edits.set_transform(edits.set_transform(p, "first", order=5), "second", order=0)
    b = evaluate(swapped)
    # the hip takes the arm's unconstrained frame first, then the arm goes to the lamp
    free_arm = world(evaluate(rig()), "arm")[0]
    assert world(b, "hip")[0] == pytest.approx(free_arm, abs=1e-12)
    assert world(b, "arm")[0] == pytest.approx(lamp, abs=1e-12)


def test_a_keyed_mix_moves_between_its_keys():
    p = constrained(rig())
    keyed = Channel((0.0,), (Key(0, (0.0,)), Key(4, (1.0,))))
    p = p.with_transform("tc", mix_x=keyed, mix_y=keyed)
    bake = evaluate(p)
    free, lamp = world(evaluate(rig()), "arm"), world(bake, "lamp")
    xy = world(bake, "arm")[:, 4:]
    t = bake.frames / 4
    assert xy == pytest.approx(free[:, 4:] + t[:, None] * (lamp[:, 4:] - free[:, 4:]), abs=1e-12)


@settings(max_examples=25, deadline=None)
@given(local=st.booleans(), relative=st.booleans(), frame=st.integers(0, 4),
       mix=st.floats(-1.0, 2.0), turn=st.floats(-3.0, 3.0))
def test_one_frame_is_that_frame_of_the_range(local, relative, frame, mix, turn):
    p = constrained(rig(lamp_turn=turn, lamp_scale=(1.3, -0.7)), local=local, relative=relative, offset_shear_y=0.2)
    p = p.with_transform("tc", mix_rotate=Channel((0.0,), (Key(0, (mix,)), Key(4, (1.0 - mix,)))))
    p = p.with_bone("lamp", rotation=Channel((0.0,), (Key(0, (0.0,)), Key(4, (2.0,)))))
    whole = evaluate(p)
    one = evaluate(p, np.array([float(frame)]))
    for b in ("arm", "hand"):
        assert np.array_equal(world(one, b)[0], world(whole, b)[frame])


def leg(chain_order, tc_order):
    """hip -> thigh -> shin (a two-bone chain reaching for 'foot'); the hip turns with a
    lamp by a transform constraint (rotation only)."""
    from rigeditor.model.data.project import Chain, Target

    bones = (Bone("hip", None, 10.0, (0.0, 0.0), 0.0), Bone("thigh", "hip", 8.0, (10.0, 0.0), -1.0),
             Bone("shin", "thigh", 8.0, (8.0, 0.0), 0.5), Bone("lamp", None, 1.0, (0.0, 30.0), 0.8))
    p = Project(timeline=Timeline(24.0, 0, 0), bones=bones, targets=(Target("foot", position=constant(14.0, -6.0)),),
                chains=(Chain("leg", ("thigh", "shin"), "foot", order=chain_order),))
    p = edits.add_transform(p, ["hip"], "lamp", name="tc")
    p = mixes(edits.set_transform(p, "tc", order=tc_order), mix_x=0, mix_y=0, mix_scale_x=0, mix_scale_y=0,
              mix_shear_y=0)
    return p


def shin_tip(bake):
    return bake.bone_bakes[bake.bones.index("shin")].tip[0]


def test_a_transform_constraint_before_a_chain_moves_what_the_chain_solves_from():
    bake = evaluate(leg(chain_order=1, tc_order=0))
    # the hip turned first (to the lamp's 0.8), then the chain reached the foot from there
    hip = world(bake, "hip")[0]
    assert math.atan2(hip[2], hip[0]) == pytest.approx(0.8, abs=1e-12)
    assert shin_tip(bake) == pytest.approx([14.0, -6.0], abs=1e-9)


def test_after_the_chain_it_carries_the_solved_chain_along():
    first = evaluate(leg(chain_order=0, tc_order=5))
    unturned = evaluate(leg(chain_order=0, tc_order=5).with_transform("tc", bones=("lamp",), target="hip"))
    # the chain reached the foot from the unturned hip; the hip then turns by 0.8 about its origin
    c, s = math.cos(0.8), math.sin(0.8)
    x, y = shin_tip(unturned)
    assert shin_tip(first) == pytest.approx([c * x - s * y, s * x + c * y], abs=1e-9)
    assert np.hypot(*(shin_tip(first) - [14.0, -6.0])) > 1.0


def test_a_bone_keeps_what_an_earlier_constraint_did_when_a_later_one_moves_its_parent():
    # T1 (order 0) turns the arm halfway to the lamp in world; T2 (order 1) then turns
    # the hip onto a second lamp: the arm rides the hip with what T1 gave it (its pose
    # relative to the hip after T1, as Spine's applied pose), not its own pose again.
    p = rig(arm_turn=0.3, lamp_turn=1.1)
    p = replace(p, bones=p.bones + (Bone("lamp2", None, 1.0, (0.0, -4.0), -0.6),))
    p = edits.add_transform(p, ["arm"], "lamp", name="t1", order=0)
    p = edits.add_transform(p, ["hip"], "lamp2", name="t2", order=1)
    for m in ("mix_x", "mix_y", "mix_scale_x", "mix_scale_y", "mix_shear_y"):
        p = edits.set_mix(edits.set_mix(p, "t1", m, 0.0), "t2", m, 0.0)
    p = edits.set_mix(p, "t1", "mix_rotate", 0.5)
    arm = world(evaluate(p), "arm")
    # by hand: after T1 the arm's world angle is 0.5 + 0.5 * (1.1 - 0.5) = 0.8, 0.6 past
    # the hip's 0.2; T2 turns the hip to -0.6, so the arm ends at -0.6 + 0.6 = 0.0
    assert np.arctan2(arm[:, 2], arm[:, 0]) == pytest.approx(np.zeros(5), abs=1e-12)


def _turned_then_replaced(hip_scale):
    """The arm turned halfway to the lamp in world by t1 (order 0), then placed again
    from what t1 left it when t2 (order 1, every mix 0) meets the hip, under a hip
    scaled ``hip_scale``: (hip world (2, 3), the arm's world after t1 alone (2, 3), the
    arm's world after both (2, 3)) at frame 0."""
    p = rig(arm_turn=0.3, lamp_turn=1.1)
    hip = replace(p.bones[0], scale=constant(*hip_scale))
    p = replace(p, bones=(hip,) + p.bones[1:] + (Bone("lamp2", None, 1.0, (0.0, -4.0), -0.6),))
    p = edits.add_transform(p, ["arm"], "lamp", name="t1", order=0)
    for m in ("mix_x", "mix_y", "mix_scale_x", "mix_scale_y", "mix_shear_y"):
        p = edits.set_mix(p, "t1", m, 0.0)
    p = edits.set_mix(p, "t1", "mix_rotate", 0.5)
    alone = world(evaluate(p), "arm")[0]
    p = edits.add_transform(p, ["hip"], "lamp2", name="t2", order=1)
    for m in ("mix_rotate", "mix_x", "mix_y", "mix_scale_x", "mix_scale_y", "mix_shear_y"):
        p = edits.set_mix(p, "t2", m, 0.0)
    bake = evaluate(p)
    as_matrix = lambda w: np.array([[w[0], w[1], w[4]], [w[2], w[3], w[5]]])  # noqa: E731
    return as_matrix(world(bake, "hip")[0]), as_matrix(alone), as_matrix(world(bake, "arm")[0])


def test_a_square_frame_comes_back_whole_when_placed_again():
    hip, alone, both = _turned_then_replaced((1.5, 1.5))
    np.testing.assert_allclose(both, alone, atol=1e-12)


def test_a_sheared_frame_placed_again_is_read_back_as_spines_runtimes_read_it():
    # Under a hip scaled 2 x 0.8 the turned arm's frame is sheared relative to the hip.
    # Spine's runtimes read a moved bone back (updateAppliedTransform) with scale y =
    # det / scale x, the y axis' length only for square axes; placed again from that,
    # the arm's y axis keeps its direction and is shortened by the sine of the angle
    # between its local axes. By hand from the hip and what t1 left:
    hip, alone, both = _turned_then_replaced((2.0, 0.8))
    local = np.linalg.solve(hip[:, :2], alone[:, :2])  # the arm's axes in the hip's frame
    x, y = local[:, 0], local[:, 1]
    sine = (x[0] * y[1] - x[1] * y[0]) / (np.hypot(*x) * np.hypot(*y))
    assert sine < 0.99  # really sheared
    expected = hip[:, :2] @ np.stack([x, y * sine], axis=1)
    np.testing.assert_allclose(both[:, :2], expected, atol=1e-12)
    np.testing.assert_allclose(both[:, 2], alone[:, 2], atol=1e-12)  # the origin stays
    assert np.hypot(*both[:, 1]) < np.hypot(*alone[:, 1]) - 1e-3  # visibly shorter than t1 left it


def test_a_bone_below_a_later_chain_keeps_what_an_earlier_constraint_did():
    # The leg's foot bone turned by tc (order 0) halfway to the lamp in world; the leg
    # chain (order 1) then bends thigh and shin: the foot rides the shin with what tc
    # gave it (Spine's applied pose), not with its own rotation again.
    p = leg(chain_order=1, tc_order=0)
    p = replace(p, bones=p.bones + (Bone("foot_bone", "shin", 2.0, (8.0, 0.0), 0.3),))
    p = edits.set_transform(p, "tc", bones=("foot_bone",))
    p = edits.set_mix(p, "tc", "mix_rotate", 0.5)
    bake = evaluate(p)
    shin, foot = world(bake, "shin")[0], world(bake, "foot_bone")[0]
    # by hand, before the chain moved it: the shin as the leg's FK left it (the hip and
    # thigh unturned: world angles 0.2 and 0.7 past the origin-bound hip)
    free = evaluate(replace(p, chains=()))
    shin0, foot0 = world(free, "shin")[0], world(free, "foot_bone")[0]
    turned = np.arctan2(foot0[2], foot0[0]) - np.arctan2(shin0[2], shin0[0])  # what tc left, past the shin
    after = np.arctan2(foot[2], foot[0]) - np.arctan2(shin[2], shin[0])
    assert math.remainder(after - turned, 2 * math.pi) == pytest.approx(0.0, abs=1e-12)
    assert abs(math.remainder(turned - 0.3, 2 * math.pi)) > 0.05  # tc really turned it
    assert shin_tip(bake) == pytest.approx([14.0, -6.0], abs=1e-9)  # and the chain still reaches


def test_a_chain_mixes_from_where_an_earlier_constraint_turned_its_bone():
    # tc (order 0) turns the thigh itself halfway to the lamp; the leg chain (order 1)
    # then mixes from that pose, as Spine's IK mixes from the applied pose: at mix 0 the
    # thigh stays where tc put it (before, it went back to its own rotation).
    p = leg(chain_order=1, tc_order=0)
    p = edits.set_mix(edits.set_transform(p, "tc", bones=("thigh",)), "tc", "mix_rotate", 0.5)
    turned = world(evaluate(replace(p, chains=())), "thigh")[0]
    assert abs(math.atan2(turned[2], turned[0]) - (-1.0)) > 0.1  # tc really turned it
    off = replace(p, chains=(replace(p.chains[0], mix=constant(0.0)),))
    np.testing.assert_allclose(world(evaluate(off), "thigh")[0], turned, atol=1e-12)
    full = evaluate(p)
    assert shin_tip(full) == pytest.approx([14.0, -6.0], abs=1e-9)  # at mix 1 it still reaches


def test_a_constraint_after_the_chain_is_named_as_what_moved_its_end_off_the_target():
    from rigeditor.model import CAUSES

    # The chain reaches the foot (14, -6) from the unturned hip at the origin; the hip then
    # turns by 0.8 about the origin, carrying the end to R(0.8) (14, -6): the residual is
    # that chord, 2 |(14, -6)| sin(0.4), and the constraint, not the solver, is its cause.
    after = evaluate(leg(chain_order=0, tc_order=5)).chains["leg"]
    assert CAUSES[int(after.cause[0])] == "constraint"
    assert after.residual[0] == pytest.approx(2 * math.hypot(14.0, -6.0) * math.sin(0.4), abs=1e-9)
    c, s = math.cos(0.8), math.sin(0.8)
    assert after.end_world[0] == pytest.approx([c * 14 + s * 6, s * 14 - c * 6], abs=1e-9)
    before = evaluate(leg(chain_order=1, tc_order=0)).chains["leg"]  # the chain solves after it: on target
    assert CAUSES[int(before.cause[0])] == "none" and before.residual[0] < 1e-9


def _aimed_after_a_turn(hip_scale, ik_mix):
    """The arm turned halfway to the lamp in world by tc (order 0), then aimed at a
    target by a one-bone chain (order 1, mix ``ik_mix``), under a hip scaled
    ``hip_scale``: (hip world (2, 3), the arm's world after tc alone (2, 3), the arm's
    world after both (2, 3), the target (2,)) at frame 0."""
    from rigeditor.model.data.project import Chain, Target

    p = rig(arm_turn=0.3, lamp_turn=1.1)
    hip = replace(p.bones[0], scale=constant(*hip_scale))
    p = replace(p, bones=(hip,) + p.bones[1:])
    p = edits.add_transform(p, ["arm"], "lamp", name="tc", order=0)
    for m in ("mix_x", "mix_y", "mix_scale_x", "mix_scale_y", "mix_shear_y"):
        p = edits.set_mix(p, "tc", m, 0.0)
    p = edits.set_mix(p, "tc", "mix_rotate", 0.5)
    as_matrix = lambda w: np.array([[w[0], w[1], w[4]], [w[2], w[3], w[5]]])  # noqa: E731
    alone = as_matrix(world(evaluate(p), "arm")[0])
    goal = np.array([1.0, 6.0])
    p = replace(p, targets=(Target("goal", position=constant(*goal)),),
                chains=(Chain("aim", ("arm",), "goal", solver="aim", mix=constant(ik_mix), order=1),))
    bake = evaluate(p)
    return as_matrix(world(bake, "hip")[0]), alone, as_matrix(world(bake, "arm")[0]), goal


def test_a_chain_starts_from_the_scale_and_shear_an_earlier_constraint_left_its_bone():
    # Under a hip scaled 2 x 0.8 the turned arm's frame is sheared relative to the hip.
    # Spine's one-bone IK starts from the bone's applied pose, read back from its frame
    # (rotation r and scale x of its x axis, scale y det / scale x, shear y the y axis'
    # turn past a right angle), turns it by mix times the target's angle past r, and
    # places it from those values: worked out here from the hip and what tc left.
    hip, alone, both, goal = _aimed_after_a_turn((2.0, 0.8), 0.7)
    local = np.linalg.solve(hip[:, :2], alone[:, :2])
    origin = np.linalg.solve(hip[:, :2], alone[:, 2] - hip[:, 2])
    (a, b), (c, d) = local
    r, sx = math.atan2(c, a), math.hypot(a, c)
    sy, shear_y = (a * d - b * c) / sx, -math.atan2(a * b + c * d, a * d - b * c)
    assert abs(shear_y) > 0.05  # really sheared
    to = np.linalg.solve(hip[:, :2], goal - hip[:, 2]) - origin
    rotation = r + 0.7 * math.remainder(math.atan2(to[1], to[0]) - r, 2 * math.pi)
    placed = np.array([[math.cos(rotation) * sx, -math.sin(rotation + shear_y) * sy],
                       [math.sin(rotation) * sx, math.cos(rotation + shear_y) * sy]])
    np.testing.assert_allclose(both[:, :2], hip[:, :2] @ placed, atol=1e-9)
    np.testing.assert_allclose(both[:, 2], alone[:, 2], atol=1e-9)  # it turned about its origin


def test_a_chain_at_mix_0_leaves_the_frame_an_earlier_constraint_made():
    # Spine skips an IK constraint at mix 0: the bone keeps the frame tc gave it, shear
    # and all (not the frame read back and placed again, whose y axis is shorter).
    hip, alone, both, _ = _aimed_after_a_turn((2.0, 0.8), 0.0)
    np.testing.assert_allclose(both, alone, atol=1e-12)
