"""The arguments of the iterative chain solvers (``core.chains``), checked and converted
before any frame is solved: a bad one is named, never solved into NaN."""
from __future__ import annotations

import math
import operator

import numpy as np

from rigeditor.core.geometry import wrap_angle


def checked_inputs(lengths, root, target, initial, limits, tolerance, max_iterations):
    """The iterative solvers' arguments checked and converted: (lengths, roots (N, 2),
    targets (N, 2), batched, start angles (B,) inside the limits, limits (B, 2) or None,
    tolerance, max_iterations); ValueError names the one at fault."""
    lengths = _finite("lengths", lengths)
    if lengths.ndim != 1 or lengths.size == 0:
        raise ValueError(f"lengths: expected shape (B,) with B >= 1, got {lengths.shape}")
    if np.any(lengths <= 0):
        raise ValueError(f"lengths: every bone length must be > 0, got {lengths.min()}")
    n_bones = lengths.size
    root, target = _finite("root", root), _finite("target", target)
    for name, value in (("root", root), ("target", target)):
        if value.ndim not in (1, 2) or value.shape[-1] != 2:
            raise ValueError(f"{name}: expected shape (2,) or (N, 2), got {value.shape}")
    batched = root.ndim == 2 or target.ndim == 2
    if root.ndim == 2 and target.ndim == 2 and len(root) != len(target):
        raise ValueError(f"target: {len(target)} frames, but root has {len(root)}")
    roots, targets = np.broadcast_arrays(np.atleast_2d(root), np.atleast_2d(target))
    start = np.zeros(n_bones) if initial is None else _finite("initial", initial)
    if start.shape != (n_bones,):
        raise ValueError(f"initial: expected shape ({n_bones},), got {start.shape}")
    if limits is not None:
        limits = _finite("limits", limits)
        if limits.shape != (n_bones, 2):
            raise ValueError(f"limits: expected shape ({n_bones}, 2), got {limits.shape}")
        if np.any(limits[:, 0] > limits[:, 1]):
            raise ValueError(f"limits: each (min, max) needs min <= max, got {limits.tolist()}")
        lo, hi = limits[:, 0], limits[:, 1]
        # Outside the range, take the turn nearest the middle of the range before
        # clamping, so an initial angle that is inside modulo 2pi is kept.
        mid = 0.5 * (lo + hi)
        inside = (start >= lo) & (start <= hi)
        start = np.where(inside, start, np.clip(mid + wrap_angle(start - mid), lo, hi))
    try:
        tolerance = float(tolerance)
    except (TypeError, ValueError):
        raise ValueError(f"tolerance: expected a number, got {tolerance!r}") from None
    if not (math.isfinite(tolerance) and tolerance > 0):
        raise ValueError(f"tolerance: must be finite and > 0 (model units), got {tolerance!r}")
    try:
        if isinstance(max_iterations, bool):
            raise TypeError
        max_iterations = operator.index(max_iterations)
    except TypeError:
        raise ValueError(f"max_iterations: expected an int, got {max_iterations!r}") from None
    if max_iterations < 1:
        raise ValueError(f"max_iterations: must be >= 1, got {max_iterations}")
    return lengths, roots, targets, batched, start, limits, tolerance, max_iterations


def _finite(name, value):
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected an array of numbers, got {value!r}") from None
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name}: must be finite (no NaN or inf)")
    return arr
