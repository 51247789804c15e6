"""Curves of one chain over time, from the Bake: its bones' local rotations (degrees,
unwrapped), its residual coloured by cause, and its sensitivity (jitter) on a log
scale against the safe and danger levels; a playhead on each, synced to the frame.

Which chain: the one of the first selected chain, bone or target; else the first
chain. Curve data is set only when the whole-range bake or the selection changes
(and only when the shown chain's bake is a new one), not during a drag (they follow
when it ends); a frame change only moves the lines. While the curves are behind the
edits the title says "updating".
"""
from __future__ import annotations

import time
from html import escape

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QGraphicsItem, QLabel, QSizePolicy, QVBoxLayout, QWidget

from rigeditor.app.item_cache import make_room
from rigeditor.app.gesture_pacing import GesturePacer
from rigeditor.app.guard import Guarded
from rigeditor.app import style
from rigeditor.app.plot_axis import DirectAxis, ReadableAxis
from rigeditor.app.plot_export import cause_runs
from rigeditor.app.seam_curve import SeamCurve
from rigeditor.app.tools import KEYS
from rigeditor.core.geometry import unwrap
from rigeditor.model.evaluation.bake import CAUSES

AXIS_PX = 44  # left axis width, equal on every plot so their time axes line up
CURVE_WIDTH_PX = 2
DENSE_CURVES = 8
"""Above this many bones a chain's angle curves are drawn 1 px wide: fifty 2 px curves
over 1,000 frames merge into one band, and Qt strokes a 2 px line at 3-4x the cost of a
1 px one (a 50-bone tail's curves took 100-150 ms to paint when its range landed, 20-50
ms at 1 px: benchmarks/bench_production.py's tail)."""
ANGLE_BATCH = 8
"""Angle curves given their data per turn of the event loop. A 50-bone chain's fifty
curves re-plotted at once held the UI thread 35-90 ms when its range landed; eight at a
time (each turn renders the new ones, the others are drawn from their cached pixmaps)
keep every turn short, and the last lands a few turns later. A limb's are all in the
first."""
SENSITIVITY_RANGE = (1e-3, 1e6)  # deg/unit clipped into this before the log axis
RESIDUAL_MIN_SPAN = 0.01  # residual axis spans at least this fraction of the chain's reach
PLOT_MIN_PX = 56
"""Least height of a plot's data area: under it the axis keeps one number and the
plot's title, legend and level labels run into each other. The widget asks for every
row's share (the mesh plot's too, while it shows), so the dock grows rather than the
rows shrink."""


def shown_chain(project, selection) -> str | None:
    """The chain to plot for ``selection`` (Document.selection), or None without chains."""
    for kind, name in selection:
        try:
            if kind == "chain":
                return project.chain(name).name
            if kind == "bone" and (chain := project.chain_of_bone(name)) is not None:
                return chain.name
            if kind == "target" and (chains := project.chain_for_target(name)):
                return chains[0].name
        except KeyError:
            continue
    return project.chains[0].name if project.chains else None


THROTTLE_S = 0.1
"""Seconds between curve updates while the range keeps changing (10 per second)."""
NO_CHAIN = f"No IK chain yet: select two joined bones and press {KEYS['add_chain']}"


TITLE_BONES = 6
"""Bones a chain's title names in full; a longer chain shows its first and last."""


def bone_list(bones) -> str:
    """A chain's bones for its title: all of a short chain; of a long one the first
    and the last and how many ("tail_0, tail_1 ... tail_49 (50 bones)")."""
    if len(bones) <= TITLE_BONES:
        return ", ".join(bones)
    return f"{bones[0]}, {bones[1]} … {bones[-1]} ({len(bones)} bones)"


class CurvesWidget(Guarded, QWidget):
    """Public: ``chain`` (name shown or None), ``angle_curves`` (bone -> item),
    ``residual_curves`` (cause -> item), ``sensitivity_curve``, ``playheads``,
    ``plots`` (angles, residual, sensitivity PlotItems)."""

    def __init__(self, doc, parent=None):
        super().__init__(parent)
        make_room()  # the cached curves fit (item_cache)
        self.doc = doc
        self.chain: str | None = None
        self._shown = None  # (chain name, its ChainBake) last plotted
        self._legend_causes: tuple[str, ...] = ()
        self._cause_entries: dict = {}  # curve -> its legend's (sample, label), made once
        self._span = None  # first and last frame plotted
        self._syncing = False

        self._title = QLabel(self)
        self._title.setContentsMargins(6, 3, 6, 3)
        # A long chain's bone list must not widen the dock (and the window) past the
        # screen: the label takes the width it is given.
        self._title.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        self.view = pg.GraphicsLayoutWidget(self)
        self.view.setBackground(style.BACKGROUND)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self._title)
        layout.addWidget(self.view)

        self.plots = []
        for row, label in enumerate(("angle °", "residual (units)", "jitter °/unit")):
            axes = {"left": _LogAxis("left") if row == 2 else ReadableAxis("left"), "bottom": DirectAxis("bottom")}
            plot = self.view.addPlot(row=row, col=0, axisItems=axes)
            plot.vb.setMinimumHeight(PLOT_MIN_PX)
            plot.setMenuEnabled(False)
            plot.hideButtons()
            plot.showGrid(x=True, y=True, alpha=0.15)
            plot.setClipToView(True)
            plot.setDownsampling(auto=True, mode="peak")
            left = plot.getAxis("left")
            left.setWidth(AXIS_PX)
            left.enableAutoSIPrefix(False)
            for name in ("left", "bottom"):
                axis = plot.getAxis(name)
                axis.setPen(pg.mkPen(style.GRID_MAJOR))
                axis.setTextPen(pg.mkPen(style.TEXT))
                axis.setCacheMode(QGraphicsItem.DeviceCoordinateCache)  # redrawn only when its range moves
            # The quantity and its unit sit inside the plot's top-left corner (a
            # rotated axis title would not fit a short dock).
            title = pg.TextItem(label, color=style.TEXT, anchor=(0, 0), fill=_faded(style.BACKGROUND, 170))
            title.setParentItem(plot.vb)
            title.setPos(2, 0)
            title.setZValue(20)
            if row:
                plot.setXLink(self.plots[0])
            plot.vb.setMouseEnabled(x=True, y=False)
            # pyqtgraph picks the downsampling factor from the view's width, but only
            # when the range changes: a resize must pick it again.
            plot.vb.sigResized.connect(lambda _vb, plot=plot: [c.viewRangeChanged() for c in plot.listDataItems()])
            self.plots.append(plot)
        self.angle_plot, self.residual_plot, self.sensitivity_plot = self.plots
        self.sensitivity_plot.setLogMode(y=True)
        for plot in self.plots[:-1]:
            plot.getAxis("bottom").setStyle(showValues=False)
        # Legends in one row along the top, in the room _fit_y leaves above the data.
        self._angle_legend = self.angle_plot.addLegend(offset=(-4, 1), labelTextColor=style.TEXT,
                                                       brush=_faded(style.BACKGROUND, 170), colCount=4)
        self._cause_legend = self.residual_plot.addLegend(offset=(-4, 1), labelTextColor=style.TEXT,
                                                          brush=_faded(style.BACKGROUND, 170), colCount=len(CAUSES))

        self.angle_curves: dict[str, pg.PlotDataItem] = {}
        self.residual_curves = {}
        for cause in CAUSES:
            curve = self._curve(self.residual_plot, pg.mkPen(style.CAUSE_COLORS[cause], width=CURVE_WIDTH_PX), connect="finite")
            self.residual_curves[cause] = curve
        self.sensitivity_curve = self._curve(self.sensitivity_plot, pg.mkPen(style.TEXT, width=CURVE_WIDTH_PX))
        self.level_lines = []
        for level, color, text in ((style.SENSITIVITY_SAFE_DEG, style.sensitivity_color(0.0), "safe"),
                                   (style.SENSITIVITY_DANGER_DEG, style.sensitivity_color(1e9), "danger")):
            line = pg.InfiniteLine(np.log10(level), 0, pen=pg.mkPen(color, width=1, style=Qt.DashLine),
                                   label=f"{text} {level:g}", labelOpts=dict(position=0.99, color=color, anchors=[(1, 1), (1, 1)]))
            self.sensitivity_plot.addItem(line, ignoreBounds=True)
            self.level_lines.append(line)
        self.sensitivity_plot.vb.sigResized.connect(lambda *_: self._place_level_labels())

        self.playheads = []
        for plot in self.plots:
            line = pg.InfiniteLine(doc.frame, 90, movable=True, pen=pg.mkPen(style.PLAYHEAD, width=2),
                                   hoverPen=pg.mkPen(style.PLAYHEAD, width=4))
            line.setZValue(10)
            line.sigPositionChanged.connect(self._playhead_moved)
            plot.addItem(line, ignoreBounds=True)
            self.playheads.append(line)
        self.view.scene().sigMouseClicked.connect(self._clicked)
        self.seam = SeamCurve(self, row=len(self.plots))  # shown while the project has meshes
        self.seam.plot.vb.setMinimumHeight(PLOT_MIN_PX)
        self.fit_height()

        # Edits in quick succession (outside a drag, which the curves sit out) re-plot
        # at most every THROTTLE_S; the last change always lands.
        self._last_update = 0.0
        self._pending = QTimer(self)
        self._pending.setSingleShot(True)
        self._pending.timeout.connect(lambda: self._update(staged=True))
        self._title_html = ""
        self._stale = False  # the range changed during a drag and is not plotted yet
        self._angle_todo = (None, [])  # angle curves still to be given their data
        self._angle_more = QTimer(self)
        self._angle_more.setSingleShot(True)
        self._angle_more.setInterval(0)
        self._angle_more.timeout.connect(self._next_turn)
        self._steps: list = []  # plots a staged update left for the next turns
        doc.rangeChanged.connect(self._bake_changed)
        doc.rangePending.connect(self._show_title)
        doc.gestureActive.connect(self._gesture_active)
        doc.selectionChanged.connect(self._update)
        # Its playheads follow a scrub elsewhere at a reading pace, the first and the last
        # frame at once (gesture_pacing); one of them dragged here moves them all at once.
        doc.frameChanged.connect(GesturePacer(doc, lambda: self._frame_changed(self.doc.frame), self,
                                              own=lambda: any(line.moving for line in self.playheads),
                                              frames=True))
        self._update()

    def _place_level_labels(self) -> None:
        """The safe label left of the danger one: a decade apart, the two lines are a
        few pixels apart on a short or wide-ranging plot, and labels above each would meet."""
        safe, danger = (line.label for line in self.level_lines)
        width = max(self.sensitivity_plot.vb.width(), 1.0)
        room = (danger.boundingRect().width() + 12.0) / width
        safe.setPosition(max(0.99 - room, 0.05))

    def fit_height(self) -> None:
        """Ask for the height that keeps every shown plot row readable (PLOT_MIN_PX each)."""
        rows = self.view.ci.effectiveSizeHint(Qt.MinimumSize).height()
        self.setMinimumHeight(int(np.ceil(self._title.sizeHint().height() + rows)))

    # ------------------------------------------------------------------ updates
    def _bake_changed(self):
        if self.doc.gesture_active:  # no re-plot during a drag: the scene gets the time
            if not self._stale:
                self._stale = True
                self._show_title()
            return
        if self._pending.isActive():
            return
        wait = self._last_update + THROTTLE_S - time.monotonic()
        if wait <= 0:
            self._update(staged=True)
        else:
            self._pending.start(int(wait * 1000) + 1)

    def _gesture_active(self, active: bool):
        # A range still on its way lands in a moment (rangeChanged plots it): plotting
        # the one before it here would block the drag's end for nothing.
        if not active and self._stale and not self.doc.range_pending:
            self._update(staged=True)

    def _update(self, staged: bool = False):
        """Plot the shown chain over the range. ``staged`` (a drag's end, a range
        landing): the title and the angles now, the residual and jitter plots in the
        next turns of the event loop, one a turn."""
        self._pending.stop()
        self._steps = []
        self._stale = False
        self._last_update = time.monotonic()
        bake, project = self.doc.range_bake, self.doc.project
        self.seam.update(bake)
        name = shown_chain(project, self.doc.selection)
        cb = bake.chains.get(name) if name else None
        if self._shown is not None and self._shown[0] == name and self._shown[1] is cb:
            # Same chain, same solve (an FK edit elsewhere): nothing new to draw, but the
            # title may still say "updating" from the drag that just ended.
            self._show_title()
            return
        frames = bake.frames
        span = (float(frames[0]), float(frames[-1])) if len(frames) else None
        # Another chain, or another timeline range: frame the new data afresh.
        first_time = self._shown is None or self._shown[0] != name or self._span != span
        self._shown, self._span = (name, cb), span
        self.chain = name
        bones = project.chain(name).bones if cb is not None else ()
        self._title_html = f"<b>{escape(name)}</b> &nbsp; {escape(bone_list(bones))}" if name else NO_CHAIN
        self._title.setToolTip(", ".join(bones))
        self._show_title()

        spans = []
        for bone in [b for b in self.angle_curves if b not in bones]:
            item = self.angle_curves.pop(bone)
            self.angle_plot.removeItem(item)
            self._angle_legend.removeItem(item)
        width = CURVE_WIDTH_PX if len(bones) <= DENSE_CURVES else 1
        todo = []
        for i, bone in enumerate(bones):
            item = self.angle_curves.get(bone)
            color = style.BONE_CURVE_CYCLE[i % len(style.BONE_CURVE_CYCLE)]
            if item is None:
                item = self._curve(self.angle_plot, pg.mkPen(color, width=width), name=bone)
                self.angle_curves[bone] = item
            elif item.opts["pen"].width() != width:
                item.setPen(pg.mkPen(color, width=width))
            angles = np.degrees(unwrap(bake.bone(bone).local_rotation))  # as exported
            todo.append((item, angles))
            spans.append((angles.min(), angles.max()))
        self._angle_todo = (frames, todo)
        self._plot_angles()

        if first_time and span is not None:
            self.angle_plot.setXRange(*span, padding=0.01)
        if cb is None and first_time:
            # Nothing to plot: neutral axes, not the last chain's.
            _fit_y(self.angle_plot, -90.0, 90.0, force=True)
            _fit_y(self.residual_plot, 0.0, 1.0, force=True)
            _fit_y(self.sensitivity_plot, np.log10(style.SENSITIVITY_SAFE_DEG) - 0.3,
                   np.log10(style.SENSITIVITY_DANGER_DEG) + 0.3, force=True)
        if cb is not None:
            lo, hi = min(a for a, _ in spans), max(b for _, b in spans)
            _fit_y(self.angle_plot, lo, hi, min_span=10.0, force=first_time)
        self._frame_changed(self.doc.frame)
        # The residual and jitter plots: here, or (``staged``) each in a later turn of
        # the event loop, so that a drag's end renders one plot a turn.
        steps = [lambda: self._plot_residual(frames, cb, first_time), lambda: self._plot_jitter(frames, cb, first_time)]
        self._steps = steps if staged else []
        if staged:
            self._angle_more.start()
        else:
            for step in steps:
                step()

    def _plot_residual(self, frames, cb, first_time: bool) -> None:
        empty = np.empty(0)
        counts = np.bincount(cb.cause, minlength=len(CAUSES)) if cb is not None else np.zeros(len(CAUSES))
        present = tuple(cause for cause, n in zip(CAUSES, counts) if n)
        for k, cause in enumerate(CAUSES):
            curve = self.residual_curves[cause]
            if cause not in present:
                if curve.xData is not None:
                    curve.setData(empty, empty)
                continue
            curve.setData(frames, cause_runs(cb.cause, cb.residual, k))
        if present != self._legend_causes:
            self._legend_causes = present
            show_entries(self._cause_legend, [(self.residual_curves[c], style.CAUSE_LABELS[c]) for c in present],
                         self._cause_entries)
        if cb is not None:
            # Floating-point noise must read as zero: never zoom in below a small
            # fraction of the chain's reach.
            top = max(float(np.max(cb.residual, initial=0.0)), RESIDUAL_MIN_SPAN * cb.reach[1])
            _fit_y(self.residual_plot, 0.0, top, force=first_time)

    def _plot_jitter(self, frames, cb, first_time: bool) -> None:
        if cb is None:
            self.sensitivity_curve.setData(np.empty(0), np.empty(0))
            return
        jitter = np.clip(np.nan_to_num(cb.sensitivity, nan=SENSITIVITY_RANGE[1]), *SENSITIVITY_RANGE)
        self.sensitivity_curve.setData(frames, jitter)
        # Always show the safe and danger levels, so the curve reads against them.
        _fit_y(self.sensitivity_plot, min(np.log10(jitter.min()), np.log10(style.SENSITIVITY_SAFE_DEG) - 0.3),
               max(np.log10(jitter.max()), np.log10(style.SENSITIVITY_DANGER_DEG) + 0.3), force=first_time)

    def _next_turn(self) -> None:
        """One step of what ``_update`` left for later: a plot it staged, else the next
        batch of angle curves (a newer ``_update`` replaces what is left)."""
        if self._steps:
            self._steps.pop(0)()
            self._angle_more.start()
            return
        self._plot_angles()

    def _plot_angles(self) -> None:
        """Give the next ANGLE_BATCH angle curves their data; the rest on the next turns
        of the event loop."""
        frames, todo = self._angle_todo
        batch, rest = todo[:ANGLE_BATCH], todo[ANGLE_BATCH:]
        self._angle_todo = (frames, rest)
        for item, angles in batch:
            item.setData(frames, angles)
        if rest:
            self._angle_more.start()

    def _show_title(self, *_):
        """The chain's title; while the whole range is being evaluated, a quiet
        "updating" after it (the curves are from before the latest edit)."""
        text = self._title_html
        if (self.doc.range_pending or self._stale) and self.chain is not None:
            text += ' &nbsp; <span style="color:#8b95a5">updating…</span>'
        self._title.setText(text)

    @staticmethod
    def _curve(plot, pen, **kwargs) -> pg.PlotDataItem:
        """A curve that draws about one peak-downsampled sample per pixel and keeps
        its image cached, so moving a playhead over it does not redraw it."""
        item = plot.plot(pen=pen, autoDownsampleFactor=1.0, **kwargs)
        item.curve.setCacheMode(QGraphicsItem.DeviceCoordinateCache)
        return item

    def _frame_changed(self, frame):
        self._syncing = True
        self.seam.frame(frame)
        try:
            for line in self.playheads:
                if line.value() != frame:
                    line.setValue(frame)
        finally:
            self._syncing = False

    def _playhead_moved(self, line):
        if not self._syncing:
            self.doc.set_frame(line.value())
            if line.value() != self.doc.frame:  # snap the dragged line to the whole frame
                self._frame_changed(self.doc.frame)

    def _clicked(self, ev):
        if ev.button() != Qt.LeftButton or ev.isAccepted() or ev.double():
            return
        for plot in self.plots:
            if plot.vb.sceneBoundingRect().contains(ev.scenePos()):
                self.doc.set_frame(plot.vb.mapSceneToView(ev.scenePos()).x())
                return


def show_entries(legend: pg.LegendItem, entries, made: dict) -> None:
    """Make ``legend`` show ``entries`` [(curve, text)] in that order, ``legend.columnCount``
    a row. Each entry's sample and label are made once and kept in ``made`` (curve ->
    pair): a LabelItem lays out rich text and its geometry ripples up the plot's layout,
    so building the cause legend afresh whenever the causes present changed (often, at
    a drag's end) cost 5-30 ms; putting made entries back in the grid costs a fraction."""
    for sample, label in legend.items:
        for part in (sample, label):
            legend.layout.removeItem(part)
            part.hide()
    legend.items = []
    per_row = max(int(legend.columnCount), 1)
    for k, (curve, text) in enumerate(entries):
        pair = made.get(curve)
        if pair is None or pair[1].text != text:
            pair = made[curve] = (legend.sampleType(curve),
                                  pg.LabelItem(text, color=legend.opts["labelTextColor"], justify="left",
                                               size=legend.opts["labelTextSize"]))
        sample, label = pair
        row, col = divmod(k, per_row)
        legend.layout.addItem(sample, row, 2 * col, alignment=Qt.AlignVCenter)
        legend.layout.addItem(label, row, 2 * col + 1)
        sample.show()
        label.show()
        legend.items.append(pair)
    legend.rowCount = -(-len(entries) // per_row)
    legend.updateSize()


def _fit_y(plot, lo, hi, *, min_span=0.0, pad=0.06, top=0.45, force=False):
    """Show [lo, hi] on the y axis, with room on top for the plot's title and legend.
    The range only changes when the data leaves it or fills less than half of it: a
    drag that nudges the curves leaves the axis (and its costly text) as it is."""
    lo, hi = float(lo), float(hi)
    if hi - lo < min_span:
        mid = 0.5 * (lo + hi)
        lo, hi = mid - 0.5 * min_span, mid + 0.5 * min_span
    span = max(hi - lo, 1e-12)
    y0, y1 = plot.vb.viewRange()[1]
    if not force and y0 <= lo and hi <= y1 and (y1 - y0) <= 2.0 * span * (1 + pad + top):
        return
    plot.vb.disableAutoRange(axis=pg.ViewBox.YAxis)
    plot.setYRange(lo - pad * span, hi + top * span, padding=0)


def _faded(color, alpha=200):
    c = pg.mkColor(color)
    c.setAlpha(alpha)
    return pg.mkBrush(c)


class _LogAxis(ReadableAxis):
    """A log axis that labels only 1, 2 and 5 times a power of ten (no crowding)."""

    def logTickStrings(self, values, scale, spacing):
        out = []
        for v in np.asarray(values, dtype=float) * scale:
            mantissa = 10.0 ** (v - np.floor(v + 1e-9))
            out.append(f"{10.0 ** v:g}" if any(abs(mantissa - m) < 1e-6 for m in (1, 2, 5)) else "")
        return out
