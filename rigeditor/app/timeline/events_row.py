"""The dope sheet's event row: one marker per event key of the open animation, under
the ruler, with a tooltip naming the event and every value it fires with.

Gestures: drag a marker to retime it (one undo step, on release, to whole frames);
right-click for a menu: add any defined event at that frame, delete the key under the
pointer. Every change goes through ``doc.apply`` with an ``edits.events`` edit; the
markers are listed from the project on every change, never kept on the side.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QCursor
from PySide6.QtWidgets import QMenu

from rigeditor.app import style
from rigeditor.app.guard import Guarded
from rigeditor.app.plot_axis import DirectAxis
from rigeditor.edits.errors import EditError
from rigeditor.edits.events import add_event_key, delete_event_key, move_event_key

ROW_PX = 22
MARKER = style.PLAYHEAD
PICK_PX = 7  # how near a marker (pixels) a press picks it


def tooltip(project, index: int) -> str:
    """What key ``index`` fires: its event's name, frame and values (the sound's with audio)."""
    f = project.events.fired(project.events.keys[index])
    lines = [f"{f.name} at frame {f.frame:g}", f"int {f.int_value}   float {f.float_value:g}"]
    if f.string:
        lines.append(f"string \"{f.string}\"")
    if f.audio:
        lines.append(f"audio {f.audio}   volume {f.volume:g}   balance {f.balance:g}")
    return "\n".join(lines)


class _EventView(Guarded, pg.ViewBox):
    def __init__(self, row: "EventRow"):
        super().__init__(enableMenu=False)
        self._row = row
        self._moving = None  # (index, project before) while dragging a marker

    def mouseClickEvent(self, ev):
        if ev.button() != Qt.RightButton:
            return ev.ignore()
        ev.accept()
        self._row.menu(self.mapSceneToView(ev.scenePos()).x()).popup(QCursor.pos())

    def mouseDragEvent(self, ev, axis=None):
        if ev.button() != Qt.LeftButton:
            return ev.ignore()
        x = self.mapSceneToView(ev.scenePos()).x()
        if ev.isStart():
            index = self._row.key_at(self.mapSceneToView(ev.buttonDownScenePos()).x())
            if index is None:
                return ev.ignore()
            self._moving = index
        if self._moving is None:
            return ev.ignore()
        ev.accept()
        self._row.preview(self._moving, round(x))
        if ev.isFinish():
            index, self._moving = self._moving, None
            self._row.move(index, round(x))


class EventRow:
    """The row's plot item (``plot``, x-linked to ``ruler``) over the Document ``doc``."""

    def __init__(self, doc, ruler: pg.PlotItem, text_pen):
        self.doc = doc
        self.view = _EventView(self)
        self.axis = DirectAxis("left", pen=pg.mkPen(0, 0, 0, 0), textPen=text_pen)
        self.axis.setStyle(tickLength=0, tickTextOffset=8)
        self.axis.setTicks([[(0.0, "events")], []])
        self.plot = pg.PlotItem(viewBox=self.view, axisItems={"left": self.axis})
        self.plot.hideAxis("bottom")
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        self.plot.setFixedHeight(ROW_PX)
        self.plot.layout.setContentsMargins(0, 0, 6, 0)
        self.plot.setXLink(ruler)
        self.view.setMouseEnabled(x=True, y=False)
        self.view.setYRange(-0.5, 0.5, padding=0)
        self.view.setBackgroundColor(style.RULER)
        self.markers = pg.ScatterPlotItem(pxMode=True, hoverable=True, tip=self._tip,
                                          hoverBrush=QBrush(style.SELECTION))
        self.view.addItem(self.markers)
        self._shown = None  # the keys the markers show
        self.refresh()

    # ---------------------------------------------------------------- showing
    def refresh(self) -> None:
        """Show the project's event keys. Unchanged keys (every move of a pose drag)
        are left alone: setting the markers again repaints the whole row."""
        keys = self.doc.project.events.keys
        if self._shown is not None and (keys is self._shown or keys == self._shown):
            return
        self._shown = keys
        self.markers.setData(x=np.array([k.frame for k in keys], float), y=np.zeros(len(keys)),
                             data=np.arange(len(keys)), symbol="t", size=style.KEY_SIZE_PX + 2,
                             brush=QBrush(MARKER), pen=pg.mkPen(style.KEY_OUTLINE, width=1))

    def _tip(self, x, y, data):
        return tooltip(self.doc.project, int(data))

    def key_at(self, frame: float) -> int | None:
        """The key nearest ``frame`` within PICK_PX pixels, or None."""
        keys = self.doc.project.events.keys
        if not keys:
            return None
        (lo, hi), width = self.view.viewRange()[0], max(self.view.width(), 1.0)
        gaps = np.abs(np.array([k.frame for k in keys]) - frame) * width / max(hi - lo, 1e-9)
        i = int(np.argmin(gaps))
        return i if gaps[i] <= PICK_PX else None

    def preview(self, index: int, frame: float) -> None:
        """Show key ``index`` at ``frame`` while it is dragged (the project is unchanged)."""
        x = np.array([k.frame for k in self.doc.project.events.keys], float)
        x[index] = frame
        self._shown = None  # a preview: the next refresh shows the keys again
        self.markers.setData(x=x, y=np.zeros(len(x)), data=np.arange(len(x)))

    # ---------------------------------------------------------------- editing
    def _apply(self, label: str, edit) -> bool:
        try:
            after = edit(self.doc.project)
        except EditError as exc:
            self.doc.refused.emit("Event keys", str(exc))
            self.refresh()
            return False
        ok = self.doc.apply(label, after)
        self.refresh()
        return ok

    def add(self, name: str, frame: float) -> bool:
        return self._apply(f"Add event key '{name}' at frame {frame:g}", lambda p: add_event_key(p, frame, name))

    def move(self, index: int, frame: float) -> bool:
        if self.doc.project.events.keys[index].frame == frame:
            self.refresh()
            return True
        name = self.doc.project.events.keys[index].name
        return self._apply(f"Move event key '{name}' to frame {frame:g}", lambda p: move_event_key(p, index, frame))

    def delete(self, index: int) -> bool:
        name = self.doc.project.events.keys[index].name
        return self._apply(f"Delete event key '{name}'", lambda p: delete_event_key(p, index))

    def menu(self, x: float) -> QMenu:
        """The right-click menu at frame ``x`` of the view."""
        menu = QMenu()
        frame = float(round(x))
        defs = self.doc.project.events.definitions
        add = menu.addMenu(f"Add Event Key at Frame {frame:g}")
        add.setEnabled(bool(defs))
        for d in defs:
            add.addAction(d.name, lambda n=d.name: self.add(n, frame))
        index = self.key_at(x)
        if index is not None:
            menu.addAction(f"Delete Event Key '{self.doc.project.events.keys[index].name}'",
                           lambda: self.delete(index))
        self._menu = menu  # kept alive while it shows
        return menu


__all__ = ["EventRow", "tooltip"]
