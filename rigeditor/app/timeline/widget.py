"""The timeline: frame ruler, playhead, transport, loop range and one row of keys per
keyed track.

It only reads the Document and hands it new Projects (tracks.py builds them); the
keys it draws are listed from the project on every change, never kept on the side.
Gestures: drag on the ruler scrubs; a click on an empty spot sets the frame and
clears the key selection; a click on a key selects it (Shift/Ctrl add); dragging
keys retimes them (one undo step per drag); dragging on an empty spot selects keys
in a box; the wheel zooms time, Shift+wheel (or the wheel over the labels) scrolls
rows, the middle button pans.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QElapsedTimer, QPoint, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QBrush, QFontMetrics, QKeySequence, QPainterPath
from PySide6.QtWidgets import (
    QGraphicsItem, QGraphicsRectItem, QHBoxLayout, QLabel, QScrollBar, QSizePolicy, QSpinBox,
    QStyle, QToolButton, QVBoxLayout, QWidget,
)

from rigeditor.app.item_cache import make_room
from rigeditor.app.dialogs import Dialogs
from rigeditor.app.gesture_pacing import GesturePacer
from rigeditor.app.guard import Guarded
from rigeditor.app.plot_axis import DirectAxis
from rigeditor.app import style
from rigeditor.app.timeline.edit import KeyEditing
from rigeditor.app.timeline.events_row import EventRow
from rigeditor.app.timeline.gestures import KeyGestures
from rigeditor.app.timeline.transport import Transport
from rigeditor.app.timeline.items import _TrackView, _RulerView, _LoopBar, _Keys, _FrameAxis, _TrackAxis, _path_item
from rigeditor.edits.tracks import (
    Path, Track, delete_keys, key_item, keyed_tracks, touched,
)

RULER_PX = 44


class TimelineWidget(Guarded, Transport, KeyGestures, KeyEditing, QWidget):
    """Signals: keySelectionChanged(), playingChanged(bool), onionChanged(before,
    after, step) (the onion skin settings, for the scene)."""

    keySelectionChanged = Signal()
    playingChanged = Signal(bool)
    onionChanged = Signal(int, int, int)

    def __init__(self, doc, parent=None, dialogs=None):
        super().__init__(parent)
        make_room()  # the cached curves fit (item_cache)
        self.doc = doc
        self.dialogs = dialogs or Dialogs()
        self._tracks: list[Track] = []
        self._selected: set[tuple[Path, int]] = set()
        self._loop = (doc.project.timeline.start, doc.project.timeline.end)
        self._range = (None, None)
        self._top = 0  # first visible row
        self._dragging = None
        self._syncing = False
        self._timer = QTimer(self)
        self._timer.setTimerType(Qt.PreciseTimer)
        self._timer.timeout.connect(self._tick)
        self._clock = QElapsedTimer()
        self._play_from = 0
        self.setFocusPolicy(Qt.StrongFocus)
        self.setMinimumHeight(120)

        self._build_actions()
        self._build_transport()
        self._build_editing()
        self._build_plot()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self._bar)
        layout.addWidget(self._edit_bar)
        body = QHBoxLayout()
        body.setSpacing(0)
        body.addWidget(self.plot)
        body.addWidget(self._scroll)
        layout.addLayout(body)

        # During a drag elsewhere the keys follow at a reading pace, the last at its end
        # (gesture_pacing); a key drag here is shown at once.
        doc.projectChanged.connect(GesturePacer(doc, self._project_changed, self,
                                                own=lambda: self._dragging is not None))
        doc.frameChanged.connect(self._frame_changed)
        doc.selectionChanged.connect(self._draw_rows)
        self._project_changed()
        self._frame_changed(doc.frame)

    # ------------------------------------------------------------------ public API
    def actions_for_window(self) -> list[QAction]:
        """[play/pause (Space), previous frame (Left), next frame (Right), set key (K),
        delete keys (Delete), copy, paste, scale, cycle interpolation (T)], for the
        main window to install window-wide."""
        return [self.play_action, self.prev_action, self.next_action, self.key_action, self.delete_action,
                *self.editing_actions()]

    def tracks(self) -> list[Track]:
        """The rows, top to bottom."""
        return list(self._tracks)

    def selected_keys(self) -> dict[Path, tuple[int, ...]]:
        out: dict[Path, list[int]] = {}
        for path, frame in self._selected:
            out.setdefault(path, []).append(frame)
        return {p: tuple(sorted(fs)) for p, fs in out.items()}

    def select_keys(self, keys, add: bool = False) -> None:
        """Select keys given as (path, frame) pairs."""
        keys = {(tuple(p), float(f)) for p, f in keys}
        self._set_selection(self._selected | keys if add else keys)

    def key_selection(self) -> None:
        """Key every selected item at the current frame, as it is now (one undo step)."""
        project, frame, paths = self.doc.project, self.doc.frame, []
        for item in self.doc.selection:
            project, keyed = key_item(project, item, frame)
            paths += keyed
        if not paths:
            self._status.setText("Select a target, bone or chain to key it")
            return
        self._selected = {(p, frame) for p in paths}
        self.doc.apply(f"Set key at frame {frame}", project, touched=touched(paths))
        self._draw_keys()
        self.keySelectionChanged.emit()

    def delete_selected_keys(self) -> None:
        keys = self.selected_keys()
        if not keys:
            return
        n = sum(map(len, keys.values()))
        self._selected = set()
        self.doc.apply(f"Delete {n} key{'s' * (n != 1)}", delete_keys(self.doc.project, keys),
                       touched=touched(keys))
        self._draw_keys()
        self.keySelectionChanged.emit()

    def key_point(self, path: Path, frame: int) -> QPoint:
        """Where a key is drawn, in ``self.plot.viewport()`` coordinates."""
        row = next(i for i, t in enumerate(self._tracks) if t.path == tuple(path))
        return self._to_viewport(self.track_view, frame, row)

    def ruler_point(self, frame: int) -> QPoint:
        """A point on the ruler at ``frame``, in ``self.plot.viewport()`` coordinates."""
        return self._to_viewport(self.ruler_view, frame, 0.5)

    # ------------------------------------------------------------------ building
    def _action(self, text, key, slot, icon=None) -> QAction:
        a = QAction(text, self)
        a.setShortcut(QKeySequence(key))
        a.setShortcutContext(Qt.WidgetWithChildrenShortcut)
        a.triggered.connect(slot)
        if icon is not None:
            a.setIcon(self.style().standardIcon(icon))
        self.addAction(a)
        return a

    def _build_actions(self):
        self.play_action = self._action("Play", Qt.Key_Space, self.toggle_play, QStyle.SP_MediaPlay)
        self.play_action.setCheckable(True)
        self.prev_action = self._action("Previous frame", Qt.Key_Left, lambda: self.step(-1), QStyle.SP_MediaSeekBackward)
        self.next_action = self._action("Next frame", Qt.Key_Right, lambda: self.step(1), QStyle.SP_MediaSeekForward)
        self.key_action = self._action("Set key", Qt.Key_K, self.key_selection)
        self.delete_action = self._action("Delete keys", Qt.Key_Delete, self.delete_selected_keys)

    def _button(self, action_or_text, slot=None, icon=None) -> QToolButton:
        b = QToolButton(self)
        b.setFocusPolicy(Qt.NoFocus)
        b.setAutoRaise(True)
        if isinstance(action_or_text, QAction):
            b.setDefaultAction(action_or_text)
        else:
            b.setToolTip(action_or_text)
            b.setIcon(self.style().standardIcon(icon))
            b.clicked.connect(slot)
        self._bar.layout().addWidget(b)
        return b

    def _spin(self, tip, slot) -> QSpinBox:
        s = QSpinBox(self)
        s.setToolTip(tip)
        s.setKeyboardTracking(False)
        s.setFocusPolicy(Qt.ClickFocus)  # Tab lands on the timeline, whose keys step and key
        s.setButtonSymbols(QSpinBox.NoButtons)
        s.setAlignment(Qt.AlignRight)
        s.valueChanged.connect(slot)
        self._bar.layout().addWidget(s)
        return s

    def _label(self, text) -> QLabel:
        label = QLabel(text, self)
        self._bar.layout().addWidget(label)
        return label

    def _build_transport(self):
        self._bar = QWidget(self)
        row = QHBoxLayout(self._bar)
        row.setContentsMargins(4, 2, 4, 2)
        row.setSpacing(4)
        self._button("First frame of the loop", lambda: self._jump(0), QStyle.SP_MediaSkipBackward)
        self._button(self.prev_action)
        self._play_button = self._button(self.play_action)
        self._button(self.next_action)
        self._button("Last frame of the loop", lambda: self._jump(1), QStyle.SP_MediaSkipForward)
        self._label("Frame")
        self._frame_spin = self._spin("Current frame", self.doc.set_frame)
        # Its own background: a new frame number repaints the box alone, not the
        # timeline and its dock beneath it (the same pixels).
        self._frame_spin.setAutoFillBackground(True)
        self._fps_label = self._label("")
        row.addSpacing(12)
        self._label("Loop")
        self._loop_start = self._spin("First frame of the loop", lambda v: self.set_loop_range(v, self._loop[1]))
        self._label("–")
        self._loop_end = self._spin("Last frame of the loop", lambda v: self.set_loop_range(self._loop[0], v))
        row.addSpacing(12)
        key = self._button(self.key_action)
        key.setToolButtonStyle(Qt.ToolButtonTextOnly)
        key.setText("Key (K)")
        row.addStretch(1)
        self._status = self._label("")
        self._status.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        self._status.setAlignment(Qt.AlignRight | Qt.AlignVCenter)

    def _build_plot(self):
        self._scroll = QScrollBar(Qt.Vertical, self)
        self._scroll.setFocusPolicy(Qt.NoFocus)
        self._scroll.valueChanged.connect(self._scroll_to)
        self.plot = pg.GraphicsLayoutWidget(self)
        self.plot.setBackground(style.BACKGROUND)
        self.plot.setFocusPolicy(Qt.NoFocus)
        ci = self.plot.ci
        ci.layout.setContentsMargins(0, 0, 0, 0)
        ci.layout.setSpacing(0)
        text = pg.mkPen(style.TEXT)

        self.ruler_view = _RulerView(self)
        self._ruler_axis = _FrameAxis("bottom", pen=pg.mkPen(style.GRID_MAJOR), textPen=text)
        self._ruler_blank = DirectAxis("left", pen=pg.mkPen(None), showValues=False)
        self.ruler = pg.PlotItem(viewBox=self.ruler_view, axisItems={"bottom": self._ruler_axis, "left": self._ruler_blank})
        self.ruler.setFixedHeight(RULER_PX)
        self.ruler_view.setBackgroundColor(style.RULER)
        self.ruler_view.setMouseEnabled(x=True, y=False)
        self.ruler_view.setYRange(0, 1, padding=0)
        self.ruler.setMenuEnabled(False)
        self.ruler.hideButtons()
        self._loop_item = _LoopBar(self)
        self.ruler_view.addItem(self._loop_item)
        self.playhead = pg.InfiniteLine(0, 90, movable=True, pen=pg.mkPen(style.PLAYHEAD, width=2),
                                        hoverPen=pg.mkPen(style.PLAYHEAD, width=4), label="{value:.0f}",
                                        labelOpts=dict(position=0.5, color=style.BACKGROUND, fill=style.PLAYHEAD))
        self.playhead.setZValue(10)
        self.playhead.sigPositionChanged.connect(self._playhead_moved)
        self.ruler_view.addItem(self.playhead)

        self.track_view = _TrackView(self)
        self._label_axis = _TrackAxis("left", pen=pg.mkPen(0, 0, 0, 0), textPen=text)
        self._label_axis.setStyle(tickLength=0, tickTextOffset=8)
        self.track_plot = pg.PlotItem(viewBox=self.track_view, axisItems={"left": self._label_axis})
        self.track_plot.hideAxis("bottom")
        self.track_plot.setMenuEnabled(False)
        self.track_plot.hideButtons()
        self.track_plot.setXLink(self.ruler)
        self.track_view.setMouseEnabled(x=True, y=False)
        self.track_view.sigResized.connect(self._fit_rows)
        for plot in (self.ruler, self.track_plot):
            plot.layout.setContentsMargins(0, 0, 6, 0)
            plot.layout.setSpacing(0)
        self.event_row = EventRow(self.doc, self.ruler, text)  # event keys, under the ruler
        ci.addItem(self.ruler, 0, 0)
        ci.addItem(self.event_row.plot, 1, 0)
        ci.addItem(self.track_plot, 2, 0)

        self._stripes = _path_item(style.ROW_ALTERNATE, -30)
        self._highlight = _path_item(style.ROW_SELECTED, -25)
        self._outside = _path_item(style.OUTSIDE_LOOP, -20)
        for item in (self._stripes, self._highlight, self._outside):
            self.track_view.addItem(item, ignoreBounds=True)
        self._keys = _Keys(pxMode=True)
        self._keys.setZValue(5)
        # Cached images: a moving playhead blits the keys and labels, never redraws them.
        for item in (self._keys, self._label_axis, self._ruler_axis):
            item.setCacheMode(QGraphicsItem.DeviceCoordinateCache)
        self.track_view.addItem(self._keys)
        self._track_head = pg.InfiniteLine(0, 90, movable=False, pen=pg.mkPen(style.PLAYHEAD, width=2))
        self._track_head.setZValue(6)  # over the keys, as on the ruler
        self.track_view.addItem(self._track_head, ignoreBounds=True)
        self._band = QGraphicsRectItem()
        self._band.setPen(pg.mkPen(style.SELECTION, width=1, cosmetic=True))
        self._band.setBrush(QBrush(style.ROW_SELECTED))
        self._band.setZValue(20)
        self._band.hide()
        self.track_view.addItem(self._band, ignoreBounds=True)

    # ------------------------------------------------------------------ reacting
    def _project_changed(self):
        project = self.doc.project
        tl = project.timeline
        resized = self._range != (tl.start, tl.end)
        if resized:
            # A loop over the whole range, and a view of all of it, follow the range.
            if self._loop == self._range:
                self._loop = (tl.start, tl.end)
            shown = self.ruler_view.viewRange()[0]
            whole = self._range[0] is None or (shown[0] <= self._range[0] and shown[1] >= self._range[1])
            self._range = (tl.start, tl.end)
            lo, hi = self._padded_range()
            for view in (self.ruler_view, self.track_view):
                view.setLimits(xMin=lo, xMax=hi, minXRange=min(10.0, hi - lo))
            if whole:
                self.ruler_view.setXRange(lo, hi, padding=0)
            for spin in (self._frame_spin, self._loop_start, self._loop_end):
                spin.blockSignals(True)
                spin.setRange(tl.start, tl.end)
                spin.blockSignals(False)
            self.playhead.setBounds((tl.start, tl.end))
            self._loop_item.setBounds((tl.start, tl.end))
            self.set_loop_range(*self._loop)
        self._fps_label.setText(f"{tl.fps:g} fps")
        if self.is_playing():
            self._timer.setInterval(max(1, int(500.0 / tl.fps)))
        self.event_row.refresh()
        tracks = keyed_tracks(project)
        if resized or tracks != self._tracks:
            self._tracks = tracks
            existing = {(t.path, f) for t in tracks for f in t.frames}
            if not self._selected <= existing:
                self._selected &= existing
                self.keySelectionChanged.emit()
            self._draw_labels()
            self._draw_rows()
            self._draw_keys()
            self._draw_loop()
            self._fit_rows()

    def _frame_changed(self, frame):
        self._syncing = True  # moving the lines to the frame is not a user's scrub
        try:
            for item in (self.playhead, self._track_head):
                if item.value() != frame:
                    item.setValue(frame)
        finally:
            self._syncing = False
        self._frame_spin.blockSignals(True)
        self._frame_spin.setValue(frame)
        self._frame_spin.blockSignals(False)

    def _playhead_moved(self, line):
        if not self._syncing:
            self.pause()
            self.doc.set_frame(line.value())

    # ------------------------------------------------------------------ drawing
    def _padded_range(self):
        lo, hi = self._range
        pad = max(1.0, 0.02 * (hi - lo))
        return lo - pad, hi + pad

    def _draw_labels(self):
        labels = [t.label for t in self._tracks]
        self._label_axis.setTicks([[(i, s) for i, s in enumerate(labels)], []])
        fm = QFontMetrics(self._label_axis.style.get("tickFont") or self.font())
        width = max([fm.horizontalAdvance(s) for s in labels] + [fm.horizontalAdvance("no keys yet")]) + 20
        for axis in (self._label_axis, self._ruler_blank, self.event_row.axis):
            axis.setWidth(width)

    def _draw_rows(self):
        lo, hi = self._padded_range()
        stripes, selected = QPainterPath(), QPainterPath()
        chosen = set(self.doc.selection)
        for row, t in enumerate(self._tracks):
            rect = QRectF(lo, row - 0.5, hi - lo, 1.0)
            if row % 2:
                stripes.addRect(rect)
            if t.item in chosen:
                selected.addRect(rect)
        self._stripes.setPath(stripes)
        self._highlight.setPath(selected)

    def _draw_keys(self):
        project = self.doc.project
        xs, ys, symbols, brushes, pens, sizes = [], [], [], [], [], []
        plain = {False: QBrush(style.KEY), True: QBrush(style.KEY_STEPPED)}
        by_space: dict[str, QBrush] = {}
        chosen = QBrush(style.SELECTION)
        outline, bright = pg.mkPen(style.KEY_OUTLINE, width=1), pg.mkPen(style.TEXT, width=1.5)
        for row, t in enumerate(self._tracks):
            for i, f in enumerate(t.frames):
                on = (t.path, f) in self._selected
                xs.append(f)
                ys.append(row)
                symbols.append("s" if t.stepped else "d")
                if on:
                    brush = chosen
                elif t.spaces:
                    s = t.spaces[i]
                    brush = by_space.get(s) or by_space.setdefault(s, QBrush(style.space_color(project, s)))
                else:
                    brush = plain[t.stepped]
                brushes.append(brush)
                pens.append(bright if on else outline)
                sizes.append(style.KEY_SIZE_PX + (2 if on else 0))
        self._keys.setData(x=np.array(xs, float), y=np.array(ys, float), symbol=symbols, brush=brushes,
                           pen=pens, size=sizes)
        n = len(self._selected)
        self._status.setText(f"{n} key{'s' * (n != 1)} selected" if n else
                             ("" if self._tracks else "No keys yet: select a target and press K"))

    def _draw_loop(self):
        lo, hi = self._loop
        self._loop_item.blockSignals(True)
        self._loop_item.setRegion((lo, hi))
        self._loop_item.blockSignals(False)
        for spin, v in ((self._loop_start, lo), (self._loop_end, hi)):
            spin.blockSignals(True)
            spin.setValue(v)
            spin.blockSignals(False)
        left, right = self._padded_range()
        rows = max(len(self._tracks), 1) + 1000
        path = QPainterPath()
        path.addRect(QRectF(left, -1, lo - left, rows))
        path.addRect(QRectF(hi, -1, right - hi, rows))
        self._outside.setPath(path)

    def _fit_rows(self):
        visible = max(self.track_view.height() / style.TRACK_ROW_PX, 1.0)
        extra = max(0, int(np.ceil(len(self._tracks) - visible)))
        self._scroll.setRange(0, extra)
        self._scroll.setPageStep(max(1, int(visible)))
        self._scroll.setVisible(extra > 0)
        self._top = min(self._top, extra)
        self.track_view.setYRange(self._top - 0.5, self._top - 0.5 + visible, padding=0)

    def _scroll_to(self, top):
        self._top = int(top)
        self._fit_rows()

    def _to_viewport(self, view, x, y) -> QPoint:
        return self.plot.mapFromScene(view.mapViewToScene(QPointF(x, y)))

    def _set_selection(self, keys):
        if keys != self._selected:
            self._selected = set(keys)
            self._draw_keys()
            self.keySelectionChanged.emit()

    def _wheel_rows(self, steps):
        self._scroll.setValue(self._scroll.value() - steps)
