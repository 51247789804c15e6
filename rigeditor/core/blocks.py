"""Run a per-frame kernel over cache-sized blocks, on all cores.

Long frame ranges are solved in blocks so the dozen temporaries of a vectorised
solve stay in the CPU cache instead of streaming through memory, and the blocks
are shared between threads: numpy releases the GIL inside its loops, so the
cores work at once. Results are identical to one big call (blocks never overlap
and each frame's arithmetic is the same).
"""
from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

BLOCK_FRAMES = 16_384
_pool: ThreadPoolExecutor | None = None


def _workers() -> int:
    return max(1, min(8, os.cpu_count() or 1))


def run_in_blocks(n, kernel, block=None):
    """Call ``kernel(i, j)`` for consecutive blocks covering frames [0, n).

    The kernel must write only to its own slice [i, j). Small ranges run inline.
    """
    global _pool
    block = block or BLOCK_FRAMES
    bounds = [(i, min(i + block, n)) for i in range(0, n, block)] or [(0, 0)]
    if len(bounds) == 1 or _workers() == 1:
        for i, j in bounds:
            kernel(i, j)
        return
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=_workers(), thread_name_prefix="rigeditor-block")
    for future in [_pool.submit(kernel, i, j) for i, j in bounds]:
        future.result()
