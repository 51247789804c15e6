"""Artwork between the file layout (degrees) and the model (radians)."""
from __future__ import annotations

import math

from rigeditor.io.schema import art as schema_art
from rigeditor.io.schema.paths import path_attachment_data, to_path_attachment
from rigeditor.model.data.attachments import Art, DrawOrderKey, ImageAttachment, Slot
from rigeditor.model.data.linked_mesh import LinkedMesh
from rigeditor.model.data.mesh_attachment import MeshAttachment
from rigeditor.io.schema.convert_shapes import shape_data, to_shape
from rigeditor.io.schema.sequences import sequence_data, to_sequence
from rigeditor.model.data.timeline import StepChannel
from rigeditor.io.schema.project import frame_number
from rigeditor.io.schema.convert_slot_color import slot_color_data, slot_color_fields


def to_art(slots: list[schema_art.Slot], draw_order: schema_art.DrawOrder, skins=None) -> Art:
    skins = skins or schema_art.Skins()
    return Art(
        slots=tuple(Slot(s.name, s.bone, tuple(_attachment(a) for a in s.attachments),
                         StepChannel(s.attachment.default, tuple((k.frame, k.value) for k in s.attachment.keys)),
                         StepChannel(s.sequence.default, tuple((k.frame, k.value) for k in s.sequence.keys)),
                         paths=tuple(to_path_attachment(p) for p in s.paths), **slot_color_fields(s))
                    for s in slots),
        draw_order=tuple(DrawOrderKey(k.frame, tuple(k.order)) for k in draw_order.keys),
        skins=tuple(skins.names), active_skins=tuple(skins.active),
        skin_bones=tuple((skin, tuple(bones)) for skin, bones in skins.bones.items()),
        skin_constraints=tuple((skin, tuple(items)) for skin, items in skins.constraints.items()),
    )


def _attachment(a: schema_art.ImageAttachment) -> ImageAttachment:
    if a.type in schema_art.SHAPE_TYPES:
        return to_shape(a)
    common = dict(
        name=a.name, path=a.path, width=float(a.width), height=float(a.height), x=float(a.x), y=float(a.y),
        rotation=math.radians(a.rotation), scale=_pair(a.scale), pivot=_pair(a.pivot),
        tint=tuple(float(v) for v in a.tint), opacity=float(a.opacity), skin=a.skin or "",
        sequence=to_sequence(a.sequence))
    if a.type != "mesh":
        return ImageAttachment(**common, kind=a.type)
    link = {} if a.parent is None else dict(parent=a.parent, parent_skin=a.parent_skin or "",
                                            timelines=a.timelines is not False)
    return (LinkedMesh if link else MeshAttachment)(
        **common, vertices=a.vertices, uvs=a.uvs if a.uvs is not None else [], triangles=a.triangles,
        edges=a.edges or [], bones=tuple(a.bones or ()), bind=a.bind or [], indices=a.indices or [],
        weights=a.weights or [], bind_offsets=a.bind_offsets or [], blend_width=float(a.blend_width or 0.0), **link)


def _pair(v) -> tuple[float, float]:
    return float(v[0]), float(v[1])


def art_data(art: Art, deg) -> dict:
    """{"slots": [...], "draw_order": {...}} as plain JSON data; ``deg`` converts radians."""
    return {
        "slots": [{"name": s.name, "bone": s.bone,
                   "attachment": {"default": s.attachment.default,
                                  "keys": [{"frame": frame_number(f), "value": v} for f, v in s.attachment.keys]},
                   "attachments": [_attachment_data(a, deg) for a in s.attachments],
                   **({"sequence": {"default": s.sequence.default,
                                    "keys": [{"frame": frame_number(f), "value": v} for f, v in s.sequence.keys]}}
                      if s.sequence.keys or s.sequence.default else {}),
                   **({"paths": [path_attachment_data(p) for p in s.paths]} if s.paths else {}),
                   **slot_color_data(s)}
                  for s in art.slots],
        "draw_order": {"keys": [{"frame": frame_number(k.frame), "order": list(k.order)} for k in art.draw_order]},
        **({"skins": {"names": list(art.skins), "active": list(art.active_skins),
                      **({"bones": {skin: list(bones) for skin, bones in art.skin_bones}} if art.skin_bones else {}),
                      **({"constraints": {skin: list(items) for skin, items in art.skin_constraints}}
                         if art.skin_constraints else {})}}
           if art.skins else {}),
    }


def _attachment_data(a: ImageAttachment, deg) -> dict:
    if a.kind in schema_art.SHAPE_TYPES:
        return shape_data(a, deg)
    return {"name": a.name, "type": a.kind, "path": a.path, "width": float(a.width), "height": float(a.height),
            "x": float(a.x), "y": float(a.y), "rotation": deg(a.rotation),
            "scale": [float(v) for v in a.scale], "pivot": [float(v) for v in a.pivot],
            "tint": [float(v) for v in a.tint], "opacity": float(a.opacity), **({"skin": a.skin} if a.skin else {}),
            **_mesh_data(a), **sequence_data(a.sequence)}


def _mesh_data(a) -> dict:
    if not isinstance(a, MeshAttachment):
        return {}
    out = {"vertices": a.vertices.tolist(), "uvs": a.uvs.tolist(), "triangles": a.triangles.tolist(),
           "edges": a.edges.tolist()}
    if a.skinned:
        out.update(bones=list(a.bones), bind=a.bind.tolist(), indices=a.indices.tolist(), weights=a.weights.tolist(),
                   blend_width=float(a.blend_width))
        if len(a.bind_offsets):
            out["bind_offsets"] = a.bind_offsets.tolist()
    if isinstance(a, LinkedMesh):
        out.update(parent=a.parent, **({"parent_skin": a.parent_skin} if a.parent_skin else {}),
                   **({} if a.timelines else {"timelines": False}))
    return out
