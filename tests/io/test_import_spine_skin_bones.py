"""Skin bones (Spine's ``"skin": true`` bones a skin lists, as Esoteric's hero keeps its
two weapons): posed only while a skin that brings them is on, so their slots show
nothing otherwise; a listed bone brings the bones above it too, as the runtimes'
``updateCache`` walks up from it. Kept by the project file and written back."""
from __future__ import annotations

import copy

import numpy as np
import pytest

from rigeditor import edits
from rigeditor.io.project_file import load_project, save_project
from rigeditor.io.spine.read import import_spine
from rigeditor.io.spine.write import spine_document
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.model.validation.project import problems

from tests.io.spine_rigs import LEG, write_rig


def armed_leg():
    """LEG with a holster on the hip and a knife in it, both skin bones: skin "armed"
    lists only the knife; skin "plain" lists nothing. The holster and knife slots show
    the shin's picture (a region the atlas has)."""
    doc = copy.deepcopy(LEG)
    doc["bones"] += [{"name": "holster", "parent": "hip", "x": -8, "skin": True},
                     {"name": "knife", "parent": "holster", "length": 10, "y": -4, "skin": True}]
    doc["slots"] += [{"name": "holster", "bone": "holster", "attachment": "shin"},
                     {"name": "knife", "bone": "knife", "attachment": "shin"}]
    shin = doc["skins"][0]["attachments"]["shin"]["shin"]
    doc["skins"][0]["attachments"].update({"holster": {"shin": dict(shin)}, "knife": {"shin": dict(shin)}})
    doc["skins"] += [{"name": "armed", "bones": ["knife"]}, {"name": "plain"}]
    return doc


@pytest.fixture
def project(tmp_path):
    result = import_spine(write_rig(tmp_path / "src", armed_leg()), tmp_path / "leg.rigproj")
    assert not any("skin" in w for w in result.warnings), result.warnings
    return load_project(tmp_path / "leg.rigproj")


def shown(project) -> dict:
    """{slot: the set of attachment codes it shows over the timeline}."""
    art = evaluate(project).art
    return {name: set(art.attachment[:, k].tolist()) for k, name in enumerate(art.slots)}


def test_skin_bones_show_their_slots_only_while_a_skin_brings_them(project):
    assert project.art.skin_bones == (("armed", ("knife", "holster")),)  # (what it brings, as the runtimes pose it)
    assert problems(project) == []
    for active in ((), ("plain",)):
        seen = shown(edits.set_active_skins(project, active))
        assert seen["holster"] == seen["knife"] == {-1}, active  # the runtimes skip slots of unposed bones
        assert seen["thigh"] == seen["shin"] == {0}
    seen = shown(edits.set_active_skins(project, ("armed",)))
    assert seen["knife"] == {0}
    assert seen["holster"] == {0}  # brought by the knife below it


def test_the_knife_is_where_its_bones_put_it(project):
    art = evaluate(edits.set_active_skins(project, ("plain", "armed"))).art
    bake = evaluate(project)
    k = art.column("knife")
    # hip at (10, 100); holster (-8, 0) from it; knife (0, -4) from that: its picture's
    # centre 20 along the knife's x axis (the shin picture's x offset), turned 88°.
    centre = art.corners[:, k].mean(axis=1)
    np.testing.assert_allclose(centre, np.broadcast_to((2.0 + 20.0, 96.0), centre.shape), atol=1e-9)
    assert len(bake) == len(centre)


def test_skin_bones_survive_the_project_file_and_go_back_to_spine(project, tmp_path):
    save_project(project, tmp_path / "again.rigproj")
    again = load_project(tmp_path / "again.rigproj")
    assert again.art.skin_bones == project.art.skin_bones
    out = spine_document(again, evaluate(again), animation="walk")
    assert next(s for s in out["skins"] if s["name"] == "armed")["bones"] == ["knife", "holster"]
    assert {b["name"] for b in out["bones"] if b.get("skin")} == {"knife", "holster"}


def test_an_unknown_skin_bone_is_refused_where_it_is_listed(project):
    from dataclasses import replace

    bad = replace(project, art=replace(project.art, skin_bones=(("armed", ("knife", "holster", "sabre")),)))
    assert "skins.bones.armed[2]: unknown bone 'sabre'" in problems(bad)


def test_a_skin_constraint_acts_only_while_its_skin_is_on(tmp_path):
    from spine_pose import spine_pose

    doc = copy.deepcopy(LEG)
    doc["ik"][0]["skin"] = True
    doc["skins"].append({"name": "walking", "ik": ["leg"]})
    result = import_spine(write_rig(tmp_path / "src", doc), tmp_path / "leg.rigproj")
    assert not any("skin" in w for w in result.warnings), result.warnings
    project = load_project(tmp_path / "leg.rigproj")
    assert project.art.skin_constraints == (("walking", ("chain:leg",)),) and problems(project) == []
    still = copy.deepcopy(LEG)
    still["ik"][0]["mix"] = 0  # what Spine plays while the skin is off: no IK
    for active, expected in (((), still), (("walking",), LEG)):
        bake = evaluate(edits.set_active_skins(project, active))
        for i in range(len(bake)):
            pose = spine_pose(expected, i / bake.fps)
            for k, bone in enumerate(bake.bones):
                assert np.hypot(*(pose[bone][0] - bake.joint_world[i, k])) < 1e-6, (active, i, bone)
    out = spine_document(project, evaluate(project), animation="walk")
    assert next(s for s in out["skins"] if s["name"] == "walking")["ik"] == ["leg"]
    assert [ik.get("skin") for ik in out["ik"]] == [True]


def test_renaming_or_deleting_a_skin_bone_or_constraint_keeps_the_skins_true(project, tmp_path):
    renamed = edits.rename(project, "bone", "knife", "dagger")
    assert renamed.art.skin_bones == (("armed", ("dagger", "holster")),) and problems(renamed) == []
    gone = edits.delete(project, "bone", "holster")  # and the knife on it
    assert gone.art.skin_bones == () and problems(gone) == []
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["skin"] = True
    doc["skins"].append({"name": "walking", "ik": ["leg"]})
    import_spine(write_rig(tmp_path / "ik", doc), tmp_path / "ik.rigproj")
    legged = load_project(tmp_path / "ik.rigproj")
    assert edits.rename(legged, "chain", "leg", "stride").art.skin_constraints == (("walking", ("chain:stride",)),)
    unlegged = edits.delete(legged, "chain", "leg")
    assert unlegged.art.skin_constraints == () and problems(unlegged) == []


def test_a_rig_with_physics_and_a_skin_constraint_that_is_off_evaluates_between_frames(tmp_path):
    # Physics steps the range from its start (its own evaluation of the project): that
    # evaluation must see the project the skins made, not make another one.
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["skin"] = True
    doc["skins"].append({"name": "walking", "ik": ["leg"]})
    doc["bones"].append({"name": "tail", "parent": "hip", "length": 20, "x": 5})
    doc["physics"] = [{"name": "wag", "order": 1, "bone": "tail", "rotate": 1, "inertia": 0.5}]
    import_spine(write_rig(tmp_path / "src", doc), tmp_path / "leg.rigproj")
    project = edits.set_active_skins(edits.set_active_skins(load_project(tmp_path / "leg.rigproj"), ("walking",)), ())
    between = evaluate(project, [2.5])
    assert np.all(np.isfinite(between.joint_world))


def test_malformed_skin_lists_are_refused_where_they_are(tmp_path):
    from rigeditor.io.spine.read import SpineError

    for key, value in (("bones", 5), ("ik", [{}])):
        doc = armed_leg()
        doc["skins"][1][key] = value
        with pytest.raises(SpineError) as err:
            import_spine(write_rig(tmp_path / key, doc), tmp_path / f"{key}.rigproj")
        assert f"skins[1].{key}: must be a list of names" in str(err.value)


def test_a_rig_without_slots_still_writes_its_skins_bones(project):
    empty, _, _ = edits.delete_items(project, [("slot", s.name) for s in project.art.slots])
    out = spine_document(empty, evaluate(empty), animation="walk")
    assert next(s for s in out["skins"] if s["name"] == "armed")["bones"] == ["knife", "holster"]


def test_a_skin_chain_the_export_bakes_is_not_listed_by_its_skin(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["skin"] = True
    doc["skins"].append({"name": "walking", "ik": ["leg"]})
    import_spine(write_rig(tmp_path / "src", doc), tmp_path / "leg.rigproj")
    project = edits.set_chain_solver(load_project(tmp_path / "leg.rigproj"), "leg", "fabrik")
    out = spine_document(project, evaluate(project), animation="walk")
    assert out.get("ik", []) == [] and "ik" not in next(s for s in out["skins"] if s["name"] == "walking")
