"""The whole project file (schema_version 6): the rig's parts (``project``), the artwork
(``art``) and the stored animations (``clips``) in one document, validated in one go."""
from __future__ import annotations

from typing import Optional

from pydantic import Field

from rigeditor.io.schema.events import Events
from rigeditor.io.schema.art import DrawOrder, Skins, Slot
from rigeditor.io.schema.clips import Animation
from rigeditor.io.schema.constraints import Transform
from rigeditor.io.schema.deform import DeformTrack
from rigeditor.io.schema.paths import PathConstraintFile
from rigeditor.io.schema.physics import Physics
from rigeditor.io.schema.project import Bone, Chain, Int, Space, Str, Target, Timeline, _Model


class Document(_Model):
    format: Str
    schema_version: Int
    name: Str
    timeline: Timeline
    spaces: list[Space]
    bones: list[Bone]
    targets: list[Target]
    chains: list[Chain]
    transforms: list[Transform] = []  # schema 6 on
    paths: list[PathConstraintFile] = []  # path constraints (io.schema.paths), optional
    physics: list[Physics] = []  # optional (physics constraints)
    slots: list[Slot]
    draw_order: DrawOrder
    skins: Skins = Field(default_factory=Skins)
    deforms: list[DeformTrack] = []  # optional: the open animation's deform keys
    animation: Str
    animations: list[Animation]
    events: Optional[Events] = None  # optional (schema events): definitions and the open animation's keys
