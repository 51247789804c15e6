"""Linear blend skinning over vertices and frames, and the seam (area ratio) diagnostics."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rigeditor.core.geometry import Affine
from rigeditor.core.mesh.shapes import ExampleArm
from rigeditor.core.skinning import (
    affine_rows, area_ratios, collapse_flags, deform, deform_chunks, skin_operator, skin_transforms,
    worst_area_ratio,
)
from rigeditor.core.weights import automatic_weights, limit_influences, to_padded


def _matrix(angle, tx, ty, scale=1.0):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[scale * c, -scale * s, tx], [scale * s, scale * c, ty], [0, 0, 1.0]])


def _chain_fk(angles, lengths, origin=(0.0, 0.0)):
    """World 3x3 matrices of a chain, bone k at the end of bone k-1 (textbook FK)."""
    out, m = [], _matrix(0.0, *origin)
    for k, a in enumerate(angles):
        m = m @ (_matrix(0.0, lengths[k - 1], 0.0) if k else np.eye(3)) @ _matrix(a, 0.0, 0.0)
        out.append(m)
    return np.array(out)


def _random_setup(seed, n_vertices=60, n_bones=4):
    rng = np.random.default_rng(seed)
    v = rng.uniform(-100, 100, (n_vertices, 2))
    raw = rng.uniform(0, 1, (n_vertices, n_bones)) * (rng.uniform(0, 1, (n_vertices, n_bones)) > 0.4)
    raw[np.arange(n_vertices), rng.integers(0, n_bones, n_vertices)] += 0.1
    idx, w = to_padded(limit_influences(raw))
    bind = np.array([_matrix(rng.uniform(-3, 3), *rng.uniform(-50, 50, 2), rng.uniform(0.5, 2))[:2] for _ in range(n_bones)])
    return rng, v, idx, w, bind


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 100_000))
def test_the_bind_pose_leaves_the_mesh_unchanged(seed):
    _, v, idx, w, bind = _random_setup(seed)
    g = skin_operator(v, idx, w, len(bind))
    assert np.abs(deform(g, skin_transforms(bind, bind)) - v).max() <= 1e-9


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 100_000), st.floats(-np.pi, np.pi), st.floats(-500, 500), st.floats(-500, 500))
def test_a_rigid_motion_of_every_bone_moves_the_mesh_rigidly(seed, angle, tx, ty):
    _, v, idx, w, bind = _random_setup(seed)
    r = _matrix(angle, tx, ty)
    world = np.array([(r @ np.vstack([b, [0, 0, 1]]))[:2] for b in bind])
    out = deform(skin_operator(v, idx, w, len(bind)), skin_transforms(world, bind))
    expected = v @ r[:2, :2].T + r[:2, 2]
    assert np.abs(out - expected).max() <= 1e-9


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 100_000))
def test_a_vertex_weighted_to_one_bone_follows_it_exactly(seed):
    rng = np.random.default_rng(seed)
    lengths = rng.uniform(20, 80, 3)
    bind_angles = rng.uniform(-1, 1, 3)
    frames = rng.uniform(-np.pi, np.pi, (25, 3))
    bind = _chain_fk(bind_angles, lengths, (10.0, -5.0))
    world = np.array([_chain_fk(a, lengths, (10.0, -5.0)) for a in frames])  # (F, 3, 3, 3)
    v = rng.uniform(-100, 100, (30, 2))
    bone = rng.integers(0, 3, 30)
    idx = np.zeros((30, 4), np.int64)
    idx[:, 0] = bone
    w = np.zeros((30, 4))
    w[:, 0] = 1.0
    out = deform(skin_operator(v, idx, w, 3), skin_transforms(world[..., :2, :], bind[:, :2, :]))
    # independently: into the bone's bind frame, out through its posed frame
    local = np.einsum("vij,vj->vi", np.linalg.inv(bind[bone]), np.c_[v, np.ones(30)])
    expected = np.einsum("fvij,vj->fvi", world[:, bone], local)[..., :2]
    assert np.abs(out - expected).max() <= 1e-9


def test_blended_vertices_are_the_weighted_mean_of_each_bone_s_rigid_image():
    rng, v, idx, w, bind = _random_setup(7, n_vertices=40, n_bones=3)
    world = np.array([_matrix(rng.uniform(-3, 3), *rng.uniform(-50, 50, 2))[:2] for _ in range(3)])
    out = deform(skin_operator(v, idx, w, 3), skin_transforms(world, bind))
    expected = np.zeros_like(v)
    for k in range(4):
        for i in range(len(v)):
            m = np.vstack([world[idx[i, k]], [0, 0, 1]]) @ np.linalg.inv(np.vstack([bind[idx[i, k]], [0, 0, 1]]))
            expected[i] += w[i, k] * (m @ [*v[i], 1.0])[:2]
    np.testing.assert_allclose(out, expected, atol=1e-9)


def test_the_range_path_equals_the_one_frame_path_block_by_block():
    rng, v, idx, w, bind = _random_setup(3, n_vertices=50, n_bones=3)
    world = np.array([[_matrix(rng.uniform(-3, 3), *rng.uniform(-50, 50, 2))[:2] for _ in range(3)] for _ in range(37)])
    g = skin_operator(v, idx, w, 3)
    skins = skin_transforms(world, bind)
    whole = deform(g, skins)
    assert whole.shape == (37, 50, 2)
    for f in (0, 17, 36):
        np.testing.assert_allclose(deform(g, skins[f]), whole[f], rtol=0, atol=1e-12)  # gemv vs gemm: ulps
    seen = 0
    for start, block in deform_chunks(g, skins, chunk_bytes=50 * 2 * 8 * 5):  # five frames a block
        assert len(block) <= 5
        np.testing.assert_allclose(block, whole[start:start + len(block)], rtol=0, atol=1e-12)
        seen += len(block)
    assert seen == 37


def test_affine_rows_read_the_editor_s_transforms():
    a = Affine.trs(3.0, -2.0, 0.7, 1.5, 0.5)
    m = affine_rows(a)
    p = np.array([4.0, 9.0])
    np.testing.assert_allclose(m[:, :2] @ p + m[:, 2], a.apply(p))


def test_bad_layouts_are_clear_errors():
    v = np.zeros((3, 2))
    with pytest.raises(ValueError, match=r"indices \(3, 4\) and weights \(3, 3\)"):
        skin_operator(v, np.zeros((3, 4), int), np.zeros((3, 3)), 2)
    with pytest.raises(ValueError, match="out of range 0..1"):
        skin_operator(v, np.full((3, 4), 2), np.zeros((3, 4)), 2)
    with pytest.raises(ValueError, match="NaN"):
        skin_operator(np.full((3, 2), np.nan), np.zeros((3, 4), int), np.zeros((3, 4)), 2)
    with pytest.raises(ValueError, match="bone 1 is singular"):
        skin_transforms(np.zeros((2, 2, 3)), np.array([np.eye(3)[:2], np.zeros((2, 3))]))


# --- seam diagnostics --------------------------------------------------------------

# A strip across a joint at the origin: the left pair of vertices rides bone 0 (still),
# the right pair bone 1, which turns by theta about the joint. Two triangles of area 1.
STRIP = np.array([[-1.0, 0.0], [1.0, 0.0], [1.0, 1.0], [-1.0, 1.0]])
STRIP_TRIANGLES = np.array([[0, 1, 2], [0, 2, 3]])


def _bent_strip(theta):
    idx = np.array([[0, 0, 0, 0], [1, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]])
    w = np.array([[1.0, 0, 0, 0]] * 4)
    bind = np.array([np.eye(3)[:2]] * 2)
    world = np.array([[np.eye(3)[:2], _matrix(t, 0.0, 0.0)[:2]] for t in np.atleast_1d(theta)])
    return skin_operator(STRIP, idx, w, 2), skin_transforms(world, bind)


def test_area_ratio_of_a_bent_two_triangle_strip():
    # By hand, c = cos theta, s = sin theta: the right pair goes to (c, s) and (c - s, s + c);
    # triangle (-1,0)(c,s)(c-s,s+c) has area (1 + c)/2, triangle (-1,0)(c-s,s+c)(-1,1)
    # has area (1 + c - s)/2; both had area 1.
    g, skins = _bent_strip(np.radians([0.0, 90.0, 120.0]))
    ratios = area_ratios(STRIP, deform(g, skins), STRIP_TRIANGLES)
    np.testing.assert_allclose(ratios, [[1.0, 1.0], [0.5, 0.0], [0.25, (1 - 0.5 - np.sqrt(3) / 2) / 2]], atol=1e-12)
    flags = collapse_flags(ratios)
    np.testing.assert_array_equal(flags, [[False, False], [False, True], [True, True]])
    assert ratios[2, 1] < 0  # flipped


def test_worst_ratio_per_frame_walks_the_range_in_blocks():
    theta = np.linspace(0, np.pi * 0.9, 101)
    g, skins = _bent_strip(theta)
    worst, which = worst_area_ratio(STRIP, STRIP_TRIANGLES, g, skins, chunk_bytes=4 * 2 * 8 * 7)
    c, s = np.cos(theta), np.sin(theta)
    hand = np.stack([(1 + c) / 2, (1 + c - s) / 2], axis=1)
    np.testing.assert_allclose(worst, hand.min(axis=1), atol=1e-12)
    np.testing.assert_array_equal(which, hand.argmin(axis=1))


def _fold_at_elbow(mesh, weights, degrees):
    """Worst area ratio per frame with forearm and hand folded further about the elbow
    (the drawn arm is already bent 38 degrees from straight)."""
    idx, vals = to_padded(weights)
    g = skin_operator(mesh.vertices, idx, vals, 3)
    ex, ey = ExampleArm.elbow
    fold = [(_matrix(0, ex, ey) @ _matrix(-np.radians(a), 0, 0) @ _matrix(0, -ex, -ey))[:2] for a in degrees]
    world = np.array([[np.eye(3)[:2], f, f] for f in fold])
    return worst_area_ratio(mesh.vertices, mesh.triangles, g, skin_transforms(world, np.array([np.eye(3)[:2]] * 3)))[0]


def test_a_blend_width_keeps_the_folded_elbow_from_collapsing(arm_mesh):
    # End to end on the drawn arm, folded 40 degrees further (78 from straight): with a
    # 40 px blend width (about the arm's thickness) no triangle falls below 30 % of its
    # area; with no blend width the inner elbow collapses, with rigid layers it flips.
    v, t = arm_mesh.vertices, arm_mesh.triangles
    degrees = np.linspace(0, 40, 9)
    blended = _fold_at_elbow(arm_mesh, automatic_weights(v, t, ExampleArm.bones, blend_width=40.0), degrees)
    assert blended[0] == pytest.approx(1.0) and np.all(blended >= 0.3)
    sharp = _fold_at_elbow(arm_mesh, automatic_weights(v, t, ExampleArm.bones, blend_width=0.0), degrees)
    assert sharp[-1] < 0.3
    d = np.stack([np.hypot(*(v - a - np.clip((v - a) @ (b - a) / ((b - a) @ (b - a)), 0, 1)[:, None] * (b - a)).T)
                  for a, b in ExampleArm.bones], axis=1)
    rigid = _fold_at_elbow(arm_mesh, np.eye(3)[d.argmin(axis=1)], degrees)
    assert rigid[-1] < 0


def test_importing_the_mesh_modules_leaves_scipy_unloaded():
    # The editor starts in under 2 s: scipy (0.3-0.5 s) loads only when a mesh is built.
    code = ("import sys, rigeditor.core.mesh, rigeditor.core.mesh.edit, rigeditor.core.weights, "
            "rigeditor.core.skinning; print(any(m.split('.')[0] == 'scipy' for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "False"
