"""Solve one chain over all frames and write its pose into the evaluation's Pose."""
from __future__ import annotations

import numpy as np

from rigeditor.core.geometry import Affine, pair, wrap_angle
from rigeditor.model.bake import CAUSES, ChainBake, frozen
from rigeditor.model.chain_solvers import solve_analytic, solve_iterative
from rigeditor.model.kinematics import Pose
from rigeditor.model.project import Chain, Project
from rigeditor.model.spaces import resolve_target

_CAUSE = {name: i for i, name in enumerate(CAUSES)}


def solve_chain(project: Project, chain: Chain, pose: Pose, spaces: dict[str, Affine],
                frames: np.ndarray, fk_rotation: np.ndarray) -> ChainBake:
    """Resolve the target, solve, mix with FK, update the pose; return the diagnostics.

    fk_rotation: (N, len(chain.bones)) local FK rotations of the chain's bones.
    """
    fps = project.timeline.fps
    first = chain.bones[0]
    to_world = pose.joint_frame(first)  # the shoulder space
    to_shoulder = to_world.inverse()
    declared, codes, _, target_world, declared_space = resolve_target(
        project.target(chain.target), frames, spaces, chain.smoothing, fps)
    target = to_shoulder.apply(target_world)
    lengths = [project.bone(b).length for b in chain.bones]
    bend = chain.bend.sample(frames)[:, 0]
    mix = np.clip(chain.mix.sample(frames)[:, 0], 0.0, 1.0)
    soft = chain.softness.sample(frames)[:, 0] * sum(lengths)
    if chain.solver == "analytic":
        ik = solve_analytic(chain, lengths, target, bend, soft, fk_rotation)
    else:
        ik = solve_iterative(chain, lengths, target, soft, fk_rotation)

    # Mix: blend each joint along the shorter way round, and the strategy's stretch
    # and shift by the same weight, so mix 0 is exactly the FK pose.
    cols = [pose.column[bn] for bn in chain.bones]
    for i, c in enumerate(cols):
        fk = fk_rotation[:, i]
        pose.rotation[c] = fk + mix * wrap_angle(ik.angles[:, i] - fk)
    stretch = 1.0 + mix * (ik.stretch - 1.0)
    for c in cols:
        pose.stretch[c] = stretch
    pose.shift[cols[0]] = mix[:, None] * ik.root_offset
    # Where the IK pose is shown whole (mix 1), forward kinematics takes the bones'
    # directions from the solver instead of computing sin and cos of the angles again.
    # Chosen frame by frame: a frame comes out the same evaluated alone or in a range.
    directions = None
    if ik.directions is not None:
        full = mix == 1.0
        if full.all():
            directions = dict(zip(chain.bones, ik.directions))
        elif full.any():
            directions = {bn: (np.where(full, cos, np.cos(pose.rotation[c])), np.where(full, sin, np.sin(pose.rotation[c])))
                          for bn, c, (cos, sin) in zip(chain.bones, cols, ik.directions)}
    pose.update([first], directions=directions)

    end_world = pose.tip(chain.bones[-1])
    end = to_shoulder.apply(end_world)
    rx, ry = end[:, 0] - target[:, 0], end[:, 1] - target[:, 1]
    residual = np.sqrt(rx * rx + ry * ry)
    # The side of a chain's bend: the sign of its joints' total turn after the first.
    curl = sum(pose.rotation[c] for c in cols[1:])
    side = np.sign(np.where(np.abs(curl) > 1e-6, curl, 0.0))
    n = frames.shape[0]
    hold = np.zeros(n, dtype=bool)
    drift, world_motion = np.zeros(n), np.zeros(n)
    if n > 1:  # each frame compares with the one before (a frame alone has none)
        hold[1:] = np.all(declared[1:] == declared[:-1], axis=1) & (codes[1:] == codes[:-1])
        # Held target: the end should hold still in the target's own space (drift: a
        # solver or space bug if not); its world motion is foot sliding for a planted
        # foot, and riding along for a hand on a hip.
        drift[1:] = _step_length(declared_space.inverse().apply(end_world))
        world_motion[1:] = _step_length(end_world)
    # The side the solve means to bend to: the saved one unless the limits exclude it.
    meant = np.where(ik.bend_overridden, -bend, bend)
    flip = elbow_flips(side, meant) if chain.solver == "analytic" and n > 1 else np.zeros(n, dtype=bool)
    elbow_world = pose.origin(chain.bones[1])
    elbow = to_shoulder.apply(elbow_world)
    inner, outer = ik.reach
    # An analytic solve lands to rounding; an iterative one to its tolerance.
    tolerance = 1e-7 * outer if chain.solver == "analytic" else chain.tolerance
    cause = classify(residual, ik.residual, ik.distance, inner, outer, soft, ik.limited, mix,
                     ~ik.converged, tolerance=tolerance,
                     rounding=rounding_bound(outer, ik.distance, pose.origin(first)))
    shoulder = ik.root_offset * mix[:, None]
    return ChainBake(
        name=chain.name,
        residual=frozen(residual),
        cause=frozen(cause),
        limited=frozen(ik.limited),
        stretch=frozen(stretch),
        root_offset=frozen(shoulder),
        sensitivity=frozen(ik.sensitivity),
        distance=frozen(ik.distance),
        solve_distance=frozen(ik.solve_distance),
        bend=frozen(bend),
        side=frozen(side),
        flip=frozen(flip),
        bend_overridden=frozen(ik.bend_overridden),
        iterations=frozen(ik.iterations),
        converged=frozen(cause != _CAUSE["unexplained"]),
        hold=frozen(hold),
        hold_drift=frozen(np.where(hold, drift, 0.0) if n > 1 else drift),
        hold_world_motion=frozen(np.where(hold, world_motion, 0.0) if n > 1 else world_motion),
        target_declared=frozen(declared),
        target_space=frozen(codes),
        target_world=frozen(target_world),
        target_shoulder=frozen(target),
        end_world=frozen(end_world),
        elbow_world=frozen(elbow_world),
        ghost_elbow_world=frozen(to_world.apply(_mirror_elbow(elbow - shoulder, end - shoulder) + shoulder)),
        shoulder_world=frozen(pose.origin(first)),
        shoulder_to_world=to_world,
        reach=(inner, outer),
        softness=frozen(soft),
    )


def _step_length(points):
    """|p[i] - p[i-1]| for i >= 1 (sqrt of squares: distances of on-screen points
    cannot overflow, and it is several times cheaper than hypot)."""
    dx, dy = np.diff(points[:, 0]), np.diff(points[:, 1])
    return np.sqrt(dx * dx + dy * dy)


def _mirror_elbow(elbow, end):
    """The other bend's elbow: the elbow reflected across the shoulder-end line
    (shoulder at the origin). Exact for an unlimited solve; for a limited one it is
    the mirror of the pose actually shown."""
    length = np.sqrt(end[:, 0] * end[:, 0] + end[:, 1] * end[:, 1])
    ok = length > 0
    ux = np.where(ok, end[:, 0] / np.where(ok, length, 1.0), 1.0)
    uy = np.where(ok, end[:, 1] / np.where(ok, length, 1.0), 0.0)
    along = elbow[:, 0] * ux + elbow[:, 1] * uy
    return pair(2 * along * ux - elbow[:, 0], 2 * along * uy - elbow[:, 1])


def elbow_flips(side, bend):
    """Frames where the elbow turns up on the other side than on the last frame it was
    bent (straight frames in between don't hide a flip) while the bend stayed the same."""
    n = side.shape[0]
    idx = np.where(side != 0, np.arange(n), -1)
    last = np.maximum.accumulate(idx)
    prev = np.full(n, -1)
    prev[1:] = last[:-1]
    has_prev = (side != 0) & (prev >= 0)
    before = np.maximum(prev, 0)
    return has_prev & (side != side[before]) & (bend == bend[before])


def rounding_bound(outer, distance, shoulder_world):
    """Model units within which two computations of the same end agree in floating
    point: relative to the chain's size, the target's distance and how far from the
    world origin the chain is carried (the pose goes through world space and back)."""
    far = np.hypot(shoulder_world[:, 0], shoulder_world[:, 1])
    return 1e-11 * (outer + distance + far)


def classify(residual, solver_residual, distance, inner, outer, softness, limited, mix, budget, *,
             tolerance, rounding):
    """Name the cause of each frame's residual (indices into CAUSES).

    A residual is explained when it is within ``tolerance`` of zero (or of floating-point
    size, ``rounding``), or a mix below 1 blends in the FK pose, or a limit binds, or the
    target lies in the soft zone or beyond the hard reach, or an iterative solver ran
    out of iterations (``budget``). Otherwise, or when the final pose disagrees with the
    solver's own forward kinematics by more than ``rounding`` (a floating-point bound,
    not the user's convergence tolerance), it is unexplained: a bug, never hidden.
    """
    cause = np.full(residual.shape, _CAUSE["unexplained"], dtype=np.int8)
    soft_zone = (softness > 0) & ((distance > outer - softness) | (distance < inner + softness))
    beyond = (distance > outer) | (distance < inner)
    agrees = np.abs(residual - solver_residual) <= rounding
    explained = [
        (residual <= np.maximum(tolerance, rounding), "none"),
        (mix < 1.0, "mix"),
        (agrees & limited, "limit"),
        (agrees & beyond, "out_of_reach"),
        (agrees & soft_zone, "soft_reach"),
        (agrees & budget, "budget"),
    ]
    # Later entries must not overwrite earlier (more specific) ones: fill in reverse.
    for mask, name in reversed(explained):
        cause[mask] = _CAUSE[name]
    return cause
