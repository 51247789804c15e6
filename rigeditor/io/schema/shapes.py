"""The file layout of boxes, clipping polygons and points (attachment ``type`` "box",
"clipping", "point"; docs/file-format.md). A shape has no picture (no path, width,
height) and no mesh fields; a polygon has either ``vertices`` (rigid, in its slot
bone's frame) or ``bones`` and ``influences`` (weighted: per vertex a list of
[bone index, x, y, weight], the vertex in that bone's frame); a clipping polygon may
name its ``end`` slot. A point uses x, y and rotation only.
"""
from __future__ import annotations

from typing import Annotated

from pydantic import Field
from pydantic_core import PydanticCustomError

from rigeditor.io.schema.project import Num

SHAPE_TYPES = ("box", "clipping", "point")
Influence = Annotated[list[Num], Field(min_length=4, max_length=4)]
_NOT_SHAPE = ("path", "width", "height", "uvs", "triangles", "edges", "bind", "indices", "weights", "blend_width")


def shape_fields(a):
    """``a`` (a schema attachment of a shape type) or a PydanticCustomError naming what does not belong."""
    extra = [f for f in _NOT_SHAPE if getattr(a, f) is not None]
    if a.type == "point":
        extra += [f for f in ("vertices", "bones", "influences", "end") if getattr(a, f) is not None]
    elif a.type == "box" and a.end is not None:
        extra.append("end")
    if extra:
        raise PydanticCustomError("shape", "{message}", {
            "message": f"a {a.type} attachment has no {', '.join(extra)}"})
    if a.type != "point" and (a.vertices is None) == (a.influences is None):
        raise PydanticCustomError("shape", "{message}", {
            "message": f"a {a.type} polygon needs either vertices (rigid) or influences (weighted), not "
                       + ("both" if a.vertices is not None else "neither")})
    if a.influences is not None and a.bones is None:
        raise PydanticCustomError("shape", "{message}", {
            "message": f"a weighted {a.type} polygon needs bones (its influences' bone indices refer to them)"})
    for k, vertex in enumerate(a.influences or []):
        for inf in vertex:
            if not float(inf[0]).is_integer():
                raise PydanticCustomError("shape", "{message}", {
                    "message": f"influences[{k}]: a bone index must be a whole number, got {inf[0]!r}"})
    return a


__all__ = ["SHAPE_TYPES", "Influence", "shape_fields"]
