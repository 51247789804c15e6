"""Semantic checks of deform keys (``deforms[i].keys[k].field: what, got value``).

A track must name a mesh (or a path, box or clipping polygon) that exists (slot, skin,
attachment), once; its keys must be in increasing frame order, with offsets shaped as
the mesh needs (V vertices, one influence unweighted, the mesh's padded influences
weighted, a path's or polygon's most influences), finite and within MAX magnitude, a
known interpolation and bezier handles whose time lies in [0, 1] (so a segment's curve
is a function of time).
"""
from __future__ import annotations

import math

import numpy as np

from rigeditor.model.data.deform import DEFORM_INTERPOLATIONS
from rigeditor.model.data.mesh_attachment import MeshAttachment
from rigeditor.model.data.path_attachment import PathAttachment
from rigeditor.model.data.shapes import ShapeAttachment

_MAX = 1e9


def influences(mesh) -> int:
    """K, the influences per vertex a deform key of ``mesh`` (or a path, box or clipping
    polygon: the most influences a vertex has) holds."""
    if isinstance(mesh, PathAttachment):
        return mesh.influence_width
    if isinstance(mesh, ShapeAttachment):
        return max((len(v) for v in mesh.influences), default=1) if mesh.weighted else 1
    return mesh.indices.shape[1] if mesh.skinned else 1


def vertex_count(mesh) -> int:
    """V, the vertices a deform key of ``mesh`` (or a path, box or clipping polygon) holds."""
    if isinstance(mesh, PathAttachment):
        return mesh.vertex_count
    if isinstance(mesh, ShapeAttachment):
        return mesh.count
    return len(mesh.vertices)


def deformable(a) -> bool:
    """Whether deform keys may move attachment ``a``: a mesh, a path, a box or a
    clipping polygon (Spine's vertex attachments; a point has no vertices to key)."""
    return isinstance(a, (MeshAttachment, PathAttachment)) or (
        isinstance(a, ShapeAttachment) and a.kind in ("box", "clipping"))


def deform_problems(art) -> list[str]:
    out: list[str] = []
    slots = {s.name: s for s in art.slots}
    seen = set()
    for i, t in enumerate(art.deforms):
        where = f"deforms[{i}]"
        slot = slots.get(t.slot)
        if slot is None:
            out.append(f"{where}.slot: unknown slot {t.slot!r}")
            continue
        mesh = next((a for a in slot.attachments + tuple(slot.paths) if a.name == t.attachment and a.skin == t.skin),
                    None)
        if not deformable(mesh):  # paths and polygons: Spine deforms them too
            skin = f" of skin {t.skin!r}" if t.skin else ""
            what = "no attachment" if mesh is None else "no mesh attachment"
            out.append(f"{where}.attachment: slot {t.slot!r} has {what} {t.attachment!r}{skin}")
            continue
        if t.key in seen:
            out.append(f"{where}: a second track for {t.slot}/{t.attachment}")
        seen.add(t.key)
        shape = (vertex_count(mesh), influences(mesh), 2)
        previous = None
        for k, key in enumerate(t.keys):
            at = f"{where}.keys[{k}]"
            if not (math.isfinite(key.frame) and abs(key.frame) <= _MAX):
                out.append(f"{at}.frame: must be a finite frame, got {key.frame!r}")
            elif previous is not None and key.frame <= previous:
                out.append(f"{at}.frame: keys must be in increasing frame order, got {key.frame:g} after "
                           f"{previous:g}")
            previous = key.frame
            if key.offsets.shape != shape:
                out.append(f"{at}.offsets: the mesh needs {shape[0]} vertices x {shape[1]} influence(s) x 2, "
                           f"got {' x '.join(map(str, key.offsets.shape))}")
            elif not np.all(np.isfinite(key.offsets) & (np.abs(key.offsets) <= _MAX)):
                bad = np.argwhere(~(np.isfinite(key.offsets) & (np.abs(key.offsets) <= _MAX)))[0]
                out.append(f"{at}.offsets[{bad[0]}]: must be finite model units of magnitude <= {_MAX:g}, "
                           f"got {key.offsets[tuple(bad)]!r}")
            if key.interpolation not in DEFORM_INTERPOLATIONS:
                out.append(f"{at}.interpolation: must be one of {', '.join(DEFORM_INTERPOLATIONS)}, "
                           f"got {key.interpolation!r}")
            c = key.curve
            if not (len(c) == 4 and all(math.isfinite(x) and abs(x) <= _MAX for x in c)
                    and 0 <= c[0] <= 1 and 0 <= c[2] <= 1):
                out.append(f"{at}.curve: must be 4 finite handles (u1, v1, u2, v2) with u1, u2 in [0, 1], "
                           f"got {list(c)}")
    return out
