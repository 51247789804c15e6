"""Overlays of the meshes at the current frame: the wireframe (with vertex handles
while the mesh or weight tool is on), a heat map of one bone's weights, and the
collapse view (each triangle coloured by its area ratio, deformed over bind).

Which bone the heat map shows: the first selected bone the mesh is weighted to, else
the mesh's first bone. Colours: weights run blue (0) - green - yellow - red (1);
area ratios run green (kept) - yellow - red (below the 30 % collapse line), magenta
where a triangle flipped. The heat map's and the collapse view's captions ("weights:
bone", "worst area N %") are labels of the scene's one label layout, placed among the
targets' and the others' (``labels()``), never over them.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor

from rigeditor.app import style
from rigeditor.app.scene.layers import Layer
from rigeditor.app.scene.paint import Label, pen, polygon
from rigeditor.core.skinning import COLLAPSE_RATIO
from rigeditor.model.data.mesh_attachment import MeshAttachment

WIRE = QColor(235, 240, 255, 150)
HANDLE = QColor(255, 255, 255, 230)
FLIPPED = QColor(230, 60, 230, 200)
_HEAT = np.array([[40, 70, 220], [40, 200, 120], [240, 220, 40], [230, 50, 40]], float)


def heat_color(w: float, alpha: int = 170) -> QColor:
    """Weight in [0, 1] -> blue, green, yellow, red."""
    x = min(max(float(w), 0.0), 1.0) * (len(_HEAT) - 1)
    k = min(int(x), len(_HEAT) - 2)
    c = _HEAT[k] + (x - k) * (_HEAT[k + 1] - _HEAT[k])
    return QColor(int(c[0]), int(c[1]), int(c[2]), alpha)


def ratio_color(r: float, alpha: int = 150) -> QColor:
    """Area ratio -> colour: >= 1 green, falling through yellow to red at the collapse
    line and below; flipped (< 0) magenta."""
    if r < 0:
        return QColor(FLIPPED.red(), FLIPPED.green(), FLIPPED.blue(), alpha + 40)
    x = (min(max(r, COLLAPSE_RATIO), 1.0) - COLLAPSE_RATIO) / (1.0 - COLLAPSE_RATIO)  # 0 at the line, 1 kept
    return heat_color(1.0 - x * 2.0 / 3.0, alpha if r >= COLLAPSE_RATIO else alpha + 60)


def heat_bone(mesh: MeshAttachment, selected_bones) -> int:
    """Index into ``mesh.bones`` of the bone the heat map shows."""
    for b in selected_bones:
        if b in mesh.bones:
            return mesh.bones.index(b)
    return 0


class MeshLayer(Layer):
    """mode: "wire", "weights" or "collapse". doc: the Document (its Bake's meshes)."""

    def __init__(self, ctx, z, doc, mode: str):
        super().__init__(ctx, z)
        self.doc, self.mode = doc, mode
        self.handles = False  # vertex handles (the mesh tool is on)
        self.brush = None  # (world centre, radius in model units): the weight brush's ring

    def _shown(self, state):
        """[(column, MeshAttachment, world vertices (V, 2), MeshPose)] at this frame."""
        row, bake, project = state.art, self.doc.bake, self.ctx.project
        if row is None or bake.art is None or project is None:
            return []
        out = []
        for s, v in getattr(row, "meshes", {}).items():
            code = int(row.attachment[s])
            pose = bake.art.mesh(s, code)
            if pose is None or s >= len(project.art.slots):
                continue
            out.append((s, project.art.slots[s].attachments[code], v, pose))
        return out

    def paint_exposed(self, painter, dm, clip) -> None:
        super().paint_exposed(painter, dm, clip)
        if self.brush is not None:
            centre, radius = self.brush
            c = dm(np.asarray(centre, float)[None])[0]
            painter.setPen(pen(HANDLE))
            painter.setBrush(Qt.NoBrush)
            painter.drawEllipse(QPointF(*c), radius * dm.scale, radius * dm.scale)

    def labels(self):
        """The caption of each mesh this overlay colours, anchored at its topmost vertex
        (for the scene's LabelLayer)."""
        if self.mode == "wire" or not self.isVisible() or self.ctx.state is None:
            return []
        state, out = self.ctx.state, []
        bones = tuple(self.ctx.selected.get("bone", ()))
        for s, m, v, pose in self._shown(state):
            if self.mode == "weights" and m.skinned:
                text = f"weights: {m.bones[heat_bone(m, bones)]}"
            elif self.mode == "collapse":
                text = f"worst area {100 * float(pose.ratios(state.row).min()):.0f} %"
            else:
                continue
            top = v[int(np.argmax(v[:, 1]))]  # model space is y-up; the view only flips it
            out.append(Label(f"{self.mode}:{s}", top, [(text, style.TEXT)], priority=6, gap=8.0,
                             directions=((1, -1), (-1, -1), (0, -1), (1, 1), (-1, 1), (0, 1))))
        return out

    def elements(self, state, dm):
        shown = self._shown(state)
        if not shown:
            z = np.zeros((0, 2))
            return np.zeros((0, 6)), z, z
        bones = tuple(self.ctx.selected.get("bone", ()))
        sig, lo, hi = [], [], []
        for s, m, v, _ in shown:
            d = dm(v)
            sig.append([s, id(m) % 1_000_003, float(v.sum()), float((v * v).sum()),
                        heat_bone(m, bones) if m.skinned else -1, float(self.handles)])
            lo.append(d.min(axis=0) - 40.0)
            hi.append(d.max(axis=0) + 40.0)
        return np.array(sig), np.array(lo), np.array(hi)

    def draw(self, painter, dm, mask):
        shown = self._shown(self.ctx.state)
        bones = tuple(self.ctx.selected.get("bone", ()))
        for k in np.flatnonzero(mask):
            s, m, v, pose = shown[k]
            d = dm(v)
            tris = d[m.triangles]
            coloured = False
            if self.mode == "weights" and m.skinned:
                j = heat_bone(m, bones)
                w = m.dense_weights()[:, j][m.triangles].mean(axis=1)
                painter.setPen(Qt.NoPen)
                for t, wt in zip(tris, w):
                    painter.setBrush(QBrush(heat_color(wt)))
                    painter.drawPolygon(polygon(t))
                coloured = True
            elif self.mode == "collapse":
                r = pose.ratios(self.ctx.state.row)
                painter.setPen(Qt.NoPen)
                for t, rt in zip(tris, r):
                    painter.setBrush(QBrush(ratio_color(rt)))
                    painter.drawPolygon(polygon(t))
                coloured = True
            if self.mode == "wire" or coloured:
                painter.setPen(pen(WIRE, alpha=110 if coloured else None))
                painter.setBrush(Qt.NoBrush)
                e = np.unique(np.sort(np.concatenate([m.triangles[:, [0, 1]], m.triangles[:, [1, 2]],
                                                      m.triangles[:, [2, 0]]]), axis=1), axis=0)
                for a, b in d[e].tolist():
                    painter.drawLine(QPointF(*a), QPointF(*b))
            if self.handles and self.mode == "wire":
                painter.setPen(pen(QColor(20, 20, 20)))
                painter.setBrush(HANDLE)
                for x, y in d.tolist():
                    painter.drawEllipse(QPointF(x, y), 3.0, 3.0)
