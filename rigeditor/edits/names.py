"""Names of items: listing, unique and numbered names, renaming an item everywhere."""
from __future__ import annotations

import re
from dataclasses import replace

from rigeditor.edits import animations
from rigeditor.edits.art import renamed_bone_in_slots, renamed_slot
from rigeditor.edits.errors import EditError
from rigeditor.model.data.project import CHARACTER, WORLD, Project
from rigeditor.model.data.timeline import StepChannel


KINDS = ("bone", "chain", "target", "space", "slot")
"""Kinds of item: each can be selected and renamed (``slot``: a layer of pictures on a bone)."""
SELECTABLE = KINDS


def names_of(project: Project, kind: str) -> list[str]:
    """The names of every item of ``kind`` (one of :data:`KINDS`), in the project's order."""
    pool = {"bone": project.bones, "chain": project.chains, "target": project.targets,
            "space": project.spaces, "slot": project.art.slots}[kind]
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


def numbered_name(existing, stem: str) -> str:
    """``stem1``, ``stem2``...: one past the highest number any ``stemN`` in
    ``existing`` carries, so names stay short at any depth and a deleted item's name
    does not come back for the next new one while later numbers exist."""
    taken = [int(m.group(1)) for n in existing if (m := re.fullmatch(re.escape(stem) + r"(\d+)", n))]
    return f"{stem}{max(taken, default=0) + 1}"


def _check_new_name(project: Project, kind: str, name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise EditError(f"A {kind} needs a name.")
    if kind == "space" and name == WORLD:
        raise EditError(f"'{WORLD}' is reserved for the world space.")
    if name in names_of(project, kind):
        raise EditError(f"There is already a {kind} named '{name}'.")
    return name


def rename(project: Project, kind: str, old: str, new: str) -> Project:
    """Rename an item and every reference to it, in every animation (see _rename)."""
    out = _rename(project, kind, old, new)
    return out if out is project else animations.renamed_item(out, kind, old, new.strip())


def _rename(project: Project, kind: str, old: str, new: str) -> Project:
    """Rename an item and every reference to it.

    bone: children's parent, chains' bone lists. target: chains' target.
    space: child spaces' parent, every target's declared-space track (default and keys).
    chain: nothing refers to a chain. slot: the draw-order keys.
    """
    if kind not in KINDS:
        raise EditError(f"Unknown kind {kind!r}.")
    if old not in names_of(project, kind):
        raise EditError(f"There is no {kind} named '{old}'.")
    if (new or "").strip() == old:
        return project
    if kind == "space" and old == CHARACTER:
        raise EditError(f"The '{CHARACTER}' space is the rig root; it keeps its name.")
    new = _check_new_name(project, kind, new)

    if kind == "bone":
        bones = tuple(replace(b, name=new if b.name == old else b.name,
                              parent=new if b.parent == old else b.parent) for b in project.bones)
        chains = tuple(replace(c, bones=tuple(new if n == old else n for n in c.bones))
                       for c in project.chains)
        return renamed_bone_in_slots(replace(project, bones=bones, chains=chains), old, new)
    if kind == "slot":
        return renamed_slot(project, old, new)
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
