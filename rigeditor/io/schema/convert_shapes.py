"""Boxes, clipping polygons and points between the file layout (degrees) and the model (radians)."""
from __future__ import annotations

import math

from rigeditor.model.data.shapes import POINT, ShapeAttachment


def to_shape(a) -> ShapeAttachment:
    """The model's shape of schema attachment ``a`` (type box, clipping or point)."""
    return ShapeAttachment(
        name=a.name, kind=a.type, x=float(a.x), y=float(a.y), rotation=math.radians(a.rotation),
        scale=(float(a.scale[0]), float(a.scale[1])),
        tint=tuple(float(v) for v in a.tint), skin=a.skin or "",
        vertices=tuple((float(x), float(y)) for x, y in a.vertices or ()),
        bones=tuple(a.bones or ()),
        influences=tuple(tuple((int(b), float(x), float(y), float(w)) for b, x, y, w in vertex)
                         for vertex in a.influences or ()),
        end=a.end or "")


def shape_data(a: ShapeAttachment, deg) -> dict:
    """``a`` as the file's JSON data; ``deg`` converts radians."""
    out = {"name": a.name, "type": a.kind, "tint": [float(v) for v in a.tint], **({"skin": a.skin} if a.skin else {})}
    if a.kind == POINT:
        return {**out, "x": float(a.x), "y": float(a.y), "rotation": deg(a.rotation)}
    if a.weighted:
        out.update(bones=list(a.bones), influences=[[[int(b), float(x), float(y), float(w)] for b, x, y, w in v]
                                                    for v in a.influences])
    else:
        out["vertices"] = [[float(x), float(y)] for x, y in a.vertices]
        out.update(x=float(a.x), y=float(a.y), rotation=deg(a.rotation), scale=[float(v) for v in a.scale])
    if a.end:
        out["end"] = a.end
    return out


__all__ = ["to_shape", "shape_data"]
