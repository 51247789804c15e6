"""The model's share of one drag move, without the window: validating the edited
project and evaluating the frame under the hand incrementally, as the editor does on
every mouse move (``Document.apply``: ``problems(after, stored=False)``, then
``evaluate(after, [frame], previous=<that frame's row>, changed={target})``).

The 50-bone FABRIK tail with limits and the imported raptor-like rig
(bench_production's), 300 moves of the dragged target around its keyed position.
Prints the median and best of each beside its yardstick: the 8 ms a whole move may
take (window, signals and paint included), and for the tail the compiled FABRIK loop
solving that one frame alone (``core.chains``, numba), the part no Python overhead
can remove.
"""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
from _common import table  # noqa: E402
from bench_production import DRAG_GOAL_MS, raptor, tail  # noqa: E402

from rigeditor.edits.posing import set_target_key  # noqa: E402
from rigeditor.model import evaluate  # noqa: E402
from rigeditor.model.validation.project import problems  # noqa: E402

MOVES = 300


def moves(project, target: str, frame: int):
    """(the one-frame row the drag starts from, the edited projects of MOVES moves)."""
    full = evaluate(project)
    row = full.index(frame)
    start = full.rows(row, row + 1)
    chain = next(c for c in project.chains if c.target == target)
    at = np.asarray(full.chains[chain.name].target_world[row])
    turns = np.linspace(0.0, 2 * np.pi, MOVES, endpoint=False)
    return start, [set_target_key(project, target, frame, tuple(at + 3.0 * np.array([np.cos(a), np.sin(a)])))
                   for a in turns]


def measure(project, target: str, frame: int):
    start, edited = moves(project, target, frame)
    changed = {f"target:{target}"}
    checks, evals = [], []
    for after in edited:
        t0 = time.perf_counter()
        found = problems(after, stored=False)
        t1 = time.perf_counter()
        evaluate(after, start.frames, previous=start, changed=changed)
        t2 = time.perf_counter()
        assert not found, found
        checks.append(t1 - t0)
        evals.append(t2 - t1)
    return np.asarray(checks) * 1e3, np.asarray(evals) * 1e3


def compiled_frame_ms(project, frame: int) -> float:
    """The compiled FABRIK loop solving the tail's one frame (best of MOVES)."""
    from rigeditor.core.chains import solve_fabrik
    from rigeditor.model.evaluation.constraints.ik_solvers import _limits
    from rigeditor.model.evaluation.constraints.segments import segments

    chain = project.chains[0]
    lengths = np.asarray(segments(project, chain.bones)[0])
    full = evaluate(project)
    target = full.chains[chain.name].target_shoulder[frame:frame + 1]
    limits = _limits(chain, len(lengths))[1]  # the bounds the evaluation hands the solver
    start = full.chains[chain.name].warm[frame]  # where the frame's solve starts (the frame before's answer)
    best = float("inf")
    for _ in range(MOVES):
        t0 = time.perf_counter()
        solve_fabrik(lengths, np.zeros(2), target, initial=start, limits=limits,
                     tolerance=chain.tolerance, max_iterations=chain.max_iterations)
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


def main() -> int:
    from rigeditor.core.chains import compiled_loop

    loop = compiled_loop(wait=True)
    print(f"chain frame loop: {'compiled (numba)' if loop else 'Python (numba not installed)'}")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        cases = [("50-bone FABRIK tail, 1,000 frames", tail(), "tail_tip", 500)]
        rap = raptor(Path(folder))
        cases.append((f"raptor-like ({len(rap.bones)} bones, {len(rap.chains)} chains)", rap,
                      next(t.name for t in rap.targets if "foot" in t.name), 12))
        for name, project, target, frame in cases:
            checks, evals = measure(project, target, frame)
            both = checks + evals
            rows.append((name, "validate", f"{np.median(checks):.2f} ms", f"{checks.min():.2f} ms", "", ""))
            rows.append((name, "evaluate one frame", f"{np.median(evals):.2f} ms", f"{evals.min():.2f} ms",
                         "", ""))
            rows.append((name, "both", f"{np.median(both):.2f} ms", f"{both.min():.2f} ms",
                         f"{np.median(both) / DRAG_GOAL_MS:.0%} of a move's {DRAG_GOAL_MS:g} ms", ""))
            if project.chains[0].solver == "fabrik":
                solve = compiled_frame_ms(project, frame)
                rows.append((name, "the compiled solve alone", "", f"{solve:.2f} ms", "",
                             f"evaluate {evals.min() / solve:.0f}x it"))
    table(rows, ("project", "step", "median", "best", "budget", "yardstick"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
