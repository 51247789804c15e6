"""Physics constraints: add, delete, change settings, and what bone edits do to them.

Renaming goes through ``items.rename(project, "physics", old, new)``; the keyed
settings are tracks like any other (``items.set_value`` with path ("physics", name,
"strength")), their setup values set here with :func:`set_physics_value`.
"""
from __future__ import annotations

import math
from dataclasses import replace

from rigeditor.edits.errors import EditError
from rigeditor.edits.constraint_values import order_value
from rigeditor.edits.names import _check_new_name, names_of, unique_name
from rigeditor.model.data.physics import GLOBALS, KEYED, WEIGHTS, PhysicsConstraint
from rigeditor.model.data.project import Project
from rigeditor.model.data.timeline import constant

SETTINGS = ("bone", "order", "limit", "step", "reference_scale") + WEIGHTS + GLOBALS
"""What :func:`set_physics` changes (the keyed settings: :func:`set_physics_value`)."""
_RANGES = {"inertia": (0.0, 1.0), "damping": (0.0, 1.0), "strength": (0.0, math.inf), "mix": (-math.inf, math.inf),
           "wind": (-math.inf, math.inf), "gravity": (-math.inf, math.inf)}
"""Setup ranges Spine's editor offers; mass must be > 0 (its inverse is used)."""


def _number(key, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise EditError(f"'{key}' must be a finite number, got {value!r}.")
    return float(value)


def _known(project, name):
    if name not in names_of(project, "physics"):
        raise EditError(f"There is no physics constraint named '{name}'.")


def add_physics(project: Project, bone: str, *, name: str | None = None, **settings) -> Project:
    """A new physics constraint on ``bone`` (Spine's defaults, rotation on), after every
    constraint there is (its order one past the highest of all kinds)."""
    if bone not in names_of(project, "bone"):
        raise EditError(f"There is no bone named '{bone}'.")
    name = _check_new_name(project, "physics", name) if name else unique_name(
        names_of(project, "physics"), f"{bone}_physics")
    orders = [c.order for c in (*project.chains, *project.transforms, *project.physics)]
    p = PhysicsConstraint(name, bone, order=max(orders, default=-1) + 1, rotate=1.0)
    project = replace(project, physics=project.physics + (p,))
    return set_physics(project, name, **settings) if settings else project


def delete_physics(project: Project, name: str) -> Project:
    """Delete the physics constraint ``name`` (its bone keeps its own pose)."""
    _known(project, name)
    return replace(project, physics=tuple(p for p in project.physics if p.name != name))


def set_physics(project: Project, name: str, **settings) -> Project:
    """Change any of :data:`SETTINGS` of constraint ``name``; refused with EditError
    (nothing changed) when a value is not one the constraint can have."""
    _known(project, name)
    changes = {}
    for key, value in settings.items():
        if key not in SETTINGS:
            raise EditError(f"A physics constraint has no setting {key!r} (one of {', '.join(SETTINGS)}).")
        if key == "bone":
            if value not in names_of(project, "bone"):
                raise EditError(f"There is no bone named '{value}'.")
        elif key == "order":
            value = order_value(value)
        elif key in GLOBALS:
            if not isinstance(value, bool):
                raise EditError(f"'{key}' is on or off, got {value!r}.")
        else:
            value = _number(key, value)
            if key in ("step", "reference_scale") and value <= 0:
                raise EditError(f"'{key}' must be > 0, got {value:g}.")
            if key == "limit" and value < 0:
                raise EditError(f"'limit' must be >= 0, got {value:g}.")
        changes[key] = value
    return project.with_physics(name, **changes)


def checked_value(setting: str, value) -> float:
    """``value`` for keyed setting ``setting`` (a setup value or a key), or EditError
    when it is not one the setting can have."""
    if setting not in KEYED:
        raise EditError(f"A physics constraint has no keyed setting {setting!r} (one of {', '.join(KEYED)}).")
    value = _number(setting, value)
    if setting == "mass" and value <= 0:
        raise EditError(f"'mass' must be > 0, got {value:g}.")
    low, high = _RANGES.get(setting, (-math.inf, math.inf))
    if not low <= value <= high:
        raise EditError(f"'{setting}' must lie in [{low:g}, {high:g}], got {value:g}.")
    return value


def set_physics_value(project: Project, name: str, setting: str, value: float) -> Project:
    """Set a keyed setting's setup value (its channel's default; keys stay)."""
    _known(project, name)
    value = checked_value(setting, value)
    ch = getattr(project.physics_constraint(name), setting)
    return project.with_physics(name, **{setting: replace(ch, default=(value,)) if ch.keys else constant(value)})


def renamed_bone(project: Project, old: str, new: str) -> Project:
    """Every constraint's bone reference renamed."""
    return replace(project, physics=tuple(replace(p, bone=new) if p.bone == old else p for p in project.physics))


def without_bones(project: Project, gone) -> Project:
    """After bones are deleted: a constraint whose bone went goes too."""
    return replace(project, physics=tuple(p for p in project.physics if p.bone not in gone))
