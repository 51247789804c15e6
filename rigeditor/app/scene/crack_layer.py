"""The crack overlay: at the current frame, the cells of each joint's crack (where
two rigid pictures open a gap; ``rigeditor.model.diagnostics.cracks``) in red, and its area."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QFont

from rigeditor.app.scene.layers import Layer
from rigeditor.model.diagnostics.cracks import GRID, MIN_AREA, crack_points, joints

CRACK = QColor(255, 60, 60, 200)


class CrackLayer(Layer):
    """doc: the Document (its Bake and project); base(): the project's folder, where
    the pictures' alpha silhouettes are read (missing pictures count as rectangles)."""

    def __init__(self, ctx, z, doc, base):
        super().__init__(ctx, z)
        self.doc, self.base = doc, base
        self._masks_key, self._masks = None, {}
        self._joints_key, self._joints = None, []

    def _masks_for(self, project):
        key = (project.art.slots, self.base())
        if key != self._masks_key:
            from rigeditor.io.art.images import alpha_masks  # Pillow loads only when cracks are shown

            self._masks = alpha_masks(project, key[1]) if key[1] is not None else {}
            self._masks_key = key
        return self._masks

    def cracks(self, state):
        project, bake = self.doc.project, self.doc.bake
        if state.art is None or bake.art is None or len(bake) <= state.row:
            return []
        masks = self._masks_for(project)
        key = (project, bake, self._masks_key)
        if self._joints_key is None or any(a is not b for a, b in zip(key, self._joints_key)):
            # The joints' grids and setup coverage: once per edit, not per frame.
            self._joints, self._joints_key = joints(project, bake, masks), key
        return [(c, p) for c, p in crack_points(project, bake, masks, state.row, self._joints)
                if c.area[0] > MIN_AREA]

    def elements(self, state, dm):
        found = self.cracks(state)
        if not found:
            z = np.zeros((0, 2))
            return np.zeros((0, 3)), z, z
        sig, lo, hi = [], [], []
        for crack, points in found:
            d = dm(points)
            sig.append([crack.area[0], *points.mean(axis=0)])
            lo.append(d.min(axis=0) - 60.0)  # room for the read-out
            hi.append(d.max(axis=0) + 60.0)
        self._found = (id(state), found)
        return np.array(sig), np.array(lo), np.array(hi)

    def draw(self, painter, dm, mask):
        state = self.ctx.state
        found = self._found[1] if getattr(self, "_found", (None,))[0] == id(state) else self.cracks(state)
        painter.setFont(QFont("Sans", 9))
        for k in np.flatnonzero(mask):
            crack, points = found[k]
            d = dm(points)
            size = max(1.5, dm.scale * 2.0 * crack.radius / GRID)  # one sample cell
            painter.setPen(Qt.NoPen)
            painter.setBrush(CRACK)
            for x, y in d:
                painter.drawRect(x - size / 2, y - size / 2, size, size)
            painter.setPen(CRACK)
            corner = d.max(axis=0)
            painter.drawText(QPointF(corner[0] + 4, corner[1] + 4), f"gap {crack.area[0]:.0f} px²")
