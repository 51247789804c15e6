"""Structural edits of a Project, as pure functions: each takes a Project and returns a
new one (or raises :class:`CommandError` with a message for the user).

Qt-free on purpose: the views call these, then hand the result to ``doc.apply``.
Angles are radians, lengths and positions model units (y-up), like the model.
"""
from __future__ import annotations

import math
import re
from dataclasses import replace

import numpy as np

from rigeditor.core.geometry import Affine
from rigeditor.model.project import CHARACTER, SOLVERS, WORLD, Bone, Chain, Project, Space, Target
from rigeditor.model.timeline import StepChannel, constant

KINDS = ("bone", "chain", "target", "space")


class CommandError(ValueError):
    """An edit that cannot be made; the message is written for the user."""


# ----------------------------------------------------------------------------- names

def names_of(project: Project, kind: str) -> list[str]:
    pool = {"bone": project.bones, "chain": project.chains, "target": project.targets,
            "space": project.spaces}[kind]
    return [x.name for x in pool]


def unique_name(existing, base: str) -> str:
    """``base`` if unused, else ``base_2``, ``base_3``... (an existing number suffix grows)."""
    existing = set(existing)
    if base not in existing:
        return base
    m = re.fullmatch(r"(.*?)_(\d+)", base)
    stem, n = (m.group(1), int(m.group(2))) if m else (base, 1)
    while f"{stem}_{n + 1}" in existing:
        n += 1
    return f"{stem}_{n + 1}"


def _check_new_name(project: Project, kind: str, name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise CommandError(f"A {kind} needs a name.")
    if kind == "space" and name == WORLD:
        raise CommandError(f"'{WORLD}' is reserved for the world space.")
    if name in names_of(project, kind):
        raise CommandError(f"There is already a {kind} named '{name}'.")
    return name


def rename(project: Project, kind: str, old: str, new: str) -> Project:
    """Rename an item and every reference to it.

    bone: children's parent, chains' bone lists. target: chains' target.
    space: child spaces' parent, every target's declared-space track (default and keys).
    chain: nothing refers to a chain.
    """
    if kind not in KINDS:
        raise CommandError(f"Unknown kind {kind!r}.")
    if old not in names_of(project, kind):
        raise CommandError(f"There is no {kind} named '{old}'.")
    if (new or "").strip() == old:
        return project
    if kind == "space" and old == CHARACTER:
        raise CommandError(f"The '{CHARACTER}' space is the rig root; it keeps its name.")
    new = _check_new_name(project, kind, new)

    if kind == "bone":
        bones = tuple(replace(b, name=new if b.name == old else b.name,
                              parent=new if b.parent == old else b.parent) for b in project.bones)
        chains = tuple(replace(c, bones=tuple(new if n == old else n for n in c.bones))
                       for c in project.chains)
        return replace(project, bones=bones, chains=chains)
    if kind == "chain":
        return replace(project, chains=tuple(replace(c, name=new) if c.name == old else c
                                             for c in project.chains))
    if kind == "target":
        targets = tuple(replace(t, name=new) if t.name == old else t for t in project.targets)
        chains = tuple(replace(c, target=new) if c.target == old else c for c in project.chains)
        return replace(project, targets=targets, chains=chains)
    # space
    spaces = tuple(replace(s, name=new if s.name == old else s.name,
                           parent=new if s.parent == old else s.parent) for s in project.spaces)
    targets = tuple(replace(t, space=_renamed_steps(t.space, old, new)) for t in project.targets)
    return replace(project, spaces=spaces, targets=targets)


def _renamed_steps(ch: StepChannel, old: str, new: str) -> StepChannel:
    if ch.default != old and all(v != old for _, v in ch.keys):
        return ch
    return StepChannel(new if ch.default == old else ch.default,
                       tuple((f, new if v == old else v) for f, v in ch.keys))


# ----------------------------------------------------------------------------- bones

def descendants(project: Project, bone: str) -> list[str]:
    """Every bone below ``bone`` (children first, depth first)."""
    out, stack = [], [bone]
    while stack:
        for child in project.children(stack.pop()):
            out.append(child.name)
            stack.append(child.name)
    return out


def add_bone(project: Project, parent: str | None, length: float, angle: float = 0.0, *,
             offset=None, name: str | None = None) -> tuple[Project, str]:
    """Add a bone; returns (project, its name).

    parent: a bone name, or None for a root bone (in character space).
    length: > 0 model units. angle: rest rotation relative to the parent, radians.
    offset: origin in the parent's frame; default the parent's tip ((length, 0)),
    or the character origin for a root bone.
    """
    if parent is not None and parent not in names_of(project, "bone"):
        raise CommandError(f"There is no bone named '{parent}'.")
    if not (math.isfinite(length) and length > 0):
        raise CommandError(f"A bone's length must be a number > 0, got {length!r}.")
    if not math.isfinite(angle):
        raise CommandError(f"A bone's angle must be a finite number, got {angle!r}.")
    if offset is None:
        offset = (project.bone(parent).length, 0.0) if parent is not None else (0.0, 0.0)
    offset = (float(offset[0]), float(offset[1]))
    if not all(math.isfinite(v) for v in offset):
        raise CommandError(f"A bone's offset must be finite, got {offset!r}.")
    if name is None:
        name = unique_name(names_of(project, "bone"), f"{parent}_child" if parent else "bone")
    name = _check_new_name(project, "bone", name)
    bone = Bone(name, parent, float(length), rest_offset=offset, rest_rotation=float(angle))
    return replace(project, bones=project.bones + (bone,)), name


def parent_frame_at(project: Project, bake, row: int, parent: str | None) -> Affine:
    """World transform (one frame) of the frame a child of ``parent`` is measured in:
    the parent bone's frame at ``row`` of ``bake``, or the character space for None."""
    if parent is None:
        return bake.spaces[CHARACTER].take(row)
    return bake.bone_world.take((row, bake.column(parent)))


def add_bone_between(project: Project, bake, row: int, start, end, parent: str | None = None,
                     *, snap_to_tip: bool = False, name: str | None = None) -> tuple[Project, str]:
    """Add a bone drawn from ``start`` to ``end`` (world points at bake row ``row``).

    The bone keeps the drawn place at that frame: its offset and rest rotation are
    measured in the parent's frame there. ``snap_to_tip``: start exactly at the
    parent's tip (a drag that began on that joint), so the two can form an IK chain.
    """
    frame = parent_frame_at(project, bake, row, parent)
    inv = frame.inverse()
    p0 = np.asarray(inv.apply(np.asarray(start, float)), float)
    p1 = np.asarray(inv.apply(np.asarray(end, float)), float)
    if snap_to_tip and parent is not None:
        p0 = np.array([project.bone(parent).length, 0.0])
    d = p1 - p0
    length = float(np.hypot(*d))
    if not length > 1e-6:
        raise CommandError("Drag further to give the bone a length.")
    return add_bone(project, parent, length, float(math.atan2(d[1], d[0])),
                    offset=tuple(map(float, p0)), name=name)


def _rest_frames(project: Project) -> dict[str, Affine]:
    """Each bone's frame in character space in the rest pose (no animation)."""
    out: dict[str, Affine] = {}

    def frame(name):
        if name not in out:
            b = project.bone(name)
            local = Affine.rotation_about_origin(b.rest_rotation, *b.rest_offset)
            out[name] = local if b.parent is None else frame(b.parent).compose(local)
        return out[name]

    for b in project.bones:
        frame(b.name)
    return out


def reparent_bone(project: Project, bone: str, new_parent: str | None, *, keep_place: bool = True) -> Project:
    """Make ``new_parent`` (a bone, or None for the root) the parent of ``bone``.

    keep_place: the bone keeps its rest-pose place in the character (its offset and
    rest rotation are re-expressed in the new parent's frame); else the numbers stay.
    Refused: a cycle (the new parent is the bone or below it), or breaking a chain
    (a bone that is not the first of its chain must stay the previous bone's child).
    """
    names = names_of(project, "bone")
    if bone not in names:
        raise CommandError(f"There is no bone named '{bone}'.")
    if new_parent is not None and new_parent not in names:
        raise CommandError(f"There is no bone named '{new_parent}'.")
    b = project.bone(bone)
    if b.parent == new_parent:
        return project
    if new_parent == bone or new_parent in descendants(project, bone):
        raise CommandError(f"'{new_parent}' is below '{bone}': a bone cannot become its own ancestor.")
    chain = project.chain_of_bone(bone)
    if chain is not None and chain.bones.index(bone) > 0:
        raise CommandError(f"'{bone}' is part of IK chain '{chain.name}' and must stay the child of "
                           f"'{b.parent}'. Delete the chain first, or reparent its first bone.")
    if not keep_place:
        return project.with_bone(bone, parent=new_parent)
    rest = _rest_frames(project)
    parent_frame = Affine.identity() if new_parent is None else rest[new_parent]
    local = parent_frame.inverse().compose(rest[bone])
    offset = (float(local.tx), float(local.ty))
    rotation = float(math.atan2(local.c, local.a))
    return project.with_bone(bone, parent=new_parent, rest_offset=offset, rest_rotation=rotation)


def chains_using_bones(project: Project, bones) -> list[str]:
    bones = set(bones)
    return [c.name for c in project.chains if bones.intersection(c.bones)]


def delete_bone(project: Project, bone: str, *, with_chains: bool = False) -> Project:
    """Delete ``bone`` and every bone below it.

    Chains that drive any of them: refused with a message naming them unless
    ``with_chains``, which deletes those chains too (and their targets when no other
    chain uses them).
    """
    if bone not in names_of(project, "bone"):
        raise CommandError(f"There is no bone named '{bone}'.")
    gone = {bone, *descendants(project, bone)}
    chains = chains_using_bones(project, gone)
    if chains and not with_chains:
        raise CommandError(delete_bone_message(project, bone))
    for c in chains:
        project = delete_chain(project, c)
    return replace(project, bones=tuple(b for b in project.bones if b.name not in gone))


def delete_bone_message(project: Project, bone: str) -> str:
    """What deleting ``bone`` takes with it, for a confirmation or a refusal."""
    below = descendants(project, bone)
    chains = chains_using_bones(project, {bone, *below})
    parts = []
    if below:
        parts.append(f"the bones below it ({', '.join(below)})")
    if chains:
        parts.append(f"IK chain(s) {', '.join(chains)} that drive them")
    if not parts:
        return f"Delete bone '{bone}'."
    return f"Deleting bone '{bone}' also deletes " + " and ".join(parts) + "."


# ----------------------------------------------------------------------------- chains and targets

def default_solver(n_bones: int) -> str:
    """The solver a new chain of ``n_bones`` gets: analytic for two, FABRIK for more."""
    return "analytic" if n_bones == 2 else "fabrik"


def solvers_for(n_bones: int) -> tuple[str, ...]:
    """The solvers a chain of ``n_bones`` may use (analytic drives exactly two)."""
    return SOLVERS if n_bones == 2 else tuple(s for s in SOLVERS if s != "analytic")


def chain_run(project: Project, bones) -> tuple[str, ...]:
    """The selected ``bones`` (any order) as a chain's run, root to tip.

    Refused, with a message for the user, unless there are two or more, they form a
    single parent → child run (no gap, no branch), each starts at its parent's tip,
    and none is already driven by a chain.
    """
    names = list(dict.fromkeys(bones))
    if len(names) < 2:
        raise CommandError("An IK chain needs two or more connected bones: select a parent → child run.")
    known = set(names_of(project, "bone"))
    for n in names:
        if n not in known:
            raise CommandError(f"There is no bone named '{n}'.")
    chosen = set(names)
    starts = [n for n in names if project.bone(n).parent not in chosen]
    if len(starts) != 1:
        if len(names) == 2:
            a, b = names
            raise CommandError(f"An IK chain needs two connected bones: '{a}' and '{b}' are not parent and child.")
        pieces = ", ".join(f"'{n}'" for n in starts) or "nowhere"
        raise CommandError("An IK chain needs one parent → child run of bones, each the child of the "
                           f"previous; the selected bones fall apart into pieces starting at {pieces}.")
    run = [starts[0]]
    while len(run) < len(names):
        kids = [b.name for b in project.children(run[-1]) if b.name in chosen]
        if len(kids) != 1:  # one start and no gap: every chosen bone hangs below it
            raise CommandError(f"'{run[-1]}' has {len(kids)} selected children ({', '.join(kids)}): "
                               "an IK chain is a single run, not a branch.")
        run.append(kids[0])
    for upper_name, lower_name in zip(run, run[1:]):
        upper, lower = project.bone(upper_name), project.bone(lower_name)
        if not (math.isclose(lower.rest_offset[0], upper.length, rel_tol=1e-9)
                and abs(lower.rest_offset[1]) <= 1e-9 * upper.length):
            raise CommandError(f"'{lower.name}' does not start at the tip of '{upper.name}' "
                               f"(offset {tuple(lower.rest_offset)}, tip at ({upper.length:g}, 0)).")
    for n in run:
        c = project.chain_of_bone(n)
        if c is not None:
            raise CommandError(f"'{n}' is already driven by IK chain '{c.name}'.")
    return tuple(run)


def add_chain(project: Project, bones, space: str, frame: int, *, name: str | None = None,
              target: str | None = None, solver: str | None = None) -> tuple[Project, str]:
    """Add an IK chain over ``bones``, a parent → child run given in any order (see
    :func:`chain_run`); returns (project, chain name).

    solver: default analytic for two bones, FABRIK for more (see :func:`default_solver`).
    Its new target sits at the chain's end effector as posed at ``frame`` (so adding
    the chain does not move the bones there), declared in ``space``. The bend starts
    as the side the bones curl to in the rest pose (+1 when straight); from then on it
    is state, never re-derived (the iterative solvers do not use it).
    """
    from rigeditor.model.evaluate import evaluate  # a one-frame evaluation

    if isinstance(bones, str):
        raise CommandError("add_chain takes the chain's bones as a sequence of names.")
    run = chain_run(project, bones)
    solver = default_solver(len(run)) if solver is None else solver
    if solver not in solvers_for(len(run)):
        raise CommandError(_solver_refusal(solver, len(run)))
    if space not in project.space_names():
        raise CommandError(f"There is no space named '{space}'.")
    frames = np.array([float(frame)])
    bake = evaluate(project, frames)
    tip = bake.tip_world[0, bake.column(run[-1])]
    local = bake.spaces[space].take(0).inverse().apply(tip)
    position = tuple(float(v) for v in np.asarray(local).reshape(2))
    if name is None:
        name = unique_name(names_of(project, "chain"), f"{run[0]}_ik")
    name = _check_new_name(project, "chain", name)
    if target is None:
        target = unique_name(names_of(project, "target"), f"{name}_target")
    target = _check_new_name(project, "target", target)
    curl = sum(project.bone(n).rest_rotation for n in run[1:])
    bend = -1.0 if curl < 0 else 1.0
    t = Target(target, StepChannel(space), constant(*position))
    c = Chain(name, run, target, solver=solver, bend=constant(bend))
    return replace(project, targets=project.targets + (t,), chains=project.chains + (c,)), name


def _solver_refusal(solver: str, n_bones: int) -> str:
    if solver not in SOLVERS:
        return f"Unknown solver {solver!r}: choose one of {', '.join(SOLVERS)}."
    return (f"The analytic solver drives exactly two bones; this chain has {n_bones}. "
            "Use FABRIK or CCD.")


def set_chain_solver(project: Project, chain: str, solver: str) -> Project:
    """Switch ``chain`` to ``solver`` ("analytic" only for a two-bone chain)."""
    c = project.chain(chain)
    if solver not in solvers_for(len(c.bones)):
        raise CommandError(_solver_refusal(solver, len(c.bones)))
    return project.with_chain(chain, solver=solver)


def set_solver_settings(project: Project, chain: str, *, tolerance: float | None = None,
                        max_iterations: int | None = None) -> Project:
    """Set an iterative chain's tolerance (model units, > 0: the solve stops once the
    end is this close) and/or its iteration budget per frame (an integer >= 1)."""
    changes = {}
    if tolerance is not None:
        tolerance = float(tolerance)
        if not (math.isfinite(tolerance) and tolerance > 0):
            raise CommandError(f"A tolerance must be a number > 0 (model units), got {tolerance!r}.")
        changes["tolerance"] = tolerance
    if max_iterations is not None:
        if isinstance(max_iterations, float) and not max_iterations.is_integer():
            raise CommandError(f"An iteration budget is a whole number, got {max_iterations!r}.")
        max_iterations = int(max_iterations)
        if max_iterations < 1:
            raise CommandError(f"An iteration budget must be at least 1, got {max_iterations}.")
        changes["max_iterations"] = max_iterations
    project.chain(chain)
    return project.with_chain(chain, **changes) if changes else project


def delete_chain(project: Project, chain: str, *, keep_target: bool = False) -> Project:
    """Delete a chain (its bones go back to FK); its target too unless another chain
    uses it or ``keep_target``."""
    c = project.chain(chain)
    chains = tuple(x for x in project.chains if x.name != chain)
    targets = project.targets
    if not keep_target and not any(x.target == c.target for x in chains):
        targets = tuple(t for t in targets if t.name != c.target)
    return replace(project, chains=chains, targets=targets)


def delete_target(project: Project, target: str) -> Project:
    """Delete a target no chain uses (refused with the chains' names otherwise)."""
    project.target(target)
    users = [c.name for c in project.chain_for_target(target)]
    if users:
        raise CommandError(f"Target '{target}' drives IK chain(s) {', '.join(users)}; delete the chain instead.")
    return replace(project, targets=tuple(t for t in project.targets if t.name != target))


# ----------------------------------------------------------------------------- spaces (scene objects)

def add_space(project: Project, parent: str = WORLD, *, name: str | None = None,
              position=(0.0, 0.0), rotation: float = 0.0, scale=(1.0, 1.0)) -> tuple[Project, str]:
    """Add a scene object (a space) under ``parent``; returns (project, its name)."""
    if parent not in project.space_names():
        raise CommandError(f"There is no space named '{parent}'.")
    if name is None:
        name = unique_name(names_of(project, "space"), "object")
    name = _check_new_name(project, "space", name)
    values = [*position, rotation, *scale]
    if not all(math.isfinite(float(v)) for v in values):
        raise CommandError("A scene object's transform must be finite.")
    if 0.0 in (float(scale[0]), float(scale[1])):
        raise CommandError("A scale of zero collapses the space.")
    s = Space(name, parent, constant(*map(float, position)), constant(float(rotation)),
              constant(*map(float, scale)))
    return replace(project, spaces=project.spaces + (s,)), name


def space_children(project: Project, space: str) -> list[str]:
    return [s.name for s in project.spaces if s.parent == space]


def targets_in_space(project: Project, space: str) -> list[str]:
    return [t.name for t in project.targets
            if t.space.default == space or any(v == space for _, v in t.space.keys)]


def remove_space(project: Project, space: str) -> Project:
    """Remove a scene object. Refused for the character, for a space other spaces
    hang under, and for a space a target is declared in (the message names them)."""
    if space == CHARACTER:
        raise CommandError(f"The '{CHARACTER}' space is the rig root and cannot be removed.")
    project.space(space)
    kids = space_children(project, space)
    if kids:
        raise CommandError(f"'{space}' is the parent of {', '.join(kids)}; reparent or remove them first.")
    users = targets_in_space(project, space)
    if users:
        raise CommandError(f"Target(s) {', '.join(users)} are declared in '{space}'; "
                           "switch them to another space first.")
    return replace(project, spaces=tuple(s for s in project.spaces if s.name != space))


def reparent_space(project: Project, space: str, parent: str) -> Project:
    """Parent a scene object under another space (its numbers are kept, now relative
    to the new parent). Refused: the character's parent must stay a non-character
    space too; cycles."""
    project.space(space)
    if parent not in project.space_names():
        raise CommandError(f"There is no space named '{parent}'.")
    if parent == space:
        raise CommandError("A space cannot be its own parent.")
    node = parent
    seen = set()
    while node != WORLD and node not in seen:
        seen.add(node)
        if node == space:
            raise CommandError(f"'{parent}' is inside '{space}': that would make a cycle.")
        node = project.space(node).parent
    return project.with_space(space, parent=parent)


def delete(project: Project, kind: str, name: str, *, with_chains: bool = False) -> Project:
    """Delete any item by kind (bone: see :func:`delete_bone`)."""
    if kind == "bone":
        return delete_bone(project, name, with_chains=with_chains)
    if kind == "chain":
        return delete_chain(project, name)
    if kind == "target":
        return delete_target(project, name)
    if kind == "space":
        return remove_space(project, name)
    raise CommandError(f"Unknown kind {kind!r}.")


# ----------------------------------------------------------------------------- values

def set_bone_length(project: Project, bone: str, length: float) -> Project:
    """Set a bone's length; children that started at its tip stay at the tip (so an
    IK chain through it stays connected)."""
    if not (math.isfinite(length) and length > 0):
        raise CommandError(f"A bone's length must be a number > 0, got {length!r}.")
    old = project.bone(bone).length
    project = project.with_bone(bone, length=float(length))
    for child in project.children(bone):
        ox, oy = child.rest_offset
        if math.isclose(ox, old, rel_tol=1e-9) and abs(oy) <= 1e-9 * old:
            project = project.with_bone(child.name, rest_offset=(float(length), 0.0))
    return project


def set_value(project: Project, path, frame: int, value, *, key: bool) -> Project:
    """Edit an animatable value (path: (kind, name, attribute) as in app.tracks).

    key=True: key it at ``frame``. key=False: a channel with keys is keyed at
    ``frame`` anyway (its default is never seen), an unkeyed one changes its default.
    """
    from rigeditor.app import tracks

    ch = tracks.channel(project, path)
    if key or ch.keys:
        return tracks.set_key(project, path, frame, value)
    if isinstance(ch, StepChannel):
        return tracks.with_channel(project, path, replace(ch, default=str(value)))
    value = tuple(float(v) for v in np.atleast_1d(value))
    return tracks.with_channel(project, path, replace(ch, default=value))


def flip_bend(project: Project, chain: str, frame: int, *, animate: bool) -> Project:
    """Mirror a chain's elbow: bend *= -1.

    animate and the bend is keyed: a stepped key at ``frame``. Otherwise the default
    flips; in setup with a keyed bend every key flips too (the rig's side changes
    everywhere, the keyed switches stay where they are).
    """
    from rigeditor.model.timeline import Key

    c = project.chain(chain)
    bend = c.bend
    if bend.keys and animate:
        now = bend.value_at(frame)[0]
        keys = [k for k in bend.keys if k.frame != int(frame)]
        keys.append(Key(int(frame), (-1.0 if now >= 0 else 1.0,), "constant"))
        new = replace(bend, keys=tuple(sorted(keys, key=lambda k: k.frame)))
    else:
        new = replace(bend, default=(-bend.default[0],),
                      keys=tuple(replace(k, value=(-k.value[0],)) for k in bend.keys))
    return project.with_chain(chain, bend=new)


def redeclare_target_space(project: Project, target: str, frame: int, space: str) -> Project:
    """Declare ``target`` in ``space`` keeping its numbers (it jumps in the world):
    the default space when the space is not keyed, else a space key at ``frame``."""
    if space not in project.space_names():
        raise CommandError(f"There is no space named '{space}'.")
    t = project.target(target)
    if t.space.keys:
        return project.with_target(target, space=t.space.with_key(int(frame), space))
    return project.with_target(target, space=replace(t.space, default=space))
