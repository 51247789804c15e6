"""Iterative chains (FABRIK, CCD) at the frame under the hand: a frame evaluated alone
starts from the solution the range gave the frame before it (ChainBake.warm), so from
a slice of a whole-range Bake it is that frame of the range, bit for bit; after an
edit that moved the frame before too, it reaches the same target within the chain's
tolerance, and the range's own slice gives the range's frame again exactly."""
import math
from dataclasses import fields, replace

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from rigeditor.core.geometry import Affine
from rigeditor.edits.posing import set_target_key
from rigeditor.examples.rigs import tail
from rigeditor.model import evaluate
from rigeditor.model.evaluation.evaluate import frame_local

FRAMES = 240
CHANGED = {"target:tail_tip"}


def long_tail(solver: str, limit_deg: float = 25.0) -> tuple:
    """The ten-bone example tail over FRAMES frames (keys every 6 frames, repeated),
    with +-limit_deg along the tail."""
    p = tail(solver)
    target = p.target("tail_tip")
    keys = target.position.keys
    path = [(6 * i, tuple(keys[i % (len(keys) - 1)].value)) for i in range(FRAMES // 6)]
    limits = (p.chains[0].limits[0],) + ((-math.radians(limit_deg), math.radians(limit_deg)),) * 9
    p = replace(p, timeline=replace(p.timeline, end=6 * (len(path) - 1)))
    p = p.with_chain("tail", limits=limits)
    from rigeditor.model.data.timeline import keyed
    return p.with_target("tail_tip", position=keyed(path, "bezier"))


def _equal(a, b, where):
    if isinstance(a, Affine):
        for x, y in zip(a.fields(), b.fields()):
            _equal(x, y, where)
    elif isinstance(a, np.ndarray):
        assert a.shape == b.shape and np.array_equal(a, b), where
    elif a is not None or b is not None:
        assert a == b, where


def assert_frame_of(one, full, f):
    """Every bone's and chain's arrays of ``one`` (a one-frame Bake) equal row ``f`` of
    ``full`` (the comparisons with the frame before, which come with a range, aside)."""
    row = full.rows(f, f + 1)
    for name, g, w in zip(one.bones, one.bone_bakes, row.bone_bakes):
        for fl in fields(w):
            _equal(getattr(g, fl.name), getattr(w, fl.name), (name, fl.name))
    for name, w in row.chains.items():
        for fl in fields(w):
            if fl.name not in ("hold", "hold_drift", "hold_world_motion", "flip"):
                _equal(getattr(one.chains[name], fl.name), getattr(w, fl.name), (name, fl.name))


def alone(project, source, f):
    """Frame ``f`` of ``project`` evaluated alone, from the one-frame slice of
    ``source`` (as the editor does during a drag)."""
    return evaluate(project, source.frames[f:f + 1], previous=source.rows(f, f + 1), changed=CHANGED)


@pytest.mark.parametrize("solver", ["fabrik", "ccd"])
def test_an_iterative_chain_edit_is_frame_local(solver):
    p = long_tail(solver)
    assert frame_local(p, CHANGED)
    smoothed = p.with_chain("tail", smoothing=replace(p.chains[0].smoothing, kind="one_euro"))
    assert not frame_local(smoothed, CHANGED)  # a filter runs along the frames


@settings(max_examples=12, deadline=None)
@given(solver=st.sampled_from(["fabrik", "ccd"]), frame=st.integers(0, FRAMES - 7),
       limit=st.floats(5.0, 60.0))
def test_a_frame_alone_from_the_range_is_that_frame_of_the_range(solver, frame, limit):
    p = long_tail(solver, limit)
    full = evaluate(p)
    one = alone(p, full, frame)
    assert len(one) == 1
    # Not a copy of the slice: the chain was solved again at that frame.
    assert one.chains["tail"] is not full.chains["tail"]
    assert_frame_of(one, full, frame)


@pytest.mark.parametrize("solver", ["fabrik", "ccd"])
def test_a_dragged_frame_reaches_its_target_and_the_landed_range_gives_it_exactly(solver):
    p = long_tail(solver)
    chain = p.chain("tail")
    full = evaluate(p)
    f = 111  # between keys: the new key moves the frames before it too
    for step in range(8):  # a drag: each move from the last whole range
        angle = 2 * math.pi * step / 8
        start = full.chains["tail"].target_declared[f]
        moved = set_target_key(p, "tail_tip", f, (float(start[0] + 6 * math.cos(angle)),
                                                  float(start[1] + 6 * math.sin(angle))))
        during = alone(moved, full, f)
        after = evaluate(moved)
        got, want = during.chains["tail"], after.chains["tail"]
        # The same target, each on it within the chain's tolerance (or a named cause).
        assert np.array_equal(got.target_world[0], want.target_world[f])
        assert got.residual[0] <= chain.tolerance and want.residual[f] <= chain.tolerance
        assert np.hypot(*(got.end_world[0] - want.end_world[f])) <= 2 * chain.tolerance
        # The warm start is the last range's frame before, not the new range's: these
        # differ where the edit moved that frame.
        assert np.array_equal(got.warm[0], full.chains["tail"].warm[f])
        # Once the range has landed, the frame alone is that frame of the range again.
        assert_frame_of(alone(moved, after, f), after, f)


def test_a_range_from_the_first_frame_starts_from_the_fk_pose():
    p = long_tail("fabrik")
    full = evaluate(p)
    first = [full.local_rotation[0, full.column(b)] for b in p.chain("tail").bones]
    fk = evaluate(p.with_chain("tail", mix=replace(p.chains[0].mix, default=(0.0,))))
    assert np.array_equal(full.chains["tail"].warm[0], [fk.local_rotation[0, fk.column(b)] for b in p.chain("tail").bones])
    assert not np.array_equal(full.chains["tail"].warm[0], first)  # the solve moved it
    # Frame i started from frame i-1's solution.
    angles = np.stack([full.local_rotation[:, full.column(b)] for b in p.chain("tail").bones], axis=-1)
    assert np.array_equal(full.chains["tail"].warm[1:], angles[:-1])
