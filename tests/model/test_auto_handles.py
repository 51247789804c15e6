"""Automatic handles never overshoot: a segment between two keys stays within their
values (Blender's "Auto Clamped"), checked densely against the keys themselves."""
import numpy as np
from hypothesis import given, settings, strategies as st

from rigeditor.examples.rigs import arm
from rigeditor.model.data.timeline import Channel, Key

from bezier_reference import bezier_at, bezier_slope_at


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


def _points(key0, key1, h_out, h_in):
    return [[key0.frame, *key0.value], [key0.frame + h_out[0], *np.add(key0.value, h_out[1:])],
            [key1.frame + h_in[0], *np.add(key1.value, h_in[1:])], [key1.frame, *key1.value]]


def _slope(key0, key1, h_out, h_in, frame):
    return bezier_slope_at(_points(key0, key1, h_out, h_in), frame)


def _reference(key0, key1, h_out, h_in, frame):
    """The Bézier from (f0, v0) through (f0 + dt_out, v0 + dv_out) and (f1 + dt_in,
    v1 + dv_in) to (f1, v1): its parameter found for ``frame`` by bisection (time
    rises along the curve), the value by de Casteljau."""
    return bezier_at([[key0.frame, *key0.value], [key0.frame + h_out[0], *np.add(key0.value, h_out[1:])],
                      [key1.frame + h_in[0], *np.add(key1.value, h_in[1:])], [key1.frame, *key1.value]], frame)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 20), st.floats(-100, 100),
                          st.one_of(st.none(), st.tuples(st.floats(0, 1), st.floats(-50, 50)))),
                min_size=3, max_size=8),
       st.floats(0.0, 1.0))
def test_sampling_matches_a_reference_bezier_solved_in_time(steps, u):
    # Keys with automatic (clamped) or explicit handles; the reference takes the
    # automatic ones from the rule as documented: the neighbours' secant, flat at an
    # extreme or an end, limited to 3x either neighbouring secant.
    frame, keys = 0, []
    for gap, v, h in steps:
        keys.append((frame, v, h))
        frame += gap
    f = np.array([k[0] for k in keys], float)
    v = np.array([k[1] for k in keys], float)
    slope = np.zeros(len(keys))
    for i in range(1, len(keys) - 1):
        before, after = (v[i] - v[i - 1]) / (f[i] - f[i - 1]), (v[i + 1] - v[i]) / (f[i + 1] - f[i])
        if before * after > 0:
            s = (v[i + 1] - v[i - 1]) / (f[i + 1] - f[i - 1])
            slope[i] = np.sign(s) * min(abs(s), 3 * abs(before), 3 * abs(after))
    model_keys = []
    for i, (fr, val, h) in enumerate(keys):
        gap_next = f[i + 1] - fr if i + 1 < len(keys) else 1.0
        out_h = None if h is None else (h[0] * gap_next, h[1])
        model_keys.append(Key(int(fr), (val,), "bezier", out_h))
    ch = Channel((0.0,), tuple(model_keys))
    for i in range(len(keys) - 1):
        g = f[i + 1] - f[i]
        h_out = (g / 3, slope[i] * g / 3) if keys[i][2] is None else model_keys[i].out_handle
        h_in = (-g / 3, -slope[i + 1] * g / 3)
        frame = f[i] + u * g
        want = _reference(model_keys[i], model_keys[i + 1], h_out, h_in, frame)
        # Within 1e-9, or within what a frame number known to a few ulps allows where
        # a handle of zero length in time makes the curve's slope unbounded.
        steep = _slope(model_keys[i], model_keys[i + 1], h_out, h_in, frame)[0]
        ulps = 4 * np.spacing(1.0 + abs(frame))
        assert abs(ch.sample([frame])[0, 0] - want[0]) <= 1e-9 * (1 + abs(want[0])) + steep * ulps
