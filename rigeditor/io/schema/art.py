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

from rigeditor.io.schema.slot_color import Blend, SlotColor
from rigeditor.io.schema.paths import PathFile
from rigeditor.io.schema.project import Int, KeyTime, Num, NonNegative, Positive, StepChannel, Str, Vec2, _Model, _rule

Unit = Annotated[Num, _rule("must be between 0 and 1", lambda v: 0 <= v <= 1)]
Rgba = Annotated[list[Unit], Field(min_length=4, max_length=4)]


Tri = Annotated[list[Int], Field(min_length=3, max_length=3)]
Pair = Annotated[list[Int], Field(min_length=2, max_length=2)]
Six = Annotated[list[Num], Field(min_length=6, max_length=6)]
Four = Annotated[list[Num], Field(min_length=4, max_length=4)]
Row = Annotated[list[Num], Field(min_length=1)]  # a vertex's influences: 4, or more for an imported mesh
RowInt = Annotated[list[Int], Field(min_length=1)]
from rigeditor.io.schema.shapes import SHAPE_TYPES, Influence, shape_fields  # noqa: E402
from rigeditor.io.schema.sequences import Sequence  # noqa: E402

MESH_FIELDS = ("vertices", "uvs", "triangles", "edges", "bones", "bind", "indices", "weights", "bind_offsets", "blend_width",
               "parent", "parent_skin", "timelines")


class ImageAttachment(_Model):
    name: Str
    type: Literal["image", "mesh", "box", "clipping", "point"] = "image"
    path: Optional[Str] = None  # a picture's (image, mesh); a shape has none
    width: Optional[Positive] = None
    height: Optional[Positive] = None
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
    # (a, b, c, d, tx, ty), influences per vertex (indices into bones, weights): four, or
    # as many as an imported mesh's most weighted vertex has, every row as long.
    vertices: Optional[list[Vec2]] = None
    uvs: Optional[list[Vec2]] = None
    triangles: Optional[list[Tri]] = None
    edges: Optional[list[Pair]] = None
    bones: Optional[list[Str]] = None
    bind: Optional[list[Six]] = None
    indices: Optional[list[RowInt]] = None
    weights: Optional[list[Row]] = None
    # where each influence's bone put the vertex at bind, from the vertex (slot bone's
    # frame; a Spine mesh bound in another pose than its setup pose), per vertex and influence
    bind_offsets: Optional[list[list[Vec2]]] = None
    blend_width: Optional[NonNegative] = None
    # a linked mesh (optional): the parent mesh in this slot whose geometry it shares,
    # the parent's skin (none: the default skin), whether it plays the parent's deform keys
    parent: Optional[Str] = None
    parent_skin: Optional[Str] = None
    timelines: Optional[bool] = None
    # box and clipping only (io.schema.shapes): weighted vertices, the clipping's end slot
    influences: Optional[list[list[Influence]]] = None
    end: Optional[Str] = None
    # image and mesh only: frame-by-frame pictures (io.schema.sequences)
    sequence: Optional[Sequence] = None

    @model_validator(mode="after")
    def _mesh_fields(self):
        if self.type in SHAPE_TYPES:
            if self.sequence is not None:
                raise PydanticCustomError("shape", "{message}", {
                    "message": f"a {self.type} attachment has no sequence (only a picture has)"})
            return shape_fields(self)
        missing = [f for f in ("path", "width", "height") if getattr(self, f) is None]
        extra = [f for f in ("influences", "end") if getattr(self, f) is not None]
        if missing or extra:
            raise PydanticCustomError("picture", "{message}", {
                "message": f"a picture attachment ({self.type}) needs path, width and height"
                           + (f", it has no {', '.join(missing)}" if missing else "")
                           + (f"; it has no {', '.join(extra)} (only a box or clipping polygon has)" if extra else "")})
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
    color: Optional[SlotColor] = None  # optional: white, no dark colour (schema_slot_color)
    blend: Blend = "normal"
    sequence: StepChannel = Field(default_factory=lambda: StepChannel(default=""))  # sequence keys
    paths: list[PathFile] = []  # path attachments (io.schema.paths), optional


class DrawOrderKey(_Model):
    frame: KeyTime
    order: list[Str]


class DrawOrder(_Model):
    keys: list[DrawOrderKey] = []


class Skins(_Model):
    """The skins besides the default one (names, in order), the ones shown (``active``,
    combined in order over the default skin) and the bones only a skin brings
    (``bones``: {skin: [bone]}, Spine's skin bones) and constraints (``constraints``)."""
    names: list[Str] = []
    active: list[Str] = []
    bones: dict[Str, list[Str]] = {}
    constraints: dict[Str, list[Str]] = {}  # {skin: ["chain:NAME", "transform:NAME", ...]}
