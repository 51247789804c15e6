"""Spine deform timelines as deform keys (``model.data.deform``).

4.2 (and 4.1) nest them under an animation's ``attachments``: ``{skin: {slot:
{attachment: {"deform": [key...], "sequence": [...]}}}}``; 4.0 under ``deform``:
``{skin: {slot: {attachment: [key...]}}}``. A key has ``time`` (s), ``offset``
(the first float it sets, default 0), ``vertices`` (the floats from there; absent: the
setup vertices) and ``curve`` (none: linear, ``"stepped"``, or ``[cx1, cy1, cx2, cy2]``
in seconds and the 0..1 mix). The floats are (dx, dy) per vertex of an unweighted mesh
(slot bone frame), per influence of a weighted one (each bone's frame) in the order
the mesh's ``vertices`` list them. They map onto the model's influences the way the
mesh import orders them (root weights dropped, the others heaviest first: ``influence_slots``).

Bezier segments follow ``curves``, as the other timelines: "runtime" writes the ten
straight pieces Spine's runtimes play as linear keys at their corners, "authored"
keeps the curve (handles turned into the segment's unit square).
"""
from __future__ import annotations

import math

import numpy as np

from rigeditor.io.spine.read_keys import frame_of, runtime_points
from rigeditor.io.spine.read_mesh import weighted
from rigeditor.io.spine.skeleton import SpineError
from rigeditor.model.data.deform import DeformKey, DeformTrack
from rigeditor.model.data.mesh_attachment import MeshAttachment
from rigeditor.model.data.skins import DEFAULT as DEFAULT_SKIN
from rigeditor.model.data.shapes import ShapeAttachment
from rigeditor.model.validation.deform import influences, vertex_count
from rigeditor.model.validation.project import MAX_MAGNITUDE


def influence_slots(raw_vertices: list, count: int, kept) -> tuple[np.ndarray, int]:
    """((n, 2) (vertex, influence column) of each of Spine's n influences, -1 where the
    model does not keep it; the width of Spine's deform list in floats). Root weights
    (bones ``kept`` rejects) are left out, the others kept heaviest first (stable), as
    ``read_mesh.build_mesh`` orders them."""
    rows = weighted(raw_vertices, count)
    if rows is None:
        return np.stack([np.arange(count), np.zeros(count, np.int64)], axis=-1), 2 * count
    out, j = [], 0
    for v, inf in enumerate(rows):
        idx = [(j + n, x) for n, x in enumerate(inf)]
        j += len(inf)
        ours = sorted((p for p in idx if kept(p[1][0])), key=lambda p: -p[1][3])
        col = {n: k for k, (n, _) in enumerate(ours)}
        out += [(v, col[n]) if n in col else (-1, -1) for n, _ in idx]
    return np.array(out, np.int64).reshape(-1, 2), 2 * j


def timelines(anim: dict):
    """((skin, slot, attachment, keys, JSON path) ...) of an animation's deform
    timelines, 4.2 and 4.0 layouts alike, and whether it has sequence timelines."""
    found, sequences = [], False
    for section in ("attachments", "deform"):
        for skin, slots in (anim.get(section) or {}).items():
            for slot, atts in (slots or {}).items():
                for att, value in (atts or {}).items():
                    at = f"{section}.{skin}.{slot}.{att}"
                    if section == "deform":
                        found.append((skin, slot, att, value, at))
                        continue
                    for kind, keys in (value or {}).items():
                        if kind == "deform":
                            found.append((skin, slot, att, keys, f"{at}.deform"))
                        elif keys:
                            sequences = True
    return found, sequences


def deform_tracks(project, skel, anim: dict, name: str, fps: float, notes, *, runtime: bool = True) -> tuple:
    """The deform tracks of animation ``name``; problems are SpineErrors with where."""
    tracks = []
    bones = [b.name for b in skel.bones]
    kept = {b.name for b in project.bones}
    found, _ = timelines(anim)  # sequence timelines: io.spine.read_sequence
    for skin, slot_name, att, keys, at in found:
        at = f"animations.{name}.{at}"
        ours = DEFAULT_SKIN if skin == "default" else skin
        try:
            mesh = project.art.slot(slot_name).find(att, ours)
        except KeyError:
            mesh = None
        path = _path(project, slot_name, att, ours) if mesh is None else None
        if path is None and isinstance(mesh, ShapeAttachment) and mesh.kind in ("box", "clipping") \
                and mesh.skin == ours:
            path = mesh  # a box or clipping polygon: keyed as a path is
        if path is not None:  # Spine deforms a path's (a polygon's) vertices as a mesh's
            if not isinstance(keys, list):
                raise SpineError(None, [f"{at}: must be a list of keys"])
            raw = skel.skins[skin]["attachments"][slot_name][att]
            count, k = vertex_count(path), influences(path)
            slots, width = path_slots(list(raw.get("vertices", [])), count)
            shape = (count, k, 2)
            tracks.append(DeformTrack(slot_name, att, ours, _keys(keys, slots, width, shape, fps, runtime, at)))
            continue
        if not isinstance(mesh, MeshAttachment) or mesh.skin != ours:
            notes.add("deform timelines of attachments that are not imported meshes, paths or polygons",
                      f"{slot_name}/{att}")
            continue
        raw = _raw_mesh(skel, skin, slot_name, att)
        slots, width = influence_slots(list(raw["vertices"]), len(raw["uvs"]) // 2, lambda b: bones[b] in kept)
        if (slots[:, 0] < 0).any():
            notes.add("deform offsets on dropped mesh weights (left out)", f"{slot_name}/{att}")
        if not isinstance(keys, list):
            raise SpineError(None, [f"{at}: must be a list of keys"])
        shape = (len(mesh.vertices), influences(mesh), 2)
        tracks.append(DeformTrack(slot_name, att, ours, _keys(keys, slots, width, shape, fps, runtime, at)))
    return tuple(tracks)


def _path(project, slot: str, att: str, skin: str):
    """The imported path attachment ``att`` of ``skin`` in ``slot``, or None."""
    try:
        paths = project.art.slot(slot).paths
    except KeyError:
        return None
    return next((p for p in paths if p.name == att and p.skin == skin), None)


def path_slots(raw_vertices: list, count: int) -> tuple[np.ndarray, int]:
    """As ``influence_slots`` for a path: every influence kept, in Spine's order (a
    path keeps all its weights, the root's included)."""
    rows = weighted(raw_vertices, count)
    if rows is None:
        return np.stack([np.arange(count), np.zeros(count, np.int64)], axis=-1), 2 * count
    out = [(v, k) for v, inf in enumerate(rows) for k in range(len(inf))]
    return np.array(out, np.int64).reshape(-1, 2), 2 * len(out)


def _raw_mesh(skel, skin: str, slot: str, att: str) -> dict:
    a = skel.skins[skin]["attachments"][slot][att]
    if a.get("type") == "linkedmesh":  # the parent's geometry
        a = skel.skins[a.get("skin") or "default"]["attachments"][slot][a["parent"]]
    return a


def _keys(keys, slots, width, shape, fps, runtime, at) -> tuple[DeformKey, ...]:
    values = [_floats(k, width, f"{at}[{i}]") for i, k in enumerate(keys)]
    times = [float(k.get("time", 0.0)) for k in keys]
    frames = [frame_of(t, fps, (i == 0 and t > 0) or (i > 0 and keys[i - 1].get("curve") == "stepped"))
              for i, t in enumerate(times)]
    out = []
    for i, k in enumerate(keys):
        if i + 1 < len(keys) and frames[i + 1] <= frames[i]:
            continue  # two keys at one time: the last holds from there, as the runtimes look it up
        curve = k.get("curve")
        here = _offsets(values[i], slots, shape)
        if curve == "stepped":
            out.append(DeformKey(frames[i], here, "stepped"))
        elif curve is None or i == len(keys) - 1:
            out.append(DeformKey(frames[i], here))
        else:
            t0, t1 = times[i], times[i + 1]
            c = [float(x) for x in curve[:4]]
            if runtime:
                out.append(DeformKey(frames[i], here))
                ahead = _offsets(values[i + 1], slots, shape)
                for t, (mix,) in runtime_points(t0, np.zeros(1), np.array([c]), t1, np.ones(1)):
                    if frames[i] < t * fps < frames[i + 1]:
                        out.append(DeformKey(t * fps, here + mix * (ahead - here)))
            else:
                span = t1 - t0
                u = tuple(min(1.0, max(0.0, (x - t0) / span)) if span > 0 else 0.0 for x in (c[0], c[2]))
                out.append(DeformKey(frames[i], here, "bezier", (u[0], c[1], u[1], c[3])))
    return tuple(out)


def _floats(key, width: int, at: str) -> np.ndarray:
    """Spine's full deform list (width floats) of one key: zeros but its run."""
    full = np.zeros(width)
    if not isinstance(key, dict):
        raise SpineError(None, [f"{at}: must be a key object"])
    offset, run = key.get("offset", 0), key.get("vertices", [])
    if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
        raise SpineError(None, [f"{at}.offset: must be a whole number >= 0, got {offset!r}"])
    if not isinstance(run, list) or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in run):
        raise SpineError(None, [f"{at}.vertices: must be a list of numbers"])
    if offset + len(run) > width:
        raise SpineError(None, [f"{at}.vertices: offset {offset} + {len(run)} numbers run past the mesh's "
                                f"{width} deform values"])
    bad = [x for x in run if not (math.isfinite(x) and abs(x) <= MAX_MAGNITUDE)]
    if bad:
        raise SpineError(None, [f"{at}.vertices: must be finite numbers of magnitude <= {MAX_MAGNITUDE:g}, "
                                f"got {bad[0]!r}"])
    full[offset:offset + len(run)] = run
    return full


def _offsets(full: np.ndarray, slots: np.ndarray, shape) -> np.ndarray:
    out = np.zeros(shape)
    keep = slots[:, 0] >= 0
    out[slots[keep, 0], slots[keep, 1]] = full.reshape(-1, 2)[keep]
    return out


__all__ = ["deform_tracks", "influence_slots", "path_slots", "timelines"]
