"""Semantic checks of a mesh attachment (``where.field[index]: what, got value``).

The file's types and shapes are checked by the schema; this checks what needs the
whole mesh: indices in range, UVs in [0, 1], weights non-negative and summing to 1,
weighted bones that exist, bind frames that can be inverted. A skinned mesh whose
weights are off by more than 1e-6 would deform differently after an export.
"""
from __future__ import annotations

import numpy as np

from rigeditor.model.data.mesh_attachment import MeshAttachment

_MAX = 1e9
WEIGHT_SUM_TOLERANCE = 1e-4
"""How far a vertex's weights may sum from 1: Spine writes weights to 5 decimals, so an
exported mesh's sums are off by up to about 1e-5, and Spine plays them as written (a
renormalised vertex 1,000 units out moves by 0.01)."""
MIN_WEIGHT = -0.01
"""The lowest weight a mesh keeps: Spine's editor leaves residue such as -0.00135 after
its weight tools, and plays it as written (a vertex is the weighted sum either way)."""


def _first(mask) -> int:
    return int(np.flatnonzero(mask)[0])


def _rows(out, where, name, arr, ok, text):
    """One problem for the first row of ``arr`` where ``ok`` is False."""
    bad = ~np.asarray(ok)
    if bad.any():
        k = _first(bad)
        out.append(f"{where}.{name}[{k}]: {text}, got {np.asarray(arr)[k].tolist()}")


def mesh_problems(m: MeshAttachment, where: str, bone_names) -> list[str]:
    out: list[str] = []
    v, n = np.asarray(m.vertices, float), len(m.vertices)
    if n < 3:
        out.append(f"{where}.vertices: a mesh needs at least 3 vertices, got {n}")
    _rows(out, where, "vertices", v, np.all(np.isfinite(v) & (np.abs(v) <= _MAX), axis=1),
          f"must be finite pixels of magnitude <= {_MAX:g}")
    if len(m.uvs) != n:
        out.append(f"{where}.uvs: needs one [u, v] per vertex ({n}), got {len(m.uvs)}")
    else:
        _rows(out, where, "uvs", m.uvs, np.all((m.uvs >= 0) & (m.uvs <= 1), axis=1), "must be within [0, 1]")
    if len(m.triangles) == 0:
        out.append(f"{where}.triangles: a mesh needs at least one triangle, got none")
    for name, idx in (("triangles", m.triangles), ("edges", m.edges)):
        _rows(out, where, name, idx, np.all((idx >= 0) & (idx < n), axis=1), f"vertex indices must be in 0..{n - 1}")
    t = m.triangles
    _rows(out, where, "triangles", t, (t[:, 0] != t[:, 1]) & (t[:, 1] != t[:, 2]) & (t[:, 0] != t[:, 2]),
          "a triangle needs three different vertices")
    if not (np.isfinite(m.blend_width) and m.blend_width >= 0):
        out.append(f"{where}.blend_width: must be >= 0 model units, got {m.blend_width!r}")
    nb = len(m.bones)
    if nb == 0:
        if len(m.indices) or len(m.weights) or len(m.bind):
            out.append(f"{where}.bones: weights and bind frames need the bones they refer to, got no bones")
        return out
    for k, b in enumerate(m.bones):
        if b not in bone_names:
            out.append(f"{where}.bones[{k}]: unknown bone {b!r}")
        elif b in m.bones[:k]:
            out.append(f"{where}.bones[{k}]: {b!r} is listed twice")
    if len(m.bind) != nb:
        out.append(f"{where}.bind: needs one frame per bone ({nb}), got {len(m.bind)}")
    else:
        det = m.bind[:, 0] * m.bind[:, 3] - m.bind[:, 1] * m.bind[:, 2]
        _rows(out, where, "bind", m.bind, np.all(np.isfinite(m.bind) & (np.abs(m.bind) <= _MAX), axis=1)
              & (np.abs(det) > 1e-12), "must be an invertible frame of finite numbers")
    for name, arr in (("indices", m.indices), ("weights", m.weights)):
        if len(arr) != n:
            out.append(f"{where}.{name}: needs one row per vertex ({n}), got {len(arr)}")
    if m.indices.shape[1:] != m.weights.shape[1:]:
        out.append(f"{where}.weights: needs as many weights as indices per vertex "
                   f"({m.indices.shape[1]}), got {m.weights.shape[1]}")
    if len(m.bind_offsets):
        if m.bind_offsets.shape != (n, m.indices.shape[1], 2):
            out.append(f"{where}.bind_offsets: needs one (x, y) per vertex and influence "
                       f"({n} x {m.indices.shape[1]}), got {' x '.join(map(str, m.bind_offsets.shape[:2]))}")
        else:
            _rows(out, where, "bind_offsets", m.bind_offsets,
                  np.all(np.isfinite(m.bind_offsets) & (np.abs(m.bind_offsets) <= _MAX), axis=(1, 2)),
                  "must be finite numbers")
    if len(m.indices) == n == len(m.weights):
        _rows(out, where, "indices", m.indices, np.all((m.indices >= 0) & (m.indices < nb), axis=1),
              f"bone indices must be in 0..{nb - 1}")
        w = m.weights
        _rows(out, where, "weights", w, np.all(np.isfinite(w) & (w >= MIN_WEIGHT), axis=1),
              f"weights must be >= {MIN_WEIGHT:g}")
        total = np.where(np.isfinite(w), w, 0.0).sum(axis=1)
        _rows(out, where, "weights", w, np.abs(total - 1.0) <= WEIGHT_SUM_TOLERANCE, "weights must sum to 1")
    return out


__all__ = ["mesh_problems", "WEIGHT_SUM_TOLERANCE", "MIN_WEIGHT"]
