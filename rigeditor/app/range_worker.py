"""The whole frame range, evaluated behind the frame under the hand.

During a drag the Document evaluates the current frame itself and hands the whole
range to :class:`RangeWorker`: one background thread that runs the newest request
only. A request that arrives while another runs supersedes it: the running one is
finished (a thread cannot be stopped halfway) but its result is dropped, and the
newest runs next. The Qt thread collects results with :meth:`RangeWorker.take`
(polled by a timer while a range is pending): the thread never touches a Qt object,
so no Qt object's lifetime can race with it.

A thread, not a process: the evaluation spends its time inside numpy loops, which
release the interpreter lock, so it runs beside the UI; a process would have to
ship the project and tens of megabytes of previous Bake each way.
"""
from __future__ import annotations

import threading
import time

from rigeditor.core.chains import frame_check
from rigeditor.model import evaluate

IDLE_S = 1.0  # seconds the thread waits for another request before it ends


class Superseded(Exception):
    """Raised inside the worker's evaluation when a newer request has arrived."""


def reduce_diagnostics(bake) -> None:
    """Reduce here what the views read off a whole range, so a drag's end does not
    block the UI thread on it: each mesh's worst triangle per frame (the seam curve,
    ``MeshPose.worst``, cached on the pose; 100-400 ms on a big mesh's range)."""
    art = getattr(bake, "art", None)
    for mesh in (art.meshes if art is not None else ()):
        mesh.worst  # noqa: B018 - a cached property, computed once


def reduced(bake) -> bool:
    """Whether ``bake``'s whole-range diagnostics (``reduce_diagnostics``) are done."""
    art = getattr(bake, "art", None)
    return all("worst" in mesh.__dict__ for mesh in (art.meshes if art is not None else ()))


YIELD_S = 0.02
"""Seconds the workers wait before they start on a request: requests come as a gesture
ends or the pointer rests, and the UI thread's response to that (the views catching
up, the repaint, about 10 ms on a production rig) would otherwise share the
interpreter lock with the work. The wait costs a range or a diagnostic curve nothing
the eye can see, and a request superseded meanwhile costs nothing at all."""


class Reducer:
    """``reduce_diagnostics`` on a thread of its own, for whole ranges the UI thread
    evaluated itself (short ranges are evaluated whole on every edit of a drag): the
    seam curve waits for it instead of reducing them when the drag ends (10-40 ms on a
    production rig's range). ``submit(bake)``, then poll ``done(bake)``; ``error(bake)``
    is the failure's text, if it failed. Bakes are reduced in the order submitted (each
    view submits only what it is about to show, so the queue stays short)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._queue: list = []
        self._failed: dict[int, str] = {}
        self._thread: threading.Thread | None = None

    def submit(self, bake) -> None:
        with self._lock:
            if not any(b is bake for b in self._queue):
                self._queue.append(bake)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="rigeditor-reduce", daemon=True)
                self._thread.start()

    def done(self, bake) -> bool:
        return reduced(bake) or self.error(bake) is not None

    def error(self, bake) -> str | None:
        with self._lock:
            return self._failed.get(id(bake))

    def _run(self) -> None:
        time.sleep(YIELD_S)  # (releases the lock: the UI thread runs meanwhile)
        while True:
            with self._lock:
                if not self._queue:
                    self._thread = None
                    return
                bake = self._queue.pop(0)
            try:
                reduce_diagnostics(bake)
            except Exception as exc:  # noqa: BLE001 - the UI thread reduces it again and reports it
                with self._lock:
                    self._failed = {id(bake): f"{type(exc).__name__}: {exc}"}


class RangeWorker:
    """``submit(generation, project, previous, changed)`` evaluates in the background;
    ``take()`` returns ``(generation, bake, error)`` of the newest finished request
    that was not superseded while it ran (once), else None."""

    def __init__(self):
        self._result = None
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._request = None  # the newest request not started yet
        self._latest = 0  # generation of the newest request
        self._idle = threading.Event()
        self._idle.set()
        self._thread: threading.Thread | None = None
        self.evaluate = evaluate  # what runs (tests slow it down to land edits mid-run)
        self.frames_solved = 0  # iterative frames solved on the thread (a count for tests)

    def submit(self, generation: int, project, previous, changed) -> None:
        with self._lock:
            self._request = (generation, project, previous, changed)
            self._latest = generation
            self._idle.clear()
            if self._thread is None:  # the thread lives while there is work, and a moment longer
                self._thread = threading.Thread(target=self._run, name="rigeditor-range", daemon=True)
                self._thread.start()
            self._wake.notify()

    def cancel(self) -> None:
        """Drop any request not started yet; a running one finishes unheard."""
        with self._lock:
            self._request = self._result = None
            self._latest += 1

    def wait(self, timeout: float | None = None) -> bool:
        """Block until no request is queued or running (True), or ``timeout`` s pass."""
        return self._idle.wait(timeout)

    def _run(self) -> None:
        while True:
            with self._lock:
                if self._request is None:
                    self._idle.set()
                    # A drag sends a request per mouse move: waiting a moment for the
                    # next one costs less than starting a thread for each.
                    self._wake.wait(IDLE_S)
                if self._request is None:
                    self._thread = None
                    return
                self._idle.clear()
                generation, project, previous, changed = self._request
                self._request = None
            time.sleep(YIELD_S)  # the UI thread's response to the edit first
            if generation != self._latest:
                continue  # superseded meanwhile (the pointer moved on): the newer one runs
            frame_check(lambda: self._between_frames(generation))
            try:
                bake, error = self.evaluate(project, previous=previous, changed=changed), None
                reduce_diagnostics(bake)
            except Superseded:
                continue  # a newer request waits: it runs next
            except Exception as exc:  # noqa: BLE001 - reported on the Qt thread, never lost
                bake, error = None, f"{type(exc).__name__}: {exc}"
            finally:
                frame_check(None)
            with self._lock:
                if generation == self._latest:
                    self._result = (generation, bake, error)

    def _between_frames(self, generation: int) -> None:
        """Between two frames of an iterative chain's solve (pure Python, holding the
        interpreter lock): stop when superseded, and let the UI thread run. Without
        this a 50-bone tail's range kept the lock for seconds after the drag moved on,
        and every move waited for it (numpy's loops release the lock by themselves)."""
        self.frames_solved += 1
        if generation != self._latest:
            raise Superseded
        time.sleep(0)  # hands the lock over if the UI thread waits for it

    def take(self):
        with self._lock:
            result, self._result = self._result, None
        return result
