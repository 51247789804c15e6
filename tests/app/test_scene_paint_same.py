"""The scene's paint made cheaper draws the same picture (pytest-qt, offscreen): each
layer whose drawing was rewritten for speed is grabbed against the way it drew before
(kept here as the reference), at 1x and on a 2x screen; the layer is shown to draw
something there, so an equality is never that of two empty pictures."""
from __future__ import annotations

import math
import types
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QLineF, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QPainterPath, QTransform
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget

from rigeditor.app import style
from rigeditor.app.document import Document
from rigeditor.app.scene.layers import PAINT_ERRORS
from rigeditor.app.scene.layers import arc_directions_many
from rigeditor.app.scene.paint import (
    NO_BRUSH, NO_PEN, SMOOTH, WINDING_FILL, faded, fill_path, pen, polygon, pt, thick_line,
)
from rigeditor.examples.rigs import EXAMPLES
from views import grab_rgba, release_all, show_scene


@pytest.fixture(autouse=True)
def _release():
    del PAINT_ERRORS[:]
    yield
    release_all()
    assert not PAINT_ERRORS
    del PAINT_ERRORS[:]


def _view(qtbot, example, frame):
    doc = Document(EXAMPLES[example]())
    doc.set_frame(frame)
    return doc, show_scene(qtbot, doc)


def grab_2x(view) -> np.ndarray:
    """The view rendered as on a 2x screen: (2h, 2w, 4) uint8 RGBA."""
    vp = view.viewport()
    img = QImage(vp.width() * 2, vp.height() * 2, QImage.Format.Format_ARGB32_Premultiplied)
    img.setDevicePixelRatio(2.0)
    img.fill(0)
    p = QPainter(img)
    view.render(p, QRectF(0, 0, vp.width(), vp.height()), vp.rect())
    p.end()
    img = img.convertToFormat(QImage.Format.Format_RGBA8888)
    return np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), img.bytesPerLine())[:, :img.width() * 4] \
        .reshape(img.height(), img.width(), 4).copy()


def assert_draws_as_before(view, layer_name, before, min_pixels=30, grab=grab_rgba, hide=()):
    """The view grabbed with the layer's draw against ``before`` (its earlier draw,
    bound to the layer): equal to the pixel, and the layer covers ``min_pixels``;
    the overlays ``hide`` (those drawn over it) hidden."""
    for name in hide:
        view.set_overlay(name, False)
    layer = view.layer(layer_name)
    grab(view)  # (what stays put is drawn from kept pictures from the second paint on)
    ours = grab(view)
    layer.draw = types.MethodType(before, layer)
    try:
        theirs = grab(view)
    finally:
        del layer.draw
    view.set_overlay(layer_name, False)
    bare = grab(view)
    view.set_overlay(layer_name, True)
    assert np.count_nonzero((ours != bare).any(axis=2)) >= min_pixels
    np.testing.assert_array_equal(ours, theirs)


def assert_patched_draws_as_before(view, monkeypatch, module, name, before, overlay, more_than):
    """At 1x and 2x: the view grabbed as it is against with ``module.name`` replaced by
    ``before`` (its earlier code): equal to the pixel, and the ``overlay`` it draws
    covers more than ``more_than`` pixels."""
    for grab in (grab_rgba, grab_2x):
        ours = grab(view)
        with monkeypatch.context() as m:
            m.setattr(module, name, before)
            theirs = grab(view)
        view.set_overlay(overlay, False)
        bare = grab(view)
        view.set_overlay(overlay, True)
        assert np.count_nonzero((ours != bare).any(axis=2)) > more_than
        np.testing.assert_array_equal(ours, theirs)


def _spaces_before(self, painter, dm, mask):
    """SpaceLayer.draw as it was: a numpy scalar pair at a time."""
    o = self.ctx.state.space_origin
    names, origin, parent, lin = self._rows(self.ctx.state)
    dlin = dm.linear()
    for k in np.flatnonzero(mask):
        name = names[k]
        color = self.ctx.space_color(name)
        c, pc = dm(origin[k]), dm(parent[k])
        if o[name][2] in o and np.hypot(*(c - pc)) > 1.0:
            thick_line(painter, pc, c, 5.0, faded(self.ctx.space_color(o[name][2]), 110))
        m = dlin @ lin[k].reshape(2, 2)
        painter.setPen(pen(color))
        for axis, length in ((m[:, 0], 18.0), (m[:, 1], 11.0)):
            painter.drawLine(pt(c), pt(c + axis / max(np.hypot(*axis), 1e-12) * length))
        painter.setPen(pen(style.BONE_OUTLINE))
        painter.setBrush(color)
        painter.drawRect(int(c[0]) - 3, int(c[1]) - 3, 6, 6)


@pytest.mark.parametrize("example, frame", [("door", 0), ("door", 30), ("walk", 12)])
def test_space_origins_and_their_bands_draw_as_before(qtbot, example, frame):
    doc, view = _view(qtbot, example, frame)
    assert_draws_as_before(view, "spaces", _spaces_before)
    if example == "door":  # the handle's band to the door is drawn, from its picture
        o = view.ctx.state.space_origin
        assert any(o[n][2] in o for n in o)
        assert view.layer("spaces")._sprites._kept


def test_space_origins_draw_as_before_on_a_2x_screen(qtbot):
    doc, view = _view(qtbot, "door", 30)
    assert_draws_as_before(view, "spaces", _spaces_before, min_pixels=120, grab=grab_2x)
    assert any(ratio == 2.0 for _, ratio in view.layer("spaces")._sprites._kept)



def _by_range(arcs) -> dict:
    """Indices of ``arcs`` per (lo, hi), as the layer grouped them then."""
    out: dict = {}
    for k, arc in enumerate(arcs):
        out.setdefault((arc.lo, arc.hi), []).append(k)
    return out


def _limits_before(self, painter, dm, mask):
    """LimitLayer.draw as it was: each tick computed in floats, a joint at a time."""
    radius = style.LIMIT_ARC_RADIUS_PX
    arcs = [self.ctx.state.limits[k] for k in np.flatnonzero(mask).tolist()]
    if not arcs:
        return
    centres = dm(np.array([arc.center for arc in arcs]))
    frames = np.einsum("ij,kjl->kil", dm.linear(), np.array([arc.frame for arc in arcs]))
    # One path per look (free and bound wedges, their outlines) and one drawLines
    # of ticks: a 50-joint chain is a handful of painter calls, not 300.
    wedges = {False: QPainterPath(), True: QPainterPath()}
    edges = {False: QPainterPath(), True: QPainterPath()}
    for path in wedges.values():
        path.setFillRule(WINDING_FILL)  # overlapping wedges of one look add up, never cancel
    ticks = []
    for key, idx in _by_range(arcs).items():
        dirs = arc_directions_many(frames[idx], *key)  # (G, P, 2)
        # Each wedge: the joint, then its rim, closed; written into a polygon from
        # the array at once (a point at a time was most of the paint of a long chain).
        shapes = np.concatenate([centres[idx][:, None], centres[idx][:, None] + dirs * radius], axis=1)
        for k, wedge, d in zip(idx, shapes, dirs):
            arc = arcs[k]
            poly = polygon(wedge)
            for path in (wedges[arc.bound], edges[arc.bound]):
                path.addPolygon(poly)
                path.closeSubpath()
            if arc.bound:
                edges[True].addPolygon(polygon(centres[k] + d * (radius + 1.0)))
        for k in idx:
            arc, (cx, cy) = arcs[k], centres[k].tolist()
            # The tick at the current angle, 5 px past the arc.
            (m00, m01), (m10, m11) = frames[k].tolist()
            ca, sa = math.cos(arc.angle), math.sin(arc.angle)
            tx, ty = m00 * ca + m01 * sa, m10 * ca + m11 * sa
            s = (radius + 5) / max(math.hypot(tx, ty), 1e-12)
            ticks.append(QLineF(cx, cy, cx + tx * s, cy + ty * s))
    for bound in (False, True):
        if wedges[bound].isEmpty():
            continue
        color = style.CAUSE_COLORS["limit"] if bound else style.LIMIT_ARC
        # The wedges' edges are stroked (antialiased) right after: filling without
        # antialiasing looks the same and costs a third.
        painter.setRenderHint(SMOOTH, False)
        painter.fillPath(wedges[bound], faded(color, 110 if bound else 40))
        painter.setRenderHint(SMOOTH, True)
        painter.setPen(pen(color, alpha=255 if bound else 200))
        painter.setBrush(NO_BRUSH)
        painter.drawPath(edges[bound])
    painter.setPen(pen(style.TEXT))
    painter.drawLines(ticks)


@pytest.mark.parametrize("frame", [0, 37, 90])
def test_joint_limits_draw_as_before(qtbot, frame):
    doc, view = _view(qtbot, "tail", frame)
    assert len(view.ctx.state.limits) >= 9
    # (The bones, drawn over them, would hide the ticks along them.)
    assert_draws_as_before(view, "limits", _limits_before, min_pixels=1_000, hide=("bones",))
    assert_draws_as_before(view, "limits", _limits_before, min_pixels=4_000, grab=grab_2x, hide=("bones",))


def _image_to_device_before(world, to_device, a, image: QImage) -> QTransform:
    """art_paint._image_to_device as it was: on numpy scalars."""
    aa, bb, cc, dd, tx, ty = world
    o, ex, ey = to_device(np.array([[tx, ty], [tx + aa, ty + cc], [tx + bb, ty + dd]]))
    ex, ey = ex - o, ey - o  # device directions of the image frame's unit x and y (y up)
    kx, ky = a.width / image.width(), a.height / image.height()
    iw, ih = image.width(), image.height()
    # device = o + ex * kx * (u - iw/2) + ey * ky * (ih/2 - v)
    dx = o[0] - ex[0] * kx * iw / 2 + ey[0] * ky * ih / 2
    dy = o[1] - ex[1] * kx * iw / 2 + ey[1] * ky * ih / 2
    return QTransform(ex[0] * kx, ex[1] * kx, -ey[0] * ky, -ey[1] * ky, dx, dy)


@pytest.mark.parametrize("name, frame", [("dressed_walk", 7), ("dressed_arm", 20)])
def test_pictures_draw_as_before(qtbot, monkeypatch, name, frame):
    from rigeditor.app import art_paint
    from rigeditor.examples.art_files import example_project
    from rigeditor.io import load_project

    path = example_project(name)
    doc = Document(load_project(path), path)
    doc.set_frame(frame)
    view = show_scene(qtbot, doc)
    assert_patched_draws_as_before(view, monkeypatch, art_paint, "_image_to_device", _image_to_device_before,
                                   "art", 5_000)


RAPTOR = Path(__file__).resolve().parents[2] / "benchmarks" / "rigs" / "raptor_like.json"


def _on_screen(view) -> np.ndarray:
    """What the viewport shows now (the window's backing store: the partial repaints of
    a drag as they added up), RGBA, with the view's own overlays (HUD, legend) blanked."""
    vp = view.viewport()
    o = vp.mapTo(view.window(), QPoint(0, 0))
    img = view.screen().grabWindow(view.window().winId(), o.x(), o.y(), vp.width(), vp.height()).toImage()
    return _blank_children(view, _rgba(img))


def _fresh(view) -> np.ndarray:
    """The viewport painted whole now, RGBA, the view's own overlays blanked."""
    return _blank_children(view, grab_rgba(view))


def _rgba(img: QImage) -> np.ndarray:
    img = img.convertToFormat(QImage.Format.Format_RGBA8888)
    return np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), img.bytesPerLine())[:, :img.width() * 4] \
        .reshape(img.height(), img.width(), 4).copy()


def _blank_children(view, rgba):
    for w in view.findChildren(QWidget):
        if w.isVisible() and w.parent() is view and w is not view.viewport():
            g = w.geometry().translated(-view.viewport().x(), -view.viewport().y())
            rgba[max(g.top(), 0):g.bottom() + 1, max(g.left(), 0):g.right() + 1] = 0
    return rgba


@pytest.mark.parametrize("runs", [False, True])
def test_a_drag_on_a_production_rig_shows_what_a_whole_paint_shows(qtbot, tmp_path, monkeypatch, runs):
    # Drawn mesh by mesh, its meshes stay rasterised while they do not move
    # (app.mesh_buffers); drawn in runs sharing a buffer (app.mesh_run), each repaint
    # composites them again inside its rectangles. Each move repaints a few rectangles:
    # what the screen shows after the moves is, pixel for pixel, the view painted
    # whole, and that again with nothing kept.
    from rigeditor.app import art_paint, mesh_raster
    from rigeditor.io.project_file import load_project
    from rigeditor.io.spine.read import import_spine

    assert mesh_raster.compiled_raster(wait=True) is not None
    mesh_raster.BUFFERS.clear()
    drawn = []
    real = art_paint.draw_run
    monkeypatch.setattr(art_paint, "draw_run", lambda *a, **k: runs and (drawn.append(real(*a, **k)) or drawn[-1]))
    out = tmp_path / "raptor.rigproj"
    import_spine(RAPTOR, out)
    doc = Document(load_project(out), out)
    doc.set_frame(12)
    view = show_scene(qtbot, doc)
    view.frame_all()
    qtbot.wait(20)
    state = view.ctx.state
    h = state.handle[state.targets.index("front-foot-target")]
    p = view.viewportTransform().map(QPointF(float(h[0]), float(h[1])))
    start, vp = QPoint(round(p.x()), round(p.y())), view.viewport()
    before = _on_screen(view)
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, start)
    for i in range(1, 13):
        QTest.mouseMove(vp, start + QPoint(round(14 * math.cos(i / 2)), round(14 * math.sin(i / 2))))
        qtbot.wait(1)
    kept = sum(e.buffer is not None for e in mesh_raster.BUFFERS._entries.values())
    shown = _on_screen(view)
    if runs:
        assert drawn and all(drawn)  # every run went through the shared buffer
    else:
        assert kept >= 4  # the meshes the leg leaves alone came from their kept buffers
    assert np.count_nonzero((shown != before).any(axis=2)) > 500  # the leg moved
    np.testing.assert_array_equal(shown, _fresh(view))
    mesh_raster.BUFFERS.clear()
    np.testing.assert_array_equal(shown, _fresh(view))
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, start)
    qtbot.wait(20)
    np.testing.assert_array_equal(_on_screen(view), _fresh(view))


def _polygons_before(painter, shapes, color, outline=NO_PEN):
    """paint.polygons as it was: its path built a point at a time."""
    if not len(shapes):
        return
    path = QPainterPath()
    path.setFillRule(WINDING_FILL)
    for shape in np.asarray(shapes, float).tolist():
        path.moveTo(*shape[0])
        for x, y in shape[1:]:
            path.lineTo(x, y)
        path.closeSubpath()
    fill_path(painter, path, color, outline)


@pytest.mark.parametrize("example, frame, selected", [("tail", 40, None), ("walk", 12, "thigh_l")])
def test_bones_and_their_halos_draw_as_before(qtbot, monkeypatch, example, frame, selected):
    from rigeditor.app.scene import layers

    doc, view = _view(qtbot, example, frame)
    if selected:
        view.ctx.selected["bone"] = {selected}
    assert_patched_draws_as_before(view, monkeypatch, layers, "polygons", _polygons_before, "bones", 1_000)
