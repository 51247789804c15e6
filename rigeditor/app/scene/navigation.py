"""Camera of the scene view: y-up transform, zoom at the cursor, pan, framing.

A mixin for SceneView (a QGraphicsView): the view's transform is a uniform scale with
y flipped; panning moves the (hidden) scroll bars over a very large scene rect.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF
from PySide6.QtGui import QTransform

SCENE_EXTENT = 1.0e5  # model units each side of the origin the view can pan to
MIN_ZOOM, MAX_ZOOM = 0.01, 60.0  # pixels per model unit
WHEEL_STEP = 1.2  # zoom factor per wheel notch
FRAME_MARGIN = 1.25  # framed content fills 1/1.25 of the view


class NavigationMixin:
    """Needs from the view: ``doc``, ``ctx`` (SceneContext), ``_scale``,
    ``_auto_frame``, ``_repaint_all()``, ``_frame_top()`` (viewport pixels kept free
    at the top when framing) and the ``zoomChanged`` signal."""

    def map_to_viewport(self, world) -> QPointF:
        """Viewport pixel position (float) of a model-space point."""
        return self.viewportTransform().map(QPointF(float(world[0]), float(world[1])))

    def map_from_viewport(self, pos) -> np.ndarray:
        """Model-space point under a viewport pixel position."""
        inv, _ = self.viewportTransform().inverted()
        p = inv.map(QPointF(pos))
        return np.array([p.x(), p.y()])

    @property
    def px_per_unit(self) -> float:
        """Current zoom: pixels per model unit."""
        return self._scale

    def zoom_by(self, factor: float, anchor: QPointF | None = None) -> None:
        """Zoom by ``factor`` keeping the model point under viewport ``anchor``
        (default: the centre) where it is (to the pixel: panning is by whole pixels)."""
        anchor = QPointF(anchor) if anchor is not None else QPointF(self.viewport().rect().center())
        before = self.map_from_viewport(anchor)
        self._apply_zoom(self._scale * factor)
        after = self.map_to_viewport(before)
        self._scroll_by(after.x() - anchor.x(), after.y() - anchor.y())
        self._auto_frame = False

    def pan_by(self, dx: float, dy: float) -> None:
        """Move the picture by (dx, dy) viewport pixels (the content follows the hand)."""
        self._scroll_by(-dx, -dy)
        self._auto_frame = False

    def frame_all(self) -> None:
        """Fit the whole animation (every frame's bones, targets and pictures) in the view."""
        bake = self.doc.range_bake
        parts = [np.empty((0, 2))] + [p for b in bake.bone_bakes for p in (b.joint, b.tip)]
        parts += [cb.target_world for cb in bake.chains.values()]
        if bake.art is not None:  # the pictures of every frame too
            parts.append(bake.art.corners[bake.art.attachment >= 0].reshape(-1, 2))
        if self.ctx.state is not None and self.ctx.state.handle.size:
            parts.append(self.ctx.state.handle)
        if self.ctx.state is not None:  # the paths shown at this frame
            parts += [pts for _, pts in self.ctx.state.paths]
        self._frame_points(np.concatenate(parts))

    def frame_selection(self) -> None:
        """Fit the selected bones, targets, chains and slots (their pictures) at the
        current frame (all if none)."""
        s, st, sel = self.ctx.state, self.ctx.structure, self.ctx.selected
        if s is None:
            return
        chains = set(sel["chain"])
        pts = []
        for k, name in enumerate(st.bones):
            if name in sel["bone"] or st.chain_of_bone.get(name) in chains:
                pts += [s.joints[k], s.tips[k]]
        targets = set(sel["target"]) | {c.target for c in self.doc.project.chains if c.name in chains}
        pts += [s.handle[j] for j, name in enumerate(s.targets) if name in targets]
        if s.art is not None and sel.get("slot"):  # the selected slots' pictures
            names = self.doc.bake.art.slots
            pts += [p for k in s.art.drawn() if names[k] in sel["slot"] for p in s.art.corners[k]]
        if not pts:
            self.frame_all()
            return
        everything = s.bounds()
        least = 0.25 * float(np.max(everything[1] - everything[0])) if everything is not None else 100.0
        self._frame_points(np.array(pts), least=max(least, 1e-3))

    def wheelEvent(self, event):  # noqa: N802 - Qt's name
        steps = event.angleDelta().y() / 120.0
        if steps == 0:
            steps = event.pixelDelta().y() / 60.0  # touchpads
        if steps:
            self.zoom_by(WHEEL_STEP ** steps, event.position())
        event.accept()

    # ------------------------------------------------------------------ internals
    def _apply_zoom(self, scale: float) -> None:
        self._scale = float(min(max(scale, MIN_ZOOM), MAX_ZOOM))
        self.setTransform(QTransform.fromScale(self._scale, -self._scale))
        self._repaint_all()
        self.zoomChanged.emit(self._scale)

    def _scroll_by(self, dx: float, dy: float) -> None:
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        h.setValue(h.value() + int(round(dx)))
        v.setValue(v.value() + int(round(dy)))

    def _frame_points(self, pts: np.ndarray, least: float = 1.0) -> None:
        pts = pts[np.all(np.isfinite(pts), axis=1)] if pts.size else pts
        if not pts.size:
            lo, hi = np.array([-100.0, -100.0]), np.array([100.0, 100.0])
        else:
            lo, hi = pts.min(axis=0), pts.max(axis=0)
        size = np.maximum(hi - lo, least)
        top = self._frame_top()
        vw, vh = max(self.viewport().width(), 50), max(self.viewport().height() - top, 50)
        self._apply_zoom(min(vw / (size[0] * FRAME_MARGIN), vh / (size[1] * FRAME_MARGIN)))
        c = (lo + hi) / 2
        self.centerOn(QPointF(float(c[0]), float(c[1])))
        self._scroll_by(0.0, -top / 2)  # the centre of the room below ``top``
        self._repaint_all()
        self._auto_frame = False
