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


UNLIMITED = 1 << 60
"""cgroup v1 writes "no limit" as a huge number (9223372036854771712 on 4 kB pages)."""


def available_bytes(proc: str = "/proc", cgroup_root: str = "/sys/fs/cgroup") -> int | None:
    """Memory the process can still take without swapping or being killed, in bytes,
    or None when the system does not say: Linux's MemAvailable, lowered to the room
    left under the tightest memory limit of the process's cgroups, v2 or v1, at any
    level of their hierarchy (a container's or a systemd slice's). ``proc`` and
    ``cgroup_root`` are where those file systems are mounted (tests pass fake trees)."""
    found = []
    try:
        with open(f"{proc}/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    found.append(int(line.split()[1]) * 1024)
                    break
    except (OSError, ValueError, IndexError):
        pass
    room = cgroup_room(proc, cgroup_root)
    if room is not None:
        found.append(room)
    if not found:
        try:
            found.append(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (AttributeError, OSError, ValueError):
            return None
    return min(found)


def cgroup_room(proc: str = "/proc", cgroup_root: str = "/sys/fs/cgroup") -> int | None:
    """Bytes left under the tightest cgroup memory limit (None: no limit found).

    ``PROC/self/cgroup`` names the process's group: ``0::/path`` for v2 (files
    ``memory.max``, ``memory.current``), ``N:memory:/path`` (or ``N:cpu,memory:...``)
    for v1 (``memory/.../memory.limit_in_bytes``, ``memory.usage_in_bytes``). Every level
    from the group up to the mount's root counts (a limit binds its whole subtree); a
    group not visible under the mount (a container sees its own group as the root) is
    read at the root. Reclaimable page cache (``inactive_file`` of ``memory.stat``) is
    not counted as used."""
    try:
        with open(f"{proc}/self/cgroup", encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        lines = []
    groups = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers == "":
            groups.append((cgroup_root, path, "memory.max", "memory.current"))
        elif "memory" in controllers.split(","):
            groups.append((f"{cgroup_root}/memory", path, "memory.limit_in_bytes", "memory.usage_in_bytes"))
    if not lines:  # no /proc: the root's files, as a container shows them
        groups = [(cgroup_root, "/", "memory.max", "memory.current"),
                  (f"{cgroup_root}/memory", "/", "memory.limit_in_bytes", "memory.usage_in_bytes")]
    rooms = [r for mount, path, limit, usage in groups for r in _levels(mount, path, limit, usage)]
    return min(rooms) if rooms else None


def _levels(mount: str, path: str, limit_file: str, usage_file: str):
    """Room left at every level of the group ``path`` under ``mount`` that has a limit."""
    parts = [p for p in path.strip("/").split("/") if p and p != ".."]
    for depth in range(len(parts), -1, -1):
        folder = os.path.join(mount, *parts[:depth])
        limit = _read_int(os.path.join(folder, limit_file))
        if limit is None or limit >= UNLIMITED:
            continue
        used = _read_int(os.path.join(folder, usage_file))
        if used is None:
            continue
        yield max(limit - used + min(_inactive_file(folder), used), 0)


def _read_int(path: str) -> int | None:
    """The integer in ``path``; None when missing, unreadable or "max" (no limit)."""
    try:
        with open(path, encoding="ascii") as f:
            text = f.read().strip()
        return None if text == "max" else int(text)
    except (OSError, ValueError):
        return None


def _inactive_file(folder: str) -> int:
    """Page cache the kernel reclaims before it kills (``memory.stat``), in bytes."""
    try:
        with open(os.path.join(folder, "memory.stat"), encoding="ascii") as f:
            for line in f:
                key, _, value = line.partition(" ")
                if key in ("inactive_file", "total_inactive_file"):
                    return int(value)
    except (OSError, ValueError):
        pass
    return 0
