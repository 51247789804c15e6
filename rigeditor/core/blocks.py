"""Use both cores: per-frame kernels over cache-sized blocks, and independent tasks.

Long frame ranges are solved in blocks so the dozen temporaries of a vectorised
solve stay in the CPU cache instead of streaming through memory, and the blocks
are shared between threads: numpy releases the GIL inside its loops, so the
cores work at once. Independent tasks (chains that do not depend on each other)
run side by side the same way. Results are identical to running everything in
order: tasks never write to each other's data, and each frame's arithmetic is the
same.
"""
from __future__ import annotations

import contextvars

import os
import threading
from concurrent.futures import ThreadPoolExecutor

BLOCK_FRAMES = 16_384
_pool: ThreadPoolExecutor | None = None
_local = threading.local()


def _workers() -> int:
    return max(1, min(8, os.cpu_count() or 1))


def _get_pool() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=_workers(), thread_name_prefix="rigeditor-worker",
                                   initializer=_mark_worker)
    return _pool


def _mark_worker() -> None:
    _local.worker = True


def _inline() -> bool:
    # Inside a worker everything runs inline: a worker waiting on tasks queued
    # behind itself would deadlock, and the cores are busy anyway.
    return getattr(_local, "worker", False) or _workers() == 1


def run_in_blocks(n, kernel, block=None):
    """Call ``kernel(i, j)`` for consecutive blocks covering frames [0, n).

    The kernel must write only to its own slice [i, j). Small ranges run inline.
    """
    block = block or BLOCK_FRAMES
    bounds = [(i, min(i + block, n)) for i in range(0, n, block)] or [(0, 0)]
    if len(bounds) == 1 or _inline():
        for i, j in bounds:
            kernel(i, j)
        return
    for future in [_get_pool().submit(kernel, i, j) for i, j in bounds]:
        future.result()


def run_tasks(fn, items) -> list:
    """``[fn(x) for x in items]``, side by side on the worker threads.

    ``fn`` calls must not depend on each other's results or write shared data.
    """
    items = list(items)
    if len(items) < 2 or _inline():
        return [fn(x) for x in items]
    # Each task runs in a copy of the caller's context (what it set for its own
    # evaluation, such as chains.frame_check, holds in the tasks too).
    return [f.result() for f in [_get_pool().submit(contextvars.copy_context().run, fn, x) for x in items]]
