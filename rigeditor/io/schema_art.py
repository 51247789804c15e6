"""The artwork part of the project file (schema_version 3): slots, their image
attachments, and the draw-order track. Units as in the file: pixels and model units
(one image pixel = one model unit at scale 1), degrees. docs/file-format.md describes
every field.

An attachment carries ``type`` ("image" today) so other kinds (meshes) can join it.
"""
from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field

from rigeditor.io.schema import Frame, Num, Positive, StepChannel, Str, Vec2, _Model, _rule

Unit = Annotated[Num, _rule("must be between 0 and 1", lambda v: 0 <= v <= 1)]
Rgba = Annotated[list[Unit], Field(min_length=4, max_length=4)]


class ImageAttachment(_Model):
    name: Str
    type: Literal["image"] = "image"
    path: Str
    width: Positive
    height: Positive
    x: Num = 0.0
    y: Num = 0.0
    rotation: Num = 0.0
    scale: Vec2 = [1.0, 1.0]
    pivot: Vec2 = [0.0, 0.0]
    tint: Rgba = [1.0, 1.0, 1.0, 1.0]
    opacity: Unit = 1.0


class Slot(_Model):
    name: Str
    bone: Optional[Str] = None
    attachments: list[ImageAttachment] = []
    attachment: StepChannel = Field(default_factory=lambda: StepChannel(default=""))


class DrawOrderKey(_Model):
    frame: Frame
    order: list[Str]


class DrawOrder(_Model):
    keys: list[DrawOrderKey] = []
