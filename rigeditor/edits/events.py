"""Event edits: define, change and delete the skeleton's events, and add, move, change
and delete the open animation's event keys. Pure functions of a Project; a key is
addressed by its index in ``project.events.keys`` (time order), as the dope sheet's
event row lists them. Bad values raise :class:`EditError` saying which and why.
"""
from __future__ import annotations

import math
from dataclasses import replace

from rigeditor.edits.errors import EditError
from rigeditor.model.data.events import EVENTS, EventDef, EventKey
from rigeditor.model.data.project import Project

_VALUES = ("int_value", "float_value", "string", "volume", "balance")


def _check(what: str, values: dict) -> dict:
    for k, v in values.items():
        if k not in _VALUES + ("audio",):
            raise EditError(f"{what}: no value named {k!r} (an event has {', '.join(_VALUES + ('audio',))}).")
        if v is None:
            continue
        if k == "int_value" and (not isinstance(v, int) or isinstance(v, bool)):
            raise EditError(f"{what}: int must be a whole number, got {v!r}.")
        if k in ("float_value", "volume", "balance") and not (isinstance(v, (int, float)) and math.isfinite(v)):
            raise EditError(f"{what}: {k.replace('_value', '')} must be a finite number, got {v!r}.")
        if k == "volume" and not 0 <= v <= 1:
            raise EditError(f"{what}: volume must be between 0 and 1, got {v:g}.")
        if k == "balance" and not -1 <= v <= 1:
            raise EditError(f"{what}: balance must be between -1 and 1, got {v:g}.")
        if k in ("string", "audio") and not isinstance(v, str):
            raise EditError(f"{what}: {k} must be text, got {v!r}.")
    return values


def add_event(project: Project, name: str, **values) -> Project:
    """Define event ``name`` with default values (int_value, float_value, string, audio,
    volume, balance)."""
    if not isinstance(name, str) or not name.strip():
        raise EditError(f"An event needs a name, got {name!r}.")
    if any(d.name == name for d in project.events.definitions):
        raise EditError(f"There is already an event named '{name}'.")
    d = EventDef(name, **{k: v for k, v in _check(f"Event '{name}'", values).items() if v is not None})
    return replace(project, events=replace(project.events, definitions=project.events.definitions + (d,)))


def set_event(project: Project, name: str, **values) -> Project:
    """Change the default values of event ``name``."""
    _definition(project, name)
    _check(f"Event '{name}'", values)
    defs = tuple(replace(d, **values) if d.name == name else d for d in project.events.definitions)
    return replace(project, events=replace(project.events, definitions=defs))


def delete_event(project: Project, name: str) -> Project:
    """Remove event ``name`` and its keys from every animation."""
    _definition(project, name)
    defs = tuple(d for d in project.events.definitions if d.name != name)
    keys = tuple(k for k in project.events.keys if k.name != name)
    anims = tuple(replace(a, tracks={**a.tracks, EVENTS: tuple(k for k in a.tracks[EVENTS] if k.name != name)})
                  if EVENTS in a.tracks else a for a in project.animations)
    return replace(project, events=replace(project.events, definitions=defs, keys=keys), animations=anims)


def add_event_key(project: Project, frame: float, name: str, **overrides) -> Project:
    """Fire event ``name`` at ``frame``; ``overrides`` (int_value, float_value, string,
    volume, balance) replace the definition's values for this key. After any key
    already at that frame."""
    _definition(project, name)
    key = EventKey(_frame(frame), name, **_check(f"Event key '{name}'", overrides))
    keys = project.events.keys
    at = sum(1 for k in keys if k.frame <= key.frame)
    return _with_keys(project, keys[:at] + (key,) + keys[at:])


def move_event_key(project: Project, index: int, frame: float) -> Project:
    """Retime key ``index`` to ``frame`` (it goes after the keys already there)."""
    key = _key(project, index)
    rest = project.events.keys[:index] + project.events.keys[index + 1:]
    moved = replace(key, frame=_frame(frame))
    at = sum(1 for k in rest if k.frame <= moved.frame)
    return _with_keys(project, rest[:at] + (moved,) + rest[at:])


def set_event_key(project: Project, index: int, **overrides) -> Project:
    """Change key ``index``'s values (None: the definition's again)."""
    key = _key(project, index)
    if "audio" in overrides:
        raise EditError("A key has no audio of its own: the event's definition holds the sound.")
    _check(f"Event key '{key.name}'", overrides)
    keys = list(project.events.keys)
    keys[index] = replace(key, **overrides)
    return _with_keys(project, tuple(keys))


def delete_event_key(project: Project, index: int) -> Project:
    """Remove key ``index`` of the open animation."""
    _key(project, index)
    keys = project.events.keys
    return _with_keys(project, keys[:index] + keys[index + 1:])


def _frame(frame) -> float:
    if not isinstance(frame, (int, float)) or not math.isfinite(frame):
        raise EditError(f"An event key's frame must be a finite number, got {frame!r}.")
    return float(frame)


def _definition(project: Project, name: str) -> EventDef:
    try:
        return project.events.definition(name)
    except KeyError:
        raise EditError(f"There is no event named '{name}'.") from None


def _key(project: Project, index: int) -> EventKey:
    keys = project.events.keys
    if not isinstance(index, int) or not 0 <= index < len(keys):
        raise EditError(f"There is no event key {index!r} (the animation has {len(keys)}).")
    return keys[index]


def _with_keys(project: Project, keys) -> Project:
    return replace(project, events=replace(project.events, keys=tuple(keys)))


__all__ = ["add_event", "set_event", "delete_event", "add_event_key", "move_event_key", "set_event_key",
           "delete_event_key"]
