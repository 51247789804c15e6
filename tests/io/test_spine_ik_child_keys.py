"""Translate keys on the second bone of a Spine two-bone IK (Esoteric's stretchyman
keys its arms' so): imported, not dropped; the chain solved to wherever that bone
starts, as Spine solves it (``spine_pose``: the format's description, by hand); kept by
the project file, refused where a chain measures its bones (limits), and written back."""
from __future__ import annotations

import copy

import numpy as np
import pytest

from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.io.spine.write import spine_document
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.model.validation.project import problems

from spine_pose import spine_pose
from tests.io.spine_rigs import LEG, write_rig

SHIN_KEYS = [{"x": 0, "y": 0}, {"time": 0.2, "x": 6, "y": -4}, {"time": 0.4, "x": -3, "y": 5}]


def keyed_leg(mix=None):
    """LEG (its shin already off the thigh's axis) with the shin's position keyed;
    ``mix``: the leg IK's mix keyed (None: 1, its setup)."""
    doc = copy.deepcopy(LEG)
    doc["animations"]["walk"]["bones"]["shin"] = {"translate": copy.deepcopy(SHIN_KEYS)}
    if mix is not None:
        doc["animations"]["walk"]["ik"] = {"leg": [{"mix": mix}]}
    return doc


def imported(tmp_path, doc):
    result = import_spine(write_rig(tmp_path / "src", doc), tmp_path / "leg.rigproj")
    return result, load_project(tmp_path / "leg.rigproj")


def gap(doc, bake, i) -> float:
    """Largest distance (model units) between the bones' origins, and the tips of those
    with a length, at frame i and where Spine places them."""
    pose = spine_pose(doc, i / bake.fps)
    long = {b["name"] for b in doc["bones"] if b.get("length", 0.0) > 0}
    return max(float(np.hypot(*(pose[bone][end] - world[i, k])))
               for k, bone in enumerate(bake.bones) for end, world in ((0, bake.joint_world), (1, bake.tip_world))
               if end == 0 or bone in long)


@pytest.mark.parametrize("mix", [None, 0.5, 0.0])
def test_keys_on_the_ik_childs_position_play_as_spine_plays_them(tmp_path, mix):
    doc = keyed_leg(mix)
    result, project = imported(tmp_path, doc)
    assert not any("shin" in w for w in result.warnings), result.warnings
    bake = evaluate(project)
    assert len(bake) == 13
    assert max(gap(doc, bake, i) for i in range(len(bake))) < 1e-6
    unkeyed = copy.deepcopy(doc)
    del unkeyed["animations"]["walk"]["bones"]["shin"]
    assert max(gap(unkeyed, bake, i) for i in range(len(bake))) > 1.0  # (the keys move the leg)


def test_the_keys_survive_the_project_file_and_the_spine_export(tmp_path):
    doc = keyed_leg()
    _, project = imported(tmp_path, doc)
    assert problems(project) == []
    bake = evaluate(project)
    out = spine_document(project, bake, animation="walk")
    assert [ik["bones"] for ik in out["ik"]] == [["thigh", "shin"]]  # a live IK, the game can move its target
    assert "translate" in out["animations"]["walk"]["bones"]["shin"]
    for i in range(len(bake)):
        assert gap(out, bake, i) < 1e-3  # (the export's numbers are rounded)


def test_a_chain_with_limits_still_refuses_a_translated_second_bone(tmp_path):
    _, project = imported(tmp_path, keyed_leg())
    chain = project.chains[0]
    limited = project.with_chain(chain.name, limits=((-3.0, 3.0), (-3.0, 3.0)))
    assert any("cannot be translated" in p for p in problems(limited)), problems(limited)


def test_keys_that_bring_the_second_bone_onto_the_first_ones_origin_are_dropped_and_said(tmp_path):
    doc = keyed_leg()
    doc["animations"]["walk"]["bones"]["shin"]["translate"][1] = {"time": 0.2, "x": -50, "y": -3}  # onto the thigh's origin
    result, project = imported(tmp_path, doc)
    assert [w for w in result.warnings if "onto its first bone's origin" in w] == [
        "translate keys bringing an IK chain's second bone onto its first bone's origin (dropped: the solve has "
        "no segment there): shin"]
    assert np.all(np.isfinite(evaluate(project).joint_world))
    from rigeditor.model.data.timeline import keyed

    onto = project.with_bone("shin", translate=keyed([(0, (0.0, 0.0)), (6, (-50.0, -3.0))]))
    assert any("is translated to within" in p and "of its parent's origin" in p for p in problems(onto))


def test_the_first_bone_of_a_chain_may_be_keyed_onto_its_parents_origin(tmp_path):
    # (It moves the shoulder: the solve's segments are the same wherever that is.)
    doc = keyed_leg()
    doc["animations"]["walk"]["bones"]["thigh"] = {"translate": [{"x": 0, "y": 0}, {"time": 0.2, "x": 0, "y": 0}]}
    result, project = imported(tmp_path, doc)
    assert not any("origin" in w for w in result.warnings), result.warnings
    bake = evaluate(project)
    assert max(gap(doc, bake, i) for i in range(len(bake))) < 1e-6
