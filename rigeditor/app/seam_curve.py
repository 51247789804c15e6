"""The seam diagnostic of the Curves dock: per mesh, the worst triangle's area ratio
(deformed over bind, in %) per frame, against the collapse line (30 %). The plot joins
the dock's column (time axis linked) while the project has meshes, and leaves it when
it has none. The curve comes from the Bake's whole-range reduction
(``MeshPose.worst``), computed in blocks, never from all deformed frames at once, and
never on the UI thread: the range worker reduces the ranges it evaluates, ``REDUCER``
those the UI thread evaluated (short ranges, whole on every edit).
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer

from rigeditor.app import style
from rigeditor.app.plot_axis import DirectAxis, ReadableAxis
from rigeditor.app.range_worker import Reducer, reduced
from rigeditor.core.skinning import COLLAPSE_RATIO

COLLAPSE_COLOR = "#e05050"
POLL_MS = 8  # how often a curve waiting for its reduction looks again
REDUCER = Reducer()


class SeamCurve:
    """Owned by a CurvesWidget (``widget.view``, ``widget.plots``, ``widget.playheads``)."""

    def __init__(self, widget, row: int):
        self.widget, self.row = widget, row
        self.plot = pg.PlotItem(axisItems={"left": ReadableAxis("left"), "bottom": DirectAxis("bottom")})
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.showGrid(x=True, y=True, alpha=0.15)
        self.plot.getAxis("left").setWidth(widget.plots[0].getAxis("left").width())
        for name in ("left", "bottom"):
            axis = self.plot.getAxis(name)
            axis.setPen(pg.mkPen(style.GRID_MAJOR))
            axis.setTextPen(pg.mkPen(style.TEXT))
        title = pg.TextItem("worst triangle area %", color=style.TEXT, anchor=(0, 0))
        title.setParentItem(self.plot.vb)
        title.setPos(2, 0)
        self.plot.setXLink(widget.plots[0])
        self.plot.vb.setMouseEnabled(x=True, y=False)
        line = pg.InfiniteLine(100 * COLLAPSE_RATIO, 0, pen=pg.mkPen(COLLAPSE_COLOR, width=1, style=Qt.DashLine),
                               label=f"collapse {100 * COLLAPSE_RATIO:.0f} %",
                               labelOpts=dict(position=0.99, color=COLLAPSE_COLOR, anchors=[(1, 1), (1, 1)]))
        self.plot.addItem(line, ignoreBounds=True)
        self.playhead = pg.InfiniteLine(widget.doc.frame, 90, pen=pg.mkPen(style.PLAYHEAD, width=2))
        self.plot.addItem(self.playhead, ignoreBounds=True)
        self.curves: dict[str, pg.PlotDataItem] = {}
        self._shown_for = None
        self._waiting = None  # a bake whose reduction runs behind
        self._poll = QTimer(widget)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._collect)
        self.attached = False

    def _collect(self) -> None:
        bake = self._waiting
        if bake is None or REDUCER.done(bake):
            self._poll.stop()
            if bake is not None:
                self.update(bake)

    def update(self, bake) -> None:
        """Plot ``bake``'s curves; when they are not reduced yet (a range the UI thread
        evaluated), the previous curves stay until ``REDUCER`` has reduced them."""
        meshes = bake.art.meshes if bake.art is not None else ()
        if self._shown_for is bake:
            return
        self._attach(bool(meshes))
        if not reduced(bake) and REDUCER.error(bake) is None:
            self._waiting = bake
            REDUCER.submit(bake)
            self._poll.start()
            return
        self._waiting = None
        self._shown_for = bake
        names = [f"{m.slot}/{m.mesh.name}" for m in meshes]
        for name in [n for n in self.curves if n not in names]:
            self.plot.removeItem(self.curves.pop(name))
        lo = 100 * COLLAPSE_RATIO
        for i, (name, m) in enumerate(zip(names, meshes)):
            item = self.curves.get(name)
            if item is None:
                color = style.BONE_CURVE_CYCLE[i % len(style.BONE_CURVE_CYCLE)]
                item = self.curves[name] = self.plot.plot(pen=pg.mkPen(color, width=2), connect="finite")
            worst = np.where(m.shown, 100 * m.worst[0], np.nan)
            item.setData(bake.frames, worst)
            if np.isfinite(worst).any():
                lo = min(lo, float(np.nanmin(worst)))
        self.plot.setYRange(min(lo, 0.0) - 5, 110, padding=0)

    def frame(self, frame) -> None:
        self.playhead.setValue(frame)

    def _attach(self, on: bool) -> None:
        if on == self.attached:
            return
        if on:
            self.widget.view.addItem(self.plot, row=self.row, col=0)
        else:
            self.widget.view.removeItem(self.plot)
        self.attached = on
        if hasattr(self.widget, "fit_height"):
            self.widget.fit_height()  # one more row (or one less) to keep readable
