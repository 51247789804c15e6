"""The curve editor's gestures: picking a key or handle under the pointer, clicking to
select, dragging keys (in time, snapped to frames, and value), handles (aligned unless
Alt) and the selection box; and the view and markers that route the mouse to them.
Each drag is one undoable command through the Document."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt

from rigeditor.app.graph.geometry import drawn
from rigeditor.app.guard import Guarded
from rigeditor.edits import keys as key_edits
from rigeditor.edits.tracks import touched
from rigeditor.model.data import clips

HIT_PX = 7
"""How near (pixels) a key or handle must be to be picked."""


class KeyGestures:
    """The gestures of :class:`rigeditor.app.graph.editor.GraphEditor` (a mixin: it
    reads the editor's doc, view, plot, components, selection and band)."""

    def _pick(self, pos: QPointF):
        """("handle", comp, frame, side) or ("key", comp, frame) under ``pos`` (view
        coordinates), handles of selected keys first; None."""
        px, py = self.view.viewPixelSize()
        best, found = HIT_PX ** 2, None
        project = self.doc.project
        for comp, frame in self.selected:
            d = drawn(clips.channel(project, comp.path), comp)
            i = int(np.flatnonzero(d.key_x == frame)[0])
            for side, name in ((0, "in"), (1, "out")):
                x, y = d.handles[i, side]
                dist = ((x - pos.x()) / px) ** 2 + ((y - pos.y()) / py) ** 2
                if np.isfinite(dist) and dist <= best:
                    best, found = dist, ("handle", comp, frame, name)
        if found:
            return found
        for comp in self.components:
            d = drawn(clips.channel(project, comp.path), comp)
            dist = ((d.key_x - pos.x()) / px) ** 2 + ((d.key_y - pos.y()) / py) ** 2
            i = int(np.argmin(dist))
            if dist[i] <= best:
                best, found = dist[i], ("key", comp, float(d.key_x[i]))
        return found

    def _click(self, pos: QPointF, modifiers) -> None:
        self.setFocus(Qt.MouseFocusReason)
        hit = self._pick(pos)
        add = bool(modifiers & (Qt.ShiftModifier | Qt.ControlModifier))
        if hit is None or hit[0] != "key":
            if not add and hit is None:
                self._set_selection(set())
            return
        key = (hit[1], hit[2])
        self._set_selection(self.selected ^ {key} if add else {key})

    def _drag_event(self, ev, pos: QPointF, start: QPointF) -> None:
        if ev.isStart():
            self.setFocus(Qt.MouseFocusReason)
            hit = self._pick(start)
            add = bool(ev.modifiers() & (Qt.ShiftModifier | Qt.ControlModifier))
            if hit is None:
                self._drag = {"box": start, "base": set(self.selected) if add else set()}
            elif hit[0] == "handle":
                self._drag = {"handle": hit[1:], "project": self.doc.project, "gesture": self.doc.begin_gesture()}
            else:
                key = (hit[1], hit[2])
                if key not in self.selected:
                    self._set_selection((self.selected | {key}) if add else {key})
                self._drag = {"keys": set(self.selected), "project": self.doc.project, "start": start,
                              "gesture": self.doc.begin_gesture()}
        d = self._drag
        if d is None:
            return
        if "box" in d:
            self._box(d, pos, ev.isFinish())
        elif "handle" in d:
            self._move_handle(d, pos, aligned=not ev.modifiers() & Qt.AltModifier)
        else:
            self._move_keys(d, pos)
        if ev.isFinish():
            self._drag = None
            self.doc.end_gesture()

    def _box(self, d, pos, finish) -> None:
        rect = QRectF(d["box"], pos).normalized()
        self._band.setRect(rect)
        self._band.setVisible(not finish)
        project = self.doc.project
        inside = set()
        for comp in self.components:
            dr = drawn(clips.channel(project, comp.path), comp)
            hit = (dr.key_x >= rect.left()) & (dr.key_x <= rect.right()) & (dr.key_y >= rect.top()) & (
                dr.key_y <= rect.bottom())
            inside |= {(comp, float(f)) for f in dr.key_x[hit]}
        self._set_selection(d["base"] | inside)

    def _move_keys(self, d, pos) -> None:
        project = d["project"]
        keys: dict = {}
        dv: dict = {}
        for comp, frame in d["keys"]:
            keys.setdefault(comp.path, set()).add(frame)
            change = dv.setdefault((comp.path, frame), [0.0] * clips.channel(project, comp.path).dim)
            change[comp.d] = (pos.y() - d["start"].y()) / comp.scale
        tl = project.timeline
        dt = key_edits.clamp_delta(keys, int(round(pos.x() - d["start"].x())), tl.start, tl.end)
        project = key_edits.move_keys(project, keys, dt, dv)
        n = len(dv)
        # The selection moves with the keys before the Document redraws us, once.
        before, self.selected = self.selected, {(c, float(round(f + dt)) if dt else f) for c, f in d["keys"]}
        if not self.doc.apply(f"Move {n} key{'s' * (n != 1)}", project, touched=touched(keys),
                              merge_key=("graph keys", d["gesture"])):
            self.selected = before
            self._draw_selection()

    def _move_handle(self, d, pos, aligned: bool) -> None:
        comp, frame, side = d["handle"]
        project = d["project"]
        value = next(k.value[comp.d] for k in clips.channel(project, comp.path).keys if k.frame == frame)
        project = key_edits.set_handle(project, comp.path, frame, side, pos.x() - frame,
                                       pos.y() / comp.scale - value, component=comp.d, aligned=aligned,
                                       value_scale=comp.scale)
        self.doc.apply(f"Drag {side} handle of {comp.label} at frame {frame}", project,
                       touched=touched([comp.path]), merge_key=("graph handle", d["gesture"]))

    def _set_selection(self, keys) -> None:
        if keys != self.selected:
            self.selected = set(keys)
            self._draw_selection()
            self.selectionChanged.emit()

    def _to_viewport(self, x, y) -> QPoint:
        return self.plot.mapFromScene(self.view.mapViewToScene(QPointF(float(x), float(y))))


class KeyDots(Guarded, pg.ScatterPlotItem):
    """Key and handle markers: clicks go through to the view, which picks."""

    _rect_for = None  # (data bounds, spot size, device transform) of _rect
    _rect = None

    def boundingRect(self):
        # Qt asks for it a hundred times a move (hover, repaint); pyqtgraph works the
        # pixel padding out anew each time. It depends only on these (the padding on
        # the transform's scale and rotation, not its translation).
        dt = self.deviceTransform_()
        key = (self.dataBounds(0), self.dataBounds(1), self._maxSpotPxWidth,
               None if dt is None else (dt.m11(), dt.m12(), dt.m21(), dt.m22()))
        if key != self._rect_for:
            self._rect_for, self._rect = key, super().boundingRect()
        return QRectF(self._rect)

    def mouseClickEvent(self, ev):
        ev.ignore()


class GraphView(Guarded, pg.ViewBox):
    """The curve editor's view: it decides what a click or a drag means."""

    def __init__(self, editor):
        super().__init__(enableMenu=False)
        self._ed = editor

    def mouseClickEvent(self, ev):
        if ev.button() != Qt.LeftButton:
            return ev.ignore()
        ev.accept()
        self._ed._click(self.mapSceneToView(ev.scenePos()), ev.modifiers())

    def mouseDragEvent(self, ev, axis=None):
        if ev.button() == Qt.MiddleButton:
            return super().mouseDragEvent(ev, axis=axis)
        if ev.button() != Qt.LeftButton or axis is not None:
            return ev.ignore()
        ev.accept()
        self._ed._drag_event(ev, self.mapSceneToView(ev.scenePos()), self.mapSceneToView(ev.buttonDownScenePos()))
