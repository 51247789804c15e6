"""The compiled yardstick for iterative chains: textbook FABRIK and CCD with per-joint
angle limits, one numba @njit loop each, warm-started frame to frame.

Written plainly from the methods (not from rigeditor.core.chains): arrays of x and y,
a backward and a forward pass (FABRIK) or a sweep from the end to the root (CCD),
each joint clamped into its limits as it is set, stopping at the tolerance or when an
iteration turns no joint. No guards for singular poses. Used by bench_chains.py and
bench_production.py to print our cost per bone and iteration beside a compiled loop's.
``compiled()`` is None (with the reason) when numba is not installed.
"""
from __future__ import annotations

import math
import time

import numpy as np


def compiled():
    """(fabrik, ccd) compiled, or (None, reason). Each is
    ``f(lengths, targets (N, 2), start (B,), lo, hi, tolerance, max_iterations)``
    -> (angles (N, B), iterations (N,)), the root at the origin."""
    try:
        from numba import njit
    except ImportError:
        return None, "numba not installed (pip install -e '.[bench]' adds the compiled yardstick)"

    @njit(cache=False)
    def wrap(x):
        return x - 2.0 * math.pi * np.floor((x + math.pi) / (2.0 * math.pi))

    @njit(cache=False)
    def fabrik(lengths, targets, start, lo, hi, tolerance, max_iterations):
        n = lengths.shape[0]
        q = start.copy()
        x, y = np.zeros(n + 1), np.zeros(n + 1)
        angles, iterations = np.empty((targets.shape[0], n)), np.zeros(targets.shape[0], dtype=np.int64)
        for f in range(targets.shape[0]):
            tx, ty = targets[f, 0], targets[f, 1]
            h = 0.0
            for k in range(n):  # forward kinematics of the warm start
                h += q[k]
                x[k + 1], y[k + 1] = x[k] + lengths[k] * math.cos(h), y[k] + lengths[k] * math.sin(h)
            it = 0
            while it < max_iterations and math.hypot(x[n] - tx, y[n] - ty) > tolerance:
                it += 1
                x[n], y[n] = tx, ty
                nxt = 0.0  # absolute angle of the bone after k (backward pass)
                for k in range(n - 1, -1, -1):
                    a = math.atan2(y[k + 1] - y[k], x[k + 1] - x[k])
                    if k < n - 1:  # keep bone k+1's local angle within its limits
                        local = min(max(wrap(nxt - a), lo[k + 1]), hi[k + 1])
                        a = nxt - local
                    nxt = a
                    x[k], y[k] = x[k + 1] - lengths[k] * math.cos(a), y[k + 1] - lengths[k] * math.sin(a)
                x[0], y[0] = 0.0, 0.0
                parent, moved = 0.0, 0.0
                for k in range(n):  # forward pass: the local angles, clamped
                    a = math.atan2(y[k + 1] - y[k], x[k + 1] - x[k])
                    local = min(max(q[k] + wrap(a - parent - q[k]), lo[k]), hi[k])
                    moved = max(moved, abs(local - q[k]))
                    q[k] = local
                    parent += local
                    x[k + 1], y[k + 1] = x[k] + lengths[k] * math.cos(parent), y[k] + lengths[k] * math.sin(parent)
                if moved <= 1e-12:
                    break
            angles[f] = q
            iterations[f] = it
        return angles, iterations

    @njit(cache=False)
    def ccd(lengths, targets, start, lo, hi, tolerance, max_iterations):
        n = lengths.shape[0]
        q = start.copy()
        x, y = np.zeros(n + 1), np.zeros(n + 1)
        angles, iterations = np.empty((targets.shape[0], n)), np.zeros(targets.shape[0], dtype=np.int64)
        for f in range(targets.shape[0]):
            tx, ty = targets[f, 0], targets[f, 1]
            it = 0
            while it < max_iterations:
                h = 0.0
                for k in range(n):
                    h += q[k]
                    x[k + 1], y[k + 1] = x[k] + lengths[k] * math.cos(h), y[k] + lengths[k] * math.sin(h)
                ex, ey = x[n], y[n]
                if math.hypot(ex - tx, ey - ty) <= tolerance:
                    break
                it += 1
                moved = 0.0
                for k in range(n - 1, -1, -1):
                    ax, ay, bx, by = ex - x[k], ey - y[k], tx - x[k], ty - y[k]
                    turn = math.atan2(ax * by - ay * bx, ax * bx + ay * by)
                    new = min(max(q[k] + turn, lo[k]), hi[k])
                    c, s = math.cos(new - q[k]), math.sin(new - q[k])
                    ex, ey = x[k] + ax * c - ay * s, y[k] + ax * s + ay * c
                    moved = max(moved, abs(new - q[k]))
                    q[k] = new
                if moved <= 1e-12:
                    break
            angles[f] = q
            iterations[f] = it
        return angles, iterations

    tiny = np.ones(2), np.ones((1, 2)), np.zeros(2), -np.ones(2), np.ones(2)
    fabrik(*tiny, 1e-3, 4)  # compile outside the timings
    ccd(*tiny, 1e-3, 4)
    return (fabrik, ccd), "numba @njit loop (textbook FABRIK / CCD with limits)"


def per_bone_iteration(solve, lengths, targets, start, limits, tolerance, max_iterations, repeat=3):
    """Best-of-``repeat`` ns per bone and iteration of a compiled ``solve``, and its
    mean iterations per frame."""
    lo, hi = np.ascontiguousarray(limits[:, 0]), np.ascontiguousarray(limits[:, 1])
    best, its = math.inf, 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        _, iterations = solve(lengths, targets, start, lo, hi, tolerance, max_iterations)
        best = min(best, time.perf_counter() - t0)
        its = int(iterations.sum())
    return best / max(its * len(lengths), 1) * 1e9, its / len(targets)
