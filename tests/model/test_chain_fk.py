"""A chain's bones placed all at once (chain_fk) land where composing their transforms
one by one puts them, and the evaluated rig's world rotations are those transforms'."""
import math

import numpy as np
from hypothesis import given, settings, strategies as st

from rigeditor.core.geometry import Affine
from rigeditor.model import evaluate
from rigeditor.model.evaluation.chain_fk import chain_frames
from tests.model.test_iterative_frame_local import long_tail

finite = st.floats(-50.0, 50.0, allow_nan=False)


def composed(parent: Affine, ox, oy, theta):
    """The reference: each bone's local transform composed on its parent's world."""
    out, world = [], parent
    for i in range(ox.shape[0]):
        world = world.compose(Affine.rotation_about_origin(theta[i], ox[i], oy[i]))
        out.append(world)
    return out


@settings(max_examples=60, deadline=None)
@given(bones=st.integers(1, 60), frames=st.integers(1, 5), seed=st.integers(0, 2**31 - 1),
       parent=st.tuples(finite, finite, finite, finite, finite, finite))
def test_a_run_of_bones_is_their_transforms_composed(bones, frames, seed, parent):
    rng = np.random.default_rng(seed)
    ox, oy = rng.uniform(-20, 20, (bones, frames)), rng.uniform(-20, 20, (bones, frames))
    theta = rng.uniform(-math.pi, math.pi, (bones, frames))
    p = Affine(*(np.full(frames, v) for v in parent))
    fields, phi = chain_frames(p, ox, oy, theta)
    # Tolerance: rounding grows with the bones and the sizes multiplied together.
    scale = max(1.0, max(abs(v) for v in parent))
    reach = np.abs(ox).sum() + np.abs(oy).sum() + 1.0
    for i, w in enumerate(composed(p, ox, oy, theta)):
        for got, want, size in zip(fields, w.fields(), (scale,) * 4 + (scale * reach,) * 2):
            assert np.allclose(got[i], want, rtol=0, atol=1e-12 * bones * size + 1e-12 * scale * reach)
    assert np.allclose(phi, np.cumsum(theta, axis=0), rtol=0, atol=1e-12 * bones)


@settings(max_examples=20, deadline=None)
@given(bones=st.integers(2, 30), seed=st.integers(0, 2**31 - 1))
def test_a_run_over_frames_gives_each_frame_the_bits_of_that_frame_alone(bones, seed):
    rng = np.random.default_rng(seed)
    n = 7
    ox, oy = rng.uniform(-20, 20, (bones, n)), rng.uniform(-20, 20, (bones, n))
    theta = rng.uniform(-math.pi, math.pi, (bones, n))
    p = Affine(*(rng.uniform(-2, 2, n) for _ in range(6)))
    fields, phi = chain_frames(p, ox, oy, theta)
    for f in range(n):
        alone, phi1 = chain_frames(p.take(slice(f, f + 1)), ox[:, f:f + 1], oy[:, f:f + 1], theta[:, f:f + 1])
        for x, y in zip(fields, alone):
            assert np.array_equal(x[:, f:f + 1], y)
        assert np.array_equal(phi[:, f:f + 1], phi1)


def test_the_tails_world_rotations_are_its_frames_and_its_tip_reaches_the_target():
    p = long_tail("fabrik")
    bake = evaluate(p)
    for k, name in enumerate(bake.bones):
        b = bake.bone_bakes[k]
        read = np.arctan2(b.world.c, b.world.a)
        assert np.allclose(np.angle(np.exp(1j * (b.world_rotation - read))), 0.0, atol=1e-9), name
    chain = bake.chains["tail"]
    tip = bake.bone(p.chains[0].bones[-1]).tip
    # The chain's reported end is the tip bone's end, placed by the run.
    assert np.allclose(chain.end_world, tip, atol=1e-9)


def test_the_tails_joints_are_forward_kinematics_by_hand():
    p = long_tail("ccd")
    bake = evaluate(p)
    root = bake.spaces["character"]
    for f in (0, 17, 120):
        world = root.take(slice(f, f + 1))
        for name in p.chains[0].bones:
            bone, b = p.bone(name), bake.bone(name)
            world = world.compose(Affine.rotation_about_origin(b.local_rotation[f], *bone.rest_offset))
            assert np.allclose(world.translation()[0], b.joint[f], atol=1e-9), (f, name)
            tip = world.apply(np.array([bone.length, 0.0]))
            assert np.allclose(tip[0], b.tip[f], atol=1e-9), (f, name)


def test_a_translated_bone_above_a_chain_one_frame_alone_and_after_its_own_edit():
    # The walk's spine keyed to move: a frame evaluated alone from the range's row
    # takes the translates the row holds, and an edit of the spine's translate keys
    # samples them afresh; both equal a full evaluation there.
    from rigeditor.examples.rigs import walk
    from rigeditor.model.data.timeline import keyed
    from rigeditor.edits.posing import set_target_key

    p = walk()
    spine = next(b.name for b in p.bones if b.name == "spine")
    p = p.with_bone(spine, translate=keyed([(0, (0.0, 0.0)), (20, (12.0, -5.0)), (40, (0.0, 3.0))], "bezier"))
    full = evaluate(p)
    f = 25
    row = full.rows(f, f + 1)
    target = p.chains[0].target
    moved = set_target_key(p, target, f, tuple(full.chains[p.chains[0].name].target_world[f] + [2.0, 1.0]))
    alone = evaluate(moved, row.frames, previous=row, changed={f"target:{target}"})
    again = evaluate(moved)
    for k, name in enumerate(alone.bones):
        assert np.array_equal(alone.bone_bakes[k].translate, again.bone(name).translate[f:f + 1]), name
        assert np.allclose(alone.bone_bakes[k].joint, again.bone(name).joint[f:f + 1], atol=1e-9), name
    shifted = p.with_bone(spine, translate=keyed([(0, (0.0, 0.0)), (20, (30.0, 8.0)), (40, (0.0, 3.0))], "bezier"))
    edited = evaluate(shifted, row.frames, previous=row, changed={f"bone:{spine}"})
    want = evaluate(shifted, row.frames)
    assert np.array_equal(edited.bone(spine).translate, want.bone(spine).translate)
    assert not np.array_equal(edited.bone(spine).translate, row.bone(spine).translate)  # the edit moved it
    for name in alone.bones:
        assert np.allclose(edited.bone(name).tip, want.bone(name).tip, atol=1e-9), name
