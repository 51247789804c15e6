"""An animation whose last key falls between frames keeps its exact duration through
import and export (as cloud-pot's 4.6667 s, which came back 4.7 s: a frame longer).

A Spine animation lasts until its last key; the duration is read here as the largest
key time written, walked in the JSON itself, never asked of the code under test.
"""
from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from rigeditor.cli import main
from rigeditor.io.errors import ProjectFileError
from rigeditor.io.project_file import load_project, save_project
from rigeditor.io.spine.read import import_spine
from rigeditor.model.data.project import Timeline
from rigeditor.model.data.timeline import Key
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import write_rig

LAST = 4.6667  # s: frame 140.001 at 30 fps
RIG = {
    "skeleton": {"spine": "4.2.22", "fps": 30},
    "bones": [{"name": "root"}, {"name": "pot", "parent": "root", "length": 40, "y": 20},
              {"name": "leaf", "parent": "pot", "length": 30, "x": 40, "rotation": 30},
              {"name": "arm", "parent": "root", "length": 30, "x": -40},
              {"name": "hand", "parent": "arm", "length": 25, "x": 30},
              {"name": "goal", "parent": "root", "x": -10, "y": 30}],
    "ik": [{"name": "reach", "order": 0, "bones": ["arm", "hand"], "target": "goal"}],
    "physics": [{"name": "sway", "order": 1, "bone": "leaf", "rotate": 1, "inertia": 0.5, "strength": 120,
                 "damping": 0.8}],
    "slots": [], "skins": [{"name": "default", "attachments": {}}],
    "animations": {
        "rain": {
            "bones": {"pot": {"rotate": [{"time": 1.1}, {"time": 1.2, "value": -12.76},
                                         {"time": 1.5333, "curve": "stepped"}, {"time": 3.7667},
                                         {"time": 4.4333, "value": 8.28}],
                              "translate": [{"time": 0.2333}, {"time": 0.3333, "y": 30.43}, {"time": 0.9333}]},
                      "goal": {"translate": [{"time": 0.5, "x": 20}, {"time": 2.0, "x": -20, "y": 10}]}},
            # the last key of all: a physics reset, as in cloud-pot
            "physics": {"sway": {"reset": [{"time": 0.4667}, {"time": 2.8}, {"time": LAST}]}}},
        "short": {"bones": {"pot": {"rotate": [{}, {"time": 1.0333, "value": 45}]}}},
    },
}


def key_times(node) -> list[float]:
    """Every key time of a Spine animation (0 where a key leaves it out)."""
    out = []
    if isinstance(node, list):
        for k in node:
            if isinstance(k, dict):
                out.append(float(k.get("time", 0.0)))
                out += key_times({n: v for n, v in k.items() if n != "curve"})
    elif isinstance(node, dict):
        for v in node.values():
            if isinstance(v, (dict, list)):
                out += key_times(v)
    return out


def duration(anim: dict) -> float:
    return max(key_times(anim), default=0.0)


def imported(tmp_path, doc=RIG):
    src = write_rig(tmp_path / "src", doc, stem="pot", atlas=False, page=False)
    out = tmp_path / "pot.rigproj"
    import_spine(src, out, force=True)
    return out


def exported(tmp_path, project_file, *extra) -> dict:
    out = tmp_path / "back" / "pot.json"
    out.parent.mkdir(exist_ok=True)
    assert main(["bake", str(project_file), "-o", str(out), "--format", "spine", *extra]) == 0
    return json.loads(out.read_text())


@pytest.mark.parametrize("bake_ik", [False, True], ids=["live IK", "every chain baked per frame"])
def test_every_animation_exports_with_its_exact_duration_and_key_times(tmp_path, bake_ik):
    project_file = imported(tmp_path)
    assert load_project(project_file).timeline.end == 141  # the first whole frame after the last key
    doc = exported(tmp_path, project_file, *(["--bake-ik"] if bake_ik else []))
    for name, anim in RIG["animations"].items():
        back = doc["animations"][name]
        assert duration(back) == pytest.approx(duration(anim), abs=1e-6), name
        written = np.array(sorted(set(key_times(back))))
        for t in key_times(anim):  # every key of the source at its own time
            assert np.abs(written - t).min() <= 1e-6, (name, t)
    resets = doc["animations"]["rain"]["physics"]["sway"]["reset"]
    assert [k.get("time", 0.0) for k in resets] == pytest.approx([0.4667, 2.8, LAST], abs=1e-6)


def test_keys_a_frame_each_end_at_the_exact_end_with_every_frame_before_kept(tmp_path):
    project_file = imported(tmp_path)
    doc = exported(tmp_path, project_file, "--bake-ik")  # the chain's bones: a key a frame
    keys = doc["animations"]["rain"]["bones"]["arm"]["rotate"]
    assert [k.get("time", 0.0) for k in keys] == pytest.approx([f / 30 for f in range(141)] + [LAST], abs=1e-6)
    # Read back, the rig poses every frame before the end as the first import did.
    first = evaluate(load_project(project_file))
    (tmp_path / "again").mkdir()
    src = tmp_path / "again" / "pot.json"
    src.write_text(json.dumps(doc))
    import_spine(src, tmp_path / "again" / "pot.rigproj", force=True)
    again = evaluate(load_project(tmp_path / "again" / "pot.rigproj"))
    assert again.frames[-1] == 141
    for bone in ("pot", "leaf", "arm", "hand"):
        a, b = (x.bone_bakes[x.bones.index(bone)].world for x in (first, again))
        for u, v in zip(a.fields(), b.fields()):
            u, v = (np.broadcast_to(np.asarray(w, float), first.frames.shape) for w in (u, v))
            assert np.abs(u[:141] - v[:141]).max() < 1e-4, bone


def test_the_exact_end_is_saved_and_a_wrong_one_is_refused_where_it_is(tmp_path):
    project_file = imported(tmp_path)
    project = load_project(project_file)
    assert project.timeline.exact_end == pytest.approx(140.001, abs=1e-4)
    data = json.loads(project_file.read_text())
    assert data["timeline"]["exact_end"] == pytest.approx(140.001, abs=1e-4)
    data["timeline"]["exact_end"] = 139.5  # not between end - 1 and end
    bad = tmp_path / "bad.rigproj"
    bad.write_text(json.dumps(data))
    with pytest.raises(ProjectFileError) as caught:
        load_project(bad)
    assert "timeline" in str(caught.value) and "exact_end" in str(caught.value) and "139.5" in str(caught.value)


def test_an_animation_edited_to_last_longer_exports_its_whole_range(tmp_path):
    project = load_project(imported(tmp_path))
    tl = project.timeline
    for label, edited in (("a longer range", projected(project, timeline=Timeline(tl.fps, tl.start, 150, tl.exact_end))),
                          ("a key after the exact end", with_key_at_end(project))):
        path = tmp_path / f"{len(label)}.rigproj"
        save_project(edited, path)
        anim = exported(tmp_path, path)["animations"]["rain"]
        assert duration(anim) == pytest.approx(edited.timeline.end / 30, abs=1e-6), label


def projected(project, **changes):
    from dataclasses import replace

    return replace(project, **changes)


def with_key_at_end(project):
    pot = project.bone("pot")
    keys = pot.rotation.keys + (Key(141.0, (0.3,)),)
    return project.with_bone("pot", rotation=projected(pot.rotation, keys=keys))


def test_an_animation_on_whole_frames_is_unchanged(tmp_path):
    doc = copy.deepcopy(RIG)
    doc["animations"]["rain"]["physics"]["sway"]["reset"][-1]["time"] = 4.6  # frame 138
    doc = exported(tmp_path, imported(tmp_path, doc))
    assert duration(doc["animations"]["rain"]) == pytest.approx(4.6, abs=1e-6)


def test_the_exact_end_survives_export_and_import_again(tmp_path):
    doc = exported(tmp_path, imported(tmp_path))
    assert "rigeditor" in doc["skeleton"]  # RigEditor's own data rides along: restored on import
    (tmp_path / "twice").mkdir()
    again = imported(tmp_path / "twice", doc)
    twice = exported(tmp_path / "twice", again)
    for name, anim in RIG["animations"].items():
        assert duration(twice["animations"][name]) == pytest.approx(duration(anim), abs=1e-6), name


def test_a_duplicated_animation_ends_where_its_source_does(tmp_path):
    from rigeditor import edits

    project = edits.animations.duplicate(load_project(imported(tmp_path)), "rain", "rain2")
    path = tmp_path / "dup.rigproj"
    save_project(project, path)
    doc = exported(tmp_path, path)
    assert duration(doc["animations"]["rain2"]) == pytest.approx(LAST, abs=1e-6)
