"""The links of transform constraints: a thin dashed line from each constrained bone's
origin to its target bone's origin (brighter when the constraint or one of its bones is
selected)."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QLineF, QPointF, Qt

from rigeditor.app import style
from rigeditor.app.scene.layers import Layer, _box
from rigeditor.app.scene.paint import pen


def _empty():
    return np.zeros((0, 5)), np.zeros((0, 2)), np.zeros((0, 2))


class ConstraintLayer(Layer):
    """Elements: one per (constraint, bone) pair, in the project's order."""

    def _pairs(self):
        s, p = self.ctx.structure, self.ctx.project
        if s is None or p is None or not p.transforms:
            return [], np.zeros(0, int), np.zeros(0, int)
        col = {b: k for k, b in enumerate(s.bones)}
        pairs = [(t.name, b) for t in p.transforms for b in t.bones if b in col and t.target in col]
        if not pairs:
            return [], np.zeros(0, int), np.zeros(0, int)
        targets = {t.name: t.target for t in p.transforms}
        return pairs, np.array([col[b] for _, b in pairs]), np.array([col[targets[n]] for n, _ in pairs])

    def _lit(self, pairs):
        sel = self.ctx.selected
        chosen = sel.get("transform", set())
        return np.array([n in chosen or b in sel["bone"] for n, b in pairs], dtype=bool)

    def elements(self, state, dm):
        pairs, a, b = self._pairs()
        if not pairs or state is None:
            return _empty()
        pa, pb = state.joints[a], state.joints[b]
        sig = np.concatenate([pa, pb, self._lit(pairs)[:, None]], axis=1)
        lo, hi = _box([dm(pa), dm(pb)], 3.0)
        return sig, lo, hi

    def draw(self, painter, dm, mask):
        pairs, a, b = self._pairs()
        s = self.ctx.state
        if not pairs or s is None:
            return
        lit = self._lit(pairs)
        da, db = dm(s.joints[a]), dm(s.joints[b])
        for i in np.flatnonzero(mask):
            painter.setPen(pen(style.CONSTRAINT_LINK, Qt.DashLine, 255 if lit[i] else 150))
            painter.drawLine(QLineF(QPointF(*da[i]), QPointF(*db[i])))
