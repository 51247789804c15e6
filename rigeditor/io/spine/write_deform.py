"""Deform keys in the Spine export: the 4.2 ``attachments`` section of the animation,
``{skin: {slot: {attachment: {"deform": [key...]}}}}``.

A key writes its time (the 32-bit float at or before its frame, ``key_time``), its
offsets as ``vertices`` from ``offset`` 0 (dx, dy per vertex of an unweighted mesh;
per influence of a weighted one, in the order ``write_art`` lists the influences: the
non-zero weights in column order; a path's as its vertices list them), and its curve: none (linear), ``"stepped"``, or
the bezier's handles in seconds and the 0..1 mix.
"""
from __future__ import annotations

import numpy as np

from rigeditor.io.spine.write_curves import key_time
from rigeditor.model.data.linked_mesh import resolved
from rigeditor.model.data.mesh_attachment import MeshAttachment
from rigeditor.model.data.path_attachment import PathAttachment
from rigeditor.model.data.shapes import ShapeAttachment


def deform_section(project, bake) -> dict:
    """{"attachments": ...} of the project's deform keys ({} when there are none)."""
    out: dict = {}
    start, fps = float(bake.frames[0]), bake.fps
    for t in project.art.deforms:
        try:
            slot = project.art.slot(t.slot)
        except KeyError:
            continue
        path = next((p for p in slot.paths if p.name == t.attachment and p.skin == t.skin), None)
        try:
            mesh = path or resolved(slot, slot.find(t.attachment, t.skin))  # a linked mesh: its parent's geometry
        except KeyError:
            continue
        polygon = isinstance(mesh, ShapeAttachment) and mesh.kind in ("box", "clipping")
        if not (isinstance(mesh, (MeshAttachment, PathAttachment)) or polygon) or not t.keys:
            continue
        used = _path_columns(mesh) if path is not None or polygon else _columns(mesh)
        frames = np.array([k.frame for k in t.keys]) - start
        times = key_time(frames, fps)
        keys = []
        for i, k in enumerate(t.keys):
            entry = {"time": float(times[i])} if times[i] != 0 else {}
            values = k.offsets[used[:, 0], used[:, 1]].ravel()
            if np.any(values != 0):
                entry["vertices"] = [float(v) for v in values]
            if i + 1 < len(t.keys) and k.interpolation == "stepped":
                entry["curve"] = "stepped"
            elif i + 1 < len(t.keys) and k.interpolation == "bezier":
                t0, t1 = frames[i] / fps, frames[i + 1] / fps
                u1, v1, u2, v2 = k.curve
                entry["curve"] = [float(t0 + u1 * (t1 - t0)), float(v1), float(t0 + u2 * (t1 - t0)), float(v2)]
            keys.append(entry)
        skin = t.skin or "default"
        out.setdefault(skin, {}).setdefault(t.slot, {})[t.attachment] = {"deform": keys}
    return {"attachments": out} if out else {}


def _path_columns(path) -> np.ndarray:
    """(n, 2) (vertex, influence) of each deform pair of a path (or a box or clipping
    polygon), in the order its vertices list them (``write_path``, ``write_shapes``)."""
    if not path.weighted:
        count = path.vertex_count if isinstance(path, PathAttachment) else path.count
        return np.stack([np.arange(count), np.zeros(count, np.int64)], axis=-1)
    return np.array([(v, k) for v, inf in enumerate(path.influences) for k in range(len(inf))],
                    np.int64).reshape(-1, 2)


def _columns(mesh: MeshAttachment) -> np.ndarray:
    """(n, 2) (vertex, influence column) in the order Spine's deform list runs."""
    if not mesh.skinned:
        return np.stack([np.arange(len(mesh.vertices)), np.zeros(len(mesh.vertices), np.int64)], axis=-1)
    return np.argwhere(mesh.weights != 0)  # row-major: per vertex, its columns in order


__all__ = ["deform_section"]
