"""Space switches: nothing before a switch moves, and smoothing goes on across it.

The references are the project before the switch (for frames before it) and the
unsmoothed target (for the size of a step).
"""
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from rigeditor.core.filters import Smoothing
from rigeditor.model import WORLD, Space, evaluate
from rigeditor.examples.rigs import arm, door
from rigeditor.edits.posing import switch_target_space
from rigeditor.model.data.timeline import Channel, Key, keyed

INTERPS = st.sampled_from(["constant", "linear", "bezier"])
HANDLE = st.one_of(st.none(), st.tuples(st.floats(-30, 30), st.floats(-100, 100), st.floats(-100, 100)))


@st.composite
def channels(draw):
    frames = sorted(draw(st.sets(st.integers(-20, 60), min_size=1, max_size=6)))
    keys = []
    for f in frames:
        out_h, in_h = draw(HANDLE), draw(HANDLE)
        keys.append(Key(f, (draw(st.floats(-100, 100)), draw(st.floats(-100, 100))), draw(INTERPS),
                        None if out_h is None else (abs(out_h[0]),) + out_h[1:],
                        None if in_h is None else (-abs(in_h[0]),) + in_h[1:]))
    return Channel(default=keys[0].value, keys=tuple(keys))


def _handles_cross(ch, frame):
    """True if ``frame`` lies in a bezier segment whose handles cross in time (the out
    handle reaching past the in handle): its halves then need handles outside their
    own segment, which a key cannot hold."""
    for k0, k1 in zip(ch.keys, ch.keys[1:]):
        if k0.frame < frame < k1.frame and k0.interp == "bezier":
            gap = k1.frame - k0.frame
            out_dt = gap / 3 if k0.out_handle is None else min(k0.out_handle[0], gap)
            in_dt = -gap / 3 if k1.in_handle is None else max(k1.in_handle[0], -gap)
            return k0.frame + out_dt > k1.frame + in_dt
    return False


@settings(max_examples=200, deadline=None)
@given(ch=channels(), frame=st.integers(-30, 70))
def test_a_split_adds_a_key_and_changes_no_frame(ch, frame):
    assume(not _handles_cross(ch, frame))
    frames = np.arange(-40.0, 81.0, 0.5)
    split = ch.split(frame)
    assert frame in [k.frame for k in split.keys]
    # Bezier timing is solved to 1e-12 frames; slopes here reach ~1e3 units a frame.
    np.testing.assert_allclose(split.sample(frames), ch.sample(frames), rtol=0, atol=1e-7)


def _moving_cup(project):
    cup = Space("cup", WORLD, position=keyed([(0, (0.0, 0.0)), (48, (40.0, -30.0))]),
                rotation=keyed([(0, 0.0), (48, 0.8)], "bezier"))
    return replace(project, spaces=project.spaces + (cup,))


def _end_effector(bake):
    return bake.tip_world[:, -1]


@pytest.mark.parametrize("build, space, frame", [
    (door, WORLD, 40),                  # handle -> world inside a flat bezier hold
    (door, "door", 10),                 # world -> door inside the bezier reach
    (door, WORLD, 20),                  # on the existing switch
    (lambda: _moving_cup(arm()), "cup", 6),    # inside a bezier segment
    (lambda: _moving_cup(arm()), "cup", 13),   # just after a key
    (lambda: _moving_cup(arm()), "cup", 48),   # on the last key
])
def test_switching_space_changes_no_frame_before_the_switch(build, space, frame):
    project = build()
    before = evaluate(project)
    after = evaluate(switch_target_space(project, project.targets[0].name, frame, space))
    chain = project.chains[0].name
    early = slice(0, frame)
    np.testing.assert_allclose(after.chains[chain].target_world[early],
                               before.chains[chain].target_world[early], rtol=0, atol=1e-6)
    np.testing.assert_allclose(_end_effector(after)[early], _end_effector(before)[early], rtol=0, atol=1e-6)
    # ...and the switch frame itself keeps its world position.
    np.testing.assert_allclose(after.chains[chain].target_world[frame],
                               before.chains[chain].target_world[frame], rtol=0, atol=1e-6)


def test_the_door_reach_follows_its_world_keys_up_to_the_grab():
    """The door's reach (world, bezier 0 -> 20) is unchanged by the switch at 20."""
    reach = keyed([(0, (150.0, -150.0)), (20, (254.0, -48.0))], "bezier")
    # frame 19 is held into the switch; the curve up to it is the keyed one.
    target = evaluate(door()).chains["arm"].target_world
    np.testing.assert_allclose(target[:20], reach.sample(np.arange(20.0)), rtol=0, atol=1e-9)


SMOOTHINGS = [Smoothing("ema", time_constant_s=0.2),
              Smoothing("one_euro", min_cutoff_hz=0.3, beta=0.0),
              Smoothing("one_euro", min_cutoff_hz=1.0, beta=0.01)]


@pytest.mark.parametrize("switch", [None, (40, WORLD), (30, "door")], ids=["grab", "let-go", "to-door"])
@pytest.mark.parametrize("smoothing", SMOOTHINGS, ids=lambda s: f"{s.kind}")
def test_smoothing_makes_no_step_at_a_space_switch_larger_than_the_raw_motion(smoothing, switch):
    """Door: world -> handle space at frame 20 (the grab, the door still), then maybe to
    world or the door while the door turns. The smoothed target may not jump more at
    the switch, or in the frames after, than the raw target ever moved up to there."""
    project, frame = door(), 20
    if switch:
        frame = switch[0]
        project = switch_target_space(project, "hand", *switch)
    raw = evaluate(project).chains["arm"].target_world
    smoothed = evaluate(replace(project, chains=(replace(project.chains[0], smoothing=smoothing),)))
    target = smoothed.chains["arm"].target_world
    raw_step = np.hypot(*np.diff(raw, axis=0).T)
    step = np.hypot(*np.diff(target, axis=0).T)
    around = slice(frame - 2, frame + 6)  # the switch is the step frame - 1 -> frame
    assert step[around].max() <= raw_step[:frame + 6].max() + 1e-9, (step[around], raw_step[:frame + 6].max())
