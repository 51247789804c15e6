"""Spine's events: the skeleton's ``events`` (definitions with their default values)
and an animation's ``events`` keys, as ``model.data.events``.

A definition's values default as Spine's reader defaults them (int 0, float 0, string
"", no audio, volume 1, balance 0). A key keeps only the values it gives (the others
are the definition's; volume and balance 1 and 0, as the runtimes play them). A key's
frame is where a runtime sampling at the frame rate fires it: at its 32-bit time, so a
key the runtimes hold a hair after its frame fires on the next (``read_keys.frame_of``).
"""
from __future__ import annotations

import math

from rigeditor.io.spine.read_keys import frame_of
from rigeditor.io.spine.skeleton import SpineError
from rigeditor.model.data.events import EventDef, EventKey

_FIELDS = (("int", "int_value", int), ("float", "float_value", float), ("string", "string", str),
           ("volume", "volume", float), ("balance", "balance", float))


def event_definitions(raw) -> tuple[EventDef, ...]:
    """The definitions of a skeleton's ``events`` object; SpineError where one is bad."""
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        raise SpineError(None, [f"events: must be an object of events, got {type(raw).__name__}"])
    out = []
    for name, e in raw.items():
        if not isinstance(e, dict):
            raise SpineError(None, [f"events.{name}: must be an object, got {type(e).__name__}"])
        values = _values(e, f"events.{name}")
        audio = e.get("audio") or ""
        if not isinstance(audio, str):
            raise SpineError(None, [f"events.{name}.audio: must be a path, got {audio!r}"])
        out.append(EventDef(name, values.get("int_value", 0), values.get("float_value", 0.0),
                            values.get("string", ""), audio, values.get("volume", 1.0), values.get("balance", 0.0)))
    return tuple(out)


def event_keys(keys, definitions, fps: float, at: str) -> tuple[EventKey, ...]:
    """An animation's event keys (``at``: its JSON path), in time order."""
    names = {d.name for d in definitions}
    if not isinstance(keys, list):
        raise SpineError(None, [f"{at}: must be a list of keys, got {type(keys).__name__}"])
    out = []
    for i, k in enumerate(keys):
        where = f"{at}[{i}]"
        if not isinstance(k, dict):
            raise SpineError(None, [f"{where}: must be an object, got {type(k).__name__}"])
        if k.get("name") not in names:
            raise SpineError(None, [f"{where}.name: unknown event {k.get('name')!r}"])
        t = k.get("time", 0.0)
        if not isinstance(t, (int, float)) or isinstance(t, bool) or not math.isfinite(t):
            raise SpineError(None, [f"{where}.time: must be a number of seconds, got {t!r}"])
        out.append(EventKey(frame_of(float(t), fps, step=True), k["name"], **_values(k, where)))
    return tuple(sorted(out, key=lambda e: e.frame))


def _values(e: dict, where: str) -> dict:
    out = {}
    for field, attr, kind in _FIELDS:
        if field not in e:
            continue
        v = e[field]
        ok = (isinstance(v, str) if kind is str else
              isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v))
        if kind is int and ok and float(v) != int(v):
            ok = False
        if field == "volume" and ok and not 0 <= v <= 1 or field == "balance" and ok and not -1 <= v <= 1:
            ok = False
        if not ok:
            raise SpineError(None, [f"{where}.{field}: must be {_WANT[field]}, got {v!r}"])
        out[attr] = kind(v)
    return out


_WANT = {"int": "a whole number", "float": "a finite number", "string": "text", "volume": "between 0 and 1",
         "balance": "between -1 and 1"}

__all__ = ["event_definitions", "event_keys"]
