"""Automatic handles never overshoot: a segment between two keys stays within their
values (Blender's "Auto Clamped"), checked densely against the keys themselves."""
import numpy as np
from hypothesis import given, settings, strategies as st

from rigeditor.model.examples import arm
from rigeditor.model.timeline import Channel, Key


def _within_segments(ch: Channel, per_frame: int = 64) -> float:
    """The largest excursion (value units) of the sampled curve outside the range of
    the two keys around it, over every segment."""
    worst = 0.0
    for k0, k1 in zip(ch.keys, ch.keys[1:]):
        t = np.linspace(k0.frame, k1.frame, per_frame * (k1.frame - k0.frame) + 1)
        v = ch.sample(t)
        lo = np.minimum(k0.value, k1.value)
        hi = np.maximum(k0.value, k1.value)
        worst = max(worst, float(np.max(np.maximum(lo - v, v - hi))))
    return worst


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 30), st.floats(-1000, 1000), st.floats(-1000, 1000)),
                min_size=2, max_size=12))
def test_automatic_bezier_handles_never_overshoot(steps):
    frame, keys = 0, []
    for gap, x, y in steps:
        keys.append(Key(frame, (x, y), "bezier"))
        frame += gap
    ch = Channel((0.0, 0.0), tuple(keys))
    assert _within_segments(ch) <= 1e-9 * (1.0 + max(abs(v) for k in keys for v in k.value))


def test_the_arm_example_hand_stays_between_its_keys():
    # Keys at x = 250 (frame 12) and 300 (frame 24): the old Catmull-Rom slopes took
    # the hand to x = 305 in between.
    hand = arm().target("hand").position
    x = hand.sample(np.linspace(12, 24, 12 * 64 + 1))[:, 0]
    assert x.max() <= 300.0 and x.min() >= 250.0
    assert _within_segments(hand) <= 1e-12


def test_a_monotone_run_keeps_its_catmull_rom_slope():
    # Evenly rising keys: the secant slope passes the clamp unchanged, so the middle
    # key's curve is as smooth as before (slope 1.5 value/frame at frame 10).
    ch = Channel((0.0,), (Key(0, (0.0,), "bezier"), Key(10, (10.0,), "bezier"), Key(20, (30.0,), "bezier")))
    h = 1e-6
    slope = (ch.sample([10 + h])[0, 0] - ch.sample([10 - h])[0, 0]) / (2 * h)
    assert abs(slope - 1.5) < 1e-5
