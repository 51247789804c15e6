"""Angle curves as CSV: the columns, their units, unwrapping, and the text format."""
from __future__ import annotations

import csv
import io
import math
from dataclasses import replace

import numpy as np
import pytest

from rigeditor.io.errors import ExportError
from rigeditor.io.curves.write_csv import curves_csv, export_curves_csv
from rigeditor.io.curves.numtext import fixed_rows
from rigeditor.model import evaluate
from rigeditor.examples.rigs import walk

from io_rigs import circling_arm


def _read(data: bytes):
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
    return rows[0], np.array(rows[1:], dtype=float)


def test_the_header_names_every_column_with_its_unit():
    header, table = _read(curves_csv(evaluate(walk())))
    bones = ["spine", "head", "upper_arm_l", "forearm_l", "thigh_l", "shin_l", "thigh_r", "shin_r"]
    chains = ["arm_l", "leg_l", "leg_r"]
    assert header == (["frame", "time_s"] + [f"{b}.rotation_deg" for b in bones]
                      + [f"{c}.{s}" for c in chains for s in ("residual", "limited", "sensitivity_deg_per_unit")])
    assert table.shape == (49, len(header))
    np.testing.assert_array_equal(table[:, 0], np.arange(49))
    np.testing.assert_allclose(table[:, 1], np.arange(49) / 24.0, atol=5e-7)


def test_rotations_are_unwrapped_local_angles_in_degrees():
    project = circling_arm(turns=2.0, frames=96)
    header, table = _read(curves_csv(evaluate(project)))
    upper = table[:, header.index("upper.rotation_deg")]
    # The target circles twice at a constant distance: the upper arm turns by two whole
    # turns, smoothly, never jumping back by 360.
    assert np.abs(np.diff(upper)).max() < 10.0
    assert upper[-1] - upper[0] == pytest.approx(720.0, abs=1e-4)
    # Its angle is the target's angle minus a constant (law of cosines, bend +1).
    a, b, d = 150.0, 125.0, 200.0
    alpha = math.degrees(math.acos((a * a + d * d - b * b) / (2 * a * d)))
    target_angle = np.degrees(2 * math.pi * 2 * np.arange(97) / 96)
    assert np.abs((upper - (target_angle - alpha) + 180) % 360 - 180).max() < 1e-5
    lower = table[:, header.index("lower.rotation_deg")]
    gamma = math.degrees(math.acos((a * a + b * b - d * d) / (2 * a * b)))
    np.testing.assert_allclose(lower, 180.0 - gamma, atol=1e-5)


def test_walks_left_arm_starts_within_half_a_turn():
    # upper_arm_l hangs from the spine turned by pi: its local rotation adds up to 229
    # degrees at frame 0. Curves start in (-180, 180] and run on from there unwrapped.
    bake = evaluate(walk())
    header, table = _read(curves_csv(bake))
    raw = np.degrees(bake.local_rotation[:, bake.column("upper_arm_l")])
    assert raw[0] > 180.0  # the case this is about
    upper = table[:, header.index("upper_arm_l.rotation_deg")]
    assert -180.0 < upper[0] <= 180.0
    assert np.abs(np.diff(upper)).max() < 180.0
    np.testing.assert_allclose((upper - raw + 180.0) % 360.0 - 180.0, 0.0, atol=1e-5)  # same angles
    for column in (c for c in header if c.endswith(".rotation_deg")):
        assert -180.0 < table[0, header.index(column)] <= 180.0, column


def test_limited_residual_and_sensitivity_columns_follow_the_bake():
    # The elbow may bend 60 degrees at most; at this distance it needs more: the limit
    # binds on every frame and the hand falls short.
    project = circling_arm(turns=0.25, frames=24, elbow_limit=(0.0, math.radians(60)))
    bake = evaluate(project)
    header, table = _read(curves_csv(bake))
    limited = table[:, header.index("arm.limited")]
    assert set(limited) == {1.0}
    np.testing.assert_array_equal(limited, bake.chains["arm"].limited.astype(float))
    np.testing.assert_allclose(table[:, header.index("lower.rotation_deg")], 60.0, atol=1e-6)
    np.testing.assert_allclose(table[:, header.index("arm.residual")], bake.chains["arm"].residual, atol=5e-7)
    assert table[:, header.index("arm.residual")].min() > 1.0
    np.testing.assert_allclose(table[:, header.index("arm.sensitivity_deg_per_unit")],
                               bake.chains["arm"].sensitivity, atol=5e-7)


def test_radians_switch_the_unit_and_the_suffixes():
    bake = evaluate(circling_arm(turns=1.0, frames=24))
    h_deg, deg = _read(curves_csv(bake))
    h_rad, rad = _read(curves_csv(bake, radians=True))
    assert h_rad == [h.replace("rotation_deg", "rotation_rad").replace("deg_per_unit", "rad_per_unit")
                     for h in h_deg]
    angles = [i for i, h in enumerate(h_deg) if "rotation" in h or "sensitivity" in h]
    np.testing.assert_allclose(rad[:, angles], np.radians(deg[:, angles]), atol=1e-6)


def test_the_text_is_plain_comma_separated_with_point_decimals():
    text = curves_csv(evaluate(walk())).decode("utf-8")
    lines = text.split("\n")
    assert lines[-1] == "" and all(line.count(",") == lines[0].count(",") for line in lines[:-1])
    assert not any(line.startswith("#") for line in lines)
    assert "nan" not in text.lower() and "inf" not in text.lower() and "-0.000000" not in text
    assert all(" " not in line for line in lines)


def test_a_non_finite_value_is_refused_and_nothing_is_written(tmp_path):
    bake = evaluate(walk())
    bone = bake.bone_bakes[2]
    rotation = np.array(bone.local_rotation)
    rotation[5] = np.nan
    items = list(bake.bone_bakes)
    items[2] = replace(bone, local_rotation=rotation)
    broken = replace(bake, bone_bakes=tuple(items))
    out = tmp_path / "curves.csv"
    out.write_bytes(b"previous")
    with pytest.raises(ExportError) as err:
        export_curves_csv(None, broken, out)
    assert err.value.problems == ["upper_arm_l.rotation_deg: not finite at frame 5 (nan); nothing was written"]
    assert out.read_bytes() == b"previous"


def test_fixed_point_text_matches_printf_away_from_exact_ties():
    rng = np.random.default_rng(7)
    values = np.concatenate([rng.normal(0, 100, 5000), rng.normal(0, 1e7, 200),
                             [0.0, -0.0, -1e-12, 1e-12, 999.9999996, -999.9999996, 1e15, -3e17]])
    for decimals in (0, 3, 6, 9):
        got = fixed_rows(values[:, None], [decimals]).decode().split("\n")[:-1]
        want = [f"%.{decimals}f" % v for v in values]
        want = [w[1:] if w.startswith("-") and float(w) == 0 else w for w in want]  # no "-0"
        assert got == want
