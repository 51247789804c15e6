"""Events between the file (schema events) and the model (``model.data.events``)."""
from __future__ import annotations

from rigeditor.io.schema.project import frame_number
from rigeditor.model.data.events import EventDef, EventKey, Events


def to_key(k) -> EventKey:
    return EventKey(k.frame, k.name, k.int, k.float, k.string, k.volume, k.balance)


def to_events(e) -> Events:
    if e is None:
        return Events()
    return Events(tuple(EventDef(d.name, d.int, float(d.float), d.string, d.audio, float(d.volume), float(d.balance))
                        for d in e.definitions), tuple(to_key(k) for k in e.keys))


def key_data(k: EventKey) -> dict:
    out = {"frame": frame_number(k.frame), "name": k.name}
    for field, value in (("int", k.int_value), ("float", k.float_value), ("string", k.string),
                         ("volume", k.volume), ("balance", k.balance)):
        if value is not None:
            out[field] = value
    return out


def events_data(events: Events) -> dict:
    """{"events": ...} as plain JSON data; {} without events (a file as before)."""
    if not events.definitions and not events.keys:
        return {}
    return {"events": {"definitions": [{"name": d.name, "int": int(d.int_value), "float": float(d.float_value),
                                        "string": d.string, "audio": d.audio, "volume": float(d.volume),
                                        "balance": float(d.balance)} for d in events.definitions],
                       "keys": [key_data(k) for k in events.keys]}}
