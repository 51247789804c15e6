"""A PNG plot of a Bake's curves, rendered offscreen with pyqtgraph.

Stacked panels over frames (the editor's time axis): the bones' local rotations, the
chains' residuals, the chains' angle sensitivities; the same values as the CSV export
(``rigeditor.io.curves.table``: unwrapped, starting within half a turn, degrees or radians).
A panel holds at most MAX_CURVES curves in PALETTE's colours: more bones (a ten-bone
tail) split over several rotation panels. A residual is coloured per frame by its
cause (style.CAUSE_COLORS, as in the editor); several chains differ by line style.
Each panel's legend sits in a column of its own, right of the data. Lives in the app
package because it needs Qt; ``rigeditor bake -o OUT.png`` loads it lazily.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import shiboken6
from PySide6.QtCore import QRectF, Qt

from rigeditor.app import style
from rigeditor.app.render import offscreen_app, png_bytes
from rigeditor.io.curves.table import curve_table
from rigeditor.model.evaluation.bake import CAUSES

WIDTH = 1200
PANEL_HEIGHT = 300
"""Pixels per panel; the image is at least 900 high (three panels)."""
LEGEND_WIDTH = 210
MAX_CURVES = 8
PALETTE = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#8c6d00")
"""Eight colours told apart on white and by most colour-blind readers (Okabe and Ito's
set, the yellow darkened to gold)."""
CHAIN_STYLES = (Qt.PenStyle.SolidLine, Qt.PenStyle.DashLine, Qt.PenStyle.DotLine, Qt.PenStyle.DashDotLine)
"""Line styles telling chains apart in a residual panel (colour is the cause there)."""
RESIDUAL_SCALE = 1e-3
"""The residual panel shows at least 0..1e-3 model units."""


def plot_png(name: str, bake, *, radians: bool = False, size=None) -> bytes:
    """The plot of ``bake`` (of the project called ``name``) as PNG file bytes;
    ``size`` (w, h) in pixels, by default WIDTH wide and PANEL_HEIGHT per panel."""
    from pyqtgraph.exporters import ImageExporter  # lazily: the editor imports cause_runs

    view, layout, _ = plot_layout(name, bake, radians=radians, size=size)
    exporter = ImageExporter(layout)
    exporter.parameters()["width"] = int(layout.geometry().width())
    exporter.parameters()["height"] = int(layout.geometry().height())
    exporter.parameters()["background"] = "w"
    image = exporter.export(toBytes=True)
    # Delete the view, its scene and items now, while the application lives: left to
    # the garbage collector, pyqtgraph's reference cycles can outlive the QApplication.
    shiboken6.delete(view)
    return png_bytes(image)


def plot_layout(name: str, bake, *, radians: bool = False, size=None):
    """(view, layout, [(PlotItem, LegendItem)] top to bottom), laid out at ``size``;
    the caller deletes the view (shiboken6.delete) when done."""
    offscreen_app()
    table = curve_table(bake, radians=radians)
    unit = table.angle_unit
    frames = table.column("frame")
    rotations = [c for c in table.columns if c.endswith(f".rotation_{unit}")]
    sensitivities = [c for c in table.columns if c.endswith(f".sensitivity_{unit}_per_unit")]
    chains = list(bake.chains)
    panels = [(f"{name}: local rotation ({unit})", group) for group in _groups(rotations, MAX_CURVES)]
    if len(panels) > 1:
        panels = [(f"{title}, {_span(group, rotations)}", group) for title, group in panels]
    residual_groups = _groups(chains, len(CHAIN_STYLES))
    size = size or (WIDTH, max(900, PANEL_HEIGHT * (len(panels) + len(residual_groups) + 1)))

    # The view is never shown, so it never lays its items out: size the layout by hand.
    view = pg.GraphicsView(background="w")
    layout = pg.GraphicsLayout()
    view.setCentralItem(layout)
    row, previous, panels_made = 0, None, []

    def panel(title, ylabel):
        nonlocal row, previous
        plot = layout.addPlot(row=row, col=0, title=title)
        plot.showGrid(x=True, y=True, alpha=0.3)
        plot.setLabel("bottom", "frame")
        plot.setLabel("left", ylabel)
        plot.getAxis("left").setWidth(70)  # never shown, so the axis cannot grow to its labels
        if previous is not None:
            plot.setXLink(previous)
        # The legend hangs from the top of an empty cell right of the plot: in the cell
        # itself its rows would spread over the panel's height.
        cell = pg.GraphicsWidget()
        cell.setFixedWidth(LEGEND_WIDTH)
        layout.addItem(cell, row=row, col=1)
        legend = pg.LegendItem(offset=(4, 4), labelTextColor="k")
        legend.setParentItem(cell)
        row, previous = row + 1, plot
        panels_made.append((plot, legend))
        return plot, legend

    for title, group in panels:
        plot, legend = panel(title, unit)
        for n, column in enumerate(group):
            curve = plot.plot(frames, table.column(column), pen=pg.mkPen(PALETTE[n], width=2))
            legend.addItem(curve, column.rsplit(".", 1)[0])
    for group in residual_groups:
        plot, legend = panel("residual (model units), coloured by cause", "units")
        _residuals(plot, legend, bake, frames, group)
    plot, legend = panel(f"sensitivity ({unit} per model unit)", f"{unit}/unit")
    worst = sorted(sensitivities, key=lambda c: -float(np.max(table.column(c), initial=0.0)))
    for n, column in enumerate(worst[:MAX_CURVES]):  # more chains than colours: the worst
        curve = plot.plot(frames, table.column(column), pen=pg.mkPen(PALETTE[n], width=2))
        legend.addItem(curve, column.rsplit(".", 1)[0])

    layout.setGeometry(QRectF(0, 0, *size))
    layout.layout.activate()  # lay out now: no event loop runs before the export
    return view, layout, panels_made


def cause_runs(cause: np.ndarray, values: np.ndarray, k: int) -> np.ndarray:
    """``values`` where the cause is ``CAUSES[k]``, NaN elsewhere, one frame longer on the
    right so runs of two causes meet (draw with connect="finite")."""
    mask = cause == k
    joined = mask.copy()
    joined[1:] |= mask[:-1]
    return np.where(joined, values, np.nan)


def _residuals(plot, legend, bake, frames, chains) -> None:
    """Each chain's residual in segments coloured by cause; chains by line style."""
    top, shown = 0.0, set()
    for style_, chain in zip(CHAIN_STYLES, chains):
        cb = bake.chains[chain]
        top = max(top, float(np.max(cb.residual, initial=0.0)))
        present = [k for k in range(len(CAUSES)) if np.any(cb.cause == k)]
        for k in present:
            plot.plot(frames, cause_runs(cb.cause, cb.residual, k), connect="finite",
                      pen=pg.mkPen(style.CAUSE_COLORS[CAUSES[k]], width=2, style=style_))
        if len(chains) > 1:  # which line is which chain
            legend.addItem(pg.PlotDataItem(pen=pg.mkPen("#444444", width=2, style=style_)), chain)
        shown.update(present)
    for k in sorted(shown):
        legend.addItem(pg.PlotDataItem(pen=pg.mkPen(style.CAUSE_COLORS[CAUSES[k]], width=3)),
                       style.CAUSE_LABELS[CAUSES[k]])
    # Residuals at floating-point size stay a flat line at 0.
    plot.setYRange(0.0, max(top, RESIDUAL_SCALE) * 1.05, padding=0)


def _groups(items: list, n: int) -> list[list]:
    """``items`` in consecutive groups of at most ``n`` (one empty group for none)."""
    return [items[i:i + n] for i in range(0, len(items), n)] or [[]]


def _span(group: list[str], columns: list[str]) -> str:
    first, last = columns.index(group[0]) + 1, columns.index(group[-1]) + 1
    return f"bones {first}-{last} of {len(columns)}"
