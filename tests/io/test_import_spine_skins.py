"""Several skins per rig: each slot's attachment name shows the active skins'
attachment of that name (the last active one winning: mix and match), else the
default skin's, as Spine's runtimes look it up."""
from __future__ import annotations

import copy
from dataclasses import replace

import numpy as np
import pytest

from rigeditor.io.project_file import load_project, save_project
from rigeditor.io.spine.read import import_spine
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import LEG, write_rig


def _skinned_doc():
    """LEG with a hat slot and two skins, "red" and "blue" (see below)."""
    doc = copy.deepcopy(LEG)
    doc["slots"].append({"name": "hat", "bone": "thigh", "attachment": "hat"})
    # "red" swaps the thigh picture for a wider one and brings a hat (no default hat);
    # "blue" swaps the thigh picture too and the shin's: combined, blue's thigh wins.
    doc["skins"] += [
        {"name": "red", "attachments": {"thigh": {"thigh": {"path": "shin", "x": 5, "width": 24, "height": 40}},
                                        "hat": {"hat": {"path": "shin", "width": 12, "height": 20}}}},
        {"name": "blue", "attachments": {"thigh": {"thigh": {"path": "shin", "x": -5, "width": 30, "height": 40}},
                                         "shin": {"shin": {"path": "thigh", "width": 18, "height": 54}}}},
    ]
    return doc


def _skinned(tmp_path):
    src = write_rig(tmp_path / "src", _skinned_doc())
    out = tmp_path / "leg.rigproj"
    result = import_spine(src, out)
    return result, load_project(out)


def _shown(project, frame=0.0):
    """{slot: (skin, attachment name, width of its world rectangle)} at ``frame``."""
    bake = evaluate(project, np.array([frame]))
    out = {}
    for col, name in enumerate(bake.art.slots):
        code = int(bake.art.attachment[0, col])
        if code < 0:
            out[name] = None
            continue
        a = project.art.slot(name).attachments[code]
        c = bake.art.corners[0, col]
        out[name] = (a.skin, a.name, round(float(np.hypot(*(c[2] - c[1]))), 6))
    return out


def test_the_default_skin_shows_until_another_is_active(tmp_path):
    result, project = _skinned(tmp_path)
    assert not any("skin" in line for line in result.warnings)
    assert project.art.skins == ("red", "blue") and project.art.active_skins == ()
    # The default skin: thigh 18 wide (its picture, width 18 as drawn), no hat.
    shown = _shown(project)
    assert shown["thigh"][:2] == ("", "thigh") and shown["hat"] is None


def test_the_active_skin_decides_each_slots_attachment(tmp_path):
    _, project = _skinned(tmp_path)
    red = replace(project, art=replace(project.art, active_skins=("red",)))
    shown = _shown(red)
    assert shown["thigh"] == ("red", "thigh", 24.0)  # red's drawn width
    assert shown["hat"] == ("red", "hat", 12.0)  # only red has a hat
    assert shown["shin"][0] == ""  # red has no shin: the default skin's


def test_mix_and_match_combines_skins_the_later_winning(tmp_path):
    _, project = _skinned(tmp_path)
    both = replace(project, art=replace(project.art, active_skins=("red", "blue")))
    shown = _shown(both)
    assert shown["thigh"] == ("blue", "thigh", 30.0)
    assert shown["hat"] == ("red", "hat", 12.0)
    assert shown["shin"] == ("blue", "shin", 18.0)
    other_way = replace(project, art=replace(project.art, active_skins=("blue", "red")))
    assert _shown(other_way)["thigh"] == ("red", "thigh", 24.0)


def test_skins_survive_a_save_and_a_load(tmp_path):
    _, project = _skinned(tmp_path)
    both = replace(project, art=replace(project.art, active_skins=("red", "blue")))
    path = tmp_path / "again.rigproj"
    save_project(both, path)
    again = load_project(path)
    assert again.art.skins == ("red", "blue") and again.art.active_skins == ("red", "blue")
    assert _shown(again) == _shown(both)


def test_the_spine_export_writes_every_skin_back(tmp_path):
    import json

    from rigeditor.io.spine.read import spine_project
    from rigeditor.io.spine.skeleton import parse_spine
    from rigeditor.io.spine.write import spine_document

    from tests.io.test_import_spine_fuzz import _Pages

    _, project = _skinned(tmp_path)
    doc = spine_document(project, evaluate(project))
    assert [s["name"] for s in doc["skins"]] == ["default", "red", "blue"]
    assert set(doc["skins"][1]["attachments"]) == {"thigh", "hat"}
    back = spine_project(parse_spine(json.dumps(doc)), _Pages()).project
    assert back.art.skins == ("red", "blue")
    for active in ((), ("red",), ("blue",), ("red", "blue"), ("blue", "red")):
        shown = [_shown(replace(p, art=replace(p.art, active_skins=active))) for p in (project, back)]
        assert shown[0] == shown[1], active


def test_a_mesh_in_a_skin_shows_with_that_skin_where_spine_puts_it(tmp_path):
    doc = _skinned_doc()
    quad = [0, -6, 45, -6, 45, 6, 0, 6]  # x, y in the shin's frame
    doc["skins"][1]["attachments"]["shin"] = {"shin": {
        "type": "mesh", "path": "shin", "uvs": [0, 1, 1, 1, 1, 0, 0, 0], "triangles": [0, 1, 2, 2, 3, 0],
        "hull": 4, "vertices": quad}}
    src = write_rig(tmp_path / "src", doc)
    import_spine(src, tmp_path / "leg.rigproj")
    project = load_project(tmp_path / "leg.rigproj")
    shin = project.art.slot("shin")
    assert sorted((a.skin, a.kind) for a in shin.attachments) == [("", "image"), ("blue", "image"), ("red", "mesh")]
    red = replace(project, art=replace(project.art, active_skins=("red",)))
    bake = evaluate(red, np.array([0.0]))
    (mesh,) = [m for m in bake.art.meshes if m.slot == "shin" and m.shown[0]]
    # Spine: x, y in the shin's world frame (the shin's frame is not turned, only the thigh's).
    world = bake.bone("shin").world
    frame = np.array([[float(world.a[0]), float(world.b[0])], [float(world.c[0]), float(world.d[0])]])
    expected = np.reshape(quad, (-1, 2)) @ frame.T + [float(world.tx[0]), float(world.ty[0])]
    assert np.allclose(mesh.vertices(0), expected, atol=1e-9)


def test_placing_a_picture_moves_the_one_the_active_skins_show(tmp_path):
    from rigeditor import edits

    _, project = _skinned(tmp_path)
    red = edits.set_active_skins(project, ["red"])
    moved = edits.set_placement(red, "thigh", "thigh", x=7.0)
    before = {a.skin: a.x for a in red.art.slot("thigh").attachments}
    after = {a.skin: a.x for a in moved.art.slot("thigh").attachments}
    assert after == {**before, "red": 7.0}
    with pytest.raises(edits.EditError, match=r"^There is no skin named 'green' \(the project's skins: red, blue\)\.$"):
        edits.set_active_skins(project, ["green"])
