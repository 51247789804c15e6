"""Events in the project file (optional: a file without them reads unchanged).
docs/file-format.md describes every field.

``events.definitions``: the skeleton's events with their default values;
``events.keys``: the open animation's event keys (the other animations' under
``animations[].tracks.events``). A key's values are optional: absent, the definition's
(volume and balance: 1 and 0, as Spine plays them).
"""
from __future__ import annotations

from typing import Annotated, Optional

from rigeditor.io.schema.project import Int, KeyTime, Num, Str, _Model, _rule

Volume = Annotated[Num, _rule("must be between 0 and 1", lambda v: 0 <= v <= 1)]
Balance = Annotated[Num, _rule("must be between -1 and 1", lambda v: -1 <= v <= 1)]


class EventDef(_Model):
    name: Str
    int: Int = 0
    float: Num = 0.0
    string: Str = ""
    audio: Str = ""
    volume: Volume = 1.0
    balance: Balance = 0.0


class EventKey(_Model):
    frame: KeyTime
    name: Str
    int: Optional[Int] = None
    float: Optional[Num] = None
    string: Optional[Str] = None
    volume: Optional[Volume] = None
    balance: Optional[Balance] = None


class Events(_Model):
    definitions: list[EventDef] = []
    keys: list[EventKey] = []
