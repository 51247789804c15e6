"""``rigeditor bake --world`` and ``--fps``: world poses per sampled frame, checked
against forward kinematics worked out by hand."""
from __future__ import annotations

import csv
import math

import numpy as np
import pytest

from rigeditor.cli import main
from rigeditor.io import save_project
from rigeditor.io.curves.world_csv import decompose
from rigeditor.model.data.project import CHARACTER, Bone, Project, Space, Timeline
from rigeditor.model.data.timeline import constant, keyed

PHI = math.radians(45.0)


def _rig(tmp_path, **timeline) -> str:
    """upper (length 100 at (10, 20), scale 2 x 0.5) turning 0 -> 90 degrees linearly over
    frames 0..24; lower at upper's tip, turned 45 degrees, scale 1."""
    upper = Bone("upper", None, 100.0, rest_offset=(10.0, 20.0),
                 rotation=keyed([(0, 0.0), (24, math.pi / 2)]), scale=constant(2.0, 0.5))
    lower = Bone("lower", "upper", 50.0, rest_offset=(100.0, 0.0), rest_rotation=PHI)
    project = Project(name="world", timeline=Timeline(**({"fps": 24.0, "start": 0, "end": 24} | timeline)),
                      spaces=(Space(CHARACTER),), bones=(upper, lower))
    path = tmp_path / "world.rigproj"
    save_project(project, path)
    return str(path)


def _read(path):
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    return rows[0], np.array(rows[1:], dtype=float)


def test_world_poses_are_forward_kinematics_by_hand(tmp_path):
    out = tmp_path / "w.csv"
    assert main(["bake", _rig(tmp_path), "-o", str(out), "--world"]) == 0
    head, data = _read(out)
    assert head[:2] == ["frame", "time_s"]
    assert head[2:8] == [f"upper.{k}" for k in ("x", "y", "rotation_deg", "scale_x", "scale_y", "shear_deg")]
    col = {h: i for i, h in enumerate(head)}
    theta = np.radians(90.0 * data[:, 0] / 24.0)
    np.testing.assert_allclose(data[:, col["time_s"]], data[:, 0] / 24.0, atol=1e-6)
    # upper: its own origin, rotation theta, scale (2, 0.5), no shear.
    np.testing.assert_allclose(data[:, col["upper.x"]], 10.0, atol=1e-6)
    np.testing.assert_allclose(data[:, col["upper.rotation_deg"]], np.degrees(theta), atol=1e-6)
    np.testing.assert_allclose(data[:, col["upper.scale_x"]], 2.0, atol=1e-9)
    np.testing.assert_allclose(data[:, col["upper.scale_y"]], 0.5, atol=1e-9)
    np.testing.assert_allclose(data[:, col["upper.shear_deg"]], 0.0, atol=1e-6)
    # lower starts at upper's tip: 100 along a 2x-scaled x axis.
    np.testing.assert_allclose(data[:, col["lower.x"]], 10.0 + 200.0 * np.cos(theta), atol=1e-6)
    np.testing.assert_allclose(data[:, col["lower.y"]], 20.0 + 200.0 * np.sin(theta), atol=1e-6)
    # Its axes are upper's (2, 0.5) scaling of (cos 45, sin 45) and (-sin 45, cos 45):
    # x axis (2, 0.5) and y axis (-2, 0.5) over sqrt 2, turned by theta.
    rot = np.degrees(theta + math.atan2(0.5, 2.0))
    y_axis = np.degrees(theta + math.atan2(0.5, -2.0))
    np.testing.assert_allclose(data[:, col["lower.rotation_deg"]], (rot + 180) % 360 - 180, atol=1e-6)
    np.testing.assert_allclose(data[:, col["lower.scale_x"]], math.sqrt(4.25 / 2), atol=1e-9)
    np.testing.assert_allclose(data[:, col["lower.scale_y"]], math.sqrt(4.25 / 2), atol=1e-9)
    np.testing.assert_allclose(data[:, col["lower.shear_deg"]], y_axis - rot - 90.0, atol=1e-6)


def test_fps_samples_between_frames_on_the_keyed_curve(tmp_path):
    out = tmp_path / "w.csv"
    assert main(["bake", _rig(tmp_path), "-o", str(out), "--world", "--fps", "60"]) == 0
    head, data = _read(out)
    # 0 .. 1 s at 60 samples a second: 61 rows, frames 0, 0.4, 0.8, ... 24.
    assert data.shape[0] == 61
    np.testing.assert_allclose(data[:, 0], np.arange(61) * 0.4, atol=1e-6)
    np.testing.assert_allclose(data[:, 1], np.arange(61) / 60.0, atol=1e-6)
    col = {h: i for i, h in enumerate(head)}
    # The linear key pair turns upper 1.5 degrees per sample.
    np.testing.assert_allclose(data[:, col["upper.rotation_deg"]], 1.5 * np.arange(61), atol=1e-6)
    theta = np.radians(1.5 * np.arange(61))
    np.testing.assert_allclose(data[:, col["lower.y"]], 20.0 + 200.0 * np.sin(theta), atol=1e-6)


def test_fps_with_frames_starts_on_the_first_frame_asked(tmp_path):
    out = tmp_path / "w.csv"
    assert main(["bake", _rig(tmp_path), "-o", str(out), "--world", "--fps", "36", "--frames", "6:12"]) == 0
    _, data = _read(out)
    # Every 2/3 frame from 6 to 12: 6, 6.667, ... 12.
    np.testing.assert_allclose(data[:, 0], 6.0 + np.arange(10) * 2.0 / 3.0, atol=1e-6)


def test_curves_csv_keeps_sub_frame_frames(tmp_path):
    out = tmp_path / "c.csv"
    assert main(["bake", _rig(tmp_path), "-o", str(out), "--fps", "48"]) == 0
    head, data = _read(out)
    np.testing.assert_allclose(data[:3, 0], [0.0, 0.5, 1.0])
    np.testing.assert_allclose(data[:, head.index("upper.rotation_deg")], 90.0 * data[:, 0] / 24.0, atol=1e-6)


@pytest.mark.parametrize("argv, message", [
    (["--world", "--format", "json"], "--world: world poses are written as CSV, not json"),
    (["--world", "--radians"], "--radians: world poses are written in degrees"),
    (["--fps", "0"], "--fps: expected a number of samples a second in (0, 10000], got 0"),
    (["--fps", "nan"], "--fps: expected a number of samples a second in (0, 10000], got nan"),
])
def test_bad_world_and_fps_options_are_one_line(tmp_path, capsys, argv, message):
    out = tmp_path / "w.csv"
    assert main(["bake", _rig(tmp_path), "-o", str(out), *argv]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_fps_is_refused_for_a_chain_that_smooths_per_frame(project_file, tmp_path, capsys):
    def smooth(doc):
        doc["chains"][0]["smoothing"] = {"kind": "ema", "time_constant_s": 0.1}
    out = tmp_path / "w.csv"
    assert main(["bake", str(project_file("arm", smooth)), "-o", str(out), "--fps", "60"]) == 2
    assert "smooths per frame at 24 fps" in capsys.readouterr().err
    assert main(["bake", str(project_file("arm", smooth)), "-o", str(out), "--fps", "24"]) == 0


def test_decompose_rebuilds_mirrored_and_sheared_matrices():
    rng = np.random.default_rng(3)
    r, s = rng.uniform(-3.0, 3.0, 200), rng.uniform(-1.4, 1.4, 200)
    sx, sy = rng.uniform(0.1, 3.0, 200), rng.uniform(-3.0, 3.0, 200)
    a, b, c, d = sx * np.cos(r), -sy * np.sin(r + s), sx * np.sin(r), sy * np.cos(r + s)
    r2, sx2, sy2, s2 = decompose(a, b, c, d)
    np.testing.assert_allclose(np.cos(r2 - r), 1.0, atol=1e-12)
    np.testing.assert_allclose(sx2, sx, rtol=1e-12)
    np.testing.assert_allclose(sy2, sy, rtol=1e-12)
    np.testing.assert_allclose(s2, s, atol=1e-9)
