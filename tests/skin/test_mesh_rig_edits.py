"""Rig edits that a skinned mesh must survive: renaming a bone, deleting one, binding
its slot to another bone; the mesh deforms as it did wherever it still can."""
from __future__ import annotations

import numpy as np

from rigeditor import edits
from rigeditor.io.project_file import dumps_project, loads_project
from rigeditor.model import evaluate


def _mesh(project):
    return project.art.slots[0].attachments[0]


def test_renaming_a_weighted_bone_renames_it_in_the_mesh(skinned):
    renamed = edits.rename(skinned, "bone", "forearm", "lower_arm")
    assert _mesh(renamed).bones == ("upper_arm", "lower_arm")
    a, b = evaluate(skinned), evaluate(renamed)
    np.testing.assert_allclose(b.art.meshes[0].vertices(24), a.art.meshes[0].vertices(24), atol=1e-12)
    loads_project(dumps_project(renamed))  # still a valid file


def test_deleting_a_weighted_bone_gives_its_weight_to_the_others(skinned):
    cut = edits.delete_bone(skinned, "forearm")
    m = _mesh(cut)
    assert m.bones == ("upper_arm",)
    np.testing.assert_allclose(m.weights.sum(axis=1), 1.0)
    # one bone left: the mesh rides it rigidly, as the picture did
    bake = evaluate(cut)
    holder = bake.bone_world.take((24, bake.column("upper_arm")))
    np.testing.assert_allclose(bake.art.meshes[0].vertices(24), holder.apply(m.in_slot_frame()), atol=1e-9)
    loads_project(dumps_project(cut))


def test_binding_the_slot_to_another_bone_keeps_the_deformation(skinned):
    bake = evaluate(skinned)
    moved = edits.bind_slot(skinned, "arm", "forearm", bake, 10)
    assert moved.art.slots[0].bone == "forearm"
    again = evaluate(moved)
    for row in (0, 10, 24, 40):
        np.testing.assert_allclose(again.art.meshes[0].vertices(row), bake.art.meshes[0].vertices(row), atol=1e-9)
