"""Automatic weights (bounded biharmonic, blend width 40 px) on the example arm meshed
ever finer, up to ~50,000 vertices, 3 bones, and at the largest size 6 bones (each bone
split in two), beside two yardsticks measured in the same run, alternately:

- the previous round's solve: the same code with this round's shortcuts switched off
  (no band settling, no degenerate prediction, no derived last bone, coarse levels
  uncapped, though not restarted cold when they do not converge); it must give the
  same weights (the one KKT point, checked to 1e-8);
- libigl's ``bbw`` on the same handles (the ``bench`` extra; "not installed" without
  it). libigl uses its own mass matrix, so its weights differ slightly: only its time
  is compared.

Times are wall and CPU seconds of one run (the bones run on two threads; on a busy
machine CPU is the steadier figure). ``--quick`` skips the yardsticks at the largest
size (each takes 10-60 s there).
"""
from __future__ import annotations

import sys
import time
from contextlib import contextmanager

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


@contextmanager
def previous_round():
    """The solve as it was before bands, degenerate prediction and the derived last bone."""
    saved = (biharmonic._BAND_RINGS, biharmonic._DEGENERATE, biharmonic._derived_last, biharmonic._COARSE_STEPS)
    biharmonic._BAND_RINGS, biharmonic._DEGENERATE, biharmonic._COARSE_STEPS = 0, -1.0, 10**9
    biharmonic._derived_last = lambda *args: None
    try:
        yield
    finally:
        (biharmonic._BAND_RINGS, biharmonic._DEGENERATE, biharmonic._derived_last,
         biharmonic._COARSE_STEPS) = saved


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


def fmt(wall, cpu):
    return f"{wall:.2f} s ({cpu:.2f} CPU)"


def row(name, v, t, labels, yardsticks, have_igl):
    (ours, steps), wall, cpu = timed(lambda: bounded_biharmonic(v, t, labels))
    out = [name, fmt(wall, cpu), "+".join(map(str, steps))]
    if yardsticks:
        with previous_round():
            (ref, ref_steps), pw, pc = timed(lambda: bounded_biharmonic(v, t, labels))
        assert np.abs(ref - ours).max() < 1e-8  # the same minimiser
        out += [fmt(pw, pc), "+".join(map(str, ref_steps)), f"{pc / cpu:.1f}x"]
    else:
        out += ["-", "-", "-"]
    if have_igl and yardsticks:
        _, iw, ic = timed(lambda: libigl(v, t, labels))
        out += [fmt(iw, ic), f"{ic / cpu:.1f}x"]
    else:
        out += ["-" if have_igl else "not installed", "-"]
    print(" ", *out, flush=True)
    return out


def main():
    quick = "--quick" in sys.argv
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
        last = i == len(SPACINGS) - 1
        labels = bone_handles(v, ExampleArm.bones, radius, 40.0)
        rows.append(row(f"{len(v):,}", v, t, labels, not (quick and last), have_igl))
        if last:
            labels6 = bone_handles(v, six_bones(), radius, 40.0)
            rows.append(row(f"{len(v):,}, 6 bones", v, t, labels6, not quick, have_igl))
    print("Automatic weights, example arm, 3 bones (6 in the last row; goal: 50,000 vertices under 5 s)")
    table(rows, ("vertices", "ours", "steps/bone", "previous round", "steps/bone", "previous/ours (CPU)",
                 "libigl bbw", "libigl/ours (CPU)"))


if __name__ == "__main__":
    main()
