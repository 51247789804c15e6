"""How a command's process ends: SIGTERM unwinds like Ctrl+C (so no temporary file is
left), a closed stdout ends quietly, and problems print one line each."""
from __future__ import annotations

import os
import signal
import sys
import threading

from rigeditor.io.errors import ProjectFileError


class Terminated(BaseException):
    """SIGTERM arrived: unwinds like Ctrl+C, so a write in progress removes its
    temporary file and the previous output stays as it was."""


class signals_unwind:
    """While a command runs, SIGTERM raises Terminated (SIGINT already raises
    KeyboardInterrupt), so ``finally`` blocks run and no temporary file is left."""

    def __enter__(self):
        self.previous = None
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGTERM, raise_terminated)
        return self

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGTERM, self.previous)
        return False


def raise_terminated(signum, frame):
    raise Terminated()


def closed_stdout() -> int:
    """The reader of stdout went away (``| head -1``): end quietly, as Unix tools do.
    stdout is pointed at /dev/null so the interpreter's last flush cannot fail again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (stdout replaced in-process)
        pass
    return 141  # 128 + SIGPIPE: what a shell reports for a tool a closed pipe ended


def after_writing(args) -> str:
    """For a signal that came after the outputs were replaced (the last moments of a
    command): say they are complete. Before that, nothing was replaced (atomic.write_files)."""
    written = getattr(args, "written", None)
    if not written:
        return ""
    return f" ({', '.join(map(str, written))} {'was' if len(written) == 1 else 'were'} already written in full)"


def print_problems(exc: ProjectFileError, limit=None) -> None:
    shown = exc.problems if limit is None else exc.problems[:limit]
    for problem in shown:
        print(f"rigeditor: {exc.path}: {problem}", file=sys.stderr)
    more = len(exc.problems) - len(shown)
    if more:
        print(f"rigeditor: {exc.path}: ... and {more} more (rigeditor validate lists them all)",
              file=sys.stderr)
