"""Standard shortcuts: every binding the platform has for a standard action, plus the
ones users bring from other platforms (``QKeySequence(StandardKey)`` keeps only the
first: Redo would be Ctrl+Y alone on Linux and Windows, though most editors also take
Ctrl+Shift+Z).

The platform's bindings come first (the first one is what menus show); extras follow
when the platform does not already have them.

Keys over number fields: a spin box claims every printable key before the window's
shortcuts (its line edit would type it), even a letter it then refuses, so K, B, V...
did nothing while a number field had the focus. :class:`KeysOverNumbers` lets a
shortcut have any key the focused spin box would refuse; a field where the key can
be typed (a digit, a minus, a name field) keeps it.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence, QValidator
from PySide6.QtWidgets import QAbstractSpinBox

from rigeditor.app.guard import Guarded

K = QKeySequence.StandardKey

EXTRAS = {
    K.Redo: ("Ctrl+Shift+Z", "Ctrl+Y"),
    K.Undo: ("Ctrl+Z",),
    K.Quit: ("Ctrl+Q",),  # Windows has no standard Quit key; every other platform uses this
    K.SaveAs: ("Ctrl+Shift+S",),  # none on Windows either
    K.New: ("Ctrl+N",),
    K.Open: ("Ctrl+O",),
    K.Save: ("Ctrl+S",),
    K.Delete: ("Del",),
    K.SelectAll: ("Ctrl+A",),
}


def standard_shortcuts(key: QKeySequence.StandardKey) -> list[QKeySequence]:
    """The platform's bindings for ``key``, then the usual extras it lacks (no repeats)."""
    out: list[QKeySequence] = []
    for seq in [*QKeySequence.keyBindings(key), *(QKeySequence(s) for s in EXTRAS.get(key, ()))]:
        if not seq.isEmpty() and seq not in out:
            out.append(seq)
    return out


def set_standard_shortcuts(action: QAction, key: QKeySequence.StandardKey) -> QAction:
    """Give ``action`` every binding of ``key`` (see :func:`standard_shortcuts`)."""
    action.setShortcuts(standard_shortcuts(key))
    return action


class KeysOverNumbers(Guarded, QObject):
    """Event filter of the application for the spin boxes of ``window``: a key that
    the focused spin box cannot take as text goes to the shortcuts. What was typed
    into the field first is committed (as Enter would), so K keys the value shown."""

    def __init__(self, window):
        super().__init__(window)
        self._window = window

    def eventFilter(self, obj, event):  # noqa: N802 - Qt's name
        if event.type() != QEvent.ShortcutOverride:
            return False
        spin = obj if isinstance(obj, QAbstractSpinBox) else obj.parent()
        if not isinstance(spin, QAbstractSpinBox) or obj not in (spin, spin.lineEdit()) \
                or spin.window() is not self._window:
            return False
        text = event.text()
        if not text or not text.isprintable() or event.modifiers() & ~(Qt.ShiftModifier | Qt.KeypadModifier):
            return False
        if _typeable(spin, text):
            return False
        spin.interpretText()
        event.ignore()  # unclaimed: the shortcut map goes on to the window's actions
        return True


def _typeable(spin: QAbstractSpinBox, text: str) -> bool:
    """Whether typing ``text`` at the caret of ``spin`` gives text its validator takes
    (whole or on the way to a number)."""
    edit = spin.lineEdit()
    current, pos = edit.text(), edit.cursorPosition()
    if edit.hasSelectedText():
        start = edit.selectionStart()
        current = current[:start] + current[start + len(edit.selectedText()):]
        pos = start
    candidate = current[:pos] + text + current[pos:]
    state = spin.validate(candidate, pos + len(text))
    state = state[0] if isinstance(state, tuple) else state
    return state != QValidator.State.Invalid
