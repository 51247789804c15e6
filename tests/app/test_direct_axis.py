"""The plots' axes draw straight onto the painter (plot_axis.DirectAxis) with the same
pixels as pyqtgraph's own axis, and follow a change of range as pyqtgraph's does."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPainter

from rigeditor.app.curves import _LogAxis
from rigeditor.app.plot_axis import DirectAxis


def _plot(axis_type, log: bool):
    """A widget with a gridded plot whose left and bottom axes are ``axis_type``."""
    widget = pg.GraphicsLayoutWidget()
    widget.resize(420, 160)
    plot = widget.addPlot(axisItems={"left": axis_type("left"), "bottom": axis_type("bottom")})
    plot.showGrid(x=True, y=True, alpha=0.15)
    frames = np.arange(240.0)
    plot.plot(frames, 10.0 ** np.sin(frames / 30.0) if log else 40 * np.sin(frames / 25.0))
    plot.setLogMode(y=log)
    widget.show()
    return widget, plot


def _pixels(widget) -> np.ndarray:
    image = QImage(widget.size(), QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.black)
    painter = QPainter(image)
    widget.render(painter)
    painter.end()
    ptr = image.constBits()
    return np.frombuffer(ptr, np.uint8, image.sizeInBytes()).reshape(image.height(), -1).copy()


class _PlainLog(pg.AxisItem):
    """pyqtgraph's axis with the log axis's labels: the yardstick for _LogAxis."""
    logTickStrings = _LogAxis.logTickStrings


def test_a_gridded_plot_draws_the_same_pixels_as_with_pyqtgraphs_axes(qtbot):
    for log in (False, True):
        ours, theirs = _plot(_LogAxis if log else DirectAxis, log), _plot(_PlainLog if log else pg.AxisItem, log)
        for w, _ in (ours, theirs):
            qtbot.addWidget(w)
            qtbot.waitExposed(w)
        a, b = _pixels(ours[0]), _pixels(theirs[0])
        assert a.shape == b.shape
        assert np.array_equal(a, b), f"log={log}: {np.count_nonzero(a != b)} bytes differ"


def test_a_new_range_redraws_the_ticks_as_pyqtgraph_does(qtbot):
    (ours, our_plot), (theirs, their_plot) = _plot(DirectAxis, False), _plot(pg.AxisItem, False)
    for w in (ours, theirs):
        qtbot.addWidget(w)
        qtbot.waitExposed(w)
    before = _pixels(ours)
    for plot in (our_plot, their_plot):
        plot.setXRange(1000, 1100, padding=0)
        plot.setYRange(-3, 3, padding=0)
    after = _pixels(ours)
    assert not np.array_equal(before, after)  # other numbers, other grid lines
    assert np.array_equal(after, _pixels(theirs))
