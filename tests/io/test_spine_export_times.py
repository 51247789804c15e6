"""Exported key times as Spine's runtimes read them (32-bit floats): a key on a frame
reads back at or before that frame's time, never after (else it shows a frame late);
a key between frames keeps its time; the import puts each key back on its frame."""
from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from rigeditor.examples.rigs import EXAMPLES
from rigeditor.io.spine.read_keys import frame_of
from rigeditor.io.spine.write import spine_document
from rigeditor.io.spine.write_curves import key_time
from rigeditor.model import evaluate


def _times(node):
    """Every key "time" of an animation's timelines."""
    if isinstance(node, dict):
        if "time" in node:
            yield node["time"]
        for v in node.values():
            yield from _times(v)
    elif isinstance(node, list):
        for v in node:
            yield from _times(v)


def _check_on_frame(t, fps):
    """t (as parsed from the JSON) held as a 32-bit float lies at or before its frame's
    exact time (fractions: no float rounding in the check) and is the largest such float."""
    t32 = np.float32(t)
    frame = round(float(t32) * fps)
    exact = Fraction(frame) / Fraction(fps)
    assert Fraction(float(t32)) <= exact, (t, frame)
    assert Fraction(float(np.nextafter(t32, np.float32(np.inf)))) > exact, (t, frame)
    assert Fraction(t) <= exact  # a 64-bit reader too
    return frame


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_every_key_of_every_example_reads_back_at_or_before_its_frame(name):
    project = EXAMPLES[name]()
    bake = evaluate(project)
    doc = json.loads(json.dumps(spine_document(project, bake)))
    times = list(_times(doc["animations"]))
    assert times
    frames = {_check_on_frame(t, bake.fps) for t in times}
    assert frames <= set(range(len(bake)))


def test_frame_times_whose_nearest_float_lies_after_them_are_written_below():
    # 13/30 s: the nearest 32-bit float is 0.43333334 (after the frame's time).
    assert float(np.float32(13 / 30)) > 13 / 30
    t = key_time(13, 30.0)
    assert np.float32(t) < np.float32(13 / 30) and Fraction(t) <= Fraction(13, 30)
    assert frame_of(t, 30.0) == 13.0 and frame_of(t, 30.0, step=True) == 13.0
    # a frame time a float holds exactly is written as it is
    assert key_time(15, 30.0) == 0.5 and frame_of(0.5, 30.0) == 15.0


def test_every_frame_of_an_hour_at_common_rates_comes_back_to_its_frame():
    for fps in (24.0, 30.0, 60.0, 120.0):
        frames = np.arange(0, int(3600 * fps) + 1, 97)
        for f, t in zip(frames, key_time(frames, fps)):
            assert frame_of(t, fps, step=True) == f
            assert Fraction(float(np.float32(t))) <= Fraction(int(f)) / Fraction(fps)


def test_a_key_between_frames_keeps_its_time():
    t = key_time(2.5, 30.0)
    assert t == 2.5 / 30.0
    assert frame_of(t, 30.0) == pytest.approx(2.5, abs=1e-5)
