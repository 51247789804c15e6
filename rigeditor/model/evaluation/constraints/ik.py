"""Solve chains over all frames and write their poses into the evaluation's Pose.

Chains are solved in groups (:func:`group_chains`). A group of several chains at one
frame is one set of rows, one row per chain (``geometry.rows``): numpy's fixed cost
per call (most of a one-frame evaluation) is paid once for the group. Every step is
elementwise, so each row gets the bits its chain gets solved alone (tested).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from rigeditor.core.geometry import Affine, pair, rows, rows_of, wrap_angle
from rigeditor.core.twobone import EPS, quadratic_reach
from rigeditor.model.evaluation.bake import CAUSES, ChainBake, frozen
from rigeditor.model.evaluation.constraints.causes import _CAUSE, classify, rounding_bound
from rigeditor.model.evaluation.constraints.ik_aim import solve_aim
from rigeditor.model.evaluation.constraints.ik_frames import (collapsed_result, collapsed_rotation, collapsed_segments,
                                                               mirror_of, mirrored_curl, mirrored_rotations,
                                                               partly_parented, sheared_bones, sheared_reach)
from rigeditor.model.evaluation.constraints.segments import joint_turns, on_axis, segments, translated_first
from rigeditor.model.evaluation.constraints.ik_solvers import solve_analytic, solve_iterative
from rigeditor.model.evaluation.constraints.ik_warm import warm_rows
from rigeditor.model.evaluation.constraints.ik_uneven import uneven_result, uneven_rows
from rigeditor.model.evaluation.constraints.ik_point import point_tip_result
from rigeditor.model.evaluation.kinematics import Pose
from rigeditor.model.data.ik_flags import flag_at, scaling
from rigeditor.model.data.project import Chain, Project
from rigeditor.model.evaluation.spaces import smoothed_target



COLLAPSED = 1e-12
"""|det| of a shoulder frame (squared model scale) below which it counts as collapsed."""


def _invertible(frames: Affine) -> tuple[Affine, np.ndarray]:
    """(frames with each collapsed one (a bone above the chain scaled to 0, as Spine
    allows) replaced by the world axes at its origin, which rows were collapsed).

    A collapsed frame squashes the chain onto a line or a point whatever its angles,
    so there the chain holds its forward-kinematics pose (mix 0) and its diagnostics
    are measured on world axes: nothing is inverted that cannot be."""
    det = frames.a * frames.d - frames.b * frames.c
    collapsed = ~(np.abs(det) > COLLAPSED)
    if not collapsed.any():
        return frames, collapsed
    keep = lambda v, unit: np.where(collapsed, unit, v)  # noqa: E731
    return Affine(keep(frames.a, 1.0), keep(frames.b, 0.0), keep(frames.c, 0.0), keep(frames.d, 1.0),
                  frames.tx, frames.ty), collapsed


def group_chains(project: Project, chains: list[Chain], n: int) -> list[list[Chain]]:
    """The chains of one wave (none depends on another) in groups solved together:
    at a single frame (``n`` == 1), analytic chains with the same limits and strategy
    and no scaled bone or bone off its parent's axis; any other chain alone. Over several frames every chain is
    alone: warm starts, smoothing and the comparisons with the frame before run
    along a chain's frames."""
    if n != 1:
        return [[c] for c in chains]
    groups: list[list[Chain]] = []
    by_key: dict = {}
    for chain in chains:
        key = _signature(project, chain)
        if key is None:
            groups.append([chain])
        elif key in by_key:
            by_key[key].append(chain)
        else:
            by_key[key] = [chain]
            groups.append(by_key[key])
    return groups


def _signature(project, chain):
    """What must be equal for chains to share one solve (None: solve it alone)."""
    if chain.solver != "analytic" or len(chain.bones) != 2:
        return None
    for name in chain.bones:
        bone = project.bone(name)
        if bone.scale.keys or bone.scale.default != (1.0, 1.0) or bone.spine_frame:
            return None
    if scaling(chain) or not on_axis(project, chain.bones):
        return None
    st = chain.strategy
    limits = tuple(None if x is None else tuple(map(float, x)) for x in (chain.limit(0), chain.limit(1)))
    return st.kind, float(st.max_stretch), float(st.max_root_offset), limits


def solve_chains(project: Project, chains: list[Chain], pose: Pose, spaces: dict[str, Affine],
                 frames: np.ndarray, fk: list[np.ndarray], warm: np.ndarray | None = None) -> list[ChainBake]:
    """Resolve the targets, solve, mix with FK, update the pose; return each chain's
    diagnostics. ``chains``: one group of :func:`group_chains`.

    fk: per joint (root to tip), the chains' local FK rotations as rows (chain after
    chain, ``len(frames)`` rows each). warm: an iterative chain's (B,) start pose for
    its first frame (``ik_warm.first_warm``; None: its FK pose there).
    """
    if chains[0].solver == "aim":  # one bone: no group (group_chains keeps it alone)
        return solve_aim(project, chains[0], pose, spaces, frames, fk)
    n = frames.shape[0]
    one = len(chains) == 1
    assert one or n == 1, "several chains are solved together only at one frame"
    fps = project.timeline.fps
    solver = chains[0].solver
    firsts = [c.bones[0] for c in chains]
    to_world, collapsed = _invertible(pose.joint_frames(firsts, n))  # the shoulder spaces
    to_shoulder = to_world.inverse()
    resolved = [smoothed_target(project.target(c.target), frames, spaces, c.smoothing, fps) for c in chains]
    target_world = Affine.rows([r[4] for r in resolved], n).apply(rows([r[3] for r in resolved], n))
    target = to_shoulder.apply(target_world)
    lengths = [segments(project, c.bones)[0] for c in chains]
    # A lone chain may have a bone whose child starts off its axis: the solver bends
    # segments, turned from the bones by constant angles (group_chains keeps it alone).
    shifts = joint_turns(segments(project, chains[0].bones)[1]) if one else [0.0] * len(fk)
    child_at = None  # a translated second bone's origin in the first bone's frame, per frame
    sheared_by = None  # the first segment's sheared length over its own (ik_frames.sheared_reach)
    if one and solver == "analytic":
        moved = translated_first(project, chains[0].bones, pose.translate[pose.column[chains[0].bones[1]]])
        if moved is not None:  # the first segment follows it, frame by frame
            lengths[0][0], turn, child_at = moved
            shifts = joint_turns([turn, 0.0])
        sheared_by = sheared_reach(pose, chains[0], project.bone(chains[0].bones[1]).rest_offset
                                   if child_at is None else child_at, n)
        if sheared_by is not None:  # (measured with the first bone's shear still on, as Spine does)
            lengths[0][0] = lengths[0][0] * sheared_by
    turned = any(np.any(d) for d in shifts)
    if turned:
        fk = [f + d for f, d in zip(fk, shifts)]
    bend = rows([c.bend.sample(frames)[:, 0] for c in chains], n)
    mix = np.clip(rows([c.mix.sample(frames)[:, 0] for c in chains], n), 0.0, 1.0)
    mix = np.where(collapsed, 0.0, mix)  # a collapsed frame has no direction to aim in
    partial = partly_parented(pose, chains[0].bones, n) if one else None
    if partial is not None:  # Spine's two-bone IK leaves bones that inherit less their own pose
        mix = np.where(partial, 0.0, mix)
    fraction = rows([c.softness.sample(frames)[:, 0] for c in chains], n)
    soft = fraction * rows([sum(ls) for ls in lengths], n)
    reach = rows([sum(ls) for ls in lengths], n)
    uneven = None  # frames whose first bone scales unevenly (ik_uneven), with its inputs
    mirror = None  # where a bone is mirrored (ik_frames.mirror_of)
    flat = None  # where a scale of 0 collapsed the first segment (ik_frames.collapsed_segments)
    # A point tip bone (Spine's length 0) in a chain Spine can play (accept, no limits).
    point = (one and solver == "analytic" and project.bone(chains[0].bones[-1]).measured_length == 0.0
             and chains[0].strategy.kind == "accept" and not any(x is not None for x in chains[0].limits))
    if solver == "analytic":
        a, b = rows([ls[0] for ls in lengths], n), rows([ls[1] for ls in lengths], n)
        scales = [pose.scale[pose.column[name]] for name in chains[0].bones]
        if one and any(sc is not pose.unit for sc in scales):
            # Scaled bones (not by 0, validation): the segments scale with the frames
            # they lie in; softness as Spine scales it, or with the chain. Mirrored ones
            # solve on their scales' sizes (as Spine's two-bone IK).
            psx, psy, csx = scales[0][:, 0], scales[0][:, 1], scales[1][:, 0]
            mirror = mirror_of(psx, psy, csx)
            psx, psy, csx = np.abs(psx), np.abs(psy), np.abs(csx)
            flat, solve_a, solve_b = collapsed_segments(a * psx, b * csx * psx)  # (a scale of 0: see there)
            rows_uneven = uneven_rows(psx, psy) if flat is None else uneven_rows(psx, psy) & ~flat
            if rows_uneven.any():
                # Spine measures (and places) the child on its parent's axis there.
                cx = project.bone(chains[0].bones[1]).rest_offset[0] if child_at is None else child_at[:, 0]
                uneven = (rows_uneven, cx, b * csx, psx, psy)
            a, b = a * psx, b * csx * psx  # (Spine eases an uneven chain's reach by x too)
            soft = soft * psx * (csx + 1.0) * 0.5 if chains[0].soft_reach == "quadratic" else fraction * (a + b)
            reach = a + b
            a, b = solve_a, solve_b  # (the lengths the solve takes: a and b but where a scale is 0)
    if point:  # (Spine's reach and softness measure a point as 0)
        reach = a
        soft = soft * a / (a + b) if chains[0].soft_reach != "quadratic" else soft
    if uneven is not None and turned:  # where uneven, the child on the axis: the bones are the segments
        fk = [f - np.where(uneven[0], d, 0.0) for f, d in zip(fk, shifts)]
        shifts = [np.where(uneven[0], 0.0, d) for d in shifts]
        child = project.bone(chains[0].bones[1])
        placed = uneven[0] & (mix > 0)  # (a constraint at mix 0 does nothing in Spine)
        cy = child.rest_offset[1] if child_at is None else child_at[:, 1]
        pose.shift[pose.column[child.name]] = pair(np.zeros(n), np.where(placed, -cy, 0.0))
    # Spine's quadratic soft reach draws the target in before the solve (as Spine's
    # runtimes do); the solver then reaches for that point, unsoftened.
    quadratic, solve_target, solve_soft = None, target, soft
    if any(c.soft_reach == "quadratic" for c in chains):
        quadratic = rows([1.0 if c.soft_reach == "quadratic" else 0.0 for c in chains], n) > 0.5
        raw = np.sqrt(target[:, 0] * target[:, 0] + target[:, 1] * target[:, 1])
        eased = quadratic_reach(raw, reach, soft)
        scale = np.where(quadratic & (raw > 0), eased / np.where(raw > 0, raw, 1.0), 1.0)
        solve_target = target * scale[:, None]
        solve_soft = np.where(quadratic, 0.0, soft)
    if solver == "analytic":
        if not one and not np.all(np.hypot(solve_target[:, 0], solve_target[:, 1]) > (2 * EPS) * (a + b)):
            # A target on its shoulder takes the direction of its own chain's frame
            # before; in a group it would take the row before its own. Alone, then.
            return [bake for k, c in enumerate(chains)
                    for bake in solve_chains(project, [c], pose, spaces, frames, [f[k:k + 1] for f in fk])]
        ik = solve_analytic(chains[0], (a, b), solve_target, bend, solve_soft, fk, n)
        if uneven is not None:
            ik = uneven_result(ik, uneven, solve_target, bend)
        if flat is not None:  # Spine aims the first bone alone there (at the target itself)
            ik = replace(ik, angles=collapsed_result(ik.angles, target, flat), directions=None)
        if point:  # the tip bone has no length (Spine's 0): the end is the joint
            ik = point_tip_result(ik, solve_target, bend, a)
    else:
        start = np.stack(fk, axis=-1)[0] if warm is None else warm
        ik = solve_iterative(chains[0], lengths[0], solve_target, solve_soft, start)

    # Mix: blend each joint along the shorter way round, and the strategy's stretch
    # and shift by the same weight, so mix 0 is exactly the FK pose.
    # (All joints at once, (B, N) rows: each element gets the bits it gets alone.)
    try:
        fk_rows = np.stack(fk)
    except ValueError:  # a joint's FK rotation held as a number
        fk_rows = None
    if fk_rows is None or fk_rows.shape != (len(fk), target.shape[0]):
        fk_rows = np.stack([np.broadcast_to(f, (target.shape[0],)) for f in fk])
    # A sheared bone's x axis (rotation + shear x) is what points where the solve says.
    given_up = sheared_bones(pose, chains[0], mix) if one else None
    aimed = ik.angles.T if given_up is None else ik.angles.T - given_up
    turns = np.asarray(shifts, float)  # (B,) or, where uneven, (B, N)
    turns = turns[:, None] if turns.ndim == 1 else turns
    if mirror is not None:
        solved = mirrored_rotations(aimed, fk_rows, np.broadcast_to(turns, fk_rows.shape), mix, mirror)
    else:
        solved = fk_rows + mix * wrap_angle(aimed - fk_rows)
        if turned:  # from segments back to the bones' own frames
            solved = solved - turns
    if flat is not None:
        solved = np.stack([solved[0], collapsed_rotation(solved[1], flat, mix)])
    rotation = list(solved)
    stretching = flag_at(chains[0], "stretch", frames) if one else None  # (keyed or set up)
    spine = one and bool(stretching.any())
    if spine:  # Spine's stretch: the first bone's frame scales (see spine_stretch)
        stretch = np.where(stretching, 1.0 + mix * (spine_stretch(solve_target, reach if flat is None else
                                                                  np.where(flat, 1.0, reach)) - 1.0), 1.0)
        if flat is not None:  # (Spine's one-bone aim there stretches by a length of 0: not at all)
            stretch = np.where(flat, 1.0, stretch)
        if uneven is not None:  # Spine does not stretch an unevenly scaled chain
            stretch = np.where(uneven[0], 1.0, stretch)
        k = pose.column[chains[0].bones[0]]
        own = pose.scale[k]  # the bone's own scale, times the stretch
        pose.scale[k] = pair(own[:, 0] * stretch, own[:, 1] * (stretch if "uniform" in chains[0].spine_scale else 1.0))
    else:
        stretch = 1.0 + mix * (ik.stretch - 1.0)
    shift = mix[:, None] * ik.root_offset
    for k, chain in enumerate(chains):
        cut = rows_of(k, n, len(chains))
        stretched = cut(stretch)  # (one array for the chain's bones: chain_fk sees them alike)
        for bone, angle in zip(chain.bones, rotation):
            pose.rotation[pose.column[bone]] = cut(angle)
            if not spine:
                pose.stretch[pose.column[bone]] = stretched
        pose.shift[pose.column[chain.bones[0]]] = cut(shift)
    # Where the IK pose is shown whole (mix 1), forward kinematics takes the bones'
    # directions from the solver instead of computing sin and cos of the angles again.
    # Chosen frame by frame: a frame comes out the same evaluated alone or in a range.
    directions = None
    if ik.directions is not None and not turned and not spine and given_up is None and mirror is None:
        full = mix == 1.0
        if full.all():
            directions = ik.directions
        elif full.any():
            directions = [(np.where(full, cos, np.cos(r)), np.where(full, sin, np.sin(r)))
                          for r, (cos, sin) in zip(rotation, ik.directions)]
    worlds = pose.place_chains([c.bones for c in chains], n, directions)

    tip = worlds[-1]
    # Spine's stretch scales the tip bone's frame (inherited); RigEditor's its length.
    length = rows([ls[-1] for ls in lengths], n) * (1.0 if spine else stretch) * (0.0 if point else 1.0)  # a point's end: its joint
    end_world = pair(tip.a * length + tip.tx, tip.c * length + tip.ty)
    end = to_shoulder.apply(end_world)
    rx, ry = end[:, 0] - target[:, 0], end[:, 1] - target[:, 1]
    residual = np.sqrt(rx * rx + ry * ry)
    # The side of a chain's bend: the sign of its joints' total turn after the first.
    # (A running sum, as sum() adds: one call for all joints.)
    curl = (np.cumsum(solved[1:], axis=0)[-1] if len(rotation) > 1 else 0) + sum(shifts[1:])  # the segments' turn, not the bones'
    if mirror is not None:
        curl = mirrored_curl(solved, np.broadcast_to(turns, solved.shape), mirror)
    if given_up is not None:
        curl = curl + given_up[1:].sum(axis=0)
    side = np.sign(np.where(np.abs(curl) > 1e-6, curl, 0.0))
    m = target.shape[0]
    hold = np.zeros(m, dtype=bool)
    drift, world_motion = np.zeros(m), np.zeros(m)
    if n > 1:  # each frame compares with the one before (a frame alone has none)
        declared, codes, _, _, declared_space = resolved[0]
        hold[1:] = np.all(declared[1:] == declared[:-1], axis=1) & (codes[1:] == codes[:-1])
        # Held target: the end should hold still in the target's own space (drift: a
        # solver or space bug if not); its world motion is foot sliding for a planted
        # foot, and riding along for a hand on a hip.
        drift[1:] = _step_length(declared_space.inverse().apply(end_world))
        world_motion[1:] = _step_length(end_world)
        drift, world_motion = np.where(hold, drift, 0.0), np.where(hold, world_motion, 0.0)
    # The side the solve means to bend to: the saved one unless the limits exclude it.
    meant = np.where(ik.bend_overridden, -bend, bend)
    flip = elbow_flips(side, meant) if solver == "analytic" and n > 1 else np.zeros(m, dtype=bool)
    elbow_world = worlds[1].translation()
    elbow = to_shoulder.apply(elbow_world)
    shoulder_world = worlds[0].translation()
    inner, outer = ik.reach
    # An analytic solve lands to rounding; an iterative one to its tolerance.
    tolerance = 1e-7 * outer if solver == "analytic" else chains[0].tolerance
    distance, own = ik.distance, None
    if quadratic is not None:  # the raw distance; the solver's agreement with its own target
        distance = np.where(quadratic, raw, ik.distance)
        ox, oy = end[:, 0] - solve_target[:, 0], end[:, 1] - solve_target[:, 1]
        own = np.sqrt(ox * ox + oy * oy)
    cause = classify(residual, ik.residual, distance, inner, outer, soft, ik.limited, mix,
                     ~ik.converged, tolerance=tolerance,
                     rounding=rounding_bound(outer, distance, shoulder_world), own=own)
    if sheared_by is not None:  # the end Spine's sheared reach leaves off the target: said
        cause = np.where((sheared_by != 1.0) & (mix > 0) & (cause == CAUSES.index("unexplained")),
                         CAUSES.index("sheared"), cause).astype(cause.dtype)
    shoulder = ik.root_offset * mix[:, None]
    table = dict(
        residual=residual, cause=cause, limited=ik.limited, stretch=stretch, root_offset=shoulder,
        sensitivity=ik.sensitivity, distance=distance, solve_distance=ik.solve_distance, bend=bend,
        side=side, flip=flip, bend_overridden=ik.bend_overridden, iterations=ik.iterations,
        converged=cause != _CAUSE["unexplained"], hold=hold, hold_drift=drift,
        hold_world_motion=world_motion, target_world=target_world, target_shoulder=target,
        warm=None if solver == "analytic" else warm_rows(start, ik.angles),
        end_world=end_world, elbow_world=elbow_world,
        ghost_elbow_world=to_world.apply(_mirror_elbow(elbow - shoulder, end - shoulder) + shoulder),
        shoulder_world=shoulder_world, softness=soft,
    )
    for value in table.values():
        if value is not None:
            frozen(value)  # views of the rows below are read-only too
    if one:
        declared, codes = resolved[0][:2]
        return [ChainBake(name=chains[0].name, **table, target_declared=frozen(declared),
                          target_space=frozen(codes), shoulder_to_world=to_world, reach=_reach(ik.reach))]
    out = []
    for k, (chain, ls, (declared, codes, *_)) in enumerate(zip(chains, lengths, resolved)):
        cut = slice(k * n, (k + 1) * n)
        out.append(ChainBake(
            name=chain.name, **{name: None if value is None else value[cut] for name, value in table.items()},
            target_declared=frozen(declared), target_space=frozen(codes),
            shoulder_to_world=to_world.take(cut), reach=(abs(ls[0] - ls[1]), ls[0] + ls[1]),
        ))
    return out


def _reach(reach):
    """A lone chain's (inner, outer) reach as floats. Scaled bones make it per frame:
    then the first frame's (the frame an editor's one-frame evaluation shows)."""
    return tuple(float(np.ravel(r)[0]) for r in reach)


def spine_stretch(target, reach):
    """Spine's stretch factor of a chain's first bone frame: distance / reach where the
    target (shoulder space, after any soft reach) lies beyond ``reach``, else 1."""
    d = np.sqrt(target[:, 0] * target[:, 0] + target[:, 1] * target[:, 1])
    return np.where(d > reach, d / reach, 1.0)


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
