"""Consecutive meshes drawn in one buffer (a character showing dozens of meshes at once).

Mesh by mesh (``mesh_raster.draw_raster``), every mesh costs a cleared buffer, a
``drawImage`` and some forty microseconds of Python set-up around the compiled fill:
on a 45-mesh character, more than the fills themselves. Here a run of meshes drawn one
after another in draw order shares one buffer over their joined box: the buffer starts
as a copy of the painted picture's own pixels there, each mesh is composited onto it in
turn by the same compiled fill, and the buffer is copied back (composition mode
Source, so the painter's clip still decides which pixels change).

Compositing onto the picture's pixels, mesh after mesh, is what the mesh-by-mesh path
does through its buffers: a pixel that one triangle of a mesh covers becomes
``s over d`` either way (the kernel's ``_over`` is Qt's 8-bit source over), so the
pixels are those of the mesh-by-mesh path (tests/app/test_mesh_run.py compares
them, overlapping meshes included). Only where one mesh folds over itself with a
translucent texel on both layers do the two paths round differently (that mesh's own
buffer composited its two layers first), by one level.

A run is drawn so only when the painted device is an 8-bit premultiplied (or RGB32)
picture the painter draws into directly (a widget's backing store, a pixmap or such an
image), under source-over at full opacity and an axis-aligned transform, with every
mesh within the kernel's reach; otherwise :func:`draw_run` draws nothing and says so.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtGui import QImage, QPainter

from rigeditor.app import mesh_raster as mr

_SOURCE_OVER = QPainter.CompositionMode.CompositionMode_SourceOver


def _target(painter: QPainter) -> QImage | None:
    """The picture the painter's engine writes into, when its pixels are readable and
    blend as the kernel blends (else None)."""
    engine = painter.paintEngine()
    dev = engine.paintDevice() if engine is not None else None
    if not isinstance(dev, QImage) or dev.format() not in mr.SAME_PIPELINE:
        return None
    return dev


def draw_run(painter: QPainter, meshes, clip=None) -> bool:
    """Draw ``meshes`` [(image, triangles (T, 3), texture (V, 2) picture px, device
    (V, 2) the painter's px, shift (2,), ...)], back to front, in one buffer; ``clip``: the
    painter's rectangles (R, 4) outside which nothing is drawn. False: nothing drawn
    (the caller draws them one by one)."""
    kernel = mr.compiled_raster()
    if kernel is None or not meshes or painter.compositionMode() != _SOURCE_OVER or painter.opacity() != 1.0:
        return False
    state = mr._state(painter)
    target = _target(painter) if state is not None else None
    if target is None:
        return False
    logical = [np.ascontiguousarray(m[3], dtype=float) for m in meshes]
    joined = np.concatenate(logical)
    if not np.all(np.isfinite(joined)):
        return False
    lo, hi = joined.min(axis=0) * state[[0, 3]] + state[4:], joined.max(axis=0) * state[[0, 3]] + state[4:]
    lo, hi = np.minimum(lo, hi), np.maximum(lo, hi)
    box = mr._device_box(painter)
    area = np.array([*np.floor(np.maximum(lo, box[:2])), *np.ceil(np.minimum(hi, box[2:]))])
    rects = mr._rects(area, clip, state)
    if not len(rects):
        return True
    ox, oy = rects[:, :2].min(axis=0)
    w, h = int(rects[:, 2].max() - ox), int(rects[:, 3].max() - oy)
    if np.abs(lo - [ox, oy]).max() >= mr.REACH_PX or np.abs(hi - [ox, oy]).max() >= mr.REACH_PX:
        return False  # (some corner past the kernel's reach: the mesh-by-mesh path splits it)
    # The painter's device pixels in its engine's picture: shifted by the widget's place
    # in the window's backing store (as mesh_raster._blit shifts its blit).
    to_device, combined = painter.deviceTransform(), painter.combinedTransform()
    rx, ry = int(round(to_device.dx() - combined.dx())), int(round(to_device.dy() - combined.dy()))
    tx0, ty0 = int(ox) + rx, int(oy) + ry
    if tx0 < 0 or ty0 < 0 or tx0 + w > target.width() or ty0 + h > target.height():
        return False
    pixels = np.frombuffer(target.constBits(), np.uint32).reshape(target.height(), target.bytesPerLine() // 4)
    buffer = np.ascontiguousarray(pixels[ty0:ty0 + h, tx0:tx0 + w])
    local = (rects - [ox, oy, ox, oy]).astype(np.int64)
    for (image, triangles, texture, _device, shift, *_), points in zip(meshes, logical):
        left = np.zeros(len(triangles), np.bool_)
        kernel(buffer, np.int64(ox), np.int64(oy), mr._texels(image), np.asarray(triangles, np.int64),
               np.ascontiguousarray(texture, dtype=float), points, state, np.asarray(shift, float), local, left)
    _copy_back(painter, buffer, ox, oy, local)
    return True


def _copy_back(painter: QPainter, buffer: np.ndarray, ox, oy, local) -> None:
    """Write the ``local`` rectangles of ``buffer`` (pixel [0, 0] = device pixel (ox,
    oy)) over the painted pixels, through the painter's clip."""
    mr._blit(painter, buffer, ox, oy, local, QPainter.CompositionMode.CompositionMode_Source)


__all__ = ["draw_run"]
