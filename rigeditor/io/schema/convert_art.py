"""Artwork between the file layout (degrees) and the model (radians)."""
from __future__ import annotations

import math

from rigeditor.io.schema import art as schema_art
from rigeditor.io.schema.paths import path_attachment_data, to_path_attachment
from rigeditor.model.data.attachments import Art, DrawOrderKey, ImageAttachment, Slot
from rigeditor.model.data.mesh_attachment import MeshAttachment
from rigeditor.model.data.timeline import StepChannel
from rigeditor.io.schema.project import frame_number


def to_art(slots: list[schema_art.Slot], draw_order: schema_art.DrawOrder, skins=None) -> Art:
    skins = skins or schema_art.Skins()
    return Art(
        slots=tuple(Slot(s.name, s.bone, tuple(_attachment(a) for a in s.attachments),
                         StepChannel(s.attachment.default, tuple((k.frame, k.value) for k in s.attachment.keys)),
                         paths=tuple(to_path_attachment(p) for p in s.paths))
                    for s in slots),
        draw_order=tuple(DrawOrderKey(k.frame, tuple(k.order)) for k in draw_order.keys),
        skins=tuple(skins.names), active_skins=tuple(skins.active),
    )


def _attachment(a: schema_art.ImageAttachment) -> ImageAttachment:
    common = dict(
        name=a.name, path=a.path, width=float(a.width), height=float(a.height), x=float(a.x), y=float(a.y),
        rotation=math.radians(a.rotation), scale=_pair(a.scale), pivot=_pair(a.pivot),
        tint=tuple(float(v) for v in a.tint), opacity=float(a.opacity), skin=a.skin or "")
    if a.type != "mesh":
        return ImageAttachment(**common, kind=a.type)
    return MeshAttachment(**common, vertices=a.vertices, uvs=a.uvs if a.uvs is not None else [],
                          triangles=a.triangles, edges=a.edges or [], bones=tuple(a.bones or ()),
                          bind=a.bind or [], indices=a.indices or [], weights=a.weights or [],
                          blend_width=float(a.blend_width or 0.0))


def _pair(v) -> tuple[float, float]:
    return float(v[0]), float(v[1])


def art_data(art: Art, deg) -> dict:
    """{"slots": [...], "draw_order": {...}} as plain JSON data; ``deg`` converts radians."""
    return {
        "slots": [{"name": s.name, "bone": s.bone,
                   "attachment": {"default": s.attachment.default,
                                  "keys": [{"frame": frame_number(f), "value": v} for f, v in s.attachment.keys]},
                   "attachments": [_attachment_data(a, deg) for a in s.attachments],
                   **({"paths": [path_attachment_data(p) for p in s.paths]} if s.paths else {})}
                  for s in art.slots],
        "draw_order": {"keys": [{"frame": frame_number(k.frame), "order": list(k.order)} for k in art.draw_order]},
        **({"skins": {"names": list(art.skins), "active": list(art.active_skins)}} if art.skins else {}),
    }


def _attachment_data(a: ImageAttachment, deg) -> dict:
    return {"name": a.name, "type": a.kind, "path": a.path, "width": float(a.width), "height": float(a.height),
            "x": float(a.x), "y": float(a.y), "rotation": deg(a.rotation),
            "scale": [float(v) for v in a.scale], "pivot": [float(v) for v in a.pivot],
            "tint": [float(v) for v in a.tint], "opacity": float(a.opacity), **({"skin": a.skin} if a.skin else {}),
            **_mesh_data(a)}


def _mesh_data(a) -> dict:
    if not isinstance(a, MeshAttachment):
        return {}
    out = {"vertices": a.vertices.tolist(), "uvs": a.uvs.tolist(), "triangles": a.triangles.tolist(),
           "edges": a.edges.tolist()}
    if a.skinned:
        out.update(bones=list(a.bones), bind=a.bind.tolist(), indices=a.indices.tolist(), weights=a.weights.tolist(),
                   blend_width=float(a.blend_width))
    return out
