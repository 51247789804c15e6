"""solve_two_bone against a plain-Python loop and, when numba is installed, a compiled loop.

Prints frames per second for each at 1, 1,000, 10,000 and 1,000,000 frames and the
ratios, measured side by side in one run. The plain loop is the textbook outline with
math.* calls and the same check by forward kinematics; the compiled yardstick is the
same loop under numba's @njit (compile time excluded). numba comes with the ``bench`` extra;
without it the column says so.
"""
from __future__ import annotations

import math

import numpy as np
from _common import best_time, table

from rigeditor.core.twobone import solve_two_bone

A, B = 150.0, 125.0
FRAMES = (1, 1_000, 10_000, 1_000_000)


def scalar_solve(a, b, sx, sy, tx, ty, bend):
    dx, dy = tx - sx, ty - sy
    raw = math.hypot(dx, dy)
    d = min(max(raw, abs(a - b) + 1e-9), a + b)
    cos_e = max(-1.0, min(1.0, (a * a + b * b - d * d) / (2 * a * b)))
    cos_o = max(-1.0, min(1.0, (a * a + d * d - b * b) / (2 * a * d)))
    phi = math.atan2(dy, dx)
    shoulder = phi - bend * math.acos(cos_o)
    elbow = bend * (math.pi - math.acos(cos_e))
    ex, ey = sx + a * math.cos(shoulder), sy + a * math.sin(shoulder)
    px, py = ex + b * math.cos(shoulder + elbow), ey + b * math.sin(shoulder + elbow)
    return shoulder, elbow, math.hypot(px - tx, py - ty)


def loop_solve(targets):
    return [scalar_solve(A, B, 0.0, 0.0, x, y, 1.0) for x, y in targets.tolist()]


def compiled_loop():
    """The same loop compiled by numba, or None (with the reason) when it is not installed."""
    try:
        from numba import njit
    except ImportError:
        return None, "numba not installed (pip install numba to add the compiled yardstick)"
    kernel = njit(cache=False)(scalar_solve)

    @njit(cache=False)
    def run(targets, out):
        for i in range(targets.shape[0]):
            out[i, 0], out[i, 1], out[i, 2] = kernel(A, B, 0.0, 0.0, targets[i, 0], targets[i, 1], 1.0)
        return out

    def solve(targets):
        return run(targets, np.empty((targets.shape[0], 3)))

    solve(np.zeros((2, 2)))  # compile outside the timing
    return solve, "numba @njit loop"


def main():
    rng = np.random.default_rng(1)
    compiled, note = compiled_loop()
    zero = np.zeros(2)
    rows = []
    for n in FRAMES:
        targets = rng.uniform(-300, 300, (n, 2))
        one = targets[0] if n == 1 else targets
        repeat = 2000 if n == 1 else (7 if n < 10**5 else 5)
        reps = 200 if n == 1 else 1  # time a batch of single calls: a clock tick is coarse

        def ours():
            for _ in range(reps):
                solve_two_bone(A, B, zero, one)
        vec = best_time(ours, repeat=max(3, repeat // reps)) / reps
        m = min(n, 200_000)  # the loop's rate does not depend on n; keep the run short
        part = targets[:m]
        loop = best_time(lambda: [loop_solve(part) for _ in range(reps)], repeat=3 if n > 1 else 50) / reps * n / m
        row = [f"{n:,}", f"{vec * 1e6 / n:.3f} us", f"{loop * 1e6 / n:.3f} us", f"{vec / loop:.2f}x"]
        if compiled is not None:
            comp = best_time(lambda: [compiled(targets) for _ in range(reps)], repeat=7 if n < 10**5 else 5) / reps
            row += [f"{comp * 1e6 / n:.4f} us", f"{vec / comp:.2f}x"]
        rows.append(row)
    print("solve_two_bone, arm 150/125, random targets (reachable and not); time per frame")
    header = ["frames", "solve_two_bone", "plain-Python loop", "ours / loop"]
    if compiled is not None:
        header += ["compiled loop", "ours / compiled"]
    table(rows, header)
    print(f"compiled yardstick: {note}")
    # The loop and ours must agree, or the ratios mean nothing.
    t = rng.uniform(-300, 300, (1000, 2))
    sol = solve_two_bone(A, B, np.zeros(2), t)
    ref = np.array(loop_solve(t))
    assert np.allclose(np.cos(sol.shoulder_angle - ref[:, 0]), 1) and np.allclose(sol.elbow_angle, ref[:, 1])
    if compiled is not None:
        assert np.allclose(compiled(t), ref)


if __name__ == "__main__":
    main()
