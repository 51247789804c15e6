"""Slot colour edits: the setup light and dark colours, two-colour tint on or off, the
blend mode, and colour keys (Animate mode). Pure functions of a Project; bad values
raise :class:`EditError` naming the slot, the component and the value.
"""
from __future__ import annotations

import math
from dataclasses import replace

from rigeditor.edits.errors import EditError
from rigeditor.edits.tracks import set_key
from rigeditor.model.data.project import Project
from rigeditor.model.data.slot_color import BLENDS, DARK, LIGHT


def _slot(project: Project, name: str):
    try:
        return project.art.slot(name)
    except KeyError:
        raise EditError(f"There is no slot named '{name}'.") from None


def _checked(slot: str, names, values) -> list[float]:
    values = [float(v) for v in values]
    if len(values) != len(names):
        raise EditError(f"Slot '{slot}': a colour needs {len(names)} components ({', '.join(names)}), "
                        f"got {len(values)}.")
    for n, v in zip(names, values):
        if not (math.isfinite(v) and 0.0 <= v <= 1.0):
            raise EditError(f"Slot '{slot}': {n} must be between 0 and 1, got {v:g}.")
    return values


def set_slot_color(project: Project, slot: str, light=None, *, dark=None, two_color: bool | None = None,
                   blend: str | None = None) -> Project:
    """The setup colour of ``slot``: ``light`` (r, g, b, a in [0, 1]), ``dark`` (r, g, b in
    [0, 1]; turns two-colour tint on), ``two_color`` (tint on or off), ``blend`` (one of
    BLENDS). Arguments left None keep their value."""
    s = _slot(project, slot)
    changes: dict = {}
    if light is not None:
        for n, v in zip(LIGHT, _checked(slot, LIGHT, light)):
            changes[n] = replace(getattr(s, n), default=(v,))
    if dark is not None:
        for n, v in zip(DARK, _checked(slot, DARK, dark)):
            changes[n] = replace(getattr(s, n), default=(v,))
        changes["dark"] = True
    if two_color is not None:
        changes["dark"] = bool(two_color)
    if blend is not None:
        if blend not in BLENDS:
            raise EditError(f"Slot '{slot}': the blend mode must be one of {', '.join(BLENDS)}, got {blend!r}.")
        changes["blend"] = blend
    return replace(project, art=project.art.with_slot(slot, **changes)) if changes else project


def key_slot_color(project: Project, slot: str, frame: int, light=None, *, dark=None) -> Project:
    """Key ``slot``'s colour at ``frame``: every light component given (r, g, b, a) and
    every dark one (r, g, b; the slot needs two-colour tint on)."""
    s = _slot(project, slot)
    if dark is not None and not s.dark:
        raise EditError(f"Slot '{slot}' has no dark colour: turn two-colour tint on before keying it.")
    for names, values in ((LIGHT, light), (DARK, dark)):
        if values is None:
            continue
        for n, v in zip(names, _checked(slot, names, values)):
            project = set_key(project, ("slot", slot, n), frame, v)
    return project


__all__ = ["set_slot_color", "key_slot_color"]
