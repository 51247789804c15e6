"""The discrete operators of a triangle mesh that the weights minimise over: the cotangent
Laplacian and the barycentric lumped mass (numpy + scipy.sparse, imported lazily)."""
from __future__ import annotations

import numpy as np


def cotangent_laplacian(vertices, triangles):
    """Positive semi-definite cotangent Laplacian K (V, V), scipy.sparse CSC:
    K_ij = -½(cot α_ij + cot β_ij) on edges, rows sum to zero."""
    import scipy.sparse as sp

    v, t = np.asarray(vertices, float), np.asarray(triangles, np.int64)
    n = len(v)
    rows, cols, vals = [], [], []
    for k in range(3):  # the angle at corner k faces edge (k+1, k+2)
        i, j, o = t[:, (k + 1) % 3], t[:, (k + 2) % 3], t[:, k]
        u, w = v[i] - v[o], v[j] - v[o]
        cross = np.abs(u[:, 0] * w[:, 1] - u[:, 1] * w[:, 0])
        cot = np.sum(u * w, axis=1) / np.maximum(cross, 1e-300)
        rows += [i, j]
        cols += [j, i]
        vals += [-0.5 * cot, -0.5 * cot]
    off = sp.coo_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n, n)).tocsr()
    return (off - sp.diags(np.asarray(off.sum(axis=1)).ravel())).tocsc()


def lumped_mass(vertices, triangles):
    """Barycentric lumped mass: a third of each incident triangle's area per vertex (V,)."""
    v, t = np.asarray(vertices, float), np.asarray(triangles, np.int64)
    a, b, c = v[t[:, 0]], v[t[:, 1]], v[t[:, 2]]
    area = 0.5 * np.abs((b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0]))
    return np.bincount(t.ravel(), weights=np.repeat(area / 3.0, 3), minlength=len(v))
