"""The art layer's mesh boxes, all meshes in one pass, against one mesh at a time.

Each deformed mesh's device box decides which repaint rectangles redraw it during a
drag, and its look (vertex min, max, sum, sum of squares) decides whether it changed: a
box too small leaves a stale strip of picture on screen, a look that misses a change
leaves the old mesh drawn.
"""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QTransform

from rigeditor.app.scene.art_layer import _mesh_elements as mesh_boxes
from rigeditor.app.scene.paint import DeviceMap


def one_at_a_time(meshes, dm, d, corners):
    """The plain loop: each mesh's box and look from its own vertices."""
    for s, v in meshes.items():
        box = dm(np.array([v.min(axis=0), v.max(axis=0)]))
        d[s] = [box[0], box[1], box[0], box[1]]
        corners[s] = [*v.min(axis=0), *v.max(axis=0), *v.sum(axis=0), *(v * v).sum(axis=0)]


coordinate = st.floats(-5_000.0, 5_000.0, allow_nan=False)
mesh = st.integers(1, 40).flatmap(lambda n: st.lists(st.tuples(coordinate, coordinate), min_size=n, max_size=n))


@settings(max_examples=120, deadline=None)
@given(n=st.integers(1, 12), picks=st.data(), scale=st.floats(0.05, 8.0), turn=st.floats(-3.2, 3.2),
       dx=coordinate, dy=coordinate)
def test_every_mesh_gets_the_box_and_look_it_gets_alone(n, picks, scale, turn, dx, dy):
    shown = picks.draw(st.lists(st.integers(0, n - 1), unique=True, max_size=n))
    meshes = {s: np.array(picks.draw(mesh)) for s in shown}
    c, s_ = np.cos(turn) * scale, np.sin(turn) * scale
    dm = DeviceMap(QTransform(c, s_, -s_, -c, dx, dy))  # turned, scaled, y flipped as the scene's view
    rng = np.random.default_rng(n)
    d0, corners0 = rng.normal(size=(n, 4, 2)), rng.normal(size=(n, 8))
    d1, corners1 = d0.copy(), corners0.copy()
    one_at_a_time(meshes, dm, d0, corners0)
    mesh_boxes(meshes, dm, d1, corners1)
    span = 1.0 + max((float(np.abs(v).max()) for v in meshes.values()), default=0.0)
    assert np.allclose(d1, d0, rtol=1e-12, atol=1e-9 * span * (1 + scale) + 1e-9 * (abs(dx) + abs(dy)))
    assert np.allclose(corners1, corners0, rtol=1e-12, atol=1e-9 * span * span * 40)
    untouched = [k for k in range(n) if k not in meshes]  # slots without a mesh keep their corners
    assert np.array_equal(d1[untouched], d0[untouched]) and np.array_equal(corners1[untouched], corners0[untouched])


def test_a_moved_vertex_changes_its_own_mesh_look_only():
    rng = np.random.default_rng(3)
    meshes = {1: rng.normal(size=(30, 2)) * 100, 4: rng.normal(size=(12, 2)) * 50, 6: rng.normal(size=(3, 2))}
    dm = DeviceMap(QTransform(2.0, 0.0, 0.0, -2.0, 400.0, 300.0))
    before_d, before = np.zeros((8, 4, 2)), np.zeros((8, 8))
    mesh_boxes(meshes, dm, before_d, before)
    moved = {k: v.copy() for k, v in meshes.items()}
    moved[4][5] += [0.25, 0.0]  # an interior vertex a quarter unit to the right
    after_d, after = np.zeros((8, 4, 2)), np.zeros((8, 8))
    mesh_boxes(moved, dm, after_d, after)
    changed = (after != before).any(axis=1)
    assert changed.tolist() == [k == 4 for k in range(8)]
