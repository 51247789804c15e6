"""Spine's IK softness is played as Spine plays it (the target drawn in quadratically
before the solve), set up or keyed only in an animation; worked out by hand."""
from __future__ import annotations

import copy
import json
import math

import numpy as np
import pytest

from rigeditor.io import dumps_project, loads_project
from rigeditor.io.spine.read import import_spine
from rigeditor.io.project_file import load_project
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import LEG, write_rig

HIP = np.array([10.0, 100.0])
LIMB = math.hypot(50, 3) + 45  # the thigh measured to the shin's origin, and the shin


def _import(tmp_path, ik_keys=None, setup_softness=0.0):
    doc = copy.deepcopy(LEG)
    doc["ik"][0]["softness"] = setup_softness
    if ik_keys is not None:
        doc["animations"]["walk"]["ik"] = {"leg": ik_keys}
    out = tmp_path / "out" / "leg.rigproj"
    out.parent.mkdir()
    result = import_spine(write_rig(tmp_path / "src", doc), out)
    return result, load_project(out)


def _expected_end(frames, softness):
    """Spine: with d the hip-target distance and s the softness, the target is drawn
    in to LIMB - s (1 - u)^2, u = min(1, (d - LIMB + s) / 2s), when d > LIMB - s."""
    dy = np.interp(frames, [0, 6, 12], [0, -70, 0])  # LEG's foot target keys
    target = np.stack([np.full_like(dy, 15.0), 20.0 + dy], axis=-1)
    v = target - HIP
    d = np.hypot(v[:, 0], v[:, 1])
    soft = (softness > 0) & (d > LIMB - softness)
    u = np.minimum((d - LIMB + softness) / (2 * np.where(soft, softness, 1.0)), 1.0)
    reach = np.where(soft, LIMB - softness * (1 - u) ** 2, np.minimum(d, LIMB))
    return HIP + v / d[:, None] * reach[:, None], d


@pytest.mark.parametrize("keys, softness", [
    (None, lambda f: np.full_like(f, 20.0)),  # set up
    ([{"softness": 0}, {"time": 0.4, "softness": 30}], lambda f: 30.0 * f / 12.0),  # keyed only here
    (None, lambda f: np.full_like(f, 70.0)),  # beyond half the chain (Spine's is any size)
    (None, lambda f: np.full_like(f, 150.0)),  # beyond the chain
    ([{"softness": 10}, {"time": 0.4, "softness": 130}], lambda f: 10.0 + 120.0 * f / 12.0),
])
def test_softness_draws_the_target_in_as_spine_does(tmp_path, keys, softness):
    setup = float(softness(np.zeros(1))[0]) if keys is None else 0.0
    result, project = _import(tmp_path, keys, setup)
    assert not any("softness" in w.lower() for w in result.warnings)  # nothing approximated to say
    frames = np.arange(13, dtype=float)
    s = softness(frames)
    bake = evaluate(project, frames)
    end = bake.tip_world[:, bake.column("shin")]
    expected, d = _expected_end(frames, s)
    soft = (s > 0) & (d > LIMB - s)
    assert soft.sum() >= 3  # the motion passes through the soft zone
    np.testing.assert_allclose(end, expected, atol=1e-6)
    # The report names the cause: soft reach inside [LIMB - s, LIMB], out of reach beyond.
    cause = bake.chains["leg"].cause
    from rigeditor.model.evaluation.bake import CAUSES
    names = [CAUSES[c] for c in cause]
    assert all(n in ("soft_reach", "out_of_reach") for n, x in zip(names, soft) if x)
    assert "unexplained" not in names


def test_a_chain_keeps_its_soft_reach_in_the_file_and_refuses_an_unknown_one(tmp_path):
    _, project = _import(tmp_path, setup_softness=20.0)
    text = dumps_project(project)
    assert json.loads(text)["chains"][0]["soft_reach"] == "quadratic"
    assert loads_project(text).chain("leg").soft_reach == "quadratic"
    doc = json.loads(text)
    doc["chains"][0]["soft_reach"] = "cubic"
    with pytest.raises(Exception) as err:
        loads_project(json.dumps(doc))
    assert "chains[0].soft_reach: must be one of exponential, quadratic" in str(err.value)
