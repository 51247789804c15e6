"""Version 3 -> 4: automatic handles that did not overshoot keep their motion (to
1e-9 against an independent evaluation of the version 3 Béziers), the ones that
overshot become clamped; the file's keys become one animation; several animations
round-trip through a file."""
import json
import math
from pathlib import Path

import numpy as np
import pytest

from rigeditor.io import SCHEMA_VERSION, ProjectFileError, dumps_project, load_project, loads_project, save_project
from rigeditor.io.project_file import keep_older_file, read_project, reads_project
from rigeditor.model.data import clips
from rigeditor.edits import animations
from rigeditor.examples.rigs import arm
from rigeditor.model.data.timeline import keyed

from bezier_reference import bezier_at

FIXTURE = Path(__file__).parent / "fixtures" / "v3_auto_handles.rigproj"


def _v3_reference(frames, values, t_frames):
    """Version 3 automatic bezier: Catmull-Rom slopes, flat ends, handles a third of
    the segment; the Bézier's time solved by bisection, its value by de Casteljau.
    Returns values (N, D) and per sample the segment index."""
    f, v = np.asarray(frames, float), np.asarray(values, float).reshape(len(frames), -1)
    m = np.zeros_like(v)
    m[1:-1] = (v[2:] - v[:-2]) / (f[2:] - f[:-2])[:, None]
    out, seg = [], []
    for x in t_frames:
        s = min(max(int(np.searchsorted(f, x, side="right")) - 1, 0), len(f) - 2)
        g = f[s + 1] - f[s]
        pts = np.array([np.r_[f[s], v[s]], np.r_[f[s] + g / 3, v[s] + m[s] * g / 3],
                        np.r_[f[s + 1] - g / 3, v[s + 1] - m[s + 1] * g / 3], np.r_[f[s + 1], v[s + 1]]])
        out.append(bezier_at(pts, x, steps=100))
        seg.append(s)
    return np.array(out), np.array(seg)


@pytest.mark.parametrize("track", ["tail", "hand"])
def test_migration_keeps_motion_that_did_not_overshoot_and_clamps_the_rest(track):
    raw = json.loads(FIXTURE.read_text())
    project = load_project(FIXTURE)
    if track == "tail":
        keys = raw["bones"][2]["rotation"]["keys"]
        channel, unit = project.bone("tail").rotation, math.pi / 180.0
    else:
        keys = raw["targets"][0]["position"]["keys"]
        channel, unit = project.target("hand").position, 1.0
    frames = [k["frame"] for k in keys]
    values = np.array([k["value"] for k in keys], float).reshape(len(keys), -1)
    # The tail's last segment is linear in the file: compare only bezier segments.
    last = len(frames) - 2 if keys[-2]["interp"] == "bezier" else len(frames) - 3
    t = np.linspace(frames[0], frames[last + 1], 16 * (frames[last + 1] - frames[0]) + 1)
    ref, seg = _v3_reference(frames, values, t)
    now = channel.sample(t) / unit
    kept = overshot = 0
    for s in range(last + 1):
        rows = seg == s
        lo, hi = np.minimum(values[s], values[s + 1]), np.maximum(values[s], values[s + 1])
        if np.all((ref[rows] >= lo - 1e-9) & (ref[rows] <= hi + 1e-9)):
            np.testing.assert_allclose(now[rows], ref[rows], rtol=0, atol=1e-9)
            kept += 1
        else:
            assert np.all((now[rows] >= lo - 1e-9) & (now[rows] <= hi + 1e-9)), f"segment {s} overshoots"
            overshot += 1
    # The tail has both kinds of segment; every segment of the hand overshot in x or y.
    assert overshot and (kept or track == "hand")


def test_the_arm_example_hand_no_longer_reaches_305():
    project = load_project(FIXTURE)
    x = project.target("hand").position.sample(np.linspace(12, 24, 769))[:, 0]
    assert x.max() <= 300.0
    raw = json.loads(FIXTURE.read_text())["targets"][0]["position"]["keys"]
    ref, _ = _v3_reference([k["frame"] for k in raw], [k["value"] for k in raw], np.linspace(12, 24, 769))
    assert ref[:, 0].max() > 304.0  # what version 3 did


def test_a_version_3_file_becomes_one_animation_over_its_timeline():
    project = load_project(FIXTURE)
    assert clips.names(project) == ["animation"] and project.animation == "animation"
    assert (clips.clip(project, "animation").start, clips.clip(project, "animation").end) == (0, 48)


def _three_animations():
    p = animations.rename(arm(), "animation", "reach")
    p = animations.add(p, "wave", 5, 30)
    p = clips.switch(p, "wave")
    p = p.with_bone("upper_arm", rotation=keyed([(5, 0.1), (30, -0.4)], "bezier"))
    p = p.with_target("hand", position=keyed([(5, (100.0, 100.0)), (30, (150.0, 160.0))], "bezier"))
    p = animations.duplicate(p, "wave", "wave_b")
    return clips.switch(p, "reach")


def test_several_animations_round_trip_through_a_file():
    project = _three_animations()
    loaded = loads_project(dumps_project(project))
    assert clips.names(loaded) == ["reach", "wave", "wave_b"] and loaded.animation == "reach"
    for name in clips.names(project):
        a, b = clips.clip(project, name), clips.clip(loaded, name)
        assert (a.start, a.end) == (b.start, b.end) and a.tracks.keys() == b.tracks.keys()
        for path in a.tracks:
            for ka, kb in zip(a.tracks[path], b.tracks[path]):
                assert ka.frame == kb.frame and np.allclose(ka.value, kb.value, atol=1e-12)


def test_a_bad_key_in_a_stored_animation_is_reported_where_it_is():
    doc = json.loads(dumps_project(_three_animations()))
    wave = doc["animations"][1]
    wave["tracks"]["bones"]["upper_arm"]["scale"] = [{"frame": 5, "value": [2.0, 0.0]}]  # a collapse along y
    wave["tracks"]["bones"]["elbow"] = {"rotation": [{"frame": 5, "value": 3.0}]}
    with pytest.raises(ProjectFileError) as err:
        loads_project(json.dumps(doc), "three.rigproj")
    text = "\n".join(err.value.problems)
    assert "animations[1] ('wave').tracks: unknown bone 'elbow'" in text
    assert "animations[1] ('wave'): chains[0].bones[0]: bone 'upper_arm' is driven by an IK chain and cannot be scaled" in text


def _overshooting_segments(keys) -> int:
    """Bezier segments whose version 3 curve (the reference above) leaves its keys' range."""
    frames = [k["frame"] for k in keys]
    values = np.array([k["value"] for k in keys], float).reshape(len(keys), -1)
    t = np.linspace(frames[0], frames[-1], 16 * (frames[-1] - frames[0]) + 1)
    ref, seg = _v3_reference(frames, values, t)
    count = 0
    for s in range(len(frames) - 1):
        lo, hi = np.minimum(values[s], values[s + 1]), np.maximum(values[s], values[s + 1])
        rows = seg == s
        count += keys[s]["interp"] == "bezier" and not np.all((ref[rows] >= lo - 1e-9) & (ref[rows] <= hi + 1e-9))
    return count


def test_loading_a_version_3_file_says_how_many_segments_changed_motion():
    raw = json.loads(FIXTURE.read_text())
    n = _overshooting_segments(raw["bones"][2]["rotation"]["keys"]) + \
        _overshooting_segments(raw["targets"][0]["position"]["keys"])
    assert n >= 2
    loaded = read_project(FIXTURE)
    assert loaded.schema_version == 3
    assert loaded.notes == [f"converted from schema 3: {n} curve segments that overshot their keys "
                            "now stay between them"]
    # A current file has nothing to say.
    again = reads_project(dumps_project(loaded.project))
    assert again.notes == [] and again.schema_version == SCHEMA_VERSION


def test_validate_prints_what_the_conversion_changed(capsys):
    from rigeditor.cli import main

    assert main(["validate", str(FIXTURE)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == f"{FIXTURE}: note: {read_project(FIXTURE).notes[0]}"


@pytest.mark.parametrize("existing", [0, 1])
def test_the_older_file_is_kept_beside_before_it_is_replaced_and_no_backup_is_overwritten(tmp_path, existing):
    path = tmp_path / "walk.rigproj"
    old = FIXTURE.read_bytes()
    path.write_bytes(old)
    taken = tmp_path / "walk.v3.rigproj"
    if existing:
        taken.write_bytes(b"an earlier backup")
    backup = keep_older_file(path)
    assert backup == (tmp_path / ("walk.v3-2.rigproj" if existing else "walk.v3.rigproj"))
    assert backup.read_bytes() == old
    if existing:
        assert taken.read_bytes() == b"an earlier backup"
    save_project(load_project(path), path)
    assert keep_older_file(path) is None  # now current: nothing more to keep
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted({"walk.rigproj", backup.name, taken.name})
