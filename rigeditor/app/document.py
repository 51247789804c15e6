"""The Document: owns the Project, the undo stack and the cached Bake.

Views never write the Project: they build a new Project and hand it to
:meth:`Document.apply`, which pushes an undoable command. Every change of project
re-evaluates (incrementally when the command says what it touched) and emits
``bakeChanged``; views redraw from the Bake.

Evaluation comes first, the swap after: a project that cannot be evaluated is
refused (``refused`` carries the message) and the project, the undo stack and the
views stay as they were. The same holds for opening another project.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from rigeditor.app.guard import Guarded
from rigeditor.model import Bake, Project, evaluate

MODES = ("setup", "animate")


class ProjectCommand(Guarded, QUndoCommand):
    """Swap the whole project: redo sets ``after``, undo sets ``before``.

    Projects are immutable, so keeping both is cheap (they share every unchanged
    item). ``touched``: items changed ("target:NAME", "chain:NAME") for an
    incremental re-evaluation; None means anything may have changed.
    ``merge_key``: consecutive commands with the same key merge into one undo step
    (a whole drag, repeated edits of one field).
    """

    _ID = 0x5167

    def __init__(self, doc: "Document", label: str, before: Project, after: Project,
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


class Document(Guarded, QObject):
    """Signals: projectChanged(), bakeChanged(), frameChanged(int),
    selectionChanged(), modeChanged(str), pathChanged(), modifiedChanged(bool),
    refused(title, message): an edit or an opened project could not be evaluated."""

    projectChanged = Signal()
    bakeChanged = Signal()
    frameChanged = Signal(int)
    selectionChanged = Signal()
    modeChanged = Signal(str)
    pathChanged = Signal()
    modifiedChanged = Signal(bool)
    refused = Signal(str, str)

    def __init__(self, project: Project, path: Path | None = None, parent=None, *, images: Path | None = None):
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self._project = project
        self._bake = evaluate(project)
        self._path = Path(path) if path else None
        self._images = Path(images) if images else None
        self._frame = project.timeline.start
        self._selection: tuple[tuple[str, str], ...] = ()
        self._mode = "animate"
        self._gesture = 0

    # ------------------------------------------------------------------ state
    @property
    def project(self) -> Project:
        return self._project

    @property
    def bake(self) -> Bake:
        return self._bake

    @property
    def path(self) -> Path | None:
        return self._path

    @property
    def images(self) -> Path | None:
        """The folder the project's picture paths are relative to: the project file's
        folder, or for an unsaved example its packaged folder (None: unsaved, no pictures)."""
        if self._images is not None:
            return self._images
        return self._path.parent if self._path else None

    @property
    def frame(self) -> int:
        return self._frame

    @property
    def row(self) -> int:
        """Row of the current frame in the Bake."""
        return self._bake.index(self._frame)

    @property
    def selection(self) -> tuple[tuple[str, str], ...]:
        """Selected items as (kind, name): kind is bone, chain, target or space."""
        return self._selection

    @property
    def mode(self) -> str:
        return self._mode

    def is_modified(self) -> bool:
        return not self.undo_stack.isClean()

    # ------------------------------------------------------------------ edits
    def apply(self, label: str, after: Project, *, touched=None, merge_key=None) -> bool:
        """Make ``after`` the project through an undoable command. It is evaluated
        first: if that fails the edit is refused (``refused`` is emitted, views are
        told to show the unchanged project again) and False is returned."""
        if after == self._project:
            return True
        try:
            bake = self._evaluate(after, touched)
        except Exception as exc:  # noqa: BLE001 - any failure refuses the edit
            self.refused.emit(label, f"{label}: refused, the project cannot be evaluated ({exc}). "
                                     "Nothing was changed.")
            self.projectChanged.emit()  # fields that showed the refused value go back
            return False
        self.undo_stack.push(ProjectCommand(self, label, self._project, after, touched, merge_key, bake))
        return True

    def begin_gesture(self) -> int:
        """A fresh id for one drag: commands keyed with it merge into one undo step."""
        self._gesture += 1
        return self._gesture

    def cancel_gesture(self) -> None:
        """Take back the last command (a drag cancelled with Esc) without leaving it
        on the redo list."""
        index = self.undo_stack.index()
        if index > 0:
            command = self.undo_stack.command(index - 1)
            command.undo()  # put the project back...
            command.setObsolete(True)
            self.undo_stack.undo()  # ...and the stack drops an obsolete command unreplayed
        self._gesture += 1

    def end_gesture(self) -> None:
        # Close the merge window: the next push with any key starts a new step.
        self._gesture += 1

    def replace_document(self, project: Project, path: Path | None, images: Path | None = None) -> None:
        """Open another project (New, Open, Recover): clears the undo history.
        ``images``: where its pictures are when not beside ``path`` (an example).

        All or nothing: the project is evaluated before anything changes, so when
        that raises, the document (project, path, undo history, views) is as it was.
        """
        bake = evaluate(project)
        self.undo_stack.clear()
        self._project = project
        self._bake = bake
        self._path = Path(path) if path else None
        self._images = Path(images) if images else None
        self._selection = tuple(s for s in self._selection if _exists(project, s))
        self._frame = min(max(self._frame, project.timeline.start), project.timeline.end)
        self.undo_stack.setClean()
        self.projectChanged.emit()
        self.bakeChanged.emit()
        self.selectionChanged.emit()
        self.pathChanged.emit()
        self.frameChanged.emit(self._frame)
        self.modifiedChanged.emit(False)

    def mark_unsaved(self) -> None:
        """Flag the document as holding unsaved work without an undo step (recovered
        autosaves: the work is not on disk under its name yet)."""
        self.undo_stack.resetClean()
        self.modifiedChanged.emit(True)

    def mark_saved(self, path: Path) -> None:
        """Saved as ``path``: its pictures are beside it from now on."""
        self._path = Path(path)
        self._images = None
        self.undo_stack.setClean()
        self.pathChanged.emit()

    # ------------------------------------------------------------------ view state
    def set_frame(self, frame: int) -> None:
        tl = self._project.timeline
        frame = int(min(max(int(round(frame)), tl.start), tl.end))
        if frame != self._frame:
            self._frame = frame
            self.frameChanged.emit(frame)

    def select(self, items) -> None:
        """Select ``items`` that exist (a refused "add" leaves nothing to select)."""
        items = tuple(tuple(i) for i in items if _exists(self._project, tuple(i)))
        if items != self._selection:
            self._selection = items
            self.selectionChanged.emit()

    def selected(self, kind: str) -> list[str]:
        return [name for k, name in self._selection if k == kind]

    def set_mode(self, mode: str) -> None:
        if mode not in MODES:
            raise ValueError(f"mode: must be one of {MODES}, got {mode!r}")
        if mode != self._mode:
            self._mode = mode
            self.modeChanged.emit(mode)

    # ------------------------------------------------------------------ internals
    def _on_clean_changed(self, clean: bool) -> None:
        self.modifiedChanged.emit(not clean)

    def _evaluate(self, project: Project, touched) -> Bake:
        return evaluate(project, previous=None if touched is None else self._bake, changed=touched)

    def _set_project(self, project: Project, touched) -> None:
        self._swap(project, self._evaluate(project, touched), touched)

    def _swap(self, project: Project, bake: Bake, touched) -> None:
        structural = touched is None
        self._bake = bake
        self._project = project
        if structural:
            kept = tuple(s for s in self._selection if _exists(project, s))
            if kept != self._selection:
                self._selection = kept
                self.selectionChanged.emit()
            tl = project.timeline
            if not tl.start <= self._frame <= tl.end:
                self.set_frame(self._frame)
        self.projectChanged.emit()
        self.bakeChanged.emit()


def _exists(project: Project, item) -> bool:
    kind, name = item
    pool = {"bone": project.bones, "chain": project.chains, "target": project.targets,
            "space": project.spaces, "slot": project.art.slots}.get(kind, ())
    return any(x.name == name for x in pool)
