"""The History dock lists the undo stack's steps as Qt's own QUndoView does, row for
row, and follows a drag's merged steps without laying the whole list out again."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QUndoView

from rigeditor.app.history_view import HistoryView

class Step(QUndoCommand):
    """A step that merges with the one before it when both carry the same ``key``
    (as a drag's moves do), taking the newer text."""

    def __init__(self, text: str, key: int = -1):
        super().__init__(text)
        self.key = key

    def id(self):
        return self.key

    def mergeWith(self, other):
        if other.key != self.key:
            return False
        self.setText(other.text())
        return True

    def redo(self):
        pass

    def undo(self):
        pass


def rows(view) -> list[str]:
    model = view.model()
    return [model.data(model.index(r, 0), Qt.DisplayRole) for r in range(model.rowCount())]


def selected(view) -> list[int]:
    return [i.row() for i in view.selectionModel().selectedRows()]


OPS = st.lists(st.one_of(
    st.tuples(st.just("push"), st.integers(-1, 2)),  # -1: never merges
    st.tuples(st.just("undo"), st.just(0)),
    st.tuples(st.just("redo"), st.just(0)),
    st.tuples(st.just("cancel"), st.just(0)),  # a drag taken back: its step is dropped
    st.tuples(st.just("clear"), st.just(0)),
), max_size=40)


@settings(max_examples=60, deadline=None)
@given(OPS, st.sampled_from([0, 3]))
def test_the_history_shows_what_qts_undo_view_shows_after_any_edits(qapp, ops, limit):
    stack = QUndoStack()
    stack.setUndoLimit(limit)  # (0: none, the editor's; 3: the oldest steps go)
    ours, qts = HistoryView(stack, "(opened)"), QUndoView(stack)
    qts.setEmptyLabel("(opened)")
    for n, (op, key) in enumerate(ops):
        if op == "push":
            stack.push(Step(f"step {n}", key))
        elif op == "undo":
            stack.undo()
        elif op == "redo":
            stack.redo()
        elif op == "cancel" and stack.index() > 0:
            stack.command(stack.index() - 1).setObsolete(True)
            stack.undo()
        elif op == "clear":
            stack.clear()
        assert rows(ours) == rows(qts)
        assert selected(ours) == [stack.index()]


def test_choosing_a_row_goes_back_or_forward_to_that_step(qapp):
    stack = QUndoStack()
    view = HistoryView(stack)
    for k in range(4):
        stack.push(Step(f"move {k}"))
    model = view.model()
    view.selectionModel().setCurrentIndex(model.index(1), view.selectionModel().SelectionFlag.ClearAndSelect)
    assert stack.index() == 1 and stack.text(1) == "move 1"  # two redo steps kept
    assert rows(view)[1:] == ["move 0", "move 1", "move 2", "move 3"]
    view.selectionModel().setCurrentIndex(model.index(0), view.selectionModel().SelectionFlag.ClearAndSelect)
    assert stack.index() == 0
    view.selectionModel().setCurrentIndex(model.index(4), view.selectionModel().SelectionFlag.ClearAndSelect)
    assert stack.index() == 4


def test_a_merged_move_changes_one_row_and_leaves_the_rest_laid_out(qapp):
    stack = QUndoStack()
    view = HistoryView(stack)
    for k in range(300):
        stack.push(Step(f"edit {k}"))
    stack.push(Step("drag 1", key=7))
    model, seen = view.model(), []
    model.modelReset.connect(lambda: seen.append("reset"))
    model.layoutChanged.connect(lambda *a: seen.append("layout"))
    model.rowsInserted.connect(lambda *a: seen.append("inserted"))
    model.dataChanged.connect(lambda a, b, roles: seen.append((a.row(), b.row())))
    stack.push(Step("drag 2", key=7))
    assert seen == [(301, 301)]
    assert rows(view)[-2:] == ["edit 299", "drag 2"]



LIFETIMES = """
import gc
import shiboken6
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QApplication
from rigeditor.app.history_view import HistoryView
app = QApplication([])
for _ in range(3):  # each new pair drops the last: view and stack go in either order
    stack = QUndoStack(); view = HistoryView(stack); stack.push(QUndoCommand("a"))
stack = QUndoStack(); view = HistoryView(stack); stack.push(QUndoCommand("a"))
shiboken6.delete(stack)  # the stack first (its document closed), the dock still shown
assert view.stack() is None and view.model().rowCount() == 2
view.model().index(1, 0).data(); view.grab()
stack = QUndoStack(); view = HistoryView(stack)
shiboken6.delete(view)  # the dock first
stack.push(QUndoCommand("b")); stack.undo()
del stack, view; gc.collect()
print("fine")
"""


def test_the_history_outlives_or_predeceases_its_stack_without_a_crash():
    import os
    import subprocess
    import sys

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    run = subprocess.run([sys.executable, "-c", LIFETIMES], capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 0 and run.stdout.strip() == "fine", run.stderr[-2000:]


def test_an_undo_limit_drops_the_oldest_rows_as_qt_does(qapp):
    stack = QUndoStack()
    stack.setUndoLimit(3)
    ours, qts = HistoryView(stack, "(opened)"), QUndoView(stack)
    qts.setEmptyLabel("(opened)")
    for k in range(5):
        stack.push(Step(f"step {k}"))
        assert rows(ours) == rows(qts)
    assert rows(ours) == ["(opened)", "step 2", "step 3", "step 4"] and selected(ours) == [3]
