"""evaluate(project, frames) -> Bake: the only way a pose comes to exist.

Order, for all frames at once: sample tracks -> forward kinematics -> for each chain
(parents first): resolve its target from its declared space, smooth it there, carry it
into the shoulder space -> solve (soft reach, limits, strategy) -> mix with FK ->
forward kinematics of everything below -> residual, cause, flags, sensitivity.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from rigeditor.core.geometry import Affine
from rigeditor.model.bake import Bake, frozen
from rigeditor.model.kinematics import Pose, bone_order, fk_rotations
from rigeditor.model.project import CHARACTER, Project
from rigeditor.model.solve_chain import solve_chain
from rigeditor.model.spaces import space_transforms


def evaluate(project: Project, frames=None, *, previous: Bake | None = None,
             changed: Iterable[str] | None = None) -> Bake:
    """Evaluate ``project`` at ``frames`` (default: the timeline's range).

    Incremental update: pass the ``previous`` bake of the same project structure and
    frames, and ``changed``, the items edited since, as "target:NAME" or "chain:NAME".
    Only the chains that depend on them (and chains below those) are solved again;
    the result equals a full evaluation exactly. Any other kind of change (bones,
    spaces, timeline, adding or removing items) needs a full evaluation: pass None.
    """
    frames = project.timeline.frames if frames is None else np.asarray(frames, dtype=float)
    order = bone_order(project)
    chains = sorted(project.chains, key=lambda c: order.index(c.bones[0]))
    dirty = _dirty(project, chains, order, frames, previous, changed)

    if dirty is None:
        spaces = space_transforms(project, frames)
        pose = Pose(project, order, frames.shape[0], spaces[CHARACTER])
        pose.rotation[:] = fk_rotations(project, order, frames)
        # Bones a chain drives are placed when their chain is solved, not twice.
        pose.update([b.name for b in project.children(None)], stop_at={c.bones[0] for c in chains})
        results = {}
        todo = chains
    else:
        spaces = previous.spaces
        pose = Pose(project, order, frames.shape[0], spaces[CHARACTER])
        pose.rotation[:] = previous.local_rotation
        pose.stretch[:] = previous.stretch
        pose.shift[:] = previous.shift
        pose.world = [previous.bone_world.take((slice(None), k)) for k in range(len(order))]
        results = dict(previous.chains)
        todo = [c for c in chains if c.name in dirty]

    for chain in todo:
        cols = [pose.column[b] for b in chain.bones]
        fk = np.stack([project.bone(b).rest_rotation + project.bone(b).rotation.sample(frames)[:, 0]
                       for b in chain.bones], axis=-1)
        # Reset what an earlier solve of this chain left, so a partial update starts
        # from the same state as a full evaluation.
        pose.stretch[:, cols] = 1.0
        pose.shift[:, cols[0]] = 0.0
        results[chain.name] = solve_chain(project, chain, pose, spaces, frames, fk)

    return _bake(project, order, frames, pose, spaces, {c.name: results[c.name] for c in chains},
                 None if dirty is None else previous)


def _dirty(project, chains, order, frames, previous, changed):
    """Names of chains to solve again, or None for a full evaluation."""
    if previous is None or changed is None:
        return None
    if (previous.bones != tuple(order) or list(previous.chains) != [c.name for c in chains]
            or previous.frames.shape != frames.shape or not np.array_equal(previous.frames, frames)):
        return None
    dirty: set[str] = set()
    for item in changed:
        kind, _, name = item.partition(":")
        if kind == "target":
            dirty.update(c.name for c in chains if c.target == name)
        elif kind == "chain":
            dirty.add(name)
        else:
            return None
    # A chain below a dirty chain's bones moves with them: solve it again too.
    below = set()
    for c in chains:
        if c.name in dirty:
            below.update(_descendants(project, c.bones))
    dirty.update(c.name for c in chains if c.bones[0] in below)
    return dirty


def _descendants(project, names):
    out, stack = set(), list(names)
    while stack:
        for child in project.children(stack.pop()):
            if child.name not in out:
                out.add(child.name)
                stack.append(child.name)
    return out


def _bake(project, order, frames, pose, spaces, chains, previous=None) -> Bake:
    """Assemble the Bake; with ``previous``, copy its columns and redo only the bones
    this evaluation touched."""
    n, nb = frames.shape[0], len(order)
    if previous is None:
        cols = list(range(nb))
        fields = [np.empty((n, nb)) for _ in range(6)]
        world_rotation = np.empty((n, nb))
    else:
        cols = [pose.column[b] for b in order if b in pose.touched]
        fields = [f.copy() for f in previous.bone_world.fields()]
        world_rotation = previous.world_rotation.copy()
    for k in cols:
        for arr, v in zip(fields, pose.world[k].fields()):
            arr[:, k] = v
        world_rotation[:, k] = np.arctan2(pose.world[k].c, pose.world[k].a)
    world = Affine(*(frozen(f) for f in fields))
    lengths = np.array([project.bone(b).length for b in order]) * pose.stretch
    joints = np.stack([world.tx, world.ty], axis=-1)
    tips = np.stack([world.a * lengths + world.tx, world.c * lengths + world.ty], axis=-1)
    return Bake(
        frames=frozen(frames.copy()),
        fps=float(project.timeline.fps),
        bones=tuple(order),
        local_rotation=frozen(pose.rotation),
        world_rotation=frozen(world_rotation),
        joint_world=frozen(joints),
        tip_world=frozen(tips),
        stretch=frozen(pose.stretch),
        shift=frozen(pose.shift),
        bone_world=world,
        spaces=spaces,
        chains=chains,
    )
