"""Transform constraints as project data: edits, the file (schema 6), validation."""
import json
import math
from pathlib import Path

import pytest

from rigeditor import edits
from rigeditor.edits import EditError
from rigeditor.io.project_file import dumps_project, loads_project
from rigeditor.io.schema.project import SCHEMA_VERSION
from rigeditor.model.data import clips
from rigeditor.model.data.project import Bone, Project
from rigeditor.model.validation.project import problems

FIXTURES = Path(__file__).parents[1] / "io" / "fixtures"


def rig() -> Project:
    bones = (Bone("hip", None, 10.0), Bone("arm", "hip", 5.0, (10.0, 0.0)), Bone("lamp", None, 3.0, (0.0, 20.0)))
    return Project(bones=bones)


def test_add_rename_delete_follow_the_bones():
    p = edits.add_transform(rig(), ["arm"], "lamp", name="follow")
    assert p.transform("follow").bones == ("arm",) and p.transform("follow").order == 0
    p = edits.rename(p, "bone", "lamp", "light")
    assert p.transform("follow").target == "light"
    p = edits.rename(p, "transform", "follow", "track")
    assert [t.name for t in p.transforms] == ["track"]
    # deleting the hip takes the arm: the constraint has no bone left and goes too
    assert edits.delete(p, "bone", "hip").transforms == ()
    assert edits.delete(p, "transform", "track").transforms == ()


def test_settings_are_checked_and_refusals_change_nothing():
    p = edits.add_transform(rig(), ["arm"], "lamp", name="follow")
    q = edits.set_transform(p, "follow", local=True, relative=True, offset_rotation=math.pi / 2, order=3)
    t = q.transform("follow")
    assert (t.local, t.relative, t.offset_rotation, t.order) == (True, True, math.pi / 2, 3)
    for bad in ({"target": "arm"}, {"target": "nobody"}, {"bones": []}, {"offset_x": math.nan},
                {"local": 1}, {"order": 1.5}, {"mix_x": 0.5}):
        with pytest.raises(EditError):
            edits.set_transform(p, "follow", **bad)
    assert edits.set_mix(p, "follow", "mix_y", 0.25).transform("follow").mix_y.default == (0.25,)


def test_a_keyed_mix_is_a_track_of_its_animation():
    p = edits.add_transform(rig(), ["arm"], "lamp", name="follow")
    p = edits.set_value(p, ("transform", "follow", "mix_rotate"), 10, 0.5, key=True)
    assert p.transform("follow").mix_rotate.sample([10.0])[0, 0] == pytest.approx(0.5)
    p = edits.add_animation(p, "other")
    p = edits.switch_animation(p, "other")
    assert not p.transform("follow").mix_rotate.keys  # the keys stay with their animation
    p = edits.switch_animation(p, "animation")
    assert p.transform("follow").mix_rotate.keys


def test_the_file_keeps_every_setting_and_key():
    p = edits.add_transform(rig(), ["arm", "hip"], "lamp", name="follow", local=True, offset_rotation=0.5,
                            offset_x=2.0, offset_scale_y=-0.25, offset_shear_y=-0.125)
    p = edits.set_value(p, ("transform", "follow", "mix_x"), 4, 0.75, key=True)
    p = edits.add_animation(p, "other")  # the keys of the first are then stored in the list
    text = dumps_project(p)
    data = json.loads(text)
    assert data["schema_version"] == SCHEMA_VERSION
    assert data["transforms"][0]["offset_rotation"] == pytest.approx(math.degrees(0.5))
    back = loads_project(text)
    assert dumps_project(back) == text  # degrees are written rounded: the text is the fixed point
    t, u = back.transform("follow"), p.transform("follow")
    assert (t.bones, t.target, t.local, t.mix_x) == (u.bones, u.target, u.local, u.mix_x)
    assert (t.offset_rotation, t.offset_x, t.offset_scale_y, t.offset_shear_y) == pytest.approx(
        (0.5, 2.0, -0.25, -0.125), abs=1e-9)
    assert clips.clip(back, "animation").tracks == clips.clip(p, "animation").tracks


def test_a_version_5_file_loads_unchanged():
    raw = (FIXTURES / "v5_reach.rigproj").read_text()
    old = json.loads(raw)
    p = loads_project(raw)
    assert p.transforms == ()
    again = json.loads(dumps_project(p))
    assert again["schema_version"] == SCHEMA_VERSION and "transforms" not in again
    assert {k: v for k, v in again.items() if k != "schema_version"} == \
        {k: v for k, v in json.loads(dumps_project(loads_project(raw))).items() if k != "schema_version"}
    assert again["bones"] == json.loads(dumps_project(loads_project(json.dumps(old))))["bones"]


def test_validation_says_where():
    p = edits.add_transform(rig(), ["arm"], "lamp", name="follow")
    from dataclasses import replace
    bad = replace(p, transforms=(replace(p.transforms[0], target="ghost", bones=("arm", "arm"),
                                         offset_x=math.inf),))
    found = problems(bad)
    assert "transforms[0].target: unknown bone 'ghost'" in found
    assert any(f.startswith("transforms[0].bones[1]:") for f in found)
    assert any(f.startswith("transforms[0].offset_x:") for f in found)
    assert problems(p) == []


def test_the_file_refuses_bad_values_with_where():
    p = edits.add_transform(rig(), ["arm"], "lamp", name="follow")
    data = json.loads(dumps_project(p))
    data["transforms"][0]["mix_x"]["default"] = "one"
    from rigeditor.io.errors import ProjectFileError
    with pytest.raises(ProjectFileError) as err:
        loads_project(json.dumps(data))
    assert "transforms[0].mix_x.default" in str(err.value)
