"""A translucent fill through a buffer (app.scene.translucent_fill) draws what Qt's own
translucent fill of the path draws, to the bit, overlaps blended once; under a clip, past the picture's edge, on a
picture of device pixel ratio 2, and over a picture already painted."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from rigeditor.app.scene.paint import SMOOTH, WINDING_FILL
from rigeditor.app.scene.path_bytes import polygons_path
from rigeditor.app.scene.translucent_fill import fill_translucent

W, H = 160, 120


def _wedges(rng, count, spread):
    """``count`` overlapping fan-shaped wedges (a joint, then its rim) of radius 26 px."""
    centres = rng.uniform(-spread, 1.0 + spread, (count, 2)) * [W, H]
    lo = rng.uniform(-np.pi, np.pi, count)
    t = lo[:, None] + np.linspace(0.0, 1.0, 12)[None] * rng.uniform(0.3, 3.0, count)[:, None]
    rim = centres[:, None] + 26.0 * np.stack([np.cos(t), np.sin(t)], axis=-1)
    return np.concatenate([centres[:, None], rim], axis=1)


def _picture(fill, shapes, color, *, ratio=1.0, clip=None, ground=None):
    image = QImage(int(W * ratio), int(H * ratio), QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(ratio)
    image.fill(QColor(*ground) if ground else QColor(0, 0, 0, 0))
    painter = QPainter(image)
    painter.setRenderHint(SMOOTH, True)
    if clip is not None:
        painter.setClipRect(QRectF(*clip))
    fill(painter, polygons_path([(shapes, True)], WINDING_FILL), color)
    painter.end()
    raw = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes())
    # (a copy: the picture's memory goes with it)
    return raw.reshape(image.height(), image.bytesPerLine())[:, :image.width() * 4].reshape(image.height(), -1, 4).copy()


def _qt(painter, path, color):
    painter.setRenderHint(SMOOTH, False)
    painter.fillPath(path, color)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 30), st.integers(1, 254), st.sampled_from([1.0, 2.0]),
       st.booleans(), st.booleans())
def test_the_buffered_fill_draws_what_qt_draws(seed, count, alpha, ratio, clipped, painted):
    rng = np.random.default_rng(seed)
    shapes = _wedges(rng, count, spread=0.2)
    color = QColor(143, 211, 197, alpha)
    clip = (20.5, 10.25, 90.0, 70.5) if clipped else None
    ground = (40, 60, 200, 255) if painted else None
    ours = _picture(fill_translucent, shapes, color, ratio=ratio, clip=clip, ground=ground)
    theirs = _picture(_qt, shapes, color, ratio=ratio, clip=clip, ground=ground)
    assert np.array_equal(ours, theirs)  # to the bit


def test_overlapping_wedges_are_blended_once():
    shapes = np.array([[[40, 40], [80, 40], [80, 80]], [[45, 42], [85, 42], [85, 82]]], float)
    ours = _picture(fill_translucent, shapes, QColor(255, 255, 255, 40))
    # Inside both wedges the alpha is that of one fill (40), not of two (about 71).
    assert abs(int(ours[50, 75, 3]) - 40) <= 1


def test_an_opaque_colour_and_a_path_outside_the_picture():
    shapes = _wedges(np.random.default_rng(3), 8, spread=0.2)
    opaque = QColor(200, 10, 10)
    assert np.array_equal(_picture(fill_translucent, shapes, opaque), _picture(_qt, shapes, opaque))
    outside = shapes + [10 * W, 0]
    empty = _picture(lambda p, path, c: None, outside, opaque)
    assert np.array_equal(_picture(fill_translucent, outside, QColor(0, 0, 0, 90)), empty)


def test_device_sizes_are_in_the_painters_pixels(qtbot):
    from PySide6.QtGui import QPicture, QPixmap
    from PySide6.QtWidgets import QWidget

    from rigeditor.app.scene.translucent_fill import logical_size

    image = QImage(320, 240, QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(2.0)
    assert logical_size(image) == (160.0, 120.0)  # a picture's own size is in device pixels
    pixmap = QPixmap(300, 90)
    pixmap.setDevicePixelRatio(1.5)
    assert logical_size(pixmap) == (200.0, 60.0)
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.resize(123, 45)
    assert logical_size(widget) == (123.0, 45.0)  # a widget's is logical at any ratio
    assert logical_size(QPicture()) is None  # (filled directly)
