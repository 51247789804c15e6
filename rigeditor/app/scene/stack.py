"""The one scene item that paints every layer (see layers.py), under the tool preview."""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem

from rigeditor.app.guard import Guarded
from rigeditor.app.scene.layers import EVERYWHERE, SceneContext, report_paint_error
from rigeditor.app.scene.paint import SMOOTH


class LayerStack(Guarded, QGraphicsItem):
    """The one scene item under the tool preview: paints the visible layers in z order
    (ties in the order given) with one transform set-up for all of them. Ten items
    cost Qt and Python a set-up each on every repaint, more than some layers' drawing;
    each layer still paints inside its own save/restore, and a failing layer is
    reported (``report_paint_error``) without stopping the others."""

    def __init__(self, ctx: SceneContext, layers):
        super().__init__()
        self.ctx = ctx
        self.layers = sorted(layers, key=lambda layer: layer.zValue())
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.setFlag(QGraphicsItem.ItemUsesExtendedStyleOption, True)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return EVERYWHERE

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if self.ctx.state is None:
            return
        t = painter.worldTransform()
        dm = self.ctx.device_map(t)
        clip = self.ctx.exposed  # the repainted rectangles (several, after a drag's damage)
        if clip is None:  # (painted outside the view's paint event): their bounding rectangle
            r = t.mapRect(option.exposedRect)
            clip = (r.left() - 1, r.top() - 1, r.right() + 1, r.bottom() + 1)
        painter.save()
        try:
            painter.resetTransform()
            painter.setRenderHint(SMOOTH, True)
            for layer in self.layers:
                if not layer.isVisible():
                    continue
                painter.save()
                try:
                    layer.paint_exposed(painter, dm, clip)
                except Exception:  # noqa: BLE001 - see report_paint_error
                    report_paint_error(type(layer).__name__)
                finally:
                    painter.restore()
        finally:
            painter.restore()
