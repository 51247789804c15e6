"""A whole textured mesh drawn by the compiled rasteriser (``core.mesh_raster_jit``):
one premultiplied ARGB32 buffer over the mesh's device box, then one ``drawImage``.

``draw_mesh`` asks here first; the answer None leaves it to the Qt path (numba
missing or still loading, ``RIGEDITOR_JIT=0``, a painter transform that turns or
shears, a picture Qt blends at 16 bits a channel (SAME_PIPELINE), a mesh below
MIN_TRIANGLES). The buffer covers the mesh's box in device
pixels (the painter's transform included: a 2x screen paints a buffer at 2x) cut to
the painted device and to the ``clip`` rectangles a drag repaints; each rectangle is
rasterised and drawn on its own, so a small repaint costs its pixels only. The
painter's composition mode, opacity and clip path apply to the ``drawImage`` as they
applied to each triangle's fill.

Each triangle's device -> texture inverse is computed here as Qt's raster engine
computes it for a texture brush (its matrix classes, its product with the painter's
transform and a 1/65536 px nudge, the inverse by adjugate), so the rasteriser samples
the texel positions Qt samples (tests/app/test_mesh_raster.py measures the match).
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QImage, QPainter, QPixmap

from rigeditor.app.mesh_buffers import MeshBuffers
from rigeditor.core.geometry import bounds
from rigeditor.core.lazy_kernel import LazyKernel

_KERNEL = LazyKernel("rigeditor.core.mesh_raster_jit", "rigeditor-mesh-raster")
BUFFERS = MeshBuffers()
"""Meshes rasterised whole and kept while they stay put (``mesh_buffers``)."""

MIN_TRIANGLES = 16
"""Fewest triangles the rasteriser draws (below, the Qt path is as quick; measured in
benchmarks/bench_mesh_ui.py). Benchmarks and tests set it huge to time or draw the Qt
path alone."""
REACH_PX = 2.0**21
"""Triangles with a corner farther than this from the buffer (device px) are left to Qt
(the kernel's integer edge functions stay within int64 inside it)."""


def compiled_raster(wait: bool | float = False):
    """``core.mesh_raster_jit.raster``, or None: numba missing or failing,
    ``RIGEDITOR_JIT=0``, or not loaded yet after ``wait`` (``LazyKernel.get``)."""
    return _KERNEL.get(wait)


def _state(painter: QPainter):
    """The painter's logical -> device pixel affine (6,), or None when it turns or shears
    (the buffer is drawn 1:1 only under an axis-aligned scale)."""
    t = painter.combinedTransform()
    if not t.isAffine() or t.m12() != 0 or t.m21() != 0 or t.m11() == 0 or t.m22() == 0:
        return None
    return np.array([t.m11(), 0.0, 0.0, t.m22(), t.dx(), t.dy()])


SAME_PIPELINE = (QImage.Format.Format_ARGB32_Premultiplied, QImage.Format.Format_RGB32)
"""Picture formats Qt blends a texture brush into through the 8-bit premultiplied
pipeline the rasteriser reproduces (a screen's backing store is one of them; into a
straight-alpha ARGB32 picture, as ``rigeditor render`` paints, Qt samples and blends at
16 bits a channel: one or two levels apart, so that is left to the Qt path)."""


def _eight_bit_premultiplied(painter: QPainter) -> bool:
    """Whether the painted device blends as the rasteriser does (widgets, pixmaps and
    SAME_PIPELINE pictures)."""
    dev = painter.device()
    return not isinstance(dev, QImage) or dev.format() in SAME_PIPELINE


def _device_box(painter: QPainter) -> np.ndarray:
    """The painted device's pixels (x0, y0, x1, y1) in device pixels."""
    dev = painter.device()
    w, h = float(dev.width()), float(dev.height())
    if isinstance(dev, (QImage, QPixmap)):  # their size is in device pixels already
        return np.array([0.0, 0.0, w, h])
    k = dev.devicePixelRatio()
    return np.array([0.0, 0.0, w * k, h * k])


def draw_raster(painter: QPainter, image: QImage, triangles, texture, device, shift, clip=None) -> np.ndarray | None:
    """Draw the mesh ``triangles`` (T, 3) with corners ``texture`` (V, 2, picture px) and
    ``device`` (V, 2, the painter's px) in one buffer, the texture moved by ``shift`` (2,)
    whole tiles as ``mesh_batches.shifted_far`` moves it; ``clip``: the painter's
    rectangles (R, 4) outside which nothing is drawn. Returns the mask (T,) of triangles
    left for the Qt path (reaching past REACH_PX), or None when the rasteriser cannot
    draw this (nothing drawn)."""
    t = np.asarray(triangles, np.int64)
    kernel = compiled_raster() if len(t) >= MIN_TRIANGLES and not image.isNull() else None
    state = _state(painter) if kernel is not None and _eight_bit_premultiplied(painter) else None
    if state is None:
        return None
    logical = np.ascontiguousarray(device, dtype=float)
    left = np.zeros(len(t), np.bool_)
    lo, hi = bounds(logical)
    lo, hi = lo * state[[0, 3]] + state[4:], hi * state[[0, 3]] + state[4:]
    lo, hi = np.minimum(lo, hi), np.maximum(lo, hi)  # (a mirroring transform swaps them)
    box = _device_box(painter)
    area = np.array([*np.floor(np.maximum(lo, box[:2])), *np.ceil(np.minimum(hi, box[2:]))])
    rects = _rects(area, clip, state)
    if not len(rects):
        return left
    texture = np.ascontiguousarray(texture, dtype=float)
    kept, steady = BUFFERS.lookup(image.cacheKey(), triangles, (texture, logical, state, np.asarray(shift, float), area))
    if steady:  # the same as last repaint: its whole box once, kept for the next ones
        whole = area[None, :].copy()
        kept = _fill(kernel, whole, image, t, texture, logical, state, shift, left)
        # (Some of it the Qt path's: nothing kept.)
        BUFFERS.keep(image.cacheKey(), triangles, None if left.any() else kept)
    if kept is not None:
        _blit(painter, kept, area[0], area[1], (rects - [area[0], area[1], area[0], area[1]]).astype(np.int64))
        return left
    ox, oy = rects[:, :2].min(axis=0)
    local = (rects - [ox, oy, ox, oy]).astype(np.int64)
    buffer = _fill(kernel, rects, image, t, texture, logical, state, shift, left)
    _blit(painter, buffer, ox, oy, local)
    return left


def _fill(kernel, rects, image, t, texture, logical, state, shift, left) -> np.ndarray:
    """The mesh rasterised into a cleared buffer over the bounding box of ``rects``
    (device px), only inside them."""
    ox, oy = rects[:, :2].min(axis=0)
    w, h = int(rects[:, 2].max() - ox), int(rects[:, 3].max() - oy)
    buffer = np.zeros((h, w), np.uint32)
    local = (rects - [ox, oy, ox, oy]).astype(np.int64)
    kernel(buffer, np.int64(ox), np.int64(oy), _texels(image), t, texture,
           logical, state, np.asarray(shift, float), local, left)
    return buffer


def _blit(painter: QPainter, buffer: np.ndarray, ox, oy, local, mode=None) -> None:
    """Composite the ``local`` rectangles (R, 4, buffer px) of ``buffer``, whose pixel
    [0, 0] is device pixel (ox, oy), with the painter's mode (or ``mode``), opacity and
    clip."""
    h, w = buffer.shape
    picture = QImage(buffer.data, w, h, 4 * w, QImage.Format.Format_ARGB32_Premultiplied)
    # The buffer's pixels are the painted widget's own device pixels (combinedTransform);
    # a widget inside a window paints into the window's backing store shifted by its
    # place there (the redirection deviceTransform adds): the blit adds that shift.
    to_device, combined = painter.deviceTransform(), painter.combinedTransform()
    rx, ry = to_device.dx() - combined.dx(), to_device.dy() - combined.dy()
    painter.save()
    try:
        # Device pixels 1:1: undo the painter's transform for the blit.
        painter.setWorldTransform(to_device.inverted()[0])
        if mode is not None:
            painter.setCompositionMode(mode)
        for x0, y0, x1, y1 in local.tolist():
            painter.drawImage(QPointF(ox + rx + x0, oy + ry + y0), picture, QRectF(x0, y0, x1 - x0, y1 - y0))
    finally:
        painter.restore()
    del picture


def _rects(area, clip, state) -> np.ndarray:
    """Integer device rectangles (R, 4) to rasterise: ``area`` (x0, y0, x1, y1) cut to
    each of the logical ``clip`` rectangles (None: the whole area), empty ones dropped."""
    if area[2] <= area[0] or area[3] <= area[1]:
        return np.zeros((0, 4))
    if clip is None:
        return area[None, :]
    r = _device_clip(clip, state)
    # Cutting rectangles that do not overlap to one box leaves them apart.
    r = np.concatenate([np.maximum(r[:, :2], area[:2]), np.minimum(r[:, 2:], area[2:])], axis=1)
    # Cut to the mesh's box, bands of the repaint often come to the same columns.
    return _stacked(r[(r[:, 2] > r[:, 0]) & (r[:, 3] > r[:, 1])])


_last_clip: list = [None, None]  # (key, rectangles): every mesh of a repaint shares its clip


def _device_clip(clip, state) -> np.ndarray:
    """The repainted ``clip`` rectangles (logical px) as disjoint whole device pixels
    (R, 4), remembered for the last clip and transform: every mesh of one repaint asks
    for the same ones (cutting them apart was half a mesh's cost on the Python side)."""
    c = np.asarray(clip, float).reshape(-1, 4)
    key = c.tobytes() + np.asarray(state, float).tobytes()
    if _last_clip[0] == key:
        return _last_clip[1]
    xs, ys = np.sort(c[:, [0, 2]] * state[0] + state[4], axis=1), np.sort(c[:, [1, 3]] * state[3] + state[5], axis=1)
    # A repainted rectangle reaches the pixels it touches: grown to whole pixels.
    r = np.stack([np.floor(xs[:, 0]), np.floor(ys[:, 0]), np.ceil(xs[:, 1]), np.ceil(ys[:, 1])], axis=1)
    out = disjoint(r[(r[:, 2] > r[:, 0]) & (r[:, 3] > r[:, 1])])
    _last_clip[:] = key, out
    return out


MAX_RECTS = 32
"""More clip rectangles than this are drawn as their bounding rectangle."""


def disjoint(rects) -> np.ndarray:
    """Rectangles (R, 4) x0, y0, x1, y1 covering exactly the union of ``rects``, none
    overlapping (the repainted rectangles overlap by their grown margins, and a pixel
    composited twice would double a translucent texel): cut on every edge, the covered
    cells joined into runs along each band."""
    r = np.asarray(rects, float).reshape(-1, 4)
    if len(r) <= 1:
        return r
    if len(r) > MAX_RECTS:
        return np.array([[*r[:, :2].min(axis=0), *r[:, 2:].max(axis=0)]])
    xs, ys = np.unique(r[:, [0, 2]]), np.unique(r[:, [1, 3]])
    cx, cy = (xs[:-1] + xs[1:]) / 2, (ys[:-1] + ys[1:]) / 2
    covered = ((cx[None, None, :] > r[:, None, None, 0]) & (cx[None, None, :] < r[:, None, None, 2])
               & (cy[None, :, None] > r[:, None, None, 1]) & (cy[None, :, None] < r[:, None, None, 3])).any(axis=0)
    # Runs of covered cells along each band, all bands at once: a run starts where a
    # row steps up and ends where it steps down, in the same (row-major) order.
    edges = np.diff(np.pad(covered.astype(np.int8), ((0, 0), (1, 1))), axis=1)
    rows, a = np.nonzero(edges == 1)
    _, b = np.nonzero(edges == -1)
    return _stacked(np.stack([xs[a], ys[rows], xs[b], ys[rows + 1]], axis=1).astype(float).reshape(-1, 4))


def _stacked(runs) -> np.ndarray:
    """``runs`` (band by band, top down) with each run joined to the one of the same
    columns in the band just above: one box whose neighbours cut a few bands through its
    sides stays one rectangle (the kernel goes through every rectangle per triangle)."""
    out, above = [], {}  # above: (x0, x1) -> the rectangle ending where the next band starts
    for x0, y0, x1, y1 in runs.tolist():
        k = above.get((x0, x1))
        if k is not None and out[k][3] == y0:
            out[k][3] = y1
        else:
            above[(x0, x1)] = len(out)
            out.append([x0, y0, x1, y1])
    return np.array(out, float).reshape(-1, 4)


def _texels(image: QImage) -> np.ndarray:
    """The pixels (h, w) uint32 of a premultiplied ARGB32 picture (as ImageCache
    keeps them), without a copy: its rows are packed."""
    rows = np.frombuffer(image.constBits(), np.uint32).reshape(image.height(), image.bytesPerLine() // 4)
    return np.ascontiguousarray(rows[:, :image.width()])
