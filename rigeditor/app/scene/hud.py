"""Widgets fixed in the scene's corners (they do not pan or zoom): the mode and frame,
and the jitter legend (which the user can fold or move to another corner). Children of the view, not of its viewport, so scrolling the
viewport never drags them along."""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QLinearGradient, QPainter
from PySide6.QtWidgets import QApplication, QWidget

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
    """The jitter colour scale, degrees of joint rotation per unit of target motion,
    from safe (SENSITIVITY_SAFE_DEG) to danger (SENSITIVITY_DANGER_DEG) on the same log
    scale as style.sensitivity_color.

    Small, in a corner of the view (bottom left at first). A click on its title folds
    it to that one line and back; a drag moves it, and where it is dropped it stays
    anchored to the nearest corner of the view (the same distance from both edges
    when the view is resized).
    """

    NAME = "legend"
    TITLE = "elbow jitter"
    UNIT = "(° per unit)"
    WIDTH = 176  # px, unfolded

    def __init__(self, view):
        super().__init__(view)
        self.setAttribute(Qt.WA_TransparentForMouseEvents, False)
        self.setCursor(Qt.OpenHandCursor)
        self.setToolTip("Jitter colours of the elbows. Click the title to fold it; drag to move it.")
        self.collapsed = False
        self.corner = ("bottom", "left")  # the view corner it is anchored to
        self.offset = (MARGIN, MARGIN)  # px from that corner's side and top/bottom edge
        self._press = None  # (global pointer, widget position) at the press
        self._dragging = False
        self._fit()

    # ------------------------------------------------------------------ state
    def set_collapsed(self, collapsed: bool) -> None:
        self.collapsed = bool(collapsed)
        self._fit()
        self.place()
        self.update()

    def state(self) -> str:
        """Folded, corner and offset as text (for the settings), e.g. "0 bottom left 10 10"."""
        return f"{int(self.collapsed)} {self.corner[0]} {self.corner[1]} {self.offset[0]} {self.offset[1]}"

    def restore(self, text) -> bool:
        """Take a :meth:`state` back; anything else is ignored (returns False)."""
        try:
            folded, edge, side, dx, dy = str(text).split()
            dx, dy = int(dx), int(dy)
        except (TypeError, ValueError):
            return False
        if folded not in ("0", "1") or edge not in ("top", "bottom") or side not in ("left", "right") \
                or not (0 <= dx <= 10_000 and 0 <= dy <= 10_000):
            return False
        self.corner, self.offset = (edge, side), (dx, dy)
        self.set_collapsed(folded == "1")
        return True

    def title_rect(self) -> QRectF:
        """The clickable title line, in the widget's pixels."""
        return QRectF(0, 0, self.width(), QFontMetricsF(self.font()).height() + 8)

    def _fit(self) -> None:
        fm = QFontMetricsF(self.font())
        if self.collapsed:
            self.resize(int(fm.horizontalAdvance(f"\u25b8 {self.TITLE}") + 18), int(fm.height() + 8))
        else:
            self.resize(self.WIDTH, int(2 * fm.height() + 22))

    def place(self) -> None:
        vp = self.view.viewport().geometry()
        w, h = self.width(), self.height()
        dx, dy = self.offset
        x = vp.left() + dx if self.corner[1] == "left" else vp.right() + 1 - w - dx
        y = vp.top() + dy if self.corner[0] == "top" else vp.bottom() + 1 - h - dy
        self.move(*self._clamped(x, y))
        self.raise_()

    def _clamped(self, x: float, y: float) -> tuple[int, int]:
        vp = self.view.viewport().geometry()
        x = min(max(x, vp.left()), max(vp.right() + 1 - self.width(), vp.left()))
        y = min(max(y, vp.top()), max(vp.bottom() + 1 - self.height(), vp.top()))
        return int(round(x)), int(round(y))

    def _anchor_here(self) -> None:
        """Anchor to the view corner nearest the legend's centre, keeping its place."""
        vp = self.view.viewport().geometry()
        g = self.geometry()
        side = "left" if g.center().x() < vp.center().x() else "right"
        edge = "top" if g.center().y() < vp.center().y() else "bottom"
        dx = g.left() - vp.left() if side == "left" else vp.right() - g.right()
        dy = g.top() - vp.top() if edge == "top" else vp.bottom() - g.bottom()
        self.corner, self.offset = (edge, side), (dx, dy)

    # ------------------------------------------------------------------ mouse
    def mousePressEvent(self, event):  # noqa: N802
        if event.button() == Qt.LeftButton:
            self._press = (event.globalPosition(), self.pos())
            self._dragging = False
        event.accept()

    def mouseMoveEvent(self, event):  # noqa: N802
        if self._press is not None:
            start, at = self._press
            d = event.globalPosition() - start
            if not self._dragging and abs(d.x()) + abs(d.y()) >= QApplication.startDragDistance():
                self._dragging = True
                self.setCursor(Qt.ClosedHandCursor)
            if self._dragging:
                self.move(*self._clamped(at.x() + d.x(), at.y() + d.y()))
        event.accept()

    def mouseReleaseEvent(self, event):  # noqa: N802
        if self._press is not None and event.button() == Qt.LeftButton:
            if self._dragging:
                self._anchor_here()
                self.setCursor(Qt.OpenHandCursor)
            elif self.title_rect().contains(event.position()):
                self.set_collapsed(not self.collapsed)
            self._press, self._dragging = None, False
        event.accept()

    def mouseDoubleClickEvent(self, event):  # noqa: N802
        event.accept()  # not the scene's (a double click there selects a chain)

    # ------------------------------------------------------------------ paint
    def _paint(self, p: QPainter) -> None:
        p.fillRect(self.rect(), style.HUD_BACKGROUND)
        p.setRenderHint(QPainter.Antialiasing)
        fm = QFontMetricsF(self.font())
        p.setPen(style.TEXT)
        base = 4 + fm.ascent()
        arrow = "\u25b8" if self.collapsed else "\u25be"
        p.drawText(QPointF(8, base), f"{arrow} {self.TITLE}")
        if self.collapsed:
            return
        p.setPen(style.HINT_TEXT)
        p.drawText(QPointF(self.width() - 8 - fm.horizontalAdvance(self.UNIT), base), self.UNIT)
        bar = QRectF(8, 8 + fm.height(), self.width() - 16, 6)
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
