"""Spine linked meshes (``type: linkedmesh``) as ``model.data.linked_mesh.LinkedMesh``:
the link (``parent``, its ``skin``, ``timelines``, 4.0's ``deform``) kept beside the
parent's geometry the import binds as for any mesh."""
from __future__ import annotations

from dataclasses import fields

from rigeditor.model.data.linked_mesh import LinkedMesh
from rigeditor.model.data.skins import DEFAULT as DEFAULT_SKIN


def linked_fields(a: dict) -> dict:
    """The link of a Spine linkedmesh map: parent, parent_skin (ours), timelines."""
    skin = a.get("skin") or "default"
    timelines = a.get("timelines", a.get("deform", True))
    return {"parent": a.get("parent"), "parent_skin": DEFAULT_SKIN if skin == "default" else skin,
            "timelines": timelines is not False}


def as_linked(mesh, link: dict | None):
    """``mesh`` (a MeshAttachment built from the parent's geometry) as a LinkedMesh
    when ``link`` is given; else unchanged."""
    if not link:
        return mesh
    return LinkedMesh(**{f.name: getattr(mesh, f.name) for f in fields(mesh)}, **link)


__all__ = ["as_linked", "linked_fields"]
