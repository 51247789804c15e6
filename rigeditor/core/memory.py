"""Keep freed memory for reuse instead of handing it back to the OS.

An evaluation allocates and frees many arrays of a few megabytes. With glibc's
defaults each of them is a fresh mmap that the kernel must fault in and zero
page by page, which made evaluate() spend over a third of its time in page faults.
Raising the mmap and trim thresholds lets malloc reuse the same memory; the cost
is that the process keeps its peak footprint. Called by the editor, the command
line and the benchmarks (not at import: a library should not change a host
process's allocator behind its back).
"""
from __future__ import annotations

import ctypes
import ctypes.util
import sys

_M_TRIM_THRESHOLD, _M_TOP_PAD, _M_MMAP_THRESHOLD = -1, -2, -3
_tuned = False


def tune_allocator() -> bool:
    """Apply the thresholds once; True when the C library accepted them (glibc only)."""
    global _tuned
    if _tuned or not sys.platform.startswith("linux"):
        return _tuned
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    ok = mallopt(_M_MMAP_THRESHOLD, 32 * 1024 * 1024)  # glibc's largest allowed value
    ok &= mallopt(_M_TRIM_THRESHOLD, 512 * 1024 * 1024)
    ok &= mallopt(_M_TOP_PAD, 64 * 1024 * 1024)
    _tuned = bool(ok)
    return _tuned
