"""Paths in the scene: a thin curve through each path attachment a slot shows, as the
frame's bones carry it (brighter when its slot or a constraint following it is
selected), in Setup and Animate mode alike."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF
from PySide6.QtGui import QPen, QPolygonF

from rigeditor.app import style
from rigeditor.app.scene.layers import Layer
from rigeditor.app.scene.paint import pen


class PathLayer(Layer):
    """Elements: one per path shown (``FrameState.paths``)."""

    def _lit(self, state):
        sel, p = self.ctx.selected, self.ctx.project
        chosen = sel.get("path", set())
        followed = {c.target for c in (p.paths if p is not None else ()) if c.name in chosen}
        return np.array([slot in sel.get("slot", set()) or slot in followed for slot, _ in state.paths], dtype=bool)

    def elements(self, state, dm):
        if state is None or not state.paths:
            return np.zeros((0, 5)), np.zeros((0, 2)), np.zeros((0, 2))
        lit = self._lit(state)
        sig, lo, hi = [], [], []
        for (_, pts), on in zip(state.paths, lit):
            d = dm(pts)
            sig.append([float(pts[:, 0].sum()), float(pts[:, 1].sum()), float(len(pts)), float(pts[0, 0]), float(on)])
            lo.append(d.min(axis=0) - 2.0)
            hi.append(d.max(axis=0) + 2.0)
        return np.array(sig), np.array(lo), np.array(hi)

    def draw(self, painter, dm, mask):
        s = self.ctx.state
        if s is None or not s.paths:
            return
        lit = self._lit(s)
        for i in np.flatnonzero(mask):
            d = dm(s.paths[i][1])
            line = QPen(pen(style.PATH_CURVE, alpha=255 if lit[i] else 190))
            line.setWidthF(2.0 if lit[i] else 1.5)
            painter.setPen(line)
            painter.drawPolyline(QPolygonF([QPointF(float(x), float(y)) for x, y in d]))
