"""Angle curves as JSON: the CSV's data, the project's name, fps and units, and bezier
keys that reproduce each rotation within the stated tolerance."""
from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

from rigeditor.io.curves.write_csv import curves_csv
from rigeditor.io.curves.write_json import curves_json, export_curves_json
from rigeditor.io.curves.keyreduce import reduce_curve
from rigeditor.model import evaluate
from rigeditor.examples.rigs import EXAMPLES, walk
from rigeditor.model.data.timeline import Channel, Key

from io_rigs import circling_arm, waving_bone


def _sampled(keys: list[dict], frames) -> np.ndarray:
    """The keys sampled the way RigEditor samples a track."""
    model_keys = tuple(Key(k["frame"], (k["value"],), k["interp"],
                           tuple(k["out_handle"]) if "out_handle" in k else None,
                           tuple(k["in_handle"]) if "in_handle" in k else None) for k in keys)
    return Channel((keys[0]["value"],), model_keys).sample(frames)[:, 0]


def test_the_document_holds_the_csv_columns_and_says_name_fps_and_units():
    bake = evaluate(walk())
    doc = json.loads(curves_json("walk", bake))
    assert (doc["format"], doc["version"], doc["project"], doc["fps"]) == ("rigeditor-curves", 1, "walk", 24.0)
    assert doc["units"] == {"frame": "frames", "time": "s", "angle": "deg", "residual": "model units",
                            "sensitivity": "deg per model unit"}
    rows = list(csv.reader(io.StringIO(curves_csv(bake).decode())))
    assert list(doc["columns"]) == rows[0]
    for c, name in enumerate(rows[0]):
        assert doc["columns"][name] == [float(r[c]) for r in rows[1:]]


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_keys_reproduce_every_baked_rotation_within_the_tolerance(name):
    bake = evaluate(EXAMPLES[name]())
    doc = json.loads(curves_json(name, bake))
    assert doc["keys"]["tolerance"] == 0.1
    curves = doc["keys"]["curves"]
    assert list(curves) == [f"{b}.rotation_deg" for b in bake.bones]
    for column, keys in curves.items():
        baked = np.array(doc["columns"][column])
        error = np.abs(_sampled(keys, bake.frames) - baked)
        assert error.max() <= 0.1 + 1e-6, column  # + the 1e-6 degree of the written columns
        assert len(keys) <= len(baked)


def test_a_smooth_thousand_frame_curve_becomes_a_few_dozen_keys():
    project = waving_bone(frames=1000, amplitude_deg=60.0, period=250.0)
    bake = evaluate(project)
    doc = json.loads(curves_json("waving", bake))
    keys = doc["keys"]["curves"]["flag.rotation_deg"]
    frames = np.arange(1001, dtype=float)
    expected = 60.0 * np.sin(2 * np.pi * frames / 250.0)  # the keyed motion, in closed form
    assert np.abs(_sampled(keys, frames) - expected).max() <= 0.1 + 1e-9
    assert 8 <= len(keys) <= 48  # four periods: a key every ~25 frames, not 1,001 of them
    assert {k["interp"] for k in keys[:-1]} == {"bezier"}


def test_a_looser_tolerance_needs_fewer_keys_and_radians_state_theirs():
    waving = evaluate(waving_bone(frames=300))
    tight = json.loads(curves_json("w", waving, tolerance_deg=0.01))["keys"]["curves"]["flag.rotation_deg"]
    loose = json.loads(curves_json("w", waving, tolerance_deg=1.0))["keys"]["curves"]["flag.rotation_deg"]
    assert len(loose) < len(tight)
    # The circling arm's upper bone turns at a constant rate: its two ends say it all.
    bake = evaluate(circling_arm(turns=2.0, frames=240))
    doc = json.loads(curves_json("arm", bake, radians=True, tolerance_deg=0.5))
    assert doc["units"]["angle"] == "rad"
    assert doc["keys"]["tolerance"] == pytest.approx(np.radians(0.5))
    keys = doc["keys"]["curves"]["upper.rotation_rad"]
    assert len(keys) == 2
    baked = np.array(doc["columns"]["upper.rotation_rad"])
    assert np.abs(_sampled(keys, bake.frames) - baked).max() <= np.radians(0.5) + 1e-8


def test_a_jump_between_two_frames_is_kept_without_overshoot_in_between():
    frames = np.arange(20, dtype=float)
    values = np.where(frames < 10, 0.0, 90.0)
    keys = reduce_curve(frames, values, 0.1)
    sampled = Channel((0.0,), keys).sample(np.linspace(0, 19, 381))[:, 0]
    np.testing.assert_allclose(Channel((0.0,), keys).sample(frames)[:, 0], values, atol=0.1)
    assert sampled.min() >= -0.1 and sampled.max() <= 90.1  # the one-frame step is linear


def test_the_export_writes_the_file(tmp_path):
    out = tmp_path / "walk.json"
    export_curves_json(walk(), evaluate(walk()), out)
    assert json.loads(out.read_text(encoding="utf-8"))["project"] == "walk"
