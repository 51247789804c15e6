"""solve_two_bone: vectorised over frames vs one frame at a time in plain Python.

Prints solves per second for both at 1,000 and 1,000,000 frames and their ratio,
measured side by side in one run. The scalar loop is the textbook outline with
math.* calls, the same checks by forward kinematics, and no numpy.
"""
from __future__ import annotations

import math

import numpy as np
from _common import best_time, table

from rigeditor.core.twobone import solve_two_bone

A, B = 150.0, 125.0


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


def main():
    rng = np.random.default_rng(1)
    rows = []
    for n in (1_000, 1_000_000):
        targets = rng.uniform(-300, 300, (n, 2))
        vec = best_time(lambda: solve_two_bone(A, B, np.zeros(2), targets), repeat=7 if n < 10**5 else 5)
        m = min(n, 200_000)  # the loop's rate does not depend on n; keep the run short
        pts = targets[:m].tolist()
        loop = best_time(lambda: [scalar_solve(A, B, 0.0, 0.0, x, y, 1.0) for x, y in pts], repeat=3) * n / m
        rows.append((f"{n:,}", f"{n / vec / 1e6:.2f} M/s", f"{n / loop / 1e6:.3f} M/s", f"{loop / vec:.0f}x"))
    print("solve_two_bone, arm 150/125, random targets (reachable and not)")
    table(rows, ("frames", "vectorised", "plain-Python loop", "ratio"))
    # The loop and ours must agree, or the ratio means nothing.
    t = rng.uniform(-300, 300, (1000, 2))
    sol = solve_two_bone(A, B, np.zeros(2), t)
    ref = np.array([scalar_solve(A, B, 0, 0, x, y, 1.0) for x, y in t])
    assert np.allclose(np.cos(sol.shoulder_angle - ref[:, 0]), 1) and np.allclose(sol.elbow_angle, ref[:, 1])


if __name__ == "__main__":
    main()
