"""Spine bones' shear, inherit modes and scales through zero, imported (numbers by hand)."""
from __future__ import annotations

import copy
import math

import numpy as np
import pytest

from rigeditor.io.spine.read import import_spine
from rigeditor.io.project_file import load_project
from rigeditor.io.spine.skeleton import SpineError
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import LEG, write_rig


def _import(tmp_path, bones=(), animations=None, version=None, **root):
    doc = copy.deepcopy(LEG)
    if version is not None:
        doc["skeleton"]["spine"] = version
    doc["ik"] = []
    doc["bones"] += list(bones)
    doc["animations"] = animations or {"still": {}}
    out = tmp_path / "out" / "leg.rigproj"
    out.parent.mkdir()
    result = import_spine(write_rig(tmp_path / "src", doc), out)
    return result, load_project(out)


def _axes(bake, name, row):
    w = bake.bone_world.take((slice(None), bake.column(name)))
    return np.array([[w.a[row], w.b[row]], [w.c[row], w.d[row]]])


def test_setup_and_keyed_shear_are_offsets_in_degrees(tmp_path):
    tail = {"name": "tail", "parent": "root", "length": 20, "rotation": 10, "shearX": 20, "shearY": -30}
    keys = {"bones": {"tail": {"shearx": [{"time": 0, "value": 0}, {"time": 1, "value": 40}],
                               "sheary": [{"time": 0, "value": 0}, {"time": 1, "value": 30}]}}}
    result, project = _import(tmp_path, [tail], {"bend": keys})
    assert result.warnings == []
    bake = evaluate(project, [15.0])
    # Half way: shear x 20 + 20, shear y -30 + 15; the x axis at 10 + 40, the y axis at 10 + 90 - 15.
    x, y = math.radians(50), math.radians(85)
    np.testing.assert_allclose(_axes(bake, "tail", 0), [[math.cos(x), math.cos(y)], [math.sin(x), math.sin(y)]],
                               atol=1e-12)


def test_inherit_modes_and_the_inherit_timeline(tmp_path):
    bones = [{"name": "p", "parent": "root", "length": 20, "rotation": 90, "scaleX": 2},
             {"name": "k", "parent": "p", "length": 5, "x": 20, "inherit": "onlyTranslation"}]
    keys = {"bones": {"k": {"inherit": [{"time": 0.5, "inherit": "normal"}]}}}
    _, project = _import(tmp_path, bones, {"switch": keys})
    assert project.bone("k").inherit.default == "onlyTranslation"
    bake = evaluate(project, [0.0, 15.0])
    np.testing.assert_allclose(_axes(bake, "k", 0), np.eye(2), atol=1e-12)  # the world's own axes
    np.testing.assert_allclose(_axes(bake, "k", 1), [[0.0, -1.0], [2.0, 0.0]], atol=1e-12)  # the parent's
    np.testing.assert_allclose(bake.joint_world[0, bake.column("k")], [0.0, 40.0], atol=1e-12)


def test_spine_4_1_names_the_inherit_mode_transform(tmp_path):
    result, project = _import(tmp_path, [{"name": "k", "parent": "root", "length": 5, "transform": "noScale"}],
                              version="4.1.24")
    assert project.bone("k").inherit.default == "noScale"
    assert not any("inherit" in w for w in result.warnings)


def test_a_4_2_file_plays_an_old_transform_key_as_the_4_2_runtimes_do(tmp_path):
    # spine-core 4.2 reads a bone's inherit mode from "inherit" alone; early 4.2 exports
    # (Esoteric's snowglobe) still wrote "transform", which it then plays as normal.
    result, project = _import(tmp_path, [{"name": "k", "parent": "root", "length": 5, "transform": "noScale"},
                                         {"name": "j", "parent": "root", "length": 5, "transform": "normal"}])
    assert project.bone("k").inherit.default == project.bone("j").inherit.default == "normal"
    assert [w for w in result.warnings if "'transform'" in w] == [
        "bone inherit modes written as 'transform' in a 4.2 file (the 4.2 runtimes read only 'inherit': played "
        "as normal, as they play it): k"]


def test_an_unknown_inherit_mode_is_refused_where_it_is(tmp_path):
    with pytest.raises(SpineError) as err:
        _import(tmp_path, [{"name": "k", "parent": "root", "length": 5, "inherit": "sideways"}])
    assert "bones[5].inherit: must be one of normal, onlyTranslation" in err.value.problems[0]


def test_a_scale_key_of_0_and_a_scale_through_zero_import(tmp_path):
    bones = [{"name": "k", "parent": "root", "length": 10, "scaleY": 0}]
    keys = {"bones": {"k": {"scale": [{"time": 0, "x": 1, "y": 1}, {"time": 1, "x": -1, "y": 1}]}}}
    result, project = _import(tmp_path, bones, {"pop": keys})
    assert result.warnings == []
    bake = evaluate(project, [0.0, 15.0, 30.0])
    tip = bake.tip_world[:, bake.column("k")]
    # Length 10 along x scaled 1 -> 0 -> -1; the y axis stays collapsed (setup 0 times 1).
    np.testing.assert_allclose(tip, [[10.0, 0.0], [0.0, 0.0], [-10.0, 0.0]], atol=1e-12)
    np.testing.assert_allclose(_axes(bake, "k", 0)[:, 1], [0.0, 0.0], atol=1e-12)


def project_bone_offset(path, name):
    return tuple(load_project(path).bone(name).rest_offset)


@pytest.mark.parametrize("mode", ["onlyTranslation", "noRotationOrReflection"])
def test_a_child_that_takes_no_rotation_keeps_it_below_an_ik_parent_with_an_off_axis_child(tmp_path, mode):
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["mix"] = 0  # Spine's forward kinematics: the setup pose by hand
    doc["bones"].append({"name": "strap", "parent": "thigh", "length": 10, "x": 20, "y": 2, "rotation": 20,
                         "inherit": mode})
    out = tmp_path / "out" / "leg.rigproj"
    out.parent.mkdir()
    result = import_spine(write_rig(tmp_path / "src", doc), out)
    assert project_bone_offset(out, "shin") == (50.0, 3.0)  # the shin sits off the thigh's axis
    bake = evaluate(load_project(out), [0.0])
    k = bake.column("strap")
    # Placed by the thigh (world -80 degrees at the hip (10, 100)), turned by nothing of it.
    a = math.radians(-80)
    np.testing.assert_allclose(bake.joint_world[0, k], [10 + 20 * math.cos(a) - 2 * math.sin(a),
                                                        100 + 20 * math.sin(a) + 2 * math.cos(a)], atol=1e-9)
    assert math.degrees(bake.world_rotation[0, k]) == pytest.approx(20.0, abs=1e-9)
