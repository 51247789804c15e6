"""Events: named moments of an animation a game listens for (a footstep, a sound, a
hit), with values. Pure data, no Qt, no files.

An :class:`EventDef` is defined once per skeleton: its name and default values (an
integer, a float, a string, and an audio path with its volume and balance). An
:class:`EventKey` fires one at a time (frames as floats, like every key: an imported
key keeps its exact time), each value it gives overriding the definition's (None:
the definition's). As in Spine, a key's volume and balance default to 1 and 0, not to
the definition's, and apply only to an event with an audio path.

``Events`` holds the definitions and the open animation's keys (time order; keys at
one frame fire in their order). The other animations keep theirs in
``Project.animations`` under the path :data:`EVENTS` (``model.data.clips``).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

EVENTS = ("events", "", "keys")
"""The path of the event track among an animation's tracks."""


@dataclass(frozen=True)
class EventDef:
    """name: unique. int_value, float_value, string: the values a key fires unless it
    gives its own. audio: a sound file path ("" none); volume [0, 1], balance [-1, 1]:
    the sound's, as set up (Spine's editor)."""

    name: str
    int_value: int = 0
    float_value: float = 0.0
    string: str = ""
    audio: str = ""
    volume: float = 1.0
    balance: float = 0.0


@dataclass(frozen=True)
class EventKey:
    """The event ``name`` fires at ``frame``; each value not None overrides the
    definition's (volume, balance: the sound's, [0, 1] and [-1, 1])."""

    frame: float
    name: str
    int_value: int | None = None
    float_value: float | None = None
    string: str | None = None
    volume: float | None = None
    balance: float | None = None


@dataclass(frozen=True)
class Fired:
    """An event as a runtime fires it: every value resolved. frame: its key's; at: the
    sampled frame it fires on (``model.evaluation.events``; its key's frame until sampled)."""

    frame: float
    name: str
    int_value: int
    float_value: float
    string: str
    audio: str
    volume: float
    balance: float
    at: float | None = None


@dataclass(frozen=True)
class Events:
    definitions: tuple[EventDef, ...] = ()
    keys: tuple[EventKey, ...] = ()

    def definition(self, name: str) -> EventDef:
        for d in self.definitions:
            if d.name == name:
                return d
        raise KeyError(f"no event named {name!r}")

    def with_keys(self, keys) -> "Events":
        """These events with ``keys`` (sorted by frame, stable: keys at one frame keep
        their order)."""
        return replace(self, keys=tuple(sorted(keys, key=lambda k: k.frame)))

    def fired(self, key: EventKey) -> Fired:
        """``key`` with its values resolved against its definition, as Spine resolves them."""
        d = self.definition(key.name)
        sound = bool(d.audio)
        return Fired(float(key.frame), key.name,
                     d.int_value if key.int_value is None else int(key.int_value),
                     d.float_value if key.float_value is None else float(key.float_value),
                     d.string if key.string is None else key.string, d.audio,
                     (1.0 if key.volume is None else float(key.volume)) if sound else 0.0,
                     (0.0 if key.balance is None else float(key.balance)) if sound else 0.0)


__all__ = ["EVENTS", "EventDef", "EventKey", "Fired", "Events"]
