"""The art layer's per-mesh damage boxes and looks, for every mesh at once, equal each
mesh's own (its box in device pixels, its vertices' extent, sums and sums of squares)."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QTransform

from rigeditor.app.scene.art_layer import _mesh_elements
from rigeditor.app.scene.paint import DeviceMap


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 40), min_size=1, max_size=8), st.integers(0, 10_000),
       st.floats(0.1, 4.0), st.booleans())
def test_every_mesh_at_once_is_each_mesh_alone(sizes, seed, zoom, flip):
    rng = np.random.default_rng(seed)
    n = len(sizes) + 3
    columns = rng.permutation(n)[:len(sizes)]
    meshes = {int(c): rng.normal(0, 200, (k, 2)) for c, k in zip(columns, sizes)}
    dm = DeviceMap(QTransform(zoom, 0, 0, -zoom if flip else zoom, 400.0, 300.0))
    d, corners = np.zeros((n, 4, 2)), np.zeros((n, 8))
    _mesh_elements(meshes, dm, d, corners)
    want_d, want_c = np.zeros((n, 4, 2)), np.zeros((n, 8))
    for s, v in meshes.items():
        if not len(v):
            continue  # (an empty mesh keeps what it had)
        box = dm(np.array([v.min(axis=0), v.max(axis=0)]))
        want_d[s] = [box[0], box[1], box[0], box[1]]
        want_c[s] = [*v.min(axis=0), *v.max(axis=0), *v.sum(axis=0), *(v * v).sum(axis=0)]
    np.testing.assert_allclose(d, want_d, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(corners, want_c, rtol=1e-12, atol=1e-6)
