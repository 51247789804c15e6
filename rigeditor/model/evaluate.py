"""evaluate(project, frames) -> Bake: the only way a pose comes to exist.

Order, for all frames at once: sample tracks -> forward kinematics -> for each chain
(parents first): resolve its target from its declared space, smooth it there, carry it
into the shoulder space -> solve (soft reach, limits, strategy) -> mix with FK ->
forward kinematics of everything below -> residual, cause, flags, sensitivity.
"""
from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from rigeditor.core.blocks import run_tasks
from rigeditor.core.geometry import Affine
from rigeditor.model.art_bake import with_art
from rigeditor.model.bake import Bake, frozen
from rigeditor.model.kinematics import Pose, bone_order, fk_rotations
from rigeditor.model.project import CHARACTER, Project
from rigeditor.model.solve_chain import solve_chain
from rigeditor.model.spaces import space_transforms


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
    frames = project.timeline.frames if frames is None else np.asarray(frames, dtype=float)
    order = bone_order(project)
    chains = sorted(project.chains, key=lambda c: order.index(c.bones[0]))
    dirty, fk_bones = _dirty(project, chains, order, frames, previous, changed)

    if dirty is None:
        spaces = space_transforms(project, frames)
        pose = Pose(project, order, frames.shape[0], spaces[CHARACTER], frames)
        pose.rotation[:] = fk_rotations(project, order, frames)
        # Bones a chain drives are placed when their chain is solved, not twice.
        pose.update([b.name for b in project.children(None)], stop_at={c.bones[0] for c in chains})
        results = {}
        todo = chains
    else:
        spaces = previous.spaces
        pose = Pose(project, order, frames.shape[0], spaces[CHARACTER], frames)
        pose.rotation[:] = previous.local_rotation
        pose.stretch[:] = previous.stretch
        pose.shift[:] = previous.shift
        pose.world = [previous.bone_world.take((slice(None), k)) for k in range(len(order))]
        results = dict(previous.chains)
        todo = [c for c in chains if c.name in dirty]
        if fk_bones:
            driven = {b for c in chains for b in c.bones}
            for name in fk_bones:
                if name not in driven:
                    bone = project.bone(name)
                    pose.rotation[:, pose.column[name]] = bone.rest_rotation + bone.rotation.sample(frames)[:, 0]
            pose.update([b for b in fk_bones if b not in driven], stop_at={c.bones[0] for c in chains})

    def solve(chain):
        cols = [pose.column[b] for b in chain.bones]
        fk = np.stack([project.bone(b).rest_rotation + project.bone(b).rotation.sample(frames)[:, 0]
                       for b in chain.bones], axis=-1)
        # Reset what an earlier solve of this chain left, so a partial update starts
        # from the same state as a full evaluation.
        pose.stretch[:, cols] = 1.0
        pose.shift[:, cols[0]] = 0.0
        return solve_chain(project, chain, pose, spaces, frames, fk)

    # Chains of one wave drive disjoint subtrees whose parents are already placed,
    # so they are solved side by side; a chain below another waits for it.
    for wave in _waves(project, todo):
        for chain, result in zip(wave, run_tasks(solve, wave)):
            results[chain.name] = result

    bake = _bake(project, order, frames, pose, spaces, {c.name: results[c.name] for c in chains},
                 None if dirty is None else previous)
    return with_art(project, bake)  # images ride the bones: bake.art


def _waves(project, chains):
    """Group chains (in dependency order) so none depends on another of its group."""
    waves: list[list] = []
    level: dict[str, int] = {}
    for chain in chains:
        above = _ancestors(project, chain.bones[0])
        depth = max((level[c.name] + 1 for c in chains[:chains.index(chain)]
                     if c.name in level and above & set(c.bones)), default=0)
        level[chain.name] = depth
        while len(waves) <= depth:
            waves.append([])
        waves[depth].append(chain)
    return waves


def _ancestors(project, bone):
    out, parent = set(), project.bone(bone).parent
    while parent is not None:
        out.add(parent)
        parent = project.bone(parent).parent
    return out


def _dirty(project, chains, order, frames, previous, changed):
    """(chains to solve again, bones whose FK changed), or (None, None) for a full
    evaluation."""
    if previous is None or changed is None:
        return None, None
    if (previous.bones != tuple(order) or list(previous.chains) != [c.name for c in chains]
            or previous.frames.shape != frames.shape or not np.array_equal(previous.frames, frames)):
        return None, None
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
        world_rotation, joints, tips = np.empty((n, nb)), np.empty((n, nb, 2)), np.empty((n, nb, 2))
    else:
        cols = [pose.column[b] for b in order if b in pose.touched]
        fields = [f.copy() for f in previous.bone_world.fields()]
        world_rotation = previous.world_rotation.copy()
        joints, tips = previous.joint_world.copy(), previous.tip_world.copy()
    for k in cols:
        w = pose.world[k]
        for arr, v in zip(fields, w.fields()):
            arr[:, k] = v
        world_rotation[:, k] = np.arctan2(w.c, w.a)
        joints[:, k, 0], joints[:, k, 1] = w.tx, w.ty
        length = project.bone(order[k]).length * pose.stretch[:, k]
        tips[:, k, 0] = w.a * length + w.tx
        tips[:, k, 1] = w.c * length + w.ty
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
        translate=frozen(pose.translate),
        scale=frozen(pose.scale),
        bone_world=Affine(*(frozen(f) for f in fields)),
        spaces=spaces,
        chains=chains,
    )
