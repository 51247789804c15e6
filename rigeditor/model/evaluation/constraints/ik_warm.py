"""Where an iterative chain's solve starts: the warm start of its first frame.

FABRIK and CCD start each frame from the frame before's solution (``core.chains``),
so a frame's pose depends on the frames before it. A range that begins at the
timeline's first frame starts from that frame's FK pose; a range that begins later
(the frame under the hand, evaluated alone during a drag) starts from the pose the
``previous`` Bake's own range started that frame from (``ChainBake.warm``): the
solution of the frame before, as the whole range solved it. So a frame evaluated
alone from a slice of a whole-range Bake equals that frame of the range bit for bit,
and during a drag it is warm-started as the range is, from the neighbouring frame's
solution in the last whole range (which the edit may since have moved: then the
frame under the hand reaches the same target within the chain's tolerance, and its
inner joints may differ by as much as that neighbour moved).
"""
from __future__ import annotations

import numpy as np

ITERATIVE = ("fabrik", "ccd")  # the solvers whose frames start from the frame before


def first_warm(project, chain, frames: np.ndarray, previous) -> np.ndarray | None:
    """(B,) local angles the chain's solve starts its first frame from, or None for
    its FK pose there (a range from the timeline's first frame, no previous Bake at
    these frames, or one without a warm start for the chain)."""
    if previous is None or frames.shape[0] == 0 or frames[0] <= project.timeline.start:
        return None
    cb = previous.chains.get(chain.name)
    if cb is None or cb.warm is None or cb.warm.shape != (frames.shape[0], len(chain.bones)):
        return None
    if not np.array_equal(previous.frames, frames):
        return None
    return cb.warm[0]


def warm_rows(start: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """(N, B): frame 0 starts from ``start`` (B,), frame i from frame i-1's solution."""
    out = np.empty_like(angles)
    out[0] = start
    out[1:] = angles[:-1]
    return out
