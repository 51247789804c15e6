"""Linked meshes: a mesh that shows its own picture on another mesh's geometry (pure
data, no Qt, no files).

A :class:`LinkedMesh` names its ``parent``, a mesh of the same slot in skin
``parent_skin`` (``""``: the default skin), and shares the parent's vertices (and
their placement), UVs, triangles, outline and weights: the evaluation takes them from the parent
(:func:`resolved`), so editing the parent moves every mesh linked to it; the copy the
linked mesh carries is what a file holds and is not read. ``timelines``: the linked
mesh plays its parent's deform and sequence keys (Spine's ``timelines``, 4.0's ``deform``); False:
its own.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, replace

from rigeditor.model.data.mesh_attachment import MeshAttachment

SHARED = ("x", "y", "rotation", "scale", "pivot", "vertices", "uvs", "triangles", "edges", "bones", "bind",
          "indices", "weights", "blend_width")
"""The fields a linked mesh takes from its parent: the geometry and the frame its
vertices are given in (the picture drawn on it is mapped by the UVs)."""


@dataclass(frozen=True, eq=False)
class LinkedMesh(MeshAttachment):
    """A mesh on its ``parent``'s geometry (see the module)."""

    parent: str = ""
    parent_skin: str = ""
    timelines: bool = True


def parent_of(slot, mesh: LinkedMesh):
    """The parent attachment of ``mesh`` in ``slot``, or None."""
    for a in slot.attachments:
        if a.name == mesh.parent and a.skin == mesh.parent_skin:
            return a
    return None


_RESOLVED: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def resolved(slot, mesh):
    """``mesh`` with its parent's geometry when it is a linked mesh whose parent is a
    plain mesh of ``slot`` (cached per pair, so its skin operator is built once);
    any other attachment as it is."""
    if not isinstance(mesh, LinkedMesh):
        return mesh
    parent = parent_of(slot, mesh)
    if not isinstance(parent, MeshAttachment) or isinstance(parent, LinkedMesh):
        return mesh
    cached = _RESOLVED.get(mesh)
    if cached is not None and cached[0] is parent:
        return cached[1]
    out = replace(mesh, **{f: getattr(parent, f) for f in SHARED})
    _RESOLVED[mesh] = (parent, out)
    return out


def linked_problems(slot, where: str, k: int, mesh: LinkedMesh) -> list[str]:
    """A linked mesh's parent must be a plain mesh of its slot (``where``: the slot's
    place, ``k`` the attachment's index)."""
    parent = parent_of(slot, mesh)
    skin = f" of skin {mesh.parent_skin!r}" if mesh.parent_skin else ""
    if parent is None:
        return [f"{where}.attachments[{k}].parent: slot {slot.name!r} has no attachment {mesh.parent!r}{skin}"]
    if not isinstance(parent, MeshAttachment) or isinstance(parent, LinkedMesh):
        return [f"{where}.attachments[{k}].parent: {mesh.parent!r}{skin} is not a mesh (a linked mesh's parent is "
                f"a mesh with its own geometry)"]
    return []


__all__ = ["SHARED", "LinkedMesh", "linked_problems", "parent_of", "resolved"]
