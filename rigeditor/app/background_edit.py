"""A long edit (automatic weights: seconds on a big mesh) computed behind the window.

:class:`BackgroundEdit` runs ``work(progress=, cancel=)`` (a Project -> Project edit
taking the hooks of ``core.biharmonic``) on a thread of its own while the window keeps
painting; a window-modal progress dialog shows once the work has run half a second
(``SHOW_AFTER_MS``), and its Cancel stops the work at its next check. The UI thread
polls the thread every ``POLL_MS``: the thread never touches a Qt object (it only writes
a fraction and, at the end, its result), so no Qt object's lifetime races with it.

The result lands on the UI thread as one ``Document.apply`` (one undo step). It is
dropped, and nothing changes, when the user cancelled (even after the work finished:
the Cancel was their word) or when the project changed while the work ran (before the
dialog showed, the window still took input): a result computed from the old project
would undo that change.
"""
from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QProgressDialog

from rigeditor.app.guard import Guarded
from rigeditor.core.biharmonic import Cancelled

SHOW_AFTER_MS = 500  # work shorter than this shows no dialog at all
POLL_MS = 50  # how often the UI thread reads the thread's progress and result


class BackgroundEdit(Guarded, QObject):
    """One edit at a time off the UI thread; ``finished(outcome)`` says how it ended:
    "applied", "cancelled", "stale", "refused" (apply refused it) or "failed"."""

    finished = Signal(str)
    statusMessage = Signal(str)

    def __init__(self, doc, window):
        super().__init__(window)
        self.doc, self.window = doc, window
        self._thread: threading.Thread | None = None
        self._dialog: QProgressDialog | None = None
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    @property
    def busy(self) -> bool:
        return self._thread is not None

    def start(self, title: str, label: str, work, undo_label: str, on_error) -> bool:
        """Run ``work(progress=, cancel=)`` behind; False (nothing started) while another
        runs. The project it returns becomes the document's as ``undo_label``; an
        exception it raises goes to ``on_error(exception)`` on the UI thread."""
        if self.busy:
            return False
        self.on_error = on_error
        self._started_from = self.doc.project
        self._label, self._undo_label = label, undo_label
        self._fraction = 0.0
        self._outcome = None  # ("done", project) | ("cancelled",) | ("error", exception)
        self._stop = threading.Event()
        dialog = self._dialog = QProgressDialog(label, "Cancel", 0, 1000, self.window)
        dialog.setWindowTitle(title)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(SHOW_AFTER_MS)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.setValue(0)  # starts the dialog's own half-second clock
        self._thread = threading.Thread(target=self._run, args=(work,), name="rigeditor-edit", daemon=True)
        self._thread.start()
        self._timer.start()
        return True

    def _run(self, work) -> None:
        """The thread: only plain values cross to the UI thread."""
        def progress(fraction):
            self._fraction = min(max(float(fraction), 0.0), 1.0)

        try:
            self._outcome = ("done", work(progress=progress, cancel=self._stop.is_set))
        except Cancelled:
            self._outcome = ("cancelled",)
        except Exception as exc:  # noqa: BLE001 - handed to the UI thread, shown there
            self._outcome = ("error", exc)

    def cancel(self) -> None:
        """As the dialog's Cancel: the work stops at its next check, nothing changes."""
        if self._dialog is not None:
            self._dialog.cancel()

    def _poll(self) -> None:
        dialog = self._dialog
        cancelled = dialog.wasCanceled()
        if cancelled:
            self._stop.set()
        elif not self._thread.is_alive() and self._outcome is None:
            self._outcome = ("error", RuntimeError("the background edit ended without a result"))
        if self._thread.is_alive():
            if not cancelled:
                dialog.setValue(round(999 * self._fraction))  # 1000 would close it early
            return
        self._thread.join()
        self._timer.stop()
        self._thread, self._dialog = None, None
        dialog.reset()
        dialog.deleteLater()
        outcome, name = self._outcome, self._label.rstrip("…")
        if cancelled or outcome[0] == "cancelled":
            self.statusMessage.emit(f"{name} cancelled: nothing changed")
            self.finished.emit("cancelled")
        elif outcome[0] == "error":
            self.on_error(outcome[1])
            self.finished.emit("failed")
        elif self.doc.project is not self._started_from:
            self.statusMessage.emit(f"{name} not applied: the project changed while it ran")
            self.finished.emit("stale")
        else:
            ok = self.doc.apply(self._undo_label, outcome[1])
            self.finished.emit("applied" if ok else "refused")
