"""Tests for target smoothing (rigeditor.core.filters).

The reference implementations below are deliberately plain per-frame Python
loops written from the filter definitions, not from the vectorised code.
"""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from rigeditor.core.filters import (
    Smoothing,
    ema,
    linear_recurrence,
    one_euro,
    smooth,
    smooth_runs,
)

FPS = 60.0


# ---------------------------------------------------------------- references

def loop_recurrence(c, u, y0):
    """y[n] = c[n] * y[n-1] + u[n], one frame at a time."""
    out = []
    prev = np.asarray(y0, dtype=float)
    for cn, un in zip(c, u):
        prev = cn * prev + un
        out.append(prev)
    return np.array(out, dtype=float).reshape(np.shape(u))


def loop_one_euro(points, fps, min_cutoff, beta, d_cutoff):
    """One Euro filter on 2D/ND points as described in the module contract:
    raw-difference derivative, EMA-smoothed velocity, one cutoff from its norm."""
    def alpha(cutoff):
        tau = 1.0 / (2.0 * math.pi * cutoff)
        return 1.0 / (1.0 + tau * fps)

    a_d = alpha(d_cutoff)
    out, prev_x, prev_y, prev_edx = [], None, None, None
    for x in np.asarray(points, dtype=float).tolist():
        if prev_x is None:
            edx = [0.0] * len(x)
            y = list(x)
        else:
            dx = [(xi - pi) * fps for xi, pi in zip(x, prev_x)]
            edx = [a_d * d + (1.0 - a_d) * e for d, e in zip(dx, prev_edx)]
            speed = math.sqrt(sum(e * e for e in edx))
            a = alpha(min_cutoff + beta * speed)
            y = [a * xi + (1.0 - a) * yi for xi, yi in zip(x, prev_y)]
        out.append(y)
        prev_x, prev_y, prev_edx = x, y, edx
    return np.array(out)


def values(lo=-1e3, hi=1e3):
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


def tracks(min_n=1, max_n=200, dim=2):
    return hnp.arrays(np.float64, st.tuples(st.integers(min_n, max_n), st.just(dim)),
                      elements=values())


# --------------------------------------------------------- linear_recurrence

@settings(max_examples=200, deadline=None)
@given(data=st.data(), n=st.integers(1, 300), d=st.integers(1, 3))
def test_linear_recurrence_matches_loop(data, n, d):
    c = data.draw(hnp.arrays(np.float64, n, elements=values(0.0, 1.0)))
    u = data.draw(hnp.arrays(np.float64, (n, d), elements=values()))
    y0 = data.draw(hnp.arrays(np.float64, d, elements=values()))
    expected = loop_recurrence(c, u, y0)
    scale = np.abs(u).sum() + np.abs(y0).sum() + 1.0
    np.testing.assert_allclose(linear_recurrence(c, u, y0), expected,
                               rtol=1e-12, atol=1e-13 * scale)
    # (N, 1) coefficients mean the same thing as (N,).
    np.testing.assert_allclose(linear_recurrence(c[:, None], u, y0), expected,
                               rtol=1e-12, atol=1e-13 * scale)


@pytest.mark.parametrize("c_value", [0.0, 1e-12, 1e-3, 0.5, 1 - 1e-6, 1 - 1e-12, 1.0])
def test_linear_recurrence_long_sequences_stay_finite_and_exact(c_value):
    n = 100_000
    rng = np.random.default_rng(1)
    u = rng.normal(size=(n, 2))
    c = np.full(n, c_value)
    y0 = np.array([3.0, -2.0])
    got = linear_recurrence(c, u, y0)
    assert np.isfinite(got).all()
    expected = loop_recurrence(c, u, y0)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-13 * np.abs(u).sum())


def test_linear_recurrence_mixed_coefficients_near_zero_and_one():
    rng = np.random.default_rng(2)
    n = 100_000
    c = np.where(rng.random(n) < 0.5, rng.random(n) * 1e-9, 1 - rng.random(n) * 1e-9)
    u = rng.normal(size=(n, 3))
    got = linear_recurrence(c, u, 0.0)
    assert np.isfinite(got).all()
    np.testing.assert_allclose(got, loop_recurrence(c, u, np.zeros(3)),
                               rtol=0, atol=1e-13 * np.abs(u).sum())


def test_linear_recurrence_closed_forms_and_inputs_untouched():
    u = np.arange(12.0).reshape(6, 2)
    c = np.ones(6)
    u_before, c_before = u.copy(), c.copy()
    np.testing.assert_allclose(linear_recurrence(c, u, [1.0, 2.0]),
                               np.cumsum(u, axis=0) + [1.0, 2.0])
    np.testing.assert_array_equal(u, u_before)
    np.testing.assert_array_equal(c, c_before)
    np.testing.assert_array_equal(linear_recurrence(np.zeros(6), u, 99.0), u)
    assert linear_recurrence(np.zeros(0), np.zeros((0, 2)), 0.0).shape == (0, 2)


@pytest.mark.parametrize("c, u, y0, name", [
    (np.ones(5), np.ones((4, 2)), 0.0, "c"),
    (np.ones((4, 3)), np.ones((4, 2)), 0.0, "c"),
    (np.ones(4), np.ones((4, 2)), np.zeros(3), "y0"),
    (np.array([1.0, np.nan]), np.ones((2, 2)), 0.0, "c"),
    (np.ones(2), np.array([[1.0, np.inf], [0.0, 0.0]]), 0.0, "u"),
])
def test_linear_recurrence_rejects_bad_inputs(c, u, y0, name):
    with pytest.raises(ValueError, match=rf"^{name}:"):
        linear_recurrence(c, u, y0)


# ----------------------------------------------------------------------- EMA

@pytest.mark.parametrize("fps, tau", [(60.0, 0.5), (24.0, 0.25), (1000.0, 0.05)])
def test_ema_step_reaches_one_minus_one_over_e_after_tau(fps, tau):
    frames = round(tau * fps)
    assert math.isclose(frames, tau * fps)  # the check lands exactly on t = tau
    x = np.zeros((frames + 5, 2))
    x[1:] = [1.0, -4.0]  # step at t = 0 from the state held at the first frame
    out = ema(x, fps, tau)
    np.testing.assert_allclose(out[frames], np.array([1.0, -4.0]) * (1 - 1 / math.e),
                               rtol=1e-12)


@given(track=tracks(), tau=st.floats(1e-3, 10.0), fps=st.floats(1.0, 1000.0))
def test_ema_first_sample_unchanged_and_constant_passes_through(track, tau, fps):
    np.testing.assert_array_equal(ema(track, fps, tau)[0], track[0])
    still = np.broadcast_to(track[0], track.shape)
    np.testing.assert_allclose(ema(still, fps, tau), still, rtol=1e-12, atol=1e-12)


# ------------------------------------------------------------------ One Euro

@settings(max_examples=150, deadline=None)
@given(track=tracks(), fps=st.floats(10.0, 1000.0), min_cutoff=st.floats(0.01, 50.0),
       beta=st.floats(0.0, 10.0), d_cutoff=st.floats(0.01, 50.0))
def test_one_euro_matches_loop(track, fps, min_cutoff, beta, d_cutoff):
    got = one_euro(track, fps, min_cutoff, beta, d_cutoff)
    expected = loop_one_euro(track, fps, min_cutoff, beta, d_cutoff)
    np.testing.assert_array_equal(got[0], track[0])
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-9 * (1 + np.abs(track).max()))


@given(track=tracks(dim=3), min_cutoff=st.floats(0.05, 30.0), d_cutoff=st.floats(0.05, 30.0))
def test_one_euro_without_beta_is_an_ema_with_the_matching_cutoff(track, min_cutoff, d_cutoff):
    dt = 1.0 / FPS
    tau = 1.0 / (2 * math.pi * min_cutoff)
    alpha = 1.0 / (1.0 + tau / dt)
    # ema() uses alpha = 1 - exp(-dt / T); pick T giving the same alpha.
    time_constant = -dt / math.log1p(-alpha)
    np.testing.assert_allclose(one_euro(track, FPS, min_cutoff, 0.0, d_cutoff),
                               ema(track, FPS, time_constant),
                               rtol=1e-9, atol=1e-9 * (1 + np.abs(track).max()))


def test_one_euro_reduces_jitter_on_a_still_target():
    rng = np.random.default_rng(3)
    noisy = np.array([10.0, -5.0]) + rng.normal(scale=0.02, size=(6000, 2))
    out = one_euro(noisy, FPS, min_cutoff_hz=1.0, beta=0.05)
    settled = slice(int(FPS), None)  # skip the first second's start-up
    ratio = out[settled].std(axis=0) / noisy[settled].std(axis=0)
    # For a first-order EMA on white noise the std ratio is sqrt(a / (2 - a));
    # a = 1 / (1 + 60 / 2pi) gives ~0.22.  Allow for the small beta term.
    assert (ratio < 0.3).all(), ratio
    np.testing.assert_allclose(out[settled].mean(axis=0), [10.0, -5.0], atol=0.01)


def test_one_euro_lags_less_than_ema_on_a_fast_ramp():
    t = np.arange(int(3 * FPS)) / FPS
    velocity = np.array([30.0, 40.0])  # 50 model units / s
    ramp = t[:, None] * velocity
    min_cutoff = 1.0
    dt = 1.0 / FPS
    tau = 1.0 / (2 * math.pi * min_cutoff)
    same_rest_smoothing = -dt / math.log1p(-1.0 / (1.0 + tau / dt))
    lag_ema = np.linalg.norm(ramp[-1] - ema(ramp, FPS, same_rest_smoothing)[-1])
    lag_euro = np.linalg.norm(ramp[-1] - one_euro(ramp, FPS, min_cutoff, beta=0.1)[-1])
    # Steady-state lag of a first-order lag is speed * tau: 50 / (2 pi f).
    assert lag_ema == pytest.approx(50.0 * tau, rel=0.1)
    # With beta = 0.1 the cutoff rises from 1 Hz to ~6 Hz, so lag drops ~6x.
    assert lag_euro < 0.25 * lag_ema, (lag_euro, lag_ema)


def test_one_euro_keeps_a_straight_path_straight():
    # Unequal speeds per axis would bend the path if each axis had its own cutoff.
    rng = np.random.default_rng(4)
    s = np.cumsum(rng.normal(scale=2.0, size=500))
    direction = np.array([0.6, 0.8])
    path = np.array([1.0, 2.0]) + s[:, None] * direction
    out = one_euro(path, FPS, 0.5, beta=0.5) - [1.0, 2.0]
    off_line = out[:, 0] * direction[1] - out[:, 1] * direction[0]
    assert np.abs(off_line).max() < 1e-9 * np.abs(s).max()


@pytest.mark.parametrize("kind", ["ema", "one_euro"])
def test_chains_batched_on_an_extra_axis_match_one_at_a_time(kind):
    rng = np.random.default_rng(5)
    batch = rng.normal(size=(300, 4, 2)).cumsum(axis=0)
    smoothing = Smoothing(kind=kind, time_constant_s=0.1, min_cutoff_hz=2.0, beta=0.3)
    out = smooth(batch, smoothing, FPS)
    for chain in range(4):
        np.testing.assert_allclose(out[:, chain], smooth(batch[:, chain], smoothing, FPS),
                                   rtol=1e-12, atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(track=tracks(min_n=2, max_n=120), cut=st.floats(0.0, 1.0),
       kind=st.sampled_from(["none", "ema", "one_euro"]))
def test_a_run_seeded_with_the_previous_runs_end_continues_it_exactly(track, cut, kind):
    """Splitting a track in two runs and seeding the second with the first's end state
    gives the one-run result (a restart would begin at the raw value)."""
    lo = 1 + int(cut * (len(track) - 2))
    smoothing = Smoothing(kind=kind, time_constant_s=0.1, min_cutoff_hz=2.0, beta=0.3)
    whole = smooth(track, smoothing, FPS)
    end = []
    first = smooth(track[:lo], smoothing, FPS, end=end)
    second = smooth(track[lo:], smoothing, FPS, end[0])
    scale = 1.0 + np.abs(track).max()
    np.testing.assert_allclose(np.concatenate([first, second]), whole, rtol=0, atol=1e-9 * scale)
    if kind == "one_euro":
        np.testing.assert_allclose(whole, loop_one_euro(track, FPS, 2.0, 0.3, 1.0),
                                   rtol=0, atol=1e-9 * scale)


@pytest.mark.parametrize("kind", ["ema", "one_euro"])
def test_runs_carried_through_a_rigid_change_of_coordinates_match_one_run(kind):
    """A path written in frame A up to frame 40, in frame B after (B = A turned by
    0.7 rad and moved): carried state makes the result the one-run filter of the path
    in A, re-expressed in B after the cut."""
    rng = np.random.default_rng(3)
    path = rng.normal(size=(100, 2)).cumsum(axis=0) * 3.0
    cos, sin = math.cos(0.7), math.sin(0.7)
    rot = np.array([[cos, -sin], [sin, cos]])
    move = np.array([20.0, -5.0])

    def into_b(p):  # B's coordinates of a point given in A
        return (np.asarray(p) - move) @ rot

    def vector_into_b(v):
        return np.asarray(v) @ rot

    mixed = np.concatenate([path[:40], into_b(path[40:])])
    smoothing = Smoothing(kind=kind, time_constant_s=0.1, min_cutoff_hz=2.0, beta=0.3)
    carried = smooth_runs(mixed, smoothing, FPS, [0, 40],
                          lambda lo, state: state.mapped(into_b, vector_into_b))
    whole = smooth(path, smoothing, FPS)
    np.testing.assert_allclose(carried[:40], whole[:40], atol=1e-9)
    np.testing.assert_allclose(carried[40:], into_b(whole[40:]), atol=1e-9)


# -------------------------------------------------------- smooth / Smoothing

@given(track=tracks(min_n=0))
def test_smooth_none_is_an_identity_copy(track):
    track = track.reshape(-1, 2)
    out = smooth(track, Smoothing(), FPS)
    np.testing.assert_array_equal(out, track)
    assert out is not track and not np.shares_memory(out, track)


@pytest.mark.parametrize("kind", ["none", "ema", "one_euro"])
def test_smooth_leaves_the_input_alone(kind):
    x = np.random.default_rng(7).normal(size=(64, 2))
    before = x.copy()
    out = smooth(x, Smoothing(kind, beta=1.0), FPS)
    np.testing.assert_array_equal(x, before)
    assert out.shape == x.shape and out.dtype == np.float64 and out.flags.c_contiguous


def test_smooth_dispatches_on_kind():
    x = np.random.default_rng(6).normal(size=(50, 2))
    np.testing.assert_array_equal(smooth(x, Smoothing("ema", time_constant_s=0.2), 30.0),
                                  ema(x, 30.0, 0.2))
    np.testing.assert_array_equal(
        smooth(x, Smoothing("one_euro", min_cutoff_hz=2.0, beta=0.5, d_cutoff_hz=3.0), 30.0),
        one_euro(x, 30.0, 2.0, 0.5, 3.0))


def test_smoothing_is_frozen_with_documented_defaults():
    s = Smoothing()
    assert (s.kind, s.time_constant_s, s.min_cutoff_hz, s.beta, s.d_cutoff_hz) == \
        ("none", 0.05, 1.0, 0.0, 1.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.kind = "ema"
    assert Smoothing(beta=0).beta == 0.0 and Smoothing(beta=0) == Smoothing()


@pytest.mark.parametrize("field, value", [
    ("kind", "gaussian"), ("kind", None),
    ("time_constant_s", 0.0), ("time_constant_s", -0.1), ("time_constant_s", math.inf),
    ("min_cutoff_hz", -1), ("min_cutoff_hz", 0), ("min_cutoff_hz", math.nan),
    ("beta", -0.5), ("beta", math.inf), ("beta", "0.1"),
    ("d_cutoff_hz", 0.0), ("d_cutoff_hz", True),
])
def test_smoothing_rejects_bad_fields_naming_them(field, value):
    with pytest.raises(ValueError, match=rf"^Smoothing\.{field}: .*got {repr(value)}"):
        Smoothing(**{field: value})


def test_smoothing_message_format():
    with pytest.raises(ValueError, match=r"^Smoothing\.min_cutoff_hz: must be > 0, got -1$"):
        Smoothing(min_cutoff_hz=-1)


@pytest.mark.parametrize("call, name", [
    (lambda x: ema(x, FPS, 0.0), "time_constant_s"),
    (lambda x: one_euro(x, FPS, min_cutoff_hz=-1.0), "min_cutoff_hz"),
    (lambda x: one_euro(x, FPS, beta=-1.0), "beta"),
    (lambda x: one_euro(x, FPS, d_cutoff_hz=math.nan), "d_cutoff_hz"),
])
def test_filter_arguments_are_validated(call, name):
    with pytest.raises(ValueError, match=rf"^{name}:"):
        call(np.zeros((3, 2)))


@pytest.mark.parametrize("kind", ["none", "ema", "one_euro"])
@pytest.mark.parametrize("fps", [0.0, -30.0, math.nan, math.inf])
def test_bad_fps_is_rejected(kind, fps):
    with pytest.raises(ValueError, match=r"^fps:"):
        smooth(np.zeros((3, 2)), Smoothing(kind), fps)


@pytest.mark.parametrize("kind", ["none", "ema", "one_euro"])
@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_points_are_rejected_naming_the_argument(kind, bad):
    x = np.zeros((5, 2))
    x[3, 1] = bad
    with pytest.raises(ValueError, match=r"^points: .*frame 3"):
        smooth(x, Smoothing(kind), FPS)


@pytest.mark.parametrize("points", [np.zeros(5), 1.0, [["a", "b"]]])
def test_points_must_be_a_numeric_frame_array(points):
    with pytest.raises(ValueError, match=r"^points:"):
        smooth(points, Smoothing("ema"), FPS)


def test_smooth_requires_a_smoothing():
    with pytest.raises(TypeError, match="smoothing"):
        smooth(np.zeros((3, 2)), {"kind": "none"}, FPS)
