"""Graphics pieces of the timeline: the two view boxes, the loop bar, key markers,
the axes and the path items it draws with."""
from __future__ import annotations

from typing import Protocol

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QPen
from PySide6.QtWidgets import QGraphicsPathItem

from rigeditor.app.guard import Guarded
from rigeditor.app.plot_axis import DirectAxis
from rigeditor.app import style


class Timeline(Protocol):
    """What the pieces call back: the TimelineWidget, which decides what a click or a drag
    means (it builds these pieces, so this module does not import it)."""

    doc: object

    def _click(self, point, modifiers) -> None: ...

    def _drag_event(self, ev, point, start) -> None: ...

    def _wheel_rows(self, rows: int) -> None: ...

    def pause(self) -> None: ...

    def set_loop_range(self, lo, hi) -> None: ...


class _TrackView(Guarded, pg.ViewBox):
    """Rows of keys: the timeline decides what a click or a drag means."""

    def __init__(self, timeline: Timeline):
        super().__init__(invertY=True, enableMenu=False)
        self._tl = timeline

    def mouseClickEvent(self, ev):
        if ev.button() != Qt.LeftButton:
            return ev.ignore()
        ev.accept()
        self._tl._click(self.mapSceneToView(ev.scenePos()), ev.modifiers())

    def mouseDragEvent(self, ev, axis=None):
        if ev.button() == Qt.MiddleButton:
            return super().mouseDragEvent(ev, axis=0)
        if ev.button() != Qt.LeftButton or axis is not None:
            return ev.ignore()
        ev.accept()
        self._tl._drag_event(ev, self.mapSceneToView(ev.scenePos()), self.mapSceneToView(ev.buttonDownScenePos()))

    def wheelEvent(self, ev, axis=None):
        if axis == 1 or ev.modifiers() & Qt.ShiftModifier:
            ev.accept()
            self._tl._wheel_rows(int(np.sign(ev.delta())) * 3)
        else:
            super().wheelEvent(ev, axis=0)


class _RulerView(Guarded, pg.ViewBox):
    """The ruler: a click or a drag anywhere on it scrubs."""

    def __init__(self, timeline: Timeline):
        super().__init__(enableMenu=False)
        self._tl = timeline

    def mouseClickEvent(self, ev):
        if ev.button() != Qt.LeftButton:
            return ev.ignore()
        ev.accept()
        self._tl.pause()
        self._tl.doc.set_frame(self.mapSceneToView(ev.scenePos()).x())

    def mouseDragEvent(self, ev, axis=None):
        if ev.button() == Qt.MiddleButton:
            return super().mouseDragEvent(ev, axis=0)
        if ev.button() != Qt.LeftButton:
            return ev.ignore()
        ev.accept()
        if ev.isStart():
            self._tl.pause()
        self._tl.doc.set_frame(self.mapSceneToView(ev.scenePos()).x())

    def wheelEvent(self, ev, axis=None):
        super().wheelEvent(ev, axis=0)


class _LoopBar(Guarded, pg.LinearRegionItem):
    """The loop range on the ruler: its two edges drag (snapped to frames); its body
    lets clicks through to the ruler, so scrubbing works across the whole ruler."""

    def __init__(self, timeline: Timeline):
        super().__init__((0, 1), brush=pg.mkBrush(style.LOOP), hoverBrush=pg.mkBrush(style.LOOP),
                         pen=pg.mkPen(style.SPACE_COLORS["world"], width=2),
                         hoverPen=pg.mkPen(style.TEXT, width=3), span=(0.0, 0.3), swapMode="block")
        self._tl = timeline
        self.sigRegionChanged.connect(self._changed)

    def _changed(self):
        lo, hi = self.getRegion()
        self._tl.set_loop_range(lo, hi)

    def mouseDragEvent(self, ev):
        ev.ignore()

    def mouseClickEvent(self, ev):
        ev.ignore()

    def hoverEvent(self, ev):
        pass


class _Keys(Guarded, pg.ScatterPlotItem):
    """Key markers; the track view handles their clicks and drags."""

    def mouseClickEvent(self, ev):
        ev.ignore()


class _FrameAxis(DirectAxis):
    """Frame numbers: whole frames only, however far one zooms in."""

    def tickSpacing(self, minVal, maxVal, size):
        levels = [(float(round(s)), o) for s, o in super().tickSpacing(minVal, maxVal, size)
                  if s >= 1 and abs(s - round(s)) < 1e-9]
        return levels or [(1.0, 0.0)]

    def tickStrings(self, values, scale, spacing):
        return [f"{int(round(v))}" for v in values]


class _TrackAxis(DirectAxis):
    """Track labels; the wheel over them scrolls the rows."""

    def wheelEvent(self, ev):
        view = self.linkedView()
        if view is not None:
            view.wheelEvent(ev, axis=1)

    def mouseDragEvent(self, ev):
        ev.ignore()


def _path_item(color, z) -> QGraphicsPathItem:
    item = QGraphicsPathItem()
    item.setPen(QPen(Qt.NoPen))
    item.setBrush(QBrush(color))
    item.setZValue(z)
    return item
