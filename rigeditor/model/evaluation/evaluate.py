"""evaluate(project, frames) -> Bake: the only way a pose comes to exist.

Order, for all frames at once: sample tracks -> forward kinematics -> for each chain
(by order, then parents first): resolve its target from its declared space, smooth it there, carry it
into the shoulder space -> solve (soft reach, limits, strategy) -> mix with FK ->
forward kinematics of everything below -> transform and physics constraints in their
order (constraints.transform, constraints.physics: stepped from the timeline's start)
-> residual, cause, flags, sensitivity.
"""
from __future__ import annotations

from dataclasses import replace
from collections.abc import Iterable

import numpy as np

from rigeditor.core.blocks import run_tasks
from rigeditor.core.geometry import Affine, pair, rows
from rigeditor.model.evaluation.art_bake import with_art
from rigeditor.model.evaluation.bake import CAUSES, Bake, BoneBake, frozen
from rigeditor.model.evaluation.kinematics import ROWS_BELOW, ROWS_MIN, Pose, bone_order, fk_rotation, fk_rotations
from rigeditor.model.evaluation.world_angles import world_rotations
from rigeditor.model.evaluation.chain_order import carried, solve_order, waves
from rigeditor.model.data.path_constraint import PathConstraint
from rigeditor.model.data.project import CHARACTER, Chain, Project
from rigeditor.model.data.ik_flags import scaling
from rigeditor.model.evaluation.constraints.ik import group_chains, solve_chains
from rigeditor.model.evaluation.constraints.ik_applied import applied_bones, start_from_applied
from rigeditor.model.evaluation.constraints.path import apply_paths
from rigeditor.model.evaluation.constraints.ik_warm import ITERATIVE, first_warm
from rigeditor.model.evaluation.constraints.transform import Applied, apply_transforms
from rigeditor.model.evaluation.constraints.physics import apply_physics
from rigeditor.model.evaluation.constraints.placement import below, kept, place_below
from rigeditor.model.evaluation.skin_constraints import skin_applied
from rigeditor.model.data.physics import PhysicsConstraint
from rigeditor.model.evaluation.spaces import space_transforms

PARALLEL_FRAMES = 512  # below this many frames chains are solved one after the other


def evaluate(project: Project, frames=None, *, previous: Bake | None = None,
             changed: Iterable[str] | None = None) -> Bake:
    """Evaluate ``project`` at ``frames`` (default: the timeline's range).

    Incremental update: pass the ``previous`` bake of the same project structure and
    frames, and ``changed``, the items edited since, as "target:NAME", "chain:NAME"
    or "bone:NAME" (its rotation, rest pose or length; not its parent). Only the bones
    below an edited bone and the chains that depend on the edits (and chains below
    those) are evaluated again; the result equals a full evaluation exactly. Any other
    change (spaces, timeline, adding, removing or reparenting items) needs a full
    evaluation: pass None.
    """
    project = skin_applied(project)  # (a constraint no active skin brings: at mix 0)
    frames = project.timeline.frames if frames is None else np.asarray(frames, dtype=float)
    order = bone_order(project)
    chains = solve_order(project, project.chains, order)
    dirty, fk_bones = _dirty(project, chains, order, frames, previous, changed)

    stages = _stages(project, chains)
    if dirty is None:
        spaces = space_transforms(project, frames)
        pose = Pose(project, order, frames.shape[0], spaces[CHARACTER], frames)
        pose.rotation = fk_rotations(project, order, frames)
        if len(stages) > 2 or (stages and not isinstance(stages[0][0], Chain) and chains) or \
                carried(project, chains):
            # A transform constraint runs before a chain (it may read or move bones the
            # chain drives), or a chain before one above it (it starts from that one's
            # keyed pose): every bone is placed first.
            pose.update([b.name for b in project.children(None)])
        else:
            # Bones a chain drives are placed when their chain is solved, not twice.
            firsts = {c.bones[0] for c in chains}
            pose.update([b.name for b in project.children(None) if b.name not in firsts], stop_at=firsts)
        results = {}
        todo = chains
    else:
        spaces = previous.spaces
        pose = Pose(project, order, frames.shape[0], spaces[CHARACTER], frames, previous.bone_bakes, set(fk_bones))
        # Start from the previous bake's arrays (shared, read-only); the pose only
        # ever replaces them.
        pose.rotation = [b.local_rotation for b in previous.bone_bakes]
        pose.stretch = [b.stretch for b in previous.bone_bakes]
        pose.shift = [b.shift for b in previous.bone_bakes]
        pose.world = [b.world for b in previous.bone_bakes]
        results = dict(previous.chains)
        todo = [c for c in chains if c.name in dirty]
        if fk_bones:
            driven = {b for c in chains for b in c.bones}
            for name in fk_bones:
                if name not in driven:
                    pose.rotation[pose.column[name]] = fk_rotation(project.bone(name), frames)
            pose.update([b for b in fk_bones if b not in driven], stop_at={c.bones[0] for c in chains})

    n = frames.shape[0]

    def fk_of(name):
        # A full evaluation's pose starts from every bone's FK rotation, and a chain
        # replaces only its own bones' after this; an incremental one starts from the
        # previous bake's (solved) rotations. A bone an earlier constraint turned starts
        # from what that left it (Spine's IK mixes from the applied pose).
        if name in applied.set or name in applied.moved:
            return applied.of(name)[2]
        return pose.rotation[pose.column[name]] if dirty is None else fk_rotation(project.bone(name), frames)

    solved: set[str] = set()  # bones a chain solved so far (waves run one after another)

    def solve(group):
        if len(group) > 1 and applied_bones(applied, group):  # their own start: each alone
            return [bake for chain in group for bake in solve([chain])]
        fk = [rows([fk_of(c.bones[i]) for c in group], n) for i in range(len(group[0].bones))]
        # Reset what an earlier solve of these chains left, so a partial update starts
        # from the same state as a full evaluation; but a chain on bones an earlier
        # chain solved this evaluation starts from that solve, stretch and all (Spine's
        # IK starts from the applied pose; such a rig evaluates in full: carried).
        for chain in group:
            if solved.isdisjoint(chain.bones):
                for b in chain.bones:  # (an uneven chain shifts its child: ik_uneven)
                    pose.stretch[pose.column[b]] = pose.ones
                    pose.shift[pose.column[b]] = pose.zeros
                if scaling(chain):  # Spine's stretch scaled the first bone's frame
                    pose.reset_scale(chain.bones[0])
            solved.update(chain.bones)
            start_from_applied(pose, applied, chain, frames)  # (an earlier constraint's values)
        warm = first_warm(project, group[0], frames, previous) if group[0].solver in ITERATIVE else None
        return solve_chains(project, group, pose, spaces, frames, fk, warm)

    # Chains of one wave drive disjoint subtrees whose parents are already placed,
    # so they are solved side by side; a chain below another waits for it.
    # A short range is cheaper solved inline than handed to the threads, and at a
    # single frame alike chains are solved together as rows (see solve_chain).
    run = run_tasks if n >= PARALLEL_FRAMES else (lambda fn, items: [fn(x) for x in items])
    applied = Applied(pose)
    # A constraint sets world frames, so no world angle is a sum of local ones: read
    # every angle off the transforms (the same whether the constraints run again or,
    # incrementally, their results are kept).
    pose.constrained = bool(stages)
    for stage in stages or [[]]:
        if dirty is not None and stage and not isinstance(stage[0], Chain):
            continue  # a constraint the edit does not meet: its result is in the previous bake (_dirty)
        if stage and isinstance(stage[0], PathConstraint):
            apply_paths(project, pose, frames, stage, applied)
            continue
        if stage and isinstance(stage[0], PhysicsConstraint):  # stepped from the start (sequential)
            apply_physics(project, pose, frames, stage, applied, evaluate)
            continue
        if stage and not isinstance(stage[0], Chain):  # transform constraints
            apply_transforms(project, pose, frames, stage, applied)
            continue
        names = {c.name for c in stage}
        held = _held_below(project, stage, applied) if stage else None
        before, pose.touched = pose.touched, set()
        for wave in waves(project, [c for c in todo if c.name in names] if stages else todo):
            groups = group_chains(project, wave, n)
            for group, bakes in zip(groups, run(solve, groups)):
                for chain, result in zip(group, bakes):
                    results[chain.name] = result
        applied.forget(pose.touched)  # placed again by a chain: their own local values
        if held is not None:  # ... but what an earlier constraint did below the chains stays
            place_below(pose, applied, *held)
        pose.touched |= before

    bake = _bake(project, order, frames, pose, spaces, {c.name: results[c.name] for c in chains},
                 None if dirty is None else previous)
    if stages or carried(project, chains):
        bake = _moved_by_constraints(project, stages, bake, None if dirty is None else previous, chains)
    return with_art(project, bake, None if dirty is None else previous)  # images ride the bones: bake.art


def _held_below(project, stage, applied):
    """(the bones below the chains of ``stage``, the local values earlier constraints
    left those of them they moved), or None when there are none. Spine places the bones
    below a constrained bone again from their applied pose, so a bone an earlier
    transform, path or physics constraint moved keeps that (relative to its parent)
    when a later chain moves its ancestors. Read before the chains move; a bone with a
    chain of the stage below it is left to its own values (that chain is solved from
    where it is placed)."""
    if not applied.set and not applied.moved:  # (no constraint has run yet: a drag's usual case)
        return None
    driven = [b for c in stage for b in c.bones]
    under = below(project, driven)
    held = {d: v for d, v in kept(applied, under).items() if _descendants(project, [d]).isdisjoint(driven)}
    return (under, held) if held else None


def _moved_by_constraints(project, stages, bake, previous=None, chains=()):
    """``bake`` with the truth about chains that a later constraint (transform, path,
    physics) moved: where the chain's end no longer sits where its solve left it (beyond
    the chain's tolerance), its residual is measured where the end is now (in the
    shoulder space it was solved in) and its cause is ``constraint``. ``previous``: an
    incremental evaluation's starting Bake; a chain it holds as it was, with its tip
    bone as it was, was measured there already. ``chains``: in solve order (a chain
    a later chain carries is measured alike)."""
    later, after = set(carried(project, list(chains))), False
    for stage in reversed(stages):
        if stage and isinstance(stage[0], Chain):
            if after:
                later.update(c.name for c in stage)
        elif stage:
            after = True
    if not later:
        return bake
    chains = dict(bake.chains)
    for name in later:
        cb, chain = chains[name], project.chain(name)
        if previous is not None and cb is previous.chains.get(name) and \
                bake.bone(chain.bones[-1]) is previous.bone(chain.bones[-1]):
            continue
        tip = np.broadcast_to(bake.bone(chain.bones[-1]).tip, cb.end_world.shape)
        moved = np.hypot(*(tip - cb.end_world).T)
        off = moved > max(chain.tolerance, 1e-9 * (cb.reach[1] + 1.0))
        if not off.any():
            continue
        to_shoulder = cb.shoulder_to_world.inverse()
        residual = np.hypot(*(to_shoulder.apply(tip) - cb.target_shoulder).T)
        chains[name] = replace(cb, residual=frozen(np.where(off, residual, cb.residual)),
                               cause=frozen(np.where(off, CAUSES.index("constraint"), cb.cause).astype(cb.cause.dtype)),
                               end_world=frozen(np.where(off[:, None], tip, cb.end_world)))
    return replace(bake, chains=chains)


_stage_cache: dict[tuple, tuple] = {}


def _stages(project: Project, chains) -> list[list]:
    """:func:`constraint_stages` of ``project`` (``chains`` in dependency order),
    remembered per tuple of bones, chains and constraints (read-only: not changed)."""
    parts = (project.bones, project.chains, project.transforms, project.paths, project.physics)
    key = tuple(map(id, parts))
    hit = _stage_cache.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], parts)):
        return hit[1]
    stages = constraint_stages(chains, project.transforms, project.paths, project.physics)
    if len(_stage_cache) > 64:
        _stage_cache.clear()
    _stage_cache[key] = (parts, stages)
    return stages


def constraint_stages(chains, transforms, paths=(), physics=()) -> list[list]:
    """The order constraints run in, as stages: runs of chains (solved parents first,
    in waves), of transform, of path and of physics constraints, by ``order`` as Spine
    sorts them (of one order: a chain, a transform, a path, then a physics constraint).
    [] without transform, path or physics constraints: the chains alone."""
    if not transforms and not paths and not physics:
        return []
    entries = sorted([(c.order, 0, i, c) for i, c in enumerate(chains)]
                     + [(t.order, 1, i, t) for i, t in enumerate(transforms)]
                     + [(p.order, 2, i, p) for i, p in enumerate(paths)]
                     + [(p.order, 3, i, p) for i, p in enumerate(physics)], key=lambda e: e[:3])
    stages: list[list] = []
    last = None
    for _, kind, _, item in entries:
        if stages and kind == last:
            stages[-1].append(item)
        else:
            stages.append([item])
        last = kind
    # chains of a run keep their dependency order (parents first)
    return [sorted(s, key=chains.index) if isinstance(s[0], Chain) else s for s in stages]


def _dirty(project, chains, order, frames, previous, changed):
    """(chains to solve again, bones whose FK changed), or (None, None) for a full
    evaluation."""
    if previous is None or changed is None or project.physics:
        return None, None  # physics: a frame depends on every frame before it
    if carried(project, chains):
        return None, None  # a chain solved before one above it: it reads that one's keyed pose
    if (previous.bones != tuple(order) or list(previous.chains) != [c.name for c in chains]
            or previous.frames.shape != frames.shape or not np.array_equal(previous.frames, frames)):
        return None, None
    dirty, fk_bones = _affected(project, chains, order, changed)
    if dirty is None:
        return None, None
    # The bones the edit moves: the dirty chains' bones, the edited bones, all below.
    moved = {b for c in chains if c.name in dirty for b in c.bones} | set(fk_bones)
    moved |= _descendants(project, moved)
    if (project.transforms or project.paths) and _meets_constraints(project, moved):
        return None, None
    if len(moved) == len(order):
        # The edit moves every bone (a tail's one chain): nothing is kept, and a full
        # evaluation does the same work without the incremental start's bookkeeping
        # (a 50-bone FABRIK tail's frame 1.5 -> 1.27 ms; the same result either way).
        return None, None
    return dirty, fk_bones


def _meets_constraints(project, moved: set) -> bool:
    """True when a transform or path constraint reads or moves a bone of ``moved``
    (what the edit moves). Else each constraint's result in the previous bake still
    holds: it reads only bones that did not move and moves only bones the edit does
    not evaluate again."""
    for t in project.transforms:
        if t.target in moved or not moved.isdisjoint(t.bones):
            return True
        if not moved.isdisjoint(_descendants(project, t.bones)):
            return True
    for c in project.paths:
        slot = project.art.slot(c.target) if c.target in {s.name for s in project.art.slots} else None
        reads = set() if slot is None else {slot.bone, *(b for p in slot.paths for b in p.bones)}
        if not moved.isdisjoint(reads) or not moved.isdisjoint(c.bones):
            return True
        if not moved.isdisjoint(_descendants(project, c.bones)):
            return True
    return False


def _affected(project, chains, order, changed):
    """(names of the chains ``changed`` makes dirty, bones whose FK it changed), or
    (None, None) for a change that needs a full evaluation."""
    dirty: set[str] = set()
    bones: list[str] = []
    for item in changed:
        kind, _, name = item.partition(":")
        if kind == "target":
            dirty.update(c.name for c in chains if c.target == name)
        elif kind == "chain":
            dirty.add(name)
        elif kind == "bone":
            bones.append(name)
            moved = {name} | _descendants(project, [name])
            dirty.update(c.name for c in chains if moved & set(c.bones))
        else:
            return None, None
    # A chain below a dirty chain's bones moves with them: solve it again too.
    below = set()
    for c in chains:
        if c.name in dirty:
            below.update(_descendants(project, c.bones))
    dirty.update(c.name for c in chains if c.bones[0] in below)
    return dirty, [b for b in order if b in bones]


def frame_local(project: Project, changed: Iterable[str] | None) -> bool:
    """True when the edit ``changed`` (as for :func:`evaluate`) can be evaluated at
    single frames exactly: every chain it touches solves each frame on its own
    (analytic, or iterative warm-started from the frame before's solution as the
    previous range left it: ``ik_warm``; no target smoothing, no smoothed root
    offset). Then an incremental evaluation of one frame equals that frame of a full
    evaluation (its per-frame diagnostics that compare with the frame before, hold and
    flip, excepted; an iterative chain's inner joints where the edit moved the frame
    before, see ``ik_warm``)."""
    if changed is None or project.physics:
        return False  # physics: a frame depends on every frame before it
    order = bone_order(project)
    chains = solve_order(project, project.chains, order)
    dirty, _ = _affected(project, chains, order, changed)
    if dirty is None:
        return False
    for name in dirty:
        c = project.chain(name)
        if (c.solver not in ("analytic", *ITERATIVE) or c.smoothing.kind != "none"
                or (c.strategy.kind == "move_root" and c.strategy.root_time_constant > 0)):
            return False
    return True


_below: dict[tuple, tuple] = {}


def _descendants(project, names) -> frozenset:
    """Every bone below ``names`` (remembered per tuple of bones: a drag asks the same
    on every move)."""
    key = (id(project.bones), frozenset(names))
    hit = _below.get(key)
    if hit is not None and hit[0] is project.bones:
        return hit[1]
    out, stack = set(), list(names)
    while stack:
        for child in project.children(stack.pop()):
            if child.name not in out:
                out.add(child.name)
                stack.append(child.name)
    if len(_below) > 1024:
        _below.clear()
    _below[key] = (project.bones, frozenset(out))
    return _below[key][1]


def _bake(project, order, frames, pose, spaces, chains, previous=None) -> Bake:
    """Assemble the Bake; with ``previous``, share its items for every bone this
    evaluation did not touch."""
    if previous is None:
        cols = range(len(order))
    else:
        cols = [pose.column[b] for b in order if b in pose.touched]
    n = frames.shape[0]
    # Many bones over a short range are assembled at once, as rows (geometry.rows); a
    # long range bone by bone, so each bone keeps its own arrays and nothing is copied.
    # A bone's rows are views of one buffer per field, alive while any of its bones is:
    # so an incremental range goes bone by bone too, or the bones an edit leaves alone
    # would keep every earlier edit's buffers alive (posing a tail root to tip: one
    # bake's memory per edit). A whole bake's buffers, or a frame's, are kept once.
    as_rows = n < ROWS_BELOW and len(cols) >= ROWS_MIN and (previous is None or n == 1)
    world_rotation = world_rotations(project, order, pose, cols, as_rows=as_rows,
                                     previous=lambda k: previous.bone_bakes[k].world_rotation)
    items = list(previous.bone_bakes) if previous is not None else [None] * len(order)
    for chunk in ([list(cols)] if as_rows else [[k] for k in cols]):
        count = len(chunk)
        w = Affine.rows([pose.world[k] for k in chunk], n)
        stretch = rows([pose.stretch[k] for k in chunk], n)
        length = rows([project.bone(order[k]).length for k in chunk], n) * stretch
        table = dict(
            local_rotation=rows([pose.rotation[k] for k in chunk], n),
            world_rotation=rows([world_rotation[k] for k in chunk], n),
            joint=pair(w.tx, w.ty),
            tip=pair(w.a * length + w.tx, w.c * length + w.ty),
            stretch=stretch,
            shift=rows([pose.shift[k] for k in chunk], n),
            translate=rows([pose.translate[k] for k in chunk], n),
            scale=rows([pose.scale[k] for k in chunk], n),
        )
        for value in (*table.values(), *w.fields()):
            frozen(value)  # views of the rows below are read-only too
        if count == 1:
            items[chunk[0]] = BoneBake(**table, world=w)
            continue
        # Each bone's rows as views, split per field in one call (cheaper than a slice
        # per bone and field at one frame).
        names = list(table)
        split = [list(value.reshape((count, n) + value.shape[1:])) for value in table.values()]
        worlds = [list(np.broadcast_to(f, (count * n,)).reshape(count, n)) for f in w.fields()]
        for k, values, world in zip(chunk, zip(*split), zip(*worlds)):
            items[k] = BoneBake.of(dict(zip(names, values)), Affine(*world))
    return Bake(
        frames=frozen(frames.copy()),
        fps=float(project.timeline.fps),
        bones=tuple(order),
        bone_bakes=tuple(items),
        spaces=spaces,
        chains=chains,
    )
