"""Events through the Spine import and export, the project file and `rigeditor bake
--format json`: definitions with every value kind, keys overriding them, fired on the
frame a runtime sampling at the frame rate fires them (worked out here by hand)."""
from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from rigeditor import edits
from rigeditor.cli import main
from rigeditor.io.project_file import ProjectFileError, dumps_project, loads_project, save_project
from rigeditor.io.spine.read import spine_project
from rigeditor.io.spine.skeleton import SpineError, parse_spine
from rigeditor.io.spine.write import spine_document
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.model.evaluation.events import fired_events

from tests.io.spine_rigs import LEG
from tests.io.test_import_spine_fuzz import _Pages

EVENTS = {"step": {"int": 3, "float": 0.5, "string": "left", "audio": "sfx/step.wav", "volume": 0.7,
                   "balance": -0.2},
          "hit": {}}
KEYS = [{"time": 0, "name": "hit"},
        {"time": 0.1, "name": "step"},  # 0.1 s as a 32-bit float is after frame 3: fires on frame 4
        {"time": 0.2, "name": "step", "int": -4, "float": 1.25, "string": "right", "volume": 0.25, "balance": 1},
        {"time": 0.2, "name": "hit", "string": "same time"},
        {"time": 0.3667, "name": "hit", "float": 9}]


def _doc():
    doc = copy.deepcopy(LEG)
    doc["events"] = copy.deepcopy(EVENTS)
    doc["animations"]["walk"]["events"] = copy.deepcopy(KEYS)
    return doc


def _import(doc):
    return spine_project(parse_spine(json.dumps(doc)), _Pages())


def _fired(project):
    return [(f.at, f.name, f.int_value, f.float_value, f.string, f.audio, f.volume, f.balance)
            for f in fired_events(project)]


# What a runtime fires sampling at 30 fps (each frame t = i/30 fires keys in (t_prev, t]),
# with Spine's rules: a key's int, float and string override the definition's; its
# volume and balance default to 1 and 0 and exist only for an event with audio.
EXPECTED = [(0.0, "hit", 0, 0.0, "", "", 0.0, 0.0),
            (4.0, "step", 3, 0.5, "left", "sfx/step.wav", 1.0, 0.0),
            (7.0, "step", -4, 1.25, "right", "sfx/step.wav", 0.25, 1.0),  # 0.2 s (32-bit) is after frame 6
            (7.0, "hit", 0, 0.0, "same time", "", 0.0, 0.0),
            (12.0, "hit", 0, 9.0, "", "", 0.0, 0.0)]  # 0.3667 s is frame 11.001: fires on 12


def test_the_import_fires_what_a_runtime_fires():
    result = _import(_doc())
    assert not any("event" in w for w in result.warnings), result.warnings
    defs = result.project.events.definitions
    assert [(d.name, d.int_value, d.float_value, d.string, d.audio, d.volume, d.balance) for d in defs] == [
        ("step", 3, 0.5, "left", "sfx/step.wav", 0.7, -0.2), ("hit", 0, 0.0, "", "", 1.0, 0.0)]
    # The frames by hand: the first frame i with i/30 >= the key's 32-bit time.
    t32 = [float(np.float32(k["time"])) for k in KEYS]
    assert [int(np.ceil(t * 30 - 1e-12)) if abs(t * 30 - round(t * 30)) > 1e-12 else round(t * 30)
            for t in t32] == [0, 4, 7, 7, 12]
    assert _fired(result.project) == EXPECTED


def test_the_export_gives_back_the_same_events():
    project = _import(_doc()).project
    doc = spine_document(project, evaluate(project), animation="walk")
    assert doc["events"]["step"] == EVENTS["step"]
    assert doc["events"]["hit"] == {}
    back = _import(doc).project
    assert back.events.definitions == project.events.definitions
    assert _fired(back) == _fired(project)


def test_events_of_every_animation_survive_the_project_file():
    doc = _doc()
    doc["animations"]["jump"] = {"events": [{"time": 0.5, "name": "hit", "int": 7}]}
    project = _import(doc).project
    back = loads_project(dumps_project(project))
    assert back.events == project.events
    assert back.animations == project.animations
    jump = edits.switch_animation(back, "jump")
    assert [(k.frame, k.name, k.int_value) for k in jump.events.keys] == [(15.0, "hit", 7)]


def test_a_bad_event_is_refused_where_it_is():
    doc = _doc()
    doc["animations"]["walk"]["events"][2]["volume"] = 2
    with pytest.raises(SpineError) as err:
        _import(doc)
    assert "animations.walk.events[2].volume: must be between 0 and 1, got 2" in str(err.value)
    doc = _doc()
    doc["animations"]["walk"]["events"][0]["name"] = "nope"
    with pytest.raises(SpineError) as err:
        _import(doc)
    assert "animations.walk.events[0].name: unknown event 'nope'" in str(err.value)
    data = json.loads(dumps_project(_import(_doc()).project))
    data["events"]["keys"][1]["name"] = "ghost"
    with pytest.raises(ProjectFileError) as err:
        loads_project(json.dumps(data))
    assert any("events.keys[1].name: unknown event 'ghost'" in p for p in err.value.problems)


def test_bake_json_lists_the_fired_events(tmp_path):
    path = tmp_path / "leg.rigproj"
    save_project(_import(_doc()).project, path)
    out = tmp_path / "leg.json"
    assert main(["bake", str(path), "-o", str(out), "--format", "json"]) == 0
    events = json.loads(out.read_text())["events"]
    assert [(e["at"], e["name"], e["int"], e["float"], e["string"], e["audio"], e["volume"], e["balance"])
            for e in events] == _fired(_import(_doc()).project)
    assert events[1]["time"] == pytest.approx(0.1, abs=1e-7)


def test_edits_refuse_what_spine_could_not_play():
    p = edits.add_event(_import(copy.deepcopy(LEG)).project, "hit")
    with pytest.raises(edits.EditError, match="already an event named 'hit'"):
        edits.add_event(p, "hit")
    with pytest.raises(edits.EditError, match="no event named 'miss'"):
        edits.add_event_key(p, 3, "miss")
    with pytest.raises(edits.EditError, match="volume must be between 0 and 1, got 1.5"):
        edits.add_event_key(p, 3, "hit", volume=1.5)
    with pytest.raises(edits.EditError, match="int must be a whole number"):
        edits.add_event_key(p, 3, "hit", int_value=2.5)
    p = edits.add_event_key(edits.add_event_key(p, 5, "hit"), 2, "hit", string="first")
    assert [k.frame for k in p.events.keys] == [2.0, 5.0]
    p = edits.move_event_key(p, 0, 9)
    assert [(k.frame, k.string) for k in p.events.keys] == [(5.0, None), (9.0, "first")]
    gone = edits.delete_event(p, "hit")
    assert gone.events.keys == () and gone.events.definitions == ()
