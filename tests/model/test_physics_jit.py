"""The compiled physics stepping (rigeditor.core.physics_jit) against the Python loop.

numba is a test dependency, so the compiled loop is loaded (tests/conftest.py waits
for it); the Python loop is the fallback and the reference: the same arithmetic, so
the two agree on every update (asserted to 1e-9) and keep the same states.
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rigeditor.io.spine.read import import_spine
from rigeditor.io.project_file import load_project
from rigeditor.model.data.clips import names as animation_names, switch
from rigeditor.model.evaluation.constraints import physics, physics_jit
from rigeditor.model.evaluation.evaluate import evaluate

from tests.io.spine_rigs import write_rig

finite = dict(allow_nan=False, allow_infinity=False)
FIXTURES = Path(__file__).parents[1] / "io" / "fixtures" / "physics"


def python_loop(monkeypatch):
    monkeypatch.setattr(physics_jit, "compiled_run", lambda wait=False: None)
    physics._histories.clear()


@st.composite
def runs(draw):
    """A constraint (any channels on, any step rate, limit, reference scale), a state
    (from rest or mid-motion), and N updates of settings, world frames and resets."""
    weight = st.one_of(st.just(0.0), st.floats(0.01, 1.0, **finite))
    c = SimpleNamespace(x=draw(weight), y=draw(weight), rotate=draw(weight), shear_x=draw(weight),
                        scale_x=draw(weight), step=draw(st.sampled_from([15.0, 30.0, 60.0, 120.0, 240.0])),
                        reference_scale=draw(st.floats(10.0, 200.0, **finite)),
                        limit=draw(st.floats(0.0, 5000.0, **finite)))
    n = draw(st.integers(physics_jit.MIN_UPDATES, 60))
    dt = draw(st.sampled_from([1 / 30, 1 / 60, 1 / 24, 0.0]))
    times = [i * dt for i in range(n)]

    def row(lo, hi):
        return draw(st.lists(st.floats(lo, hi, **finite), min_size=n, max_size=n))
    mix = [m if draw(st.integers(0, 5)) else 0.0 for m in row(0.0, 1.0)]  # frozen stretches too
    k = [row(0.0, 1.0), row(0.0, 400.0), row(0.0, 1.0), row(0.1, 5.0), row(-50, 50), row(-80, 80), mix]
    turn = row(-math.pi, math.pi)
    size = row(0.2, 3.0)
    w = [[s * math.cos(a) for s, a in zip(size, turn)], [-math.sin(a) for a in turn],
         [s * math.sin(a) for s, a in zip(size, turn)], [math.cos(a) for a in turn], row(-500, 500), row(-500, 500)]
    resets = draw(st.one_of(st.none(), st.lists(st.booleans(), min_size=n, max_size=n)))
    state = physics.rest_state()
    if draw(st.booleans()):  # mid-motion: any offsets, velocities and time left
        state = (0.0, *draw(st.lists(st.floats(-50, 50, **finite), min_size=14, max_size=14)),
                 draw(st.floats(0.0, 0.05, **finite)), 0.0, 0.0)
    length = draw(st.one_of(st.just(0.0), st.floats(0.5, 300.0, **finite)))  # a point or a bone
    return c, length, state, times, k, w, resets, draw(st.integers(0, 5))


def assert_same(fast, slow):
    (fast_states, fast_out), (slow_states, slow_out) = fast, slow
    np.testing.assert_allclose(np.array(fast_out, float), np.array(slow_out, float), rtol=0, atol=1e-9)
    np.testing.assert_allclose(np.array(fast_states), np.array(slow_states), rtol=0, atol=1e-9)


@settings(max_examples=300, deadline=None)
@given(case=runs())
def test_the_compiled_loop_steps_every_update_as_the_python_loop(case):
    c, length, state, times, k, w, resets, every = case
    loop = physics_jit.compiled_run(wait=True)
    assert loop is not None, "numba is a test dependency: the compiled loop must load"
    fast = physics_jit.run(loop, c, length, state, times, k, w, resets, every)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(physics_jit, "compiled_run", lambda wait=False: None)
        slow = physics.run(c, length, state, times, k, w, resets, every)
    assert_same(fast, slow)
    # the world frame moved where physics is on (the test reaches the arithmetic)
    if any(k[6]) and (c.x or c.y or c.rotate or c.scale_x) and len(set(times)) > 2:
        assert np.all(np.isfinite(np.array(fast[1])))


def _animations(path, tmp_path):
    """The fixture's rig imported, one project per animation."""
    out = tmp_path / f"{path.stem}.rigproj"
    import_spine(write_rig(tmp_path / path.stem, json.loads(path.read_text())["rig"], stem="rig",
                           atlas=False, page=False), out, force=True)
    project = load_project(out)
    return {name: switch(project, name) for name in animation_names(project)}


@pytest.mark.parametrize("name", sorted(p.stem for p in FIXTURES.glob("*.json")))
def test_every_judge_rig_bakes_the_same_compiled_or_in_python(tmp_path, monkeypatch, name):
    rigs = _animations(FIXTURES / f"{name}.json", tmp_path)
    assert rigs and any(p.physics for p in rigs.values())
    compiled = {}
    for anim, p in rigs.items():
        frames = p.timeline.start + np.arange(121.0)
        compiled[anim] = (evaluate(p), evaluate(p, frames), evaluate(p, frames[::3] * 1.0))
    python_loop(monkeypatch)
    moved = 0.0
    for anim, p in rigs.items():
        frames = p.timeline.start + np.arange(121.0)
        for fast, slow in zip(compiled[anim], (evaluate(p), evaluate(p, frames), evaluate(p, frames[::3] * 1.0))):
            for a, b in zip(fast.bone_bakes, slow.bone_bakes):
                for field in ("a", "b", "c", "d", "tx", "ty"):
                    x = np.broadcast_to(getattr(a.world, field), fast.frames.shape)
                    y = np.broadcast_to(getattr(b.world, field), slow.frames.shape)
                    np.testing.assert_allclose(x, y, rtol=0, atol=1e-9)
                    moved = max(moved, float(np.ptp(x)))
    assert moved > 1.0  # the rigs do move


def test_the_frame_under_the_hand_is_the_same_either_way(monkeypatch):
    # A single frame: the grid's remembered state (kept by the compiled stepping or the
    # Python one) and at most a few Python updates from it: the same pose.
    from tests.model.test_physics import _swaying, _tail_world

    p = _swaying()
    compiled = [_tail_world(evaluate(p, [float(f)]), 0) for f in range(21)]
    half = _tail_world(evaluate(p, [7.5]), 0)
    python_loop(monkeypatch)
    python = [_tail_world(evaluate(p, [float(f)]), 0) for f in range(21)]
    np.testing.assert_allclose(python, compiled, rtol=0, atol=1e-9)
    np.testing.assert_allclose(_tail_world(evaluate(p, [7.5]), 0), half, rtol=0, atol=1e-9)
    assert np.ptp(np.array(compiled)[:, 4]) > 10.0  # the tail does move


def test_without_numba_or_with_it_switched_off_the_python_loop_steps(monkeypatch):
    monkeypatch.setenv("RIGEDITOR_JIT", "0")
    assert physics_jit._KERNEL.compile() is None
    monkeypatch.delenv("RIGEDITOR_JIT")
    monkeypatch.setitem(sys.modules, "rigeditor.core.physics_jit", None)  # import fails, as without numba
    assert physics_jit._KERNEL.compile() is None
    # ...and a range still steps, by the Python loop, as compiled
    from tests.model.test_physics import _swaying, _tail_world

    p = _swaying()
    compiled = [_tail_world(evaluate(p), f) for f in range(21)]
    python_loop(monkeypatch)
    python = evaluate(p)
    np.testing.assert_allclose([_tail_world(python, f) for f in range(21)], compiled, rtol=0, atol=1e-9)
