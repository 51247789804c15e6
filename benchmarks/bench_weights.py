"""Automatic weights (bounded biharmonic, 3 bones, blend width 40 px) on the example arm
meshed ever finer, up to ~50,000 vertices, beside two yardsticks measured in the same run:
the same active set started cold (every step from scratch, what the solve did before the
coarse-to-fine warm start) and libigl's ``bbw`` (the ``bench`` extra; skipped when it is
not installed). libigl uses its own mass matrix, so its weights differ slightly: only its
time is compared. Times are wall and CPU seconds of one run (the bones run on two
threads: on a busy machine CPU is the steadier figure). ``--full`` also runs the
yardsticks at the largest size (about a minute each). The last row is the largest mesh
with each bone split in two (6 bones), beside libigl on the same handles.
"""
from __future__ import annotations

import sys
import time

import numpy as np
from _common import table

from rigeditor.core import biharmonic
from rigeditor.core.mesh import edges_of, mesh_from_alpha
from rigeditor.core.mesh.shapes import ExampleArm
from rigeditor.core.weights import bone_handles, bounded_biharmonic

SPACINGS = (2.9, 1.5, 0.95, 0.6)  # ~2k, 8k, 19k, 48k vertices


def timed(fn):
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - t0, time.process_time() - c0


def cold(v, t, labels):
    saved = biharmonic.COARSEST
    biharmonic.COARSEST = 10**12
    try:
        return bounded_biharmonic(v, t, labels)
    finally:
        biharmonic.COARSEST = saved


def libigl(v, t, labels):
    import igl

    b = np.nonzero(labels >= 0)[0]
    bc = np.eye(int(labels.max()) + 1)[labels[b]]
    return igl.bbw(np.asarray(v, float), np.asarray(t, np.int64), b.astype(np.int64), bc)


def six_bones():
    """The example arm's three bones, each split at its middle: six in a chain."""
    bones = np.asarray(ExampleArm.bones, float)
    mid = bones.mean(axis=1)
    return np.array([seg for (head, tail), m in zip(bones, mid) for seg in ([head, m], [m, tail])])


def main():
    full = "--full" in sys.argv
    try:
        import igl  # noqa: F401
        have_igl = True
    except ImportError:
        have_igl = False
    rows = []
    for i, spacing in enumerate(SPACINGS):
        m = mesh_from_alpha(ExampleArm.alpha(), tolerance=0.5, spacing=spacing)
        v, t = m.vertices, m.triangles
        e = edges_of(t)
        radius = 0.75 * float(np.mean(np.hypot(*(v[e[:, 1]] - v[e[:, 0]]).T)))
        labels = bone_handles(v, ExampleArm.bones, radius, 40.0)
        (ours, steps), wall, cpu = timed(lambda: bounded_biharmonic(v, t, labels))
        last = i == len(SPACINGS) - 1
        row = [f"{len(v):,}", f"{wall:.2f} s ({cpu:.2f} CPU)", "+".join(map(str, steps))]
        if full or not last:
            (ref, ref_steps), cw, cc = timed(lambda: cold(v, t, labels))
            assert np.abs(ref - ours).max() < 1e-8  # the same minimiser
            row += [f"{cw:.2f} s ({cc:.2f} CPU)", "+".join(map(str, ref_steps)), f"{cc / cpu:.1f}x"]
        else:
            row += ["-", "-", "-"]
        if have_igl and (full or not last):
            _, iw, ic = timed(lambda: libigl(v, t, labels))
            row += [f"{iw:.2f} s ({ic:.2f} CPU)", f"{ic / cpu:.1f}x"]
        else:
            row += ["-" if have_igl else "not installed", "-"]
        rows.append(row)
        print(" ", *row, flush=True)
        if last:
            labels6 = bone_handles(v, six_bones(), radius, 40.0)
            (_, steps6), wall6, cpu6 = timed(lambda: bounded_biharmonic(v, t, labels6))
            row = [f"{len(v):,}, 6 bones", f"{wall6:.2f} s ({cpu6:.2f} CPU)", "+".join(map(str, steps6)),
                   "-", "-", "-"]
            if have_igl:
                _, iw, ic = timed(lambda: libigl(v, t, labels6))
                row += [f"{iw:.2f} s ({ic:.2f} CPU)", f"{ic / cpu6:.1f}x"]
            else:
                row += ["not installed", "-"]
            rows.append(row)
            print(" ", *row, flush=True)
    print("Automatic weights, example arm, 3 bones (6 in the last row; goal: 50,000 vertices under 5 s)")
    table(rows, ("vertices", "ours", "steps/bone", "cold start", "steps/bone", "cold/ours (CPU)",
                 "libigl bbw", "libigl/ours (CPU)"))


if __name__ == "__main__":
    main()
