"""The curve editor (graph editor): the selected items' keyed channels as curves
over time, with their keys and the handles of the selected keys.

Gestures: click a key to select it (Shift/Ctrl add); drag keys to move them in time
(snapping to frames) and value; drag a handle to shape its segment (the opposite
handle turns with it: aligned; Alt breaks them); drag on empty space to box-select;
the wheel zooms, the middle button pans. T cycles the selected keys' interpolation
(also in the right-click menu), F frames the selection. The view frames what it
shows (the curves over the frame range) whenever the curves shown or the range change,
until the user zooms or pans; F frames and follows again. Each drag is one undoable
command; the editor only reads the Document and hands it new Projects.
"""
from __future__ import annotations

from html import escape

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPoint, Qt, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QKeySequence, QPixmapCache
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem, QLabel, QMenu, QVBoxLayout, QWidget

from rigeditor.app import style
from rigeditor.app.graph.geometry import Component, components, drawn, frame_keyed
from rigeditor.app.graph.gestures import GraphView, KeyDots, KeyGestures
from rigeditor.app.gesture_pacing import GesturePacer
from rigeditor.app.guard import Guarded
from rigeditor.app.plot_axis import DirectAxis, ReadableAxis
from rigeditor.edits.tracks import ATTRIBUTES, touched
from rigeditor.model.data.ik_flags import FLAG_TRACKS
from rigeditor.model.data import clips
from rigeditor.edits import keys as key_edits
from rigeditor.model.data.timeline import INTERPOLATIONS

# Curve colours, none of them the playhead's orange or the selection's pink.
CURVE_COLORS = [QColor("#5fb3f9"), QColor("#6fcf97"), QColor("#bb6bd9"), QColor("#e8d25a"), QColor("#4fd1c5"),
                QColor("#9aa7ff")]
KEY_PX = 9
HANDLE_PX = 7
MAX_PIXMAP_CACHE_KB = 256 * 1024  # the images of 24 curves with their keys on a 2560 x 1440 screen


class GraphEditor(Guarded, KeyGestures, QWidget):
    """Public: ``components`` (shown, in order), ``selected`` ({(component, frame)}),
    ``view`` (the ViewBox), ``show_paths(paths)`` (None: follow the selection)."""

    selectionChanged = Signal()

    def __init__(self, doc, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.components: list[Component] = []
        self.selected: set[tuple[Component, int]] = set()
        self._paths = None  # None: the selected items' channels
        self._items: dict[Component, tuple] = {}
        self._shown: dict[Component, object] = {}  # component -> channel drawn
        self._key_window: dict[Component, tuple] = {}  # component -> (channel, first, last key drawn)
        self._drag = None
        self._stale = False  # an edit came during another view's drag
        self._keys = {}
        self._follow = True  # frame what is shown when it changes, until the user zooms or pans
        self._framed_for = None  # (components, frame range) last framed
        self.setFocusPolicy(Qt.StrongFocus)

        self._title = QLabel(self)
        self._title.setContentsMargins(6, 3, 6, 3)
        self.view = GraphView(self)
        self.plot = pg.PlotWidget(self, viewBox=self.view, background=style.BACKGROUND,
                                  axisItems={"left": ReadableAxis("left"), "bottom": DirectAxis("bottom")})  # short docks: no numbers over numbers
        self.plot.setMenuEnabled(False)
        self.plot.hideButtons()
        # A faint grid, as the diagnostics curves have: the axes draw it clipped
        # (plot_axis.DirectAxis) and are cached as images, so a drag blits it.
        self.plot.showGrid(x=True, y=True, alpha=0.15)
        for name in ("left", "bottom"):
            self.plot.getAxis(name).setCacheMode(QGraphicsItem.DeviceCoordinateCache)
        self.plot.setFocusPolicy(Qt.NoFocus)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self._title)
        layout.addWidget(self.plot)

        self._handle_lines = pg.PlotDataItem(connect="pairs", pen=pg.mkPen(style.HANDLE_RING, width=1))
        self._handle_dots = KeyDots(size=HANDLE_PX, symbol="o", pen=pg.mkPen(style.KEY_OUTLINE),
                                               brush=QBrush(style.HANDLE_RING))
        self._chosen = KeyDots(size=KEY_PX + 2, symbol="d", pen=pg.mkPen(style.TEXT, width=1.5),
                                          brush=QBrush(style.SELECTION))
        for item, z in ((self._handle_lines, 8), (self._handle_dots, 9), (self._chosen, 10)):
            item.setZValue(z)
            self.view.addItem(item, ignoreBounds=True)
        self.playhead = pg.InfiniteLine(0, 90, movable=False, pen=pg.mkPen(style.PLAYHEAD, width=2))
        self.view.addItem(self.playhead, ignoreBounds=True)
        self._band = QGraphicsRectItem()
        self._band.setPen(pg.mkPen(style.SELECTION, width=1, cosmetic=True))
        self._band.setBrush(QBrush(style.ROW_SELECTED))
        self._band.setZValue(20)
        self._band.hide()
        self.view.addItem(self._band, ignoreBounds=True)

        self.cycle_action = self._action("Cycle interpolation", Qt.Key_T, self.cycle_interpolation)
        self.frame_action = self._action("Frame selection", Qt.Key_F, self.frame_selection)
        self.delete_action = self._action("Delete keys", Qt.Key_Delete, self.delete_selected)

        self.view.sigXRangeChanged.connect(lambda *_: self._level_of_detail())
        self.view.sigRangeChangedManually.connect(self._navigated)
        doc.projectChanged.connect(self._project_changed)
        doc.selectionChanged.connect(self.refresh)
        if hasattr(doc, "gestureActive"):
            doc.gestureActive.connect(lambda active: None if active else self._catch_up())
        # Its playhead follows a scrub at a reading pace (gesture_pacing), the last frame at once.
        doc.frameChanged.connect(GesturePacer(doc, lambda: self.playhead.setValue(self.doc.frame), self,
                                              frames=True))
        self.refresh()
        self.playhead.setValue(doc.frame)

    def _action(self, text, key, slot) -> QAction:
        # No QShortcut: the window has T and Delete for the timeline, and two
        # shortcuts on one key go dead. The editor takes its keys while it has focus.
        a = QAction(f"{text}\t{QKeySequence(key).toString()}", self)
        a.triggered.connect(slot)
        self._keys[key] = slot
        return a

    def event(self, ev):
        if (ev.type() == QEvent.ShortcutOverride and ev.key() in self._keys
                and not ev.modifiers() & ~Qt.KeypadModifier):
            ev.accept()  # ours while focused, before the window's shortcuts
            return True
        return super().event(ev)

    def keyPressEvent(self, ev):
        slot = self._keys.get(ev.key()) if not ev.modifiers() & ~Qt.KeypadModifier else None
        if slot is None:
            return super().keyPressEvent(ev)
        slot()

    # ------------------------------------------------------------------ public API
    def show_paths(self, paths) -> None:
        """Show these channels ((kind, item, attribute)); None follows the selection."""
        self._paths = None if paths is None else [tuple(p) for p in paths]
        self.refresh()

    def shown_paths(self) -> list[tuple]:
        if self._paths is not None:
            return self._paths
        out = []
        for kind, name in self.doc.selection:
            if kind == "bone" and (chain := self.doc.project.chain_of_bone(name)) is not None:
                kind, name = "chain", chain.name  # its rotation is the solver's; its chain's channels are keys
            out += [(kind, name, a) for a in ATTRIBUTES.get(kind, ()) if _shown(self.doc.project, kind, name, a)]
            if kind == "chain":
                out.append(("target", self.doc.project.chain(name).target, "position"))
        return list(dict.fromkeys(out))

    def select(self, keys, add: bool = False) -> None:
        keys = set(keys)
        self._set_selection(self.selected | keys if add else keys)

    def key_point(self, comp: Component, frame: int) -> QPoint:
        """Where a key is drawn, in ``self.plot.viewport()`` pixels."""
        ch = clips.channel(self.doc.project, comp.path)
        value = next(k.value[comp.d] for k in ch.keys if k.frame == frame) * comp.scale
        return self._to_viewport(frame, value)

    def handle_point(self, comp: Component, frame: int, side: str) -> QPoint:
        d = drawn(clips.channel(self.doc.project, comp.path), comp)
        i = int(np.flatnonzero(d.key_x == frame)[0])
        x, y = d.handles[i, 0 if side == "in" else 1]
        return self._to_viewport(x, y)

    # ------------------------------------------------------------------ drawing
    def _project_changed(self) -> None:
        """Follow every edit of our own drags; another view's drag (a target dragged
        in the scene) is shown when it ends, as the diagnostics curves do: re-plotting
        mid-drag would take the scene's time."""
        if self._drag is None and getattr(self.doc, "gesture_active", False):
            self._stale = True
            return
        self.refresh()

    def _catch_up(self) -> None:
        if self._stale:
            self.refresh()

    def refresh(self) -> None:
        self._stale = False
        project = self.doc.project
        comps = components(project, self.shown_paths())
        if comps != self.components:
            for comp in set(self._items) - set(comps):
                for item in self._items.pop(comp):
                    self.view.removeItem(item)
                self._shown.pop(comp, None)
                self._key_window.pop(comp, None)
            for i, comp in enumerate(comps):
                if comp not in self._items:
                    color = CURVE_COLORS[i % len(CURVE_COLORS)]
                    curve = pg.PlotDataItem(pen=pg.mkPen(color, width=1))
                    # Only what is in view, at most a few points a pixel.
                    curve.setClipToView(True)
                    curve.setDownsampling(auto=True, method="peak")
                    keys = KeyDots(size=KEY_PX, symbol="d", pen=pg.mkPen(style.KEY_OUTLINE),
                                              brush=QBrush(color))
                    keys.setZValue(5)
                    # Cached images: a drag repaints the dragged curve, the others are blitted.
                    for item in (curve.curve, keys):  # (a PlotDataItem paints through its curve)
                        item.setCacheMode(QGraphicsItem.DeviceCoordinateCache)
                    self.view.addItem(curve)
                    self.view.addItem(keys)
                    self._items[comp] = (curve, keys)
            self.components = comps
            self._fit_pixmap_cache()
        redrawn = False
        for comp in comps:
            ch = clips.channel(project, comp.path)
            if self._shown.get(comp) is ch:
                continue  # unchanged: nothing to redraw
            d = drawn(ch, comp)
            curve, keys = self._items[comp]
            curve.setData(d.curve_x, d.curve_y)
            self._shown[comp] = ch
            redrawn = True
        if redrawn:
            self._level_of_detail()
        kept = {(c, f) for c, f in self.selected if c in self._items and frame_keyed(project, c, f)}
        if kept != self.selected:
            self.selected = kept
            self.selectionChanged.emit()
        self._draw_selection()
        tl = project.timeline
        if self._follow and self._framed_for != (comps, (tl.start, tl.end)):
            self.frame_all()
        # The title is the legend: each component's name in its curve's colour.
        legend = "  ".join(f'<span style="color:{CURVE_COLORS[i % len(CURVE_COLORS)].name()}">■</span> '
                           f"{escape(c.label)}" for i, c in enumerate(comps))
        self._title.setText(legend or "Curves: select a bone, target or chain with keys")

    def resizeEvent(self, ev):
        super().resizeEvent(ev)
        self._fit_pixmap_cache()

    def _fit_pixmap_cache(self) -> None:
        """Make Qt's pixmap cache hold every cached curve and key image at the view's
        size: Qt's default (10 MB) holds three 1400 x 600 curves, and past it every
        curve's image is evicted and re-drawn on every move of a drag (an image is
        only as large as its item on screen, so the limit is rarely reached)."""
        vp = self.plot.viewport()
        ratio = vp.devicePixelRatioF()
        kb = int(2 * len(self._items) * vp.width() * vp.height() * ratio * ratio * 4 / 1024)
        if QPixmapCache.cacheLimit() < min(kb, MAX_PIXMAP_CACHE_KB):
            QPixmapCache.setCacheLimit(min(kb, MAX_PIXMAP_CACHE_KB))

    def _level_of_detail(self) -> None:
        """Draw a channel's keys only where they stand apart: keys closer than their
        own size merge into a band that shows nothing the curve does not (selected
        keys are always drawn)."""
        (x0, x1), width = self.view.viewRange()[0], max(self.view.width(), 1.0)
        project = self.doc.project
        for comp, (_, keys) in self._items.items():
            ch = clips.channel(project, comp.path)
            d = drawn(ch, comp)
            n = int(np.searchsorted(d.key_x, x1, side="right") - np.searchsorted(d.key_x, x0))
            shown = n * KEY_PX <= width
            keys.setVisible(shown)
            if not shown:
                continue
            # Only the keys in and beside the view: a drag re-sets a few, not a thousand.
            span = x1 - x0
            i0, i1 = np.searchsorted(d.key_x, x0 - span), np.searchsorted(d.key_x, x1 + span, side="right")
            last = self._key_window.get(comp)
            if last is None or last[0] is not ch or last[1:] != (int(i0), int(i1)):
                keys.setData(d.key_x[i0:i1], d.key_y[i0:i1])
                self._key_window[comp] = (ch, int(i0), int(i1))

    def _draw_selection(self) -> None:
        project = self.doc.project
        xs, ys, hx, hy = [], [], [], []
        for comp, frame in self.selected:
            d = drawn(clips.channel(project, comp.path), comp)
            i = int(np.flatnonzero(d.key_x == frame)[0])
            xs.append(frame)
            ys.append(d.key_y[i])
            for side in (0, 1):
                x, y = d.handles[i, side]
                if np.isfinite(x):
                    hx += [frame, x]
                    hy += [d.key_y[i], y]
        self._chosen.setData(xs, ys)
        self._handle_lines.setData(np.array(hx, float), np.array(hy, float))
        self._handle_dots.setData(hx[1::2], hy[1::2])

    def _navigated(self, *_) -> None:
        self._follow = False  # the user's view stays until F

    def frame_all(self) -> None:
        """Fit the view to what is shown: the frame range, and every curve, key and
        handle inside it (-1..1 with nothing to show)."""
        project = self.doc.project
        tl = project.timeline
        lo, hi = np.inf, -np.inf
        for comp in self.components:
            d = drawn(clips.channel(project, comp.path), comp)
            handles = d.handles.reshape(-1, 2)
            for x, y in ((d.curve_x, d.curve_y), (d.key_x, d.key_y), (handles[:, 0], handles[:, 1])):
                y = y[(x >= tl.start) & (x <= tl.end) & np.isfinite(y)]
                if y.size:
                    lo, hi = min(lo, float(y.min())), max(hi, float(y.max()))
            # Before the first key and after the last the value holds.
            for x in (tl.start, tl.end):
                if x < d.key_x[0] or x > d.key_x[-1]:
                    v = float(d.key_y[0] if x < d.key_x[0] else d.key_y[-1])
                    lo, hi = min(lo, v), max(hi, v)
        if not np.isfinite(lo):
            lo, hi = -1.0, 1.0
        if hi - lo < 1e-6:
            lo, hi = lo - 0.5, hi + 0.5  # a flat curve sits mid-height, not on an edge
        self.view.setRange(xRange=(tl.start, max(tl.end, tl.start + 1)), yRange=(lo, hi), padding=0.08)
        self._framed_for, self._follow = (list(self.components), (tl.start, tl.end)), True

    def frame_selection(self) -> None:
        """Fit the view to the selected keys and their handles, or to what is shown
        (:meth:`frame_all`); the view follows what is shown again from then on."""
        if not self.selected:
            self.frame_all()
            return
        project = self.doc.project
        pts = []
        for comp in self.components:
            d = drawn(clips.channel(project, comp.path), comp)
            chosen = [f for c, f in self.selected if c == comp]
            if self.selected and not chosen:
                continue
            rows = np.isin(d.key_x, chosen) if chosen else slice(None)
            pts.append(np.stack([d.key_x[rows], d.key_y[rows]], axis=-1))
            if not chosen:
                pts.append(np.stack([d.curve_x, d.curve_y], axis=-1))
            handles = d.handles[rows].reshape(-1, 2)
            pts.append(handles[np.isfinite(handles[:, 0])])
        pts = np.concatenate(pts) if pts else np.zeros((0, 2))
        if not len(pts):
            self.frame_all()
            return
        (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
        self.view.setRange(xRange=(x0 - 1, x1 + 1), yRange=(y0, y1 + (1e-6 if y1 == y0 else 0)), padding=0.08)
        tl = project.timeline
        self._framed_for, self._follow = (list(self.components), (tl.start, tl.end)), True

    # ------------------------------------------------------------------ edits
    def selected_keys(self) -> dict:
        out: dict = {}
        for comp, frame in self.selected:
            out.setdefault(comp.path, set()).add(frame)
        return {p: tuple(sorted(fs)) for p, fs in out.items()}

    def set_interpolation(self, interp: str) -> None:
        keys = self.selected_keys()
        if keys:
            self.doc.apply(f"Interpolation: {interp}", key_edits.set_interpolation(self.doc.project, keys, interp),
                           touched=touched(keys))

    def cycle_interpolation(self) -> None:
        keys = self.selected_keys()
        if not keys:
            return
        path, frames = next(iter(keys.items()))
        current = next(k.interp for k in clips.channel(self.doc.project, path).keys if k.frame == frames[0])
        self.set_interpolation(INTERPOLATIONS[(INTERPOLATIONS.index(current) + 1) % len(INTERPOLATIONS)])

    def delete_selected(self) -> None:
        from rigeditor.edits.tracks import delete_keys

        keys = self.selected_keys()
        if keys:
            n = sum(map(len, keys.values()))
            self.doc.apply(f"Delete {n} key{'s' * (n != 1)}", delete_keys(self.doc.project, keys),
                           touched=touched(keys))

    def contextMenuEvent(self, ev):
        menu = QMenu(self)
        for name in INTERPOLATIONS:
            menu.addAction(f"Interpolation: {name}", lambda n=name: self.set_interpolation(n))
        menu.addSeparator()
        menu.addAction(self.frame_action)
        menu.addAction(self.delete_action)
        menu.exec(ev.globalPos())


def _shown(project, kind: str, name: str, attribute: str) -> bool:
    """Whether a selected item's channel is listed: Spine's keyed IK flags only where
    keyed (a flat 0 on every chain says nothing)."""
    if kind != "chain" or attribute not in FLAG_TRACKS.values():
        return True
    return bool(getattr(project.chain(name), attribute).keys)
