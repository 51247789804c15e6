"""Meshes kept rasterised between repaints (app.mesh_buffers): a mesh that stays put is
rasterised once and composited from then on, and every repaint shows what a fresh
whole draw under its region shows: after it moves, after its picture is recoloured,
under another transform (2x), none of a kept buffer is left behind."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QRegion

from rigeditor.app import mesh_raster
from rigeditor.app.blend import tinted
from rigeditor.app.mesh_buffers import MeshBuffers

from test_draw_mesh import skinned  # noqa: F401 - the fixture
from test_mesh_raster import BACKGROUND, _paint, _raster

RECT_SETS = [np.array([[280, 300, 420, 420], [400, 330, 560, 460]], float),
             np.array([[300, 400, 430, 520]], float),
             np.array([[250, 200, 620, 600]], float),
             np.array([[330, 250, 380, 300], [500, 500, 600, 590], [260, 420, 300, 470]], float)]


def _region(rects):
    region = QRegion()
    for x0, y0, x1, y1 in np.asarray(rects).astype(int).tolist():
        region = region.united(QRegion(QRect(x0, y0, x1 - x0, y1 - y0)))
    return region


@pytest.fixture
def kernel_calls(monkeypatch):
    """How many times the compiled kernel ran (the buffers are empty at the start)."""
    mesh_raster.BUFFERS.clear()
    real = mesh_raster.compiled_raster(wait=True)
    assert real is not None
    calls = []

    def counting(*args):
        calls.append(args[0].shape)
        return real(*args)
    monkeypatch.setattr(mesh_raster, "compiled_raster", lambda wait=False: counting)
    yield calls
    mesh_raster.BUFFERS.clear()


def _fresh_whole(image, mesh, device, rects, dpr=1.0, opacity=1.0):
    """The mesh drawn whole under the region of ``rects`` with nothing kept from before
    (its own buffers, dropped after)."""
    kept = mesh_raster.BUFFERS
    mesh_raster.BUFFERS = MeshBuffers()
    try:
        return _paint(lambda p: _raster(p, image, mesh.uvs, mesh.triangles, device), dpr=dpr, opacity=opacity,
                      region=_region(rects))
    finally:
        mesh_raster.BUFFERS = kept


def _repaint(image, mesh, device, rects, dpr=1.0, opacity=1.0):
    """(repainted through ``rects`` as the scene does, drawn afresh whole under their region)."""
    ours = _paint(lambda p: _raster(p, image, mesh.uvs, mesh.triangles, device, clip=rects), dpr=dpr, opacity=opacity)
    return ours, _fresh_whole(image, mesh, device, rects, dpr, opacity)


def test_a_mesh_that_stays_put_is_rasterised_once_and_every_repaint_is_a_whole_draw(skinned, kernel_calls):
    pose, image = skinned
    m = pose.mesh
    device = pose.vertices(24) * [2.0, -2.0] + [300.0, 560.0]
    ours_calls = 0
    for rects in RECT_SETS * 2:
        n = len(kernel_calls)
        ours = _paint(lambda p: _raster(p, image, m.uvs, m.triangles, device, clip=rects), opacity=0.5)
        ours_calls += len(kernel_calls) - n
        np.testing.assert_array_equal(ours, _fresh_whole(image, m, device, rects, opacity=0.5))
        assert np.count_nonzero(ours != BACKGROUND) > 1_000
    # The first repaint rasterised its rectangles, the second the whole box; none since.
    assert ours_calls == 2


def test_a_moved_mesh_is_drawn_where_it_is_now(skinned, kernel_calls):
    pose, image = skinned
    m = pose.mesh
    for frame in (24, 24, 24, 30, 30, 30, 24):
        device = pose.vertices(frame) * [2.0, -2.0] + [300.0, 560.0]
        for rects in RECT_SETS[:2]:
            ours, whole = _repaint(image, m, device, rects)
            np.testing.assert_array_equal(ours, whole)
    moved = pose.vertices(30) * [2.0, -2.0] + [300.0, 560.0]
    ours, _ = _repaint(image, m, moved, RECT_SETS[2])
    still = _paint(lambda p: _raster(p, image, m.uvs, m.triangles, pose.vertices(24) * [2.0, -2.0] + [300.0, 560.0],
                                     clip=RECT_SETS[2]))
    assert np.count_nonzero(ours != still) > 500  # the two poses differ where they are drawn


def test_a_recoloured_picture_is_drawn_in_its_new_colour(skinned, kernel_calls):
    pose, image = skinned
    m = pose.mesh
    device = pose.vertices(24) * [2.0, -2.0] + [300.0, 560.0]
    red = tinted(image, (1.0, 0.3, 0.3))
    for picture in (image, image, image, red, red, red, image):
        ours, whole = _repaint(picture, m, device, RECT_SETS[0])
        np.testing.assert_array_equal(ours, whole)
    plain, _ = _repaint(image, m, device, RECT_SETS[0])
    reddened, _ = _repaint(red, m, device, RECT_SETS[0])
    assert np.count_nonzero(plain != reddened) > 1_000


def test_a_kept_mesh_is_drawn_afresh_on_a_2x_screen(skinned, kernel_calls):
    pose, image = skinned
    m = pose.mesh
    device = pose.vertices(24) * [1.0, -1.0] + [200.0, 400.0]
    for dpr in (1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 1.0):
        rects = np.array([[150, 150, 300, 330], [220, 300, 330, 420]], float)
        ours, whole = _repaint(image, m, device, rects, dpr=dpr)
        np.testing.assert_array_equal(ours, whole)
        assert np.count_nonzero(ours != BACKGROUND) > 1_000 * dpr * dpr


def test_a_mesh_past_the_budget_is_drawn_by_its_rectangles_each_repaint(skinned, kernel_calls, monkeypatch):
    # Nothing kept, nothing rasterised whole again and again: each repaint fills only
    # its rectangles, as a mesh that moves does, and shows the whole draw.
    from rigeditor.app import mesh_buffers

    monkeypatch.setattr(mesh_buffers, "BUDGET_PX", 1_000)
    pose, image = skinned
    m = pose.mesh
    device = pose.vertices(24) * [2.0, -2.0] + [300.0, 560.0]
    rects = RECT_SETS[1]
    sizes = []
    for _ in range(5):
        n = len(kernel_calls)
        ours = _paint(lambda p: _raster(p, image, m.uvs, m.triangles, device, clip=rects))
        sizes += kernel_calls[n:]
        np.testing.assert_array_equal(ours, _fresh_whole(image, m, device, rects))
    whole = max(sizes, key=lambda s: s[0] * s[1])
    # One fill a repaint: the second the whole box (then refused), the others their rectangles.
    assert len(sizes) == 5 and sizes[1] == whole and all(s != whole for s in sizes[2:])
