"""Boxes, clipping polygons and points in the Spine export (the reverse of ``read_shapes``).

A box is a ``boundingbox``, a clipping polygon a ``clipping`` (``end``: its end slot,
left out when it clips to the end of the draw order), a point a ``point`` (x, y,
rotation in degrees); ``color`` is the shape's tint. A rigid polygon's ``vertices``
are x, y pairs in its slot bone's frame (its own placement applied); a weighted one's are Spine's weighted list
(per vertex its influence count, then bone index, x, y, weight), the character space
being the root bone.
"""
from __future__ import annotations

import math

import numpy as np

from rigeditor.model.data.project import CHARACTER
from rigeditor.model.data.shapes import BOX, POINT, ShapeAttachment

_TYPE = {BOX: "boundingbox", "clipping": "clipping", POINT: "point"}


def shape_json(a: ShapeAttachment, bone_index: dict, root: str) -> dict:
    """The Spine attachment map of ``a``; bone_index: {bone name: Spine bone index}."""
    out = {"type": _TYPE[a.kind], "color": "".join(f"{round(v * 255):02x}" for v in a.tint)}
    if a.kind == POINT:
        return {**out, "x": _r(a.x), "y": _r(a.y), "rotation": _r(math.degrees(a.rotation))}
    if a.weighted:
        index = [bone_index[root if b == CHARACTER else b] for b in a.bones]
        flat: list = []
        for vertex in a.influences:
            flat.append(len(vertex))
            for b, x, y, w in vertex:
                flat += [index[b], _r(x), _r(y), _r(w)]
    else:
        flat = [_r(v) for xy in a.local().apply(np.asarray(a.vertices, float).reshape(-1, 2)) for v in xy]
    out.update(vertexCount=a.count, vertices=flat)
    if a.end:
        out["end"] = a.end
    return out


def _r(x: float) -> float:
    return round(float(x), 6) + 0.0


__all__ = ["shape_json"]
