"""Physics constraints as project data: edits, the file (optional ``physics``), validation."""
import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from rigeditor import edits
from rigeditor.edits import EditError
from rigeditor.io.errors import ProjectFileError
from rigeditor.io.project_file import dumps_project, loads_project
from rigeditor.model.data import clips
from rigeditor.model.data.project import Bone, Project
from rigeditor.model.validation.project import problems

FIXTURES = Path(__file__).parents[1] / "io" / "fixtures"


def rig() -> Project:
    bones = (Bone("hip", None, 10.0), Bone("arm", "hip", 5.0, (10.0, 0.0)), Bone("lamp", None, 3.0, (0.0, 20.0)))
    return Project(bones=bones)


def test_add_rename_delete_follow_the_bones():
    p = edits.add_transform(rig(), ["arm"], "lamp", name="follow")
    p = edits.add_physics(p, "arm", name="sway")
    c = p.physics_constraint("sway")
    assert (c.bone, c.rotate, c.order) == ("arm", 1.0, 1)  # after the transform constraint
    p = edits.rename(p, "bone", "arm", "forearm")
    assert p.physics_constraint("sway").bone == "forearm"
    p = edits.rename(p, "physics", "sway", "jiggle")
    assert [c.name for c in p.physics] == ["jiggle"]
    assert edits.delete(p, "bone", "hip").physics == ()  # its bone went: the constraint goes
    assert edits.delete(p, "physics", "jiggle").physics == ()
    with pytest.raises(EditError):
        edits.add_physics(p, "nobody")
    with pytest.raises(EditError):
        edits.add_physics(p, "lamp", name="jiggle")


def test_settings_are_checked_and_refusals_change_nothing():
    p = edits.add_physics(rig(), "arm", name="sway")
    q = edits.set_physics(p, "sway", x=0.5, limit=200.0, step=120.0, order=4, wind_global=True)
    c = q.physics_constraint("sway")
    assert (c.x, c.limit, c.step, c.order, c.wind_global) == (0.5, 200.0, 120.0, 4, True)
    for bad in ({"step": 0.0}, {"limit": -1.0}, {"x": math.nan}, {"order": 1.5}, {"bone": "ghost"},
                {"mix_global": 1}, {"gravity": 3.0}):
        with pytest.raises(EditError):
            edits.set_physics(p, "sway", **bad)
    q = edits.set_physics_value(p, "sway", "strength", 250.0)
    assert q.physics_constraint("sway").strength.default == (250.0,)
    for setting, value in (("mass", 0.0), ("inertia", 1.5), ("damping", -0.1), ("wind", math.inf), ("limit", 1.0)):
        with pytest.raises(EditError):
            edits.set_physics_value(p, "sway", setting, value)
    with pytest.raises(EditError):
        edits.set_physics(p, "nobody", x=1.0)


def test_keyed_settings_and_resets_are_tracks_of_their_animation():
    p = edits.add_physics(rig(), "arm", name="sway")
    p = edits.set_value(p, ("physics", "sway", "strength"), 10, 40.0, key=True)
    p = edits.set_value(p, ("physics", "sway", "reset"), 12, 1.0, key=True)
    assert p.physics_constraint("sway").strength.sample([10.0])[0, 0] == pytest.approx(40.0)
    p = edits.add_animation(p, "other")
    p = edits.switch_animation(p, "other")
    assert not p.physics_constraint("sway").strength.keys and not p.physics_constraint("sway").reset.keys
    p = edits.switch_animation(p, "animation")
    assert [k.frame for k in p.physics_constraint("sway").reset.keys] == [12]


def test_the_file_keeps_every_setting_and_key():
    p = edits.add_physics(rig(), "arm", name="sway", x=0.25, y=0.5, scale_x=0.75, shear_x=1.0, limit=123.0,
                          step=30.0, reference_scale=50.0, gravity_global=True, mix_global=True)
    p = edits.set_physics_value(p, "sway", "mass", 2.5)
    p = edits.set_value(p, ("physics", "sway", "wind"), 4, -3.0, key=True)
    p = edits.set_value(p, ("physics", "sway", "reset"), 7.5, 1.0, key=True)
    p = edits.add_animation(p, "other")  # the keys of the first are then stored in the list
    text = dumps_project(p)
    back = loads_project(text)
    assert dumps_project(back) == text
    assert back.physics == p.physics
    assert clips.clip(back, "animation").tracks == clips.clip(p, "animation").tracks
    assert ("physics", "sway", "reset") in clips.clip(back, "animation").tracks


def test_a_file_without_physics_loads_unchanged():
    raw = (FIXTURES / "v6_reach.rigproj").read_text()
    p = loads_project(raw)
    assert p.physics == ()
    again = json.loads(dumps_project(p))
    assert "physics" not in again  # nothing written for a rig without physics
    assert again == json.loads(dumps_project(loads_project(json.dumps(again))))


def test_validation_says_where():
    p = edits.add_physics(rig(), "arm", name="sway")
    c = p.physics[0]
    bad = replace(p, physics=(replace(c, bone="ghost", step=0.0, mass=replace(c.mass, default=(-1.0,)),
                                      x=math.inf), replace(c, name="sway")))
    found = problems(bad)
    assert "physics[0].bone: unknown bone 'ghost'" in found
    assert any(f.startswith("physics[0].step:") for f in found)
    assert any(f.startswith("physics[0].mass:") for f in found)
    assert any(f.startswith("physics[0].x:") for f in found)
    assert "physics[1].name: duplicate physics constraint name 'sway'" in found
    assert problems(p) == []


def test_the_file_refuses_bad_values_with_where():
    p = edits.add_physics(rig(), "arm", name="sway")
    data = json.loads(dumps_project(p))
    data["physics"][0]["strength"]["default"] = "strong"
    with pytest.raises(ProjectFileError) as err:
        loads_project(json.dumps(data))
    assert "physics[0].strength.default" in str(err.value)
    data["physics"][0]["strength"]["default"] = 100.0
    data["physics"][0]["bone"] = "ghost"
    with pytest.raises(ProjectFileError) as err:
        loads_project(json.dumps(data))
    assert "physics[0].bone" in str(err.value)
