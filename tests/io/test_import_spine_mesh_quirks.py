"""Meshes as Spine's editor writes them and its runtimes play them, which RigEditor's
meshes cannot hold as they stand: UVs a little (rounding) or well outside the picture,
and triangles with a repeated vertex. They import; what changes is said once per kind,
and the mesh's vertices (what a runtime's world vertices are made of) are untouched."""
from __future__ import annotations

import copy
import json

import numpy as np

from rigeditor.io.spine.read import spine_project
from rigeditor.io.spine.skeleton import parse_spine
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.model.validation.project import problems

from tests.io.test_import_spine_fuzz import DOC, _Pages

QUAD = {"type": "mesh", "uvs": [0, 0, 1, 0, 1, 1, 0, 1], "hull": 4, "edges": [0, 2, 2, 4, 4, 6, 6, 0],
        "triangles": [0, 1, 2, 0, 2, 3], "vertices": [0, 0, 6, 0, 6, 9, 0, 9]}


def _import(mesh):
    doc = copy.deepcopy(DOC)
    doc["skins"][0]["attachments"]["shin"]["mesh"] = mesh
    result = spine_project(parse_spine(json.dumps(doc)), _Pages())
    assert problems(result.project) == []
    slot = next(s for s in result.project.art.slots if s.name == "shin")
    return result, next(a for a in slot.attachments if a.name == "mesh")


def _mesh_lines(result):
    """The warnings beyond those of the same rig with the plain quad (the rig's others)."""
    plain, _ = _import(QUAD)
    return [line for line in result.warnings if line not in plain.warnings]


def test_a_uv_rounded_past_the_edge_is_the_edge_without_a_word():
    result, mesh = _import({**QUAD, "uvs": [0, -0.00001, 1.00001, 0, 1, 1, 0, 1]})
    assert mesh.uvs.min() == 0.0 and mesh.uvs.max() == 1.0
    assert _mesh_lines(result) == []


def test_uvs_well_outside_the_picture_are_clamped_to_its_edge_and_said_once():
    plain, plain_mesh = _import(QUAD)
    result, mesh = _import({**QUAD, "uvs": [-0.5, 0, 1.25, 0, 1, 1, 0, 1.5]})
    assert np.array_equal(mesh.uvs, [[0, 0], [1, 0], [1, 1], [0, 1]])
    assert len(_mesh_lines(result)) == 1 and "UVs outside their picture" in _mesh_lines(result)[0]
    assert "shin/mesh" in _mesh_lines(result)[0]
    # Where the vertices are does not depend on the UVs: the same as with UVs inside.
    assert np.array_equal(mesh.vertices, plain_mesh.vertices)


def test_a_triangle_with_a_repeated_vertex_is_dropped_and_said_once():
    plain, plain_mesh = _import(QUAD)
    result, mesh = _import({**QUAD, "triangles": [0, 1, 2, 1, 1, 3, 0, 2, 3]})
    assert len(mesh.triangles) == 2
    assert sorted(map(sorted, mesh.triangles.tolist())) == sorted(map(sorted, plain_mesh.triangles.tolist()))
    lines = _mesh_lines(result)
    assert len(lines) == 1 and "repeated vertex" in lines[0] and "shin/mesh" in lines[0]
    # It plays: the same pose as the mesh without the flat triangle.
    frames = result.project.timeline.frames[:3]
    a, b = evaluate(result.project, frames), evaluate(plain.project, frames)
    col = [s.name for s in result.project.art.slots].index("shin")
    assert np.allclose(a.art.row(1).corners[col], b.art.row(1).corners[col])
