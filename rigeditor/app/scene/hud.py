"""Widgets fixed in the scene's corners (they do not pan or zoom): the mode and frame,
and the jitter legend. Children of the view, not of its viewport, so scrolling the
viewport never drags them along."""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QLinearGradient, QPainter
from PySide6.QtWidgets import QWidget

from rigeditor.app.guard import Guarded
from rigeditor.app import style
from rigeditor.app.scene.layers import report_paint_error
from rigeditor.app.scene.paint import label_font

MARGIN = 10


class _Corner(Guarded, QWidget):
    """Opaque on purpose: a see-through widget over the viewport makes every change
    of its text repaint the scene under it."""

    def __init__(self, view):
        super().__init__(view)
        self.view = view
        self.setAttribute(Qt.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WA_OpaquePaintEvent)
        self.setFont(label_font())

    NAME = "corner"  # in paint error reports

    def place(self) -> None:
        raise NotImplementedError

    def paintEvent(self, event):  # noqa: N802
        p = QPainter(self)
        try:
            self._paint(p)
        except Exception:  # noqa: BLE001 - see report_paint_error
            report_paint_error(self.NAME)
        finally:
            p.end()

    def _paint(self, p: QPainter) -> None:
        raise NotImplementedError


class Hud(_Corner):
    """Top left: the mode (ANIMATE keys every drag, SETUP edits the rest pose) and
    the current frame."""

    NAME = "hud"

    def __init__(self, view):
        super().__init__(view)
        self.mode, self.frame = "animate", 0
        self.resize(180, 24)

    def set_text(self, mode: str, frame: int) -> None:
        self.mode, self.frame = mode, frame
        fm = QFontMetricsF(self.font())
        self.resize(int(fm.horizontalAdvance(self._text()) + 30), int(fm.height() + 8))
        self.place()
        self.update()

    def _text(self) -> str:
        return f"{self.mode.upper()}   frame {self.frame}"

    def place(self) -> None:
        self.move(MARGIN, MARGIN)
        self.raise_()

    def _paint(self, p: QPainter) -> None:
        p.fillRect(self.rect(), style.HUD_BACKGROUND)
        p.setRenderHint(QPainter.Antialiasing)
        dot = style.MODE_COLORS.get(self.mode, style.TEXT)
        p.setBrush(dot)
        h = self.height()
        p.drawEllipse(QPointF(12, h / 2), 4, 4)
        p.setPen(style.TEXT)
        p.drawText(QRectF(22, 0, self.width() - 22, h), Qt.AlignVCenter | Qt.AlignLeft, self._text())


class JitterLegend(_Corner):
    """Bottom left: the jitter colour scale, degrees of joint rotation per unit of
    target motion, from safe (SENSITIVITY_SAFE_DEG) to danger (SENSITIVITY_DANGER_DEG)
    on the same log scale as style.sensitivity_color."""

    NAME = "legend"

    def __init__(self, view):
        super().__init__(view)
        self.resize(210, 50)

    def place(self) -> None:
        vp = self.view.viewport().geometry()
        self.move(vp.left() + MARGIN, vp.bottom() - self.height() - MARGIN)
        self.raise_()

    def _paint(self, p: QPainter) -> None:
        p.fillRect(self.rect(), style.HUD_BACKGROUND)
        p.setRenderHint(QPainter.Antialiasing)
        fm = QFontMetricsF(self.font())
        p.setPen(style.TEXT)
        p.drawText(QPointF(8, 4 + fm.ascent()), "elbow jitter  (° per unit)")
        bar = QRectF(8, 8 + fm.height(), self.width() - 16, 7)
        lo, hi = math.log(style.SENSITIVITY_SAFE_DEG), math.log(style.SENSITIVITY_DANGER_DEG)
        grad = QLinearGradient(bar.topLeft(), bar.topRight())
        for i in range(9):
            t = i / 8
            grad.setColorAt(t, style.sensitivity_color(math.exp(lo + t * (hi - lo))))
        p.setPen(Qt.NoPen)
        p.setBrush(grad)
        p.drawRoundedRect(bar, 3, 3)
        p.setPen(QColor(style.TEXT))
        y = bar.bottom() + 3 + fm.ascent()
        safe = f"{style.SENSITIVITY_SAFE_DEG:g} safe"
        danger = f"{style.SENSITIVITY_DANGER_DEG:g}+ danger"
        p.drawText(QPointF(bar.left(), y), safe)
        p.drawText(QPointF(bar.right() - fm.horizontalAdvance(danger), y), danger)
