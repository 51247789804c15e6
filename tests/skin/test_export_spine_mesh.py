"""Spine export of mesh attachments: the layout of the format (hull first, flat UVs
and triangles, edges x 2, weighted vertices) and the deformation a runtime computes
from it (Σ w · bone world · bind position, with bone worlds posed from the document
the way Spine poses them), checked against RigEditor's deformed vertices."""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from rigeditor.io.spine.write import spine_document
from rigeditor.model import evaluate
from rigeditor.edits import mesh_ops
from rigeditor.examples.skin import rigid_arm
from rigeditor.model.data.timeline import keyed

sys.path.insert(0, str(Path(__file__).parents[1] / "art"))
from test_export_spine_art import _bone_worlds  # noqa: E402


def _moving(project):
    return project.with_space("character", rotation=keyed([(0, 0.0), (48, 1.0)]),
                              scale=keyed([(0, (1.0, 1.0)), (48, (1.4, 0.7))]),
                              position=keyed([(0, (10.0, -5.0)), (48, (200.0, 40.0))]))


def _weighted(flat, n_vertices):
    """[(bone index, x, y, weight), ...] per vertex from Spine's flat weighted list."""
    out, k = [], 0
    for _ in range(n_vertices):
        count = int(flat[k])
        out.append([tuple(flat[k + 1 + 4 * j:k + 5 + 4 * j]) for j in range(count)])
        k += 1 + 4 * count
    assert k == len(flat)
    return out


def test_a_skinned_mesh_exports_as_a_weighted_mesh_that_deforms_like_ours(skinned):
    project = _moving(skinned)
    bake = evaluate(project)
    doc = spine_document(project, bake)
    m = project.art.slots[0].attachments[0]
    entry = doc["skins"][0]["attachments"]["arm"]["arm"]
    assert entry["type"] == "mesh" and entry["path"] == "skin_art/arm"
    n = len(m.vertices)
    assert len(entry["uvs"]) == 2 * n and len(entry["triangles"]) == 3 * len(m.triangles)
    assert entry["hull"] == m.hull_count() and all(e % 2 == 0 for e in entry["edges"])
    # the hull's vertices come first: the edges of the outer loop join 0..hull-1 in turn
    pairs = np.array(entry["edges"]).reshape(-1, 2) // 2
    outer = pairs[np.all(pairs < entry["hull"], axis=1)]
    assert sorted(outer[:, 0].tolist()) == list(range(entry["hull"]))
    influences = _weighted(entry["vertices"], n)
    names = [b["name"] for b in doc["bones"]]
    np.testing.assert_allclose([sum(w for *_, w in v) for v in influences], 1.0, atol=1e-5)
    pose = bake.art.meshes[0]
    for i in (0, 12, 24, 36):
        world = _bone_worlds(doc, i)
        spine = np.array([sum(w * (world[names[int(b)]] @ [x, y, 1.0])[:2] for b, x, y, w in v) for v in influences])
        np.testing.assert_allclose(spine, pose.vertices(i), atol=1e-3)


def test_a_rigid_mesh_exports_its_vertices_in_its_bone_frame():
    project = rigid_arm()
    alpha = np.zeros((38, 146))
    alpha[3:35, 3:143] = 1.0
    project = _moving(mesh_ops.mesh_from_image(project, "forearm", "forearm", alpha, spacing=25.0))
    bake = evaluate(project)
    doc = spine_document(project, bake)
    entry = doc["skins"][0]["attachments"]["forearm"]["forearm"]
    xy = np.array(entry["vertices"]).reshape(-1, 2)
    pose = bake.art.mesh(bake.art.column("forearm"), 0)
    for i in (0, 24, 48):
        world = _bone_worlds(doc, i)["forearm"]
        np.testing.assert_allclose((world[:2, :2] @ xy.T).T + world[:2, 2], pose.vertices(i), atol=1e-3)
