"""Edits of any item by kind: rename it and every reference to it, set or key any
animatable value, delete (one item, or a selection in dependency order)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from rigeditor.edits import animations, tracks
from rigeditor.edits.art import delete_slot, renamed_bone_in_slots, renamed_slot
from rigeditor.edits.bones import delete_bone
from rigeditor.edits.chains import delete_chain, delete_target
from rigeditor.edits.errors import EditError
from rigeditor.edits.skins import pruned_skins, renamed_in_skins
from rigeditor.edits.names import KINDS, SELECTABLE, _check_new_name, names_of
from rigeditor.edits.spaces import remove_space, space_descendants
from rigeditor.edits import paths as path_edits
from rigeditor.edits import transforms as transform_edits
from rigeditor.edits import physics as physics_edits
from rigeditor.model.data.project import CHARACTER, Project
from rigeditor.model.data.timeline import StepChannel


def rename(project: Project, kind: str, old: str, new: str) -> Project:
    """Rename an item and every reference to it, in every animation (see _rename)."""
    out = _rename(project, kind, old, new)
    if out is project:
        return out
    return animations.renamed_item(renamed_in_skins(out, kind, old, new.strip()), kind, old, new.strip())


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
        project = transform_edits.renamed_bone(replace(project, bones=bones, chains=chains), old, new)
        project = physics_edits.renamed_bone(project, old, new)
        return path_edits.renamed_bone(renamed_bone_in_slots(project, old, new), old, new)
    if kind == "slot":
        return path_edits.renamed_slot(renamed_slot(project, old, new), old, new)
    if kind == "transform":
        return project.with_transform(old, name=new)
    if kind == "path":
        return project.with_path(old, name=new)
    if kind == "physics":
        return project.with_physics(old, name=new)
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


def set_value(project: Project, path, frame: int, value, *, key: bool) -> Project:
    """Edit an animatable value (path: (kind, name, attribute) as in ``tracks``).

    key=True: key it at ``frame``. key=False: a channel with keys is keyed at
    ``frame`` anyway (its default is never seen), an unkeyed one changes its default.
    """
    ch = tracks.channel(project, path)
    if key or ch.keys:
        return tracks.set_key(project, path, frame, value)
    return set_default(project, path, value)


def set_default(project: Project, path, value) -> Project:
    """Set the default (unkeyed, setup-pose) value of the channel at ``path``; its keys
    stay as they are (Setup mode's edits)."""
    ch = tracks.channel(project, path)
    if isinstance(ch, StepChannel):
        return tracks.with_channel(project, path, replace(ch, default=str(value)))
    value = tuple(float(v) for v in np.atleast_1d(value))
    return tracks.with_channel(project, path, replace(ch, default=value))


_DELETE_ORDER = {"slot": 0, "chain": 0, "transform": 0, "path": 0, "physics": 0, "bone": 1, "target": 2, "space": 3}


def delete_items(project: Project, items) -> tuple[Project, list, list]:
    """Delete whatever of ``items`` ((kind, name) pairs) can be deleted, in one go.

    Returns (project, deleted, kept): ``deleted`` the items gone (with what they took
    along: a bone's children, a chain's target), ``kept`` [(item, reason)] for the
    refused ones. Bones take the chains that drive them. Chains go first, then bones,
    targets and scene objects (deepest first); a refused item is tried again once
    the others are gone (a scene object is free once the targets declared in it are).
    """
    depth = {s.name: len(space_descendants(project, s.name)) for s in project.spaces}
    pending = sorted(dict.fromkeys(tuple(i) for i in items),
                     key=lambda i: (_DELETE_ORDER.get(i[0], 9), depth.get(i[1], 0) if i[0] == "space" else 0))
    before = project
    reasons: dict = {}
    progress = True
    while pending and progress:
        progress = False
        for item in list(pending):
            kind, name = item
            if kind in SELECTABLE and name not in names_of(project, kind):
                pending.remove(item)  # gone with an earlier item
                continue
            try:
                project = delete(project, kind, name, with_chains=True)
            except EditError as exc:
                reasons[item] = str(exc)
                continue
            pending.remove(item)
            progress = True
    kept = [(item, reasons[item]) for item in pending]
    deleted = [(k, n) for k in SELECTABLE for n in names_of(before, k) if n not in names_of(project, k)]
    return project, deleted, kept


def delete(project: Project, kind: str, name: str, *, with_chains: bool = False) -> Project:
    """Delete any item by kind (bone: see :func:`delete_bone`), and its tracks in
    every animation."""
    return animations.without_missing(pruned_skins(_delete(project, kind, name, with_chains=with_chains)))


def _delete(project: Project, kind: str, name: str, *, with_chains: bool = False) -> Project:
    if kind == "bone":
        return delete_bone(project, name, with_chains=with_chains)
    if kind == "transform":
        return transform_edits.delete_transform(project, name)
    if kind == "path":
        return path_edits.delete_path(project, name)
    if kind == "physics":
        return physics_edits.delete_physics(project, name)
    if kind == "chain":
        return delete_chain(project, name)
    if kind == "target":
        return delete_target(project, name)
    if kind == "space":
        return remove_space(project, name)
    if kind == "slot":
        return path_edits.without_slot(delete_slot(project, name), name)
    raise EditError(f"Unknown kind {kind!r}.")
