"""Transform constraints in the project file (schema_version 6 on): layout and conversion.

Units as written: rotation and shear offsets in degrees, x and y offsets in model
units, scale offsets as added factors; mixes are 1-D channels (any finite number).
docs/file-format.md describes every field.
"""
from __future__ import annotations

import math

from pydantic import Field

from rigeditor.io.schema.convert_keys import file_degrees, file_value, keys_data, keys_from_file
from rigeditor.io.schema.project import Channel1, Int, Num, Str, _Model
from rigeditor.model.data.constraints import MIXES, TransformConstraint

_ANGLE_OFFSETS = ("offset_rotation", "offset_shear_y")


def _mix():
    return Field(default_factory=lambda: Channel1(default=1.0))


class Transform(_Model):
    name: Str
    bones: list[Str]
    target: Str
    order: Int = 0
    local: bool = False
    relative: bool = False
    mix_rotate: Channel1 = _mix()
    mix_x: Channel1 = _mix()
    mix_y: Channel1 = _mix()
    mix_scale_x: Channel1 = _mix()
    mix_scale_y: Channel1 = _mix()
    mix_shear_y: Channel1 = _mix()
    offset_rotation: Num = 0.0
    offset_x: Num = 0.0
    offset_y: Num = 0.0
    offset_scale_x: Num = 0.0
    offset_scale_y: Num = 0.0
    offset_shear_y: Num = 0.0


def to_transform(t: Transform) -> TransformConstraint:
    from rigeditor.model.data.timeline import Channel

    mixes = {m: Channel(file_value(getattr(t, m).default), keys_from_file(getattr(t, m).keys, 1))
             for m in MIXES}
    offsets = {o: float(getattr(t, o)) * (math.pi / 180.0 if o in _ANGLE_OFFSETS else 1.0)
               for o in TransformConstraint.__dataclass_fields__ if o.startswith("offset_")}
    return TransformConstraint(t.name, tuple(t.bones), t.target, t.order, t.local, t.relative,
                               **mixes, **offsets)


def transform_data(t: TransformConstraint) -> dict:
    out = {"name": t.name, "bones": list(t.bones), "target": t.target, "order": int(t.order),
           "local": bool(t.local), "relative": bool(t.relative)}
    for m in MIXES:
        ch = getattr(t, m)
        out[m] = {"default": float(ch.default[0]), "keys": keys_data(ch.keys)}
    for o in (f for f in TransformConstraint.__dataclass_fields__ if f.startswith("offset_")):
        v = getattr(t, o)
        out[o] = file_degrees(v) if o in _ANGLE_OFFSETS else float(v)
    return out
