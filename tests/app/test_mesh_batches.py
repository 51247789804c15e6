"""Rigid parts of a mesh drawn as one fill each (app.mesh_batches): the outline of a
group of triangles is their union (its area the sum of theirs, its holes kept), the
groups are exactly the triangles that move with one bone, and the picture is the
per-triangle picture where the user looks: the same pixels covered up to a pixel from
the edges between parts that move apart, and the interiors within one 8-bit level.
(The Qt path, drawn without the compiled rasteriser.)"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.ndimage import binary_dilation

from rigeditor.app.art_paint import draw_mesh, triangle_affines
from rigeditor.app.mesh_batches import outline_loops, rigid_groups
from rigeditor.core.mesh import mesh_from_alpha

from test_draw_mesh import _paint, _reference, skinned  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("qt_mesh_path")


def _grid(nx, ny, hole=None):
    """Triangles of an nx x ny grid of unit squares (two a square, alternating
    diagonals), leaving out the squares in ``hole`` (a set of (i, j))."""
    points = np.array([(i, j) for j in range(ny + 1) for i in range(nx + 1)], float)
    tris = []
    for j in range(ny):
        for i in range(nx):
            if hole and (i, j) in hole:
                continue
            a, b, c, d = j * (nx + 1) + i, j * (nx + 1) + i + 1, (j + 1) * (nx + 1) + i + 1, (j + 1) * (nx + 1) + i
            tris += [(a, b, c), (a, c, d)] if (i + j) % 2 else [(a, b, d), (b, c, d)]
    return points, np.array(tris)


def _shoelace(points):
    x, y = points[:, 0], points[:, 1]
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.data())
def test_the_outline_is_the_union_of_the_triangles(nx, ny, data):
    hole = None
    if nx >= 3 and ny >= 3:
        i, j = data.draw(st.integers(1, nx - 2)), data.draw(st.integers(1, ny - 2))
        hole = {(i, j)}
    points, tris = _grid(nx, ny, hole)
    flip = np.asarray(data.draw(st.lists(st.booleans(), min_size=len(tris), max_size=len(tris))))
    tris = np.where(flip[:, None], tris[:, [0, 2, 1]], tris)  # any orientation
    loops = outline_loops(tris, points)
    assert len(loops) == (2 if hole else 1)
    # Counter-clockwise outside, clockwise round the hole: the signed areas add up to
    # the squares drawn.
    assert sum(_shoelace(points[lp]) for lp in loops) == pytest.approx(nx * ny - (1 if hole else 0))
    assert sum(len(lp) for lp in loops) == 2 * (nx + ny) + (4 if hole else 0)


def _two_bone_pose(vertices, x1, x2, turn0=0.3, turn1=1.0, joint=None):
    """Vertices left of x1 follow bone 0 (weight 1), right of x2 bone 1, blended
    linearly between; bone 0 turns by turn0 about the origin, bone 1 by turn1 more about
    the joint. Returns the posed vertices and the weight of bone 1 (V,)."""
    w1 = np.clip((vertices[:, 0] - x1) / (x2 - x1), 0.0, 1.0)
    joint = np.array([0.5 * (x1 + x2), float(np.mean(vertices[:, 1]))]) if joint is None else joint

    def rot(a):
        return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    p0 = vertices @ rot(turn0).T
    j0 = joint @ rot(turn0).T
    p1 = (vertices - joint) @ rot(turn0 + turn1).T + j0
    return (1 - w1)[:, None] * p0 + w1[:, None] * p1, w1


def test_the_groups_are_the_triangles_that_follow_one_bone():
    points, tris = _grid(30, 6)
    posed, w1 = _two_bone_pose(points * 10.0, 100.0, 200.0)
    m = triangle_affines((points * 10.0)[tris], posed[tris])
    groups, rest = rigid_groups(m, np.isfinite(m[:, 0, 0]))
    w = w1[tris]
    on_bone0 = np.flatnonzero(np.all(w == 0.0, axis=1))
    on_bone1 = np.flatnonzero(np.all(w == 1.0, axis=1))
    assert sorted(tuple(g.tolist()) for _, g in groups) == sorted([tuple(on_bone0), tuple(on_bone1)])
    assert np.array_equal(np.flatnonzero(rest), np.setdiff1d(np.arange(len(tris)), np.r_[on_bone0, on_bone1]))


def _near_edges(device, triangles, moving, shape, reach=1.5):
    """Pixels within ``reach`` of the mesh outline or of an edge of a ``moving``
    triangle (drawn one by one) or between two groups: sampled along each segment."""
    t = np.asarray(triangles)
    e = np.sort(np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]]), axis=1)
    owner = np.tile(np.arange(len(t)), 3)
    key = e[:, 0] * len(device) + e[:, 1]
    uniq, inv, count = np.unique(key, return_inverse=True, return_counts=True)
    inv = inv.ravel()
    keep = (count[inv] == 1) | moving[owner]
    seg = device[e[keep]]
    s = np.linspace(0.0, 1.0, 64)[None, :, None]
    pts = (seg[:, :1] * (1 - s) + seg[:, 1:] * s).reshape(-1, 2)
    mask = np.zeros(shape, bool)
    ij = np.floor(pts).astype(int)
    inside = (ij[:, 0] >= 0) & (ij[:, 0] < shape[1]) & (ij[:, 1] >= 0) & (ij[:, 1] < shape[0])
    mask[ij[inside, 1], ij[inside, 0]] = True
    return binary_dilation(mask, iterations=int(np.ceil(reach)) + 1)


@pytest.mark.parametrize("turn0, turn1, scale", [(0.0, 0.0, 2.0), (0.3, 1.0, 1.7), (-0.8, -0.6, 2.3)])
def test_a_bent_dense_mesh_draws_as_triangle_by_triangle(skinned, turn0, turn1, scale):  # noqa: F811
    _, picture = skinned
    rgba = np.frombuffer(picture.constBits(), np.uint8).reshape(picture.height(), picture.bytesPerLine())
    alpha = rgba[:, : picture.width() * 4].reshape(picture.height(), picture.width(), 4)[..., 3] / 255.0
    mesh = mesh_from_alpha(alpha, tolerance=1.0, spacing=float(max(alpha.shape)) / 120)
    # Opaque: the per-triangle path draws its seam hairlines over its neighbours, which
    # blends a translucent texel twice (a group fill blends it once: no seams to cover).
    image = picture.copy()
    bits = np.frombuffer(image.bits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    bits[:, 3: image.width() * 4: 4] = 255
    uvs = mesh.vertices / [image.width(), image.height()]
    x = mesh.vertices[:, 0]
    x1, x2 = np.quantile(x, 0.4), np.quantile(x, 0.55)
    posed, _ = _two_bone_pose(mesh.vertices, x1, x2, turn0, turn1)
    device = posed * scale + [250.0, 200.0]
    m = triangle_affines((uvs * [image.width(), image.height()])[mesh.triangles], device[mesh.triangles])
    groups, rest = rigid_groups(m, np.isfinite(m[:, 0, 0]))
    assert sum(len(g) for _, g in groups) > 0.6 * len(mesh.triangles)  # most of it is batched
    background = 0xFF202830
    ours = _paint(lambda p: draw_mesh(p, image, uvs, mesh.triangles, device))
    before = _paint(lambda p: _reference(p, image, uvs, mesh.triangles, device))
    assert np.count_nonzero(before != background) > 10_000
    near = _near_edges(device, mesh.triangles, rest, ours.shape)
    covered_ours, covered_before = ours != background, before != background
    assert not np.any((covered_ours != covered_before) & ~near)  # edges within a pixel or so
    inner = covered_before & ~near
    np.testing.assert_array_equal(ours[inner], before[inner])  # interiors identical
