"""Mesh edits for the editor: mesh a picture, recompute weights, move / add / delete a
vertex, paint a stroke. Pure functions over Projects (``rigeditor.edits.mesh_ops``
does the work) that turn the model's refusals into :class:`EditError` messages.

Positions here are where the user points: world points at a row of the Bake, mapped
back to the mesh's bind pose through the deformed triangle under the pointer
(barycentric, exact for any pose), or, off the mesh, through the nearest vertex's
blended transform.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from rigeditor.edits.deform import refit_after_vertex_edit
from rigeditor.edits.errors import EditError
from rigeditor.edits import mesh_ops
from rigeditor.model.data.mesh_attachment import MeshAttachment
from rigeditor.model.data.project import Project


def _guard(fn, *args, **kwargs) -> Project:
    try:
        return fn(*args, **kwargs)
    except (KeyError, ValueError) as exc:
        raise EditError(str(exc).strip("'\"")) from None


def default_bones(project: Project, slot: str, selected_bones) -> tuple[str, ...]:
    """The bones a new mesh is weighted to: the selected bones, else the slot's bone
    and its children (a limb bends at its child's joint)."""
    if selected_bones:
        return tuple(selected_bones)
    bone = project.art.slot(slot).bone
    if bone is None:
        return ()
    return (bone, *(b.name for b in project.children(bone)))


def make_mesh(project: Project, slot: str, attachment: str, base: Path | None, bones, **options) -> Project:
    """Mesh the image attachment from its picture's alpha (read from ``base``, the
    project's folder) and weight it to ``bones``."""
    from rigeditor.io.errors import ProjectFileError
    from rigeditor.io.art.images import image_file, read_rgba

    try:
        a = project.art.slot(slot).find(attachment)
    except KeyError as exc:
        raise EditError(str(exc).strip("'\"")) from None
    if isinstance(a, MeshAttachment):
        raise EditError(f"'{attachment}' is a mesh already (edit it with the mesh tool).")
    if base is None:
        raise EditError("Save the project first: the mesh follows the picture's outline, read from its file.")
    try:
        rgba = read_rgba(image_file(base, a.path))
    except ProjectFileError as exc:
        raise EditError(f"{a.path}: {exc.problems[0]}") from None
    alpha = rgba[..., 3] / 255.0
    if alpha.shape != (round(a.height), round(a.width)):
        # the file was redrawn at another size: resample to the attachment's size
        rows = np.minimum((np.arange(round(a.height)) + 0.5) * alpha.shape[0] / a.height, alpha.shape[0] - 1)
        cols = np.minimum((np.arange(round(a.width)) + 0.5) * alpha.shape[1] / a.width, alpha.shape[1] - 1)
        alpha = alpha[rows.astype(int)][:, cols.astype(int)]
    return _guard(mesh_ops.mesh_from_image, project, slot, attachment, alpha, bones=tuple(bones), **options)


def recompute_weights(project: Project, slot: str, attachment: str, bones, blend_width: float, progress=None,
                      cancel=None) -> Project:
    """Automatic weights of the mesh again, over ``bones``; ``blend_width`` in model units (> 0).
    progress(fraction) and cancel() -> bool are called from this thread (see
    ``core.biharmonic``); a cancel raises ``core.biharmonic.Cancelled``."""
    return _guard(mesh_ops.recompute_weights, project, slot, attachment, tuple(bones), float(blend_width),
                  progress, cancel)


def bind_point(pose, row: int, world) -> np.ndarray:
    """Where world point ``world`` at ``row`` sits on the mesh at bind, in the image
    frame (pixels, y up): through the deformed triangle holding it, else the nearest
    vertex moved by the same offset undone by that vertex's blended linear map."""
    m: MeshAttachment = pose.mesh
    v = pose.vertices(row)
    p = np.asarray(world, float)
    a, b, c = (v[m.triangles[:, k]] for k in range(3))
    det = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
    safe = np.where(np.abs(det) > 1e-12, det, np.inf)
    l1 = ((p[0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (p[1] - a[:, 1]) * (c[:, 0] - a[:, 0])) / safe
    l2 = ((b[:, 0] - a[:, 0]) * (p[1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (p[0] - a[:, 0])) / safe
    inside = (l1 >= 0) & (l2 >= 0) & (l1 + l2 <= 1) & np.isfinite(safe)
    if inside.any():
        k = int(np.flatnonzero(inside)[0])
        t = m.triangles[k]
        return (1 - l1[k] - l2[k]) * m.vertices[t[0]] + l1[k] * m.vertices[t[1]] + l2[k] * m.vertices[t[2]]
    i = int(np.argmin(np.hypot(*(v - p).T)))
    return m.vertices[i] + vertex_to_image(pose, row, i, p - v[i])


def vertex_to_image(pose, row: int, i: int, world_delta) -> np.ndarray:
    """A world displacement at vertex ``i`` (row ``row``) as an image-frame displacement
    at bind: the inverse of the vertex's blended linear map, world <- image."""
    m = pose.mesh
    char = pose.character.take(row)
    s = pose.skins[row]  # (B, 2, 3) in character space
    if m.skinned:
        lin = np.einsum("k,kij->ij", m.weights[i], s[m.indices[i], :, :2])
    else:
        lin = s[0, :, :2]
    local = m.local()
    to_world = (np.array([[float(char.a), float(char.b)], [float(char.c), float(char.d)]]) @ lin
                @ np.array([[float(local.a), float(local.b)], [float(local.c), float(local.d)]]))
    return np.linalg.solve(to_world, np.asarray(world_delta, float))


def move_vertex(project: Project, slot: str, attachment: str, index: int, image_xy) -> Project:
    """Move vertex ``index`` to ``image_xy`` (image frame); its weights stay."""
    return _guard(mesh_ops.move_vertex, project, slot, attachment, index, image_xy)


def add_vertex(project: Project, slot: str, attachment: str, image_xy) -> Project:
    """Add a vertex at ``image_xy`` (image frame, inside the outline); its weights blend
    those of the triangle it falls in, so the mesh deforms as before."""
    after = _guard(mesh_ops.add_vertex, project, slot, attachment, image_xy)
    n = len(shown_mesh_by_name(project, slot, attachment)[1].vertices)
    return refit_after_vertex_edit(project, after, slot, attachment, list(range(n)) + [-1])  # deform keys


def delete_vertex(project: Project, slot: str, attachment: str, index: int) -> Project:
    """Delete vertex ``index`` (its weights go with it; later vertices shift down)."""
    after = _guard(mesh_ops.delete_vertex, project, slot, attachment, index)
    n = len(shown_mesh_by_name(project, slot, attachment)[1].vertices)
    return refit_after_vertex_edit(project, after, slot, attachment, [v for v in range(n) if v != index])


def paint_stroke(project: Project, slot: str, attachment: str, bone: str, image_points, radius: float,
                 strength: float, mode: str) -> Project:
    """One stroke: dabs at ``image_points`` ((N, 2) image frame at bind), radius in
    model units, strength 0..1, mode add / subtract / smooth."""
    _, m = shown_mesh_by_name(project, slot, attachment)
    centres = m.local().apply(np.asarray(image_points, float).reshape(-1, 2))  # the slot bone's frame
    return _guard(mesh_ops.paint_weights, project, slot, attachment, bone, centres, radius, strength, mode)


def shown_mesh_by_name(project: Project, slot: str, attachment: str):
    try:
        a = project.art.slot(slot).find(attachment)
    except KeyError as exc:
        raise EditError(str(exc).strip("'\"")) from None
    if not isinstance(a, MeshAttachment):
        raise EditError(f"'{attachment}' on slot '{slot}' is not a mesh.")
    return attachment, a
