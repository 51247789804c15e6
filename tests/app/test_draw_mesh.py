"""The textured mesh's Qt path (the fallback without the compiled rasteriser) draws
exactly what the per-triangle loop it replaced drew: same pixels on the skinned example
(bent, at 2x, half transparent) and on a dense mesh."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QImage, QPainter, QPen, QPolygonF, QTransform

from rigeditor.app.art_paint import draw_mesh, triangle_affines
from rigeditor.app.mesh_batches import shifted_far
from rigeditor.core.mesh import mesh_from_alpha
from rigeditor.io import load_project
from rigeditor.examples.art_files import example_project
from rigeditor.model import evaluate

pytestmark = pytest.mark.usefixtures("qt_mesh_path")


def _reference(painter, image, uvs, triangles, device):
    """The previous renderer: one QPolygonF and one textured brush + pen per triangle,
    its texture shifted by whole tiles (as draw_mesh does, so that Qt samples each pixel
    where it lies, not where its span started)."""
    t = np.asarray(triangles)
    src = (np.asarray(uvs) * [image.width(), image.height()])[t]
    dst = np.asarray(device, float)[t]
    m = shifted_far(triangle_affines(src, dst), image.width(), image.height())
    brush = QBrush(image)
    pen = QPen(brush, 1.0)
    for k in np.flatnonzero(np.isfinite(m[:, 0, 0])):
        (m11, m12), (m21, m22), (dx, dy) = m[k].tolist()
        brush.setTransform(QTransform(m11, m12, m21, m22, dx, dy))
        pen.setBrush(brush)
        painter.setBrush(brush)
        painter.setPen(pen)
        (x0, y0), (x1, y1), (x2, y2) = dst[k].tolist()
        painter.drawPolygon(QPolygonF([QPointF(x0, y0), QPointF(x1, y1), QPointF(x2, y2)]))
    painter.setPen(Qt.PenStyle.NoPen)


def _paint(fn, size=(900, 650), opacity=1.0):
    target = QImage(*size, QImage.Format.Format_ARGB32_Premultiplied)
    target.fill(0xFF202830)
    p = QPainter(target)
    p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    p.setOpacity(opacity)
    fn(p)
    p.end()
    bits = target.constBits()
    return np.frombuffer(bits, np.uint32).reshape(size[1], target.bytesPerLine() // 4)[:, :size[0]].copy()


@pytest.fixture(scope="module")
def skinned(qapp):
    path = example_project("skinned_arm")
    project = load_project(path)
    pose = evaluate(project).art.meshes[0]
    image = QImage(str(path.parent / pose.mesh.path)).convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
    return pose, image


@pytest.mark.parametrize("frame, scale, opacity", [(0, 1.0, 1.0), (24, 2.0, 1.0), (40, 2.5, 0.5)])
def test_the_bent_skinned_arm_draws_pixel_for_pixel_as_before(skinned, frame, scale, opacity):
    pose, image = skinned
    m = pose.mesh
    device = pose.vertices(frame) * [scale, -scale] + [300.0, 560.0]
    ours = _paint(lambda p: draw_mesh(p, image, m.uvs, m.triangles, device), opacity=opacity)
    before = _paint(lambda p: _reference(p, image, m.uvs, m.triangles, device), opacity=opacity)
    assert np.count_nonzero(ours != 0xFF202830) > 5_000  # the arm is there
    np.testing.assert_array_equal(ours, before)


def dense_mesh(image):
    """(a mesh of ~3,000 small triangles over the opaque part of ``image``, its UVs)."""
    rgba = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
    alpha = rgba[:, : image.width() * 4].reshape(image.height(), image.width(), 4)[..., 3] / 255.0
    mesh = mesh_from_alpha(alpha, tolerance=1.0, spacing=float(max(alpha.shape)) / 100)
    assert len(mesh.triangles) > 1500
    return mesh, mesh.vertices / [image.width(), image.height()]


def test_a_dense_mesh_draws_pixel_for_pixel_as_before(skinned):
    # ~3,000 small triangles over the arm's picture, sheared and turned: every triangle
    # has its own affine, as a skinned mesh's have.
    _, image = skinned
    mesh, uvs = dense_mesh(image)
    rng = np.random.default_rng(3)
    device = mesh.vertices @ np.array([[1.6, 0.4], [-0.3, 1.9]]) + [80.0, 40.0]
    device = device + rng.normal(0, 0.4, device.shape)  # a different affine per triangle
    ours = _paint(lambda p: draw_mesh(p, image, uvs, mesh.triangles, device))
    before = _paint(lambda p: _reference(p, image, uvs, mesh.triangles, device))
    np.testing.assert_array_equal(ours, before)


@pytest.mark.parametrize("rect", [(300, 250, 360, 300), (0, 0, 40, 40), (120, 400, 700, 470)])
def test_a_repainted_rectangle_is_drawn_as_the_whole_mesh_draws_it(skinned, rect):
    # A drag repaints a few rectangles: the triangles that meet none are skipped, and
    # inside the rectangle every pixel is what drawing the whole mesh gives there.
    pose, image = skinned
    m = pose.mesh
    device = pose.vertices(24) * [2.0, -2.0] + [300.0, 560.0]
    x0, y0, x1, y1 = rect

    def clipped(clip):
        def fn(p):
            p.setClipRect(x0, y0, x1 - x0, y1 - y0)
            draw_mesh(p, image, m.uvs, m.triangles, device, clip=clip)
        return fn

    ours = _paint(clipped(np.array([rect], float)))
    whole = _paint(clipped(None))
    np.testing.assert_array_equal(ours, whole)
    outside = _paint(lambda p: draw_mesh(p, image, m.uvs, m.triangles, device, clip=np.array([[0, 0, 40, 40.0]])))
    full = _paint(lambda p: draw_mesh(p, image, m.uvs, m.triangles, device))
    assert np.count_nonzero(outside != full) > 1_000  # elsewhere the skipped triangles are missing
