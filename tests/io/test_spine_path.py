"""Spine path attachments and path constraints: imported (setup, skins, timelines),
refused where Spine would not read them, saved and read back; poses by hand."""
from __future__ import annotations

import copy
import json
import math

import numpy as np
import pytest

from rigeditor.io.project_file import ProjectFileError, dumps_project, loads_project
from rigeditor.io.spine.read import import_spine
from rigeditor.io.spine.skeleton import SpineError
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import write_rig

# A straight path along x from (0, 0) to (300, 0) on bone "holder", handles a third of
# the way to each neighbour (constant speed along the line).
STRAIGHT = [-50, 0, 0, 0, 50, 0, 100, 0, 150, 0, 200, 0, 250, 0, 300, 0, 350, 0]
RIG = {
    "skeleton": {"spine": "4.2.00"},
    "bones": [{"name": "root"},
              {"name": "holder", "parent": "root", "x": 10, "y": 20},
              {"name": "b0", "parent": "root", "length": 30, "x": -40, "rotation": 30},
              {"name": "b1", "parent": "b0", "length": 20, "x": 30},
              {"name": "dot", "parent": "b1", "x": 20}],
    "slots": [{"name": "track", "bone": "holder", "attachment": "p"}],
    "skins": [{"name": "default", "attachments": {"track": {"p": {
        "type": "path", "vertexCount": 9, "vertices": STRAIGHT, "lengths": [100, 150, 300]}}}}],
    "path": [{"name": "pc", "bones": ["b0", "b1"], "target": "track", "positionMode": "fixed", "position": 40,
              "spacingMode": "fixed", "spacing": 50, "rotateMode": "chainScale", "mixX": 0.5}],
    "animations": {"go": {"path": {"pc": {
        "position": [{"time": 0, "value": 40}, {"time": 1, "value": 100}],
        "mix": [{"time": 0, "mixRotate": 1, "mixX": 0.5}, {"time": 1, "mixRotate": 0.5, "mixX": 1, "mixY": 1}]}}}},
}


def _import(tmp_path, doc=None):
    out = tmp_path / "out" / "rig.rigproj"
    out.parent.mkdir(exist_ok=True)
    src = write_rig(tmp_path / "src", RIG if doc is None else doc, stem="rig", atlas=False, page=False)
    return import_spine(src, out, force=True)


def world(bake, name):
    w = bake.bone_bakes[bake.bones.index(name)].world
    return np.array([np.broadcast_to(v, bake.frames.shape) for v in (w.a, w.b, w.c, w.d, w.tx, w.ty)]).T


def test_the_setup_comes_in_with_spines_defaults_and_no_warning(tmp_path):
    result = _import(tmp_path)
    c = result.project.path("pc")
    assert (c.bones, c.target, c.order) == (("b0", "b1"), "track", 0)
    assert (c.position_mode, c.spacing_mode, c.rotate_mode) == ("fixed", "fixed", "chainScale")
    assert (c.mix_rotate.default, c.mix_x.default, c.mix_y.default) == ((1.0,), (0.5,), (0.5,))  # y follows x
    path = result.project.art.slot("track").paths[0]
    assert (path.name, path.closed, path.constant_speed, path.lengths) == ("p", False, True, (100.0, 150.0, 300.0))
    assert path.vertices[1] == (0.0, 0.0) and path.vertex_count == 9
    assert not any("path" in w for w in result.warnings)
    doc = copy.deepcopy(RIG)
    del doc["path"][0]["positionMode"], doc["path"][0]["spacingMode"], doc["path"][0]["rotateMode"]
    c = _import(tmp_path, doc).project.path("pc")
    assert (c.position_mode, c.spacing_mode, c.rotate_mode) == ("percent", "length", "tangent")


def test_the_keyed_position_and_mixes_play_as_spine_reads_them(tmp_path):
    p = _import(tmp_path).project
    bake = evaluate(p)
    f = bake.frames
    t = f / p.timeline.fps
    position = 40 + 60 * t  # units along the line from the holder's origin (10, 20)
    mix_x = 0.5 + 0.5 * t
    own_b0 = np.array([-40.0, 0.0])
    b0 = world(bake, "b0")
    assert b0[:, 4] == pytest.approx(own_b0[0] + (10 + position - own_b0[0]) * mix_x, abs=1e-9)
    assert b0[:, 5] == pytest.approx(own_b0[1] + (20 - own_b0[1]) * mix_x, abs=1e-9)  # mix y follows x


def test_a_weighted_path_comes_in_weighted(tmp_path):
    doc = copy.deepcopy(RIG)
    v = np.array(STRAIGHT, float).reshape(-1, 2)
    # each vertex half on the holder (its frame: the vertex), half on the root (world: + (10, 20))
    doc["skins"][0]["attachments"]["track"]["p"]["vertices"] = [
        x for px, py in v for x in (2, 1, px, py, 0.5, 0, px + 10, py + 20, 0.5)]
    weighted = _import(tmp_path, doc).project
    path = weighted.art.slot("track").paths[0]
    assert path.weighted and path.bones == ("holder", None)
    plain = _import(tmp_path, RIG).project
    for b in ("b0", "b1", "dot"):
        assert world(evaluate(weighted), b) == pytest.approx(world(evaluate(plain), b), abs=1e-9)


@pytest.mark.parametrize("change, where", [
    (lambda d: d["path"][0].update(target="nowhere"), "path[0].target: unknown slot 'nowhere'"),
    (lambda d: d["path"][0].update(bones=["b0", "ghost"]), "path[0].bones[1]: unknown bone 'ghost'"),
    (lambda d: d["path"][0].update(rotateMode="spin"), "path[0].rotateMode: must be one of"),
    (lambda d: d["path"][0].update(spacing="wide"), "path[0].spacing: must be a finite number"),
    (lambda d: d["skins"][0]["attachments"]["track"]["p"].update(vertexCount=8),
     "skins[0].attachments.track.p.vertexCount: must be a whole multiple of 3 from 3, got 8"),
    (lambda d: d["skins"][0]["attachments"]["track"]["p"].update(lengths=[1]),
     "skins[0].attachments.track.p.lengths: must list 3 lengths"),
    (lambda d: d["skins"][0]["attachments"]["track"]["p"].update(vertices=STRAIGHT[:-1]),
     "skins[0].attachments.track.p.vertices"),
])
def test_what_spine_would_not_read_is_refused_where_it_is(tmp_path, change, where):
    doc = copy.deepcopy(RIG)
    change(doc)
    with pytest.raises(SpineError) as err:
        _import(tmp_path, doc)
    assert where in str(err.value)
    assert not (tmp_path / "out" / "rig.rigproj").exists()


def test_paths_are_saved_and_read_back_exactly(tmp_path):
    doc = copy.deepcopy(RIG)
    v = np.array(STRAIGHT, float).reshape(-1, 2)
    doc["skins"][0]["attachments"]["track"]["q"] = {
        "type": "path", "closed": True, "constantSpeed": False, "vertexCount": 9, "lengths": [1, 2, 3],
        "vertices": [x for px, py in v for x in (1, 1, px, py, 1.0)]}
    p = _import(tmp_path, doc).project
    text = dumps_project(p)
    back = loads_project(text)
    assert back.paths == p.paths
    assert back.art.slot("track").paths == p.art.slot("track").paths
    saved = json.loads(text)
    assert saved["paths"][0]["rotate_mode"] == "chainScale"
    for b in ("b0", "b1"):
        assert np.array_equal(world(evaluate(back), b), world(evaluate(p), b))


def test_a_file_with_a_bad_path_is_refused_with_where(tmp_path):
    p = _import(tmp_path).project
    saved = json.loads(dumps_project(p))
    saved["paths"][0]["target"] = "gone"
    with pytest.raises(ProjectFileError) as err:
        loads_project(json.dumps(saved))
    assert "paths[0].target: unknown slot 'gone'" in str(err.value)
    saved = json.loads(dumps_project(p))
    saved["slots"][0]["paths"][0]["lengths"] = [1.0]
    with pytest.raises(ProjectFileError) as err:
        loads_project(json.dumps(saved))
    assert "slots[0].paths[0].lengths: must give 3 lengths" in str(err.value)


@pytest.mark.parametrize("weighted", [False, True])
def test_the_export_writes_the_paths_back_and_they_play_the_same(tmp_path, weighted):
    from rigeditor.io.spine.write import spine_document

    doc = copy.deepcopy(RIG)
    if weighted:
        v = np.array(STRAIGHT, float).reshape(-1, 2)
        doc["skins"][0]["attachments"]["track"]["p"]["vertices"] = [
            x for px, py in v for x in (2, 1, px, py, 0.5, 0, px + 10, py + 20, 0.5)]
    doc["path"][0]["rotation"] = 12
    p = _import(tmp_path, doc).project
    bake = evaluate(p)
    out = spine_document(p, bake, animation="go")
    (entry,) = out["path"]
    assert (entry["bones"], entry["target"], entry["order"]) == (["b0", "b1"], "track", 0)
    assert (entry["positionMode"], entry["spacingMode"], entry["rotateMode"]) == ("fixed", "fixed", "chainScale")
    assert entry["rotation"] == pytest.approx(12) and entry["mixY"] == pytest.approx(0.5)
    skin = out["skins"][0]["attachments"]["track"]["p"]
    assert skin["type"] == "path" and skin["vertexCount"] == 9
    position = [k["value"] for k in out["animations"]["go"]["path"]["pc"]["position"]]
    assert position == pytest.approx(list(40 + 60 * bake.frames / p.timeline.fps))
    again = tmp_path / "again"
    again.mkdir()
    back = _import(again, out).project
    assert back.art.slot("track").paths[0].weighted == weighted
    for b in ("b0", "b1", "dot"):
        assert world(evaluate(back), b) == pytest.approx(world(bake, b), abs=1e-6)
