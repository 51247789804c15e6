"""Deform keys on Spine path attachments, boxes and clipping polygons: their vertices
move as Spine moves them (an offset per vertex, or per influence of a weighted one in
that bone's frame), so the bones a path constraint lays along a path follow; kept
through save and export. Poses by hand: straight paths, so a point along one is where
the line puts it; a turned bone turns its polygon's offsets."""
from __future__ import annotations

import copy

import numpy as np
import pytest

from rigeditor.io.project_file import dumps_project, loads_project
from rigeditor.io.spine.read import import_spine
from rigeditor.model.evaluation.constraints.path import path_curves
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import write_rig

# A straight path along x from (0, 0) to (300, 0), handles a third of the way to each
# neighbour (constant speed along the line), on bone "holder" at (10, 20).
STRAIGHT = [-50, 0, 0, 0, 50, 0, 100, 0, 150, 0, 200, 0, 250, 0, 300, 0, 350, 0]
LIFT = 12.0  # the deform key's offset in y of every vertex, holder's frame
RIG = {
    "skeleton": {"spine": "4.2.00"},
    "bones": [{"name": "root"},
              {"name": "holder", "parent": "root", "x": 10, "y": 20},
              {"name": "b0", "parent": "root", "length": 30, "x": -40}],
    "slots": [{"name": "track", "bone": "holder", "attachment": "p"}],
    "skins": [{"name": "default", "attachments": {"track": {"p": {
        "type": "path", "vertexCount": 9, "vertices": STRAIGHT, "lengths": [100, 150, 300]}}}}],
    "path": [{"name": "pc", "bones": ["b0"], "target": "track", "positionMode": "fixed", "position": 40,
              "rotateMode": "tangent"}],
    "animations": {"go": {"attachments": {"default": {"track": {"p": {"deform": [
        {"time": 0}, {"time": 1, "vertices": [0, LIFT] * 9}]}}}}}},
}


def _weighted(angle: float) -> dict:
    """RIG with the path weighted wholly to the holder (turned ``angle`` degrees), and
    the deform key offsetting each influence by (0, LIFT) in the holder's frame."""
    doc = copy.deepcopy(RIG)
    doc["bones"][1]["rotation"] = angle
    verts = []
    for i in range(9):
        verts += [1, 1, STRAIGHT[2 * i], STRAIGHT[2 * i + 1], 1.0]  # one influence: bone 1 (holder)
    doc["skins"][0]["attachments"]["track"]["p"]["vertices"] = verts
    return doc


def _import(tmp_path, doc=RIG):
    out = tmp_path / "out" / "rig.rigproj"
    out.parent.mkdir(exist_ok=True)
    src = write_rig(tmp_path / "src", doc, stem="rig", atlas=False, page=False)
    return import_spine(src, out, force=True)


def _b0(bake):
    w = bake.bone_bakes[bake.bones.index("b0")].world
    return np.stack([np.broadcast_to(w.tx, bake.frames.shape), np.broadcast_to(w.ty, bake.frames.shape)], axis=1)


def test_a_deformed_unweighted_path_carries_its_bones_with_it(tmp_path):
    result = _import(tmp_path)
    assert not any("deform" in w for w in result.warnings)  # imported, not dropped
    bake = evaluate(result.project)
    t = bake.frames / result.project.timeline.fps  # the key runs linearly over a second
    # 40 along the line from the holder's origin, the line lifted LIFT * t
    assert _b0(bake) == pytest.approx(np.stack([np.full_like(t, 50.0), 20 + LIFT * t], axis=1), abs=1e-9)


def test_a_weighted_paths_offsets_turn_with_their_bone(tmp_path):
    # Holder turned 90 degrees: the line runs up from (10, 20), and an offset (0, LIFT) in
    # the holder's frame is (-LIFT, 0) in the world (its linear part times the offset).
    bake = evaluate(_import(tmp_path, _weighted(90.0)).project)
    t = bake.frames / 30.0
    assert _b0(bake) == pytest.approx(np.stack([10 - LIFT * t, np.full_like(t, 60.0)], axis=1), abs=1e-9)


def test_the_scene_draws_the_deformed_path(tmp_path):
    project = _import(tmp_path).project
    bake = evaluate(project)
    row = int(np.argmax(bake.frames == 15))  # halfway through the key
    (slot, points), = path_curves(project, bake, row)
    assert slot == "track"
    assert points[:, 1] == pytest.approx(20 + LIFT / 2, abs=1e-9)  # the whole line lifted by half


def test_the_path_deform_survives_save_and_spine_export(tmp_path):
    from rigeditor.io.spine.write import spine_document

    project = _import(tmp_path, _weighted(90.0)).project
    bake = evaluate(project)
    again = loads_project(dumps_project(project))
    assert _b0(evaluate(again)) == pytest.approx(_b0(bake), abs=1e-12)
    doc = spine_document(project, bake, animation="go")
    keys = doc["animations"]["go"]["attachments"]["default"]["track"]["p"]["deform"]
    assert keys[-1]["vertices"] == pytest.approx([0, LIFT] * 9)  # one influence a vertex, Spine's order
    back_dir = tmp_path / "back"
    back_dir.mkdir()
    back = _import(back_dir, doc).project
    assert _b0(evaluate(back)) == pytest.approx(_b0(bake), abs=1e-6)


SQUARE = [0, 0, 20, 0, 20, 10, 0, 10]


def _box(kind: str, weighted: bool) -> dict:
    """RIG with a box (or clipping polygon) on the holder (turned 90 degrees), keyed to
    rise (0, LIFT) in the holder's frame over the first second."""
    doc = copy.deepcopy(RIG)
    doc["bones"][1]["rotation"] = 90
    box = {"type": kind, "vertexCount": 4, "vertices": SQUARE}
    if kind == "clipping":
        box["end"] = "track"
    if weighted:
        box["vertices"] = [x for i in range(4) for x in (1, 1, SQUARE[2 * i], SQUARE[2 * i + 1], 1.0)]
    doc["slots"].insert(0, {"name": "hit", "bone": "holder" if not weighted else "root", "attachment": "b"})
    doc["skins"][0]["attachments"]["hit"] = {"b": box}
    doc["animations"]["go"]["attachments"]["default"]["hit"] = {"b": {"deform": [
        {"time": 0}, {"time": 1, "vertices": [0, LIFT] * 4}]}}
    return doc


def _polygon(bake, project):
    col = [s.name for s in project.art.slots].index("hit")
    pose = bake.art.shape(col, 0)
    return np.stack([pose.vertices(i) for i in range(len(bake.frames))])


@pytest.mark.parametrize("kind", ["boundingbox", "clipping"])
@pytest.mark.parametrize("weighted", [False, True])
def test_a_keyed_box_or_clipping_polygon_moves_its_vertices_in_its_bones_frame(tmp_path, kind, weighted):
    result = _import(tmp_path, _box(kind, weighted))
    assert not any("deform" in w for w in result.warnings)
    bake = evaluate(result.project)
    t = bake.frames / 30.0
    square = np.array(SQUARE, float).reshape(-1, 2)
    # the holder at (10, 20) turned 90 degrees: local (x, y) -> (10 - y, 20 + x); the
    # offset (0, LIFT t) in its frame moves each vertex by (-LIFT t, 0)
    setup = np.stack([10 - square[:, 1], 20 + square[:, 0]], axis=1)
    expect = setup[None] + np.stack([-LIFT * t, 0 * t], axis=1)[:, None]
    assert _polygon(bake, result.project) == pytest.approx(expect, abs=1e-9)


def test_a_keyed_box_survives_spine_export(tmp_path):
    from rigeditor.io.spine.write import spine_document

    project = _import(tmp_path, _box("boundingbox", True)).project
    bake = evaluate(project)
    doc = spine_document(project, bake, animation="go")
    keys = doc["animations"]["go"]["attachments"]["default"]["hit"]["b"]["deform"]
    assert keys[-1]["vertices"] == pytest.approx([0, LIFT] * 4)
    back_dir = tmp_path / "back"
    back_dir.mkdir()
    back = _import(back_dir, doc).project
    assert _polygon(evaluate(back), back) == pytest.approx(_polygon(bake, project), abs=1e-6)


def test_a_path_deform_of_the_wrong_shape_is_refused_naming_where(tmp_path):
    import json

    from rigeditor.io.project_file import ProjectFileError

    saved = json.loads(dumps_project(_import(tmp_path).project))
    saved["deforms"][0]["keys"][1]["offsets"] = saved["deforms"][0]["keys"][1]["offsets"][:8]  # 8 of 9 vertices
    with pytest.raises(ProjectFileError) as err:
        loads_project(json.dumps(saved))
    assert "deforms[0].keys[1].offsets: the mesh needs 9 vertices x 1 influence(s) x 2, got 8 x 1 x 2" in str(err.value)
