"""The IK solve of one chain in its shoulder space, per solver kind.

Input: the target in shoulder space (N, 2), the chain's FK pose (N, B) and its
settings sampled per frame. Output: an :class:`IKResult` with local angles whose
first entry is absolute in the shoulder space (the frame at the chain's first
joint), exactly as the bones store it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rigeditor.core.chains import solve_ccd, solve_fabrik
from rigeditor.core.diagnostics import MAX_RATE, angle_sensitivity
from rigeditor.core.geometry import pair
from rigeditor.core.limits import bound_length, smooth_offsets
from rigeditor.core.twobone import soft_distance, solve_two_bone

_NO_LIMIT = (-np.pi, np.pi)
_FREE = (-1e6, 1e6)  # an unlimited joint of an iterative chain (never binds)


@dataclass(frozen=True)
class IKResult:
    """angles (N, B) radians; stretch (N,); root_offset (N, 2) in shoulder space;
    limited (N,) bool; distance / solve_distance (N,) raw and solved; residual (N,)
    the solver's own |end - target|; iterations (N,) int; converged (N,) bool;
    sensitivity (N,) degrees per model unit; reach (inner, outer) model units (per
    row for a group of chains);
    bend_overridden (N,) bool: the limits exclude the saved bend side (analytic only).
    directions: per bone, (cos, sin) of its local angle, (N,) each, when the solver
    has them at hand (forward kinematics then skips the trigonometry), else None."""

    angles: np.ndarray
    stretch: np.ndarray
    root_offset: np.ndarray
    limited: np.ndarray
    distance: np.ndarray
    solve_distance: np.ndarray
    residual: np.ndarray
    iterations: np.ndarray
    converged: np.ndarray
    sensitivity: np.ndarray
    reach: tuple[float, float]
    bend_overridden: np.ndarray
    directions: tuple | None = None


def solve_analytic(chain, lengths, target, bend, softness, fk, frames) -> IKResult:
    """Law of cosines (rigeditor.core.twobone) with the chain's limits and strategy.

    lengths: (upper, lower), floats or per-row arrays; fk: per joint, (rows,) FK
    rotations. The rows are ``frames`` frames of one chain, or one frame each of
    chains with this chain's limits and strategy (``solve_chain.group_chains``),
    whose targets all lie off their shoulders (the first frame's fallback direction is
    this chain's)."""
    a, b = lengths
    start = fk[0][0]
    limits = None
    if any(chain.limit(i) is not None for i in range(2)):
        limits = tuple(chain.limit(i) or _NO_LIMIT for i in range(2))
    st = chain.strategy
    sol = solve_two_bone(
        a, b, np.zeros(2), target, bend=bend, softness=softness,
        prev_direction=(np.cos(start), np.sin(start)), limits=limits, on_limit=st.kind,
        max_stretch=st.max_stretch, max_root_offset=st.max_root_offset,
        # Smoothing runs along a chain's frames; a single frame has nothing to smooth.
        root_time_constant=st.root_time_constant if frames > 1 else 0.0,
    )
    n = target.shape[0]
    return IKResult(
        angles=pair(sol.shoulder_angle, sol.elbow_angle),
        stretch=sol.stretch, root_offset=sol.root_offset, limited=sol.limited,
        distance=sol.distance, solve_distance=sol.solve_distance, residual=sol.residual,
        iterations=np.ones(n, dtype=int), converged=np.ones(n, dtype=bool),
        sensitivity=angle_sensitivity(a, b, sol.distance, softness=softness),
        reach=(abs(a - b), a + b), bend_overridden=sol.bend_overridden,
        directions=_directions(sol, a, b),
    )


def _directions(sol, a, b):
    """(cos, sin) of the upper bone's angle and of the elbow's, from the solver's own
    forward kinematics (elbow and end positions): a few multiplications instead of
    four sin/cos per frame. None when a bone has no length to measure it by."""
    k = sol.stretch
    if not np.all(k > 0):
        return None
    ua, ub = 1.0 / (a * k), 1.0 / (b * k)
    c1 = (sol.elbow[:, 0] - sol.root_offset[:, 0]) * ua
    s1 = (sol.elbow[:, 1] - sol.root_offset[:, 1]) * ua
    c12 = (sol.end[:, 0] - sol.elbow[:, 0]) * ub
    s12 = (sol.end[:, 1] - sol.elbow[:, 1]) * ub
    # A bone far shorter than the positions it is measured between (1e-17 of them)
    # loses its direction to rounding: then the angles say it (sin and cos of them).
    if not all(np.all(np.abs(c * c + s * s - 1.0) <= 1e-6) for c, s in ((c1, s1), (c12, s12))):
        return None
    # The elbow's angle is relative to the upper bone: rotate back by the upper one.
    return (c1, s1), (c1 * c12 + s1 * s12, c1 * s12 - s1 * c12)


_limit_cache: dict[int, tuple] = {}


def _limits(chain, count: int):
    """(per bone its (min, max) or None, (B, 2) read-only bounds for the solver or None
    when no bone has one, (B,) which bones have one); remembered per chain."""
    hit = _limit_cache.get(id(chain))
    if hit is not None and hit[0] is chain and hit[1] == count:
        return hit[2]
    bounds = [chain.limit(i) for i in range(count)]
    limits = None if all(x is None for x in bounds) else np.array([x or _FREE for x in bounds], dtype=float)
    real = np.array([x is not None for x in bounds])
    for a in (limits, real):
        if a is not None:
            a.flags.writeable = False
    if len(_limit_cache) > 256:
        _limit_cache.clear()
    _limit_cache[id(chain)] = (chain, count, (bounds, limits, real))
    return bounds, limits, real


def solve_iterative(chain, lengths, target, softness, start) -> IKResult:
    """FABRIK or CCD (rigeditor.core.chains), warm-started frame to frame from
    ``start`` (B,) local angles on the first frame (its FK pose, or the range's
    solution of the frame before: ``ik_warm``). Soft reach compresses the target's distance before the
    solve; stretch and move-root act on the solved pose (no second solve)."""
    lengths = np.asarray(lengths, dtype=float)
    outer = float(lengths.sum())
    inner = float(max(0.0, 2 * lengths.max() - outer))
    raw = np.hypot(target[:, 0], target[:, 1])
    solve_d = soft_distance(raw, 0.0, outer, softness)  # the outer bound only
    scale = np.where(raw > 0, solve_d / np.where(raw > 0, raw, 1.0), 1.0)
    aim = target * scale[:, None]
    _, limits, real = _limits(chain, len(lengths))
    solver = solve_fabrik if chain.solver == "fabrik" else solve_ccd
    sol = solver(lengths, np.zeros(2), aim, initial=start, limits=limits,
                 tolerance=chain.tolerance, max_iterations=chain.max_iterations)
    angles, joints = sol.angles, sol.joints
    limited = np.zeros(raw.shape, dtype=bool)
    if limits is not None:
        at_bound = (np.abs(angles - limits[:, 0]) <= 1e-9) | (np.abs(angles - limits[:, 1]) <= 1e-9)
        limited = np.any(at_bound & real, axis=-1)

    end = joints[:, -1]
    st = chain.strategy
    stretch = np.ones(raw.shape)
    offset = np.zeros_like(target)
    if st.kind == "stretch":
        v2 = np.sum(end * end, axis=-1)
        k = np.sum(target * end, axis=-1) / np.where(v2 > 0, v2, 1.0)
        stretch = np.where(v2 > 0, np.clip(k, 1 - st.max_stretch, 1 + st.max_stretch), 1.0)
    elif st.kind == "move_root":
        offset = bound_length(target - end, st.max_root_offset)
        offset = smooth_offsets(offset, st.root_time_constant)
    final_end = end * stretch[:, None] + offset
    residual = np.hypot(*(final_end - target).T)
    return IKResult(
        angles=angles, stretch=stretch, root_offset=offset, limited=limited,
        distance=raw, solve_distance=solve_d, residual=residual,
        iterations=sol.iterations, converged=sol.converged | (residual <= chain.tolerance),
        sensitivity=jacobian_sensitivity(joints), reach=(inner, outer),
        bend_overridden=np.zeros(raw.shape, dtype=bool),
    )


def jacobian_sensitivity(joints) -> np.ndarray:
    """Worst-case joint rotation per unit of end movement, degrees per unit: the
    spectral norm of the Jacobian's pseudo-inverse, 1 / sigma_min(J), for joints
    (N, B+1, 2). For two bones it equals the analytic angle sensitivity."""
    rel = joints[:, -1:, :] - joints[:, :-1, :]  # end minus each pivot, (N, B, 2)
    # d(end)/d(angle_k) = perp(end - pivot_k); JJ^T is 2 x 2.
    jx, jy = -rel[..., 1], rel[..., 0]
    sxx, syy, sxy = np.sum(jx * jx, -1), np.sum(jy * jy, -1), np.sum(jx * jy, -1)
    tr, det = sxx + syy, sxx * syy - sxy * sxy
    low = 0.5 * (tr - np.sqrt(np.maximum(tr * tr - 4 * det, 0.0)))
    sigma = np.sqrt(np.maximum(low, 0.0))
    return np.degrees(np.minimum(1.0 / np.maximum(sigma, 1.0 / MAX_RATE), MAX_RATE))
