"""FABRIK and CCD against ikpy: a 10-bone chain following a moving target.

Run: python benchmarks/bench_chains.py   (needs the ``bench`` extra: ikpy, numba)

One smooth, reachable lissajous path of 1,000 frames; every solver warm-starts
each frame from the previous frame's solution. Residuals are measured here by
forward kinematics of the returned angles, for ours and for ikpy alike. Our
tolerance is set at ikpy's own accuracy, so the comparison is at equal or
smaller residual (the table shows both). A second table sets our cost per bone and
iteration beside a compiled loop's (benchmarks/_chain_yardstick.py, numba).
"""
from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _common import table  # noqa: E402

from rigeditor.core.chains import forward_kinematics, solve_ccd, solve_fabrik  # noqa: E402

BONES = 10
FRAMES = 1000
IKPY_FRAMES = 100  # ikpy takes tens of ms per solve: time the first frames, consecutive
REPEATS = 5  # our timings are the best of this many runs (least disturbed by the machine)
LENGTHS = np.linspace(1.4, 0.6, BONES)  # a tapering tail, reach 10
TOLERANCE = 1e-8  # model units, 1e-9 of the reach: about ikpy's residual on this path
INITIAL = np.r_[0.0, np.full(BONES - 1, 0.1)]  # a gently curled rest pose


def target_path():
    """Figure-eight through 0.3..0.8 of the reach, one lap over FRAMES frames."""
    s = np.linspace(0.0, 2.0 * np.pi, FRAMES)
    reach = LENGTHS.sum()
    return np.stack([0.55 * reach + 0.25 * reach * np.cos(s), 0.1 * reach + 0.25 * reach * np.sin(2 * s)], axis=1)


def run_ours(solve, targets):
    best = np.inf
    for _ in range(REPEATS):
        start = time.perf_counter()
        sol = solve(LENGTHS, [0.0, 0.0], targets, initial=INITIAL, tolerance=TOLERANCE, max_iterations=500)
        best = min(best, time.perf_counter() - start)
    end = forward_kinematics(LENGTHS, sol.angles, [0.0, 0.0])[:, -1]
    residual = np.hypot(*(end - targets).T)
    return dict(frames=len(targets), seconds=best, iterations=sol.iterations.mean(), residual=residual)


def ikpy_chain():
    from ikpy.chain import Chain
    from ikpy.link import OriginLink, URDFLink

    # Joint k sits at the end of bone k-1 and turns about z: local angles, like ours.
    # ikpy's default symbolic link matrices are its faster setting here.
    links = [OriginLink()]
    for k in range(BONES):
        offset = 0.0 if k == 0 else LENGTHS[k - 1]
        links.append(URDFLink(f"joint{k}", origin_translation=[offset, 0, 0], origin_orientation=[0, 0, 0],
                              rotation=[0, 0, 1]))
    links.append(URDFLink("end", origin_translation=[LENGTHS[-1], 0, 0], origin_orientation=[0, 0, 0],
                          joint_type="fixed"))
    return Chain(links, active_links_mask=[False] + [True] * BONES + [False])


def run_ikpy(targets):
    chain = ikpy_chain()
    q = np.r_[0.0, INITIAL, 0.0]
    solutions = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        chain.inverse_kinematics([*targets[0], 0.0], initial_position=q)  # first call builds caches
        start = time.perf_counter()
        for x, y in targets:
            q = chain.inverse_kinematics([x, y, 0.0], initial_position=q)  # warm start, as ours
            solutions.append(q)
        seconds = time.perf_counter() - start
    angles = np.array(solutions)[:, 1:-1]
    end = forward_kinematics(LENGTHS, angles, [0.0, 0.0])[:, -1]
    check = np.array([chain.forward_kinematics(q)[:2, 3] for q in solutions])
    assert np.allclose(check, end, atol=1e-9), "ikpy chain and our forward kinematics disagree"
    return dict(frames=len(targets), seconds=seconds, iterations=None, residual=np.hypot(*(end - targets).T))


def main():
    from rigeditor.core.chains import compiled_loop

    t0 = time.perf_counter()
    loop = compiled_loop(wait=True)  # timed apart: loading (or compiling) it is not a solve
    print(f"frame loop: {'compiled (numba)' if loop else 'Python (numba not installed)'}, "
          f"loaded in {time.perf_counter() - t0:.2f} s")
    targets = target_path()
    rows = {"FABRIK": run_ours(solve_fabrik, targets), "CCD": run_ours(solve_ccd, targets)}
    try:
        rows["ikpy"] = run_ikpy(targets[:IKPY_FRAMES])
    except ImportError:
        print("ikpy is not installed: pip install -e '.[bench]'")
    ikpy_per_solve = rows["ikpy"]["seconds"] / rows["ikpy"]["frames"] if "ikpy" in rows else None

    reach = LENGTHS.sum()
    dist = np.hypot(*targets.T) / reach
    try:
        from importlib.metadata import version
        versions = f"numpy {np.__version__}, ikpy {version('ikpy')}"
    except Exception:  # ikpy missing: its row is missing too
        versions = f"numpy {np.__version__}"
    print(f"{BONES}-bone chain (lengths {LENGTHS[0]:.2f}..{LENGTHS[-1]:.2f}, reach {reach:.2f}), "
          f"{FRAMES} frames of a figure-eight target at {dist.min():.2f}..{dist.max():.2f} of reach, "
          f"warm-started; our tolerance {TOLERANCE:g}; {versions}")
    header = (f"{'solver':<8}{'frames':>7}{'solves/s':>11}{'us/solve':>11}{'mean iters':>12}"
              f"{'mean resid':>12}{'max resid':>11}{'<= tol':>8}{'time vs ikpy':>14}")
    print(header)
    print("-" * len(header))
    for name, row in rows.items():
        per_solve = row["seconds"] / row["frames"]
        iters = "-" if row["iterations"] is None else f"{row['iterations']:.2f}"
        within = np.mean(row["residual"] <= TOLERANCE)
        ratio = "-" if ikpy_per_solve is None else f"{per_solve / ikpy_per_solve:.5f}"
        print(f"{name:<8}{row['frames']:>7}{1.0 / per_solve:>11,.0f}{per_solve * 1e6:>11,.1f}{iters:>12}"
              f"{row['residual'].mean():>12.2e}{row['residual'].max():>11.2e}{within:>8.1%}{ratio:>14}")
    if ikpy_per_solve is not None:
        print(f"ikpy timed on the first {IKPY_FRAMES} consecutive frames only (all {FRAMES} would take "
              f"about {ikpy_per_solve * FRAMES:.0f} s); its residuals are over those frames.")
        for name in ("FABRIK", "CCD"):
            per_solve = rows[name]["seconds"] / rows[name]["frames"]
            print(f"{name}: {ikpy_per_solve / per_solve:,.0f}x faster per solve than ikpy "
                  f"(max residual {rows[name]['residual'].max():.1e} vs ikpy's {rows['ikpy']['residual'].max():.1e})")
    print()
    yardstick_rows(targets)


def yardstick_rows(targets):
    """Ours against the compiled yardstick per bone and iteration, with and without
    limits (+-0.6 rad on every joint but the first), each warm-started frame to frame."""
    from _chain_yardstick import compiled, per_bone_iteration

    solvers, note = compiled()
    if solvers is None:
        print(f"compiled yardstick: {note}")
        return
    free = np.array([(-1e6, 1e6)] * BONES)
    limited = np.array([(-1e6, 1e6)] + [(-0.6, 0.6)] * (BONES - 1))
    rows = []
    for k, (name, solve) in enumerate((("FABRIK", solve_fabrik), ("CCD", solve_ccd))):
        for label, limits in (("free", free), ("limits", limited)):
            tolerance = 1e-6
            best = np.inf
            for _ in range(REPEATS):
                t0 = time.perf_counter()
                sol = solve(LENGTHS, [0.0, 0.0], targets, initial=INITIAL, limits=limits, tolerance=tolerance,
                            max_iterations=500)
                best = min(best, time.perf_counter() - t0)
            ours = best / (int(sol.iterations.sum()) * BONES) * 1e9
            ns, its = per_bone_iteration(solvers[k], LENGTHS, targets, INITIAL, limits, tolerance, 500)
            rows.append([name, label, f"{sol.iterations.mean():.1f}", f"{ours:.0f} ns", f"{its:.1f}", f"{ns:.0f} ns",
                         f"{ours / ns:.2f}x"])
    print(f"Per bone and iteration, tolerance 1e-6, against {note}:")
    table(rows, ("solver", "joints", "ours it/frame", "ours", "compiled it/frame", "compiled", "ours / compiled"))


if __name__ == "__main__":
    main()
