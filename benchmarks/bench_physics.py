"""Physics constraints: what stepping costs. A tail of BONES bones, each with a physics
constraint (rotate, x, y, scale x), over FRAMES frames; prints the evaluation with
and without the physics, the cost per physics bone-frame, and a single frame with
the range's states remembered (one look-up and one update) against the whole range;
by the compiled stepping (numba, when installed) and by the Python loop, side by side.
Ratios and per-item times only: nothing here asserts a time."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from _common import best_time, table

from rigeditor import edits
from rigeditor.model.data.project import Bone, Project, Timeline
from rigeditor.model.data.timeline import keyed
from rigeditor.model.evaluation.constraints import physics, physics_jit
from rigeditor.model.evaluation.evaluate import evaluate

BONES, FRAMES = 20, 600


def tail() -> Project:
    root = Bone("b0", None, 20.0, translate=keyed([(0, (0.0, 0.0)), (150, (120.0, 60.0)), (300, (-80.0, 0.0)),
                                                   (FRAMES, (0.0, 0.0))]),
                rotation=keyed([(0, 0.0), (200, 0.8), (FRAMES, 0.0)]))
    bones = [root] + [Bone(f"b{i}", f"b{i - 1}", 20.0, (20.0, 0.0)) for i in range(1, BONES)]
    p = Project(timeline=Timeline(fps=30.0, start=0, end=FRAMES), bones=tuple(bones))
    for i in range(1, BONES):
        p = edits.add_physics(p, f"b{i}", name=f"p{i}", x=0.3, y=0.3, scale_x=0.2)
    return p


def measure(p):
    """(range with physics, range without, per physics bone-frame, one frame), seconds."""
    physics._histories.clear()
    plain = replace(p, physics=())
    with_physics = best_time(lambda: evaluate(p), repeat=3)
    without = best_time(lambda: evaluate(plain), repeat=3)
    per = (with_physics - without) / ((BONES - 1) * (FRAMES + 1))
    evaluate(p)  # the states of the range, remembered
    one = best_time(lambda: evaluate(p, [float(FRAMES // 2)]), repeat=20)
    return with_physics, without, per, one


def main():
    p = tail()
    loop = physics_jit.compiled_run(wait=True)
    columns = [measure(p)]
    compiled = physics_jit.compiled_run
    physics_jit.compiled_run = lambda wait=False: None  # the Python loop
    try:
        columns.append(measure(p))
    finally:
        physics_jit.compiled_run = compiled
    rows = [("whole range, physics", *(f"{c[0] * 1e3:.1f} ms" for c in columns)),
            ("whole range, no physics", *(f"{c[1] * 1e3:.1f} ms" for c in columns)),
            ("physics per bone-frame", *(f"{c[2] * 1e6:.2f} us" for c in columns)),
            ("with / without", *(f"{c[0] / c[1]:.1f}x" for c in columns)),
            ("one frame (states remembered)", *(f"{c[3] * 1e3:.2f} ms" for c in columns)),
            ("whole range / one frame", *(f"{c[0] / c[3]:.0f}x" for c in columns)),
            ("physics: Python / compiled", "", f"{columns[1][2] / columns[0][2]:.1f}x")]
    table(rows, (f"{BONES} bones, {FRAMES + 1} frames", "compiled" if loop else "compiled (no numba)", "Python"))
    assert np.isfinite(evaluate(p).bone_bakes[-1].world.tx).all()


if __name__ == "__main__":
    main()
