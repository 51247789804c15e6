"""Scene objects (spaces): add, remove, reparent."""
from __future__ import annotations

import math
from dataclasses import replace

from rigeditor.edits.errors import EditError
from rigeditor.edits.names import _check_new_name, names_of, unique_name
from rigeditor.model.data.project import CHARACTER, WORLD, Project, Space
from rigeditor.model.data.timeline import constant


def add_space(project: Project, parent: str = WORLD, *, name: str | None = None,
              position=(0.0, 0.0), rotation: float = 0.0, scale=(1.0, 1.0)) -> tuple[Project, str]:
    """Add a scene object (a space) under ``parent``; returns (project, its name)."""
    if parent not in project.space_names():
        raise EditError(f"There is no space named '{parent}'.")
    if name is None:
        name = unique_name(names_of(project, "space"), "object")
    name = _check_new_name(project, "space", name)
    values = [*position, rotation, *scale]
    if not all(math.isfinite(float(v)) for v in values):
        raise EditError("A scene object's transform must be finite.")
    if 0.0 in (float(scale[0]), float(scale[1])):
        raise EditError("A scale of zero collapses the space.")
    s = Space(name, parent, constant(*map(float, position)), constant(float(rotation)),
              constant(*map(float, scale)))
    return replace(project, spaces=project.spaces + (s,)), name


def space_children(project: Project, space: str) -> list[str]:
    """The scene objects whose parent is ``space``."""
    return [s.name for s in project.spaces if s.parent == space]


def targets_in_space(project: Project, space: str) -> list[str]:
    """The targets declared in ``space`` on any frame (default or a space key)."""
    return [t.name for t in project.targets
            if t.space.default == space or any(v == space for _, v in t.space.keys)]


def space_descendants(project: Project, name: str) -> set[str]:
    """Every space below ``name`` (its children, theirs, ...)."""
    out, stack = set(), [name]
    while stack:
        n = stack.pop()
        for s in project.spaces:
            if s.parent == n and s.name not in out:
                out.add(s.name)
                stack.append(s.name)
    return out


def remove_space(project: Project, space: str) -> Project:
    """Remove a scene object. Refused for the character, for a space other spaces
    hang under, and for a space a target is declared in (the message names them)."""
    if space == CHARACTER:
        raise EditError(f"The '{CHARACTER}' space is the rig root and cannot be removed.")
    project.space(space)
    kids = space_children(project, space)
    if kids:
        raise EditError(f"'{space}' is the parent of {', '.join(kids)}; reparent or remove them first.")
    users = targets_in_space(project, space)
    if users:
        raise EditError(f"Target(s) {', '.join(users)} are declared in '{space}'; "
                           "switch them to another space first.")
    return replace(project, spaces=tuple(s for s in project.spaces if s.name != space))


def reparent_space(project: Project, space: str, parent: str) -> Project:
    """Parent a scene object under another space (its numbers are kept, now relative
    to the new parent). Refused: the character's parent must stay a non-character
    space too; cycles."""
    project.space(space)
    if parent not in project.space_names():
        raise EditError(f"There is no space named '{parent}'.")
    if parent == space:
        raise EditError("A space cannot be its own parent.")
    if parent in space_descendants(project, space):
        raise EditError(f"'{parent}' is inside '{space}': that would make a cycle.")
    return project.with_space(space, parent=parent)
