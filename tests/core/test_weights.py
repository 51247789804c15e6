"""Automatic (bounded biharmonic) weights and weight painting."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rigeditor.core.mesh import edges_of, mesh_from_alpha, signed_areas
from rigeditor.core.mesh.shapes import ExampleArm, ExampleFingers, limb_alpha
from rigeditor.core.weights import (
    automatic_weights, bone_handles, bounded_biharmonic, cotangent_laplacian, from_padded, limit_influences,
    lumped_mass, paint, to_padded, vertex_neighbours,
)


def _segment_distance(points, bones):
    out = []
    for a, b in bones:
        t = np.clip((points - a) @ (b - a) / ((b - a) @ (b - a)), 0, 1)
        out.append(np.hypot(*(points - a - t[:, None] * (b - a)).T))
    return np.stack(out, axis=1)


def _inverse_distance(points, bones):
    """The naive scheme the automatic weights must beat: 1/d² to each bone, normalised."""
    w = 1.0 / (_segment_distance(points, bones) ** 2 + 1.0)
    return w / w.sum(axis=1, keepdims=True)


def _valid(w):
    assert np.all(w >= 0)
    np.testing.assert_allclose(w.sum(axis=1), 1.0, atol=1e-12)
    assert np.count_nonzero(w, axis=1).max() <= 4


@pytest.fixture(scope="module")
def arm_weights(arm_mesh):
    return automatic_weights(arm_mesh.vertices, arm_mesh.triangles, ExampleArm.bones, blend_width=40.0)


def test_the_cotangent_laplacian_is_exact_on_linear_functions(arm_mesh):
    # Interior rows of K annihilate any linear function (the discrete Laplacian of x is 0),
    # and the lumped masses add up to the mesh's area.
    k = cotangent_laplacian(arm_mesh.vertices, arm_mesh.triangles)
    interior = np.setdiff1d(np.arange(len(arm_mesh.vertices)), arm_mesh.hull.ravel())
    f = arm_mesh.vertices @ [0.3, -1.7] + 5.0
    assert np.abs((k @ f)[interior]).max() < 1e-9
    area = signed_areas(arm_mesh.vertices, arm_mesh.triangles).sum()
    assert lumped_mass(arm_mesh.vertices, arm_mesh.triangles).sum() == pytest.approx(area, rel=1e-12)


def test_automatic_weights_are_bounded_normalised_and_at_most_four(arm_weights):
    _valid(arm_weights)


def test_a_vertex_on_a_bone_belongs_to_it(arm_mesh, arm_weights):
    labels = bone_handles(arm_mesh.vertices, ExampleArm.bones, radius=3.0, blend_width=40.0)
    for j in range(3):
        np.testing.assert_array_equal(arm_weights[labels == j, j], 1.0)


def test_the_hand_takes_nothing_from_the_upper_arm(arm_mesh, arm_weights):
    v = arm_mesh.vertices
    hand = np.hypot(*(v - ExampleArm.hand_centre).T) < ExampleArm.hand_radius
    assert hand.sum() > 10
    assert np.all(arm_weights[hand, 0] == 0.0)
    # ... and the upper arm, away from the elbow, takes nothing from the hand
    upper = v[:, 0] < ExampleArm.elbow[0] - 40
    assert np.all(arm_weights[upper, 2] == 0.0)


def test_automatic_weights_are_smooth(arm_mesh, arm_weights):
    # A transition spread over the blend width b changes a weight by at most h/b across
    # an edge of length h if it is no steeper than a straight ramp across b; a vertex's
    # difference from its neighbours' mean is at most its largest difference to one
    # neighbour. So: |w_i - mean_j w_j| <= h_i / b, h_i the vertex's longest edge.
    v, t = arm_mesh.vertices, arm_mesh.triangles
    e = edges_of(t)
    length = np.hypot(*(v[e[:, 1]] - v[e[:, 0]]).T)
    h = np.zeros(len(v))
    np.maximum.at(h, e[:, 0], length)
    np.maximum.at(h, e[:, 1], length)
    mean = vertex_neighbours(t, len(v)) @ arm_weights
    assert np.all(np.abs(arm_weights - mean).max(axis=1) <= h / 40.0)
    # The test can fail: inverse distance weights break the bound.
    idw = _inverse_distance(v, ExampleArm.bones)
    assert np.any(np.abs(idw - vertex_neighbours(t, len(v)) @ idw).max(axis=1) > h / 40.0)


def test_no_weight_leaks_across_a_gap(fingers_mesh):
    v, t = fingers_mesh.vertices, fingers_mesh.triangles
    w = automatic_weights(v, t, ExampleFingers.bones)
    _valid(w)
    finger_a = (v[:, 0] < ExampleFingers.gap[0]) & (v[:, 1] < 150)
    finger_b = (v[:, 0] > ExampleFingers.gap[1]) & (v[:, 1] < 150)
    assert finger_a.sum() > 20 and finger_b.sum() > 20
    assert np.all(w[finger_a, 2] == 0.0) and np.all(w[finger_b, 1] == 0.0)
    # The naive scheme does leak: a vertex beside the 6 px gap leans on the other finger.
    idw = _inverse_distance(v, ExampleFingers.bones)
    assert idw[finger_a, 2].max() > 0.15


def _transition(weights, x):
    """Extent along x of the upper bone's weight falling from 0.9 to 0.1."""
    return x[weights[:, 0] > 0.1].max() - x[weights[:, 0] < 0.9].min()


def test_the_blend_width_sets_how_far_the_transition_spreads():
    # A straight limb 40 px thick, joint at x = 150: the transition widens with the blend
    # width and stays within half of it (plus the limb's half thickness) of the joint.
    alpha = limb_alpha((80, 300), [([(20, 40), (280, 40)], 20)])
    m = mesh_from_alpha(alpha, tolerance=1.0, spacing=8.0, joints=[(150, 40)], joint_spacing=4.0, joint_radius=60.0)
    bones = np.array([[(20.0, 40.0), (150.0, 40.0)], [(150.0, 40.0), (280.0, 40.0)]])
    x = m.vertices[:, 0]
    widths = {}
    for b in (0.0, 40.0, 80.0):
        w = automatic_weights(m.vertices, m.triangles, bones, blend_width=b)
        _valid(w)
        moving = (w[:, 0] > 0.0) & (w[:, 0] < 1.0)
        assert np.all(np.abs(x[moving] - 150) <= b / 2 + 20 + 4)
        widths[b] = _transition(w, x)
    assert widths[0.0] < widths[40.0] < widths[80.0]
    assert widths[80.0] >= 0.5 * 80 and widths[80.0] >= 1.5 * widths[0.0]


def test_the_box_constrained_solve_meets_its_optimality_conditions(arm_mesh):
    # KKT of min ½ wᵀQw, 0 <= w <= 1 off the handles: the gradient Qw vanishes where the
    # weight is strictly inside, is >= 0 where it sits at 0 and <= 0 where it sits at 1.
    import scipy.sparse as sp

    v, t = arm_mesh.vertices, arm_mesh.triangles
    labels = bone_handles(v, ExampleArm.bones, 4.0, 40.0)
    w, _ = bounded_biharmonic(v, t, labels)
    k = cotangent_laplacian(v, t)
    q = k @ sp.diags(1 / lumped_mass(v, t)) @ k
    free = labels < 0
    scale = abs(q).max()
    for j in range(3):
        g = (q @ w[:, j])[free]
        wj = w[free, j]
        assert np.all(np.abs(g[(wj > 1e-9) & (wj < 1 - 1e-9)]) < 1e-7 * scale)
        assert np.all(g[wj <= 1e-9] > -1e-7 * scale) and np.all(g[wj >= 1 - 1e-9] < 1e-7 * scale)
    # and the bounds are active somewhere: the unconstrained solution over- and undershoots
    assert np.any(w[free] == 0.0)


def test_an_island_no_bone_reaches_follows_the_nearest_bone():
    alpha = limb_alpha((60, 200), [([(20, 30), (90, 30)], 12), ([(150, 30), (180, 30)], 12)])
    m = mesh_from_alpha(alpha, tolerance=1.0, spacing=8.0)
    bones = np.array([[(20.0, 30.0), (55.0, 30.0)], [(55.0, 30.0), (90.0, 30.0)]])
    w = automatic_weights(m.vertices, m.triangles, bones)
    _valid(w)
    island = m.vertices[:, 0] > 120
    np.testing.assert_array_equal(w[island, 1], 1.0)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 9))
def test_limit_influences_keeps_the_largest_four_and_normalises(seed, bones):
    rng = np.random.default_rng(seed)
    raw = rng.uniform(0, 1, (50, bones)) * (rng.uniform(0, 1, (50, bones)) > 0.3)
    w = limit_influences(raw)
    _valid(w)
    for row_raw, row in zip(raw, w):
        if row_raw.sum() > 0:  # the kept ones are the largest ones, in the same proportion
            kept = np.argsort(-row_raw, kind="stable")[: min(4, bones)]
            kept = kept[row_raw[kept] > 0]
            np.testing.assert_allclose(row[kept], row_raw[kept] / row_raw[kept].sum())


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 8))
def test_padded_layout_round_trips(seed, bones):
    rng = np.random.default_rng(seed)
    w = limit_influences(rng.uniform(0, 1, (30, bones)))
    idx, vals = to_padded(w)
    assert idx.shape == vals.shape == (30, 4)
    np.testing.assert_array_equal(from_padded(idx, vals, bones), w)


# --- painting ----------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["add", "subtract", "smooth"]), st.integers(0, 2), st.floats(0.0, 1.0),
       st.floats(5.0, 120.0), st.floats(0, 340), st.floats(0, 200))
def test_a_dab_keeps_the_weights_valid_and_stays_inside_the_brush(arm_mesh, arm_weights, mode, bone, strength,
                                                                  radius, cx, cy):
    new = paint(arm_weights, arm_mesh.vertices, arm_mesh.triangles, bone, (cx, cy), radius, strength, mode)
    _valid(new)
    outside = np.hypot(*(arm_mesh.vertices - (cx, cy)).T) >= radius
    np.testing.assert_allclose(new[outside], arm_weights[outside], atol=1e-12)


def test_adding_raises_the_bone_towards_one_with_the_falloff(arm_mesh, arm_weights):
    v = arm_mesh.vertices
    centre = np.array(ExampleArm.elbow)
    new = paint(arm_weights, v, arm_mesh.triangles, 1, centre, 30.0, 0.5, "add")
    d = np.hypot(*(v - centre).T)
    falloff = np.where(d < 30, (1 - (d / 30) ** 2) ** 2, 0.0)
    expected = arm_weights[:, 1] + 0.5 * falloff * (1 - arm_weights[:, 1])
    np.testing.assert_allclose(new[:, 1], expected, atol=1e-12)
    # the others shrink in proportion: their ratio is unchanged
    both = (arm_weights[:, 0] > 0) & (arm_weights[:, 2] > 0)
    np.testing.assert_allclose(new[both, 0] / new[both, 2], arm_weights[both, 0] / arm_weights[both, 2])


def test_subtracting_never_takes_a_vertex_s_last_influence(arm_mesh, arm_weights):
    v = arm_mesh.vertices
    only_upper = arm_weights[:, 0] == 1.0
    new = paint(arm_weights, v, arm_mesh.triangles, 0, v[only_upper][0], 200.0, 1.0, "subtract")
    np.testing.assert_array_equal(new[only_upper, 0], 1.0)
    mixed = (arm_weights[:, 0] > 0.2) & (arm_weights[:, 0] < 0.8)
    assert np.all(new[mixed, 0] < arm_weights[mixed, 0])


def test_smoothing_lowers_the_roughness(arm_mesh):
    v, t = arm_mesh.vertices, arm_mesh.triangles
    rigid = np.eye(3)[np.argmin(_segment_distance(v, ExampleArm.bones), axis=1)]
    avg = vertex_neighbours(t, len(v))
    rough = np.abs(rigid - avg @ rigid).max(axis=1)
    new = paint(rigid, v, t, 0, ExampleArm.elbow, 40.0, 1.0, "smooth")
    near = np.hypot(*(v - ExampleArm.elbow).T) < 20
    assert np.abs(new - avg @ new).max(axis=1)[near].sum() < 0.7 * rough[near].sum()


def test_bad_brush_input_says_what_is_wrong(arm_mesh, arm_weights):
    v, t = arm_mesh.vertices, arm_mesh.triangles
    with pytest.raises(ValueError, match="strength"):
        paint(arm_weights, v, t, 0, (0, 0), 10.0, 1.5)
    with pytest.raises(ValueError, match="radius"):
        paint(arm_weights, v, t, 0, (0, 0), 0.0, 0.5)
    with pytest.raises(ValueError, match="bone 7"):
        paint(arm_weights, v, t, 7, (0, 0), 10.0, 0.5)
    with pytest.raises(ValueError, match="mode"):
        paint(arm_weights, v, t, 0, (0, 0), 10.0, 0.5, "blur")
