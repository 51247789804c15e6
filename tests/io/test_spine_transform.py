"""Spine transform constraints: imported (setup and timelines), refused where Spine
would not read them, exported back; poses worked out by hand."""
from __future__ import annotations

import copy
import json
import math

import numpy as np
import pytest

from rigeditor.io.spine.read import import_spine
from rigeditor.io.spine.skeleton import SpineError
from rigeditor.io.spine.write import spine_document
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import write_rig

RIG = {
    "skeleton": {"spine": "4.2.00"},
    "bones": [{"name": "root"},
              {"name": "hip", "parent": "root", "length": 40, "x": 5, "y": 3, "rotation": 20},
              {"name": "arm", "parent": "hip", "length": 30, "x": 40, "rotation": -35},
              {"name": "lamp", "parent": "root", "length": 20, "x": -30, "y": 50, "rotation": 70}],
    "transform": [{"name": "tc", "order": 0, "bones": ["arm"], "target": "lamp", "mixX": 0.25,
                   "mixScaleX": 0.5, "rotation": 30, "x": 4, "shearY": -10, "local": True}],
    "animations": {"go": {"bones": {"lamp": {"rotate": [{"time": 0}, {"time": 1, "value": 90}]}}}},
}


def _import(tmp_path, doc=None):
    out = tmp_path / "out" / "rig.rigproj"
    out.parent.mkdir(exist_ok=True)
    src = write_rig(tmp_path / "src", RIG if doc is None else doc, stem="rig", atlas=False, page=False)
    return import_spine(src, out, force=True)


def world(bake, name):
    w = bake.bone_bakes[bake.bones.index(name)].world
    return np.array([np.broadcast_to(v, bake.frames.shape) for v in (w.a, w.b, w.c, w.d, w.tx, w.ty)]).T


def test_the_setup_comes_in_with_spines_defaults(tmp_path):
    result = _import(tmp_path)
    t = result.project.transform("tc")
    assert (t.bones, t.target, t.order, t.local, t.relative) == (("arm",), "lamp", 0, True, False)
    assert (t.mix_rotate.default, t.mix_x.default, t.mix_y.default) == ((1.0,), (0.25,), (0.25,))  # y follows x
    assert (t.mix_scale_x.default, t.mix_scale_y.default, t.mix_shear_y.default) == ((0.5,), (0.5,), (1.0,))
    assert (t.offset_rotation, t.offset_x, t.offset_shear_y) == pytest.approx((math.radians(30), 4.0,
                                                                                 math.radians(-10)))
    assert not any("transform" in w for w in result.warnings)


def test_a_world_constraint_with_full_mixes_puts_the_bone_on_its_target(tmp_path):
    doc = copy.deepcopy(RIG)
    doc["transform"][0] = {"name": "tc", "order": 0, "bones": ["arm"], "target": "lamp"}
    p = _import(tmp_path, doc).project
    bake = evaluate(p)
    assert world(bake, "arm") == pytest.approx(world(bake, "lamp"), abs=1e-9)
    # the lamp turns 90 degrees over the second: so does the arm
    a = world(bake, "arm")
    assert math.degrees(math.atan2(a[-1, 2], a[-1, 0])) == pytest.approx(70 + 90, abs=1e-9)


def test_keyed_mixes_play_as_spine_core_reads_them(tmp_path):
    doc = copy.deepcopy(RIG)
    doc["animations"]["go"]["transform"] = {"tc": [{"time": 0, "mixX": 0, "mixShearY": 0.2},
                                                   {"time": 1, "mixX": 1, "mixShearY": 0.9}]}
    p = _import(tmp_path, doc).project
    t = p.transform("tc")
    at = lambda ch, f: ch.sample(np.array([float(f)]))[0, 0]  # noqa: E731
    fps = p.timeline.fps
    assert [at(t.mix_x, f) for f in (0, fps / 2, fps)] == pytest.approx([0, 0.5, 1])
    assert at(t.mix_y, fps / 2) == pytest.approx(0.5)  # y follows x, key by key
    assert at(t.mix_rotate, fps / 2) == pytest.approx(1.0)  # a key without it: Spine's default, 1
    # spine-core 4.2's JSON reader keeps the first key's shear-y mix on every key
    assert [at(t.mix_shear_y, f) for f in (0, fps / 2, fps)] == pytest.approx([0.2, 0.2, 0.2])


@pytest.mark.parametrize("change, where", [
    (lambda c: c.update(bones=["ghost"]), "transform[0].bones[0]: unknown bone 'ghost'"),
    (lambda c: c.update(target="nobody"), "transform[0].target: unknown bone 'nobody'"),
    (lambda c: c.update(x="far"), "transform[0].x: must be a finite number, got 'far'"),
    (lambda c: c.update(mixRotate=True), "transform[0].mixRotate: must be a finite number, got True"),
])
def test_what_spine_would_not_read_is_refused_where_it_is(tmp_path, change, where):
    doc = copy.deepcopy(RIG)
    change(doc["transform"][0])
    with pytest.raises(SpineError) as err:
        _import(tmp_path, doc)
    assert where in str(err.value)
    assert not (tmp_path / "out" / "rig.rigproj").exists()


def test_a_constraint_spine_never_runs_is_left_out_with_a_warning(tmp_path):
    doc = copy.deepcopy(RIG)
    doc["transform"][0]["order"] = 3  # one constraint: Spine runs order 0 only
    result = _import(tmp_path, doc)
    assert result.project.transforms == ()
    assert sum("never runs" in w and "tc" in w for w in result.warnings) == 1
    free = copy.deepcopy(RIG)
    del free["transform"]
    bake, plain = evaluate(result.project), evaluate(_import(tmp_path, free).project)
    assert world(bake, "arm") == pytest.approx(world(plain, "arm"), abs=1e-12)


def test_the_export_writes_the_constraint_back(tmp_path):
    doc = copy.deepcopy(RIG)
    doc["animations"]["go"]["transform"] = {"tc": [{"time": 0, "mixX": 0}, {"time": 1, "mixX": 1}]}
    p = _import(tmp_path, doc).project
    bake = evaluate(p)
    out = spine_document(p, bake, animation="go")
    (entry,) = out["transform"]
    assert (entry["bones"], entry["target"], entry["local"], entry["order"]) == (["arm"], "lamp", True, 0)
    assert entry["rotation"] == pytest.approx(30) and entry["shearY"] == pytest.approx(-10)
    keys = out["animations"]["go"]["transform"]["tc"]
    assert [k["mixX"] for k in keys] == pytest.approx(list(bake.frames / bake.frames[-1]))
    # read back, it plays the same poses
    again = tmp_path / "again"
    again.mkdir()
    back = _import(again, out).project
    assert world(evaluate(back), "arm") == pytest.approx(world(bake, "arm"), abs=1e-6)


def test_the_order_among_ik_and_transform_constraints_is_kept_both_ways(tmp_path):
    doc = copy.deepcopy(RIG)
    doc["bones"] += [{"name": "hand", "parent": "arm", "length": 10, "x": 30},
                     {"name": "goal", "parent": "root", "x": 50, "y": 20}]
    doc["ik"] = [{"name": "reach", "order": 1, "bones": ["arm", "hand"], "target": "goal"}]
    doc["transform"][0].update(order=0, bones=["hip"], local=False)
    p = _import(tmp_path, doc).project
    assert (p.chain("reach").order, p.transform("tc").order) == (1, 0)
    out = spine_document(p, evaluate(p), animation="go")
    assert (out["ik"][0]["order"], out["transform"][0]["order"]) == (1, 0)
