"""The one undo command of the editor: swap the whole (immutable) project."""
from __future__ import annotations

from typing import Protocol

from PySide6.QtGui import QUndoCommand

from rigeditor.app.guard import Guarded
from rigeditor.model import Bake, Project


class Holder(Protocol):
    """What a command swaps the project in: the Document (which pushes the commands, so
    this module does not import it)."""

    def _set_project(self, project: Project, touched) -> None: ...

    def _swap(self, project: Project, bake: Bake, touched) -> None: ...


class ProjectCommand(Guarded, QUndoCommand):
    """Swap the whole project: redo sets ``after``, undo sets ``before``.

    Projects are immutable, so keeping both is cheap (they share every unchanged
    item). ``touched``: items changed ("target:NAME", "chain:NAME") for an
    incremental re-evaluation; None means anything may have changed.
    ``merge_key``: consecutive commands with the same key merge into one undo step
    (a whole drag, repeated edits of one field).
    """

    _ID = 0x5167

    def __init__(self, doc: Holder, label: str, before: Project, after: Project,
                 touched=None, merge_key=None, bake: Bake | None = None):
        super().__init__(label)
        self.doc, self.before, self.after = doc, before, after
        self.touched = None if touched is None else set(touched)
        self.merge_key = merge_key
        self._first_bake = bake  # ``after`` evaluated before the push: the first redo swaps it in

    def id(self) -> int:  # noqa: A003 - Qt's name
        return self._ID if self.merge_key is not None else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, ProjectCommand) or other.merge_key != self.merge_key:
            return False
        self.after = other.after
        self.touched = None if self.touched is None or other.touched is None else self.touched | other.touched
        return True

    def redo(self) -> None:
        bake, self._first_bake = self._first_bake, None
        if bake is not None:
            self.doc._swap(self.after, bake, self.touched)
        else:
            self.doc._set_project(self.after, self.touched)

    def undo(self) -> None:
        self.doc._set_project(self.before, self.touched)
