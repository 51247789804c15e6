"""The whole project file (schema_version 6): the rig's parts (``project``), the artwork
(``art``) and the stored animations (``clips``) in one document, validated in one go."""
from __future__ import annotations

from pydantic import Field

from rigeditor.io.schema.art import DrawOrder, Skins, Slot
from rigeditor.io.schema.clips import Animation
from rigeditor.io.schema.constraints import Transform
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
    physics: list[Physics] = []  # optional (physics constraints)
    slots: list[Slot]
    draw_order: DrawOrder
    skins: Skins = Field(default_factory=Skins)
    animation: Str
    animations: list[Animation]
