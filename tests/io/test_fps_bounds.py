"""The frame rate is bounded where the format is defined ([1, 1000] frames per second):
1e-300 and 1e300 validated, then broke the Spine export (every key at time 0) and the
CSV (300-digit times)."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rigeditor.cli import main
from rigeditor.io import ProjectFileError, dumps_project, load_project
from rigeditor.examples.rigs import arm
from rigeditor.model.data.project import Timeline
from rigeditor.model.validation.project import MAX_FPS, MIN_FPS, problems


def _at(fps):
    p = arm()
    return replace(p, timeline=Timeline(fps, p.timeline.start, p.timeline.end))


@pytest.mark.parametrize("fps", [1e-300, 0.5, 1000.5, 1e300])
def test_a_frame_rate_beyond_the_bounds_is_refused_in_the_file_and_the_model(tmp_path, fps):
    says = f"timeline.fps: must be a number of frames per second within [1, 1000], got {fps:g}"
    assert problems(_at(fps)) == [says]
    doc = json.loads(dumps_project(arm()))
    doc["timeline"]["fps"] = fps
    path = tmp_path / "p.rigproj"
    path.write_text(json.dumps(doc))
    with pytest.raises(ProjectFileError) as err:
        load_project(path)
    assert err.value.problems == [says]


@pytest.mark.parametrize("fps", [MIN_FPS, 23.976, MAX_FPS])
def test_at_the_bounds_exports_keep_one_time_per_frame(tmp_path, capsys, fps):
    path = tmp_path / "p.rigproj"
    path.write_text(dumps_project(_at(fps)))
    # Baked IK: a rotate key on every frame (live IK would key only the target).
    assert main(["bake", str(path), "-o", str(tmp_path / "s.json"), "--format", "spine", "--bake-ik"]) == 0
    assert main(["bake", str(path), "-o", str(tmp_path / "c.csv")]) == 0
    doc = json.loads((tmp_path / "s.json").read_text())
    keys = next(t["rotate"] for t in doc["animations"]["arm"]["bones"].values() if len(t.get("rotate", ())) > 2)
    times = [k["time"] for k in keys]
    frames = [round(t * fps) for t in times]
    assert frames == list(range(len(times)))  # one key per frame, each on its own time
    rows = (tmp_path / "c.csv").read_text().splitlines()[1:]
    assert max(len(r.split(",")[1]) for r in rows) < 20  # time_s stays a short number
