"""The compiled frame loop (rigeditor.core.chains_jit) against the Python one.

numba is a test dependency, so the compiled loop is loaded here (tests/conftest.py
waits for it); the Python loop is the fallback without numba and the reference: the
two must agree on every frame (the same arithmetic, so to the last bit on one C
library; asserted to 1e-9) and spend the same iterations.
"""
from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rigeditor.core import chains
from rigeditor.core.lazy_kernel import LazyKernel

finite = dict(allow_nan=False, allow_infinity=False)
SOLVERS = {"fabrik": chains.solve_fabrik, "ccd": chains.solve_ccd}


def solve_both(solve, *args, **kwargs):
    compiled = chains.compiled_loop(wait=True)
    assert compiled is not None, "numba is a test dependency: the compiled loop must load"
    with pytest.MonkeyPatch.context() as m:
        m.setattr(chains, "compiled_loop", lambda wait=False: None)
        python = solve(*args, **kwargs)
    return solve(*args, **kwargs), python


def assert_same(fast, slow):
    np.testing.assert_allclose(fast.angles, slow.angles, rtol=0, atol=1e-9)
    np.testing.assert_array_equal(fast.iterations, slow.iterations)
    np.testing.assert_allclose(fast.residual, slow.residual, rtol=0, atol=1e-9)


@st.composite
def problems(draw):
    """A chain, a warm start, limits or none, and a path of targets: inside reach, out
    of it, on the root, and collinear with a straight chain (the arc restart)."""
    bones = draw(st.integers(1, 9))
    lengths = np.array(draw(st.lists(st.floats(0.2, 3.0, **finite), min_size=bones, max_size=bones)))
    reach = float(lengths.sum())
    frames = draw(st.integers(1, 12))
    kind = st.sampled_from(["inside", "outside", "root", "line"])
    targets = []
    for _ in range(frames):
        k = draw(kind)
        angle = draw(st.floats(-math.pi, math.pi, **finite))
        r = {"inside": draw(st.floats(0.05, 0.99, **finite)), "outside": draw(st.floats(1.0, 1.5, **finite)),
             "root": 0.0, "line": draw(st.floats(0.2, 0.9, **finite))}[k]
        if k == "line":
            angle = 0.0  # the straight default pose lies along +x
        targets.append((r * reach * math.cos(angle), r * reach * math.sin(angle)))
    limits = None
    if draw(st.booleans()):
        low = np.array(draw(st.lists(st.floats(-2.5, 0.3, **finite), min_size=bones, max_size=bones)))
        span = np.array(draw(st.lists(st.floats(0.0, 3.0, **finite), min_size=bones, max_size=bones)))
        limits = np.stack([low, low + span], axis=1)
    initial = None
    if draw(st.booleans()):
        initial = np.array(draw(st.lists(st.floats(-4.0, 4.0, **finite), min_size=bones, max_size=bones)))
    return lengths, np.array(targets), initial, limits, draw(st.integers(1, 80))


@pytest.mark.parametrize("name", SOLVERS)
@settings(max_examples=150, deadline=None)
@given(problem=problems(), tolerance=st.sampled_from([1e-9, 1e-6, 1e-3]))
def test_the_compiled_loop_solves_every_frame_as_the_python_loop(name, problem, tolerance):
    lengths, targets, initial, limits, budget = problem
    fast, slow = solve_both(SOLVERS[name], lengths, [0.3, -0.7], targets + [0.3, -0.7],
                            initial=initial, limits=limits, tolerance=tolerance, max_iterations=budget)
    assert_same(fast, slow)


@pytest.mark.parametrize("name", SOLVERS)
def test_a_long_limited_tail_follows_its_target_as_the_python_loop(name):
    # The production case: 50 bones with +-25 degree limits, a target on a slow curve
    # (frame to frame warm starts, tens of iterations a frame).
    lengths = np.linspace(7.0, 3.0, 50)
    limits = np.array([(-1e6, 1e6)] + [(-math.radians(25), math.radians(25))] * 49)
    s = np.linspace(0.0, 2.0 * math.pi, 60)
    reach = lengths.sum()
    targets = np.stack([0.55 * reach + 0.2 * reach * np.cos(s), 0.35 * reach * np.sin(2 * s)], axis=1)
    fast, slow = solve_both(SOLVERS[name], lengths, [0.0, 0.0], targets, limits=limits,
                            tolerance=1e-3, max_iterations=64)
    assert_same(fast, slow)
    assert fast.iterations.sum() > 5 * len(targets)  # the loops did iterate


def test_the_compiled_loop_checks_before_every_frame_and_a_raising_check_stops_it():
    chains.compiled_loop(wait=True)
    calls = []

    class Stop(Exception):
        pass

    def check():
        calls.append(1)
        if len(calls) == 4:
            raise Stop

    lengths, targets = np.ones(5), np.stack([np.linspace(1, 4, 10), np.linspace(0, 2, 10)], axis=1)
    chains.frame_check(lambda: calls.append(1))
    try:
        chains.solve_fabrik(lengths, [0, 0], targets)
        assert len(calls) == 10
        calls.clear()
        chains.frame_check(check)
        with pytest.raises(Stop):
            chains.solve_ccd(lengths, [0, 0], targets)
        assert len(calls) == 4
    finally:
        chains.frame_check(None)
    # Frame by frame or in one call, the same solution.
    whole = chains.solve_fabrik(lengths, [0, 0], targets)
    chains.frame_check(lambda: None)
    try:
        framed = chains.solve_fabrik(lengths, [0, 0], targets)
    finally:
        chains.frame_check(None)
    np.testing.assert_array_equal(whole.angles, framed.angles)


def test_without_numba_or_with_it_switched_off_the_python_loop_runs(monkeypatch):
    monkeypatch.setenv("RIGEDITOR_JIT", "0")
    assert chains._KERNEL.compile() is None
    monkeypatch.delenv("RIGEDITOR_JIT")
    monkeypatch.setitem(sys.modules, "rigeditor.core.chains_jit", None)  # import fails, as without numba
    assert chains._KERNEL.compile() is None
    # ...and the solvers still answer, from the Python loop, the same as compiled.
    monkeypatch.setattr(chains, "compiled_loop", lambda wait=False: None)
    sol = chains.solve_fabrik([1.0, 1.0], [0, 0], [1.0, 1.0])
    assert math.hypot(*(sol.joints[-1] - [1.0, 1.0])) <= 1e-3


def test_every_call_runs_the_one_compiled_signature():
    # Read-only, strided, integer or list inputs are converted, never compiled anew (a
    # compile takes seconds, in the caller's thread: the UI's during a drag).
    loop = chains.compiled_loop(wait=True)
    lengths = np.arange(1, 7, dtype=np.int32)[::2]  # strided ints
    lengths.flags.writeable = False
    targets = np.asfortranarray(np.array([[2.0, 1.0], [3.0, 0.5], [1.0, 1.0]]))
    targets.flags.writeable = False
    limits = np.array([[-1, 1], [-2, 2], [-1, 1]])[:, ::1]
    for solve in SOLVERS.values():
        solve(lengths, (0, 0), targets, limits=limits, initial=[0, 1, 0], max_iterations=np.int16(5))
        solve([1.0, 2.0], [0.0, 0.0], [1.0, 1.0], tolerance=np.float32(1e-3))
    assert len(loop.signatures) == 1


def test_a_big_solve_waits_for_the_loading_loop_and_a_small_one_does_not(monkeypatch):
    # Opening a long rig: its whole range in Python would take seconds, the compiled
    # loop loads from its cache in about half of one, so the range waits for it; the
    # frame under the hand (one frame) never waits.
    import threading

    real = chains.compiled_loop(wait=True)
    used = []

    def spy(*args):
        used.append(len(args[2]))  # frames handed to the compiled loop
        return real(*args)

    kernel = LazyKernel("rigeditor.core.chains_jit", "test")
    kernel.value.append(spy)
    kernel.thread.append(None)  # loading under way
    loaded = kernel.loaded
    monkeypatch.setattr(chains, "_KERNEL", kernel)
    monkeypatch.setattr(chains, "WAIT_S", 60.0)
    chains.solve_fabrik(np.ones(50), [0, 0], [[20.0, 10.0]])  # 1 x 50 x 64: small
    assert used == []  # the Python loop served: the compiled one was not there yet
    frames = chains.BIG_SOLVE // (50 * 64) + 1
    targets = np.stack([np.linspace(10, 40, frames), np.linspace(0, 20, frames)], axis=1)
    threading.Timer(0.2, loaded.set).start()
    chains.solve_fabrik(np.ones(50), [0, 0], targets)
    assert used == [frames]  # waited, then solved compiled


def test_loading_waits_for_the_start_up_unless_a_solve_waits_for_it(monkeypatch):
    # The first solve starts the loading thread, which leaves the interpreter to the
    # editor's start-up for its delay; a solve that waits for the loop hurries it.
    import threading

    calls = []
    kernel = LazyKernel("rigeditor.core.chains_jit", "test", delay=600.0)
    monkeypatch.setattr(kernel, "compile", lambda: calls.append(1) or "compiled")
    monkeypatch.setattr(chains, "_KERNEL", kernel)
    assert chains.compiled_loop() is None  # started, asleep
    assert kernel.thread[0].is_alive() and calls == []
    assert chains.compiled_loop(wait=True) == "compiled"  # woken at once, not in 600 s
    assert calls == [1]
    assert chains.compiled_loop() == "compiled"
