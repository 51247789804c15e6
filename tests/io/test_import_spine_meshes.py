"""Spine meshes, unweighted and weighted, as RigEditor meshes: the deformed vertices
are where Spine puts them, worked out by hand."""
from __future__ import annotations

import copy
import math

import numpy as np

from rigeditor.io.spine.read import import_spine
from rigeditor.io.project_file import load_project
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import LEG, write_rig


def _rot(deg):
    r = math.radians(deg)
    return np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])


HIP = np.array([10.0, 100.0])


def _frames(angle):
    """Spine's world frames (origin, rotation matrix) of thigh and shin with the thigh
    turned ``angle`` degrees more than its setup -80 (forward kinematics)."""
    thigh = (HIP, _rot(-80 + angle))
    shin = (HIP + _rot(-80 + angle) @ [50.0, 3.0], _rot(-70 + angle))
    return {2: thigh, 3: shin}


def _weighted(world_points, influences):
    """Spine's weighted vertex list for vertices at ``world_points`` (setup pose)."""
    setup = _frames(0.0)
    flat = []
    for point, infl in zip(world_points, influences):
        flat.append(len(infl))
        for bone, weight in infl:
            origin, r = setup[bone]
            flat += [bone, *(r.T @ (np.asarray(point) - origin)).tolist(), weight]
    return flat


def test_meshes_deform_where_spine_puts_them(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["mix"] = 0  # forward kinematics only: worked out by hand below
    doc["slots"] += [{"name": "patch", "bone": "thigh", "attachment": "patch"},
                     {"name": "sleeve", "bone": "thigh", "attachment": "sleeve"}]
    patch = [5, -4, 30, -6, 32, 7, 4, 5]  # x, y in the thigh's frame
    world = [(20, 70), (30, 50), (28, 30), (36, 75), (38, 62)]
    influences = [[(2, 1.0)], [(2, 0.5), (3, 0.5)], [(3, 1.0)], [(2, 0.7), (3, 0.3)], [(2, 0.25), (3, 0.75)]]
    doc["skins"][0]["attachments"]["patch"] = {"patch": {
        "type": "mesh", "path": "thigh", "uvs": [0, 1, 1, 1, 1, 0, 0, 0], "triangles": [0, 1, 2, 2, 3, 0],
        "hull": 4, "vertices": patch}}
    doc["skins"][0]["attachments"]["sleeve"] = {"sleeve": {
        "type": "mesh", "path": "shin", "uvs": [0, 1, 1, 1, 1, 0, 0, 0, 0.5, 0.5], "hull": 4,
        "triangles": [0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4], "vertices": _weighted(world, influences)}}
    doc["animations"] = {"bend": {"bones": {"thigh": {"rotate": [{"value": 0}, {"time": 0.4, "value": 25}]}}}}
    src = write_rig(tmp_path / "src", doc)
    out = tmp_path / "leg.rigproj"
    result = import_spine(src, out)
    assert not any("mesh" in line for line in result.warnings)
    project = load_project(out)
    sleeve = project.art.slot("sleeve").attachments[0]
    assert sleeve.bones == ("thigh", "shin") and np.allclose(sleeve.weights.sum(axis=1), 1.0)
    bake = evaluate(project)
    meshes = {m.slot: m for m in bake.art.meshes}
    for i in (0, 5, 12):
        frames = _frames(25.0 * i / 12)
        origin, r = frames[2]
        expected = origin + np.reshape(patch, (-1, 2)) @ r.T
        assert np.allclose(meshes["patch"].vertices(i), expected, atol=1e-9)
        setup = _frames(0.0)
        expected = []
        for point, infl in zip(world, influences):
            expected.append(sum(w * (frames[b][0] + frames[b][1] @ (setup[b][1].T @ (np.asarray(point) - setup[b][0])))
                                for b, w in infl))
        assert np.allclose(meshes["sleeve"].vertices(i), expected, atol=1e-9)
    # Triangles are wound counter-clockwise whichever way Spine listed them.
    p = sleeve.vertices
    a, b, c = (p[sleeve.triangles[:, k]] for k in range(3))
    assert np.all((b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0]) > 0)
