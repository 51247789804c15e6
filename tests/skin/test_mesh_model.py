"""Mesh attachments in the model: built from a picture, kept in the file, refused
with the place of the fault, deformed by the one evaluation path."""
from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest

from rigeditor.io import ProjectFileError
from rigeditor.io.project_file import dumps_project, loads_project
from rigeditor.model import evaluate
from rigeditor.model.data.mesh_attachment import MeshAttachment
from rigeditor.model.data.rest import rest_frame
from rigeditor.model.data.project import CHARACTER
from rigeditor.model.data.timeline import constant, keyed


def _mesh(project) -> MeshAttachment:
    return project.art.slots[0].attachments[0]


def test_the_mesh_covers_the_picture_with_its_outline_first(skinned, arm_alpha):
    m = _mesh(skinned)
    n = m.hull_count()
    # the outer loop is vertices 0..n-1 in order, closed
    loop = {int(a): int(b) for a, b in m.edges}
    k, seen = 0, []
    for _ in range(n):
        seen.append(k)
        k = loop[k]
    assert k == 0 and sorted(seen) == list(range(n))
    # every triangle is counter-clockwise in the image frame (y up), the UVs point at
    # the vertex's own pixel, and the triangles cover the opaque area
    v = m.vertices
    a, b, c = (v[m.triangles[:, i]] for i in range(3))
    area = 0.5 * ((b - a)[:, 0] * (c - a)[:, 1] - (b - a)[:, 1] * (c - a)[:, 0])
    assert (area > 0).all()
    np.testing.assert_allclose(m.uvs[:, 0] * m.width - m.width / 2, v[:, 0], atol=1e-9)
    np.testing.assert_allclose(m.height / 2 - m.uvs[:, 1] * m.height, v[:, 1], atol=1e-9)
    assert area.sum() == pytest.approx(arm_alpha.sum(), rel=0.03)


def test_weights_are_bounded_normalised_and_at_most_four(skinned):
    m = _mesh(skinned)
    assert m.bones == ("upper_arm", "forearm")
    assert (m.weights >= 0).all() and ((m.weights > 0).sum(axis=1) <= 4).all()
    np.testing.assert_allclose(m.weights.sum(axis=1), 1.0, atol=1e-12)
    w = m.dense_weights()
    x = m.in_slot_frame()[:, 0]
    # local: the shoulder's third of the picture has no forearm weight at all, the
    # hand's end is mostly forearm; the elbow (x = 150) blends
    assert (w[x < 80, 1] == 0).all() and (w[x > 240, 1] > 0.9).all()
    elbow = np.abs(x - 150) < 10
    assert ((w[elbow, 0] > 0.2) & (w[elbow, 1] > 0.2)).all()


def test_automatic_weights_are_smooth_over_the_mesh(skinned):
    """No vertex's weight differs from the mean of its mesh neighbours by more than
    0.1 (measured: 0.045 on the example arm, blend width 96)."""
    from rigeditor.core.weights import vertex_neighbours

    m = _mesh(skinned)
    w = m.dense_weights()
    assert np.abs(w - vertex_neighbours(m.triangles, len(w)) @ w).max() < 0.1


def test_a_mesh_survives_a_save_and_load_exactly(skinned):
    text = dumps_project(skinned)
    again = loads_project(text)
    assert again == skinned and dumps_project(again) == text


def _doc(project):
    return json.loads(dumps_project(project))


@pytest.mark.parametrize("edit, problem", [
    (lambda a: a["weights"][3].__setitem__(0, 0.5), "slots[0].attachments[0].weights[3]: weights must sum to 1"),
    (lambda a: a["indices"][5].__setitem__(0, 7), "slots[0].attachments[0].indices[5]: bone indices must be in 0..1"),
    (lambda a: a["triangles"][2].__setitem__(1, 10_000),
     "slots[0].attachments[0].triangles[2]: vertex indices must be"),
    (lambda a: a["bones"].__setitem__(1, "shin"), "slots[0].attachments[0].bones[1]: unknown bone 'shin'"),
    (lambda a: a["uvs"][0].__setitem__(0, 1.5), "slots[0].attachments[0].uvs[0]: must be within [0, 1], got [1.5"),
    (lambda a: a.__setitem__("uvs", a["uvs"][:-1]), "slots[0].attachments[0].uvs: needs one [u, v] per vertex"),
    (lambda a: a.__setitem__("type", "image"), "slots[0].attachments[0]: an image attachment has no vertices"),
    (lambda a: a.pop("triangles"), "slots[0].attachments[0]: a mesh needs vertices and triangles, it has no triangles"),
    (lambda a: a.__setitem__("blend_width", -1), "slots[0].attachments[0].blend_width: must be >= 0, got -1"),
])
def test_bad_meshes_are_reported_where_they_are(skinned, edit, problem):
    doc = _doc(skinned)
    edit(doc["slots"][0]["attachments"][0])
    with pytest.raises(ProjectFileError) as err:
        loads_project(json.dumps(doc))
    assert any(p.startswith(problem) for p in err.value.problems), err.value.problems


def _bind_world(project, bake, row=0):
    """The mesh's vertices placed rigidly with its slot's bone (the picture's place)."""
    m = _mesh(project)
    holder = bake.bone_world.take((row, bake.column(project.art.slots[0].bone)))
    return holder.apply(m.in_slot_frame())


def test_in_the_rest_pose_the_mesh_is_the_picture(skinned):
    still = replace(skinned, bones=tuple(replace(b, rotation=constant(0.0)) for b in skinned.bones))
    bake = evaluate(still, [0, 1])
    pose = bake.art.meshes[0]
    np.testing.assert_allclose(pose.vertices(1), _bind_world(still, bake, 1), atol=1e-9)
    np.testing.assert_allclose(pose.ratios(1), 1.0, atol=1e-12)


def test_moving_the_character_moves_the_mesh_rigidly(skinned):
    spaces = (replace(skinned.spaces[0], position=constant(40.0, -15.0), rotation=constant(0.7)),)
    moved = replace(skinned, spaces=spaces)
    a, b = evaluate(skinned), evaluate(moved)
    char = b.spaces[CHARACTER]
    for row in (0, 10, 24):
        np.testing.assert_allclose(b.art.meshes[0].vertices(row),
                                   char.take(row).apply(a.art.meshes[0].vertices(row)), atol=1e-9)
    np.testing.assert_allclose(b.art.meshes[0].worst[0], a.art.meshes[0].worst[0], atol=1e-9)


def test_a_vertex_weighted_fully_to_a_bone_follows_that_bone_exactly(skinned):
    m = _mesh(skinned)
    x = m.in_slot_frame()[:, 0]
    idx, w = m.indices.copy(), m.weights.copy()
    for j, side in enumerate((x < 100, x > 200)):
        idx[side], w[side] = [j, 0, 0, 0], [1.0, 0.0, 0.0, 0.0]
    art = skinned.art.with_slot("arm", attachments=(replace(m, indices=idx, weights=w),))
    skinned = replace(skinned, art=art)
    m = _mesh(skinned)
    bake = evaluate(skinned)
    pose = bake.art.meshes[0]
    for j, bone in enumerate(m.bones):
        rigid = np.flatnonzero(m.dense_weights()[:, j] == 1.0)
        assert len(rigid) > 10
        # independently: the vertex's place in the bone's rest frame, carried by the bone
        in_bone = rest_frame(skinned, bone).inverse().compose(rest_frame(skinned, "upper_arm")).apply(
            m.in_slot_frame()[rigid])
        for row in (6, 24, 40):
            expected = bake.bone_world.take((row, bake.column(bone))).apply(in_bone)
            np.testing.assert_allclose(pose.vertices(row)[rigid], expected, atol=1e-9)


def test_deformation_is_the_blend_of_the_bones_per_vertex(skinned):
    """Against a plain loop over vertices and influences."""
    m = _mesh(skinned)
    bake = evaluate(skinned)
    row = 24
    p = m.in_slot_frame()
    expected = np.zeros_like(p)
    for i in range(len(p)):
        for idx, w in zip(m.indices[i], m.weights[i]):
            bone = m.bones[idx]
            to_bone = rest_frame(skinned, bone).inverse().compose(rest_frame(skinned, "upper_arm"))
            expected[i] += w * bake.bone_world.take((row, bake.column(bone))).apply(to_bone.apply(p[i]))
    np.testing.assert_allclose(bake.art.meshes[0].vertices(row), expected, atol=1e-9)


def test_the_worst_ratio_per_frame_is_the_smallest_triangle_ratio(skinned):
    bake = evaluate(skinned)
    pose = bake.art.meshes[0]
    worst, which = pose.worst
    assert worst[0] == pytest.approx(1.0, abs=1e-12)
    for row in (12, 24, 30):
        r = pose.ratios(row)
        assert worst[row] == pytest.approx(r.min(), abs=1e-9) and which[row] == np.argmin(r)
    assert min(w.min() for w in pose.joint_worst.values()) == pytest.approx(worst.min(), abs=1e-12)


def test_the_skinned_arm_keeps_its_triangles_up_to_a_90_degree_elbow_and_collapses_past_100(skinned):
    from rigeditor.examples.skin import MAX_BEND

    assert MAX_BEND == 90.0
    sweep = replace(skinned, timeline=replace(skinned.timeline, start=0, end=120),
                    bones=(replace(skinned.bones[0], rotation=constant(0.0)),
                           replace(skinned.bones[1], rotation=keyed([(0, 0.0), (120, math.radians(120.0))]))))
    pose = evaluate(sweep).art.meshes[0]
    worst = pose.worst[0]  # frame f = f degrees of elbow bend
    assert (worst[:91] >= 0.3).all()
    assert (worst[100:] < 0.3).all()
    assert pose.collapsed()[100] and not pose.collapsed()[90]


def test_rows_of_a_bake_cut_the_mesh_poses_along_frames(skinned):
    bake = evaluate(skinned)
    part = bake.rows(10, 20)
    whole, cut = bake.art.meshes[0], part.art.meshes[0]
    assert cut.mesh is whole.mesh and len(cut.shown) == 10
    np.testing.assert_array_equal(cut.vertices(4), whole.vertices(14))
    np.testing.assert_array_equal(cut.worst[0], whole.worst[0][10:20])
