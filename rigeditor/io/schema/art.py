"""The artwork part of the project file (schema_version 3): slots, their image
attachments, and the draw-order track. Units as in the file: pixels and model units
(one image pixel = one model unit at scale 1), degrees. docs/file-format.md describes
every field.

An attachment carries ``type``: "image", or "mesh" (a picture on a triangle mesh,
optionally weighted to bones: the mesh fields below, checked for consistency by
``rigeditor.model.validation.mesh``). Mesh fields on an image are refused.
"""
from __future__ import annotations

from typing import Annotated, Literal, Optional

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from rigeditor.io.schema.paths import PathFile
from rigeditor.io.schema.project import Frame, Int, KeyTime, Num, NonNegative, Positive, StepChannel, Str, Vec2, _Model, _rule

Unit = Annotated[Num, _rule("must be between 0 and 1", lambda v: 0 <= v <= 1)]
Rgba = Annotated[list[Unit], Field(min_length=4, max_length=4)]


Tri = Annotated[list[Int], Field(min_length=3, max_length=3)]
Pair = Annotated[list[Int], Field(min_length=2, max_length=2)]
Six = Annotated[list[Num], Field(min_length=6, max_length=6)]
Four = Annotated[list[Num], Field(min_length=4, max_length=4)]
FourInt = Annotated[list[Int], Field(min_length=4, max_length=4)]
MESH_FIELDS = ("vertices", "uvs", "triangles", "edges", "bones", "bind", "indices", "weights", "blend_width")


class ImageAttachment(_Model):
    name: Str
    type: Literal["image", "mesh"] = "image"
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
    skin: Optional[Str] = None  # the skin it belongs to; none: the default skin
    # mesh only: image frame pixels (centre origin, y up), UVs in [0, 1], vertex
    # indices, weighted bones with their bind frames in the slot bone's frame
    # (a, b, c, d, tx, ty), four influences per vertex (indices into bones, weights).
    vertices: Optional[list[Vec2]] = None
    uvs: Optional[list[Vec2]] = None
    triangles: Optional[list[Tri]] = None
    edges: Optional[list[Pair]] = None
    bones: Optional[list[Str]] = None
    bind: Optional[list[Six]] = None
    indices: Optional[list[FourInt]] = None
    weights: Optional[list[Four]] = None
    blend_width: Optional[NonNegative] = None

    @model_validator(mode="after")
    def _mesh_fields(self):
        if self.type == "image":
            extra = [f for f in MESH_FIELDS if getattr(self, f) is not None]
            if extra:
                raise PydanticCustomError("mesh", "{message}", {
                    "message": f"an image attachment has no {', '.join(extra)} (only a mesh has)"})
        elif self.vertices is None or self.triangles is None:
            raise PydanticCustomError("mesh", "{message}", {
                "message": "a mesh needs vertices and triangles, it has no " + ("vertices" if self.vertices is None
                                                                                else "triangles")})
        return self


class Slot(_Model):
    name: Str
    bone: Optional[Str] = None
    attachments: list[ImageAttachment] = []
    attachment: StepChannel = Field(default_factory=lambda: StepChannel(default=""))
    paths: list[PathFile] = []  # path attachments (io.schema.paths), optional


class DrawOrderKey(_Model):
    frame: KeyTime
    order: list[Str]


class DrawOrder(_Model):
    keys: list[DrawOrderKey] = []


class Skins(_Model):
    """The skins besides the default one (names, in order) and the ones shown
    (``active``, combined in order over the default skin)."""
    names: list[Str] = []
    active: list[Str] = []
