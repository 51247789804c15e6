"""One-bone IK ("aim" chains): the bone turns about its origin so that its x axis
points at the target, as Spine's one-bone IK constraint plays it.

The target is carried into the bone's shoulder space (its parent's frame at the
bone's origin, scale and all, as :meth:`Pose.joint_frames` gives it); the bone's
local rotation is the target's direction there, atan2(y, x) radians. Mix blends the
FK rotation toward it along the shorter way round. A one-bone chain has no elbow:
its elbow and ghost-elbow positions are its shoulder, its side 0. The bone may be
scaled (its length plays no part); with a negative x scale its tip lies behind its
axis, so it turns half a turn further to point its tip at the target.
"""
from __future__ import annotations

import numpy as np

from rigeditor.core.geometry import pair, wrap_angle
from rigeditor.core.diagnostics import MAX_RATE
from rigeditor.model.data.ik_flags import flag_at
from rigeditor.model.evaluation.bake import CAUSES, ChainBake, frozen
from rigeditor.model.evaluation.constraints.causes import classify, rounding_bound
from rigeditor.model.evaluation.constraints.ik_frames import aim_vector, sheared_bones
from rigeditor.model.evaluation.spaces import smoothed_target


def solve_aim(project, chain, pose, spaces, frames, fk) -> list[ChainBake]:
    """Solve one aim chain over ``frames`` and write its bone's rotation into ``pose``.

    fk: [the bone's local FK rotation (N,) radians]. Returns [its ChainBake].
    """
    n = frames.shape[0]
    (bone,) = chain.bones
    length = project.bone(bone).length
    to_world = pose.joint_frames([bone], n)
    declared, codes, _, smoothed, space = smoothed_target(project.target(chain.target), frames, spaces,
                                                          chain.smoothing, project.timeline.fps)
    target_world = space.apply(smoothed)
    target = to_world.inverse().apply(target_world)
    distance = np.sqrt(target[:, 0] * target[:, 0] + target[:, 1] * target[:, 1])
    fk0 = np.broadcast_to(np.asarray(fk[0], dtype=float), (n,))
    measured = aim_vector(pose, bone, to_world, target_world, target, n)  # (its inherit mode's frame)
    toward, turn, reach_for = (target, 0.0, distance) if measured is None else measured
    # A target on the bone's origin gives no direction: the bone keeps its FK rotation.
    aim = np.where(distance > 0, np.arctan2(toward[:, 1], toward[:, 0]) + turn, fk0)
    k = pose.column[bone]
    if pose.scale[k] is not pose.unit:  # a negative x scale points the bone backwards: turn it round
        aim = aim + np.where(pose.scale[k][:, 0] < 0, np.pi, 0.0)
    mix = np.clip(chain.mix.sample(frames)[:, 0], 0.0, 1.0)
    given_up = sheared_bones(pose, chain, mix)  # a sheared bone's x axis is rotation + shear x
    if given_up is not None:
        aim = aim - given_up[0]
    rotation = fk0 + mix * wrap_angle(aim - fk0)
    pose.rotation[k] = rotation
    pose.stretch[k] = pose.ones
    stretch = np.ones(n)
    stretching, compressing = flag_at(chain, "stretch", frames), flag_at(chain, "compress", frames)
    if stretching.any() or compressing.any():  # (set up or keyed)
        scale = pose.scale[k]
        # (A point, Spine's length 0, neither stretches nor compresses.)
        stretch = _spine_factor(stretching, compressing, scale[:, 0], project.bone(bone).measured_length,
                                reach_for, mix)
        pose.scale[k] = pair(scale[:, 0] * stretch, scale[:, 1] * (stretch if "uniform" in chain.spine_scale else 1.0))
    (world,) = pose.place_chains([chain.bones], n)

    end_world = pair(world.a * length + world.tx, world.c * length + world.ty)
    end = to_world.inverse().apply(end_world)
    rx, ry = end[:, 0] - target[:, 0], end[:, 1] - target[:, 1]
    residual = np.sqrt(rx * rx + ry * ry)
    shoulder_world = world.translation()
    zeros, false = np.zeros(n), np.zeros(n, dtype=bool)
    # The bone reaches only the targets at its (scaled) length: pointed at the target,
    # its residual is the distance's difference from that length.
    reach = np.sqrt(end[:, 0] * end[:, 0] + end[:, 1] * end[:, 1])
    cause = classify(residual, np.abs(distance - reach), distance, reach, reach, zeros, false, mix,
                     false, tolerance=1e-7 * length, rounding=rounding_bound(length, distance, shoulder_world))
    hold = np.zeros(n, dtype=bool)
    drift, world_motion = np.zeros(n), np.zeros(n)
    if n > 1:
        hold[1:] = np.all(declared[1:] == declared[:-1], axis=1) & (codes[1:] == codes[:-1])
        for out, points in ((drift, space.inverse().apply(end_world)), (world_motion, end_world)):
            out[1:] = np.where(hold[1:], np.hypot(*np.diff(points, axis=0).T), 0.0)
    table = dict(
        residual=residual, cause=cause, limited=false, stretch=stretch, root_offset=np.zeros((n, 2)),
        sensitivity=np.minimum(np.degrees(1.0 / np.maximum(distance, 1e-300)), MAX_RATE), distance=distance, solve_distance=distance,
        bend=np.ones(n), side=zeros, flip=false, bend_overridden=false, iterations=np.ones(n, dtype=int),
        converged=cause != CAUSES.index("unexplained"), hold=hold, hold_drift=drift,
        hold_world_motion=world_motion, target_world=target_world, target_shoulder=target,
        end_world=end_world, elbow_world=shoulder_world, ghost_elbow_world=shoulder_world,
        shoulder_world=shoulder_world, softness=zeros,
    )
    for value in table.values():
        frozen(value)
    return [ChainBake(name=chain.name, **table, target_declared=frozen(declared), target_space=frozen(codes),
                      shoulder_to_world=to_world, reach=(length, length))]


def _spine_factor(stretching, compressing, sx, length, distance, mix):
    """Spine's one-bone stretch / compress factor of the bone's x scale (N,): where the
    target lies beyond (``stretching``, (N,) bool) or short of (``compressing``) the
    bone's scaled length b = length * sx (only where b > 1e-4), 1 + mix (distance / b - 1);
    else 1."""
    b = length * sx
    ok = b > 1e-4
    wanted = stretching & (distance > b) | compressing & (distance < b)
    return np.where(ok & wanted, (distance / np.where(ok, b, 1.0) - 1.0) * mix + 1.0, 1.0)
