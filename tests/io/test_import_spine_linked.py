"""Spine linked meshes: the parent's geometry and weights, with the parent's deform
keys (``timelines``, 4.0's ``deform``) or their own; imported, evaluated, exported
back as linked meshes."""
from __future__ import annotations

import json

import numpy as np
import pytest

from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.model.data.linked_mesh import LinkedMesh
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.model.validation.project import problems

from tests.io.spine_rigs import write_rig
from tests.io.test_import_spine_deform import PATCH, _doc, expected
from tests.io.test_import_spine_meshes import _frames

OWN = [0, 0, 0, 0, 4, 4, 0, 0]  # the linked mesh's own key: vertex 2 moved by (4, 4)


def _linked_doc(shown: str, flag: str = "timelines"):
    doc = _doc()
    atts = doc["skins"][0]["attachments"]
    atts["patch"]["follows"] = {"type": "linkedmesh", "parent": "patch", "path": "shin"}
    atts["patch"]["own"] = {"type": "linkedmesh", "parent": "patch", "path": "shin", flag: False}
    # A key on a mesh that follows its parent's timelines is not played (Spine keys the parent).
    deforms = doc["animations"]["bend"]["attachments"]["default"]["patch"]
    deforms["follows"] = {"deform": [{"time": 0, "vertices": OWN}]}
    deforms["own"] = {"deform": [{"time": 0, "vertices": OWN}]}
    doc["slots"][2]["attachment"] = shown
    return doc


@pytest.mark.parametrize("shown", ["follows", "own"])
def test_a_linked_mesh_shares_its_parents_geometry_with_or_without_its_keys(tmp_path, shown):
    import_spine(write_rig(tmp_path / "src", _linked_doc(shown)), tmp_path / "leg.rigproj")
    project = load_project(tmp_path / "leg.rigproj")
    assert problems(project) == []
    linked = project.art.slot("patch").find(shown)
    assert isinstance(linked, LinkedMesh) and linked.parent == "patch" and linked.timelines == (shown == "follows")
    bake = evaluate(project)
    pose = next(m for m in bake.art.meshes if m.slot == "patch" and m.shown.all())
    assert pose.mesh.name == shown
    for i in range(len(bake)):
        patch, _ = expected(i)  # the parent's vertices with the parent's offsets
        if shown == "own":  # the parent's geometry with its own key instead
            origin, r = _frames(25.0 * min(i / 30.0, 0.4) / 0.4)[2]
            patch = origin + (np.reshape(PATCH, (-1, 2)) + np.reshape(OWN, (-1, 2))) @ r.T
        np.testing.assert_allclose(pose.vertices(i), patch, atol=1e-6, err_msg=f"frame {i}")


def test_the_4_0_deform_flag_and_the_export_keep_the_link(tmp_path):
    from rigeditor.cli import main

    doc = _linked_doc("own", flag="deform")
    import_spine(write_rig(tmp_path / "src", doc), tmp_path / "leg.rigproj")
    project = load_project(tmp_path / "leg.rigproj")
    assert project.art.slot("patch").find("own").timelines is False
    assert main(["bake", str(tmp_path / "leg.rigproj"), "-o", str(tmp_path / "out" / "leg.json"),
                 "--format", "spine"]) == 0
    written = json.loads((tmp_path / "out" / "leg.json").read_text())
    skin = next(s for s in written["skins"] if s["name"] == "default")["attachments"]["patch"]
    assert skin["own"]["type"] == "linkedmesh" and skin["own"]["parent"] == "patch"
    assert skin["own"]["timelines"] is False and "timelines" not in skin["follows"]
    import_spine(tmp_path / "out" / "leg.json", tmp_path / "back.rigproj")
    back = load_project(tmp_path / "back.rigproj")
    a, b = evaluate(project), evaluate(back)
    ma = next(m for m in a.art.meshes if m.slot == "patch" and m.shown.all())
    mb = next(m for m in b.art.meshes if m.slot == "patch" and m.shown.all())
    for i in range(len(a)):
        np.testing.assert_allclose(mb.vertices(i), ma.vertices(i), atol=1e-4)


def test_a_linked_mesh_follows_an_edit_of_its_parent_and_a_missing_parent_is_refused(tmp_path):
    from dataclasses import replace

    import_spine(write_rig(tmp_path / "src", _linked_doc("follows")), tmp_path / "leg.rigproj")
    project = load_project(tmp_path / "leg.rigproj")
    slot = project.art.slot("patch")
    parent = slot.find("patch")
    moved = replace(parent, vertices=parent.vertices + 1.0)
    p2 = replace(project, art=project.art.with_slot("patch", attachments=tuple(
        moved if a is parent else a for a in slot.attachments)))
    before = next(m for m in evaluate(project, [0]).art.meshes if m.shown.all() and m.slot == "patch")
    after = next(m for m in evaluate(p2, [0]).art.meshes if m.shown.all() and m.slot == "patch")
    shift = parent.local().apply(parent.vertices + 1.0) - parent.in_slot_frame()
    assert np.abs(after.vertices(0) - before.vertices(0)).max() > 0.5
    np.testing.assert_allclose(np.linalg.norm(after.vertices(0) - before.vertices(0), axis=1),
                               np.linalg.norm(shift, axis=1), atol=1e-9)  # the bone only turns it
    orphan = replace(project, art=project.art.with_slot("patch", attachments=tuple(
        a for a in slot.attachments if a.name != "patch")))
    orphan = replace(orphan, art=replace(orphan.art, deforms=()))
    assert any(".parent: slot 'patch' has no attachment 'patch'" in x for x in problems(orphan))
