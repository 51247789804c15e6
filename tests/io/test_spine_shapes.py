"""Bounding boxes, clipping polygons and points: imported from Spine, placed per frame
where spine-core places them (forward kinematics by hand), kept in the project file and
exported back as written."""
from __future__ import annotations

import copy
import math

import numpy as np
import pytest

from rigeditor.io.project_file import load_project, save_project
from rigeditor.io.spine.read import import_spine
from rigeditor.io.spine.skeleton import SpineError
from rigeditor.io.spine.write import spine_document
from rigeditor.model.data.project import CHARACTER
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import LEG, write_rig

HIP = np.array([10.0, 100.0])


def _rot(deg):
    r = math.radians(deg)
    return np.array([[math.cos(r), -math.sin(r)], [math.sin(r), math.cos(r)]])


def _frames(angle):
    """Spine's world frames (origin, rotation) by bone index with the thigh turned
    ``angle`` degrees past its setup -80: 0 root, 2 thigh, 3 shin."""
    return {0: (np.zeros(2), _rot(0)), 2: (HIP, _rot(-80 + angle)),
            3: (HIP + _rot(-80 + angle) @ [50.0, 3.0], _rot(-70 + angle))}


BOX = [0, -8, 40, -8, 40, 8, 0, 8]  # x, y in the thigh's frame
CLIP_WORLD = [(14, 40), (60, 40), (60, 120), (14, 120)]  # cuts the thigh picture lengthwise
CLIP_INFLUENCES = [[(2, 1.0)], [(2, 0.5), (3, 0.5)], [(3, 0.8), (0, 0.2)], [(0, 1.0)]]


def _weighted(world_points, influences):
    setup, flat = _frames(0.0), []
    for point, infl in zip(world_points, influences):
        flat.append(len(infl))
        for bone, weight in infl:
            origin, r = setup[bone]
            flat += [bone, *(r.T @ (np.asarray(point, float) - origin)).tolist(), weight]
    return flat


def shapes_doc():
    """LEG (IK off) with a box on the thigh, a weighted clipping polygon ending at the
    shin slot, and a point on the shin; the thigh turns 25 degrees in "bend"."""
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["mix"] = 0
    doc["slots"] = ([{"name": "clip", "bone": "root", "attachment": "mask"}] + doc["slots"]
                    + [{"name": "hitbox", "bone": "thigh", "attachment": "hit"},
                       {"name": "muzzle", "bone": "shin", "attachment": "tip"}])
    skin = doc["skins"][0]["attachments"]
    skin["clip"] = {"mask": {"type": "clipping", "end": "shin", "vertexCount": 4,
                             "vertices": _weighted(CLIP_WORLD, CLIP_INFLUENCES), "color": "ce3a3aff"}}
    skin["hitbox"] = {"hit": {"type": "boundingbox", "vertexCount": 4, "vertices": BOX, "color": "60f000ff"}}
    skin["muzzle"] = {"tip": {"type": "point", "x": 30, "y": 2, "rotation": 40, "color": "f1f100ff"}}
    doc["animations"] = {"bend": {"bones": {"thigh": {"rotate": [{"value": 0}, {"time": 0.4, "value": 25}]}}}}
    return doc


def _imported(tmp_path, doc=None):
    src = write_rig(tmp_path / "src", doc or shapes_doc())
    out = tmp_path / "leg.rigproj"
    result = import_spine(src, out)
    return result, load_project(out)


def test_shapes_import_without_warnings(tmp_path):
    result, project = _imported(tmp_path)
    assert not any("attachments" in w for w in result.warnings), result.warnings
    clip = project.art.slot("clip").attachments[0]
    assert (clip.kind, clip.end, clip.weighted) == ("clipping", "shin", True)
    assert set(clip.bones) == {"thigh", "shin", CHARACTER}
    assert project.art.slot("hitbox").attachments[0].kind == "box"
    assert project.art.slot("muzzle").attachments[0].kind == "point"


def test_shapes_are_placed_where_forward_kinematics_puts_them(tmp_path):
    _, project = _imported(tmp_path)
    bake = evaluate(project)
    art = bake.art
    for i in (0, 5, 12):
        frames, setup = _frames(25.0 * i / 12), _frames(0.0)
        origin, r = frames[2]
        box = art.shape(art.column("hitbox"), 0).vertices(i)
        assert np.allclose(box, origin + np.reshape(BOX, (-1, 2)) @ r.T, atol=1e-9)
        expected = [sum(w * (frames[b][0] + frames[b][1] @ (setup[b][1].T @ (np.asarray(p, float) - setup[b][0])))
                        for b, w in infl) for p, infl in zip(CLIP_WORLD, CLIP_INFLUENCES)]
        assert np.allclose(art.shape(art.column("clip"), 0).vertices(i), expected, atol=1e-9)
        point = art.shape(art.column("muzzle"), 0)
        so, sr = frames[3]
        assert np.allclose(point.vertices(i)[0], so + sr @ [30.0, 2.0], atol=1e-9)
        assert point.rotation(i) == pytest.approx(math.radians(-70 + 25.0 * i / 12 + 40))
    # At setup the weighted polygon stands where it was authored, in world.
    assert np.allclose(art.shape(art.column("clip"), 0).vertices(0), CLIP_WORLD, atol=1e-9)


def test_shapes_survive_the_project_file(tmp_path):
    _, project = _imported(tmp_path)
    save_project(project, tmp_path / "again.rigproj")
    assert load_project(tmp_path / "again.rigproj").art == project.art


def test_shapes_export_back_as_written(tmp_path):
    doc = shapes_doc()
    _, project = _imported(tmp_path, doc)
    out = spine_document(project, evaluate(project))
    skin = next(s for s in out["skins"] if s["name"] == "default")["attachments"]
    names = [b["name"] for b in out["bones"]]
    for slot, key in (("clip", "mask"), ("hitbox", "hit"), ("muzzle", "tip")):
        wrote, read = skin[slot][key], doc["skins"][0]["attachments"][slot][key]
        assert {k: v for k, v in wrote.items() if k != "vertices"} == \
            {k: v for k, v in read.items() if k != "vertices"}
    assert np.allclose(skin["hitbox"]["hit"]["vertices"], BOX)
    # Weighted: the same influences, bone indices renumbered to the exported bones.
    flat, i, got = skin["clip"]["mask"]["vertices"], 0, []
    for _ in range(4):
        n = flat[i]
        got.append(sorted((names[flat[i + 1 + 4 * k]], *flat[i + 2 + 4 * k:i + 5 + 4 * k]) for k in range(n)))
        i += 1 + 4 * n
    spine = [b["name"] for b in LEG["bones"]]
    want, i = [], 0
    src = doc["skins"][0]["attachments"]["clip"]["mask"]["vertices"]
    for _ in range(4):
        n = src[i]
        want.append(sorted((spine[src[i + 1 + 4 * k]], *src[i + 2 + 4 * k:i + 5 + 4 * k]) for k in range(n)))
        i += 1 + 4 * n
    root = out["bones"][0]["name"]
    for g, w in zip(got, want):
        assert [(b if b != root else "root") for b, *_ in g] == [b for b, *_ in w]
        assert np.allclose([v for _, *v in g], [v for _, *v in w], atol=1e-6)


@pytest.mark.parametrize("change, message", [
    (lambda a: a.update(vertexCount=2), "vertexCount"),
    (lambda a: a.update(vertices=[0, 0, 1, 1, 2]), "vertices"),
    (lambda a: a.update(end="nowhere"), "end"),
])
def test_bad_shapes_are_refused_naming_the_field(tmp_path, change, message):
    doc = shapes_doc()
    change(doc["skins"][0]["attachments"]["clip"]["mask"])
    with pytest.raises(SpineError) as err:
        _imported(tmp_path, doc)
    assert f"skins[0].attachments.clip.mask.{message}" in str(err.value)


def test_a_box_moves_with_its_placement_and_exports_where_it_shows(tmp_path):
    from rigeditor import edits

    _, project = _imported(tmp_path)
    moved = edits.set_placement(project, "hitbox", "hit", x=5.0, rotation=math.radians(90))
    origin, r = _frames(0.0)[2]
    local = np.reshape(BOX, (-1, 2)) @ _rot(90).T + [5.0, 0.0]  # turned a quarter, then 5 along the thigh
    bake = evaluate(moved, np.zeros(1))
    assert np.allclose(bake.art.shape(bake.art.column("hitbox"), 0).vertices(0), origin + local @ r.T, atol=1e-9)
    out = spine_document(moved, evaluate(moved))
    wrote = next(s for s in out["skins"] if s["name"] == "default")["attachments"]["hitbox"]["hit"]["vertices"]
    assert np.allclose(np.reshape(wrote, (-1, 2)), local, atol=1e-6)
    save_project(moved, tmp_path / "moved.rigproj")
    assert load_project(tmp_path / "moved.rigproj").art == moved.art


def test_renames_and_deletes_keep_shapes_pointing_at_what_they_name(tmp_path):
    from rigeditor import edits

    _, project = _imported(tmp_path)
    renamed = edits.rename(edits.rename(project, "slot", "shin", "calf"), "bone", "thigh", "femur")
    clip = renamed.art.slot("clip").attachments[0]
    assert clip.end == "calf" and "femur" in clip.bones and "thigh" not in clip.bones
    assert renamed.art == load_or_same(renamed, tmp_path)
    bake, before = evaluate(renamed, np.zeros(1)), evaluate(project, np.zeros(1))
    assert np.allclose(bake.art.shape(bake.art.column("clip"), 0).vertices(0),
                       before.art.shape(before.art.column("clip"), 0).vertices(0))
    gone = edits.delete(renamed, "slot", "calf")
    assert gone.art.slot("clip").attachments[0].end == ""  # clips to the end of the draw order, as Spine does


def load_or_same(project, folder):
    save_project(project, folder / "renamed.rigproj")  # valid: saved and read back
    return load_project(folder / "renamed.rigproj").art
