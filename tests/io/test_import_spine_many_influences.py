"""A Spine mesh vertex weighted to more than four bones keeps every weight: Spine puts
no bound on them, and cutting the lightest ones moved a production raptor's body up to
1.4 units from where Spine puts it. Checked against linear blend skinning worked out by
hand from the JSON's per-bone coordinates, through the project file and the Spine
export."""
from __future__ import annotations

import copy
import json
import math

import numpy as np

from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import LEG, write_rig

CHAIN = 6  # bones b1..b6 from the root, each 20 long, each keyed to turn
TURNS = [12.0, -20.0, 35.0, -15.0, 28.0, -40.0]  # degrees at 0.4 s (linear from 0)
# Per vertex: (bone number 1..6, x, y in that bone's frame, weight).
VERTICES = [
    [(1, 5.0, 2.0, 1.0)],
    [(1, 3.0, -4.0, 0.30), (2, -1.0, 6.0, 0.25), (3, 4.0, 1.0, 0.20), (4, 2.0, -3.0, 0.12),
     (5, -6.0, 2.0, 0.08), (6, 1.0, 1.0, 0.05)],
    [(3, 2.0, 2.0, 0.6), (6, -3.0, 5.0, 0.39999)],  # Spine's 5 decimals: played as written, not renormalised
    [(2, 7.0, -2.0, 0.4), (4, 1.0, 3.0, 0.3), (5, -2.0, -2.0, 0.2), (6, 4.0, 0.0, 0.1)],
]


def _doc():
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["mix"] = 0
    first = len(doc["bones"])
    for k in range(1, CHAIN + 1):
        doc["bones"].append({"name": f"b{k}", "parent": "root" if k == 1 else f"b{k - 1}", "length": 20,
                             **({"x": 20} if k > 1 else {"x": 200, "y": 50})})
    flat = []
    for infl in VERTICES:
        flat.append(len(infl))
        for b, x, y, w in infl:
            flat += [first + b - 1, x, y, w]
    doc["slots"].append({"name": "cape", "bone": "b1", "attachment": "cape"})
    doc["skins"][0]["attachments"]["cape"] = {"cape": {
        "type": "mesh", "path": "thigh", "uvs": [0, 1, 1, 1, 1, 0, 0, 0], "triangles": [0, 1, 2, 2, 3, 0],
        "hull": 4, "vertices": flat}}
    doc["animations"] = {"sway": {"bones": {f"b{k}": {"rotate": [{"value": 0}, {"time": 0.4, "value": TURNS[k - 1]}]}
                                            for k in range(1, CHAIN + 1)}}}
    return doc


def _expected(t):
    """Every vertex by hand: each bone's world frame down the chain at time t, then
    the weighted sum of its per-bone points (Spine's weighted mesh)."""
    s = min(t, 0.4) / 0.4
    origin, angle, frames = np.array([200.0, 50.0]), 0.0, {}
    for k in range(1, CHAIN + 1):
        if k > 1:
            origin = origin + 20.0 * np.array([math.cos(angle), math.sin(angle)])
        angle += math.radians(TURNS[k - 1] * s)
        frames[k] = (origin, np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]]))
    return np.array([sum(w * (frames[b][0] + frames[b][1] @ [x, y]) for b, x, y, w in infl) for infl in VERTICES])


def test_every_weight_of_a_vertex_is_kept_and_plays_where_spine_puts_it(tmp_path):
    src = write_rig(tmp_path / "src", _doc())
    result = import_spine(src, tmp_path / "cape.rigproj")
    assert not any("weight" in w for w in result.warnings), result.warnings
    project = load_project(tmp_path / "cape.rigproj")  # through the project file
    mesh = project.art.slot("cape").attachments[0]
    assert mesh.weights.shape == (4, 6)  # as wide as the most weighted vertex
    bake = evaluate(project)
    (pose,) = [m for m in bake.art.meshes if m.slot == "cape"]
    for i in range(len(bake)):
        np.testing.assert_allclose(pose.vertices(i), _expected(bake.frames[i] / 30.0), atol=1e-6,
                                   err_msg=f"frame {i}")


def test_the_spine_export_writes_every_weight_back(tmp_path):
    from rigeditor.cli import main

    src = write_rig(tmp_path / "src", _doc())
    import_spine(src, tmp_path / "cape.rigproj")
    assert main(["bake", str(tmp_path / "cape.rigproj"), "-o", str(tmp_path / "out" / "cape.json"),
                 "--format", "spine"]) == 0
    written = json.loads((tmp_path / "out" / "cape.json").read_text())
    cape = next(a for skin in written["skins"] for s, atts in skin["attachments"].items() if s == "cape"
                for a in atts.values())
    counts, i, v = [], 0, cape["vertices"]
    while i < len(v):
        counts.append(int(v[i]))
        i += 1 + 4 * int(v[i])
    assert counts == [len(infl) for infl in VERTICES]
    back = import_spine(tmp_path / "out" / "cape.json", tmp_path / "back.rigproj")
    bake = evaluate(load_project(tmp_path / "back.rigproj"))
    (pose,) = [m for m in bake.art.meshes if m.slot == "cape"]
    np.testing.assert_allclose(pose.vertices(len(bake) - 1), _expected(bake.frames[-1] / 30.0), atol=1e-4)
    assert back is not None


def test_deleting_a_vertex_of_a_mesh_bound_apart_leaves_the_others_where_spine_puts_them(tmp_path):
    from rigeditor import edits

    src = write_rig(tmp_path / "src", _doc())
    import_spine(src, tmp_path / "cape.rigproj")
    after = edits.delete_vertex(load_project(tmp_path / "cape.rigproj"), "cape", "cape", 0)
    bake = evaluate(after)
    (pose,) = [m for m in bake.art.meshes if m.slot == "cape"]
    for i in range(len(bake)):
        np.testing.assert_allclose(pose.vertices(i), _expected(bake.frames[i] / 30.0)[1:], atol=1e-6,
                                   err_msg=f"frame {i}")


def test_a_dropped_bone_takes_its_offsets_with_it_and_the_others_keep_theirs():
    from rigeditor.edits.mesh_ops import carried_offsets
    from rigeditor.model.data.mesh_attachment import MeshAttachment

    offsets = np.array([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [0.0, 0.0]]])
    m = MeshAttachment(name="m", path="p", width=2.0, height=2.0, vertices=np.zeros((2, 2)), bones=("a", "b"),
                       bind=np.tile([1.0, 0, 0, 1, 0, 0], (2, 1)), indices=[[0, 1], [1, 0]],
                       weights=[[0.5, 0.5], [1.0, 0.0]], bind_offsets=offsets)
    # Bone "a" goes: "b" becomes bone 0, and each vertex keeps b's offset only.
    got = carried_offsets(m, np.array([[0, 0], [0, 0]]), bones=[-1, 0])
    np.testing.assert_array_equal(got, [[[3.0, 4.0], [3.0, 4.0]], [[5.0, 6.0], [5.0, 6.0]]])
