"""Linked meshes in the Spine export: ``{"type": "linkedmesh", "path", "parent",
"skin", "timelines", "width", "height", "color"}`` (the geometry is the parent's)."""
from __future__ import annotations

from rigeditor.model.data.linked_mesh import LinkedMesh


def linked_entry(a: LinkedMesh, region: str, color: str | None) -> dict:
    out = {"type": "linkedmesh", "path": region, "parent": a.parent, "width": float(a.width),
           "height": float(a.height)}
    if a.parent_skin:
        out["skin"] = a.parent_skin
    if not a.timelines:
        out["timelines"] = False
    if color:
        out["color"] = color
    return out


__all__ = ["linked_entry"]
