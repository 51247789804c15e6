"""Meshes from alpha: outline, hull detail, quality triangulation, coverage, editing."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rigeditor.core.mesh import (
    constrained_delaunay, edges_of, inside, loop_area, mesh_from_alpha, min_angles, refine, signed_areas,
    simplify_loop, trace_outline,
)
from rigeditor.core.mesh.edit import add_vertex, delete_vertex, move_vertex
from rigeditor.core.mesh.shapes import ExampleArm, limb_alpha


def _shoelace_total(mesh):
    """Polygon area from the hull edges alone (outer loops positive, holes negative)."""
    a, b = mesh.vertices[mesh.hull[:, 0]], mesh.vertices[mesh.hull[:, 1]]
    return 0.5 * float(np.sum(a[:, 0] * b[:, 1] - b[:, 0] * a[:, 1]))


def _distance_to_loop(points, loop):
    """Distance (N,) from each point to the closed polyline ``loop``, brute force."""
    a, b = loop, np.roll(loop, -1, axis=0)
    ab = b - a
    rel = points[:, None, :] - a[None]
    t = np.clip(np.sum(rel * ab, axis=2) / np.maximum(np.sum(ab * ab, axis=1), 1e-300), 0, 1)
    return np.min(np.hypot(*np.moveaxis(rel - t[..., None] * ab, 2, 0)), axis=1)


def test_a_block_of_pixels_traces_to_its_area_less_four_cut_corners():
    # Marching squares at 0.5 runs through the midpoints between pixel centres: a 10 x 6
    # block's outline is the block with each corner cut by a right triangle of legs 1/2.
    a = np.zeros((20, 30))
    a[5:11, 7:17] = 1.0
    (loop,) = trace_outline(a)
    assert loop_area(loop) == pytest.approx(60 - 4 * 0.125)
    assert loop[:, 0].min() == pytest.approx(7.0) and loop[:, 0].max() == pytest.approx(17.0)
    assert loop[:, 1].min() == pytest.approx(5.0) and loop[:, 1].max() == pytest.approx(11.0)


def test_a_ring_has_an_outer_loop_and_a_hole():
    a = limb_alpha((100, 100), [([(50, 50)], 40)])
    a[limb_alpha((100, 100), [([(50, 50)], 15)]) > 0] = 0.0
    loops = trace_outline(a)
    areas = sorted(loop_area(lp) for lp in loops)
    assert len(loops) == 2 and areas[0] < 0 < areas[1]
    assert abs(sum(areas) - a.sum()) <= 1.0  # corner cuts: 1/8 px each, half cancel


@settings(max_examples=30, deadline=None)
@given(st.floats(0.2, 6.0), st.integers(0, 10_000))
def test_simplified_hull_stays_within_the_tolerance(tol, seed):
    rng = np.random.default_rng(seed)
    angle = np.sort(rng.uniform(0, 2 * np.pi, 200))
    radius = 50 + rng.uniform(-8, 8, 200)
    loop = np.stack([radius * np.cos(angle), radius * np.sin(angle)], axis=1)
    hull = simplify_loop(loop, tol)
    assert _distance_to_loop(loop, hull).max() <= tol + 1e-9
    assert len(hull) < len(loop)


@pytest.fixture(scope="module")
def arm(arm_mesh):
    return arm_mesh


def test_every_triangle_meets_the_minimum_angle(arm):
    assert min_angles(arm.vertices, arm.triangles).min() >= 25.0
    assert np.all(signed_areas(arm.vertices, arm.triangles) > 0)


def test_the_triangles_fill_the_hull_exactly_once(arm):
    # Positive triangles summing to the hull's shoelace area: no gap and no overlap.
    assert signed_areas(arm.vertices, arm.triangles).sum() == pytest.approx(_shoelace_total(arm), rel=1e-12)
    # Every edge is shared by two triangles, or is a hull edge (one triangle).
    e = np.sort(np.concatenate([arm.triangles[:, [0, 1]], arm.triangles[:, [1, 2]], arm.triangles[:, [2, 0]]]), axis=1)
    uniq, count = np.unique(e, axis=0, return_counts=True)
    hull = {tuple(x) for x in np.sort(arm.hull, axis=1).tolist()}
    assert {tuple(x) for x in uniq[count == 1].tolist()} == hull and count.max() == 2


def test_the_mesh_covers_the_drawn_pixels(arm):
    # The traced outline loses at most 1/8 px per boundary pixel at corners and the hull
    # moves the outline by at most the tolerance (1 px): |area - pixels| <= perimeter x 1.125.
    alpha = ExampleArm.alpha()
    ring = arm.vertices[arm.hull]
    perimeter = float(np.sum(np.hypot(*(ring[:, 1] - ring[:, 0]).T)))
    area = signed_areas(arm.vertices, arm.triangles).sum()
    assert abs(area - alpha.sum()) <= perimeter * 1.125
    # Pixel by pixel: opaque centres outside the mesh, or transparent ones inside it, lie
    # within the tolerance plus half a pixel of the outline, so their count is at most
    # perimeter x (1 + 0.5) x 2 sides.
    yy, xx = np.mgrid[: alpha.shape[0], : alpha.shape[1]] + 0.5
    covered = inside(np.stack([xx.ravel(), yy.ravel()], 1), arm.vertices, arm.hull).reshape(alpha.shape)
    assert np.count_nonzero(covered != (alpha > 0.5)) <= perimeter * 3.0
    assert np.count_nonzero(covered != (alpha > 0.5)) < 0.1 * alpha.sum()


def test_hull_vertices_lie_on_the_drawn_edge(arm):
    alpha = ExampleArm.alpha()
    (outline,) = trace_outline(alpha)
    # hull points are outline points or lie on chords within the 1 px tolerance of it
    assert _distance_to_loop(arm.vertices[np.unique(arm.hull)], outline).max() <= 1.0 + 1e-9


def test_the_mesh_is_denser_at_the_joints(arm):
    e = edges_of(arm.triangles)
    mid = arm.vertices[e].mean(axis=1)
    length = np.hypot(*(arm.vertices[e[:, 1]] - arm.vertices[e[:, 0]]).T)
    d = np.min([np.hypot(*(mid - j).T) for j in (ExampleArm.elbow, ExampleArm.wrist)], axis=0)
    assert length[d < 15].mean() < 0.75 * length[d > 60].mean()


def test_uvs_are_positions_over_the_image_size(arm):
    np.testing.assert_allclose(arm.uvs * [340, 200], arm.vertices, atol=1e-12)
    assert arm.uvs.min() >= 0 and arm.uvs.max() <= 1


def test_holes_in_the_alpha_stay_holes():
    a = limb_alpha((120, 120), [([(60, 60)], 50)])
    a[limb_alpha((120, 120), [([(60, 60)], 20)]) > 0] = 0.0
    m = mesh_from_alpha(a, tolerance=1.0, spacing=10.0)
    centres = m.vertices[m.triangles].mean(axis=1)
    assert np.all(np.hypot(*(centres - 60).T) > 19.0)
    assert signed_areas(m.vertices, m.triangles).sum() == pytest.approx(a.sum(), rel=0.03)


def test_nothing_opaque_is_a_clear_error():
    with pytest.raises(ValueError, match="no opaque region"):
        mesh_from_alpha(np.zeros((30, 30)))


# --- editing -------------------------------------------------------------------------


def _interior(mesh):
    return np.setdiff1d(np.arange(len(mesh.vertices)), mesh.hull.ravel())


def test_moving_an_interior_vertex_keeps_the_coverage_and_the_order(arm):
    i = int(_interior(arm)[5])
    target = arm.vertices[i] + [1.5, -1.0]
    moved = move_vertex(arm, i, target)
    np.testing.assert_array_equal(moved.vertices[i], target)
    np.testing.assert_array_equal(np.delete(moved.vertices, i, 0), np.delete(arm.vertices, i, 0))
    assert np.all(signed_areas(moved.vertices, moved.triangles) > 0)
    assert signed_areas(moved.vertices, moved.triangles).sum() == pytest.approx(_shoelace_total(arm), rel=1e-12)
    np.testing.assert_allclose(moved.uvs[i], target / [340, 200])


def test_moving_a_hull_vertex_reshapes_the_outline(arm):
    i = int(arm.hull[0, 0])
    moved = move_vertex(arm, i, arm.vertices[i] + [0.0, -3.0])
    assert signed_areas(moved.vertices, moved.triangles).sum() == pytest.approx(_shoelace_total(moved), rel=1e-12)
    assert _shoelace_total(moved) != pytest.approx(_shoelace_total(arm), rel=1e-9)


def test_an_interior_vertex_cannot_leave_the_outline(arm):
    with pytest.raises(ValueError, match="leave the outline"):
        move_vertex(arm, int(_interior(arm)[0]), (-50.0, -50.0))


def test_adding_a_vertex_appends_it_and_it_joins_the_triangles(arm):
    p = np.array([100.0, 131.0])
    added = add_vertex(arm, p)
    assert len(added.vertices) == len(arm.vertices) + 1 and np.all(added.vertices[-1] == p)
    assert np.any(added.triangles == len(arm.vertices))
    assert signed_areas(added.vertices, added.triangles).sum() == pytest.approx(_shoelace_total(arm), rel=1e-12)
    with pytest.raises(ValueError, match="outside the outline"):
        add_vertex(arm, (5.0, 5.0))


def test_deleting_a_hull_vertex_cuts_off_its_corner(arm):
    s = arm.hull
    i = int(s[3, 1])
    before, after = arm.vertices[s[s[:, 1] == i, 0][0]], arm.vertices[s[s[:, 0] == i, 1][0]]
    p = arm.vertices[i]
    corner = 0.5 * ((p[0] - before[0]) * (after[1] - before[1]) - (p[1] - before[1]) * (after[0] - before[0]))
    cut = delete_vertex(arm, i)
    assert len(cut.vertices) == len(arm.vertices) - 1
    np.testing.assert_array_equal(cut.vertices, np.delete(arm.vertices, i, 0))
    assert signed_areas(cut.vertices, cut.triangles).sum() == pytest.approx(_shoelace_total(arm) - corner, rel=1e-12)


def test_deleting_an_interior_vertex_keeps_the_coverage(arm):
    cut = delete_vertex(arm, int(_interior(arm)[0]))
    assert signed_areas(cut.vertices, cut.triangles).sum() == pytest.approx(_shoelace_total(arm), rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 100_000), st.integers(5, 40), st.integers(0, 80))
def test_constrained_triangulation_keeps_every_hull_edge_and_fills_the_polygon(seed, corners, n_inside):
    # A random star-shaped polygon (sharp corners included) with random interior points:
    # every hull edge must be an edge of the triangulation (recovered by flips when the
    # plain Delaunay misses it) and the triangles must tile the polygon exactly.
    rng = np.random.default_rng(seed)
    angle = np.sort(rng.uniform(0, 2 * np.pi, corners))
    angle = angle[np.r_[True, np.diff(angle) > 1e-3]]
    radius = rng.uniform(10, 100, len(angle))
    hull = np.stack([radius * np.cos(angle), radius * np.sin(angle)], axis=1)
    gaps = np.diff(np.r_[angle, angle[0] + 2 * np.pi])
    if len(hull) < 3 or gaps.max() >= np.pi * 0.99:  # star-shaped about the origin: simple
        return
    n = len(hull)
    seg = np.stack([np.arange(n), (np.arange(n) + 1) % n], axis=1)
    cand = rng.uniform(-100, 100, (n_inside, 2))
    pts = np.vstack([hull, cand[inside(cand, hull, seg)]])
    p, s, t = constrained_delaunay(pts, seg)
    present = {tuple(e) for e in edges_of(t).tolist()}
    assert all((min(a, b), max(a, b)) in present for a, b in s.tolist())
    assert np.all(signed_areas(p, t) > 0)
    assert signed_areas(p, t).sum() == pytest.approx(abs(loop_area(hull)), rel=1e-9)


def test_refinement_reaches_the_minimum_angle_on_a_plain_polygon():
    # A regular 12-gon (150 degree corners) with one off-centre point: plain Delaunay
    # makes slivers, refinement must lift every angle to 25 degrees.
    a = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    hull = np.stack([50 * np.cos(a), 50 * np.sin(a)], axis=1)
    seg = np.stack([np.arange(12), (np.arange(12) + 1) % 12], axis=1)
    pts = np.vstack([hull, [[47.0, 1.0]]])
    _, _, t0 = constrained_delaunay(pts, seg)
    assert min_angles(pts, t0).min() < 10
    p, s, t = refine(pts, seg, min_angle=25.0)
    assert min_angles(p, t).min() >= 25.0
    assert signed_areas(p, t).sum() == pytest.approx(loop_area(hull), rel=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_random_blobs_mesh_to_quality_and_exact_coverage(seed):
    # Smoothed noise, thresholded: islands, holes, wiggly outlines, sharp corners.
    from scipy.ndimage import gaussian_filter

    rng = np.random.default_rng(seed)
    a = gaussian_filter(rng.normal(size=(96, 96)), rng.uniform(3, 8))
    a = (a > np.quantile(a, rng.uniform(0.3, 0.7))).astype(float)
    m = mesh_from_alpha(a, tolerance=rng.uniform(0.5, 2.5), spacing=rng.uniform(5, 15))
    area = signed_areas(m.vertices, m.triangles)
    assert np.all(area > 0)
    assert area.sum() == pytest.approx(_shoelace_total(m), rel=1e-9)
    assert np.all(min_angles(m.vertices, m.triangles)[np.sqrt(area) > 0.5] >= 25.0)
