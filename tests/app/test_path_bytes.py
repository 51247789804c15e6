"""Paths of many polygons written from arrays (app.scene.path_bytes) hold the elements a
point-by-point build gives (so they draw the same pixels), above and below the size
where the stream takes over, closed or open, and stay usable for further drawing."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPainter, QPainterPath

from rigeditor.app.scene import path_bytes
from rigeditor.app.scene.path_bytes import polygons_path

COORD = st.one_of(st.floats(-5000.0, 5000.0, allow_nan=False, allow_infinity=False), st.sampled_from([0.0, 1.0, np.nan, np.inf]))
GROUP = st.tuples(st.integers(1, 30), st.integers(1, 12)).flatmap(
    lambda gp: st.tuples(arrays(np.float64, (gp[0], gp[1], 2), elements=COORD), st.booleans()))


def _point_by_point(groups, rule) -> QPainterPath:
    path = QPainterPath()
    path.setFillRule(rule)
    for shapes, closed in groups:
        for shape in shapes:
            path.moveTo(*shape[0])
            for x, y in shape[1:]:
                path.lineTo(x, y)
            if closed:
                path.closeSubpath()
    return path


@settings(max_examples=150, deadline=None)
@given(st.lists(GROUP, min_size=1, max_size=4), st.sampled_from([Qt.FillRule.WindingFill, Qt.FillRule.OddEvenFill]))
def test_a_written_path_is_the_path_built_point_by_point(groups, rule):
    ours, theirs = polygons_path(groups, rule), _point_by_point(groups, rule)
    assert ours == theirs
    assert ours.fillRule() == rule
    assert [ours.elementAt(i).type for i in range(ours.elementCount())] == \
        [theirs.elementAt(i).type for i in range(theirs.elementCount())]
    ours.lineTo(1.0, 2.0)  # what follows continues the same way
    theirs.lineTo(1.0, 2.0)
    assert ours == theirs


def test_the_stream_and_the_calls_draw_the_same_pixels(monkeypatch):
    rng = np.random.default_rng(3)
    wedges = np.cumsum(rng.normal(0.0, 9.0, (60, 9, 2)), axis=1) + rng.uniform(40, 400, (60, 1, 2))
    rims = wedges[:10, 1:] + 2.0

    def draw(path):
        img = QImage(460, 460, QImage.Format.Format_ARGB32_Premultiplied)
        img.fill(0xFF202830)
        p = QPainter(img)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.fillPath(path, Qt.GlobalColor.cyan)
        p.setPen(Qt.GlobalColor.yellow)
        p.drawPath(path)
        p.end()
        return np.frombuffer(img.constBits(), np.uint32).copy()

    groups = [(wedges, True), (rims, False)]
    streamed = draw(polygons_path(groups))
    monkeypatch.setattr(path_bytes, "MIN_POINTS", 10**9)
    called = draw(polygons_path(groups))
    assert np.count_nonzero(streamed != 0xFF202830) > 20_000
    np.testing.assert_array_equal(streamed, called)
