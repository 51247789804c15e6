"""CCD out of the poses where its joint-by-joint sweep crawls, and no frame of CCD or FABRIK
ending farther than a pose it reached (rigeditor.core.chains).

A target is made reachable by construction: it is the end of a witness pose, summed
bone by bone here, so no test trusts the solver's own idea of its reach. Residuals are
recomputed from the returned angles the same way.
"""

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rigeditor.core import chains
from rigeditor.core.chains import solve_ccd, solve_fabrik

finite = dict(allow_nan=False, allow_infinity=False)
FOLD = [0.5625, 0.5625, 1.0]  # the first two bones fold back onto the root exactly


def end_of(lengths, angles, root=(0.0, 0.0)):
    x, y, heading = float(root[0]), float(root[1]), 0.0
    for length, local in zip(lengths, angles):
        heading += local
        x += length * math.cos(heading)
        y += length * math.sin(heading)
    return x, y


def miss(lengths, angles, target, root=(0.0, 0.0)):
    x, y = end_of(lengths, angles, root)
    return math.hypot(x - target[0], y - target[1])


def python_loop(monkeypatch):
    monkeypatch.setattr(chains, "compiled_loop", lambda wait=False: None)


@pytest.mark.parametrize("loop", ["python", "compiled"])
@pytest.mark.parametrize("target", [(1.0, 0.0), (-1.0, 0.0)])
def test_the_folded_chain_reaches_a_target_at_its_last_bones_length(monkeypatch, loop, target):
    # Reachable: folding bone 1 back onto the root leaves bone 2 from the root, length 1.
    assert miss(FOLD, [math.atan2(target[1], target[0]), math.pi, math.pi], target) < 1e-12
    if loop == "python":
        python_loop(monkeypatch)
    else:
        assert chains.compiled_loop(wait=True) is not None
    # Started from (0, 1, 0) CCD used to fold the chain onto itself, every joint at its
    # own best angle, and crawl: 7.8e-5 (target +x) and 2.8e-4 (-x) off after 5,000 sweeps.
    sol = solve_ccd(FOLD, [0, 0], target, initial=[0.0, 1.0, 0.0], tolerance=1e-9, max_iterations=64)
    assert sol.converged and sol.iterations < 64
    assert miss(FOLD, sol.angles, target) <= 1e-9


@st.composite
def reachable(draw):
    """Bone lengths, a target at the end of a witness pose (folded, nearly straight or
    any), and a start pose that has nothing to do with the witness."""
    bones = draw(st.integers(2, 8))
    lengths = draw(st.lists(st.floats(0.2, 3.0, **finite), min_size=bones, max_size=bones))
    kind = draw(st.sampled_from(["any", "folded", "straight"]))
    span = {"any": math.pi, "folded": 0.3, "straight": 0.3}[kind]
    witness = [draw(st.floats(-math.pi, math.pi, **finite))]
    for _ in range(bones - 1):
        local = draw(st.floats(-span, span, **finite))
        if kind == "folded" and draw(st.booleans()):
            local += math.pi  # this bone turned back onto its parent
        witness.append(local)
    root = (draw(st.floats(-5, 5, **finite)), draw(st.floats(-5, 5, **finite)))
    target = end_of(lengths, witness, root)
    initial = [draw(st.floats(-math.pi, math.pi, **finite)) for _ in range(bones)]
    return lengths, root, target, initial


@settings(max_examples=150, deadline=None)
@given(problem=reachable())
def test_ccd_reaches_every_reachable_target_within_its_budget(problem):
    lengths, root, target, initial = problem
    total = math.fsum(lengths)
    # Within a thousandth of full reach CCD still slows down (a known limit, documented).
    assume(math.hypot(target[0] - root[0], target[1] - root[1]) <= total * (1 - 1e-3))
    tol = 1e-5 * total
    sol = solve_ccd(lengths, root, target, initial=initial, tolerance=tol, max_iterations=200)
    assert miss(lengths, sol.angles, target, root) <= tol
    assert sol.converged


def misses_by_budget(solve, lengths, root, target, initial, limits, budgets=range(1, 25)):
    """The miss of one frame solved with each budget in turn, by forward kinematics here."""
    tol = 1e-9 * math.fsum(lengths)
    return [miss(lengths, solve(lengths, root, target, initial=initial, limits=limits, tolerance=tol,
                                max_iterations=budget).angles, target, root) for budget in budgets]


def assert_never_farther(misses):
    # A budget of n+1 continues the n-iteration solve and keeps the nearest pose: the
    # miss never grows (beyond rounding, a few 1e-16 of the chain's scale).
    assert all(b <= a + 1e-12 for a, b in zip(misses, misses[1:])), misses


def drawn_limits(lengths, limited, data):
    if not limited:
        return None
    low = [data.draw(st.floats(-2.5, 0.3, **finite)) for _ in lengths]
    return [(lo, lo + data.draw(st.floats(0.5, 3.0, **finite))) for lo in low]


@settings(max_examples=40, deadline=None)
@given(problem=reachable(), limited=st.booleans(), data=st.data())
def test_no_iteration_moves_the_end_away_from_the_target(problem, limited, data):
    lengths, root, target, initial = problem
    assert_never_farther(misses_by_budget(solve_ccd, lengths, root, target, initial,
                                          drawn_limits(lengths, limited, data)))


@settings(max_examples=40, deadline=None)
@given(problem=reachable(), limited=st.booleans(), data=st.data())
def test_no_fabrik_iteration_moves_the_end_away_from_the_target(problem, limited, data):
    lengths, root, target, initial = problem
    assert_never_farther(misses_by_budget(solve_fabrik, lengths, root, target, initial,
                                          drawn_limits(lengths, limited, data)))


def use_loop(monkeypatch, loop):
    if loop == "python":
        python_loop(monkeypatch)
    else:
        assert chains.compiled_loop(wait=True) is not None


# A draw the CCD property once failed on: the sweeps stall with the chain straight along
# the target's line (joint 1 at its bound 0), and the restart as an even arc, clamped
# into the limits, lands farther than the stalled pose: 0.245, 0.245, then 0.495 with
# the budget ending right after the restart, 0.183 once a sweep follows it.
LINE_STALL = dict(lengths=[1.0, 1.0], root=(0.0, 0.0), target=end_of([1.0, 1.0], [0.0, 1.0]),
                  initial=[1.0, 0.0], limits=[(0.0, 1.0), (0.0, 0.5)])


@pytest.mark.parametrize("loop", ["python", "compiled"])
def test_a_restart_that_lands_farther_never_ends_the_frame(monkeypatch, loop):
    use_loop(monkeypatch, loop)
    misses = misses_by_budget(solve_ccd, **LINE_STALL)
    assert_never_farther(misses)
    straight = miss([1.0, 1.0], [0.5, 0.0], LINE_STALL["target"])  # the stalled pose: along the line
    assert misses[0] == pytest.approx(straight, abs=1e-9)
    assert misses[-1] < straight - 0.05  # the restart still pays off once swept


@pytest.mark.parametrize("loop", ["python", "compiled"])
@pytest.mark.parametrize("budget", [3, 4])
def test_the_next_frame_starts_from_the_pose_the_frame_returned(monkeypatch, loop, budget):
    use_loop(monkeypatch, loop)
    case = dict(LINE_STALL)
    second = end_of(case["lengths"], [0.2, 0.4])
    both = solve_ccd(case["lengths"], case["root"], [case["target"], second], initial=case["initial"],
                     limits=case["limits"], tolerance=1e-9, max_iterations=budget)
    first = solve_ccd(case["lengths"], case["root"], case["target"], initial=case["initial"],
                      limits=case["limits"], tolerance=1e-9, max_iterations=budget)
    then = solve_ccd(case["lengths"], case["root"], second, initial=first.angles, limits=case["limits"],
                     tolerance=1e-9, max_iterations=budget)
    np.testing.assert_allclose(both.angles, [first.angles, then.angles], rtol=0, atol=1e-12)


# FABRIK's per-joint constraint step can take the end farther with every iteration: from
# the straight start, 0.495 off, the first iteration ended 1.66 off and the next 2.17.
LIMITED_FABRIK = dict(lengths=[1.0, 1.0, 1.0], root=(0.0, 0.0), target=end_of([1.0] * 3, [0.0, 0.0, -0.5]),
                      initial=[0.0, 0.0, 0.0], limits=[(0.0, 1.0)] * 3)


@pytest.mark.parametrize("loop", ["python", "compiled"])
def test_a_limited_fabrik_frame_never_ends_farther_than_it_started(monkeypatch, loop):
    use_loop(monkeypatch, loop)
    misses = misses_by_budget(solve_fabrik, **LIMITED_FABRIK)
    assert_never_farther(misses)
    start = miss(LIMITED_FABRIK["lengths"], LIMITED_FABRIK["initial"], LIMITED_FABRIK["target"])
    assert start == pytest.approx(math.hypot(3 - (2 + math.cos(0.5)), math.sin(0.5)))
    assert max(misses) <= start + 1e-12


def test_both_loops_escape_the_fold_alike(monkeypatch):
    targets = [(1.0, 0.0), (-1.0, 0.0), (0.99, 0.05), (-0.2, 0.97)]  # a path near the fold
    assert chains.compiled_loop(wait=True) is not None
    fast = solve_ccd(FOLD, [0, 0], targets, initial=[0.0, 1.0, 0.0], tolerance=1e-9, max_iterations=200)
    python_loop(monkeypatch)
    slow = solve_ccd(FOLD, [0, 0], targets, initial=[0.0, 1.0, 0.0], tolerance=1e-9, max_iterations=200)
    np.testing.assert_allclose(fast.angles, slow.angles, rtol=0, atol=1e-9)
    np.testing.assert_array_equal(fast.iterations, slow.iterations)
    assert fast.converged.all()
