"""The compiled rasteriser's fill rule (rigeditor.core.mesh_raster_jit): triangles that
share edges neither crack nor overlap. Every pixel is filled with one half-transparent
texel, so a pixel drawn twice shows (source over itself is darker than once); the
pixels that must be covered are counted independently (the centres inside the grid's
rectangle, half open, or inside the convex hull by scipy's Delaunay)."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial import Delaunay

raster_jit = __import__("rigeditor.core.mesh_raster_jit", fromlist=["raster"])

TEXEL = np.uint32(0x80402010)  # premultiplied, alpha 128
IDENTITY = np.array([1.0, 0.0, 0.0, 1.0, 0.0, 0.0])


def _fill(points, triangles, size=(64, 64), rects=None):
    dest = np.zeros(size[::-1], np.uint32)
    tex = np.full((1, 1), TEXEL, np.uint32)
    rects = np.array([[0, 0, size[0], size[1]]], np.int64) if rects is None else np.asarray(rects, np.int64)
    left = np.zeros(len(triangles), np.bool_)
    raster_jit.raster(dest, np.int64(0), np.int64(0), tex, np.asarray(triangles, np.int64), points, points,
                      IDENTITY, np.zeros(2), rects, left)
    assert not left.any()
    return dest


def _grid(nx, ny, step, origin, jitter):
    """An nx x ny grid of squares (two triangles each, alternating diagonals), corners at
    ``origin`` + ``step`` multiples, the inner corners moved by ``jitter`` (V, 2)."""
    ij = np.array([(i, j) for j in range(ny + 1) for i in range(nx + 1)], float)
    inner = (ij[:, 0] > 0) & (ij[:, 0] < nx) & (ij[:, 1] > 0) & (ij[:, 1] < ny)
    points = origin + ij * step + np.where(inner[:, None], jitter, 0.0)
    tris = []
    for j in range(ny):
        for i in range(nx):
            a, b, c, d = j * (nx + 1) + i, j * (nx + 1) + i + 1, (j + 1) * (nx + 1) + i + 1, (j + 1) * (nx + 1) + i
            tris += [(a, b, c), (a, c, d)] if (i + j) % 2 else [(a, b, d), (b, c, d)]
    return points, np.array(tris)


@settings(max_examples=60, deadline=None)
@given(nx=st.integers(1, 6), ny=st.integers(1, 6), step=st.sampled_from([2.0, 2.5, 3.0, 4.5]),
       ox=st.integers(0, 8), oy=st.integers(0, 8), half=st.booleans(), data=st.data())
def test_a_grid_covers_each_pixel_centre_of_its_rectangle_once(nx, ny, step, ox, oy, half, data):
    # Corners on half-pixels put pixel centres exactly on edges and corners: the ties.
    origin = np.array([ox, oy], float) + (0.5 if half else 0.0)
    n = (nx + 1) * (ny + 1)
    jitter = np.array(data.draw(st.lists(st.sampled_from([-0.5, 0.0, 0.5]), min_size=2 * n, max_size=2 * n)))
    points, tris = _grid(nx, ny, step, origin, jitter.reshape(n, 2))
    dest = _fill(points, tris)
    centres = np.arange(64) + 0.5
    lo, hi = origin, origin + [nx * step, ny * step]
    inside = (((centres >= lo[0]) & (centres < hi[0]))[None, :]
              & ((centres >= lo[1]) & (centres < hi[1]))[:, None])  # half open: left and top edges in
    np.testing.assert_array_equal(dest != 0, inside)
    assert np.all(dest[inside] == TEXEL)  # once each: twice would be darker


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), count=st.integers(4, 60))
def test_a_random_triangulation_covers_its_hull_once(seed, count):
    rng = np.random.default_rng(seed)
    points = rng.uniform(2.0, 60.0, (count, 2))
    tri = Delaunay(points)
    dest = _fill(points, tri.simplices)
    yy, xx = np.mgrid[0:64, 0:64] + 0.5
    inside = tri.find_simplex(np.stack([xx.ravel(), yy.ravel()], axis=1)) >= 0
    drawn = (dest != 0).ravel()
    # A centre within float rounding of the hull may go either way; none is this close
    # in practice, and a crack or an overlap inside would show on whole lines.
    assert np.count_nonzero(drawn != inside) <= 2
    assert np.all(dest[dest != 0] == TEXEL)


def test_only_the_given_rectangles_are_filled():
    points, tris = _grid(4, 4, 10.0, np.array([2.0, 2.0]), np.zeros((25, 2)))
    dest = _fill(points, tris, rects=[[5, 5, 20, 12], [30, 30, 33, 41]])
    expected = np.zeros_like(dest, bool)
    expected[5:12, 5:20] = True
    expected[30:41, 30:33] = True
    np.testing.assert_array_equal(dest != 0, expected)


def test_a_triangle_without_texture_area_or_beyond_reach_is_not_drawn():
    points = np.array([[1.0, 1.0], [30.0, 2.0], [5.0, 40.0], [1e9, 5.0]])
    texture = points.copy()
    texture[1] = texture[0]  # no texture area: no affine
    dest = np.zeros((64, 64), np.uint32)
    left = np.zeros(2, np.bool_)
    raster_jit.raster(dest, np.int64(0), np.int64(0), np.full((1, 1), TEXEL, np.uint32),
                      np.array([[0, 1, 2], [0, 2, 3]], np.int64), texture, points, IDENTITY, np.zeros(2),
                      np.array([[0, 0, 64, 64]], np.int64), left)
    assert not np.any(dest) and left.tolist() == [False, True]
