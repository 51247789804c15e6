"""Events in the Spine export: the skeleton's ``events`` (each definition's values that
are not Spine's defaults; volume and balance with an audio path only) and the exported
animation's ``events`` keys over the baked range, each with the values it gives.

Key times are written as every key time of the export (``write_curves.key_time``): a
key on a whole frame as the largest 32-bit float at or before the frame's time, so a
runtime sampling at the frame rate fires it on that frame.
"""
from __future__ import annotations

from rigeditor.io.spine.write_curves import key_time
from rigeditor.model.data.events import Events

_KEY_FIELDS = (("int", "int_value"), ("float", "float_value"), ("string", "string"))


def event_definitions(events: Events) -> dict:
    """{"events": {name: values}} for the skeleton ({} without events)."""
    out = {}
    for d in events.definitions:
        entry: dict = {}
        if d.int_value != 0:
            entry["int"] = int(d.int_value)
        if d.float_value != 0.0:
            entry["float"] = float(d.float_value)
        if d.string:
            entry["string"] = d.string
        if d.audio:
            entry.update(audio=d.audio, volume=float(d.volume), balance=float(d.balance))
        out[d.name] = entry
    return {"events": out} if out else {}


def event_timeline(events: Events, first: float, last: float, fps: float) -> dict:
    """{"events": [keys]} of the keys between frames ``first`` and ``last`` (a key kept a
    hair after the last frame, at its 32-bit time, too); {} when there are none."""
    audio = {d.name for d in events.definitions if d.audio}
    out = []
    for k in events.keys:
        if not first <= k.frame < last + 1:
            continue
        entry: dict = {"time": key_time(k.frame - first, fps), "name": k.name}
        for field, attr in _KEY_FIELDS:
            value = getattr(k, attr)
            if value is not None:
                entry[field] = value
        if k.name in audio:
            for field in ("volume", "balance"):
                if getattr(k, field) is not None:
                    entry[field] = float(getattr(k, field))
        out.append(entry)
    return {"events": out} if out else {}


__all__ = ["event_definitions", "event_timeline"]
