"""A PNG plot of a Bake's curves, rendered offscreen with pyqtgraph.

Three stacked panels over time (seconds): every bone's local rotation, every chain's
residual, every chain's angle sensitivity; the same values as the CSV export
(``rigeditor.io.curves``: unwrapped, degrees or radians). Lives in the app package
because it needs Qt; ``rigeditor bake -o OUT.png`` loads it lazily.
"""
from __future__ import annotations

import pyqtgraph as pg
import shiboken6
from pyqtgraph.exporters import ImageExporter
from PySide6.QtCore import QRectF

from rigeditor.app.render import offscreen_app, png_bytes
from rigeditor.io.curves import curve_table

SIZE = (1200, 900)
RESIDUAL_SCALE = 1e-3
"""The residual panel shows at least 0..1e-3 model units."""


def plot_png(name: str, bake, *, radians: bool = False, size=SIZE) -> bytes:
    """The plot of ``bake`` (of the project called ``name``) as PNG file bytes."""
    offscreen_app()
    table = curve_table(bake, radians=radians)
    unit = table.angle_unit
    t = table.column("time_s")
    # The view is never shown, so it never lays its item out: size the layout by hand.
    view = pg.GraphicsView(background="w")
    layout = pg.GraphicsLayout()
    view.setCentralItem(layout)
    panels = [
        (f"{name}: local rotation ({unit})", [c for c in table.columns if c.endswith(f".rotation_{unit}")]),
        ("residual (model units)", [c for c in table.columns if c.endswith(".residual")]),
        (f"sensitivity ({unit} per model unit)",
         [c for c in table.columns if c.endswith(f".sensitivity_{unit}_per_unit")]),
    ]
    previous = None
    for row, (title, columns) in enumerate(panels):
        plot = layout.addPlot(row=row, col=0, title=title)
        plot.showGrid(x=True, y=True, alpha=0.3)
        plot.addLegend(offset=(10, 5))
        plot.setLabel("bottom", "time (s)")
        plot.getAxis("left").setWidth(70)  # never shown, so the axis cannot grow to its labels
        if previous is not None:
            plot.setXLink(previous)
        for n, column in enumerate(columns):
            plot.plot(t, table.column(column), name=column.rsplit(".", 1)[0],
                      pen=pg.mkPen(pg.intColor(n, hues=max(len(columns), 3)), width=2))
        if row == 1:  # residuals at floating-point size stay a flat line at 0
            top = max((float(table.column(c).max()) for c in columns), default=0.0)
            plot.setYRange(0.0, max(top, RESIDUAL_SCALE) * 1.05, padding=0)
        previous = plot
    layout.setGeometry(QRectF(0, 0, *size))
    layout.layout.activate()  # lay out now: no event loop runs before the export
    exporter = ImageExporter(layout)
    exporter.parameters()["width"] = size[0]
    exporter.parameters()["background"] = "w"
    image = exporter.export(toBytes=True)
    # Delete the view, its scene and items now, while the application lives: left to
    # the garbage collector, pyqtgraph's reference cycles can outlive the QApplication.
    shiboken6.delete(view)
    return png_bytes(image)
