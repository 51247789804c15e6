"""Transform constraints: add, delete, change settings, and what bone edits do to them.

Renaming goes through ``items.rename(project, "transform", old, new)`` and mixes are
keyed like any track (``items.set_value`` with path ("transform", name, "mix_x")).
Angles in radians, like the model.
"""
from __future__ import annotations

import math
from dataclasses import replace

from rigeditor.edits.errors import EditError
from rigeditor.edits.constraint_values import bone_list, order_value
from rigeditor.edits.names import _check_new_name, names_of, unique_name
from rigeditor.model.data.constraints import MIXES, OFFSETS, TransformConstraint
from rigeditor.model.data.project import Project
from rigeditor.model.data.timeline import constant

SETTINGS = ("order", "local", "relative", "target", "bones") + OFFSETS
"""What :func:`set_transform` changes (mixes are channels: key or set them as tracks)."""


def add_transform(project: Project, bones, target: str, *, name: str | None = None, **settings) -> Project:
    """A new transform constraint moving ``bones`` toward bone ``target`` (all mixes 1,
    no offsets), after every constraint there is (its order one past the highest)."""
    name = _check_new_name(project, "transform", name) if name else unique_name(
        names_of(project, "transform"), f"{target}_transform")
    orders = [t.order for t in project.transforms]
    t = TransformConstraint(name, (), target, order=max(orders, default=-1) + 1)
    project = replace(project, transforms=project.transforms + (t,))
    return set_transform(project, name, bones=tuple(bones), target=target, **settings)


def delete_transform(project: Project, name: str) -> Project:
    """Delete the transform constraint ``name`` (its bones keep their own pose)."""
    if name not in names_of(project, "transform"):
        raise EditError(f"There is no transform constraint named '{name}'.")
    return replace(project, transforms=tuple(t for t in project.transforms if t.name != name))


def set_transform(project: Project, name: str, **settings) -> Project:
    """Change any of :data:`SETTINGS` of constraint ``name``; refused with EditError
    (nothing changed) when a value is not one the constraint can have."""
    if name not in names_of(project, "transform"):
        raise EditError(f"There is no transform constraint named '{name}'.")
    old = project.transform(name)
    bones_known = set(names_of(project, "bone"))
    changes = {}
    for key, value in settings.items():
        if key not in SETTINGS:
            raise EditError(f"A transform constraint has no setting {key!r} (one of {', '.join(SETTINGS)}).")
        if key == "order":
            value = order_value(value)
        elif key in ("local", "relative"):
            if not isinstance(value, bool):
                raise EditError(f"'{key}' is on or off, got {value!r}.")
        elif key == "target":
            if value not in bones_known:
                raise EditError(f"There is no bone named '{value}' to be the target.")
        elif key == "bones":
            value = bone_list(value, bones_known, "A transform constraint")
        else:
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise EditError(f"'{key}' must be a finite number, got {value!r}.")
            value = float(value)
        changes[key] = value
    new = replace(old, **changes)
    if new.target in new.bones:
        raise EditError(f"Bone '{new.target}' cannot follow itself: it is the constraint's target.")
    return project.with_transform(name, **changes)


def set_mix(project: Project, name: str, mix: str, value: float) -> Project:
    """Set a mix's setup value (its channel's default; keys stay)."""
    if mix not in MIXES:
        raise EditError(f"A transform constraint has no mix {mix!r} (one of {', '.join(MIXES)}).")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise EditError(f"A mix must be a finite number, got {value!r}.")
    ch = getattr(project.transform(name), mix)
    return project.with_transform(name, **{mix: replace(ch, default=(float(value),)) if ch.keys
                                          else constant(float(value))})


def renamed_bone(project: Project, old: str, new: str) -> Project:
    """Every constraint's bone references renamed."""
    return replace(project, transforms=tuple(
        replace(t, bones=tuple(new if b == old else b for b in t.bones), target=new if t.target == old else t.target)
        for t in project.transforms))


def without_bones(project: Project, gone) -> Project:
    """After bones are deleted: constraints lose those bones; a constraint whose target
    went, or with no bone left, goes too."""
    kept = []
    for t in project.transforms:
        bones = tuple(b for b in t.bones if b not in gone)
        if bones and t.target not in gone:
            kept.append(replace(t, bones=bones) if bones != t.bones else t)
    return replace(project, transforms=tuple(kept))
