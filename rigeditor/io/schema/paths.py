"""Path attachments and path constraints in the project file (optional fields, added
after schema 6: files without them read unchanged): layout and conversion.

Units as written: model units for vertices, lengths, positions and fixed spacings,
degrees for the offset rotation; position, spacing and mixes are 1-D channels.
docs/file-format.md describes every field.
"""
from __future__ import annotations

import math
from typing import Literal, Optional

from pydantic import Field

from rigeditor.io.schema.convert_keys import file_degrees, file_value, keys_data, keys_from_file
from rigeditor.io.schema.project import Channel1, Int, Num, Str, Vec2, _Model
from rigeditor.model.data.path_attachment import PathAttachment
from rigeditor.model.data.path_constraint import CHANNELS, PathConstraint


class Influence(_Model):
    bone: Int  # index into the path's bones
    x: Num
    y: Num
    weight: Num


class PathFile(_Model):
    name: Str
    closed: bool = False
    constant_speed: bool = True
    lengths: list[Num] = []
    vertices: list[Vec2] = []
    bones: list[Optional[Str]] = []  # weighted only; null: the character space
    influences: list[list[Influence]] = []  # weighted only: per vertex
    skin: Optional[Str] = None


def _channel(default):
    return Field(default_factory=lambda: Channel1(default=default))


class PathConstraintFile(_Model):
    name: Str
    bones: list[Str]
    target: Str
    order: Int = 0
    position_mode: Literal["fixed", "percent"] = "percent"
    spacing_mode: Literal["length", "fixed", "percent", "proportional"] = "length"
    rotate_mode: Literal["tangent", "chain", "chainScale"] = "tangent"
    offset_rotation: Num = 0.0
    position: Channel1 = _channel(0.0)
    spacing: Channel1 = _channel(0.0)
    mix_rotate: Channel1 = _channel(1.0)
    mix_x: Channel1 = _channel(1.0)
    mix_y: Channel1 = _channel(1.0)


def to_path_attachment(p: PathFile) -> PathAttachment:
    return PathAttachment(p.name, tuple((float(x), float(y)) for x, y in p.vertices), p.closed, p.constant_speed,
                          tuple(float(v) for v in p.lengths), tuple(p.bones),
                          tuple(tuple((i.bone, float(i.x), float(i.y), float(i.weight)) for i in row)
                                for row in p.influences), p.skin or "")


def path_attachment_data(p: PathAttachment) -> dict:
    out = {"name": p.name, "closed": bool(p.closed), "constant_speed": bool(p.constant_speed),
           "lengths": [float(v) for v in p.lengths], **({"skin": p.skin} if p.skin else {})}
    if p.weighted:
        out["bones"] = list(p.bones)
        out["influences"] = [[{"bone": int(b), "x": float(x), "y": float(y), "weight": float(w)}
                              for b, x, y, w in row] for row in p.influences]
    else:
        out["vertices"] = [[float(x), float(y)] for x, y in p.vertices]
    return out


def to_path_constraint(c: PathConstraintFile) -> PathConstraint:
    from rigeditor.model.data.timeline import Channel

    channels = {ch: Channel(file_value(getattr(c, ch).default), keys_from_file(getattr(c, ch).keys, 1))
                for ch in CHANNELS}
    return PathConstraint(c.name, tuple(c.bones), c.target, c.order, c.position_mode, c.spacing_mode,
                          c.rotate_mode, float(c.offset_rotation) * math.pi / 180.0, **channels)


def path_constraint_data(c: PathConstraint) -> dict:
    out = {"name": c.name, "bones": list(c.bones), "target": c.target, "order": int(c.order),
           "position_mode": c.position_mode, "spacing_mode": c.spacing_mode, "rotate_mode": c.rotate_mode,
           "offset_rotation": file_degrees(c.offset_rotation)}
    for ch in CHANNELS:
        channel = getattr(c, ch)
        out[ch] = {"default": float(channel.default[0]), "keys": keys_data(channel.keys)}
    return out
