"""What a tool shows before it edits: the bone being drawn and the bone it will hang
from (highlighted), and
the ring on a bone's tip that a press there would grab (the bone tool's snap, Setup
mode's tip drag).

One QGraphicsItem above the layers, painting in device pixels like them. The view
writes ``bone`` / ``ring`` and repaints the boxes ``damage()`` gives for the old and
the new picture; nothing here is kept in the Document.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFontMetricsF, QPainter
from PySide6.QtWidgets import QGraphicsItem

from rigeditor.app.guard import Guarded
from rigeditor.app import style
from rigeditor.app.scene.layers import BONE_MAX_PX, EVERYWHERE, bone_outline, report_paint_error
from rigeditor.app.scene.paint import DeviceMap, faded, format_units, label_font, pen, polygon, pt

RING_RADIUS_PX = style.HANDLE_RADIUS_PX  # a press this close to a tip grabs it
LABEL_GAP_PX = 10.0
PARENT_GROW_PX = 5.0  # the parent-to-be's highlight reaches this far beyond its outline


class ToolPreview(Guarded, QGraphicsItem):
    """``bone``: None or (start_world, end_world, snapped, length_units) — the bone
    the bone tool would make (snapped: it starts on a parent's tip).
    ``ring``: None or a bone name: a ring on that bone's tip, read from the
    context's FrameState when painted, so it rides the tip during a drag.
    ``parent``: None or the name of the bone the drawn bone will hang from,
    highlighted in PARENT."""

    def __init__(self, ctx, z: float):
        super().__init__()
        self.ctx = ctx
        self.bone = None
        self.ring = None
        self.parent = None
        self.setZValue(z)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self._metrics = QFontMetricsF(label_font())

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return EVERYWHERE

    # ------------------------------------------------------------------ geometry
    def _ring_world(self):
        s, st = self.ctx.state, self.ctx.structure
        if self.ring is None or s is None or st is None or self.ring not in st.bones:
            return None
        return s.tips[st.bones.index(self.ring)]

    def _parent_px(self, dm):
        """Device (joint, tip) of the parent-to-be, or None."""
        s, st = self.ctx.state, self.ctx.structure
        if self.parent is None or s is None or st is None or self.parent not in st.bones:
            return None
        k = st.bones.index(self.parent)
        return dm(s.joints[k]), dm(s.tips[k])

    def _label(self, d0, d1):
        """(text, QRectF) of the length label, beyond the end of the drawn bone."""
        text = f"{format_units(self.bone[3])} u"
        w, h = self._metrics.horizontalAdvance(text) + 8.0, self._metrics.height() + 4.0
        v = d1 - d0
        n = float(np.hypot(*v))
        u = v / n if n > 1e-9 else np.array([1.0, 0.0])
        c = d1 + u * (LABEL_GAP_PX + 0.5 * max(w * abs(u[0]), h * abs(u[1])))
        return text, QRectF(c[0] - w / 2, c[1] - h / 2, w, h)

    def damage(self, dm: DeviceMap) -> np.ndarray:
        """Device boxes (K, 4) x0, y0, x1, y1 of everything this item paints now."""
        boxes = []
        if self.bone is not None:
            d0, d1 = dm(self.bone[0]), dm(self.bone[1])
            pad = BONE_MAX_PX + RING_RADIUS_PX + 4.0
            lo, hi = np.minimum(d0, d1) - pad, np.maximum(d0, d1) + pad
            boxes.append([lo[0], lo[1], hi[0], hi[1]])
            _, r = self._label(d0, d1)
            boxes.append([r.left() - 2, r.top() - 2, r.right() + 2, r.bottom() + 2])
        w = self._ring_world()
        if w is not None:
            c, r = dm(w), RING_RADIUS_PX + 3.0
            boxes.append([c[0] - r, c[1] - r, c[0] + r, c[1] + r])
        p = self._parent_px(dm)
        if p is not None:
            pad = BONE_MAX_PX + PARENT_GROW_PX + 3.0
            lo, hi = np.minimum(*p) - pad, np.maximum(*p) + pad
            boxes.append([lo[0], lo[1], hi[0], hi[1]])
        return np.array(boxes, float).reshape(-1, 4)

    # ------------------------------------------------------------------ painting
    def paint(self, painter: QPainter, option, widget=None) -> None:
        if self.bone is None and self.ring is None and self.parent is None:
            return
        dm = DeviceMap(painter.worldTransform())
        painter.save()
        try:
            painter.resetTransform()
            painter.setRenderHint(QPainter.Antialiasing, True)
            self._paint_parent(painter, dm)
            w = self._ring_world()
            if w is not None:
                c = pt(dm(w))
                painter.setBrush(Qt.NoBrush)  # the joint's own dot stays readable inside
                painter.setPen(pen(style.SELECTION))
                for r in (RING_RADIUS_PX, RING_RADIUS_PX + 1.0):  # two 1-px rings: see paint.py
                    painter.drawEllipse(c, r, r)
            if self.bone is not None:
                self._paint_bone(painter, dm)
        except Exception:  # noqa: BLE001 - see report_paint_error
            report_paint_error(type(self).__name__)
        finally:
            painter.restore()

    def _paint_parent(self, painter, dm) -> None:
        p = self._parent_px(dm)
        if p is None:
            return
        d0, d1 = p
        halo, _ = bone_outline(d0[None], d1[None], grow=PARENT_GROW_PX)
        painter.setBrush(faded(style.PARENT, 70))
        painter.setPen(pen(style.PARENT))
        painter.drawPolygon(polygon(halo[0]))

    def _paint_bone(self, painter, dm) -> None:
        start, end, snapped, _ = self.bone
        d0, d1 = dm(start), dm(end)
        shapes, length = bone_outline(d0[None], d1[None])
        if length[0] >= 3.0:
            painter.setPen(pen(style.SELECTION))
            painter.setBrush(faded(style.BONE_FK, 110))
            painter.drawPolygon(polygon(shapes[0]))
            painter.setPen(pen(style.SELECTION, Qt.DashLine))
            painter.drawLine(pt(d0), pt(d1))
        r = style.JOINT_RADIUS_PX
        painter.setPen(pen(style.BONE_OUTLINE))
        painter.setBrush(style.SELECTION if snapped else style.TEXT)
        painter.drawEllipse(pt(d0), r, r)
        painter.setBrush(style.TEXT)
        painter.drawEllipse(pt(d1), r * 0.6, r * 0.6)
        if length[0] >= 3.0:
            text, rect = self._label(d0, d1)
            painter.setPen(Qt.NoPen)
            painter.setBrush(style.LABEL_BACKGROUND)
            painter.drawRoundedRect(rect, 4.0, 4.0)
            painter.setFont(label_font())
            painter.setPen(style.TEXT)
            painter.drawText(rect, Qt.AlignCenter, text)
