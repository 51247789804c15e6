"""A label whose text changes on every drag move or frame without laying the window out
again.

A QLabel asks its parent's layout to run again on every new text (its size hint may
have changed). In the inspector's form that request climbs through the scroll area to
the main window, which lays every dock out again and starts a geometry animation per
dock: 1-2 ms a move, for numbers that fit where they are. :class:`SteadyLabel` holds the
QLabel in a widget without a layout, so the request stops there. The holder asks for
more room at once when the text needs it, and gives room back only after the text has
needed less for ``SHRINK_MS`` (a number that flickers between widths lays nothing out).
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt, QTimer
from PySide6.QtWidgets import QLabel, QWidget

from rigeditor.app.guard import Guarded

SLACK_PX = 1
SHRINK_MS = 1000
"""Milliseconds a label's text must need less room before its holder gives it back."""


class SteadyLabel(Guarded, QWidget):
    """Holds ``label`` (one line of plain text: a word-wrapped label's height follows
    its width, which this holder does not report) filling the holder. Set the text on
    ``label`` as usual; the holder's size hint follows it as described above."""

    def __init__(self, label: QLabel | None = None, parent=None, shrink_ms: int | None = None):
        super().__init__(parent)
        self.label = label if label is not None else QLabel()
        self.label.setParent(self)
        self.label.setTextFormat(Qt.PlainText)  # measured by its advance (see _fits)
        self.setSizePolicy(self.label.sizePolicy())
        self._hint, self._min = self.label.sizeHint(), self.label.minimumSizeHint()
        self._measured = None  # (font and style, text width + the label's margins) of the last full measure
        self._shrink = QTimer(self)
        self._shrink.setSingleShot(True)
        self._shrink.setInterval(int(SHRINK_MS if shrink_ms is None else shrink_ms))
        self._shrink.timeout.connect(lambda: self._settle(shrink=True))

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(self._hint)

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(self._min)

    def resizeEvent(self, event) -> None:  # noqa: N802
        self.label.setGeometry(self.rect())

    def showEvent(self, event) -> None:  # noqa: N802 - text set while hidden posts nothing
        self._settle()

    def event(self, event) -> bool:
        if event.type() == QEvent.LayoutRequest:  # the label's text, font or style changed
            self._settle()
            return True
        return super().event(event)

    def _fits(self) -> bool | None:
        """True when the text fits the room held and takes nearly all of it, False
        when it fits with room to give back, None when only a full measure can tell
        (a selectable QLabel measures through a text document: 0.3 ms; the text's
        advance in the same font and style costs microseconds)."""
        m, lab = self._measured, self.label
        if m is None or m[0] != (lab.font().key(), lab.styleSheet()):
            return None
        need = m[1] + lab.fontMetrics().horizontalAdvance(lab.text())
        if need + SLACK_PX > self._hint.width():
            return None
        return need + 8 > self._hint.width()

    def _settle(self, shrink: bool = False) -> None:
        lab = self.label
        if not shrink:
            fits = self._fits()
            if fits is not None:
                if not fits:
                    self._shrink.start()
                return
        hint, low = lab.sizeHint(), lab.minimumSizeHint()
        self._measured = ((lab.font().key(), lab.styleSheet()),
                          hint.width() - lab.fontMetrics().horizontalAdvance(lab.text()))
        # A pixel more than measured: the advance and the document's measure may round
        # apart by one.
        hint.setWidth(hint.width() + SLACK_PX)
        if not shrink:
            if hint.width() < self._hint.width() or low.width() < self._min.width() \
                    or hint.height() < self._hint.height():
                self._shrink.start()  # (again: the text needed less this time)
            hint, low = hint.expandedTo(self._hint), low.expandedTo(self._min)
        if hint != self._hint or low != self._min:
            self._hint, self._min = hint, low
            self.updateGeometry()
