"""Semantic checks of the events: definitions (unique names, values in range) and the
open animation's keys (known names, time order); ``where: what`` as the file has it
(``events.keys[3].name``)."""
from __future__ import annotations

import math

from rigeditor.model.data.events import Events


def event_problems(events: Events) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    for i, d in enumerate(events.definitions):
        where = f"events.definitions[{i}]"
        if not isinstance(d.name, str) or not d.name.strip():
            out.append(f"{where}.name: must be a non-empty name, got {d.name!r}")
        elif d.name in seen:
            out.append(f"{where}.name: duplicate name {d.name!r}")
        seen.add(d.name)
        out += _values(where, d.float_value, d.volume, d.balance)
    previous = None
    for i, k in enumerate(events.keys):
        where = f"events.keys[{i}]"
        if k.name not in seen:
            out.append(f"{where}.name: unknown event {k.name!r}")
        if not (isinstance(k.frame, (int, float)) and math.isfinite(k.frame)):
            out.append(f"{where}.frame: must be a finite number, got {k.frame!r}")
        elif previous is not None and k.frame < previous:
            out.append(f"{where}.frame: keys must be in time order, got {k.frame:g} after {previous:g}")
        else:
            previous = k.frame
        out += _values(where, k.float_value, k.volume, k.balance)
    return out


def _values(where, value, volume, balance) -> list[str]:
    out = []
    if value is not None and not math.isfinite(value):
        out.append(f"{where}.float: must be a finite number, got {value!r}")
    if volume is not None and not 0 <= volume <= 1:
        out.append(f"{where}.volume: must be between 0 and 1, got {volume!r}")
    if balance is not None and not -1 <= balance <= 1:
        out.append(f"{where}.balance: must be between -1 and 1, got {balance!r}")
    return out
