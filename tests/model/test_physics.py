"""Physics constraints in evaluate(): stepped from the animation's start, worked out
by hand (one spring step per frame), by a root finder (gravity against the spring)
and by linearity in the mix; evenly sampled from the start, a game at that rate."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.optimize import brentq

from rigeditor import edits
from rigeditor.model.data.project import Bone, Project, Timeline
from rigeditor.model.data.timeline import Channel, Key, keyed
from rigeditor.model.evaluation.evaluate import evaluate

pytestmark = pytest.mark.usefixtures("both_physics_loops")  # compiled and Python stepping

FPS = 30.0


def rig(jump=(40.0, 0.0), end=20, length=50.0, **physics) -> Project:
    """A root bone along +x that jumps by ``jump`` at frame 1 (a stepped key) and stays."""
    hip = Bone("hip", None, length, translate=keyed([(0, (0.0, 0.0)), (1, jump)], interp="constant"))
    p = Project(timeline=Timeline(fps=FPS, start=0, end=end), bones=(hip,))
    settings_ = {"x": 0.0, "rotate": 0.0, **{k: v for k, v in physics.items() if k in
                                             ("x", "y", "rotate", "scale_x", "shear_x", "limit", "step")}}
    p = edits.add_physics(p, "hip", name="p", **settings_)
    for k, v in physics.items():
        if k in ("inertia", "strength", "damping", "mass", "wind", "gravity", "mix"):
            p = edits.set_physics_value(p, "p", k, v)
    return p


def world_x(bake):
    return np.broadcast_to(bake.bone_bakes[0].world.tx, bake.frames.shape)


def test_x_lags_then_springs_back_one_spring_step_every_step_time():
    # Worked by hand: at frame 1 the bone jumps by D, the offset takes -D (inertia 1);
    # the spring steps every t = 1/rate s of game time (1/30 s a frame), each step
    # v += -offset * k * t / m; offset += v * t; v *= damping ** (60 t). A rate whose
    # steps fall well between frames (no count depends on rounding).
    D, k, damping, mass, rate = 40.0, 80.0, 0.9, 2.0, 45.7
    bake = evaluate(rig(jump=(D, 0.0), x=1.0, step=rate, strength=k, damping=damping, mass=mass))
    t = 1.0 / rate
    offset, v, expected, done = -D, 0.0, [0.0], 0
    for frame in range(1, 21):
        due = (frame / FPS) / t
        assert abs(due - round(due)) > 0.01  # the count below is far from a tie
        for _ in range(math.floor(due) - done):
            v += -offset * k * t / mass
            offset += v * t
            v *= damping ** (60 * t)
        done = math.floor(due)
        expected.append(D + offset)
    assert world_x(bake) == pytest.approx(expected, abs=1e-9)
    assert abs(expected[-1] - D) < abs(expected[1] - D)  # it springs back toward the pose


def test_the_limit_caps_the_drag_per_second():
    # 300 units/s at 30 fps: at most 10 units of lag a frame; no spring, no velocity
    bake = evaluate(rig(jump=(100.0, 0.0), x=1.0, limit=300.0, strength=0.0))
    assert world_x(bake)[1:] == pytest.approx(np.full(20, 90.0), abs=1e-9)


@settings(max_examples=25, deadline=None)
@given(mix=st.floats(0.05, 1.0), weight=st.floats(0.05, 1.0), k=st.floats(10.0, 400.0),
       damping=st.floats(0.3, 1.0), dx=st.floats(-200.0, 200.0))
def test_the_x_offset_is_linear_in_mix_and_weight(mix, weight, k, damping, dx):
    full = world_x(evaluate(rig(jump=(dx, 0.0), x=1.0, strength=k, damping=damping)))
    part = world_x(evaluate(rig(jump=(dx, 0.0), x=weight, strength=k, damping=damping, mix=mix)))
    fk = np.where(np.arange(21) >= 1, dx, 0.0)
    assert part - fk == pytest.approx((full - fk) * mix * weight, abs=1e-9 * (1 + abs(dx)))


def test_mix_zero_is_the_pose_itself():
    bake = evaluate(rig(x=1.0, rotate=1.0, jump=(30.0, 20.0), mix=0.0))
    w = bake.bone_bakes[0].world
    assert np.broadcast_to(w.ty, (21,))[1:] == pytest.approx(np.full(20, 20.0))
    assert np.broadcast_to(w.c, (21,)) == pytest.approx(np.zeros(21), abs=1e-15)


def test_gravity_against_the_spring_settles_where_the_torques_balance():
    # A resting horizontal bone: at rest the spring's pull (strength * angle) holds
    # gravity's (gravity * cos(angle) * length / reference scale); found by a root finder.
    g, k, length = 400.0, 60.0, 50.0
    bake = evaluate(rig(jump=(0.0, 0.0), end=300, length=length, rotate=1.0, gravity=g, strength=k,
                        damping=0.5))
    w = bake.bone_bakes[0].world
    angle = np.arctan2(np.broadcast_to(w.c, (301,)), np.broadcast_to(w.a, (301,)))
    rest = brentq(lambda r: k * r + g * math.cos(r) * length / 100.0, -math.pi / 2, 0.0)
    assert angle[-1] == pytest.approx(rest, abs=1e-6)
    assert angle[-1] < -0.1  # it droops (gravity pulls -y)


def test_a_reset_key_starts_from_rest_there():
    hip = Bone("hip", None, 50.0, translate=keyed([(0, (0.0, 0.0)), (20, (200.0, 100.0))]))
    p = edits.add_physics(Project(timeline=Timeline(fps=FPS, start=0, end=20), bones=(hip,)), "hip", name="p",
                          x=1.0, y=1.0)
    p = p.with_physics("p", reset=Channel((0.0,), (Key(8.0, (1.0,), "constant"),)))
    moving = np.broadcast_to(evaluate(p).bone_bakes[0].world.tx, (21,))
    fk = np.arange(21) * 10.0
    assert moving[8] == pytest.approx(fk[8], abs=1e-9)  # at rest on the reset frame
    assert abs(moving[7] - fk[7]) > 1.0 and abs(moving[9] - fk[9]) > 1.0  # lagging around it
    free = np.broadcast_to(evaluate(replace(p, physics=(replace(p.physics[0], reset=Channel((0.0,))),))
                                    ).bone_bakes[0].world.tx, (21,))
    assert moving[:8] == pytest.approx(free[:8], abs=1e-12)  # nothing changes before it


def _swaying(fps=FPS, scale=1):
    """A hip that moves and turns, a tail below it, physics on both; keys at
    ``scale`` times the 30 fps frames (the same motion in seconds at ``fps``)."""
    hip = Bone("hip", None, 50.0, translate=keyed([(0, (0.0, 0.0)), (9 * scale, (60.0, 90.0)),
                                                   (20 * scale, (-30.0, 10.0))]),
               rotation=keyed([(0, 0.0), (12 * scale, 1.2), (20 * scale, 0.2)]))
    tail = Bone("tail", "hip", 40.0, (50.0, 0.0))
    p = Project(timeline=Timeline(fps=fps, start=0, end=20 * scale), bones=(hip, tail))
    p = edits.add_physics(p, "hip", name="a", x=0.5, y=1.0)
    return edits.add_physics(p, "tail", name="b", rotate=1.0, scale_x=0.5, shear_x=0.3)


def _tail_world(b, i):
    w = b.bone_bakes[1].world
    return [float(np.broadcast_to(v, b.frames.shape)[i]) for v in (w.a, w.b, w.c, w.d, w.tx, w.ty)]


def test_a_single_frame_or_uneven_frames_are_the_grid_stepped_from_the_start():
    p = _swaying()
    # a reset key and a frozen stretch (mix 0) between the states the range keeps
    tail = replace(p.physics[1], reset=Channel((0.0,), (Key(13, (0.0,)),)),
                   mix=keyed([(0, 1.0), (5, 0.0), (8, 0.0), (10, 1.0)], interp="constant"))
    p = replace(p, physics=(p.physics[0], tail))
    whole = evaluate(p)
    for f in range(21):
        one = evaluate(p, [float(f)])
        assert _tail_world(one, 0) == pytest.approx(_tail_world(whole, f), abs=1e-12)
    uneven = evaluate(p, [2.0, 5.0, 5.5, 13.0])  # no game's clock: one update from the grid
    for i, f in ((0, 2), (1, 5), (3, 13)):
        assert _tail_world(uneven, i) == pytest.approx(_tail_world(whole, f), abs=1e-12)
    assert np.all(np.isfinite(_tail_world(uneven, 2)))


def test_sampled_evenly_from_the_start_physics_plays_as_a_game_at_that_rate():
    # Sampled every half frame, the 30 fps rig is a 60 fps game: the same motion keyed
    # at 60 fps and evaluated on its own grid. A game's physics depends on its rate
    # (the motion is read once an update), so it is not the 30 fps grid's.
    doubled = evaluate(_swaying(), np.arange(0, 20.5, 0.5))
    at60 = evaluate(_swaying(fps=60.0, scale=2))
    whole = evaluate(_swaying())
    for i in range(41):
        assert _tail_world(doubled, i) == pytest.approx(_tail_world(at60, i), abs=1e-9)
    assert max(abs(_tail_world(doubled, 2 * f)[4] - _tail_world(whole, f)[4]) for f in range(21)) > 0.1
    # and the 60 fps rig sampled every other frame is the 30 fps game
    halved = evaluate(_swaying(fps=60.0, scale=2), np.arange(0, 41, 2.0))
    for f in range(21):
        assert _tail_world(halved, f) == pytest.approx(_tail_world(whole, f), abs=1e-9)


@settings(max_examples=20, deadline=None)
@given(shift=st.tuples(st.floats(-500.0, 500.0), st.floats(-500.0, 500.0)), gravity=st.floats(-50.0, 50.0),
       wind=st.floats(-50.0, 50.0), jump=st.tuples(st.floats(-80.0, 80.0), st.floats(-80.0, 80.0)))
def test_the_motion_does_not_depend_on_where_the_rig_stands(shift, gravity, wind, jump):
    # physics reads the bones' motion, never their place: the whole rig moved by a
    # constant moves every frame by that constant
    def rigged(offset):
        hip = Bone("hip", None, 30.0, offset, 0.4, translate=keyed([(0, (0.0, 0.0)), (3, jump)], interp="constant"))
        tail = Bone("tail", "hip", 25.0, (30.0, 0.0))
        p = Project(timeline=Timeline(fps=FPS, start=0, end=30), bones=(hip, tail))
        p = edits.add_physics(p, "hip", name="a", x=1.0, y=0.5)
        p = edits.add_physics(p, "tail", name="b", rotate=0.8, shear_x=0.2, scale_x=0.5)
        for name in ("a", "b"):
            p = edits.set_physics_value(p, name, "gravity", gravity)
            p = edits.set_physics_value(p, name, "wind", wind)
            p = edits.set_physics_value(p, name, "damping", 0.8)
        return evaluate(p)

    here, there = rigged((0.0, 0.0)), rigged(shift)
    for k in range(2):
        a, b = here.bone_bakes[k].world, there.bone_bakes[k].world
        assert np.broadcast_to(b.tx, (31,)) - shift[0] == pytest.approx(np.broadcast_to(a.tx, (31,)), abs=1e-7)
        assert np.broadcast_to(b.ty, (31,)) - shift[1] == pytest.approx(np.broadcast_to(a.ty, (31,)), abs=1e-7)
        assert np.broadcast_to(b.c, (31,)) == pytest.approx(np.broadcast_to(a.c, (31,)), abs=1e-9)
