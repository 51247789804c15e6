"""Spine bounding boxes, clipping attachments and points as RigEditor shapes
(``model.data.shapes``).

- ``boundingbox`` {vertexCount, vertices, color = 60f000ff} -> a box;
- ``clipping`` {end, vertexCount, vertices, color = ce3a3aff} -> a clipping polygon
  ending at slot ``end`` ("" when absent: to the end of the draw order);
- ``point`` {x, y, rotation (degrees), color = f1f100ff} -> a point.

``vertices`` is Spine's vertex list: x, y per vertex (in the slot bone's frame) when
it holds 2 x vertexCount numbers, else weighted (per vertex its influence count, then
per influence bone index, x, y in that bone's frame, weight). The root bone is the
character space. Refusals are SpineErrors naming the attachment's JSON path.
"""
from __future__ import annotations

import math

from rigeditor.io.spine.skeleton import SpineError, _Bad, color
from rigeditor.model.data.project import CHARACTER
from rigeditor.model.data.shapes import BOX, CLIPPING, POINT, ShapeAttachment

SPINE_KINDS = {"boundingbox": BOX, "clipping": CLIPPING, "point": POINT}
DEFAULT_COLOR = {"boundingbox": "60f000ff", "clipping": "ce3a3aff", "point": "f1f100ff"}
"""Spine's editor colours for each kind (what its reader takes when ``color`` is absent)."""


def _number(a: dict, name: str, default: float, at: str) -> float:
    v = a.get(name, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or abs(v) > 1e9:
        raise SpineError(None, [f"{at}.{name}: must be a finite number, got {v!r}"])
    return float(v)


def read_shape(a: dict, key: str, at: str, spine_bones: list[str], slot_names) -> ShapeAttachment:
    """The shape of Spine attachment map ``a`` named ``key`` (JSON path ``at``);
    spine_bones: the skeleton's bone names (index 0 the root)."""
    kind = a["type"]
    try:
        tint = tuple(float(v) for v in color(a.get("color", DEFAULT_COLOR[kind]), f"{at}.color"))
    except _Bad as bad:
        raise SpineError(None, [str(bad)]) from None
    if kind == "point":
        return ShapeAttachment(key, kind=POINT, x=_number(a, "x", 0.0, at), y=_number(a, "y", 0.0, at),
                               rotation=math.radians(_number(a, "rotation", 0.0, at)), tint=tint)
    count, flat = a.get("vertexCount"), a.get("vertices")
    if isinstance(count, bool) or not isinstance(count, int) or count < 3:
        raise SpineError(None, [f"{at}.vertexCount: must be a whole number >= 3, got {count!r}"])
    if not isinstance(flat, list) or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                             and math.isfinite(v) for v in flat):
        raise SpineError(None, [f"{at}.vertices: must be a list of finite numbers"])
    end = a.get("end")
    if kind == "clipping" and end is not None and end not in slot_names:
        raise SpineError(None, [f"{at}.end: unknown slot {end!r}"])
    common = dict(kind=SPINE_KINDS[kind], tint=tint, end=(end or "") if kind == "clipping" else "")
    if len(flat) == 2 * count:
        return ShapeAttachment(key, vertices=tuple((float(flat[i]), float(flat[i + 1]))
                                                   for i in range(0, len(flat), 2)), **common)
    used: dict[str, int] = {}
    influences, i = [], 0
    try:
        for _ in range(count):
            n = flat[i]
            if not float(n).is_integer() or n < 1:
                raise IndexError
            vertex = []
            for k in range(int(n)):
                b, x, y, w = flat[i + 1 + 4 * k:i + 5 + 4 * k]
                if not float(b).is_integer() or not 0 <= b < len(spine_bones):
                    raise SpineError(None, [f"{at}.vertices[{i + 1 + 4 * k}]: bone index {b!r} names no bone"])
                name = CHARACTER if b == 0 else spine_bones[int(b)]
                vertex.append((used.setdefault(name, len(used)), float(x), float(y), float(w)))
            influences.append(tuple(vertex))
            i += 1 + 4 * int(n)
        if i != len(flat):
            raise IndexError
    except (IndexError, ValueError):
        raise SpineError(None, [f"{at}.vertices: {len(flat)} numbers are neither x, y for {count} vertices nor "
                                f"weighted vertices (count, then bone, x, y, weight per influence)"]) from None
    return ShapeAttachment(key, bones=tuple(used), influences=tuple(influences), **common)


def weighted_bones(skel) -> set[str]:
    """Bones the weighted boxes and clipping polygons of every skin hang on (kept by the import)."""
    out = set()
    for slot in (slot for skin in skel.skins.values() for slot in (skin.get("attachments") or {}).values()):
        for a in slot.values():
            if a.get("type") in ("boundingbox", "clipping") and isinstance(a.get("vertexCount"), int):
                flat = a.get("vertices") or []
                if len(flat) == 2 * a["vertexCount"]:
                    continue
                i = 0
                try:
                    for _ in range(a["vertexCount"]):
                        n = int(flat[i])
                        out |= {skel.bones[int(flat[i + 1 + 4 * k])].name for k in range(n)}
                        i += 1 + 4 * n
                except (IndexError, ValueError, TypeError):
                    pass  # refused with its place by read_shape
    return out


__all__ = ["SPINE_KINDS", "DEFAULT_COLOR", "read_shape", "weighted_bones"]
