"""Key edits for the dope sheet and the curve editor, and the pose tools, checked by
what a user sees: sampled values, key frames, the pose evaluate() gives."""
import numpy as np
import pytest

from rigeditor.model import evaluate
from rigeditor.model.data import clips
from rigeditor.edits import animations
from rigeditor.edits import keys as ke
from rigeditor.edits import pose_tools as pt
from rigeditor.model.data.project import Bone, Project
from rigeditor.model.data.timeline import keyed

ROT = ("bone", "a", "rotation")


def _rig():
    return Project(bones=(
        Bone("a", None, 10.0, rotation=keyed([(10, 0.0), (20, 1.0), (30, 0.5)], "bezier")),
        Bone("b", "a", 10.0, rest_offset=(10.0, 0.0)),
        Bone("arm_l", None, 5.0, rotation=keyed([(0, 0.3)])), Bone("arm_r", None, 5.0, rotation=keyed([(0, -0.7)])),
    ))


def test_scaling_keys_in_time_about_the_playhead_slows_the_motion_by_that_factor():
    p = _rig()
    slow = ke.scale_keys(p, {ROT: [10, 20, 30]}, pivot=10, factor=2.0)
    assert [k.frame for k in slow.bone("a").rotation.keys] == [10, 30, 50]
    f = np.linspace(10, 30, 41)
    np.testing.assert_allclose(slow.bone("a").rotation.sample(10 + 2 * (f - 10)), p.bone("a").rotation.sample(f),
                               atol=1e-12)


def test_copy_paste_across_bones_and_animations():
    p = animations.add(_rig(), "other", 0, 40)
    board = ke.copy_keys(p, {ROT: [20, 30]})
    # Onto another bone at the playhead (frame 5): the first copied key lands there.
    q, pasted = ke.paste_keys(p, board, 5, onto=[("bone", "b")])
    assert pasted == {("bone", "b", "rotation"): (5, 15)}
    assert [(k.frame, k.value) for k in q.bone("b").rotation.keys] == [(5, (1.0,)), (15, (0.5,))]
    # Into another animation: the clipboard holds keys, not places.
    r = clips.switch(p, "other")
    r, _ = ke.paste_keys(r, board, 0)
    assert [k.frame for k in r.bone("a").rotation.keys] == [0, 10]
    assert [k.frame for k in clips.switch(r, "animation").bone("a").rotation.keys] == [10, 20, 30]


def test_interpolation_and_a_moved_key():
    p = ke.set_interpolation(_rig(), {ROT: [10]}, "constant")
    assert p.bone("a").rotation.sample([19.5])[0, 0] == 0.0
    p = ke.move_key(p, ROT, 20, 25, (2.0,))
    assert p.bone("a").rotation.value_at(25) == (2.0,) and p.bone("a").rotation.value_at(20) == (0.0,)
    with pytest.raises(ValueError):
        ke.set_interpolation(p, {ROT: [10]}, "smooth")


@pytest.mark.parametrize("aligned", [True, False])
def test_dragging_a_handle_aligned_keeps_the_curve_smooth_through_the_key(aligned):
    p = ke.set_handle(_rig(), ROT, 20, "out", 4.0, 0.6, aligned=aligned)
    ch = p.bone("a").rotation
    assert ch.keys[1].out_handle == (4.0, 0.6)
    h = 1e-5
    left = (ch.sample([20])[0, 0] - ch.sample([20 - h])[0, 0]) / h
    right = (ch.sample([20 + h])[0, 0] - ch.sample([20])[0, 0]) / h
    assert right == pytest.approx(0.6 / 4.0, rel=1e-3)  # the handle's slope leaving the key
    assert (abs(left - right) < 1e-3) == aligned


def test_pose_tools_mirror_reset_copy_paste():
    p = _rig()
    m = pt.mirror_pose(p, ["arm_l"], 0)
    assert m.bone("arm_l").rotation.value_at(0) == (-0.7,) and m.bone("arm_r").rotation.value_at(0) == (0.3,)
    assert pt.mirror_name("LeftHand") == "RightHand" and pt.mirror_name("spine") is None
    r = pt.reset_pose(p, ["a", "arm_l"], 20)
    bake = evaluate(r, [20.0])
    k = bake.column("b")
    np.testing.assert_allclose(bake.joint_world[0, k], (10.0, 0.0), atol=1e-12)  # a's rest direction
    pose = pt.copy_pose(p, ["a"], 20)
    q = pt.paste_pose(p, pose, 40, onto={"b": "a"})
    assert q.bone("b").rotation.value_at(40) == (1.0,)


FOOT = ("target", "foot_l", "position")


def test_moving_keys_in_time_and_value_stays_inside_the_animation():
    from rigeditor.examples.rigs import walk

    p = walk()
    tl = p.timeline
    old = {k.frame: k.value for k in p.target("foot_l").position.keys}
    # 14 is the latest moved key: it may go as far as the animation's end, no further.
    q = ke.move_keys(p, {FOOT: (8, 14)}, 1000, {(FOOT, 8): (1.0, -2.0)})
    new = {k.frame: k.value for k in q.target("foot_l").position.keys}
    shift = tl.end - 14
    assert max(new) == tl.end and new[tl.end] == old[14]  # landed on the last key and replaced it
    assert new[8 + shift] == pytest.approx((old[8][0] + 1.0, old[8][1] - 2.0))
    assert sorted(new) == sorted({f for f in old if f not in (8, 14)} | {8 + shift, tl.end})
    # And leftwards down to the start: the earliest moved key stops there.
    r = ke.move_keys(p, {FOOT: (8, 14)}, -1000)
    assert min(k.frame for k in r.target("foot_l").position.keys) == tl.start
    assert r.target("foot_l").position.value_at(tl.start) == old[8]


@pytest.mark.parametrize("dt", [0.01, 1e-8, 0.0])
def test_a_near_vertical_aligned_drag_keeps_the_other_handle_its_length(dt):
    from rigeditor.examples.rigs import walk
    from rigeditor.model.validation.project import problems

    p = ke.set_handle(walk(), FOOT, 8, "out", 1.0, 0.5, component=1, aligned=True)
    before = p.target("foot_l").position.keys
    in_before = next(k for k in before if k.frame == 8).in_handle
    q = ke.set_handle(p, FOOT, 8, "out", dt, 10.0, component=1, aligned=True)
    key = next(k for k in q.target("foot_l").position.keys if k.frame == 8)
    assert key.out_handle[0] == dt and key.out_handle[2] == 10.0
    # The in handle points straight opposite, as long as it was.
    out, inn = np.array(key.out_handle), np.array(key.in_handle)
    assert np.linalg.norm(inn) == pytest.approx(np.linalg.norm(in_before))
    assert np.dot(out, inn) == pytest.approx(-np.linalg.norm(out) * np.linalg.norm(inn))
    assert problems(q) == []


def test_a_handle_drag_takes_only_the_dragged_coordinate():
    from rigeditor.examples.rigs import walk
    from rigeditor.model.data.timeline import control_points

    p = walk()
    ch = p.target("foot_l").position
    i = next(j for j, k in enumerate(ch.keys) if k.frame == 8)
    pts = control_points(ch)
    auto_x = pts.y1[i][0] - pts.values[i][0]
    q = ke.set_handle(p, FOOT, 8, "out", 2.0, 3.0, component=1, aligned=False)
    key = q.target("foot_l").position.keys[i]
    assert key.out_handle == pytest.approx((2.0, auto_x, 3.0))


def test_any_aligned_handle_drag_leaves_both_handles_finite_and_in_bounds():
    from hypothesis import given, settings, strategies as st

    from rigeditor.examples.rigs import walk
    from rigeditor.model.validation.project import MAX_MAGNITUDE, problems

    base = walk()
    coords = st.floats(-1e6, 1e6, allow_nan=False) | st.sampled_from([0.0, 1e-300, -1e-12, 5e-324])

    @settings(max_examples=150, deadline=None)
    @given(st.lists(st.tuples(st.sampled_from([0, 8, 14, 48]), st.sampled_from(["out", "in"]), coords, coords,
                              st.sampled_from([0, 1]), st.sampled_from([1.0, 57.29577951308232])),
                    min_size=1, max_size=4))
    def check(drags):
        p = base
        for frame, side, dt, dv, d, scale in drags:
            p = ke.set_handle(p, FOOT, frame, side, dt, dv, component=d, aligned=True, value_scale=scale)
        for k in p.target("foot_l").position.keys:
            for h in (k.out_handle, k.in_handle):
                assert h is None or (np.all(np.isfinite(h)) and max(map(abs, h[1:])) <= MAX_MAGNITUDE)
        assert problems(p) == []

    check()
