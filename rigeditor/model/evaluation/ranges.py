"""Bakes of part of a timeline, and the memory a bake needs.

A bake of frames A..B is the same rows of the full bake: target smoothing and the
iterative solvers' warm starts carry state forward from the timeline's start, and
the root-offset smoothing of ``move_root`` chains looks ahead (it is zero-phase).
So the evaluation spans from the timeline's start (or A, if earlier) to B plus that
look-ahead, and the requested rows are cut out of it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields, is_dataclass, replace

import numpy as np

from rigeditor.core.geometry import Affine, unwrap
from rigeditor.model.evaluation.bake import Bake, frozen
from rigeditor.model.evaluation.evaluate import evaluate
from rigeditor.model.data.project import Project

PEAK_FACTOR = {"evaluate": 1.4, "csv": 1.4, "json": 1.5, "png": 1.5, "spine": 3.4}
"""Peak memory of evaluating a bake and writing it in each format, per byte of the
finished Bake. Measured with tracemalloc at 100,000 frames of each example: evaluation
1.19-1.28, CSV 1.20-1.24, JSON 1.30-1.34, PNG plot 1.30-1.32, Spine 2.27-3.21."""

PROBE_FRAMES = 32
PROBE_LIMIT = 4096  # frames: a probe as long as the longest kernel, within reason


def outside_timeline(timeline, first: int, last: int, option: str, given, whose: str = "the timeline") -> str | None:
    """The one rule for frames given on the command line (``--frames`` of bake and
    report, ``--frame`` of render and of the editor): they lie within the timeline.
    None when frames ``first..last`` do, else the problem line, naming the timeline (and
    for a range, the part of it within). Past the end there is no animation, keys just
    hold: a bake would quietly write a longer one than the project's."""
    tl = timeline
    if tl.start <= first <= tl.end and tl.start <= last <= tl.end:
        return None
    lo, hi = max(first, tl.start), min(last, tl.end)
    fix = f"; within it: {option} {lo}:{hi}" if option == "--frames" and lo <= hi else ""
    return f"{option}: {given} is outside {whose} ({tl.start}-{tl.end}){fix}; to go further, lengthen the timeline"


def evaluation_span(project: Project, first: int, last: int) -> tuple[int, int]:
    """The frames (inclusive) to evaluate so that frames ``first..last`` come out as
    in a bake of the whole timeline; :func:`bake_rows` then cuts them out."""
    tl = project.timeline
    return min(first, tl.start), max(last, min(tl.end, last + _look_ahead(project)))


def _look_ahead(project: Project) -> int:
    """Frames the root-offset smoothing looks ahead: its kernel spans +/- ceil(6 tau)
    frames, and a chain below a move_root chain sees that chain's look-ahead too, so
    the margins add up along the rig."""
    return sum(math.ceil(6.0 * c.strategy.root_time_constant) for c in project.chains
               if c.strategy.kind == "move_root" and c.strategy.root_time_constant > 0)


def bake_rows(bake: Bake, start: int, stop: int) -> Bake:
    """Rows ``start:stop`` of ``bake``. Local rotations are continued (unwrapped) from
    the bake's first row first, so exported curves carry the same turns as the
    whole bake's rather than starting again within (-pi, pi]."""
    out = bake.rows(start, stop)
    bones = tuple(replace(cut, local_rotation=frozen(unwrap(whole.local_rotation)[start:stop]))
                  for whole, cut in zip(bake.bone_bakes, out.bone_bakes))
    return replace(out, bone_bakes=bones)


def bake_bytes(project: Project, frames: int, output: str = "evaluate") -> int:
    """Estimated peak memory (bytes) of evaluating ``frames`` frames and writing them as
    ``output`` (a key of PEAK_FACTOR): the bytes per frame of a small probe bake
    times the output's factor. Nothing of the size of ``frames`` is allocated."""
    # At least one root-smoothing kernel long, so the probe is a shot like any other; the
    # kernel never outgrows the shot, so neither does the probe (a time constant of 1e300
    # frames is legal).
    n = max(PROBE_FRAMES, min(2 * _look_ahead(project) + 2, frames, PROBE_LIMIT))
    start = project.timeline.start
    probe = evaluate(project, np.arange(start, start + n, dtype=float))
    return int(math.ceil(_nbytes(probe) / n * PEAK_FACTOR[output] * frames))


class TooLarge(ValueError):
    """A bake that would not fit in the memory available (see :func:`memory_fit`)."""


@dataclass(frozen=True)
class MemoryFit:
    """The estimate for a bake of frames ``first..last`` (evaluated from ``lo``):
    ``need`` and ``have`` in bytes (have None: the system does not say), and the last
    frame of the longest range from ``first`` that fits (None when none does)."""

    first: int
    last: int
    lo: int
    need: int
    have: int | None
    fits_to: int | None

    @property
    def ok(self) -> bool:
        return self.have is None or self.need <= self.have

    def text(self, what: str = "to evaluate") -> str:
        """``frames A-B need about X GB to evaluate, Y GB is available``."""
        span = f" (evaluated from frame {self.lo}, so they match the whole bake)" if self.lo < self.first else ""
        return (f"frames {self.first}-{self.last}{span} need about {gigabytes(self.need)} {what}, "
                f"{gigabytes(self.have or 0)} is available")


def memory_fit(project: Project, first: int, last: int, output: str, have: int | None,
               step: float = 1.0) -> MemoryFit:
    """Estimate, before allocating, whether frames ``first..last`` of ``project`` baked
    (a sample every ``step`` frames, 1 at the project's rate) and written as ``output``
    (a key of PEAK_FACTOR) fit in ``have`` bytes (``core.memory.available_bytes()``):
    the command line and the editor both ask this."""
    lo, hi = evaluation_span(project, first, last)
    samples = math.floor((hi - lo) / step + 1e-9) + 1
    need = bake_bytes(project, samples, output)
    fits_to = None
    if have is not None and need > have:
        # The longest range from ``first`` that fits; its evaluation still starts at ``lo``.
        ahead = evaluation_span(project, first, first)[1] - first
        fits = int(have / (need / samples) * step) - (first - lo) - ahead
        fits_to = first + fits - 1 if fits > 0 else None
    return MemoryFit(first, last, lo, need, have, fits_to)


def gigabytes(n: float) -> str:
    return f"{n / 1e9:.1f} GB" if n >= 1e8 else f"{n / 1e6:.0f} MB"


def _nbytes(value) -> int:
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, Affine):
        return sum(_nbytes(np.asarray(f)) for f in value.fields())
    if isinstance(value, dict):
        return sum(_nbytes(v) for v in value.values())
    if isinstance(value, tuple):
        return sum(_nbytes(v) for v in value)
    if is_dataclass(value) and not isinstance(value, type):
        return sum(_nbytes(getattr(value, f.name)) for f in fields(value))
    return 0
