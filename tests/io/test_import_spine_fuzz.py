"""Fuzzing the Spine import: random mutations of a valid skeleton either import or
raise SpineError with one located problem; never any other exception."""
from __future__ import annotations

import copy
import json

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rigeditor.io.spine.read import spine_project
from rigeditor.io.spine.skeleton import SpineError, parse_spine
from rigeditor.model.validation.project import problems

from tests.io.json_mutations import json_values, paths
from tests.io.spine_rigs import LEG

DOC = copy.deepcopy(LEG)
DOC["skins"][0]["attachments"]["shin"]["mesh"] = {
    "type": "mesh", "uvs": [0, 1, 1, 1, 1, 0], "triangles": [0, 1, 2], "hull": 3, "edges": [0, 2, 2, 4, 4, 0],
    "vertices": [1, 2, 0, 0, 1, 2, 2, 10, 0, 0.5, 3, 0, 0, 0.5, 1, 3, 0, 9, 1]}  # weighted to thigh and shin
DOC["skins"][0]["attachments"]["thigh"]["link"] = {"type": "linkedmesh", "parent": "mesh", "path": "thigh"}
DOC["skins"].append({"name": "red", "attachments": {"thigh": {"thigh": {"width": 5, "height": 5}}}})
DOC["animations"]["walk"].update({
    "slots": {"shin": {"attachment": [{"time": 0.1, "name": None}]}},
    "drawOrder": [{"time": 0.2, "offsets": [{"slot": "thigh", "offset": 1}]}],
    "ik": {"leg": [{"mix": 0.5, "curve": [0.1, 0.5, 0.2, 1, 0.1, 0, 0.2, 0]}, {"time": 0.3, "bendPositive": True}]},
})
DOC["animations"]["walk"]["bones"]["thigh"] = {"rotate": [{"value": 5, "curve": [0.1, 5, 0.2, 9]}, {"time": 0.4}]}

PATHS = [p for p in paths(DOC) if p]


class _Pages:
    """Every region is a small opaque picture (the atlas is tested elsewhere)."""

    def picture(self, region):
        assert isinstance(region, str)
        return np.full((6, 4, 4), 255, dtype=np.uint8)


def test_the_unmutated_skeleton_imports():
    result = spine_project(parse_spine(json.dumps(DOC)), _Pages())
    assert problems(result.project) == []
    assert any(a.kind == "mesh" for s in result.project.art.slots for a in s.attachments)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(PATHS), json_values), min_size=1, max_size=3))
def test_mutated_skeletons_import_or_say_where(mutations):
    doc = copy.deepcopy(DOC)
    for path, value in mutations:
        node = doc
        try:
            for k in path[:-1]:
                node = node[k]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    try:
        result = spine_project(parse_spine(json.dumps(doc)), _Pages())
    except SpineError as exc:
        assert len(exc.problems) == 1 and ": " in exc.problems[0]
        return
    assert problems(result.project) == []
