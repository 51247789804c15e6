"""Bones: add (by length and angle, or between two scene points), reparent, delete, resize."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from rigeditor.edits.art import rehome_slots
from rigeditor.edits.chains import delete_chain
from rigeditor.edits.errors import EditError
from rigeditor.edits.paths import without_bones as paths_without_bones
from rigeditor.edits.transforms import without_bones
from rigeditor.edits.physics import without_bones as without_physics_bones
from rigeditor.edits.names import _check_new_name, names_of, numbered_name
from rigeditor.core.geometry import Affine
from rigeditor.model.data.project import CHARACTER, Bone, Project


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
    or the character origin for a root bone. name: default ``bone1``, ``bone2``...
    """
    if parent is not None and parent not in names_of(project, "bone"):
        raise EditError(f"There is no bone named '{parent}'.")
    if not (math.isfinite(length) and length > 0):
        raise EditError(f"A bone's length must be a number > 0, got {length!r}.")
    if not math.isfinite(angle):
        raise EditError(f"A bone's angle must be a finite number, got {angle!r}.")
    if offset is None:
        offset = (project.bone(parent).length, 0.0) if parent is not None else (0.0, 0.0)
    offset = (float(offset[0]), float(offset[1]))
    if not all(math.isfinite(v) for v in offset):
        raise EditError(f"A bone's offset must be finite, got {offset!r}.")
    if name is None:
        name = numbered_name(names_of(project, "bone"), "bone")
    name = _check_new_name(project, "bone", name)
    bone = Bone(name, parent, float(length), rest_offset=offset, rest_rotation=float(angle))
    return replace(project, bones=project.bones + (bone,)), name


def parent_frame_at(project: Project, bake, row: int, parent: str | None) -> Affine:
    """World transform (one frame) of the frame a child of ``parent`` is measured in:
    the parent bone's frame at ``row`` of ``bake``, or the character space for None."""
    if parent is None:
        return bake.spaces[CHARACTER].take(row)
    return bake.bone(parent).world.take(row)


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
        raise EditError("Drag further to give the bone a length.")
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
        raise EditError(f"There is no bone named '{bone}'.")
    if new_parent is not None and new_parent not in names:
        raise EditError(f"There is no bone named '{new_parent}'.")
    b = project.bone(bone)
    if b.parent == new_parent:
        return project
    if new_parent == bone or new_parent in descendants(project, bone):
        raise EditError(f"'{new_parent}' is below '{bone}': a bone cannot become its own ancestor.")
    chain = project.chain_of_bone(bone)
    if chain is not None and chain.bones.index(bone) > 0:
        raise EditError(f"'{bone}' is part of IK chain '{chain.name}' and must stay the child of "
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
    """The chains that drive any of ``bones`` (names), in the project's order."""
    bones = set(bones)
    return [c.name for c in project.chains if bones.intersection(c.bones)]


def delete_bone(project: Project, bone: str, *, with_chains: bool = False) -> Project:
    """Delete ``bone`` and every bone below it.

    Chains that drive any of them: refused with a message naming them unless
    ``with_chains``, which deletes those chains too (and their targets when no other
    chain uses them).
    """
    if bone not in names_of(project, "bone"):
        raise EditError(f"There is no bone named '{bone}'.")
    gone = {bone, *descendants(project, bone)}
    chains = chains_using_bones(project, gone)
    if chains and not with_chains:
        raise EditError(delete_bone_message(project, bone))
    for c in chains:
        project = delete_chain(project, c)
    project = rehome_slots(project, gone)  # pictures on those bones stay where they are
    project = without_bones(project, gone)  # transform constraints let go of them
    project = paths_without_bones(project, gone)  # and path constraints
    project = without_physics_bones(project, gone)  # physics constraints on them go
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


def set_bone_length(project: Project, bone: str, length: float) -> Project:
    """Set a bone's length; children that started at its tip stay at the tip (so an
    IK chain through it stays connected)."""
    if not (math.isfinite(length) and length > 0):
        raise EditError(f"A bone's length must be a number > 0, got {length!r}.")
    old = project.bone(bone).length
    project = project.with_bone(bone, length=float(length))
    for child in project.children(bone):
        ox, oy = child.rest_offset
        if math.isclose(ox, old, rel_tol=1e-9) and abs(oy) <= 1e-9 * old:
            project = project.with_bone(child.name, rest_offset=(float(length), 0.0))
    return project
