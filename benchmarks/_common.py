"""Shared benchmark helpers: best-of-k wall time and a plain table printer."""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def best_time(fn, repeat=5, min_time=0.0):
    """Best wall time of ``fn()`` over ``repeat`` runs (seconds)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def table(rows, header):
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = "  ".join(f"{{:>{w}}}" for w in widths)
    print(line.format(*header))
    for r in rows:
        print(line.format(*r))
