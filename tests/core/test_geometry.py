import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rigeditor.core import geometry as g

coords = st.floats(-1e3, 1e3)
angles = st.floats(-10, 10)
scales = st.floats(0.1, 10).flatmap(lambda s: st.sampled_from([s, -s]))


@settings(max_examples=200, deadline=None)
@given(tx=coords, ty=coords, r=angles, sx=scales, sy=st.floats(0.1, 10), px=coords, py=coords)
def test_trs_applies_scale_then_rotation_then_translation(tx, ty, r, sx, sy, px, py):
    m = g.trs(tx, ty, r, sx, sy)
    x, y = px * sx, py * sy
    expected = (tx + x * math.cos(r) - y * math.sin(r), ty + x * math.sin(r) + y * math.cos(r))
    assert np.allclose(g.apply(m, [px, py]), expected, atol=1e-9 * (1 + abs(px) + abs(py)) * 10)


@settings(max_examples=200, deadline=None)
@given(tx=coords, ty=coords, r=angles, sx=scales, sy=st.floats(0.1, 10), px=coords, py=coords)
def test_invert_undoes_apply(tx, ty, r, sx, sy, px, py):
    m = g.trs(tx, ty, r, sx, sy)
    back = g.apply(g.invert(m), g.apply(m, [px, py]))
    assert np.allclose(back, [px, py], atol=1e-7 * (1 + abs(px) + abs(py) + abs(tx) + abs(ty)))


def test_compose_applies_inner_first():
    move = g.trs(10, 0)
    turn = g.trs(0, 0, math.pi / 2)
    assert np.allclose(g.apply(g.compose(move, turn), [1, 0]), [10, 1])
    assert np.allclose(g.apply(g.compose(turn, move), [1, 0]), [0, 11])


def test_batched_frames_and_readers():
    r = np.linspace(-3, 3, 7)
    m = g.trs(np.arange(7.0), 0, r, -2.0, 1.0)
    assert m.shape == (7, 3, 3)
    assert np.all(g.is_mirrored(m))
    assert np.allclose(g.scale_of(m), [[2, 1]] * 7)
    assert np.allclose(g.translation_of(m)[:, 0], np.arange(7.0))
    unmirrored = g.trs(0, 0, r)
    assert np.allclose(g.rotation_of(unmirrored), r)
    assert np.allclose(g.apply_vector(g.trs(5, 5, math.pi), [1, 0]), [-1, 0])


def test_wrap_and_unwrap():
    assert g.wrap_angle(3 * math.pi / 2) == pytest.approx(-math.pi / 2)
    seq = g.wrap_angle(np.linspace(0, 6 * math.pi, 200))
    assert np.abs(np.diff(seq)).max() > math.pi  # the wrap seam is there...
    assert np.abs(np.diff(g.unwrap(seq))).max() < 0.1  # ...and unwrap removes it


def test_singular_transform_is_refused():
    with pytest.raises(ValueError, match="singular"):
        g.invert(g.trs(0, 0, 0, 0.0, 1.0))
