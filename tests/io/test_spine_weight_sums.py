"""Weights as Spine's editor writes them (rounded to 5 decimals, so a vertex's sum is
0.99999 or 1.00001) play as Spine's runtimes play them: a vertex is the weighted sum of
its bones' world points, the root's motion (RigEditor's character space) inside each,
so such a vertex takes 0.99999 of the root's translation. Checked against that sum
worked out here from the file's numbers, on both ways the editor reads a mesh."""
from __future__ import annotations

import json
import math

import numpy as np

from rigeditor.io.spine.read import spine_project
from rigeditor.io.spine.skeleton import parse_spine
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.model.validation.project import problems

from tests.io.test_import_spine_fuzz import _Pages

FALL = 3000.0  # the root's drop over the animation's second (units)
# Per vertex: influences (bone index, x, y, weight) in each bone's own frame.
INFLUENCES = [[(1, 0.0, 0.0, 0.6), (2, -20.0, 0.0, 0.39999)],
              [(1, 30.0, 0.0, 0.5), (2, 10.0, 0.0, 0.50001)],
              [(1, 20.0, 15.0, 1.0)],
              [(1, 0.0, 15.0, 0.3), (2, -20.0, 15.0, 0.69999)]]
DOC = {
    "skeleton": {"spine": "4.2.22"},
    "bones": [{"name": "root"}, {"name": "a", "parent": "root", "x": 10, "y": 5, "length": 20},
              {"name": "b", "parent": "a", "x": 20, "rotation": 30, "length": 20}],
    "slots": [{"name": "skin", "bone": "a", "attachment": "skin"}],
    "skins": [{"name": "default", "attachments": {"skin": {"skin": {
        "type": "mesh", "uvs": [0, 1, 1, 1, 1, 0, 0, 0], "triangles": [0, 1, 2, 0, 2, 3], "hull": 4,
        "edges": [0, 2, 2, 4, 4, 6, 6, 0],
        "vertices": [v for inf in INFLUENCES for v in [len(inf), *[x for i in inf for x in i]]]}}}}],
    "animations": {"fall": {"bones": {"root": {"translate": [{"y": FALL}, {"time": 1}]},
                                      "b": {"rotate": [{}, {"time": 1, "value": 50}]}}}},
}


def _spine_vertices(t: float) -> np.ndarray:
    """Σ w · world · (x, y) per vertex at time t, the bones' world frames by hand."""
    def frame(x, y, degrees):
        c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
        return np.array([[c, -s, x], [s, c, y], [0.0, 0.0, 1.0]])
    root = frame(0.0, FALL * (1.0 - t), 0.0)
    a = root @ frame(10.0, 5.0, 0.0)
    b = a @ frame(20.0, 0.0, 30.0 + 50.0 * t)
    worlds = {1: a, 2: b}
    return np.array([sum(w * (worlds[k] @ [x, y, 1.0])[:2] for k, x, y, w in inf) for inf in INFLUENCES])


def test_weights_that_sum_to_nearly_one_carry_the_root_as_spine_plays_them():
    project = spine_project(parse_spine(json.dumps(DOC)), _Pages()).project
    assert problems(project) == []
    frames = np.array([0.0, 9.0, 30.0])
    bake = evaluate(project, frames)
    column = bake.art.slots.index("skin")
    pose = next(m for m in bake.art.meshes if m.column == column)
    for i, f in enumerate(frames):
        expected = _spine_vertices(f / project.timeline.fps)
        np.testing.assert_allclose(pose.vertices(i), expected, atol=1e-9)  # a mesh alone
        np.testing.assert_allclose(bake.art.row(i).meshes[column], expected, atol=1e-9)  # as the scene draws it
    # (3,000 units out the rounding is worth 0.02-0.03 units: beyond a runtime match's 0.01)
    sums = np.array([sum(w for *_, w in inf) for inf in INFLUENCES])
    assert np.abs((sums - 1.0) * FALL).max() > 0.01
