import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rigeditor.core.geometry import Affine, bounds, columns, unwrap, wrap_angle

coords = st.floats(-1e3, 1e3)
angles = st.floats(-10, 10)
scales = st.floats(0.1, 10).flatmap(lambda s: st.sampled_from([s, -s]))


@settings(max_examples=200, deadline=None)
@given(tx=coords, ty=coords, r=angles, sx=scales, sy=st.floats(0.1, 10), px=coords, py=coords)
def test_trs_applies_scale_then_rotation_then_translation(tx, ty, r, sx, sy, px, py):
    m = Affine.trs(tx, ty, r, sx, sy)
    x, y = px * sx, py * sy
    expected = (tx + x * math.cos(r) - y * math.sin(r), ty + x * math.sin(r) + y * math.cos(r))
    assert np.allclose(m.apply([px, py]), expected, atol=1e-8 * (1 + abs(px) + abs(py)))


@settings(max_examples=200, deadline=None)
@given(tx=coords, ty=coords, r=angles, sx=scales, sy=st.floats(0.1, 10), px=coords, py=coords)
def test_inverse_undoes_apply(tx, ty, r, sx, sy, px, py):
    m = Affine.trs(tx, ty, r, sx, sy)
    back = m.inverse().apply(m.apply([px, py]))
    assert np.allclose(back, [px, py], atol=1e-7 * (1 + abs(px) + abs(py) + abs(tx) + abs(ty)))


@settings(max_examples=100, deadline=None)
@given(r1=angles, r2=angles, t=coords, s=scales, px=coords, py=coords)
def test_compose_equals_applying_in_turn(r1, r2, t, s, px, py):
    outer, inner = Affine.trs(t, -t, r1, s, 1.0), Affine.trs(-t, 2.0, r2)
    assert np.allclose(outer.compose(inner).apply([px, py]), outer.apply(inner.apply([px, py])),
                       atol=1e-8 * (1 + abs(px) + abs(py) + abs(t)))


def test_compose_applies_inner_first():
    move, turn = Affine.trs(10, 0), Affine.trs(0, 0, math.pi / 2)
    assert np.allclose(move.compose(turn).apply([1, 0]), [10, 1])
    assert np.allclose(turn.compose(move).apply([1, 0]), [0, 11])


def test_frames_and_readers():
    r = np.linspace(-3, 3, 7)
    m = Affine.trs(np.arange(7.0), 0.0, r, -2.0, 1.0)
    assert np.all(m.mirrored())
    assert np.allclose(m.translation()[:, 0], np.arange(7.0))
    assert np.allclose(Affine.trs(0.0, 0.0, r).rotation(), r)
    assert np.allclose(Affine.trs(5, 5, math.pi).apply_vector([1, 0]), [-1, 0])
    picked = m.take(np.array([2, 4]))
    assert np.allclose(picked.translation()[:, 0], [2, 4])
    both = m.select(np.arange(7) % 2 == 0, Affine.identity(7))
    assert np.allclose(both.apply(np.ones((7, 2)))[0], [1, 1])


def test_wrap_and_unwrap():
    assert wrap_angle(3 * math.pi / 2) == pytest.approx(-math.pi / 2)
    seq = wrap_angle(np.linspace(0, 6 * math.pi, 200))
    assert np.abs(np.diff(seq)).max() > math.pi  # the wrap seam is there...
    assert np.abs(np.diff(unwrap(seq))).max() < 0.1  # ...and unwrap removes it


@settings(max_examples=200, deadline=None)
@given(start=st.floats(-40, 40), steps=st.lists(st.floats(-3.0, 3.0), min_size=1, max_size=30),
       turns=st.lists(st.integers(-3, 3), min_size=31, max_size=31))
def test_unwrap_starts_within_half_a_turn_and_never_jumps(start, steps, turns):
    # A smooth curve (steps under half a turn) seen through arbitrary whole-turn offsets.
    smooth = start + np.concatenate([[0.0], np.cumsum(steps)])
    seen = smooth + 2 * math.pi * np.array(turns[:len(smooth)])
    out = unwrap(seen)
    assert -math.pi < out[0] <= math.pi
    np.testing.assert_allclose(np.diff(out), np.diff(smooth), atol=1e-9)  # the curve's own motion
    whole = (out - seen) / (2 * math.pi)
    np.testing.assert_allclose(whole, np.rint(whole), atol=1e-9)  # the same angles, turn for turn


def test_unwrap_puts_the_start_at_plus_pi_not_minus_pi_and_works_per_column():
    out = unwrap(np.array([[-math.pi, 3 * math.pi], [-math.pi + 0.1, 3 * math.pi + 0.1]]), axis=0)
    np.testing.assert_allclose(out[0], [math.pi, math.pi])
    np.testing.assert_allclose(out[1], [math.pi + 0.1, math.pi + 0.1])
    assert unwrap(np.empty((0, 3))).shape == (0, 3)


def test_singular_transform_is_refused():
    with pytest.raises(ValueError, match="singular"):
        Affine.trs(0, 0, 0, 0.0, 1.0).inverse()


@settings(max_examples=200, deadline=None)
@given(points=st.lists(st.tuples(coords, coords), min_size=1, max_size=60))
def test_bounds_are_the_least_and_greatest_x_and_y(points):
    lo, hi = bounds(np.array(points))
    assert lo.tolist() == [min(p[0] for p in points), min(p[1] for p in points)]
    assert hi.tolist() == [max(p[0] for p in points), max(p[1] for p in points)]
    np.testing.assert_array_equal(columns(points), np.array(points).T)


def test_bounds_of_points_with_a_nan_are_nan_where_it_lies():
    lo, hi = bounds([[1.0, 2.0], [np.nan, 3.0], [0.5, 1.0]])
    assert np.isnan(lo[0]) and np.isnan(hi[0]) and (lo[1], hi[1]) == (1.0, 3.0)
