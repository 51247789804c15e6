"""The physics stepping loop compiled (``core.physics_jit``) when numba is there.

``physics.run`` hands a long range here (:data:`MIN_UPDATES` updates or more) once
the compiled loop is loaded; shorter runs (the frame under the hand: one update from
a remembered state, at most four) stay in Python, where a call into the compiled loop
and its array conversions would cost more than the updates. Loaded lazily on a
thread, as the chain loops are (``core.lazy_kernel``): a rig without
physics never imports numba, and opening one never waits for a compile;
``RIGEDITOR_JIT=0`` or no numba leaves the Python loop, which gives the same results
(the same arithmetic; tests/model/test_physics_jit.py).
"""
from __future__ import annotations

import math

import numpy as np

from rigeditor.core.lazy_kernel import WAIT_S, LazyKernel

_KERNEL = LazyKernel("rigeditor.core.physics_jit", "rigeditor-physics-jit")

MIN_UPDATES = 16
"""Updates from which a run goes to the compiled loop (when loaded): below, the call
and the conversions cost more than Python's updates (~5 us each)."""
BIG_STEPPING = 100_000
"""Updates (frames x constraints) of one evaluation from which it waits up to
WAIT_S for the compiled loop to load (0.5-0.6 s from its cache) rather than
step in Python (about half a second and more)."""


def compiled_run(wait: bool | float = False):
    """``core.physics_jit.run``, or None: numba missing or failing, ``RIGEDITOR_JIT=0``,
    or not loaded yet after ``wait`` (``lazy_kernel.LazyKernel.get``)."""
    return _KERNEL.get(wait)


def prepare(updates: int) -> None:
    """Before an evaluation steps ``updates`` updates in all: start loading, and wait
    for the loop (up to WAIT_S) when they are many."""
    compiled_run(wait=WAIT_S if updates >= BIG_STEPPING else False)


def run(loop, c, length, s, times, k, w, resets, every):
    """``physics.run`` by the compiled ``loop``: the same arguments and results (the
    states as tuples, the world frame as six float arrays)."""
    n = len(times)

    def f64(values):  # exactly the compiled signature: C-ordered writeable float64
        return np.array(values, dtype=np.float64, order="C")
    weights = f64([c.x, c.y, c.rotate, c.shear_x, c.scale_x])
    flags = np.zeros(n, np.bool_) if resets is None else np.array(resets, dtype=np.bool_)
    out = np.empty((6, n))
    states = np.empty((-(-n // every) if every else 1, 18))
    state, w = f64(s), f64(w)
    # CPython's math.hypot, as the Python loop takes it (not C's hypot: an ulp apart at times)
    norms = f64(list(map(math.hypot, w[0].tolist(), w[2].tolist()))) if c.scale_x > 0 else np.zeros(n)
    loop(weights, 1.0 / c.step, float(c.reference_scale), float(c.limit), float(length), state, f64(times),
         f64(k), w, norms, flags, int(every), out, states)
    return [tuple(row) for row in states.tolist()], list(out)
