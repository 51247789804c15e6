"""Spine deform timelines imported (4.2 ``attachments`` and 4.0 ``deform`` layouts),
played where Spine puts the vertices (forward kinematics by hand, the runtime's ten
straight pieces of a bezier), exported back and read again."""
from __future__ import annotations

import copy
import json
import math

import numpy as np
import pytest

from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.io.spine.skeleton import SpineError
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import LEG, write_rig
from tests.io.test_import_spine_meshes import _frames, _weighted

PATCH = [5, -4, 30, -6, 32, 7, 4, 5]  # x, y in the thigh's frame
WORLD = [(20, 70), (30, 50), (28, 30), (36, 75), (38, 62)]
INFLUENCES = [[(2, 1.0)], [(2, 0.5), (3, 0.5)], [(3, 1.0)], [(2, 0.7), (3, 0.3)], [(2, 0.25), (3, 0.75)]]
CURVE = [0.05, 0.3, 0.15, 0.9]  # seconds and mix, from key 0 (0 s) to key 1 (0.2 s)
RUN = [1.0, 2.0, -3.0, 0.5]  # offset 2: vertices 1 and 2 of the patch
LAST = [0.5, 0.5, -1, 0, 2, 2, 0, -4]
SLEEVE = np.random.default_rng(5).normal(size=16).round(3).tolist()  # 8 influences x (dx, dy)


def _doc(layout="4.2"):
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["mix"] = 0
    doc["slots"] += [{"name": "patch", "bone": "thigh", "attachment": "patch"},
                     {"name": "sleeve", "bone": "thigh", "attachment": "sleeve"}]
    doc["skins"][0]["attachments"]["patch"] = {"patch": {
        "type": "mesh", "path": "thigh", "uvs": [0, 1, 1, 1, 1, 0, 0, 0], "triangles": [0, 1, 2, 2, 3, 0],
        "hull": 4, "vertices": PATCH}}
    doc["skins"][0]["attachments"]["sleeve"] = {"sleeve": {
        "type": "mesh", "path": "shin", "uvs": [0, 1, 1, 1, 1, 0, 0, 0, 0.5, 0.5], "hull": 4,
        "triangles": [0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4], "vertices": _weighted(WORLD, INFLUENCES)}}
    patch = [{"offset": 2, "vertices": RUN, "curve": CURVE}, {"time": 0.2}, {"time": 0.4, "vertices": LAST}]
    sleeve = [{"time": 0.1}, {"time": 0.3, "vertices": SLEEVE}]
    anim = {"bones": {"thigh": {"rotate": [{"value": 0}, {"time": 0.4, "value": 25}]}}}
    if layout == "4.2":
        anim["attachments"] = {"default": {"patch": {"patch": {"deform": patch}},
                                           "sleeve": {"sleeve": {"deform": sleeve}}}}
    else:
        doc["skeleton"]["spine"] = "4.0.64"
        anim["deform"] = {"default": {"patch": {"patch": patch}, "sleeve": {"sleeve": sleeve}}}
    doc["animations"] = {"bend": anim}
    return doc


def _runtime_mix(t):
    """Spine's runtimes: the bezier as ten straight pieces (parameters 0, 0.1 .. 1)."""
    s = np.linspace(0, 1, 11)
    x = 3 * (1 - s) ** 2 * s * CURVE[0] + 3 * (1 - s) * s * s * CURVE[2] + s ** 3 * 0.2
    y = 3 * (1 - s) ** 2 * s * CURVE[1] + 3 * (1 - s) * s * s * CURVE[3] + s ** 3
    return float(np.interp(t, x, y))


def _patch_offsets(t):
    first = np.zeros(8)
    first[2:6] = RUN
    if t <= 0.2:
        return first * (1 - _runtime_mix(t))
    return (t - 0.2) / 0.2 * np.asarray(LAST, float) if t < 0.4 else np.asarray(LAST, float)


def _sleeve_offsets(t):
    return np.clip((t - 0.1) / 0.2, 0, 1) * np.asarray(SLEEVE)


def expected(i):
    """Both meshes' world vertices at frame i (30 fps), by hand."""
    t = i / 30.0
    frames = _frames(25.0 * min(t, 0.4) / 0.4)
    origin, r = frames[2]
    patch = origin + (np.reshape(PATCH, (-1, 2)) + _patch_offsets(t).reshape(-1, 2)) @ r.T
    setup = _frames(0.0)
    d = _sleeve_offsets(t).reshape(-1, 2)
    sleeve, j = [], 0
    for point, infl in zip(WORLD, INFLUENCES):
        v = np.zeros(2)
        for b, w in infl:
            local = setup[b][1].T @ (np.asarray(point) - setup[b][0]) + d[j]
            v += w * (frames[b][0] + frames[b][1] @ local)
            j += 1
        sleeve.append(v)
    return patch, np.array(sleeve)


@pytest.mark.parametrize("layout", ["4.2", "4.0"])
def test_deform_timelines_play_where_spine_puts_the_vertices(tmp_path, layout):
    src = write_rig(tmp_path / "src", _doc(layout))
    result = import_spine(src, tmp_path / "leg.rigproj")
    assert not any("deform" in w for w in result.warnings)
    project = load_project(tmp_path / "leg.rigproj")
    bake = evaluate(project)
    meshes = {m.slot: m for m in bake.art.meshes}
    for i in range(len(bake)):
        patch, sleeve = expected(i)
        np.testing.assert_allclose(meshes["patch"].vertices(i), patch, atol=1e-6, err_msg=f"frame {i}")
        np.testing.assert_allclose(meshes["sleeve"].vertices(i), sleeve, atol=1e-6, err_msg=f"frame {i}")


def test_deform_keys_export_and_import_back_the_same(tmp_path):
    from rigeditor.cli import main

    src = write_rig(tmp_path / "src", _doc())
    import_spine(src, tmp_path / "leg.rigproj")
    assert main(["bake", str(tmp_path / "leg.rigproj"), "-o", str(tmp_path / "out" / "leg.json"),
                 "--format", "spine"]) == 0
    written = json.loads((tmp_path / "out" / "leg.json").read_text())
    (anim,) = written["animations"].values()
    assert set(anim["attachments"]["default"]) == {"patch", "sleeve"}
    import_spine(tmp_path / "out" / "leg.json", tmp_path / "back.rigproj")
    a, b = load_project(tmp_path / "leg.rigproj"), load_project(tmp_path / "back.rigproj")
    ba, bb = evaluate(a), evaluate(b)
    for slot in ("patch", "sleeve"):
        ma = next(m for m in ba.art.meshes if m.slot == slot)
        mb = next(m for m in bb.art.meshes if m.slot == slot)
        for i in range(len(ba)):
            np.testing.assert_allclose(mb.vertices(i), ma.vertices(i), atol=1e-4)


def test_a_bad_deform_key_is_refused_with_where(tmp_path):
    doc = _doc()
    doc["animations"]["bend"]["attachments"]["default"]["patch"]["patch"]["deform"][2]["offset"] = 4
    with pytest.raises(SpineError, match=r"animations\.bend\.attachments\.default\.patch\.patch\.deform\[2\]"
                                         r"\.vertices: offset 4 \+ 8 numbers run past the mesh's 8"):
        import_spine(write_rig(tmp_path / "src", doc), tmp_path / "x.rigproj")
    assert not (tmp_path / "x.rigproj").exists()
