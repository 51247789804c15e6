"""Semantic checks of boxes, clipping polygons and points (``where.field[index]: what, got value``).

A polygon needs three vertices or more, finite coordinates, and (weighted) influences
whose bone indices name one of its ``bones``, each an existing bone or the character
space, with weights that sum to 1 like a mesh's (>= ``mesh.MIN_WEIGHT`` each).
A clipping polygon's ``end`` names a slot or is "" (to the end of the draw order).
"""
from __future__ import annotations

import math

from rigeditor.model.data.project import CHARACTER
from rigeditor.model.data.shapes import POINT, POLYGON_KINDS
from rigeditor.model.validation.mesh import MIN_WEIGHT, WEIGHT_SUM_TOLERANCE

_MAX = 1e9


def _finite(v) -> bool:
    return isinstance(v, (int, float)) and math.isfinite(v) and abs(v) <= _MAX


def shape_problems(a, where: str, bone_names, slot_names) -> list[str]:
    out: list[str] = []
    if a.kind == POINT:
        for name in ("x", "y", "rotation"):
            if not _finite(getattr(a, name)):
                out.append(f"{where}.{name}: must be a finite number of magnitude <= {_MAX:g}, "
                           f"got {getattr(a, name)!r}")
        return out
    if a.kind not in POLYGON_KINDS:
        return [f"{where}.type: unknown attachment type {a.kind!r}"]
    if not a.weighted:
        for name, v in (("x", a.x), ("y", a.y), ("rotation", a.rotation), ("scale[0]", a.scale[0]),
                        ("scale[1]", a.scale[1])):
            if not _finite(v):
                out.append(f"{where}.{name}: must be a finite number of magnitude <= {_MAX:g}, got {v!r}")
        if 0.0 in a.scale:
            out.append(f"{where}.scale: a scale of zero collapses the polygon")
    if a.weighted and a.vertices:
        out.append(f"{where}.vertices: a weighted polygon keeps its vertices in influences, not both")
    if a.count < 3:
        out.append(f"{where}.vertices: a {a.kind} polygon needs at least 3 vertices, got {a.count}")
    for k, v in enumerate(a.vertices):
        if len(v) != 2 or not all(_finite(c) for c in v):
            out.append(f"{where}.vertices[{k}]: must be two finite numbers, got {list(v)!r}")
            break
    for k, b in enumerate(a.bones):
        if b != CHARACTER and b not in bone_names:
            out.append(f"{where}.bones[{k}]: unknown bone {b!r}")
    for k, vertex in enumerate(a.influences):
        bad = [inf for inf in vertex if len(inf) != 4 or not isinstance(inf[0], int)
               or not 0 <= inf[0] < len(a.bones) or not all(_finite(c) for c in inf[1:])
               or inf[3] < MIN_WEIGHT]
        if not vertex or bad:
            out.append(f"{where}.influences[{k}]: each must be [bone index < {len(a.bones)}, x, y, weight >= "
                       f"{MIN_WEIGHT:g}], got {[list(i) for i in (bad or vertex)]!r}")
            break
        total = sum(inf[3] for inf in vertex)
        if abs(total - 1.0) > WEIGHT_SUM_TOLERANCE:
            out.append(f"{where}.influences[{k}]: weights must sum to 1, got {total!r}")
            break
    if a.end and a.end not in slot_names:
        out.append(f"{where}.end: unknown slot {a.end!r}")
    return out


__all__ = ["shape_problems"]
