"""Spine's IK stretch, compress and uniform, as Spine plays them: beyond reach the
chain's first bone frame scales along its x axis by distance / reach (unbounded),
which carries every bone below it; uniform scales its y axis too; a one-bone chain
also compresses. Expected values by hand: distances, ratios and forward kinematics."""
from __future__ import annotations

import copy
import math
from dataclasses import replace

import numpy as np
import pytest

from rigeditor.io import dumps_project, loads_project
from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.model.data.project import LimitStrategy
from rigeditor.model.evaluation.bake import CAUSES
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.model.validation.project import problems

from tests.io.spine_rigs import write_rig

HIP = np.array([10.0, 100.0])
LEG = {
    "skeleton": {"spine": "4.2.11", "fps": 30},
    "bones": [
        {"name": "root"},
        {"name": "hip", "parent": "root", "x": 10, "y": 100},
        {"name": "thigh", "parent": "hip", "length": 50, "rotation": -80},
        {"name": "shin", "parent": "thigh", "length": 45, "x": 50, "rotation": 10},
        {"name": "pad", "parent": "thigh", "length": 8, "x": 20, "y": 5, "rotation": 10},
        {"name": "foot_target", "parent": "root", "x": 15, "y": 20},
    ],
    "ik": [{"name": "leg", "bones": ["thigh", "shin"], "target": "foot_target", "bendPositive": False,
            "stretch": True}],
    "animations": {"walk": {"bones": {"foot_target": {"translate": [
        {"x": 0, "y": 0}, {"time": 0.5, "x": 0, "y": -80}, {"time": 1, "x": 60, "y": 40}]}}}},
}


def _import(tmp_path, doc):
    out = tmp_path / "out" / "leg.rigproj"
    out.parent.mkdir()
    result = import_spine(write_rig(tmp_path / "src", doc, atlas=False, page=False), out)
    return result, load_project(out)


def _targets(frames):
    t = frames / 30.0
    return np.stack([15 + np.interp(t, [0, 0.5, 1], [0, 0, 60]), 20 + np.interp(t, [0, 0.5, 1], [0, -80, 40])],
                    axis=-1)


def _axes(bake, name):
    """Per frame the bone's world x and y axes (columns of its linear part)."""
    w = bake.bone_world
    k = bake.column(name)
    a, b, c, d = (np.asarray(getattr(w, f))[:, k] for f in "abcd")
    return np.stack([a, c], -1), np.stack([b, d], -1)


@pytest.mark.parametrize("uniform", [False, True])
def test_beyond_reach_the_first_bone_frame_scales_and_carries_the_bones_below(tmp_path, uniform):
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["uniform"] = uniform
    result, project = _import(tmp_path, doc)
    assert not any("stretch" in w for w in result.warnings)
    frames = np.arange(31, dtype=float)
    bake = evaluate(project, frames)
    target = _targets(frames)
    d = np.hypot(*(target - HIP).T)
    k = np.maximum(d / 95.0, 1.0)  # Spine: distance over the reach, 50 + 45
    assert (k > 1.2).any() and (k == 1.0).any()
    x_axis, y_axis = _axes(bake, "thigh")
    np.testing.assert_allclose(np.hypot(*x_axis.T), k, atol=1e-9)
    np.testing.assert_allclose(np.hypot(*y_axis.T), k if uniform else 1.0, atol=1e-9)
    # The shin's tip lands on the target on every frame, far ones included.
    shin_x, _ = _axes(bake, "shin")
    tip = bake.joint_world[:, bake.column("shin")] + 45 * shin_x
    np.testing.assert_allclose(tip, target, atol=1e-7)
    # The pad rides the thigh's scaled frame: hip + thigh's linear part (20, 5).
    pad = HIP + 20 * x_axis + 5 * y_axis
    np.testing.assert_allclose(bake.joint_world[:, bake.column("pad")], pad, atol=1e-9)
    names = {CAUSES[c] for c in bake.chains["leg"].cause}
    assert names == {"none"}
    np.testing.assert_allclose(bake.chains["leg"].stretch, k, atol=1e-9)


def test_mix_scales_the_stretch_as_it_blends_the_rotation(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["mix"] = 0.4
    _, project = _import(tmp_path, doc)
    frames = np.arange(31, dtype=float)
    bake = evaluate(project, frames)
    d = np.hypot(*(_targets(frames) - HIP).T)
    k = np.maximum(d / 95.0, 1.0)
    x_axis, _ = _axes(bake, "thigh")
    np.testing.assert_allclose(np.hypot(*x_axis.T), 1 + 0.4 * (k - 1), atol=1e-9)


def test_a_stretching_child_off_its_parents_axis_is_placed_on_it_as_spine_does(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["bones"][3]["y"] = 4
    result, project = _import(tmp_path, doc)
    assert project.bone("shin").rest_offset == (50.0, 0.0)
    assert any(w.startswith("stretching IK children off their parent's axis") for w in result.warnings)


@pytest.mark.parametrize("flags, far, near", [(("stretch",), True, False), (("compress",), False, True),
                                             (("stretch", "compress", "uniform"), True, True)])
def test_a_one_bone_chain_stretches_or_compresses_to_its_target(tmp_path, flags, far, near):
    doc = copy.deepcopy(LEG)
    doc["ik"] = [{"name": "leg", "bones": ["shin"], "target": "foot_target",
                  "stretch": "stretch" in flags, "compress": "compress" in flags, "uniform": "uniform" in flags}]
    _, project = _import(tmp_path, doc)
    assert project.chain("leg").spine_scale == flags
    frames = np.arange(31, dtype=float)
    bake = evaluate(project, frames)
    origin = HIP + 50 * np.array([math.cos(math.radians(-80)), math.sin(math.radians(-80))])
    d = np.hypot(*(_targets(frames) - origin).T)
    scaled = (far & (d > 45)) | (near & (d < 45))
    assert scaled.any() and (near or (~scaled).any())  # a target both far and near of the bone
    x_axis, y_axis = _axes(bake, "shin")
    expected = np.where(scaled, d / 45, 1.0)
    np.testing.assert_allclose(np.hypot(*x_axis.T), expected, atol=1e-9)
    np.testing.assert_allclose(np.hypot(*y_axis.T), expected if "uniform" in flags else 1.0, atol=1e-9)
    tip = bake.joint_world[:, bake.column("shin")] + 45 * x_axis
    np.testing.assert_allclose(tip[scaled], _targets(frames)[scaled], atol=1e-7)


def test_spine_scale_survives_the_file_and_is_held_to_what_spine_does(tmp_path):
    _, project = _import(tmp_path, LEG)
    again = loads_project(dumps_project(project))
    assert again.chain("leg").spine_scale == ("stretch",)
    chain = project.chain("leg")
    bad = {
        "compress": replace(chain, spine_scale=("compress",)),
        "accept strategy": replace(chain, strategy=LimitStrategy("stretch")),
        "at most once": replace(chain, spine_scale=("stretch", "stretch")),
    }
    for words, c in bad.items():
        assert any(words in p for p in problems(replace(project, chains=(c,)))), words
    assert problems(project) == []
    # Uniform alone is Spine's to write (it scales nothing until a stretch key turns stretch on).
    assert problems(replace(project, chains=(replace(chain, spine_scale=("uniform",)),))) == []
