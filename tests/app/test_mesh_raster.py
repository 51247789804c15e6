"""A mesh drawn by the compiled rasteriser (app.mesh_raster) against the Qt path it
stands in for: where both cover a pixel its colour is the same to the bit (bent, at 1x,
2x and 2.5x, half transparent, on a 2x screen, under the additive mode), and the pixels
only one covers lie within a pixel of a triangle edge. The repainted rectangles are
honoured (overlapping ones composite once), and nothing non-finite is drawn."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QPointF, QRect, Qt
from PySide6.QtGui import QBrush, QImage, QPainter, QPolygonF, QRegion, QTransform
from scipy.ndimage import binary_dilation

from rigeditor.app import mesh_raster
from rigeditor.app.art_paint import draw_mesh, triangle_affines
from rigeditor.app.mesh_batches import shifted_far

from test_draw_mesh import dense_mesh, skinned  # noqa: F401 - the fixture

BACKGROUND = 0xFF202830


def _qt_fill(painter, image, uvs, triangles, device):
    """The Qt path's fill without its seam pens: one texture brush a triangle."""
    t = np.asarray(triangles)
    src = (np.asarray(uvs) * [image.width(), image.height()])[t]
    dst = np.asarray(device, float)[t]
    m = shifted_far(triangle_affines(src, dst), image.width(), image.height())
    brush = QBrush(image)
    painter.setPen(Qt.PenStyle.NoPen)
    for k in np.flatnonzero(np.isfinite(m[:, 0, 0])):
        (m11, m12), (m21, m22), (dx, dy) = m[k].tolist()
        brush.setTransform(QTransform(m11, m12, m21, m22, dx, dy))
        painter.setBrush(brush)
        painter.drawPolygon(QPolygonF([QPointF(*q) for q in dst[k].tolist()]))


def _raster(painter, image, uvs, triangles, device, clip=None):
    """draw_mesh, asserting the rasteriser drew it."""
    calls = []
    real = mesh_raster.draw_raster

    def spy(*args, **kwargs):
        calls.append(real(*args, **kwargs))
        return calls[-1]
    mesh_raster_draw = pytest.MonkeyPatch()
    import rigeditor.app.art_paint as art_paint
    mesh_raster_draw.setattr(art_paint, "draw_raster", spy)
    try:
        draw_mesh(painter, image, uvs, triangles, device, clip=clip)
    finally:
        mesh_raster_draw.undo()
    assert calls and calls[0] is not None and not calls[0].any(), "the rasteriser drew the whole mesh"


def _paint(fn, size=(900, 650), dpr=1.0, opacity=1.0, mode=None, region=None):
    target = QImage(int(size[0] * dpr), int(size[1] * dpr), QImage.Format.Format_ARGB32_Premultiplied)
    target.setDevicePixelRatio(dpr)
    target.fill(BACKGROUND)
    p = QPainter(target)
    p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    p.setOpacity(opacity)
    if mode is not None:
        p.setCompositionMode(mode)
    if region is not None:
        p.setClipRegion(region)
    fn(p)
    p.end()
    return np.frombuffer(target.constBits(), np.uint32).reshape(target.height(), -1)[:, :target.width()].copy()


def _near_edges(device, triangles, shape, dpr=1.0):
    """(H, W) the pixels within one pixel of a triangle edge (device pixels)."""
    p = np.asarray(device, float) * dpr
    t = np.asarray(triangles)
    edges = np.unique(np.sort(np.concatenate([t[:, [0, 1]], t[:, [1, 2]], t[:, [2, 0]]]), axis=1), axis=0)
    a, b = p[edges[:, 0]], p[edges[:, 1]]
    steps = np.linspace(0.0, 1.0, int(np.ceil(np.abs(b - a).max() / 0.2)) + 2)
    pts = (a[None] + steps[:, None, None] * (b - a)[None]).reshape(-1, 2)
    mask = np.zeros(shape, bool)
    ij = np.floor(pts).astype(int)
    keep = (ij[:, 0] >= 0) & (ij[:, 1] >= 0) & (ij[:, 0] < shape[1]) & (ij[:, 1] < shape[0])
    mask[ij[keep, 1], ij[keep, 0]] = True
    return binary_dilation(mask, np.ones((3, 3), bool))


def _compare(ours, qt, near):
    """(pixels both drew, pixels only one drew) after asserting the colours where both
    drew are the same and the rest lies within a pixel of an edge."""
    drew_ours, drew_qt = ours != BACKGROUND, qt != BACKGROUND
    both = drew_ours & drew_qt
    np.testing.assert_array_equal(ours[both], qt[both])
    only = drew_ours ^ drew_qt
    assert not np.any(only & ~near), "a pixel only one path covers lies off the edges"
    return int(both.sum()), int(only.sum())


@pytest.mark.parametrize("frame, scale, opacity, dpr", [(0, 1.0, 1.0, 1.0), (24, 2.0, 1.0, 1.0),
                                                        (40, 2.5, 0.5, 1.0), (24, 1.0, 1.0, 2.0)])
def test_the_bent_arm_is_the_qt_fill_to_the_bit_where_both_draw(skinned, frame, scale, opacity, dpr):
    pose, image = skinned
    m = pose.mesh
    device = pose.vertices(frame) * [scale, -scale] + [300.0, 560.0]
    ours = _paint(lambda p: _raster(p, image, m.uvs, m.triangles, device), dpr=dpr, opacity=opacity)
    qt = _paint(lambda p: _qt_fill(p, image, m.uvs, m.triangles, device), dpr=dpr, opacity=opacity)
    both, only = _compare(ours, qt, _near_edges(device, m.triangles, ours.shape, dpr))
    assert both > 10_000 and only < both / 1000


def test_a_dense_sheared_mesh_is_the_qt_fill_to_the_bit_where_both_draw(skinned):
    _, image = skinned
    mesh, uvs = dense_mesh(image)
    device = mesh.vertices @ np.array([[1.6, 0.4], [-0.3, 1.9]]) + [80.0, 40.0]
    device = device + np.random.default_rng(3).normal(0, 0.4, device.shape)  # an affine per triangle
    ours = _paint(lambda p: _raster(p, image, uvs, mesh.triangles, device))
    qt = _paint(lambda p: _qt_fill(p, image, uvs, mesh.triangles, device))
    both, only = _compare(ours, qt, _near_edges(device, mesh.triangles, ours.shape))
    assert both > 30_000


def test_the_additive_mode_composites_the_mesh_as_its_triangles(skinned):
    pose, image = skinned
    m = pose.mesh
    device = pose.vertices(24) * [2.0, -2.0] + [300.0, 560.0]
    plus = QPainter.CompositionMode.CompositionMode_Plus
    ours = _paint(lambda p: _raster(p, image, m.uvs, m.triangles, device), mode=plus)
    qt = _paint(lambda p: _qt_fill(p, image, m.uvs, m.triangles, device), mode=plus)
    both, _ = _compare(ours, qt, _near_edges(device, m.triangles, ours.shape))
    assert both > 10_000


def test_against_the_qt_path_with_its_seam_pens_only_the_edges_differ(skinned):
    pose, image = skinned
    m = pose.mesh
    device = pose.vertices(24) * [2.0, -2.0] + [300.0, 560.0]
    ours = _paint(lambda p: _raster(p, image, m.uvs, m.triangles, device))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(mesh_raster, "compiled_raster", lambda wait=False: None)
        qt = _paint(lambda p: draw_mesh(p, image, m.uvs, m.triangles, device))
    near = _near_edges(device, m.triangles, ours.shape)
    assert np.count_nonzero(ours != BACKGROUND) > 10_000
    assert not np.any((ours != qt) & ~near)  # interiors: identical


def test_overlapping_repainted_rectangles_draw_each_pixel_once(skinned):
    # The scene grows each repainted rectangle by a pixel, so neighbours overlap; a
    # half-transparent picture composited twice there would come out darker.
    pose, image = skinned
    m = pose.mesh
    device = pose.vertices(24) * [2.0, -2.0] + [300.0, 560.0]
    rects = np.array([[280, 300, 420, 420], [400, 330, 560, 460], [300, 400, 430, 520]], float)
    region = QRegion()
    for x0, y0, x1, y1 in rects.astype(int).tolist():
        region = region.united(QRegion(QRect(x0, y0, x1 - x0, y1 - y0)))
    ours = _paint(lambda p: _raster(p, image, m.uvs, m.triangles, device, clip=rects), opacity=0.5)
    whole = _paint(lambda p: _raster(p, image, m.uvs, m.triangles, device), opacity=0.5, region=region)
    np.testing.assert_array_equal(ours, _paint(lambda p: _raster(p, image, m.uvs, m.triangles, device, clip=rects),
                                               opacity=0.5, region=region))
    np.testing.assert_array_equal(ours, whole)  # inside: as drawn whole; outside: untouched
    assert np.count_nonzero(ours != BACKGROUND) > 5_000


def test_meshes_of_one_repaint_each_draw_inside_the_shared_rectangles_once(skinned):
    # A repaint hands every mesh the same rectangles (cut apart once for all of them):
    # each mesh, wherever it lies, draws exactly the pixels a whole draw under the
    # region gives, its part outside the rectangles untouched, none composited twice.
    pose, image = skinned
    m = pose.mesh
    devices = [pose.vertices(24) * [2.0, -2.0] + [300.0, 560.0], pose.vertices(40) * [1.5, -1.5] + [520.0, 600.0],
               pose.vertices(0) * [2.0, -2.0] + [120.0, 380.0]]
    rects = np.array([[280, 300, 420, 420], [400, 330, 560, 460], [300, 400, 430, 520], [520, 480, 700, 600],
                      [100, 330, 300, 430]], float)
    region = QRegion()
    for x0, y0, x1, y1 in rects.astype(int).tolist():
        region = region.united(QRegion(QRect(x0, y0, x1 - x0, y1 - y0)))

    def meshes(clip):
        return lambda p: [_raster(p, image, m.uvs, m.triangles, d, clip=clip) for d in devices]
    ours = _paint(meshes(rects), opacity=0.5)
    whole = _paint(meshes(None), opacity=0.5, region=region)
    np.testing.assert_array_equal(ours, whole)
    for d in devices:  # each mesh drew something inside the rectangles
        alone = _paint(lambda p: _raster(p, image, m.uvs, m.triangles, d, clip=rects), opacity=0.5)
        assert np.count_nonzero(alone != BACKGROUND) > 2_000


def test_nothing_non_finite_is_drawn_and_degenerate_triangles_are_skipped(skinned):
    pose, image = skinned
    m = pose.mesh
    device = pose.vertices(24) * [2.0, -2.0] + [300.0, 560.0]
    bad = device.copy()
    bad[3] = [np.inf, np.nan]
    assert np.all(_paint(lambda p: draw_mesh(p, image, m.uvs, m.triangles, bad)) == BACKGROUND)
    uvs = np.array(m.uvs, float)
    a, b, _ = m.triangles[5]
    uvs[b] = uvs[a]  # a triangle without texture area (Qt's path skips it too)
    ours = _paint(lambda p: _raster(p, image, uvs, m.triangles, device))
    qt = _paint(lambda p: _qt_fill(p, image, uvs, m.triangles, device))
    _compare(ours, qt, _near_edges(device, m.triangles, ours.shape))


def test_without_the_compiled_kernel_or_below_its_size_the_qt_path_draws(skinned, monkeypatch):
    pose, image = skinned
    m = pose.mesh
    device = pose.vertices(24) * [2.0, -2.0] + [300.0, 560.0]
    with_kernel = _paint(lambda p: draw_mesh(p, image, m.uvs, m.triangles, device))
    monkeypatch.setattr(mesh_raster, "MIN_TRIANGLES", len(m.triangles) + 1)
    small = _paint(lambda p: draw_mesh(p, image, m.uvs, m.triangles, device))
    monkeypatch.setattr(mesh_raster, "MIN_TRIANGLES", 16)
    monkeypatch.setattr(mesh_raster, "compiled_raster", lambda wait=False: None)
    without = _paint(lambda p: draw_mesh(p, image, m.uvs, m.triangles, device))
    np.testing.assert_array_equal(small, without)
    assert np.count_nonzero(with_kernel != without) > 0  # (the seam pens: the Qt path's alone)


def test_a_straight_alpha_picture_and_the_render_command_keep_the_qt_path(skinned, tmp_path):
    # Into straight-alpha ARGB32 Qt blends a brush at 16 bits a channel (1-2 levels from
    # the 8-bit pipeline the rasteriser reproduces): such a picture is drawn by Qt, so
    # ``rigeditor render`` (which paints one) is unchanged.
    from rigeditor.app.render import render_image
    from rigeditor.examples.art_files import example_project
    from rigeditor.io import load_project
    from rigeditor.model import evaluate

    pose, image = skinned
    straight = QImage(200, 200, QImage.Format.Format_ARGB32)
    p = QPainter(straight)
    try:
        drawn = mesh_raster.draw_raster(p, image, pose.mesh.triangles, np.asarray(pose.mesh.uvs) * 100,
                                        pose.vertices(0), np.zeros(2))
    finally:
        p.end()
    assert drawn is None
    path = example_project("skinned_arm")
    project = load_project(path)
    bake = evaluate(project)

    def render():
        im = render_image(bake, 24, project=project, images=path.parent)
        return np.frombuffer(im.constBits(), np.uint32).copy()
    ours = render()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(mesh_raster, "compiled_raster", lambda wait=False: None)
        np.testing.assert_array_equal(ours, render())


def test_the_scene_draws_the_arm_as_the_qt_fill_but_a_few_edge_pixels(qtbot):
    # The editor's view, grabbed, against the Qt path without its seam pens (which draw
    # along every edge): only the pixels whose centre lies on an edge may differ.
    import rigeditor.app.art_paint as art_paint
    from rigeditor.app.document import Document
    from rigeditor.app.scene import SceneView
    from rigeditor.examples.art_files import example_project
    from rigeditor.io import load_project

    path = example_project("skinned_arm")
    doc = Document(load_project(path), path)
    view = SceneView(doc)
    qtbot.addWidget(view)
    view.resize(900, 650)
    view.show()
    doc.set_frame(24)

    def grab():
        view.viewport().update()
        qtbot.wait(10)
        img = view.grab().toImage().convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
        return np.frombuffer(img.constBits(), np.uint32).reshape(img.height(), -1)[:, :img.width()].copy()
    ours = grab()
    real = art_paint.draw_mesh
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(mesh_raster, "compiled_raster", lambda wait=False: None)
        mp.setattr(art_paint, "draw_mesh", lambda *a, **k: real(*a, **{**k, "seams": False}))
        qt = grab()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(art_paint, "draw_mesh", lambda *a, **k: None)
        bare = grab()
    arm = np.count_nonzero(ours != bare)
    assert arm > 10_000  # the arm is drawn
    assert np.count_nonzero(ours != qt) <= 20


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60), st.integers(1, 30), st.integers(1, 30)),
                min_size=1, max_size=mesh_raster.MAX_RECTS))
def test_the_repainted_rectangles_cut_apart_cover_their_union_once(boxes):
    # Brute force on a grid of pixels: every pixel of the union in exactly one piece.
    rects = np.array([(x, y, x + w, y + h) for x, y, w, h in boxes], float)
    union = np.zeros((100, 100), bool)
    for x0, y0, x1, y1 in rects.astype(int):
        union[y0:y1, x0:x1] = True
    count = np.zeros((100, 100), int)
    for x0, y0, x1, y1 in mesh_raster.disjoint(rects).astype(int):
        count[y0:y1, x0:x1] += 1
    np.testing.assert_array_equal(count, union.astype(int))


def test_a_box_with_smaller_boxes_inside_stays_one_rectangle():
    # A dragged mesh's damage box holds its bones' and target's boxes: the bands their
    # edges cut leave the same columns, which make the one box again (the kernel walks
    # every rectangle for every triangle).
    box = [272.0, 49.0, 588.0, 343.0]
    inside = mesh_raster.disjoint(np.array([box, [300, 112, 320, 118], [400, 141, 420, 147]], float))
    np.testing.assert_array_equal(inside, [box])
    bands = mesh_raster.disjoint(np.array([[0, 0, 50, 10], [0, 10, 50, 30], [0, 30, 50, 31]], float))
    np.testing.assert_array_equal(bands, [[0, 0, 50, 31]])
    # Boxes reaching out of the mesh's box cut bands of other columns; cut to the mesh's
    # box, the bands are its columns again.
    clip = np.array([[260, 40, 600, 350], [200, 100, 300, 120], [560, 200, 700, 220]], float)
    identity = np.array([1.0, 0.0, 0.0, 1.0, 0.0, 0.0])
    np.testing.assert_array_equal(mesh_raster._rects(np.array(box), clip, identity), [box])


def test_the_scene_inside_a_window_draws_its_meshes_where_it_draws_them_alone(qtbot):
    # A widget inside a window paints into the window's backing store shifted by its
    # place there (what the screen and the window's grab show): the mesh must be drawn
    # where the scene alone draws it, not shifted by the scene's place in the window.
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    from rigeditor.app.document import Document
    from rigeditor.app.scene import SceneView
    from rigeditor.examples.art_files import example_project
    from rigeditor.io import load_project

    assert mesh_raster.compiled_raster(wait=True) is not None
    path = example_project("skinned_arm")
    doc = Document(load_project(path), path)
    window = QWidget()
    layout = QVBoxLayout(window)
    layout.setContentsMargins(137, 61, 0, 0)  # the scene well inside the window
    view = SceneView(doc)
    layout.addWidget(view)
    qtbot.addWidget(window)
    window.resize(900 + 137, 650 + 61)
    window.show()
    doc.set_frame(24)
    qtbot.wait(10)

    def pixels(img):
        img = img.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
        return np.frombuffer(img.constBits(), np.uint32).reshape(img.height(), -1)[:, :img.width()].copy()
    alone = pixels(view.grab().toImage())
    at = view.geometry()
    assert at.x() >= 100 and at.y() >= 50
    inside = pixels(window.grab().toImage())[at.y():at.y() + at.height(), at.x():at.x() + at.width()]
    import rigeditor.app.art_paint as art_paint

    drawn = []
    real = art_paint.draw_raster
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(art_paint, "draw_raster", lambda *a, **k: drawn.append(real(*a, **k)) or drawn[-1])
        pixels(view.grab().toImage())
    assert drawn and all(left is not None and not left.any() for left in drawn)  # the rasteriser drew it all
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(art_paint, "draw_mesh", lambda *a, **k: None)
        bare = pixels(view.grab().toImage())
    assert np.count_nonzero(alone != bare) > 10_000  # the arm is drawn
    np.testing.assert_array_equal(inside, alone)
