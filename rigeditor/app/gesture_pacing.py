"""Views the user is not looking at during a drag, refreshed at a reading pace.

During a drag the eye is on the scene under the pointer; the inspector and the status
bar beside it only need to be readable, and refreshing them on every move (a pointer
sends 60-140 a second) costs the move about a millisecond of text layout and paint.
:class:`GesturePacer` calls its function at once outside a gesture, and during one at
most ``PACE_HZ`` times a second: a call that comes sooner runs when the period is up,
and one still pending when the gesture ends runs then, so the last value is always
the one shown. The views' frame signals are paced the same way when frames come
faster than that (a scrub, playback): the first change of a frame is shown at once.
"""
from __future__ import annotations

import math
import time

from PySide6.QtCore import QObject, QTimer

from rigeditor.app.guard import Guarded

PACE_HZ = 15.0
"""Refreshes a second, at most, of a paced view during a gesture (readable numbers)."""


class GesturePacer(Guarded, QObject):
    """Callable: ``pacer()`` runs ``fn()`` now or, during a gesture of ``doc``
    (``doc.gesture_active``), when ``1 / PACE_HZ`` s have passed since it last ran.
    ``own``: returns True while the gesture is the view's own (a key dragged in the
    dope sheet): the user is looking at it, so it is not paced. ``frames``: paced
    outside a gesture too, for the frame's signals: one frame change is shown at once,
    a scrub or playback (changes coming faster than ``PACE_HZ``) at that pace."""

    def __init__(self, doc, fn, parent=None, own=None, frames: bool = False):
        super().__init__(parent)
        self._doc, self._fn, self._own, self._frames = doc, fn, own, frames
        self._last = -math.inf  # time.monotonic() of the last run
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._run)
        doc.gestureActive.connect(self._gesture_active)

    @property
    def pending(self) -> bool:
        """A call is waiting for its turn."""
        return self._timer.isActive()

    def __call__(self, *_args) -> None:
        if (not self._frames and not self._doc.gesture_active) or (self._own is not None and self._own()):
            self._run()
            return
        wait = self._last + 1.0 / PACE_HZ - time.monotonic()
        if wait <= 0:
            self._run()
        elif not self._timer.isActive():
            self._timer.start(max(1, math.ceil(wait * 1000.0)))

    def _run(self) -> None:
        self._timer.stop()
        self._last = time.monotonic()
        self._fn()

    def _gesture_active(self, active: bool) -> None:
        if not active and self._timer.isActive():  # the gesture's last value, now
            self._run()
