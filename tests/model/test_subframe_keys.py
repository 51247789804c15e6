"""Keys between frames: sampled at any time, saved as they are, dragged onto frames."""
from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from rigeditor.io import dumps_project, loads_project
from rigeditor.edits import keys as key_edits
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.examples.rigs import arm
from rigeditor.model.data.timeline import Channel, Key

ROTATION = ("bone", "upper_arm", "rotation")


def _with_rotation(keys):
    p = arm()
    return p.with_bone("upper_arm", rotation=Channel((0.0,), tuple(keys)))


def _fk_arm():
    p = _with_rotation([Key(0, (0.0,)), Key(2.5, (1.0,)), Key(10, (0.0,))])
    return replace(p, chains=(), targets=())


def test_a_key_between_frames_shapes_the_motion_at_any_time():
    bake = evaluate(_fk_arm(), np.array([1.0, 2.5, 2.75, 6.25]))
    # Linear 0 -> 1 rad over frames 0..2.5, then 1 -> 0 over 2.5..10.
    np.testing.assert_allclose(bake.local_rotation[:, 0], [0.4, 1.0, 1.0 - 0.25 / 7.5, 0.5], atol=1e-12)
    # The forearm rides the upper arm's tip: 150 units along it.
    np.testing.assert_allclose(bake.joint_world[:, 1, 0], 150.0 * np.cos([0.4, 1.0, 1.0 - 0.25 / 7.5, 0.5]),
                               atol=1e-9)


def test_a_file_keeps_a_key_between_frames_and_writes_whole_frames_as_integers():
    text = dumps_project(_fk_arm())
    keys = json.loads(text)["bones"][0]["rotation"]["keys"]
    assert [k["frame"] for k in keys] == [0, 2.5, 10]
    assert all(type(k["frame"]) is int for k in keys if k["frame"] != 2.5)
    again = loads_project(text)
    assert [k.frame for k in again.bone("upper_arm").rotation.keys] == [0, 2.5, 10]


def test_dragging_keys_lands_them_on_whole_frames():
    p = _with_rotation([Key(0, (0.0,)), Key(2.4, (1.0,)), Key(7.6, (0.5,)), Key(10, (0.0,))])
    moved = key_edits.move_keys(p, {ROTATION: (2.4, 7.6)}, 2)
    frames = [k.frame for k in moved.bone("upper_arm").rotation.keys]
    assert frames == [0, 4, 10]  # 2.4 + 2 -> 4; 7.6 + 2 -> 10 replaces the key there
    assert [k.value for k in moved.bone("upper_arm").rotation.keys] == [(0.0,), (1.0,), (0.5,)]
    # Not moving leaves a key between frames where it is.
    assert key_edits.move_keys(p, {ROTATION: (2.4,)}, 0) is p


def test_keys_in_the_wrong_order_are_refused_with_their_frames():
    with pytest.raises(Exception) as err:
        doc = json.loads(dumps_project(_fk_arm()))
        doc["bones"][0]["rotation"]["keys"][1]["frame"] = 10.5
        loads_project(json.dumps(doc))
    assert "keys must be in increasing frame order, got 10 after 10.5" in str(err.value.problems)
