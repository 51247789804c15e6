"""A path's deform offsets move its world vertices by each bone's linear part times the
offset (M (p + d) = M p + L d), whatever the bones' frames and the weights."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from rigeditor.core.geometry import Affine
from rigeditor.model.data.path_attachment import PathAttachment

finite = st.floats(-50, 50, allow_nan=False)
angle = st.floats(-np.pi, np.pi, allow_nan=False)
scale = st.floats(0.2, 3.0)


def _frame(a, sx, sy, tx, ty) -> Affine:
    c, s = np.cos(a), np.sin(a)
    return Affine(np.array([c * sx]), np.array([-s * sy]), np.array([s * sx]), np.array([c * sy]),
                  np.array([tx]), np.array([ty]))


@settings(max_examples=60, deadline=None)
@given(a=angle, sx=scale, sy=scale, tx=finite, ty=finite, b=angle, w=st.floats(0.0, 1.0),
       d=st.lists(finite, min_size=4, max_size=4))
def test_offsets_move_vertices_by_each_bones_linear_part(a, sx, sy, tx, ty, b, w, d):
    one, two = _frame(a, sx, sy, tx, ty), _frame(b, 1.0, 1.0, -tx, ty)
    frames = {"one": one, "two": two}
    # three vertices, each weighted to both bones (w, 1 - w)
    inf = tuple(((0, 10.0 * v, 3.0, w), (1, -5.0, 2.0 * v, 1 - w)) for v in range(3))
    path = PathAttachment("p", bones=("one", "two"), influences=inf)
    offsets = np.zeros((1, 3, 2, 2))
    offsets[0, :, 0] = d[:2]
    offsets[0, :, 1] = d[2:]
    moved = path.world_vertices(frames.get, None, 1, offsets)[0] - path.world_vertices(frames.get, None, 1)[0]
    lin = lambda m, v: np.array([m.a[0] * v[0] + m.b[0] * v[1], m.c[0] * v[0] + m.d[0] * v[1]])  # noqa: E731
    expect = w * lin(one, d[:2]) + (1 - w) * lin(two, d[2:])
    assert np.allclose(moved, expect[None], atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(a=angle, sx=scale, sy=scale, tx=finite, ty=finite, d=st.lists(finite, min_size=2, max_size=2))
def test_an_unweighted_paths_offsets_ride_its_slot_bone(a, sx, sy, tx, ty, d):
    m = _frame(a, sx, sy, tx, ty)
    path = PathAttachment("p", vertices=((0.0, 0.0), (10.0, 0.0), (20.0, 5.0)))
    offsets = np.broadcast_to(np.array(d, float), (1, 3, 1, 2))
    place = lambda bone: m  # noqa: E731
    moved = path.world_vertices(place, "bone", 1, offsets)[0] - path.world_vertices(place, "bone", 1)[0]
    expect = np.array([m.a[0] * d[0] + m.b[0] * d[1], m.c[0] * d[0] + m.d[0] * d[1]])
    assert np.allclose(moved, expect[None], atol=1e-9)
