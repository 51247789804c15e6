"""An axis whose numbers never run into each other.

pyqtgraph spaces ticks by the axis length alone and always writes the first level's
numbers, so on a short plot it draws "0" over "5" or "-50" over "-100". Here every
number is kept only where it covers none already kept (the coarser levels first), so
a short plot shows fewer numbers, never a smudge.
"""
from __future__ import annotations

import pyqtgraph as pg

from rigeditor.app.guard import Guarded

TEXT_GAP_PX = 2.0  # clear pixels kept between two numbers


class ReadableAxis(Guarded, pg.AxisItem):
    def generateDrawSpecs(self, p):  # noqa: N802 - pyqtgraph's name
        specs = super().generateDrawSpecs(p)
        if not specs:
            return specs
        axis, ticks, texts = specs
        kept, boxes = [], []
        for spec in texts:  # pyqtgraph lists the coarsest level first
            box = spec[0].adjusted(-TEXT_GAP_PX / 2, -TEXT_GAP_PX / 2, TEXT_GAP_PX / 2, TEXT_GAP_PX / 2)
            if not any(box.intersects(b) for b in boxes):
                kept.append(spec)
                boxes.append(box)
        return axis, ticks, kept
