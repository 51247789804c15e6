"""The Document: owns the Project, the undo stack and the cached Bake.

Views never write the Project: they build a new Project and hand it to
:meth:`Document.apply`, which pushes an undoable command. Every change of project
re-evaluates (incrementally when the command says what it touched) and emits
``bakeChanged``; views redraw from the Bake.

Evaluation comes first, the swap after: a project that cannot be evaluated is
refused (``refused`` carries the message) and the project, the undo stack and the
views stay as they were. The same holds for opening another project.

The frame under the hand first: during a gesture (commands with a merge key) an
edit is evaluated synchronously at the current frame only, and the whole range is
evaluated behind it on a :class:`RangeWorker`; ``bake`` is then that one-frame Bake
(exact) until the range lands. Views that show the whole range read ``range_bake``
and follow ``rangeChanged``; ``rangePending`` says the range is behind.

What is shown: in Animate mode the project; in Setup mode its setup pose (every
track's keys ignored, ``clips.setup_pose``), the rest pose being edited. ``bake`` and
``range_bake`` are evaluations of ``shown_project``, through the same ``evaluate``;
export takes the animation (``settled_bake``) whatever the mode.
"""
from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoStack

from rigeditor.app.document_gestures import DragSteps
from rigeditor.app.guard import Guarded
from rigeditor.app.project_command import ProjectCommand
from rigeditor.app.range_worker import RangeWorker
from rigeditor.core.memory import available_bytes
from rigeditor.core.twobone import EPS
from rigeditor.model import Bake, Project, evaluate
from rigeditor.model.data.clips import setup_pose
from rigeditor.model.evaluation.evaluate import frame_local
from rigeditor.model.validation.project import problems as validation_problems
from rigeditor.model.evaluation.ranges import TooLarge, memory_fit

MODES = ("setup", "animate")
POLL_MS = 4  # how often the Qt thread looks for the whole range while it is pending
REST_MS = 30
"""The whole range is sent to the worker once the pointer rests this long (or the drag
ends): while it keeps moving every range would be superseded before it lands, and
the worker would only take the second core from the UI."""
FRAME_FIRST_MIN_FRAMES = 200
FRAME_FIRST_MIN_ITEMS = 48
"""A range shorter than FRAME_FIRST_MIN_FRAMES of a rig with fewer bones and slots than
FRAME_FIRST_MIN_ITEMS is evaluated whole on every edit: that costs about what the
current frame alone does (0.3-0.4 ms more on the examples), and spares the worker's
round trip. A production-sized rig's short range is not: the range views' catch-up
(curves, seam diagnostics) then ran in the release's own turn of the event loop (the
raptor-like rig's release 8-18 ms against 6.5-8.5 ms, Esoteric's raptor 15-23 ms), and
the whole range cost its moves 0.5-0.7 ms more than the frame alone."""


class Document(Guarded, DragSteps, QObject):
    """Signals: projectChanged(), bakeChanged(), frameChanged(int),
    selectionChanged(), modeChanged(str), pathChanged(), modifiedChanged(bool),
    refused(title, message): an edit or an opened project could not be evaluated.
    rangeChanged() (``range_bake`` is new), rangePending(bool) (the whole range is
    being evaluated behind the current frame, or has landed). When a pending range
    lands only rangeChanged is emitted: the current frame it shows was exact.
    gestureActive(bool): a drag began or ended (views of the range wait for its end).
    unkeyedChanged(bool): a pose drag with auto-key off is shown but not keyed (K
    keys it; another frame, undo or Esc drops it)."""

    projectChanged = Signal()
    bakeChanged = Signal()
    rangeChanged = Signal()
    rangePending = Signal(bool)
    gestureActive = Signal(bool)
    frameChanged = Signal(int)
    selectionChanged = Signal()
    modeChanged = Signal(str)
    pathChanged = Signal()
    modifiedChanged = Signal(bool)
    refused = Signal(str, str)
    unkeyedChanged = Signal(bool)

    def __init__(self, project: Project, path: Path | None = None, parent=None, *, images: Path | None = None):
        super().__init__(parent)
        self.undo_stack = QUndoStack(self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)
        self._project = project
        check_memory(project)
        self._bake = evaluate(project)
        self._path = Path(path) if path else None
        self._images = Path(images) if images else None
        self._frame = project.timeline.start
        self._selection: tuple[tuple[str, str], ...] = ()
        self._mode = "animate"
        self._shown_cache: tuple[Project, Project] | None = None  # (project, its setup pose)
        self._gesture = 0
        self._gesture_active = False
        # The whole range: the last full-range bake, what changed since (while the
        # worker catches up), and a generation number that retires stale results.
        self._range_bake = self._bake
        self._range_changed: set[str] = set()
        self._range_generation = 0
        self._pending = False
        self._frame_bake: Bake | None = None  # the current frame alone, once a gesture made one
        self._frame_candidate: Bake | None = None  # a one-frame bake _evaluate made, not swapped in yet
        # Gestures evaluate the current frame first (False: the whole range on the UI
        # thread for every edit; benchmarks measure both side by side).
        self.frame_first = True
        self._worker = RangeWorker()
        self._poll = QTimer(self)  # collects the worker's result while a range is pending
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._collect)
        self._rest = QTimer(self)  # sends the range to the worker when the pointer rests
        self._rest.setSingleShot(True)
        self._rest.setInterval(REST_MS)
        self._rest.timeout.connect(self._submit_range)
        self.auto_key = True  # off: pose drags in Animate mode preview without keying
        self._keyed: Project | None = None  # while previewing: the project on the undo stack

    # ------------------------------------------------------------------ state
    @property
    def project(self) -> Project:
        return self._project

    @property
    def bake(self) -> Bake:
        """Exact for the current frame: the whole range, or only the current frame
        while ``range_pending`` (a gesture's range is evaluated behind it)."""
        return self._bake

    @property
    def range_bake(self) -> Bake:
        """The whole frame range; while ``range_pending`` it is from before the
        latest edits (views say so) and ``settled_bake()`` brings it up to date."""
        return self._range_bake

    @property
    def range_pending(self) -> bool:
        return self._pending

    @property
    def shown_project(self) -> Project:
        """What the views show and evaluate: the project (Animate mode) or its setup
        pose (Setup mode)."""
        return self._shown(self._project)

    def _shown(self, project: Project) -> Project:
        if self._mode == "animate":
            return project
        cached = self._shown_cache
        if cached is None or cached[0] is not project:
            cached = self._shown_cache = (project, setup_pose(project))
        return cached[1]

    def settled_bake(self) -> Bake:
        """The whole range of the animation, exact for the current project (export),
        in either mode: finishes a pending range evaluation here and now."""
        self._settle()
        return self._bake if self._mode == "animate" else evaluate(self._project)

    def _settle(self) -> None:
        """Bring ``bake`` and ``range_bake`` (of what is shown) up to date here and now."""
        if self._pending:
            self._worker.cancel()
            self._land(evaluate(self.shown_project, previous=self._range_bake, changed=self._range_changed))

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
    def apply(self, label: str, after: Project, *, touched=None, merge_key=None, keys_only: bool = False) -> bool:
        """Make ``after`` the project through an undoable command. It is evaluated
        first: if that fails the edit is refused (``refused`` is emitted, views are
        told to show the unchanged project again) and False is returned. An unkeyed
        preview is the starting point of nothing: the command undoes to the keyed
        project before it (keying a preview is one step). ``keys_only``: the edit
        changed keys of the open animation and nothing else (a pose drag in Animate
        mode), so the stored animations need no new check."""
        if after == self._project and self._keyed is None:
            return True
        before = self._keyed if self._keyed is not None else self._project
        if self._keyed is not None:
            touched = None  # the preview changed items this edit may not name
        # What the project file would refuse is refused here too: accepted, it would make
        # every later Save and autosave fail (validation costs 0.05-1.2 ms on the examples).
        problems = validation_problems(after, stored=not keys_only)
        if problems:
            return self._refuse(label, f"the project file cannot hold it ({problems[0]})")
        try:
            if _frame_count(after) > _frame_count(self._project):  # a longer timeline may not fit
                check_memory(after)
            bake = self._evaluate(after, touched, merge_key is not None)
        except Exception as exc:  # noqa: BLE001 - any failure refuses the edit
            return self._refuse(label, f"the project cannot be evaluated ({exc})")
        self._set_unkeyed(None)
        self.undo_stack.push(ProjectCommand(self, label, before, after, touched, merge_key, bake))
        return True

    def _refuse(self, label: str, why: str) -> bool:
        self.refused.emit(label, f"{label}: refused, {why}. Nothing was changed.")
        self.projectChanged.emit()  # fields that showed the refused value go back
        return False

    def pose_edit(self, label: str, after: Project, *, touched=None, merge_key=None) -> bool:
        """A pose drag's edit: keyed through :meth:`apply`, or, in Animate mode with
        ``auto_key`` off, shown without keying (no undo step) until K keys it."""
        if self.auto_key or self._mode != "animate":
            return self.apply(label, after, touched=touched, merge_key=merge_key,
                              keys_only=self._mode == "animate")
        try:
            bake = self._evaluate(after, touched, merge_key is not None)
        except Exception as exc:  # noqa: BLE001 - as apply
            self.refused.emit(label, f"{label}: refused, the project cannot be evaluated ({exc}).")
            return False
        keyed = self._keyed if self._keyed is not None else self._project
        self._swap(after, bake, touched)
        self._set_unkeyed(keyed)
        return True

    def replace_document(self, project: Project, path: Path | None, images: Path | None = None) -> None:
        """Open another project (New, Open, Recover): clears the undo history.
        ``images``: where its pictures are when not beside ``path`` (an example).

        All or nothing: the project is evaluated before anything changes, so when
        that raises, the document (project, path, undo history, views) is as it was.
        """
        check_memory(project)
        bake = evaluate(self._shown(project))
        self.undo_stack.clear()
        self._project = project
        self._worker.cancel()
        self._range_generation += 1
        self._frame_bake = None
        self._bake = self._range_bake = bake
        self._range_changed = set()
        if self._pending:
            self._pending = False
            self._poll.stop()
            self._rest.stop()
            self.rangePending.emit(False)
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
        self.rangeChanged.emit()

    def mark_unsaved(self) -> None:
        """Flag the document as holding unsaved work without an undo step (recovered
        autosaves: the work is not on disk under its name yet)."""
        self.undo_stack.resetClean()
        self.modifiedChanged.emit(True)

    def mark_saved(self, path: Path, project: Project | None = None) -> None:
        """Saved as ``path``: its pictures are beside it from now on. ``project``: what
        was written when the save renamed picture paths (no undo step: the file holds it;
        earlier undo steps keep the old paths)."""
        if project is not None and project is not self._project:
            self._set_project(project, None)
        self._path = Path(path)
        self._images = None
        self.undo_stack.setClean()
        self.pathChanged.emit()

    # ------------------------------------------------------------------ view state
    def set_frame(self, frame: int) -> None:
        tl = self._project.timeline
        frame = int(min(max(int(round(frame)), tl.start), tl.end))
        if frame != self._frame:
            self.drop_unkeyed()  # an unkeyed pose belongs to the frame it was made on
            if self._pending:  # the one-frame bake is of the frame we leave
                self._settle()
            self._frame_bake = None
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
        """Setup or Animate: what is shown is evaluated again (Setup mode shows the
        setup pose); refused, with the mode kept, if that cannot be evaluated."""
        if mode not in MODES:
            raise ValueError(f"mode: must be one of {MODES}, got {mode!r}")
        if mode == self._mode:
            return
        self.drop_unkeyed()  # an unkeyed pose is Animate mode's
        was, self._mode = self._mode, mode
        try:
            bake = evaluate(self.shown_project)
        except Exception as exc:  # noqa: BLE001 - as apply: nothing escapes, nothing changes
            self._mode = was
            self.refused.emit(f"{mode.capitalize()} mode", f"{mode.capitalize()} mode: refused, the project "
                              f"cannot be evaluated ({exc}). Nothing was changed.")
            return
        # The project is the same: only what is shown changes (no projectChanged).
        self._range_generation += 1
        self._rest.stop()
        self._worker.cancel()
        self._frame_bake = None
        self._land(bake, notify=False)
        self.modeChanged.emit(mode)
        self.bakeChanged.emit()
        self.rangeChanged.emit()

    # ------------------------------------------------------------------ internals
    def _on_clean_changed(self, clean: bool) -> None:
        self.modifiedChanged.emit(not clean)

    def _set_project(self, project: Project, touched) -> None:
        if self._keyed is not None:  # undo, redo: the preview goes
            self._set_unkeyed(None)
            touched = None
        self._swap(project, self._evaluate(project, touched), touched)

    def _evaluate(self, project: Project, touched, interactive: bool = False) -> Bake:
        """``project``'s Bake, changing nothing yet: during a gesture the current frame
        only when that is exact (see ``_frame_only``), else the whole range,
        incrementally from the last whole range and everything changed since."""
        if interactive and self.frame_first and touched is not None:
            bake = self._frame_only(project, touched)
            if bake is not None:
                return bake
        changed = None if touched is None else self._range_changed | set(touched)
        return evaluate(self._shown(project), previous=None if touched is None else self._range_bake, changed=changed)

    def _frame_only(self, project: Project, touched) -> Bake | None:
        """``project`` at the current frame alone, or None when the edit needs the
        whole range to be exact at one frame (smoothing, iterative solvers: see
        ``frame_local``) or the range is short."""
        project = self._shown(project)
        if _evaluated_whole(project, len(self._range_bake)) or not frame_local(project, touched):
            return None
        previous = self._frame_bake
        if previous is None:
            row = self._range_bake.index(self._frame)
            previous = self._range_bake.rows(row, row + 1)
        bake = evaluate(project, previous.frames, previous=previous, changed=touched)
        for name, cb in bake.chains.items():
            # A target on the shoulder (within the solver's guard) takes the direction
            # of earlier frames.
            if cb is not previous.chains[name] and not cb.distance[0] > EPS * cb.reach[1]:
                return None
        self._frame_candidate = bake
        return bake

    def _swap(self, project: Project, bake: Bake, touched) -> None:
        """Make ``project`` and its ``bake`` (from ``_evaluate``) current: a one-frame
        bake sends the whole range to the worker, a whole range lands at once."""
        structural = touched is None
        self._range_generation += 1
        frame_only = bake is self._frame_candidate
        self._frame_candidate = None
        if frame_only:
            self._bake = self._frame_bake = bake
            self._range_changed |= set(touched)
            self._worker.cancel()  # a range still running is for an older project
            self._rest.start()
            if not self._pending:
                self._pending = True
                self.rangePending.emit(True)
        else:
            self._rest.stop()
            self._worker.cancel()
            self._frame_bake = None
            self._land(bake, notify=False)
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
        if not frame_only:
            self.rangeChanged.emit()

    def _submit_range(self) -> None:
        if self._pending:
            self._worker.submit(self._range_generation, self.shown_project, self._range_bake,
                                set(self._range_changed))
            self._poll.start()

    def _land(self, bake: Bake, notify: bool = True) -> None:
        """Make ``bake`` (the whole range, exact for the current project) current.

        The current frame was exact already: views of the current frame are not told
        again (no bakeChanged), views of the range get rangeChanged."""
        self._bake = self._range_bake = bake
        self._range_changed = set()
        was_pending, self._pending = self._pending, False
        self._poll.stop()
        self._rest.stop()
        if notify:
            self.rangeChanged.emit()
        if was_pending:
            self.rangePending.emit(False)

    def _collect(self) -> None:
        result = self._worker.take()
        if result is None or not self._pending:
            return
        generation, bake, error = result
        if generation != self._range_generation:
            return
        if error is None:
            self._land(bake)
            return
        try:  # the same evaluation again, here; nothing may escape into Qt's timer
            self._settle()
        except Exception:  # noqa: BLE001
            logging.getLogger(__name__).exception("evaluating the whole range failed: %s", error)
            self._pending = False
            self._poll.stop()
            self.rangePending.emit(False)


def _exists(project: Project, item) -> bool:
    kind, name = item
    pool = {"bone": project.bones, "chain": project.chains, "target": project.targets,
            "space": project.spaces, "slot": project.art.slots, "transform": project.transforms,
            "path": project.paths,
            "physics": project.physics}.get(kind, ())
    return any(x.name == name for x in pool)


def _evaluated_whole(project: Project, frames: int) -> bool:
    """Whether every edit of a drag evaluates the whole range (see FRAME_FIRST_MIN_ITEMS)."""
    return (frames < FRAME_FIRST_MIN_FRAMES
            and len(project.bones) + len(project.art.slots) < FRAME_FIRST_MIN_ITEMS)


def _frame_count(project: Project) -> int:
    return project.timeline.end - project.timeline.start + 1


def check_memory(project: Project) -> None:
    """Raise TooLarge, before anything is allocated, when the whole timeline's Bake would
    not fit in the memory available: the command line's estimate (``ranges.memory_fit``),
    so a 10,000,000-frame project is refused with a range that fits instead of growing
    until the kernel kills the editor."""
    tl = project.timeline
    fit = memory_fit(project, tl.start, tl.end, "evaluate", available_bytes())
    if not fit.ok:
        way = (f"shorten the timeline to frames {tl.start}-{fit.fits_to} (rigeditor bake --frames "
               "exports any part of it)" if fit.fits_to is not None else "shorten the timeline")
        raise TooLarge(f"memory: {fit.text()}; {way}")
