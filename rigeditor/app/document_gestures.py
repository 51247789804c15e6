"""A document's drags and previews (mixed into ``app.document.Document``).

One drag is one undo step: ``begin_gesture`` gives the commands of a drag one merge
key, ``end_gesture`` closes it (and sends the range to the worker at once instead of
waiting for the pointer to rest), ``cancel_gesture`` (Esc) takes the step back
without leaving it on the redo list. With auto-key off, a pose drag in Animate mode
is a preview not keyed yet (``unkeyed``), dropped by ``drop_unkeyed``.
"""
from __future__ import annotations

from rigeditor.model import Project


class DragSteps:
    """The gesture and preview state of a Document (its signals, undo stack and range
    timers live there)."""

    @property
    def unkeyed(self) -> bool:
        """The pose shown is a preview not keyed yet (auto-key off)."""
        return self._keyed is not None

    def drop_unkeyed(self) -> None:
        """Show the keyed project again (the preview is dropped)."""
        if self._keyed is not None:
            keyed = self._keyed
            self._set_unkeyed(None)
            self._set_project(keyed, None)

    def set_auto_key(self, on: bool) -> None:
        self.auto_key = bool(on)

    def _set_unkeyed(self, keyed: Project | None) -> None:
        was = self._keyed is not None
        self._keyed = keyed
        if was != (keyed is not None):
            self.unkeyedChanged.emit(keyed is not None)

    @property
    def gesture_active(self) -> bool:
        """A drag is under way (between begin_gesture and end/cancel_gesture)."""
        return self._gesture_active

    def begin_gesture(self) -> int:
        """A fresh id for one drag: commands keyed with it merge into one undo step."""
        self._set_gesture_active(True)
        self._gesture += 1
        return self._gesture

    def cancel_gesture(self) -> None:
        """Take back the last command (a drag cancelled with Esc) without leaving it
        on the redo list; an unkeyed preview is dropped instead."""
        if self._keyed is not None:
            self.drop_unkeyed()
            self._gesture += 1
            self._set_gesture_active(False)
            return
        index = self.undo_stack.index()
        if index > 0:
            command = self.undo_stack.command(index - 1)
            command.undo()  # put the project back...
            command.setObsolete(True)
            self.undo_stack.undo()  # ...and the stack drops an obsolete command unreplayed
        self._gesture += 1
        self._set_gesture_active(False)

    def end_gesture(self) -> None:
        # Close the merge window: the next push with any key starts a new step.
        self._gesture += 1
        self._set_gesture_active(False)
        if self._rest.isActive():  # the drag ended: the range need not wait for a rest
            self._rest.stop()
            self._submit_range()

    def _set_gesture_active(self, active: bool) -> None:
        if active != self._gesture_active:
            self._gesture_active = active
            self.gestureActive.emit(active)
