"""Path constraints: add, delete, change settings, and what bone and slot edits do to
them (and to weighted path attachments).

Renaming goes through ``items.rename(project, "path", old, new)``; position, spacing
and the mixes are channels, keyed like any track (``items.set_value`` with path
("path", name, "position")) or set here (:func:`set_path_value`). Radians, like the model.
"""
from __future__ import annotations

import math
from dataclasses import replace

from rigeditor.edits.errors import EditError
from rigeditor.edits.constraint_values import bone_list, order_value
from rigeditor.edits.names import _check_new_name, names_of, unique_name
from rigeditor.model.data.path_constraint import CHANNELS, POSITION_MODES, ROTATE_MODES, SPACING_MODES, PathConstraint
from rigeditor.model.data.project import Project
from rigeditor.model.data.timeline import constant

SETTINGS = ("order", "target", "bones", "position_mode", "spacing_mode", "rotate_mode", "offset_rotation")
"""What :func:`set_path` changes (position, spacing and mixes: :func:`set_path_value`)."""
_MODES = {"position_mode": POSITION_MODES, "spacing_mode": SPACING_MODES, "rotate_mode": ROTATE_MODES}


def add_path(project: Project, bones, target: str, *, name: str | None = None, **settings) -> Project:
    """A new path constraint laying ``bones`` along slot ``target``'s path (Spine's
    defaults: percent position 0, length spacing 0, tangent, mixes 1), after every
    constraint there is (its order one past the highest)."""
    name = _check_new_name(project, "path", name) if name else unique_name(
        names_of(project, "path"), f"{target}_path")
    orders = [c.order for c in (*project.chains, *project.transforms, *project.paths)]
    c = PathConstraint(name, (), target, order=max(orders, default=-1) + 1)
    project = replace(project, paths=project.paths + (c,))
    return set_path(project, name, bones=tuple(bones), target=target, **settings)


def delete_path(project: Project, name: str) -> Project:
    """Delete the path constraint ``name`` (its bones keep their own pose)."""
    _known(project, name)
    return replace(project, paths=tuple(c for c in project.paths if c.name != name))


def _known(project, name):
    if name not in names_of(project, "path"):
        raise EditError(f"There is no path constraint named '{name}'.")


def set_path(project: Project, name: str, **settings) -> Project:
    """Change any of :data:`SETTINGS` of constraint ``name``; refused with EditError
    (nothing changed) when a value is not one the constraint can have."""
    _known(project, name)
    bones_known = set(names_of(project, "bone"))
    changes = {}
    for key, value in settings.items():
        if key not in SETTINGS:
            raise EditError(f"A path constraint has no setting {key!r} (one of {', '.join(SETTINGS)}).")
        if key == "order":
            value = order_value(value)
        elif key in _MODES:
            if value not in _MODES[key]:
                raise EditError(f"'{key}' is one of {', '.join(_MODES[key])}, got {value!r}.")
        elif key == "target":
            if value not in names_of(project, "slot"):
                raise EditError(f"There is no slot named '{value}' to carry the path.")
        elif key == "bones":
            value = bone_list(value, bones_known, "A path constraint")
        else:
            _finite(key, value)
            value = float(value)
        changes[key] = value
    return project.with_path(name, **changes)


def _finite(key, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise EditError(f"'{key}' must be a finite number, got {value!r}.")


def set_path_value(project: Project, name: str, channel: str, value: float) -> Project:
    """Set a channel's setup value (position, spacing or a mix: its default; keys stay)."""
    _known(project, name)
    if channel not in CHANNELS:
        raise EditError(f"A path constraint has no value {channel!r} (one of {', '.join(CHANNELS)}).")
    _finite(channel, value)
    ch = getattr(project.path(name), channel)
    return project.with_path(name, **{channel: replace(ch, default=(float(value),)) if ch.keys
                                      else constant(float(value))})


def renamed_bone(project: Project, old: str, new: str) -> Project:
    """Every path constraint's and weighted path's bone references renamed."""
    rn = lambda b: new if b == old else b  # noqa: E731
    paths = tuple(replace(c, bones=tuple(map(rn, c.bones))) for c in project.paths)
    slots = tuple(replace(s, paths=tuple(replace(p, bones=tuple(map(rn, p.bones))) for p in s.paths))
                  if s.paths else s for s in project.art.slots)
    return replace(project, paths=paths, art=replace(project.art, slots=slots))


def renamed_slot(project: Project, old: str, new: str) -> Project:
    return replace(project, paths=tuple(replace(c, target=new) if c.target == old else c for c in project.paths))


def without_bones(project: Project, gone) -> Project:
    """After bones are deleted: constraints lose those bones (one with no bone left
    goes). A weighted path lets go of them before (``edits.shapes.dropped_bones_in_shapes``:
    it stays where it is, on the bones left or the nearest kept one above)."""
    kept = []
    for c in project.paths:
        bones = tuple(b for b in c.bones if b not in gone)
        if bones:
            kept.append(replace(c, bones=bones) if bones != c.bones else c)
    return replace(project, paths=tuple(kept))


def without_slot(project: Project, slot: str) -> Project:
    """After a slot is deleted: the constraints that followed its path go."""
    return replace(project, paths=tuple(c for c in project.paths if c.target != slot))


__all__ = ["SETTINGS", "add_path", "delete_path", "set_path", "set_path_value", "renamed_bone", "renamed_slot",
           "without_bones", "without_slot"]
