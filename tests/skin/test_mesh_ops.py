"""Editing a mesh attachment: vertices move, appear and go with their weights;
weights are recomputed or painted; the picture stays where it was."""
from __future__ import annotations

import numpy as np
import pytest

from rigeditor.model import evaluate
from rigeditor.edits import mesh_ops
from rigeditor.examples.skin import rigid_arm


def _mesh(project):
    return project.art.slots[0].attachments[0]


def _interior(m):
    return next(i for i in range(m.hull_count(), len(m.vertices)))


def test_moving_a_vertex_keeps_its_index_weights_and_uv_on_its_pixel(skinned):
    m = _mesh(skinned)
    i = _interior(m)
    target = m.vertices[i] + [1.5, -1.0]
    moved = _mesh(mesh_ops.move_vertex(skinned, "arm", "arm", i, target))
    np.testing.assert_allclose(moved.vertices[i], target)
    np.testing.assert_allclose(moved.dense_weights(), m.dense_weights(), atol=1e-12)
    assert moved.uvs[i, 0] * m.width - m.width / 2 == pytest.approx(target[0])
    with pytest.raises(ValueError, match="would leave the outline"):
        mesh_ops.move_vertex(skinned, "arm", "arm", i, [0.0, 500.0])


def test_an_added_vertex_gets_the_blend_of_its_triangle_and_deforms_with_it(skinned):
    m = _mesh(skinned)
    t = m.triangles[len(m.triangles) // 2]
    centre = m.vertices[t].mean(axis=0)
    added = mesh_ops.add_vertex(skinned, "arm", "arm", centre)
    a = _mesh(added)
    assert len(a.vertices) == len(m.vertices) + 1
    expected = m.dense_weights()[t].mean(axis=0)
    np.testing.assert_allclose(a.dense_weights()[-1], expected / expected.sum(), atol=1e-9)
    np.testing.assert_allclose(a.dense_weights()[:-1], m.dense_weights(), atol=1e-12)
    # bent: the new vertex lies within its old triangle's deformed corners' box
    bake = evaluate(added)
    v = bake.art.meshes[0].vertices(24)
    corners = evaluate(skinned).art.meshes[0].vertices(24)[t]
    assert (v[-1] >= corners.min(axis=0) - 1e-9).all() and (v[-1] <= corners.max(axis=0) + 1e-9).all()


def test_deleting_a_vertex_deletes_its_weights_and_shifts_the_later_ones(skinned):
    m = _mesh(skinned)
    i = _interior(m)
    d = _mesh(mesh_ops.delete_vertex(skinned, "arm", "arm", i))
    np.testing.assert_allclose(d.vertices, np.delete(m.vertices, i, axis=0))
    np.testing.assert_allclose(d.dense_weights(), np.delete(m.dense_weights(), i, axis=0), atol=1e-12)
    assert d.hull_count() == m.hull_count() and d.triangles.max() == len(d.vertices) - 1


def test_a_stroke_adds_weight_under_the_brush_only(skinned):
    m = _mesh(skinned)
    p = m.in_slot_frame()
    centre = np.array([[100.0, 0.0], [110.0, 0.0]])
    painted = _mesh(mesh_ops.paint_weights(skinned, "arm", "arm", "forearm", centre, 20.0, 0.5, "add"))
    before, after = m.dense_weights()[:, 1], painted.dense_weights()[:, 1]
    near = np.min(np.hypot(*(p[:, None] - centre[None]).transpose(2, 0, 1)), axis=1) < 20.0
    assert (after[near] > before[near]).all()
    np.testing.assert_allclose(after[~near], before[~near], atol=1e-12)
    np.testing.assert_allclose(painted.weights.sum(axis=1), 1.0, atol=1e-12)
    with pytest.raises(ValueError, match="not one of the mesh's bones"):
        mesh_ops.paint_weights(skinned, "arm", "arm", "hand", centre, 20.0, 0.5)


def test_a_wider_blend_width_spreads_the_elbow_over_more_of_the_arm(skinned):
    def spread(width):
        m = _mesh(mesh_ops.recompute_weights(skinned, "arm", "arm", ("upper_arm", "forearm"), width))
        w = m.dense_weights()[:, 1]
        x = m.in_slot_frame()[:, 0]
        return np.ptp(x[(w > 0.1) & (w < 0.9)])

    assert spread(0.0) < spread(48.0) < spread(120.0)


def test_meshing_an_image_keeps_the_picture_where_it_was(arm_alpha):
    # a rigid mesh of the sleeve layer: no bones, it rides its slot's bone
    project = rigid_arm()
    sleeve = project.art.slot("upper_arm").find("upper_arm")
    alpha = np.zeros((46, 176))
    alpha[4:42, 4:172] = 1.0
    meshed = mesh_ops.mesh_from_image(project, "upper_arm", "upper_arm", alpha, spacing=30.0)
    m = meshed.art.slot("upper_arm").find("upper_arm")
    assert not m.skinned and (m.x, m.y, m.width) == (sleeve.x, sleeve.y, sleeve.width)
    bake = evaluate(meshed)
    col = bake.art.column("upper_arm")
    pose = bake.art.mesh(col, 0)
    holder = bake.bone_world.take((24, bake.column("upper_arm")))
    np.testing.assert_allclose(pose.vertices(24), holder.compose(m.local()).apply(m.vertices), atol=1e-9)
    with pytest.raises(ValueError, match="does not match the picture"):
        mesh_ops.mesh_from_image(project, "upper_arm", "upper_arm", alpha[:, :100])


def test_a_hull_vertex_stays_on_its_picture(skinned):
    m = _mesh(skinned)
    i = int(np.argmax(m.vertices[:m.hull_count(), 1]))  # the outline's top vertex
    beyond = m.vertices[i] + [0.0, m.height]
    with pytest.raises(ValueError, match="outside the picture"):
        mesh_ops.move_vertex(skinned, "arm", "arm", i, beyond)
    edge, clamped = mesh_ops.on_picture(m, beyond)
    assert clamped and edge[1] == m.height / 2 and edge[0] == m.vertices[i, 0]
    moved = _mesh(mesh_ops.move_vertex(skinned, "arm", "arm", i, edge))
    assert moved.uvs[i, 1] == pytest.approx(0.0, abs=1e-12)  # the picture's top row (v down)
    assert mesh_ops.on_picture(m, m.vertices[i]) == (pytest.approx(m.vertices[i]), False)
