"""A numba-compiled kernel loaded on a thread the first time it is asked for.

The compiled loops (``chains_jit``: FABRIK and CCD; ``physics_jit``: physics
stepping) load this way: the module is imported and its ``warm()`` run (a compile,
6-15 s once per machine and source version, else numba's cache, 0.5-0.6 s) only
when a rig needs it, on a thread and after LOAD_DELAY_S unless a caller waits, so the
editor's start-up never waits for numba and a rig without iterative chains or physics
never imports it. ``RIGEDITOR_JIT=0``, numba missing or failing to load: None, and
the Python loop serves (with the same results: each kernel's tests hold it).
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import threading
from pathlib import Path

LOAD_DELAY_S = 2.0
"""Seconds a loading thread waits before it imports numba, unless a caller waits for
it: importing and loading it holds the interpreter lock for about a second, which,
beside the editor's start-up, made the window's first paint about that much later
(the ten-bone tail example: 6.7-8.9 s against 3.5-4.3 s on a loaded machine)."""

WAIT_S = 2.0
"""Seconds a big job (a chain solve or a physics range the Python loop would spend a
second or more on) waits for its compiled loop to load rather than start in Python."""


class LazyKernel:
    """The ``warm()`` result of module ``module`` (a compiled function), loaded once on
    a thread named ``thread_name``. ``delay``: seconds the thread sleeps first (None:
    LOAD_DELAY_S)."""

    def __init__(self, module: str, thread_name: str, delay: float | None = None):
        self.module, self.thread_name, self.delay = module, thread_name, delay
        self.loaded = threading.Event()
        self.hurry = threading.Event()  # set: load now, not after the delay
        self.value: list = []  # [the kernel or None] once loaded
        self.thread: list = []  # the loading thread, once started
        self._lock = threading.Lock()

    def get(self, wait: bool | float = False):
        """The kernel, or None: unavailable, or not loaded yet after ``wait`` (False:
        no wait, True: until loaded, a number: at most that many seconds). The first
        call starts the loading thread."""
        if wait:
            self.hurry.set()
        with self._lock:
            if not self.thread:
                self.thread.append(threading.Thread(target=self._load, name=self.thread_name, daemon=True))
                self.thread[0].start()
        if wait is True:
            self.loaded.wait()
        elif wait:
            self.loaded.wait(float(wait))
        return self.value[0] if self.loaded.is_set() else None

    def _load(self) -> None:
        self.hurry.wait(LOAD_DELAY_S if self.delay is None else self.delay)
        try:
            self.value.append(self.compile())
        finally:
            if not self.value:
                self.value.append(None)
            self.loaded.set()

    def compile(self):
        """Import the module and warm its kernel (here, in the caller's thread), or None."""
        if os.environ.get("RIGEDITOR_JIT", "1") == "0" or importlib.util.find_spec("numba") is None:
            return None
        os.environ.setdefault("NUMBA_CACHE_DIR", str(user_cache() / "rigeditor" / "numba"))
        try:
            return importlib.import_module(self.module).warm()
        except Exception:  # noqa: BLE001 - a broken numba install leaves the Python loop, never an error
            return None


def user_cache() -> Path:
    """The platform's per-user cache folder (XDG on Linux, Library/Caches, LOCALAPPDATA)."""
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


__all__ = ["LOAD_DELAY_S", "WAIT_S", "LazyKernel", "user_cache"]
