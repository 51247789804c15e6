"""Spine keys keep their times: between frames, at 120 fps, two at one time, and
bezier segments as the runtimes' ten straight pieces at any time (numbers by hand)."""
from __future__ import annotations

import copy
import math

import numpy as np
import pytest

from rigeditor.io.spine.read import import_spine
from rigeditor.io.project_file import load_project
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import LEG, write_rig


def _import(tmp_path, rotate, **kw):
    doc = copy.deepcopy(LEG)
    doc["ik"] = []
    doc["animations"] = {"swing": {"bones": {"thigh": {"rotate": rotate}}}}
    out = tmp_path / "out" / "leg.rigproj"
    out.parent.mkdir()
    result = import_spine(write_rig(tmp_path / "src", doc), out, **kw)
    return result, load_project(out)


def _thigh_deg(project, frames):
    bake = evaluate(project, np.asarray(frames, dtype=float))
    return np.degrees(bake.local_rotation[:, bake.column("thigh")] - project.bone("thigh").rest_rotation)


def _f32(t):
    return float(np.float32(t))  # Spine's runtimes hold key times as 32-bit floats


def test_a_key_between_frames_keeps_its_time(tmp_path):
    _, project = _import(tmp_path, [{"time": 0, "value": 0}, {"time": 0.0523, "value": 30},
                                    {"time": 0.1, "value": 0}])
    assert project.timeline.fps == 30  # no rate puts 0.0523 s on a frame: the skeleton's own
    key = project.bone("thigh").rotation.keys[1]
    assert key.frame == pytest.approx(_f32(0.0523) * 30, abs=1e-12)  # frame 1.569
    # Linear from 0 at frame 0 to 30 at frame 1.569, then back to 0 at frame 3.
    k = _f32(0.0523) * 30
    assert _thigh_deg(project, [1.0])[0] == pytest.approx(30.0 / k, abs=1e-9)
    assert _thigh_deg(project, [2.0])[0] == pytest.approx(30.0 * (3.0 - 2.0) / (3.0 - k), abs=1e-9)


def test_keys_at_120_fps_make_a_120_fps_timeline_with_their_own_times(tmp_path):
    rotate = [{"time": 0, "value": 0}, {"time": 0.0083, "value": 8}, {"time": 0.0167, "value": -4},
              {"time": 0.025, "value": 10}]
    _, project = _import(tmp_path, rotate)
    assert project.timeline.fps == 120 and project.timeline.end == 3
    frames = [k.frame for k in project.bone("thigh").rotation.keys]
    assert frames == pytest.approx([0.0, _f32(0.0083) * 120, _f32(0.0167) * 120, 3.0], abs=1e-12)
    # At frame 1 (1/120 s), just after the key at 0.996: on the way from 8 to -4.
    f1, f2 = frames[1], frames[2]
    assert _thigh_deg(project, [1.0])[0] == pytest.approx(8.0 - 12.0 * (1.0 - f1) / (f2 - f1), abs=1e-9)


def test_two_keys_at_one_time_play_as_spine_plays_them_and_say_so(tmp_path):
    result, project = _import(tmp_path, [{"time": 0, "value": 0}, {"time": 0.5, "value": 10},
                                         {"time": 0.5, "value": 50}, {"time": 1, "value": 30}])
    # Spine's runtime looks up the last key at or before the time: up to 0.5 s the
    # segment runs 0 -> 10, from 0.5 s on 50 -> 30.
    got = _thigh_deg(project, [7.5, 14.0, 15.0, 22.5, 30.0])
    np.testing.assert_allclose(got, [5.0, 14.0 / 15.0 * 10.0, 50.0, 40.0, 30.0], atol=1e-4)
    assert any(w.startswith("two keys at one time") and "thigh.rotate at 0.5 s" in w for w in result.warnings)


def _runtime_curve(t0, v0, cx1, cy1, cx2, cy2, t1, v1, times):
    """Spine's runtimes: the curve's points at parameters 0, 0.1, ..., 1 joined by lines."""
    u = np.linspace(0.0, 1.0, 11)
    x = (1 - u) ** 3 * t0 + 3 * (1 - u) ** 2 * u * cx1 + 3 * (1 - u) * u ** 2 * cx2 + u ** 3 * t1
    y = (1 - u) ** 3 * v0 + 3 * (1 - u) ** 2 * u * cy1 + 3 * (1 - u) * u ** 2 * cy2 + u ** 3 * v1
    return np.interp(times, x, y)


def test_a_bezier_segment_plays_the_runtimes_pieces_at_any_time(tmp_path):
    _, project = _import(tmp_path, [{"time": 0.0123, "value": 0, "curve": [0.3, 0, 0.35, 90]},
                                    {"time": 0.5, "value": 90}])
    frames = np.arange(0.5, 15.0, 0.25)  # between frames too
    expected = _runtime_curve(_f32(0.0123), 0, 0.3, 0, 0.35, 90, 0.5, 90, frames / 30.0)
    np.testing.assert_allclose(_thigh_deg(project, frames), expected, atol=1e-4)
    # Ten pieces: nine corners between the two keys, not a key per frame.
    assert len(project.bone("thigh").rotation.keys) == 1 + 1 + 9 + 1  # setup hold, key, corners, key


def _runtime_pick(t0, v0, cx1, cy1, cx2, cy2, t1, v1, times):
    """Spine's runtimes when the handles reach outside the segment (the curve's times go
    back): the piece ending at the first inner point strictly past the time if that is
    the first one, else at the first one at or past it, else the last piece."""
    u = np.linspace(0.0, 1.0, 11)
    x = (1 - u) ** 3 * t0 + 3 * (1 - u) ** 2 * u * cx1 + 3 * (1 - u) * u ** 2 * cx2 + u ** 3 * t1
    y = (1 - u) ** 3 * v0 + 3 * (1 - u) ** 2 * u * cy1 + 3 * (1 - u) * u ** 2 * cy2 + u ** 3 * v1
    out = []
    for t in times:
        hits = [k for k in range(1, 10) if (x[k] > t if k == 1 else x[k] >= t)]
        k = hits[0] if hits else 10
        out.append(y[k - 1] + (t - x[k - 1]) / (x[k] - x[k - 1]) * (y[k] - y[k - 1]))
    return np.array(out)


def test_a_bezier_whose_handle_reaches_before_its_segment_plays_the_runtimes_pieces(tmp_path):
    # As Spine's editor writes a sharp ease-in (spineboy's death arm): the second handle's
    # time lies before the segment's start, so the curve's times run back before they
    # reach the end, and the value jumps where a later piece takes over.
    t0, t1 = 4 / 30, 7 / 30
    curve = [t0 + 0.025, 10.0, t0 - 0.215, 22.4]
    _, project = _import(tmp_path, [{"time": 0, "value": 10}, {"time": t0, "value": 10, "curve": curve},
                                    {"time": t1, "value": 22.4}])
    frames = np.array([4.0, 4.001, 4.005, 4.0078, 4.5, 5.0, 5.5, 6.0, 6.5, 6.99, 7.0])
    expected = _runtime_pick(_f32(t0), 10, *curve, _f32(t1), 22.4, frames / 30.0)
    np.testing.assert_allclose(_thigh_deg(project, frames), expected, atol=1e-4)
    # The jump is there: the piece after the first inner point starts far from 10°.
    assert expected[4] - expected[1] > 5.0
