"""The artwork under the rig: every slot's picture at the current frame, in draw order."""
from __future__ import annotations

import numpy as np

from PySide6.QtCore import QPointF, Qt

from rigeditor.app import style
from rigeditor.app.art_paint import ImageCache, draw_art
from rigeditor.app.scene.layers import Layer
from rigeditor.app.scene.paint import pen, polygon


SHAPE_MARGIN = 20.0
"""Device pixels around a shape's vertices that its outline or point marks may cover."""


def mesh_boxes(meshes, dm, d, corners) -> None:
    """Each deformed mesh (slot -> (V, 2) world vertices) gets its own device box in
    ``d`` ((n, 4, 2) device corners) and its look in ``corners`` ((n, 8): vertex min,
    max, sum and sum of squares): all meshes in one pass (a production rig has a dozen
    or more, and per mesh the numpy calls cost more than the sums)."""
    if not meshes:
        return
    slots = list(meshes)
    vertices = [np.asarray(meshes[s], dtype=float) for s in slots]
    counts = np.array([len(v) for v in vertices])
    if not counts.all():  # (reduceat cannot cut an empty run)
        keep = counts > 0
        slots = [s for s, k in zip(slots, keep) if k]
        vertices = [v for v, k in zip(vertices, keep) if k]
        counts = counts[keep]
        if not slots:
            return
    every = np.concatenate(vertices)
    starts = np.concatenate([[0], np.cumsum(counts[:-1])])
    lo, hi = np.minimum.reduceat(every, starts), np.maximum.reduceat(every, starts)
    box = dm(np.concatenate([lo, hi])).reshape(2, len(slots), 2)
    d[slots] = np.stack([box[0], box[1], box[0], box[1]], axis=1)
    corners[slots] = np.concatenate([lo, hi, np.add.reduceat(every, starts),
                                     np.add.reduceat(every * every, starts)], axis=1)


class ArtLayer(Layer):
    """Pictures from the FrameState's ``art`` row (the Bake places them). ``base()``
    gives the project file's folder (None while unsaved: placeholders). ``dim``:
    draw the art faint so bones and overlays read over it."""

    def __init__(self, ctx, z, base):
        super().__init__(ctx, z)
        self.base = base
        self.cache = ImageCache()
        self.dim = False
        self._clip = None  # the rectangles being repainted, while paint_exposed runs

    def elements(self, state, dm):
        row = state.art
        if row is None or not len(row.attachment):
            z = np.zeros((0, 2))
            return np.zeros((0, 1)), z, z
        n = len(row.attachment)
        d = dm(row.corners.reshape(-1, 2)).reshape(n, 4, 2)
        corners = row.corners.reshape(n, 8).copy()
        mesh_boxes(getattr(row, "meshes", {}), dm, d, corners)
        for s, pose in getattr(row, "shapes", {}).items():  # a box, clipping polygon or point: its vertices
            v = pose.vertices(row.index)
            box = dm(np.array([v.min(axis=0), v.max(axis=0)]))
            lo, hi = box.min(axis=0) - SHAPE_MARGIN, box.max(axis=0) + SHAPE_MARGIN  # a point's cross and tick
            d[s] = [lo, hi, lo, hi]
            turn = pose.rotation(row.index) if v.shape[0] == 1 else 0.0
            corners[s] = [*v.min(axis=0), *v.max(axis=0), *v.sum(axis=0), (v * v).sum(), turn]
        place = np.empty(n)
        place[row.order] = np.arange(n)
        slots = self.ctx.project.art.slots if self.ctx.project is not None else ()
        # The attachment's own data (tint, opacity, file) changes the picture too.
        looks = [hash(slots[s].attachments[c]) % 1_000_003 if c >= 0 and s < len(slots) else -1
                 for s, c in enumerate(row.attachment.tolist())]
        shown = getattr(row, "sequence", None)  # a sequence's frame changes the picture in place
        frames = np.full(n, -1.0) if shown is None else np.asarray(shown, dtype=float)
        sig = np.concatenate([corners, row.attachment[:, None], place[:, None],
                              np.array(looks, dtype=float)[:, None], frames[:, None]], axis=1)
        return sig, d.min(axis=1) - 2.0, d.max(axis=1) + 2.0

    def paint_exposed(self, painter, dm, clip) -> None:
        self._clip = clip  # draw() hands it on: a mesh draws only the triangles repainted
        try:
            super().paint_exposed(painter, dm, clip)
        finally:
            self._clip = None

    def draw(self, painter, dm, mask):
        state, project = self.ctx.state, self.ctx.project
        if state.art is None or project is None or len(project.art.slots) != len(state.art.attachment):
            return
        draw_art(painter, project, state.art, dm, self.base(), self.cache, dim=self.dim,
                 slots=set(np.flatnonzero(mask).tolist()), clip=self._clip)
        chosen = self.ctx.selected.get("slot", set())
        painter.setPen(pen(style.SELECTION))
        painter.setBrush(Qt.NoBrush)
        meshes = getattr(state.art, "meshes", {})
        for s in state.art.drawn():
            if mask[s] and project.art.slots[s].name in chosen:
                if s in getattr(state.art, "shapes", {}):  # a box, clipping polygon or point: its vertices
                    v = state.art.shapes[s].vertices(state.art.index)
                    if len(v) > 1:
                        painter.drawPolygon(polygon(dm(v)))
                    else:
                        c = dm(v)[0]
                        painter.drawEllipse(QPointF(float(c[0]), float(c[1])), 8.0, 8.0)
                elif s in meshes:  # a mesh: its deformed outline
                    a = project.art.slots[s].attachments[int(state.art.attachment[s])]
                    painter.drawPolygon(polygon(dm(meshes[s][:a.hull_count()])))
                else:
                    painter.drawPolygon(polygon(dm(state.art.corners[s])))
