"""Spine import from the command line: bad input is one line and exit 2 with nothing
written; a rig exported by RigEditor survives import -> export -> import unchanged;
``rigeditor report`` names the frames an imported chain misses its target, and why."""
from __future__ import annotations

import copy
import json
import subprocess
import sys

import numpy as np
import pytest

from rigeditor.cli import main
from rigeditor.examples.files import resolve_project
from rigeditor.io.spine.write import export_spine_json
from rigeditor.io.art.images import read_rgba
from rigeditor.io.spine.read import import_spine
from rigeditor.io.project_file import load_project
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.examples.rigs import EXAMPLES

from tests.io.spine_rigs import LEG, write_rig


def _bad(tmp_path, capsys, args, expected):
    out = tmp_path / "out" / "hero.rigproj"
    out.parent.mkdir(exist_ok=True)
    status = main(["import-spine", *map(str, args), "-o", str(out)])
    _, err = capsys.readouterr()
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("rigeditor: "), err
    assert expected in err, err
    assert list(out.parent.iterdir()) == []  # nothing written, not even the pictures' folder
    return err


def test_an_unsupported_version_is_one_line(tmp_path, capsys):
    doc = copy.deepcopy(LEG)
    doc["skeleton"]["spine"] = "3.8.99"
    src = write_rig(tmp_path, doc, stem="hero")
    err = _bad(tmp_path, capsys, [src], "")
    assert err == f"rigeditor: {src}: skeleton.spine: version 3.8 is not supported (4.0\u20134.2)\n"


@pytest.mark.parametrize("text, expected", [
    ('{"skeleton": {"spine": "4.2.1"}, "bones": [{"name": "ro', "JSON: truncated"),
    ("not json at all", "JSON: not valid JSON at line 1 column 1"),
    ('{"bones": []}', 'skeleton: not a Spine skeleton (no "skeleton" section)'),
    ('[1, 2]', "skeleton: not a Spine skeleton"),
    ('{"skeleton": {"spine": "4.2.1"}}', "bones: missing"),
    ('{"skeleton": {}, "bones": []}', "skeleton.spine: missing"),
    ('{"skeleton": {"spine": "4.2"}, "bones": [{"name": "root"}, {"name": "a", "parent": "b"}]}',
     "bones[1].parent: must name a bone listed before it, got 'b'"),
    ('{"skeleton": {"spine": "4.2"}, "bones": [{"name": "root", "x": "1"}]}', "bones[0].x: must be a finite number"),
    ('{"skeleton": {"spine": "4.2"}, "bones": [{"name": "root"}], "animations": {"a": {"bones": {"root": '
     '{"rotate": [{"time": 1}, {"time": 0.5}]}}}}}', "animations.a.bones.root.rotate[1].time: keys must not go back"),
    ('{"skeleton": {"spine": "4.2"}, "bones": [{"name": "root"}], "ik": [{"name": "k", "bones": ["root"], '
     '"target": "nope"}]}', "ik[0].target: unknown bone 'nope'"),
    ('{"skeleton": {"spine": "4.2"}, "bones": [{"name": "root"}], "slots": [{"name": "a", "bone": "root"}, '
     '{"name": "b", "bone": "root"}], "animations": {"x": {"drawOrder": [{"offsets": [{"slot": "b", "offset": 1}]}]}}}',
     "animations.x.drawOrder[0].offsets[0]: must move a slot (in setup order) to a free place among 2 slots"),
    ('{"skeleton": {"spine": "4.2"}, "bones": [{"name": "root"}], "animations": {"x": {"bones": {"root": '
     '{"rotate": [{"value": null}]}}}}}', "animations.x.bones.root.rotate[0].value: must be a number, got null"),
])
def test_bad_skeletons_are_one_line(tmp_path, capsys, text, expected):
    src = tmp_path / "hero.json"
    src.write_text(text)
    _bad(tmp_path, capsys, [src], f"rigeditor: {src}: {expected}")


def test_a_missing_atlas_or_page_or_region_is_one_line(tmp_path, capsys):
    src = write_rig(tmp_path / "a", atlas=False)
    _bad(tmp_path, capsys, [src], f"{src.with_suffix('.atlas')}: atlas: file not found (pass the atlas with --atlas)")
    src = write_rig(tmp_path / "b", page=False)
    _bad(tmp_path, capsys, [src], f"{src.with_suffix('.atlas')}: page 'leg.png': file not found")
    doc = copy.deepcopy(LEG)
    doc["skins"][0]["attachments"]["thigh"]["thigh"]["path"] = "knee"
    src = write_rig(tmp_path / "c", doc)
    _bad(tmp_path, capsys, [src], "atlas: no region 'knee' (an attachment uses it)")
    _bad(tmp_path, capsys, [src, "--atlas", tmp_path / "elsewhere.atlas"], "elsewhere.atlas: atlas: file not found")


def test_an_unknown_animation_is_named(tmp_path, capsys):
    src = write_rig(tmp_path)
    _bad(tmp_path, capsys, [src, "--animation", "run"], "--animation: no animation 'run' (it has: walk)")


def test_import_prints_what_it_made_and_warns_per_kind(tmp_path, capsys):
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["skin"] = True
    doc["skins"][0]["ik"] = ["leg"]  # a skin constraint in the default skin: acting always (a kind still listed)
    doc["animations"]["idle"] = {}
    src = write_rig(tmp_path, doc)
    out = tmp_path / "leg.rigproj"
    assert main(["import-spine", str(src), "-o", str(out), "--animation", "idle"]) == 0
    stdout, err = capsys.readouterr()
    assert stdout == (f"{out}: imported {src} (animations: walk, idle; 'idle' open, 3 bones, 1 chains, "
                      "2 pictures)\n")
    assert f"rigeditor: {src}: warning: skin constraints in the default skin (acting always): default\n" in err
    assert err.count("skin constraints") == 1
    assert main(["validate", str(out)]) == 0
    assert main(["import-spine", str(src), "-o", str(out)]) == 2  # never overwritten without --force
    assert "already exists" in capsys.readouterr()[1]


def test_report_on_an_imported_rig_names_the_frames_a_chain_misses(tmp_path, capsys):
    src = write_rig(tmp_path)
    out = tmp_path / "leg.rigproj"
    import_spine(src, out)
    capsys.readouterr()
    assert main(["report", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr()[0])
    # Independently: the foot target (15, 20 + dy) against the hip (10, 100) and the
    # limb's reach hypot(50, 3) + 45.
    frames = np.arange(13)
    dy = np.interp(frames, [0, 6, 12], [0, -70, 0])
    beyond = np.hypot(15 - 10, 20 + dy - 100) > np.hypot(50, 3) + 45
    assert report["chains"]["leg"]["miss_frames"] == {"out_of_reach": frames[beyond].tolist()}
    first, last = frames[beyond][[0, -1]]
    assert frames[beyond].tolist() == list(range(first, last + 1))
    assert main(["report", str(out)]) == 0
    assert f"misses       out_of_reach on {first}-{last}" in capsys.readouterr()[0]


def _through_spine(project, images, folder):
    """``project`` exported to Spine JSON (pictures from ``images``) and imported back
    as ``folder/arm.rigproj`` with its curves as authored (the editing round trip; the
    exporter already cuts segments where the runtime's chords would stray): (project
    file, project)."""
    folder.mkdir()
    skeleton = folder / f"{project.name}.json"
    export_spine_json(project, evaluate(project), skeleton, images=images)
    out = folder / f"{project.name}.rigproj"
    import_spine(skeleton, out, curves="authored")
    return out, load_project(out)


EXAMPLE_NAMES = sorted(EXAMPLES) + ["dressed_arm", "dressed_walk", "rigid_arm", "skinned_arm"]


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_a_rig_exported_by_rigeditor_survives_import_export_import(tmp_path, name):
    original, folder = resolve_project(name)
    a_file, a = _through_spine(original, folder, tmp_path / "a")
    b_file, b = _through_spine(a, a_file.parent, tmp_path / "b")
    assert a == b
    assert a_file.read_text() == b_file.read_text()
    for slot in a.art.slots:
        for att in slot.attachments:
            assert np.array_equal(read_rgba(a_file.parent / att.path), read_rgba(b_file.parent / att.path))
    # And the imported rig poses the bones and pictures as the original did, frame for frame.
    before, after = evaluate(original), evaluate(a)
    for bone in before.bones:
        i, j = before.column(bone), after.column(bone)
        assert np.abs(before.joint_world[:, i] - after.joint_world[:, j]).max() < 1e-5
        turn = np.angle(np.exp(1j * (before.world_rotation[:, i] - after.world_rotation[:, j])))
        assert np.abs(turn).max() < 1e-6
    if before.art is None:
        return
    assert np.abs(before.art.corners - after.art.corners).max() < 1e-4
    for m0, m1 in zip(before.art.meshes, after.art.meshes):
        assert m0.slot == m1.slot
        assert max(np.abs(m0.vertices(i) - m1.vertices(i)).max() for i in range(len(before)) if m0.shown[i]) < 1e-4


def test_import_spine_as_a_subprocess(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["skeleton"]["spine"] = "4.3.01"
    src = write_rig(tmp_path, doc)
    run = subprocess.run([sys.executable, "-m", "rigeditor.cli", "import-spine", str(src), "-o",
                          str(tmp_path / "x.rigproj")], capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == f"rigeditor: {src}: skeleton.spine: version 4.3 is not supported (4.0\u20134.2)\n"
