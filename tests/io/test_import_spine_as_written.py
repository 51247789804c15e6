"""What Spine's editor writes imports: hull edges in any order (with interior edges),
a sequence's frame suffix on its region name, tiny negative weights. Each case was
refused or crashed the export before; the expected numbers are worked out by hand."""
from __future__ import annotations

import copy
import json
import math

import numpy as np
import pytest

from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.io.spine.skeleton import SpineError
from rigeditor.io.spine.write import spine_document
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import LEG, pictures, write_rig

QUAD = [0, -10, 30, -10, 30, 10, 0, 10]  # x, y in the thigh's frame, counter-clockwise


def _rig(tmp_path, attachment, slot="patch", bone="thigh"):
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["mix"] = 0
    doc["slots"].append({"name": slot, "bone": bone, "attachment": slot})
    doc["skins"][0]["attachments"][slot] = {slot: attachment}
    return doc


def _imported(tmp_path, doc):
    src = write_rig(tmp_path / "src", doc)
    out = tmp_path / "leg.rigproj"
    result = import_spine(src, out)
    return result, load_project(out)


@pytest.mark.parametrize("edges", [
    [0, 2, 4, 2, 4, 6, 6, 0],  # as Spine writes them: segments in either direction
    [4, 6, 0, 2, 6, 0, 2, 4, 0, 4],  # out of order, with the interior diagonal 0-2
])
def test_hull_edges_in_any_order_give_the_hull_spine_declares(tmp_path, edges):
    mesh = {"type": "mesh", "path": "thigh", "uvs": [0, 1, 1, 1, 1, 0, 0, 0], "triangles": [0, 1, 2, 2, 3, 0],
            "hull": 4, "edges": edges, "vertices": QUAD}
    _, project = _imported(tmp_path, _rig(tmp_path, mesh))
    patch = project.art.slot("patch").attachments[0]
    assert patch.hull_count() == 4
    # The outline is the loop of the first `hull` vertices; an interior edge is no outline.
    assert {frozenset(e) for e in patch.edges.tolist()} == {frozenset((i, (i + 1) % 4)) for i in range(4)}
    # The Spine export (which crashed with KeyError) writes the hull back.
    doc = spine_document(project, evaluate(project))
    written = doc["skins"][0]["attachments"]["patch"]["patch"]
    assert written["hull"] == 4
    assert {frozenset(written["edges"][k:k + 2]) for k in range(0, 8, 2)} == {
        frozenset((2 * i, 2 * ((i + 1) % 4))) for i in range(4)}


def test_a_hull_count_survives_edges_saved_out_of_order():
    from rigeditor.model.data.mesh_attachment import MeshAttachment

    m = MeshAttachment("m", "m.png", 10.0, 10.0, vertices=np.reshape(QUAD, (-1, 2)), uvs=np.zeros((4, 2)),
                       triangles=[[0, 1, 2], [2, 3, 0]], edges=[[0, 1], [2, 1], [2, 3], [3, 0]])
    assert m.hull_count() == 4


_THIGH_AS = "{}\nbounds:5,3,15,52\noffsets:0,0,18,54\nrotate:90\n"  # the thigh's picture, another name


def test_a_sequence_shows_its_setup_frame_by_the_frame_suffix(tmp_path):
    doc = _rig(tmp_path, {"path": "thigh", "width": 18, "height": 54,
                          "sequence": {"count": 3, "start": 1, "digits": 2, "setup": 1}})
    src = write_rig(tmp_path / "src", doc)
    atlas = src.with_suffix(".atlas")
    # The page's "thigh" picture is also every frame (01..03) of the sequence; 02 is the
    # setup frame (start 1 + setup 1). Spine's atlas loader needs every frame's region.
    atlas.write_text(atlas.read_text() + "".join(_THIGH_AS.format(f"thigh0{i}") for i in (1, 2, 3)))
    out = tmp_path / "leg.rigproj"
    result = import_spine(src, out)
    project = load_project(out)
    frame = project.art.slot("patch").attachments[0]
    from rigeditor.io.art.images import read_rgba

    shown = read_rgba(out.parent / frame.path)
    assert np.array_equal(shown, pictures()["thigh"])
    assert not any("sequence" in line for line in result.warnings)  # every frame imported
    assert frame.sequence.count == 3 and frame.path == frame.sequence.paths[1]


def test_a_sequence_without_digits_or_start_counts_from_one(tmp_path):
    doc = _rig(tmp_path, {"path": "thigh", "width": 18, "height": 54, "sequence": {"count": 12}})
    src = write_rig(tmp_path / "src", doc)
    atlas = src.with_suffix(".atlas")
    atlas.write_text(atlas.read_text() + "".join(_THIGH_AS.format(f"thigh{i}") for i in range(1, 13)))
    import_spine(src, tmp_path / "leg.rigproj")  # regions "thigh1".."thigh12": start 1, setup 0, no padding
    seq = load_project(tmp_path / "leg.rigproj").art.slot("patch").attachments[0].sequence
    assert seq.count == 12 and (seq.start, seq.digits, seq.setup) == (1, 0, 0)


def _thigh_frame():
    """Spine's setup world frame of the thigh (origin, rotation matrix)."""
    r = math.radians(-80)
    return np.array([10.0, 100.0]), np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])


def test_a_tiny_negative_weight_is_kept_and_the_vertex_moves_as_spine_moves_it(tmp_path):
    # Vertex 0 hangs on thigh (bone 2) and shin (bone 3) with weights 1.00135 and
    # -0.00135, as Spine's editor writes them; the others on the thigh alone.
    origin, r = _thigh_frame()
    shin_origin = origin + r @ [50.0, 3.0]
    rs = _rot(-70)
    local = np.reshape(QUAD, (-1, 2))
    world = origin + local @ r.T
    s0 = rs.T @ (world[0] - shin_origin)  # the same point in the shin's frame
    flat = [2, 2, *local[0].tolist(), 1.00135, 3, *s0.tolist(), -0.00135]
    for p in local[1:]:
        flat += [1, 2, *p.tolist(), 1.0]
    mesh = {"type": "mesh", "path": "thigh", "uvs": [0, 1, 1, 1, 1, 0, 0, 0], "triangles": [0, 1, 2, 2, 3, 0],
            "hull": 4, "vertices": flat}
    doc = _rig(tmp_path, mesh)
    doc["animations"] = {"bend": {"bones": {"shin": {"rotate": [{"value": 0}, {"time": 0.4, "value": -60}]}}}}
    _, project = _imported(tmp_path, doc)
    patch = project.art.slot("patch").attachments[0]
    assert np.allclose(patch.weights.sum(axis=1), 1.0)
    bake = evaluate(project, [0.0, 12.0])
    shown = next(m for m in bake.art.meshes if m.slot == "patch")
    # Spine's weighted sum, with the shin turned -60 degrees more at 0.4 s (frame 12):
    # the negative weight pushes vertex 0 away from the shin's point by 0.00135 of its motion.
    for i, turn in ((0, 0.0), (1, -60.0)):
        shin_at = shin_origin + _rot(-70 + turn) @ s0
        expected = world.copy()
        expected[0] = 1.00135 * world[0] - 0.00135 * shin_at
        assert np.allclose(shown.vertices(i), expected, atol=1e-9)


def _rot(deg):
    r = math.radians(deg)
    return np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])


def test_a_clearly_negative_weight_is_still_refused_naming_the_vertex(tmp_path):
    local = np.reshape(QUAD, (-1, 2))
    flat = [2, 2, *local[0].tolist(), 1.5, 3, *local[0].tolist(), -0.5]
    for p in local[1:]:
        flat += [1, 2, *p.tolist(), 1.0]
    mesh = {"type": "mesh", "path": "thigh", "uvs": [0, 1, 1, 1, 1, 0, 0, 0], "triangles": [0, 1, 2, 2, 3, 0],
            "hull": 4, "vertices": flat}
    with pytest.raises(SpineError, match=r"patch\.patch\.vertices\[0:9\].*-0\.5"):
        _imported(tmp_path, _rig(tmp_path, mesh))


def test_scale_keys_to_zero_above_an_ik_chain_import_and_collapse_it_as_spine_does(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["animations"]["walk"]["bones"]["hip"] = {"scale": [{"x": 1, "y": 1}, {"time": 0.2, "x": 0, "y": 0}]}
    result, project = _imported(tmp_path, doc)
    bake = evaluate(project, [0.0, 6.0])
    # At 0.2 s (frame 6) the hip's frame is a point: every bone below it sits on the
    # hip's origin (10, 100), as in Spine; at 0 the leg reaches its target.
    np.testing.assert_allclose(bake.tip_world[1], np.tile([10.0, 100.0], (len(project.bones), 1)), atol=1e-9)
    np.testing.assert_allclose(bake.chains["leg"].end_world[0], [15.0, 20.0], atol=1e-9)


@pytest.mark.parametrize("sequence, says", [
    ({"start": 1}, "sequence.count: must be a whole number in 1..100000, got None"),
    ({"count": 3, "digits": 1.5}, "sequence.digits: must be a whole number in 0..9, got 1.5"),
    ({"count": 3, "setup": 3}, "sequence.setup: must be a frame below count 3, got 3"),
])
def test_a_sequence_that_names_no_frame_is_refused_where_it_is(tmp_path, sequence, says):
    doc = _rig(tmp_path, {"path": "thigh", "width": 18, "height": 54, "sequence": sequence})
    with pytest.raises(SpineError) as err:
        _imported(tmp_path, doc)
    assert err.value.problems == [f"skins[0].attachments.patch.patch.{says}"]



def test_a_rig_using_what_the_import_does_not_take_yet_imports_with_one_warning_per_kind():
    from rigeditor.io.spine.read import spine_project
    from rigeditor.io.spine.skeleton import parse_spine
    from tests.io.test_import_spine_fuzz import _Pages

    doc = copy.deepcopy(LEG)
    doc["slots"] += [{"name": "fx", "bone": "thigh", "blend": "additive", "dark": "000000"},
                     {"name": "clip", "bone": "hip", "attachment": "clip"}, {"name": "box", "bone": "hip", "attachment": "box"},
                     {"name": "pt", "bone": "hip", "attachment": "pt"}, {"name": "pth", "bone": "hip"}]
    A = doc["skins"][0]["attachments"]
    A["clip"] = {"clip": {"type": "clipping", "end": "shin", "vertexCount": 3, "vertices": [0, 0, 10, 0, 0, 10]}}
    A["box"] = {"box": {"type": "boundingbox", "vertexCount": 3, "vertices": [0, 0, 10, 0, 0, 10]}}
    A["pt"] = {"pt": {"type": "point", "x": 3, "y": 4, "rotation": 10}}
    A["pth"] = {"pth": {"type": "path", "vertexCount": 3, "vertices": [0, 0, 10, 0, 0, 10], "lengths": [10]}}
    doc["ik"][0]["skin"] = True  # (and no skin lists it)
    doc["skins"].append({"name": "red", "bones": ["hip"], "attachments": {"thigh": {"thigh": {"width": 5, "height": 5}}}})
    doc["events"] = {"step": {"int": 1, "audio": "step.wav"}}
    doc["transform"] = [{"name": "tc", "bones": ["shin"], "target": "hip"}]
    w = doc["animations"]["walk"]
    w["slots"] = {"thigh": {"rgba": [{"color": "ff0000ff"}], "rgb2": [{"light": "ff0000", "dark": "000000"}]}}
    w["events"] = [{"time": 0.1, "name": "step"}]
    w["attachments"] = {"default": {"shin": {"shin": {"deform": [{"time": 0, "vertices": [1, 2]}], "sequence": [{"mode": "loop"}]}}}}
    w["transform"] = {"tc": [{"mixRotate": 0.5}]}
    result = spine_project(parse_spine(json.dumps(doc)), _Pages())
    evaluate(result.project)
    kinds = ["skin constraints no skin brings",  # skin bones and constraints, slot colour, dark colour, blend, events, boxes, clipping, deform, sequences are imported
             "path attachments"]  # transform constraints and their timelines are imported
    for kind in kinds:
        assert sum(line.startswith(kind) for line in result.warnings) == 1, (kind, result.warnings)
    assert len(result.warnings) == len(set(result.warnings))
    # Boxes, clipping polygons and points are imported (tests/io/test_spine_shapes.py), not listed.
    assert [result.project.art.slot(n).attachments[0].kind for n in ("clip", "box", "pt")] == \
        ["clipping", "box", "point"]
    assert not any(k in line for line in result.warnings for k in ("clipping", "boundingbox", "point attach"))
