"""A two-bone chain whose first bone Spine scales unevenly (scale x != scale y, setup or
keyed) is imported with its keys and plays as Spine plays it: the end on the target
wherever the ellipse of its reach meets it, the child measured and placed on its
parent's axis on those frames. Expected values by hand: forward kinematics of the
scaled frames; the knee from the thigh's own world frame."""
from __future__ import annotations

import copy
from dataclasses import replace

import numpy as np

from rigeditor.io.project_file import load_project
from rigeditor.io.spine.read import import_spine
from rigeditor.model.data.project import LimitStrategy
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.model.validation.project import problems

from tests.io.spine_rigs import write_rig

HIP = np.array([10.0, 100.0])
LEG = {
    "skeleton": {"spine": "4.2.11", "fps": 30},
    "bones": [
        {"name": "root"},
        {"name": "hip", "parent": "root", "x": 10, "y": 100},
        {"name": "thigh", "parent": "hip", "length": 50, "rotation": -80},
        {"name": "shin", "parent": "thigh", "length": 45, "x": 50, "rotation": 10},
        {"name": "foot_target", "parent": "root", "x": 15, "y": 20},
    ],
    "ik": [{"name": "leg", "bones": ["thigh", "shin"], "target": "foot_target", "bendPositive": False}],
    "animations": {"walk": {"bones": {
        "foot_target": {"translate": [{"x": 0, "y": 0}, {"time": 0.5, "x": 0, "y": -80}, {"time": 1, "x": 60, "y": 40}]},
        "thigh": {"scale": [{"x": 1, "y": 1}, {"time": 1, "x": 1.3, "y": 0.8}]},
    }}},
}
FRAMES = np.arange(31, dtype=float)
T = FRAMES / 30


def _import(tmp_path, doc):
    out = tmp_path / "out" / "leg.rigproj"
    out.parent.mkdir()
    result = import_spine(write_rig(tmp_path / "src", doc, atlas=False, page=False), out)
    return result, load_project(out)


def _targets():
    return np.stack([15 + np.interp(T, [0, 0.5, 1], [0, 0, 60]), 20 + np.interp(T, [0, 0.5, 1], [0, -80, 40])], -1)


def _frame(bake, bone):
    w = bake.bone_world.take((slice(None), bake.column(bone)))
    return [np.broadcast_to(np.asarray(v, dtype=float), (len(bake),)) for v in w.fields()]


def _reachable(psx, psy, d, upper=50.0, lower=45.0):
    """Per frame, whether distance d lies within the ellipse's reach (brute force)."""
    t = np.linspace(-np.pi, np.pi, 20001)
    reach = np.hypot(psx[:, None] * (upper + lower * np.cos(t)), psy[:, None] * lower * np.sin(t))
    return (d > reach.min(axis=1) + 1e-3) & (d < reach.max(axis=1) - 1e-3)


def test_uneven_scale_keys_are_kept_and_the_end_lands_on_the_target(tmp_path):
    result, project = _import(tmp_path, LEG)
    assert not any("scale" in w for w in result.warnings)
    assert project.bone("thigh").scale.keys and problems(project) == []
    bake = evaluate(project, FRAMES)
    psx, psy = 1 + 0.3 * T, 1 - 0.2 * T
    target = _targets()
    inside = _reachable(psx, psy, np.hypot(*(target - HIP).T))
    assert inside.sum() > 10 and (~inside).sum() > 0
    a, b, c, d, tx, ty = _frame(bake, "thigh")
    np.testing.assert_allclose(np.hypot(a, c), psx, atol=1e-12)  # the thigh keeps its keyed scale
    np.testing.assert_allclose(np.hypot(b, d), psy, atol=1e-12)
    knee = np.stack([a * 50 + tx, c * 50 + ty], -1)  # the shin on the thigh's scaled axis
    np.testing.assert_allclose(bake.joint_world[:, bake.column("shin")], knee, atol=1e-9)
    sa, _, sc, _, stx, sty = _frame(bake, "shin")
    tip = np.stack([sa * 45 + stx, sc * 45 + sty], -1)
    np.testing.assert_allclose(tip[inside], target[inside], atol=1e-7)
    # Bent the asked way (bendPositive false): the knee right of hip -> target.
    v, k = target - HIP, knee - HIP
    assert np.all((v[:, 0] * k[:, 1] - v[:, 1] * k[:, 0])[inside] > 0)
    # The residual says what it is: zero where it lands, the miss elsewhere.
    residual = bake.chains["leg"].residual
    assert np.all(residual[inside] < 1e-6) and np.all(residual[~inside] > 1e-3)


def test_an_uneven_setup_scale_is_kept_and_solved(tmp_path):
    doc = copy.deepcopy(LEG)
    del doc["animations"]["walk"]["bones"]["thigh"]
    doc["bones"][2].update(scaleX=1.4, scaleY=0.6)
    result, project = _import(tmp_path, doc)
    assert not any("scale" in w for w in result.warnings)
    assert project.bone("thigh").scale.default == (1.4, 0.6)
    bake = evaluate(project, FRAMES)
    target = _targets()
    inside = _reachable(np.full(31, 1.4), np.full(31, 0.6), np.hypot(*(target - HIP).T))
    assert inside.sum() > 10
    sa, _, sc, _, stx, sty = _frame(bake, "shin")
    np.testing.assert_allclose(np.stack([sa * 45 + stx, sc * 45 + sty], -1)[inside], target[inside], atol=1e-7)


def test_a_child_off_the_axis_is_on_it_where_the_parent_scales_unevenly_only(tmp_path):
    doc = copy.deepcopy(LEG)
    doc["bones"][3]["y"] = 6
    doc["animations"]["walk"]["bones"]["thigh"]["scale"] = [{"x": 1, "y": 1}, {"time": 0.5, "x": 1, "y": 1},
                                                            {"time": 1, "x": 1.5, "y": 0.6}]
    result, project = _import(tmp_path, doc)
    assert not result.warnings
    assert project.bone("shin").rest_offset == (50.0, 6.0)  # kept: the even frames use it
    bake = evaluate(project, FRAMES)
    a, b, c, d, tx, ty = _frame(bake, "thigh")
    knee = bake.joint_world[:, bake.column("shin")]
    even = T <= 0.5 + 1e-9
    y = np.where(even, 6.0, 0.0)  # the shin's origin in the thigh's frame
    np.testing.assert_allclose(knee, np.stack([a * 50 + b * y + tx, c * 50 + d * y + ty], -1), atol=1e-9)
    sa, _, sc, _, stx, sty = _frame(bake, "shin")
    tip = np.stack([sa * 45 + stx, sc * 45 + sty], -1)
    target = _targets()
    psx, psy = np.where(even, 1.0, 1 + (T - 0.5)), np.where(even, 1.0, 1 - 0.8 * (T - 0.5))
    inside = _reachable(psx, psy, np.hypot(*(target - HIP).T)) & ~even
    assert inside.sum() > 5
    np.testing.assert_allclose(tip[inside], target[inside], atol=1e-7)
    # On the even frames the segment hip -> shin origin is hypot(50, 6) long, as before.
    reach = np.hypot(*(target - HIP).T) < np.hypot(50, 6) + 45 - 1e-3
    np.testing.assert_allclose(tip[even & reach], target[even & reach], atol=1e-7)


def test_an_uneven_first_bone_needs_spines_settings(tmp_path):
    _, project = _import(tmp_path, LEG)
    chain = project.chain("leg")
    for changes, words in (({"strategy": LimitStrategy("stretch")}, "scales unevenly"),
                           ({"limits": ((-1.0, 1.0), None)}, "scales unevenly"),
                           ({"soft_reach": "exponential"}, "softness must be Spine's")):
        bad = project.with_chain("leg", **changes)
        if "soft_reach" in changes:
            bad = bad.with_chain("leg", softness=replace(chain.softness, default=(0.1,)))
        assert any(words in p for p in problems(bad)), changes


def test_an_edit_that_evens_the_scale_puts_the_child_back_off_the_axis(tmp_path):
    from rigeditor.model.data.timeline import constant

    doc = copy.deepcopy(LEG)
    doc["bones"][3]["y"] = 6
    _, project = _import(tmp_path, doc)
    first = evaluate(project, FRAMES)
    even = project.with_bone("thigh", scale=constant(1.2, 1.2))
    partial = evaluate(even, FRAMES, previous=first, changed={"bone:thigh"})
    whole = evaluate(even, FRAMES)
    np.testing.assert_array_equal(partial.joint_world, whole.joint_world)
    a, b, c, d, tx, ty = _frame(whole, "thigh")  # the shin at (50, 6) in the thigh's frame again
    np.testing.assert_allclose(whole.joint_world[:, whole.column("shin")],
                               np.stack([a * 50 + b * 6 + tx, c * 50 + d * 6 + ty], -1), atol=1e-9)
