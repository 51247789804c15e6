"""Binding limits through the one evaluation path: the arm still reaches as far as its
limits allow, the report says when the limits overrule the saved bend, and the check
that the pose agrees with the solver is a floating-point bound, not the user's tolerance."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from rigeditor.io.report import build_report
from rigeditor.model import CAUSES, evaluate
from rigeditor.examples.rigs import arm, tail

STEP = math.radians(0.25)


def _arm_with_forearm_limit(lo_deg, hi_deg):
    p = arm()
    chain = replace(p.chains[0], limits=(None, (math.radians(lo_deg), math.radians(hi_deg))))
    return replace(p, chains=(chain,))


def _grid_best(a, b, target, elbow_lo, elbow_hi):
    """Smallest miss over a grid of shoulder (free) and elbow (within limits) angles."""
    th = np.arange(-math.pi, math.pi, STEP)[:, None]
    e = np.append(np.arange(elbow_lo, elbow_hi, STEP), elbow_hi)[None, :]
    ex = a * np.cos(th) + b * np.cos(th + e)
    ey = a * np.sin(th) + b * np.sin(th + e)
    return np.hypot(ex - target[0], ey - target[1]).min()


def test_the_arm_with_its_forearm_limited_misses_by_the_optimum():
    # The bend (+1) wants a positive elbow; the limit allows only -100..-10 degrees.
    project = _arm_with_forearm_limit(-100, -10)
    cb = evaluate(project).chains["arm"]
    a, b = (project.bone(n).length for n in project.chains[0].bones)
    best = np.array([_grid_best(a, b, t, math.radians(-100), math.radians(-10))
                     for t in np.asarray(cb.target_shoulder)])
    residual = np.asarray(cb.residual)
    # Never worse than a grid pose; never better than the grid's resolution allows.
    assert np.all(residual <= best + 1e-9)
    assert np.all(best <= residual + (a + b) * STEP)
    # Before, the clamped elbow left the shoulder aimed for the other bend: 228 units off.
    assert residual.max() < 45.0
    report = build_report(evaluate(project), "arm")
    entry = report["chains"]["arm"]
    assert entry["bend_overridden_frames"] == [int(f) for f in np.asarray(evaluate(project).frames)]
    assert report["ok"]  # the other side is the limits' doing, not an unkeyed flip
    # "limit" is said only where a limit binds and the residual is more than rounding.
    cause = np.asarray(cb.cause)
    assert set(cause[residual > 1e-6].tolist()) == {CAUSES.index("limit")}


def test_a_limit_that_allows_the_saved_side_keeps_it_and_says_nothing():
    project = _arm_with_forearm_limit(10, 60)
    bake = evaluate(project)
    cb = bake.chains["arm"]
    assert not np.any(cb.bend_overridden)
    assert np.all(np.asarray(cb.side)[np.asarray(cb.limited)] >= 0)
    entry = build_report(bake, "arm")["chains"]["arm"]
    assert entry["bend_overridden_frames"] == []


def test_a_tight_tolerance_is_not_mistaken_for_a_bug():
    # With a convergence tolerance of 1e-15 the iterative solver stops on its budget
    # or at rounding; the final pose still agrees with the solver's own forward
    # kinematics to floating point, so no frame is "unexplained".
    project = tail()
    chain = replace(project.chains[0], tolerance=1e-15)
    project = replace(project, chains=(chain,))
    bake = evaluate(project)
    cb = bake.chains[chain.name]
    assert not np.any(np.asarray(cb.cause) == CAUSES.index("unexplained"))
    assert build_report(bake, "tail")["ok"]
    # What is not at rounding size is said to be the budget's or a limit's.
    named = np.asarray(cb.cause)[np.asarray(cb.residual) > 1e-10 * 200]
    assert set(named.tolist()) <= {CAUSES.index("budget"), CAUSES.index("limit")}
