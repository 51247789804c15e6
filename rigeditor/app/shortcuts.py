"""Standard shortcuts: every binding the platform has for a standard action, plus the
ones users bring from other platforms (``QKeySequence(StandardKey)`` keeps only the
first: Redo would be Ctrl+Y alone on Linux and Windows, though most editors also take
Ctrl+Shift+Z).

The platform's bindings come first (the first one is what menus show); extras follow
when the platform does not already have them.
"""
from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence

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
