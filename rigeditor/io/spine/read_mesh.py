"""Spine mesh attachments as RigEditor meshes.

A Spine mesh lists ``uvs`` (per vertex, in [0, 1] of the region's whole original
picture, v down: the picture the import cuts out), ``triangles``, ``hull`` (the first
``hull`` vertices are the outline, in order), ``edges`` (vertex indices times 2, editor
guides in any order; the outline is taken from ``hull``) and
``vertices``: x, y in the slot bone's frame when unweighted, else per vertex
``count, (bone index, x, y, weight) * count`` with x, y in each bone's own frame. A
``linkedmesh`` shows another region on its ``parent`` mesh's geometry.

RigEditor's mesh sits on the picture's placement (identity here: the image frame is
the slot bone's frame) and stores each weighted bone's bind frame in the slot bone's
frame. Both come from the setup pose: a vertex's bind position is Spine's weighted
setup position, and a bone's bind frame its setup transform relative to the slot
bone, so bind⁻¹ · p is Spine's (x, y) for that bone wherever the skeleton was bound in
its setup pose (Spine's editor keeps it so). Every influence is kept, heaviest first: a
mesh's rows are as wide as its most weighted vertex (at least 4). A weight Spine's editor leaves slightly
below 0 (down to ``validation.mesh.MIN_WEIGHT``) is kept as written, as Spine plays it.
"""
from __future__ import annotations

import math

from dataclasses import replace

import numpy as np

from rigeditor.core.geometry import Affine
from rigeditor.io.spine.skeleton import SpineError, flat_triangles
from rigeditor.model.data.project import CHARACTER
from rigeditor.model.validation.mesh import WEIGHT_SUM_TOLERANCE
from rigeditor.model.validation.project import MAX_MAGNITUDE


UV_ROUNDING = 1e-4
"""How far (in [0, 1] units) a UV may lie outside its picture and be clamped without
a warning: Spine writes UVs rounded, an edge vertex's 1 as 1.00001."""


def mesh_geometry(m: dict, notes=None, name: str = "") -> dict:
    """uvs (V, 2), triangles (T, 3), edges (S, 2) and the raw vertex list of a Spine
    mesh map (checked by the reader). Spine plays what RigEditor's meshes cannot hold
    as it draws it: UVs outside the picture are clamped to its edge (Spine samples the
    atlas beyond the region there; the world vertices do not depend on them) and
    triangles with a repeated vertex (they cover nothing) are dropped, each kind noted
    in ``notes`` (``read.Notes``) under the attachment ``name``."""
    uvs = np.asarray(m["uvs"], dtype=float).reshape(-1, 2)
    clamped = np.clip(uvs, 0.0, 1.0)
    if notes is not None and np.abs(clamped - uvs).max(initial=0.0) > UV_ROUNDING:
        notes.add("mesh UVs outside their picture (clamped to its edge; Spine samples the atlas beyond it)", name)
    uvs = clamped
    tri = np.asarray(m["triangles"], dtype=np.int64).reshape(-1, 3)
    flat = flat_triangles(tri)
    if flat.any() and not flat.all():
        tri = tri[~flat]
        if notes is not None:
            notes.add("mesh triangles with a repeated vertex (dropped: they cover nothing)", name)
    # Spine defines the outline as the first ``hull`` vertices in order; its ``edges``
    # are editor guides (nonessential: any order, either direction, interior segments
    # too). RigEditor's edges are outline segments (the triangulation and the inside
    # tests take them so), so the outline is rebuilt from ``hull`` alone.
    hull = int(m.get("hull", 0))
    edges = np.stack([np.arange(hull), (np.arange(hull) + 1) % hull], axis=-1) if hull >= 3 \
        else np.zeros((0, 2), dtype=np.int64)
    return {"uvs": uvs, "triangles": tri, "edges": edges, "vertices": list(m["vertices"])}


def weighted(vertices: list, count: int):
    """Per vertex [(bone index, x, y, weight), ...] from Spine's flat weighted list, or
    None when the list is unweighted (two numbers per vertex)."""
    if len(vertices) == 2 * count:
        return None
    out, i = [], 0
    for _ in range(count):
        n = int(vertices[i])
        out.append([(int(vertices[i + 1 + 4 * k]), *map(float, vertices[i + 2 + 4 * k:i + 5 + 4 * k])) for k in range(n)])
        i += 1 + 4 * n
    return out


def weight_bones(skel) -> set[str]:
    """Bones the weighted meshes (boxes, clipping polygons) of every skin hang on."""
    out = set()
    for slot in (slot for skin in skel.skins.values() for slot in (skin.get("attachments") or {}).values()):
        for a in slot.values():
            if a.get("type") == "mesh":
                influences = weighted(list(a["vertices"]), len(a["uvs"]) // 2) or []
                out |= {skel.bones[b].name for inf in influences for b, *_ in inf}
    from rigeditor.io.spine.read_shapes import weighted_bones

    return out | weighted_bones(skel)


def build_mesh(image, geometry: dict, slot_bone: str | None, spine_bones: list[str], setup, turns: dict,
               label: str):
    """(MeshAttachment for placeholder ``image``, the largest distance between a
    vertex's influences' setup positions (0 when the weights agree), what was dropped).

    setup: a Bake of the bind pose (one frame). Bones by Spine index ``spine_bones``;
    a weight on Spine's root (the character space) is dropped; a vertex weighted to
    nothing else is refused (SpineError naming ``label``, the attachment's JSON path)."""
    dropped: list[str] = []
    from rigeditor.model.data.mesh_attachment import MeshAttachment

    def spine_world(bone):  # Spine's world frame of a bone (ours turned back) at setup
        if bone is None:
            return setup.spaces[CHARACTER].take(0)
        world = setup.bone_world.take((0, setup.column(bone)))
        return world.compose(Affine.rotation_about_origin(-turns.get(bone, 0.0))) if bone in turns else world

    ours = setup.spaces[CHARACTER].take(0) if slot_bone is None else setup.bone_world.take((0, setup.column(slot_bone)))
    uvs = geometry["uvs"]
    influences = weighted(geometry["vertices"], len(uvs))
    common = dict(uvs=uvs, edges=geometry["edges"])
    fields = {f: getattr(image, f) for f in ("name", "path", "width", "height", "tint", "opacity", "skin", "sequence")}
    if influences is None:
        # Spine's x, y are in the slot bone's frame; ours differs by the frame's turn
        # only (no inverse: the slot bone may be scaled to 0 at setup, as Spine allows).
        local = np.asarray(geometry["vertices"], dtype=float).reshape(-1, 2)
        p = Affine.rotation_about_origin(-turns.get(slot_bone, 0.0)).apply(local)
        return MeshAttachment(**fields, **_placed(p, uvs, image), triangles=_counter_clockwise(geometry["triangles"], p),
                              **common), 0.0, dropped
    det = float(ours.a * ours.d - ours.b * ours.c)
    if not abs(det) > 1e-12:
        raise SpineError(None, [f"{label}.vertices: a weighted mesh on slot bone {slot_bone!r}, whose setup scale "
                                f"is 0 (RigEditor binds a mesh's weights in its slot bone's setup frame)"])
    to_slot = ours.inverse()
    worlds: dict = {}  # Spine's setup world (a, b, c, d, tx, ty) per bone, built once per mesh

    def world_of(name):
        if name not in worlds:
            worlds[name] = tuple(float(f) for f in spine_world(name).fields())
        return worlds[name]

    used: list[str] = []
    where: dict = {}
    world_p = np.zeros((len(uvs), 2))
    width = max([4] + [len(inf) for inf in influences])
    indices = np.zeros((len(uvs), width), dtype=np.int64)
    weights = np.zeros((len(uvs), width))
    own = np.zeros((len(uvs), width, 2))  # each influence's own point (world), padding at the vertex
    worst = 0.0
    for v, inf in enumerate(influences):
        kept = [x for x in inf if spine_bones[x[0]] in setup.bones]
        if len(kept) < len(inf):
            dropped.append("mesh weights on the root bone (dropped: the root is the character space)")
        if sum(x[3] for x in kept) <= 0:
            raise SpineError(None, [f"{label}.vertices: vertex {v} has no weight on a bone other than the root "
                                    f"(RigEditor's root is the character space, which carries no mesh weights)"])
        kept.sort(key=lambda x: -x[3])
        # A tiny negative weight (Spine's editor leaves them) is kept as written: Spine
        # plays the weighted sum with it, and so does linear blend skinning. So are
        # weights whose sum is 1 but for Spine's 5-decimal rounding (renormalised, a
        # vertex 1,000 units out would move by 0.01); only a vertex that lost its root
        # weight is renormalised.
        total = sum(x[3] for x in kept)
        if len(kept) == len(inf) and abs(total - 1.0) <= WEIGHT_SUM_TOLERANCE:
            total = 1.0
        px, py, points = 0.0, 0.0, []
        for k, (b, x, y, w) in enumerate(kept):
            name = spine_bones[b]
            a_, b_, c_, d_, tx, ty = world_of(name)
            qx, qy = a_ * x + b_ * y + tx, c_ * x + d_ * y + ty
            points.append((qx, qy))
            px, py = px + (w / total) * qx, py + (w / total) * qy
            if name not in where:
                where[name] = len(used)
                used.append(name)
            indices[v, k], weights[v, k] = where[name], w / total
        world_p[v] = px, py
        own[v, :len(points)] = points
        own[v, len(points):] = px, py
        worst = max([worst] + [math.hypot(qx - px, qy - py) for qx, qy in points])
    p = to_slot.apply(world_p)
    # A mesh bound in another pose than the setup pose: each bone keeps its own point
    # (Spine plays Σ w_k · world_k · (x_k, y_k)), kept as offsets from the vertex.
    offsets = (to_slot.apply(own.reshape(-1, 2)).reshape(own.shape) - p[:, None, :]) if worst > 1e-9 else \
        np.zeros((0, width, 2))
    bind = np.array([[float(x) for x in to_slot.compose(setup.bone_world.take((0, setup.column(b)))).fields()]
                     for b in used])
    return MeshAttachment(**fields, **_placed(p, uvs, image), triangles=_counter_clockwise(geometry["triangles"], p),
                          bones=tuple(used), bind=bind, indices=indices, weights=weights, bind_offsets=offsets,
                          **common), worst, \
        sorted(set(dropped))


def _placed(p: np.ndarray, uvs: np.ndarray, image) -> dict:
    """The picture's placement (x, y, rotation, scale) that best carries each vertex's
    texture point onto its setup position ``p`` (slot frame; least squares, shear left
    out), and the vertices in that picture's frame: exactly ``p`` once placed, so the
    mesh deforms as in Spine whatever the fit; the fit only lines the picture's own
    frame up with the mesh (where mesh tools see the pixels)."""
    q = np.stack([(uvs[:, 0] - 0.5) * image.width, (0.5 - uvs[:, 1]) * image.height], axis=-1)
    design = np.hstack([q, np.ones((len(q), 1))])
    solution, *_ = np.linalg.lstsq(design, p, rcond=None)
    a = solution[:2].T  # p ~ a @ q + t
    sx, sy = float(np.hypot(*a[:, 0])), float(np.hypot(*a[:, 1]))
    rotation = float(np.arctan2(a[1, 0], a[0, 0]))
    if np.linalg.det(a) < 0:
        sy = -sy
    x, y = (float(v) for v in solution[2])
    fit = (x, y, sx, sy)
    if not (np.all(np.isfinite(fit)) and np.abs(fit).max() <= MAX_MAGNITUDE and min(abs(sx), abs(sy)) >= 1e-9):
        # Texture points (nearly) on a line fit no placement: the picture stays on
        # the slot's frame (the vertices are where Spine puts them either way).
        x, y, rotation, sx, sy = 0.0, 0.0, 0.0, 1.0, 1.0
    placed = replace(image, x=x, y=y, rotation=rotation, scale=(sx, sy), pivot=(0.0, 0.0))
    return {"x": x, "y": y, "rotation": rotation, "scale": (sx, sy),
            "vertices": placed.local().inverse().apply(p)}


def _counter_clockwise(triangles: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Triangles wound counter-clockwise (y up) at their setup positions ``p``."""
    a, b, c = p[triangles[:, 0]], p[triangles[:, 1]], p[triangles[:, 2]]
    area = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
    return np.where((area < 0)[:, None], triangles[:, ::-1], triangles)
