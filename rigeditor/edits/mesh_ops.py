"""Edits of mesh attachments (pure, model level; each returns a new Project):
mesh an image attachment from its alpha, recompute automatic weights, move / add /
delete vertices (weights follow), paint weights.

Geometry runs in ``core.mesh`` (image pixels, y down) and ``core.weights``; this module
maps between the picture, the slot bone's frame and the bones' rest frames. Weights are
computed in the slot bone's frame (model units), so the blend width is in model units.
The bind pose of a skinned mesh is the rig's rest pose when the weights are computed.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from rigeditor.edits.errors import EditError
from rigeditor.core import weights as cw
from rigeditor.core.mesh.triangulate import edges_of as cw_edges
from rigeditor.core.geometry import Affine
from rigeditor.model.data.attachments import ImageAttachment
from rigeditor.model.data.mesh_attachment import MeshAttachment, image_to_pixels, pixels_to_image
from rigeditor.model.data.project import Project
from rigeditor.model.data.rest import bind_of, bone_segments

__all__ = ["mesh_from_image", "recompute_weights", "move_vertex",
           "add_vertex", "delete_vertex", "paint_weights", "on_picture", "DEFAULT_BLEND_WIDTH"]

DEFAULT_BLEND_WIDTH = 40.0
"""Model units: the joint transition of new automatic weights (a limb's thickness)."""


def _swap_winding(t):
    return np.asarray(t, np.int64)[:, [0, 2, 1]]


def _hull_first(vertices, edges):
    """An order putting the first outline loop's vertices first, in loop order."""
    v, e = np.asarray(vertices), np.asarray(edges, np.int64)
    if len(e) == 0:
        return np.arange(len(v))
    nxt = dict(map(tuple, e.tolist()))
    loop, k = [], int(e[0, 0])
    while k not in loop:
        loop.append(k)
        k = nxt[k]
    rest = np.setdiff1d(np.arange(len(v)), loop)
    return np.r_[np.array(loop, np.int64), rest]


def _from_core(image: ImageAttachment, mesh, **extra) -> MeshAttachment:
    """A MeshAttachment (image frame, y up, hull first) from a core Mesh (pixels, y down)."""
    order = _hull_first(mesh.vertices, mesh.hull)
    remap = np.empty(len(order), np.int64)
    remap[order] = np.arange(len(order))
    base = {k: getattr(image, k) for k in ("name", "path", "width", "height", "x", "y", "rotation", "scale",
                                          "pivot", "tint", "opacity")}
    return MeshAttachment(**base, vertices=pixels_to_image(image, mesh.vertices[order]), uvs=mesh.uvs[order],
                          triangles=_swap_winding(remap[mesh.triangles]), edges=remap[mesh.hull], **extra)


def _to_core(m: MeshAttachment):
    from rigeditor.core.mesh import Mesh

    return Mesh(image_to_pixels(m, m.vertices), _swap_winding(m.triangles), m.edges, np.asarray(m.uvs),
                (m.width, m.height))


def mesh_from_image(project: Project, slot: str, attachment: str, alpha, *, bones=(), detail=1.5,
                    spacing=24.0, joint_spacing=None, blend_width=DEFAULT_BLEND_WIDTH,
                    min_angle=25.0, level=0.1, progress=None, cancel=None) -> Project:
    """Replace image attachment ``attachment`` of ``slot`` by a mesh of its picture.

    alpha: (H, W) opacity in [0, 1] of the picture (its pixel size). detail: outline
    tolerance, pixels (>= 0). spacing: interior edge length, pixels; the mesh is denser
    (``joint_spacing``, default spacing / 2) near the joints between the picked
    ``bones`` (names; empty: a rigid mesh on the slot's bone). With bones, automatic
    weights (bounded biharmonic, ``blend_width`` model units at each joint) bind it.
    level: the opacity the outline follows (low: the soft edge of the drawing is in).
    progress(fraction 0..1) / cancel() -> True: the weight solve's report and stop
    (``rigeditor.core.biharmonic.Cancelled``, nothing changed).
    Raises KeyError (unknown names) or ValueError (nothing opaque, bad numbers).
    """
    from rigeditor.core.mesh import mesh_from_alpha

    s = project.art.slot(slot)
    image = s.find(attachment)
    a = np.asarray(alpha, float)
    if a.ndim != 2 or a.shape != (round(image.height), round(image.width)):
        raise EditError(f"mesh_from_image: alpha of shape {a.shape} does not match the picture "
                         f"{image.width:g} x {image.height:g} px")
    bones = tuple(bones)
    for b in bones:
        project.bone(b)
    joints = _joint_pixels(project, s.bone, image, bones)
    mesh = mesh_from_alpha(a, tolerance=detail, spacing=spacing, joints=joints,
                           joint_spacing=(joint_spacing or spacing / 2) if len(joints) else None,
                           min_angle=min_angle, level=level)
    made = _from_core(image, mesh)
    if bones:
        made = _weighted(project, s.bone, made, bones, blend_width, progress, cancel)
    return _put(project, slot, attachment, made)


def _joint_pixels(project, slot_bone, image, bones) -> np.ndarray:
    """Pixel positions of the origins of picked bones whose parent is picked too."""
    seg = bone_segments(project, slot_bone, bones)
    pts = [seg[k, 0] for k, b in enumerate(bones) if project.bone(b).parent in bones]
    if not pts:
        return np.zeros((0, 2))
    return image_to_pixels(image, image.local().inverse().apply(np.array(pts)))


def _weighted(project, slot_bone, mesh: MeshAttachment, bones, blend_width, progress=None,
              cancel=None) -> MeshAttachment:
    seg = bone_segments(project, slot_bone, bones)
    v = mesh.in_slot_frame()
    # Handles: vertices this close to a bone are bound to it. The core's default (3/4 of
    # the mean edge) shrinks when the joints are meshed finely, leaving a bone a couple
    # of handle vertices and letting its weight leak far along the limb; the coarse
    # interior edges (90th percentile) keep a row of interior vertices on each bone.
    e = cw_edges(mesh.triangles)
    radius = 0.6 * float(np.percentile(np.hypot(*(v[e[:, 1]] - v[e[:, 0]]).T), 90))
    w = cw.automatic_weights(v, mesh.triangles, seg, blend_width=float(blend_width), handle_radius=radius,
                             progress=progress, cancel=cancel)
    idx, val = cw.to_padded(w)
    # Weights worked out afresh bind the mesh where its vertices are: no bind offsets.
    return replace(mesh, bones=tuple(bones), bind=bind_of(project, slot_bone, bones), indices=idx, weights=val,
                   bind_offsets=np.zeros((0, idx.shape[1], 2)), blend_width=float(blend_width))


def carried_offsets(m: MeshAttachment, indices, rows=None, bones=None) -> np.ndarray:
    """``m``'s bind offsets (see MeshAttachment) for new influences ``indices`` (V', K'):
    each (vertex, bone) keeps the offset it had, a new one has none. ``rows``: the old
    row of each new vertex (-1: a new vertex); default the same rows. ``bones``: the new
    index of each of ``m.bones`` (-1: gone); default the same bones."""
    idx = np.asarray(indices, np.int64)
    if not len(m.bind_offsets):
        return np.zeros((0, idx.shape[1] if idx.ndim == 2 else 4, 2))
    rows = np.arange(len(idx)) if rows is None else np.asarray(rows, np.int64)
    out = np.zeros((len(idx), idx.shape[1], 2))
    for v, old in enumerate(rows.tolist()):
        if old < 0:
            continue
        had = {int(b if bones is None else bones[b]): m.bind_offsets[old, c]
               for c, (b, w) in enumerate(zip(m.indices[old], m.weights[old])) if w != 0}
        for c, b in enumerate(idx[v].tolist()):
            if b in had:
                out[v, c] = had[b]
    return out if np.any(out) else np.zeros((0, idx.shape[1], 2))


def _put(project: Project, slot: str, attachment: str, new) -> Project:
    s = project.art.slot(slot)
    atts = tuple(new if a.name == attachment else a for a in s.attachments)
    return replace(project, art=project.art.with_slot(slot, attachments=atts))


def _mesh(project, slot, attachment) -> tuple[str | None, MeshAttachment]:
    s = project.art.slot(slot)
    m = s.find(attachment)
    if not isinstance(m, MeshAttachment):
        raise EditError(f"slot {slot!r}, attachment {attachment!r} is an image, not a mesh")
    return s.bone, m


def recompute_weights(project: Project, slot: str, attachment: str, bones, blend_width, progress=None,
                      cancel=None) -> Project:
    """Automatic weights of the mesh over ``bones`` (names; at least one) with the
    joint transition spread over ``blend_width`` model units; the bind pose becomes the
    current rest pose. progress / cancel: as :func:`mesh_from_image`."""
    slot_bone, m = _mesh(project, slot, attachment)
    bones = tuple(bones)
    if not bones:
        raise EditError("recompute_weights: pick at least one bone")
    for b in bones:
        project.bone(b)
    return _put(project, slot, attachment, _weighted(project, slot_bone, m, bones, blend_width, progress, cancel))


def _with_core(m: MeshAttachment, core, weights_dense=None, rows=None) -> MeshAttachment:
    """``m`` with the vertices, triangles, hull and UVs of core mesh ``core`` (same
    vertex order), and the given dense weights (V, B) if skinned. ``rows``: the old row
    of each vertex (-1: new), for the bind offsets they carry (``carried_offsets``)."""
    extra = {}
    if weights_dense is not None and m.skinned:
        idx, val = cw.to_padded(weights_dense, m.indices.shape[1])  # as wide as it was (an import's: any)
        extra = {"indices": idx, "weights": val, "bind_offsets": carried_offsets(m, idx, rows)}
    return replace(m, vertices=pixels_to_image(m, core.vertices), uvs=core.uvs,
                   triangles=_swap_winding(core.triangles), edges=core.hull, **extra)


def on_picture(mesh: MeshAttachment, xy) -> tuple[np.ndarray, bool]:
    """``xy`` (image frame) clamped to the picture's rectangle, where a vertex's UV
    stays in [0, 1]; and whether it had to be clamped."""
    p = np.asarray(xy, float).reshape(2)
    half = np.array([0.5 * mesh.width, 0.5 * mesh.height])
    q = np.clip(p, -half, half)
    return q, bool(np.any(q != p))


def move_vertex(project: Project, slot: str, attachment: str, index: int, xy) -> Project:
    """Move vertex ``index`` to ``xy`` (image frame: pixels from the centre, y up, on
    the picture: see ``on_picture``); it keeps its weights. The triangulation follows."""
    from rigeditor.core.mesh import edit

    _, m = _mesh(project, slot, attachment)
    core = edit.move_vertex(_to_core(m), int(index), image_to_pixels(m, xy))
    if on_picture(m, xy)[1]:  # (a hull vertex: an interior one was refused for the outline)
        x, y = (round(float(v), 3) for v in np.asarray(xy, float).reshape(2))
        raise ValueError(f"move_vertex: ({x:g}, {y:g}) lies outside the picture ({m.width:g} x {m.height:g} px)")
    return _put(project, slot, attachment, _with_core(m, core, m.dense_weights() if m.skinned else None))


def add_vertex(project: Project, slot: str, attachment: str, xy) -> Project:
    """Add a vertex at ``xy`` (image frame, inside the outline); its weights are the
    blend of the triangle it falls in (barycentric), so the mesh deforms as before."""
    from rigeditor.core.mesh import edit

    _, m = _mesh(project, slot, attachment)
    p = np.asarray(xy, float).reshape(2)
    core = edit.add_vertex(_to_core(m), image_to_pixels(m, p))
    dense = None
    if m.skinned:
        w = m.dense_weights()
        dense = np.vstack([w, _barycentric_blend(m.vertices, m.triangles, w, p)])
    return _put(project, slot, attachment, _with_core(m, core, dense, [*range(len(m.vertices)), -1]))


def _barycentric_blend(vertices, triangles, values, p):
    a, b, c = (vertices[triangles[:, k]] for k in range(3))
    det = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
    l1 = ((p[0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (p[1] - a[:, 1]) * (c[:, 0] - a[:, 0])) / det
    l2 = ((b[:, 0] - a[:, 0]) * (p[1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (p[0] - a[:, 0])) / det
    lam = np.stack([1 - l1 - l2, l1, l2], axis=1)
    k = int(np.argmax(lam.min(axis=1)))  # the triangle holding p (or the nearest to holding it)
    mix = np.clip(lam[k], 0, None)
    mix /= mix.sum()
    return cw.limit_influences((mix[:, None] * values[triangles[k]]).sum(axis=0, keepdims=True))


def delete_vertex(project: Project, slot: str, attachment: str, index: int) -> Project:
    """Delete vertex ``index`` (its weights go with it; later vertices shift down)."""
    from rigeditor.core.mesh import edit

    _, m = _mesh(project, slot, attachment)
    core = edit.delete_vertex(_to_core(m), int(index))
    dense = np.delete(m.dense_weights(), int(index), axis=0) if m.skinned else None
    rows = np.delete(np.arange(len(m.vertices)), int(index))
    return _put(project, slot, attachment, _with_core(m, core, dense, rows))


def paint_weights(project: Project, slot: str, attachment: str, bone: str, centres, radius: float,
                  strength: float, mode: str = "add") -> Project:
    """One brush stroke: dabs at ``centres`` ((N, 2) slot bone frame, model units, at
    bind) of ``radius`` model units and ``strength`` (0..1), mode add / subtract /
    smooth, on ``bone``'s weights (``bone`` must be one of the mesh's bones)."""
    _, m = _mesh(project, slot, attachment)
    if not m.skinned:
        raise EditError(f"slot {slot!r}, attachment {attachment!r}: the mesh has no bones to paint")
    if bone not in m.bones:
        raise EditError(f"paint_weights: bone {bone!r} is not one of the mesh's bones {list(m.bones)}")
    v, w, j = m.in_slot_frame(), m.dense_weights(), m.bones.index(bone)
    for c in np.asarray(centres, float).reshape(-1, 2):
        w = cw.paint(w, v, m.triangles, j, c, radius, strength, mode)
    idx, val = cw.to_padded(w, m.indices.shape[1])
    return _put(project, slot, attachment, replace(m, indices=idx, weights=val, bind_offsets=carried_offsets(m, idx)))


def carry_bind(a, to_new: Affine):
    """``a`` after its slot's frame changed by ``to_new`` (old slot frame -> new): a
    skinned mesh's bind frames are in the slot's frame, so they move along (the
    deformation stays the same); anything else is returned as it is."""
    if not (isinstance(a, MeshAttachment) and a.skinned):
        return a
    bind = np.array([[float(v) for v in to_new.compose(Affine(*f)).fields()] for f in a.bind])
    offsets = a.bind_offsets  # in the slot's frame too: turned and scaled along
    if len(offsets):
        a_, b_, c_, d_ = (float(np.asarray(x).reshape(-1)[0]) for x in (to_new.a, to_new.b, to_new.c, to_new.d))
        linear = np.array([[a_, b_], [c_, d_]])
        offsets = offsets @ linear.T
    return replace(a, bind=bind, bind_offsets=offsets)


def _map_meshes(project: Project, change) -> Project:
    slots = []
    for s in project.art.slots:
        atts = tuple(change(a) if isinstance(a, MeshAttachment) and a.skinned else a for a in s.attachments)
        slots.append(replace(s, attachments=atts))
    return replace(project, art=replace(project.art, slots=tuple(slots)))


def renamed_bone_in_meshes(project: Project, old: str, new: str) -> Project:
    """Meshes weighted to bone ``old`` now name it ``new``."""
    return _map_meshes(project, lambda a: replace(a, bones=tuple(new if b == old else b for b in a.bones)))


def drop_bones_from_meshes(project: Project, gone) -> Project:
    """Before deleting the bones ``gone``: meshes lose their weights on them (each
    vertex's other weights renormalised; a vertex left with none follows the kept bone
    it was weighted most to among its mesh's bones, and a mesh left with no bone becomes
    rigid on its slot)."""
    gone = set(gone)

    def change(a):
        keep = [j for j, b in enumerate(a.bones) if b not in gone]
        if len(keep) == len(a.bones):
            return a
        if not keep:
            return replace(a, bones=(), bind=np.zeros((0, 6)), indices=np.zeros((0, 4)), weights=np.zeros((0, 4)),
                           bind_offsets=np.zeros((0, 4, 2)))
        w = a.dense_weights()[:, keep]
        empty = w.sum(axis=1) <= 0
        w[empty, 0] = 1.0
        w /= w.sum(axis=1, keepdims=True)
        idx, val = cw.to_padded(w, a.indices.shape[1])
        renumber = [keep.index(j) if j in keep else -1 for j in range(len(a.bones))]
        return replace(a, bones=tuple(a.bones[j] for j in keep), bind=a.bind[keep], indices=idx, weights=val,
                       bind_offsets=carried_offsets(a, idx, bones=renumber))

    return _map_meshes(project, change)


__all__ += ["carry_bind", "renamed_bone_in_meshes", "drop_bones_from_meshes"]
