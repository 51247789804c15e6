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
import os
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


def available_bytes() -> int | None:
    """Memory the process can still take without swapping, in bytes, or None when the
    system does not say: Linux's MemAvailable, lowered to the room left under a cgroup
    (container) limit if there is one."""
    found = []
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    found.append(int(line.split()[1]) * 1024)
                    break
    except (OSError, ValueError, IndexError):
        pass
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as f:
            limit = f.read().strip()
        with open("/sys/fs/cgroup/memory.current", encoding="ascii") as f:
            used = int(f.read().strip())
        if limit != "max":
            found.append(max(int(limit) - used, 0))
    except (OSError, ValueError):
        pass
    if not found:
        try:
            found.append(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (AttributeError, OSError, ValueError):
            return None
    return min(found)
