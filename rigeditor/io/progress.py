"""A one-line progress bar for long work on a terminal; silent when not on one."""
from __future__ import annotations

import sys
import time

WIDTH = 30


class Progress:
    """``progress(fraction, label)`` redraws the bar (at most every ``interval`` s);
    ``done()`` clears it. Enabled only when ``stream`` is a terminal (unless forced),
    so piped output and log files never see a bar."""

    def __init__(self, stream=None, enabled: bool | None = None, interval: float = 0.05):
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self.interval = interval
        self._last = -1.0
        self._drawn = False

    def __call__(self, fraction: float, label: str = "") -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if fraction < 1.0 and now - self._last < self.interval:
            return
        self._last = now
        fraction = min(max(float(fraction), 0.0), 1.0)
        filled = int(round(WIDTH * fraction))
        self.stream.write(f"\r[{'#' * filled}{'.' * (WIDTH - filled)}] {fraction * 100:3.0f}% {label}\x1b[K")
        self.stream.flush()
        self._drawn = True

    def stage(self, start: float, end: float, label: str):
        """A callback mapping a sub-task's 0..1 onto ``start``..``end`` of the bar."""
        return lambda f: self(start + (end - start) * f, label)

    def done(self) -> None:
        if self._drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._drawn = False
