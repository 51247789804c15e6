"""Slot colour through the Spine import and export: the setup light and dark colours,
the blend mode, and the rgba, rgb, alpha, rgba2 and rgb2 timelines with one curve per
component; the attachment's own colour stays its own. Expected values are worked out
here from Spine's definition of a curve (ten straight chords in the curve parameter)."""
from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from rigeditor.io.project_file import ProjectFileError, dumps_project, loads_project
from rigeditor.io.spine.read import spine_project
from rigeditor.io.spine.skeleton import SpineError, parse_spine
from rigeditor.io.spine.write import spine_document
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import LEG
from tests.io.test_import_spine_fuzz import _Pages

FPS = 30.0


def F32(t):
    """A key time as the runtimes hold it (a 32-bit float): 0.6 s is 0.60000002 s, so
    a step keyed at 0.6 s shows from the frame after 0.6 s on."""
    return float(np.float32(t))


# rgba2 on the thigh: light r, g, b, a then dark r, g, b, each with its own bezier.
CURVE = [0.1, 0.9, 0.4, 0.95,  0.05, 0.1, 0.3, 0.2,  0.2, 0.5, 0.3, 0.5,  0.1, 1.0, 0.4, 1.0,
         0.15, 0.0, 0.45, 0.3,  0.1, 0.2, 0.2, 0.8,  0.25, 0.6, 0.35, 0.1]


def _doc():
    doc = copy.deepcopy(LEG)
    doc["slots"][0].update(color="ff8040c0", dark="102030", blend="multiply")
    doc["slots"][1].update(blend="additive")
    doc["skins"][0]["attachments"]["thigh"]["thigh"]["color"] = "80ffffff"
    doc["animations"]["walk"]["slots"] = {
        "thigh": {"rgba2": [
            {"time": 0, "light": "ff0000ff", "dark": "000000", "curve": CURVE},
            {"time": 0.5, "light": "00ff8080", "dark": "ffff00", "curve": "stepped"},
            {"time": 0.6, "light": "336699cc", "dark": "102030"}]},
        "shin": {
            "rgb": [{"time": 0.1, "color": "000000"}, {"time": 0.3, "color": "ffccaa"}],
            "alpha": [{"time": 0, "value": 1, "curve": "stepped"}, {"time": 0.2, "value": 0.25}]}}
    return doc


def _spine_value(t, t0, v0, c, t1, v1):
    """Spine's value of a bezier segment at time t: the curve sampled at parameters
    0, 0.1, ..., 1 and joined by straight lines in time."""
    u = np.linspace(0, 1, 11)
    x = (1 - u) ** 3 * t0 + 3 * (1 - u) ** 2 * u * c[0] + 3 * (1 - u) * u ** 2 * c[2] + u ** 3 * t1
    y = (1 - u) ** 3 * v0 + 3 * (1 - u) ** 2 * u * c[1] + 3 * (1 - u) * u ** 2 * c[3] + u ** 3 * v1
    return np.interp(t, x, y)


def _expected_thigh(frames):
    """(light (N, 4), dark (N, 3)) of the thigh's rgba2 timeline, by hand."""
    start = [1, 0, 0, 1, 0, 0, 0]
    mid = [0, 1, 128 / 255, 128 / 255, 1, 1, 0]
    last = [0x33 / 255, 0x66 / 255, 0x99 / 255, 0xcc / 255, 0x10 / 255, 0x20 / 255, 0x30 / 255]
    out = np.empty((len(frames), 7))
    for i, f in enumerate(frames):
        t = f / FPS
        for j in range(7):
            if t < 0.5:
                out[i, j] = _spine_value(t, 0, start[j], CURVE[4 * j:4 * j + 4], 0.5, mid[j])
            else:
                out[i, j] = mid[j] if t < F32(0.6) else last[j]
    return np.clip(out[:, :4], 0, 1), np.clip(out[:, 4:], 0, 1)


def _import(doc, **kw):
    return spine_project(parse_spine(json.dumps(doc)), _Pages(), **kw)


def test_setup_colours_blend_and_the_attachments_own_colour_are_imported():
    result = _import(_doc())
    thigh, shin = result.project.art.slots
    assert tuple(getattr(thigh, c).default[0] for c in ("red", "green", "blue", "alpha")) == (
        1.0, 0x80 / 255, 0x40 / 255, 0xc0 / 255)
    assert thigh.dark and tuple(getattr(thigh, c).default[0] for c in ("dark_red", "dark_green", "dark_blue")) == (
        0x10 / 255, 0x20 / 255, 0x30 / 255)
    assert (thigh.blend, shin.blend) == ("multiply", "additive")
    assert thigh.attachments[0].tint == (128 / 255, 1.0, 1.0, 1.0)  # not multiplied by the slot's colour
    assert not any("colour" in w or "blend" in w or "tint" in w for w in result.warnings), result.warnings


def test_each_timeline_kind_plays_as_spine_plays_it():
    project = _import(_doc()).project
    frames = np.arange(0, 31.0)
    art = evaluate(project, frames).art
    light, dark = _expected_thigh(frames)
    np.testing.assert_allclose(art.color[:, 0], light, atol=1e-6)
    np.testing.assert_allclose(art.dark[:, 0], dark, atol=1e-6)
    # The shin: rgb from black at 0.1 s to ffccaa at 0.3 s (setup white before 0.1 s),
    # alpha held at 1 until it steps to 0.25 at 0.2 s.
    t = frames / FPS
    ramp = np.clip((t - F32(0.1)) / (F32(0.3) - F32(0.1)), 0, 1)
    rgb = np.where(t[:, None] < F32(0.1), 1.0, ramp[:, None] * np.array([1.0, 0xcc / 255, 0xaa / 255]))
    np.testing.assert_allclose(art.color[:, 1, :3], rgb, atol=1e-6)
    np.testing.assert_allclose(art.color[:, 1, 3], np.where(t < F32(0.2), 1.0, 0.25), atol=1e-12)
    assert not project.art.slot("shin").dark and np.all(art.dark[:, 1] == 0)


@pytest.mark.parametrize("curves, tolerance", [("authored", 1e-6), ("runtime", 0.5 / 255 + 1e-9)])
def test_the_export_gives_back_the_same_colours(curves, tolerance):
    # Authored curves come back as the same curves; the runtime's chord corners are
    # keys whose colours Spine writes as hex digits (to the nearest 1/255).
    project = _import(_doc(), curves=curves).project
    doc = spine_document(project, evaluate(project), animation="walk")
    thigh = doc["slots"][0]
    assert (thigh["color"], thigh["dark"], thigh["blend"]) == ("ff8040c0", "102030", "multiply")
    assert doc["skins"][0]["attachments"]["thigh"]["thigh"]["color"] == "80ffffff"
    timelines = doc["animations"]["walk"]["slots"]
    assert set(timelines["thigh"]) == {"rgba2"} and set(timelines["shin"]) == {"rgb", "alpha"}  # their steps fall at other times
    if curves == "authored":
        first = timelines["thigh"]["rgba2"][0]
        assert len(first["curve"]) == 28
    back = _import(doc, curves=curves).project
    frames = np.arange(0, 31.0)
    a, b = evaluate(project, frames).art, evaluate(back, frames).art
    np.testing.assert_allclose(b.color, a.color, atol=tolerance)
    np.testing.assert_allclose(b.dark, a.dark, atol=tolerance)
    assert b.blend == a.blend


def test_colours_survive_the_project_file_and_a_bad_one_is_refused_where_it_is():
    project = _import(_doc()).project
    text = dumps_project(project)
    back = loads_project(text)
    for s, t in zip(project.art.slots, back.art.slots):
        assert s == t
    data = json.loads(text)
    data["slots"][0]["color"]["green"]["default"] = 1.5
    with pytest.raises(ProjectFileError) as err:
        loads_project(json.dumps(data))
    assert any("slots[0].color.green.default" in p and "between 0 and 1" in p for p in err.value.problems)
    data["slots"][0]["color"]["green"]["default"] = 0.5
    data["slots"][0]["blend"] = "overlay"
    with pytest.raises(ProjectFileError) as err:
        loads_project(json.dumps(data))
    assert any("slots[0].blend" in p and "screen" in p for p in err.value.problems)


def test_a_file_without_colours_writes_no_colour_fields():
    doc = copy.deepcopy(LEG)
    project = _import(doc).project
    data = json.loads(dumps_project(project))
    assert all("color" not in s and "blend" not in s for s in data["slots"])


def test_a_colour_key_that_is_no_colour_is_refused_where_it_is():
    doc = _doc()
    doc["animations"]["walk"]["slots"]["shin"]["rgb"][1]["color"] = "fffz00"
    with pytest.raises(SpineError) as err:
        _import(doc)
    assert "animations.walk.slots.shin.rgb[1].color" in str(err.value)


def test_two_keys_at_one_time_after_a_setup_hold_play_the_last_one():
    # rgb2 keyed twice at 0.1 s (the first eased, the second stepped), then at 0.5 s: a
    # runtime shows the setup colour before 0.1 s (32-bit: after frame 3), then the
    # second key's colour held until 0.5 s. The first key used to land after the second.
    doc = copy.deepcopy(LEG)
    doc["slots"][0]["dark"] = "000000"
    doc["animations"]["walk"]["slots"] = {"thigh": {"rgb2": [
        {"time": 0.1, "light": "67a241", "dark": "03f711", "curve": [0.1, 0.2, 0.1, 0.5] * 6},
        {"time": 0.1, "light": "e2f69c", "dark": "e4061b", "curve": "stepped"},
        {"time": 0.5, "light": "41dfb6", "dark": "6de983"}]}}
    art = evaluate(_import(doc).project, np.arange(0, 19.0)).art
    second = np.array([0xe2, 0xf6, 0x9c]) / 255
    np.testing.assert_allclose(art.color[:4, 0, :3], 1.0)
    np.testing.assert_allclose(art.color[4:15, 0, :3], np.tile(second, (11, 1)))
    np.testing.assert_allclose(art.dark[4:15, 0], np.tile(np.array([0xe4, 0x06, 0x1b]) / 255, (11, 1)))
    np.testing.assert_allclose(art.color[15:, 0, :3], np.tile(np.array([0x41, 0xdf, 0xb6]) / 255, (4, 1)))
