"""The History dock: the undo stack's steps a row each, below the opened project's
row; the current step is selected, and selecting a row goes back or forward to it.

Qt's QUndoView resets its whole model whenever the stack's index signal fires, and a
drag's merged push fires it on every mouse move, so a long history was laid out afresh
each move (500 steps: 2.4 ms a move, the dock hidden or not). This model follows the
stack row by row instead: a merge changes its one row, a push inserts one (dropping
the redo rows it replaces), an undo or redo only moves the selection."""
from __future__ import annotations

import weakref

from PySide6.QtCore import QAbstractListModel, QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QAbstractItemView, QListView
from shiboken6 import isValid

from rigeditor.app.guard import Guarded


class HistoryModel(Guarded, QAbstractListModel):
    """Row 0 the opened project (``empty_label``), row k the stack's step k - 1.
    ``currentMoved(row)``: the stack's current row after every change."""

    currentMoved = Signal(int)

    def __init__(self, stack: QUndoStack, empty_label: str = "", parent=None):
        super().__init__(parent)
        # Weakly: a model holding its stack would destroy it while being destroyed
        # itself, and the stack's destructor signals the half-gone model (a crash).
        self._stack = weakref.ref(stack)
        self._empty = empty_label
        self._texts = [stack.text(k) for k in range(stack.count())]
        self._index = stack.index()
        stack.indexChanged.connect(self._follow)

    def stack(self) -> QUndoStack | None:
        """The stack followed; None once it is gone."""
        stack = self._stack()
        return stack if stack is not None and isValid(stack) else None

    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self._texts) + 1

    def data(self, index, role=Qt.DisplayRole):
        if role != Qt.DisplayRole or not index.isValid():
            return None
        row = index.row()
        if row == 0:
            return self._empty
        return self._texts[row - 1] if row <= len(self._texts) else None

    def _follow(self, index: int) -> None:
        """Bring the rows up to the stack. Steps before the older of the previous and
        the new current step are as they were: an undo or redo changes no text, a push
        replaces the steps from the current one on, and a merge changes the step just
        before the current one."""
        stack = self.stack()
        if stack is None:  # (a stack being destroyed clears itself, signalling)
            return
        start = max(0, min(self._index, index) - 1)
        if start > stack.count() or start > len(self._texts):  # (cleared, or obsolete steps dropped)
            start = 0
        if start and self._texts and stack.text(0) != self._texts[0]:
            # The oldest steps went (an undo limit drops them, with the index the same):
            # everything moved up, so the rows are read again.
            self.beginResetModel()
            self._texts = [stack.text(k) for k in range(stack.count())]
            self._index = index
            self.endResetModel()
            self.currentMoved.emit(index)
            return
        now = [stack.text(k) for k in range(start, stack.count())]
        before = self._texts[start:]
        for k in range(min(len(now), len(before))):
            if now[k] != before[k]:
                self._texts[start + k] = now[k]
                row = self.index(start + k + 1)
                self.dataChanged.emit(row, row, [Qt.DisplayRole])
        old = len(self._texts)
        new = start + len(now)
        if new > old:
            self.beginInsertRows(QModelIndex(), old + 1, new)
            self._texts.extend(now[old - start:])
            self.endInsertRows()
        elif new < old:
            self.beginRemoveRows(QModelIndex(), new + 1, old)
            del self._texts[new:]
            self.endRemoveRows()
        self._index = index
        self.currentMoved.emit(index)


class HistoryView(Guarded, QListView):
    """The list of steps over ``stack``; ``stack()`` as QUndoView's."""

    def __init__(self, stack: QUndoStack, empty_label: str = "(opened)", parent=None):
        super().__init__(parent)
        self._model = HistoryModel(stack, empty_label, self)
        self.setModel(self._model)
        self.setSelectionMode(QAbstractItemView.SingleSelection)
        self.setUniformItemSizes(True)  # one row height for all: no row is measured on its own
        self._following = False
        self._model.currentMoved.connect(self._show_current)
        self.selectionModel().currentRowChanged.connect(self._go_to)
        self._show_current(stack.index())

    def stack(self) -> QUndoStack | None:
        return self._model.stack()

    def _show_current(self, row: int) -> None:
        index = self._model.index(row)
        if self.selectionModel().isRowSelected(row) and self.currentIndex() == index:
            return  # (a merged move: the same row stays current, and in view)
        self._following = True
        try:
            self.selectionModel().setCurrentIndex(index, QItemSelectionModel.ClearAndSelect)
        finally:
            self._following = False
        if self.isVisible():  # (scrolling lays the rows out: a hidden dock scrolls when shown)
            self.scrollTo(index)

    def showEvent(self, event):
        super().showEvent(event)
        self.scrollTo(self.currentIndex())

    def _go_to(self, current: QModelIndex, _previous=None) -> None:
        stack = self._model.stack()
        if not self._following and stack is not None and current.isValid() and current.row() != stack.index():
            stack.setIndex(current.row())
