"""Analytic two-bone IK (law of cosines), vectorised over frames.

Conventions: y-up model space, angles in radians counter-clockwise from +x.
``bend = +1`` means the forearm turns counter-clockwise relative to the upper
bone (``elbow_angle >= 0``); the bend is an input, never re-derived from the
geometry, so the elbow cannot flip across the bone line or through full
extension. Every solve is checked by forward kinematics of the returned angles:
``residual = |end - target|`` is measured, not assumed.

The reference outline gives the shoulder offset and the elbow angle the same
sign; with counter-clockwise forward kinematics that misses the target. If the
forearm turns counter-clockwise (bend +1), the upper bone must sit clockwise of
the target line, so ``shoulder = phi - bend * alpha`` and
``elbow = bend * (pi - gamma)``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from rigeditor.core.blocks import run_in_blocks
from rigeditor.core.twobone_one import solve_one
from rigeditor.core.limits import LIMIT_STRATEGIES, bound_length, nearest_within_limits, smooth_offsets
from rigeditor.core.reach import quadratic_reach, reach_interval, soft_distance

__all__ = ["EPS", "TwoBoneSolution", "solve_two_bone", "soft_distance", "quadratic_reach", "reach_interval"]


@dataclass(frozen=True)
class TwoBoneSolution:
    """Result of :func:`solve_two_bone`; every field has the frame shape (…) or (…, 2).

    shoulder_angle: absolute upper-bone angle in the shoulder's space, radians.
    elbow_angle: forearm angle relative to the upper bone, radians in [-pi, pi].
    elbow, end: joint positions from forward kinematics of the returned angles,
        including stretch and root offset.
    distance: raw shoulder-to-target distance (model units, >= 0).
    solve_distance: the distance actually solved for, after clamping or soft reach.
    residual: |end - target| (model units, >= 0).
    limited: True where a joint limit bound; the pose is then the one within the
        limits whose end is closest to the target (before any strategy).
    bend_overridden: True where the limits exclude the saved bend side, so the
        elbow bends the other way (always a limited frame).
    stretch: scale applied to both bones (1.0 when none).
    root_offset: shoulder displacement applied by ``on_limit="move_root"`` (zero when none).
    """

    shoulder_angle: np.ndarray
    elbow_angle: np.ndarray
    elbow: np.ndarray
    end: np.ndarray
    distance: np.ndarray
    solve_distance: np.ndarray
    residual: np.ndarray
    limited: np.ndarray
    stretch: np.ndarray
    root_offset: np.ndarray
    bend_overridden: np.ndarray


MAX_COORDINATE = 1e150
"""Largest accepted magnitude of any input (model units): far beyond any rig, and it
guarantees that squaring a coordinate difference cannot overflow, so lengths use
sqrt(x*x + y*y) at a fraction of hypot's cost."""

EPS = 1e-9
"""Default guard, a fraction of the limb's length ``upper + lower``: a target nearer the
shoulder than that has no direction of its own and takes the direction of the frame
before it (``prev_direction`` on the first frame)."""

MIN_LENGTH = 1.0 / MAX_COORDINATE
"""Shortest accepted bone (model units). With lengths in [MIN_LENGTH, MAX_COORDINATE]
every quantity measured in limb lengths stays below 1e301, so nothing overflows."""


def _checked(name, value, tail=None):
    """``value`` as a float array (or a Python float when it is a scalar), validated.

    min() and max() propagate NaN, so two reductions answer "finite and in range" for
    the whole array; the detailed message is built only on failure.
    """
    arr = np.asarray(value, dtype=float)
    if tail is not None and (arr.ndim == 0 or arr.shape[-1] != tail):
        raise ValueError(f"{name}: expected shape ({tail},) or (..., {tail}), got {arr.shape}")
    if arr.ndim == 0:
        x = float(arr)
        if not -MAX_COORDINATE <= x <= MAX_COORDINATE:
            raise ValueError(f"{name}: must be finite with magnitude <= {MAX_COORDINATE:g}, got {x!r}")
        return x
    if arr.size and not (-MAX_COORDINATE <= arr.min() and arr.max() <= MAX_COORDINATE):
        flat = arr.reshape(-1)
        k = int(np.flatnonzero(~(np.abs(flat) <= MAX_COORDINATE))[0])
        where = list(np.unravel_index(k, arr.shape))
        raise ValueError(f"{name}{where}: must be finite with magnitude <= {MAX_COORDINATE:g}, got {flat[k]!r}")
    return arr


def _validate_limits(limits):
    if limits is None:
        return None
    try:
        arr = np.asarray(limits, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"limits: expected ((shoulder_min, shoulder_max), (elbow_min, elbow_max)), got {limits!r}") from exc
    if arr.shape != (2, 2):
        raise ValueError(f"limits: expected shape (2, 2), got {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"limits: must be finite, got {limits!r}")
    if np.any(arr[:, 0] > arr[:, 1]):
        raise ValueError(f"limits: each (min, max) needs min <= max, got {limits!r}")
    return arr


def _positive(name, value):
    low = value if np.ndim(value) == 0 else (value.min() if value.size else MIN_LENGTH)
    if not low >= MIN_LENGTH:
        raise ValueError(f"{name}: bone length must be >= {MIN_LENGTH:g} (and > 0), got {low!r}")
    return value


def _unit_bend(bend):
    if np.ndim(bend) == 0:
        if bend not in (1.0, -1.0):
            raise ValueError(f"bend: must be +1 or -1, got {bend!r}")
    elif not ((bend == 1.0) | (bend == -1.0)).all():
        raise ValueError(f"bend: must be +1 or -1, got {bend[(bend != 1.0) & (bend != -1.0)][0]!r}")
    return bend


def solve_two_bone(
    upper,
    lower,
    shoulder,
    target,
    *,
    bend=1,
    softness=0.0,
    prev_direction=None,
    limits=None,
    on_limit="accept",
    max_stretch=0.10,
    max_root_offset=None,
    root_time_constant=2.0,
    eps=EPS,
) -> TwoBoneSolution:
    """Solve a two-bone chain for every frame at once.

    upper, lower: bone lengths (> 0, model units), scalars or per-frame arrays.
    shoulder, target: positions, shape (2,) or (N, 2), y-up.
    bend: +1 or -1, scalar or per frame.
    softness: soft-reach width s >= 0 (model units); 0 hard-clamps.
    prev_direction: direction used when the first zero-distance frame has no
        earlier good frame (default +x).
    limits: ((shoulder_min, shoulder_max), (elbow_min, elbow_max)) in radians; the
        shoulder bound is absolute in the shoulder's space, the elbow bound relative.
    on_limit: "accept" (keep the gap), "stretch" (scale both bones within
        1 +/- max_stretch), or "move_root" (shift the shoulder by at most
        max_root_offset, smoothed over frames with a zero-phase exponential kernel
        of time constant ``root_time_constant`` frames).
    eps: guard for zero distance and the inner reach bound, as a fraction of the
        limb's length ``upper + lower`` (so it means the same at every scale); never
        changes a visible pose.
    """
    if on_limit not in LIMIT_STRATEGIES:
        raise ValueError(f"on_limit: must be one of {', '.join(LIMIT_STRATEGIES)}, got {on_limit!r}")
    if not (math.isfinite(max_stretch) and 0 <= max_stretch < 1):
        raise ValueError(f"max_stretch: must be in [0, 1), got {max_stretch!r}")
    if on_limit == "move_root":
        if max_root_offset is None or not (math.isfinite(max_root_offset) and max_root_offset >= 0):
            raise ValueError(f"max_root_offset: a finite value >= 0 is required with on_limit='move_root', got {max_root_offset!r}")
    if not (math.isfinite(root_time_constant) and root_time_constant >= 0):
        raise ValueError(f"root_time_constant: must be >= 0 frames, got {root_time_constant!r}")
    if not (math.isfinite(eps) and eps > 0):
        raise ValueError(f"eps: must be > 0, got {eps!r}")
    limits = _validate_limits(limits)
    one = solve_one(upper, lower, shoulder, target, bend, softness, prev_direction, limits, on_limit,
                    max_stretch, max_root_offset, eps, MIN_LENGTH, MAX_COORDINATE)
    if one is not None:
        return _one_solution(*one)

    f = _Frames(
        upper=_positive("upper", _checked("upper", upper)),
        lower=_positive("lower", _checked("lower", lower)),
        shoulder=_checked("shoulder", shoulder, 2),
        target=_checked("target", target, 2),
        bend=_unit_bend(_checked("bend", bend)),
        softness=_checked("softness", softness),
    )
    if np.any(np.asarray(f.softness) < 0):
        raise ValueError(f"softness: must be >= 0, got {np.min(f.softness)!r}")
    opts = dict(limits=limits, on_limit=on_limit, max_stretch=max_stretch,
                max_root_offset=max_root_offset, eps=eps, prev_direction=prev_direction)

    frame_shape = f.frame_shape()
    n = math.prod(frame_shape)
    f = f.flattened(frame_shape)
    out = _Outputs.empty(n)
    run_in_blocks(n, lambda i, j: _solve_block(f, out, i, j, **opts))
    if on_limit == "move_root" and len(frame_shape) == 1 and n > 1 and root_time_constant > 0:
        # The smoothed offset differs from the one each frame asked for, so solve
        # again from the shifted shoulder: the hand reaches wherever it still can,
        # and the residual reports what the smoothing cost.
        offset = smooth_offsets(out.root_offset, root_time_constant)
        shifted = replace(f, shoulder=np.broadcast_to(f.shoulder, (n, 2)) + offset)
        again = _Outputs.empty(n)
        opts.update(on_limit="accept")
        run_in_blocks(n, lambda i, j: _solve_block(shifted, again, i, j, **opts))
        again.root_offset[:] = offset
        again.distance[:] = out.distance
        out = again
    return out.solution(frame_shape)


def _one_solution(frame_shape, floats, flags):
    """A TwoBoneSolution of one frame from plain floats: views of one array (cheap)."""
    v = np.array(floats)
    flag = np.array(flags)
    if frame_shape:
        v = v[None]
        return TwoBoneSolution(v[:, 0], v[:, 1], v[:, 2:4], v[:, 4:6], v[:, 6], v[:, 7], v[:, 8],
                               flag[0:1], v[:, 9], v[:, 10:12], flag[1:2])
    e = ...
    return TwoBoneSolution(v[0, e], v[1, e], v[2:4], v[4:6], v[6, e], v[7, e], v[8, e],
                           flag[0, e], v[9, e], v[10:12], flag[1, e])


@dataclass
class _Frames:
    """Validated inputs. Constants stay Python floats (or (2,) arrays for points)
    so the kernel folds them; per-frame values are flattened to a frame axis."""

    upper: object
    lower: object
    shoulder: np.ndarray
    target: np.ndarray
    bend: object
    softness: object

    def frame_shape(self):
        return np.broadcast_shapes(
            self.shoulder.shape[:-1], self.target.shape[:-1],
            *(np.shape(v) for v in (self.upper, self.lower, self.bend, self.softness)),
        )

    def flattened(self, frame_shape):
        def flat(v, point=False):
            if np.ndim(v) == (1 if point else 0):
                return v
            tail = (2,) if point else ()
            if len(frame_shape) == 1 and v.shape == frame_shape + tail:
                return v  # already one row per frame (broadcast_to costs microseconds)
            return np.broadcast_to(v, frame_shape + tail).reshape((-1,) + tail)

        return _Frames(flat(self.upper), flat(self.lower), flat(self.shoulder, True),
                       flat(self.target, True), flat(self.bend), flat(self.softness))

    def block(self, i, j):
        """Frames [i, j): scalars as they are, points split into x and y."""
        def cut(v):
            return v if isinstance(v, float) else v[i:j]

        def xy(p):
            return (p[0], p[1]) if p.ndim == 1 else (p[i:j, 0], p[i:j, 1])

        return cut(self.upper), cut(self.lower), xy(self.shoulder), xy(self.target), cut(self.bend), cut(self.softness)


@dataclass
class _Outputs:
    shoulder_angle: np.ndarray
    elbow_angle: np.ndarray
    elbow: np.ndarray
    end: np.ndarray
    distance: np.ndarray
    solve_distance: np.ndarray
    residual: np.ndarray
    limited: np.ndarray
    stretch: np.ndarray
    root_offset: np.ndarray
    bend_overridden: np.ndarray

    @classmethod
    def empty(cls, n):
        return cls(np.empty(n), np.empty(n), np.empty((n, 2)), np.empty((n, 2)), np.empty(n),
                   np.empty(n), np.empty(n), np.zeros(n, dtype=bool), np.ones(n), np.zeros((n, 2)),
                   np.zeros(n, dtype=bool))

    def solution(self, frame_shape):
        return TwoBoneSolution(**{k: v.reshape(frame_shape + v.shape[1:]) for k, v in vars(self).items()})


def _solve_block(f, out, i, j, *, limits, on_limit, max_stretch, max_root_offset, eps, prev_direction):
    """Solve frames [i, j) of ``f`` into ``out``: law of cosines, limits, strategy, FK.

    The triangle is solved in units of the limb's length ``a + b``, so every
    intermediate is O(1) at any scale (1e-150 .. 1e150): the squares and Heron's
    product of raw lengths would overflow or underflow there. Guards are relative to
    the limb's length too.
    """
    a, b, (sx, sy), (tx, ty), bend, soft = f.block(i, j)
    m = j - i
    dx, dy = tx - sx, ty - sy
    if np.ndim(dx) == 0:  # constant target and shoulder, per-frame lengths or bend
        dx, dy = np.full(m, dx), np.full(m, dy)
    raw = _length(dx, dy, out=out.distance[i:j])
    inner, outer = abs(a - b), a + b
    guard = eps * outer
    if np.all(raw > guard):
        ux, uy = dx / raw, dy / raw
    else:
        ux, uy = _fill_directions(dx, dy, raw, raw > guard, _direction_before(f, i, eps, prev_direction))

    if not isinstance(soft, float) or soft > 0:
        raw = soft_distance(raw, inner, outer, soft)
    # Only a zero inner bound needs the guard (equal bones: d divides below). Nothing
    # divides by (d - inner) or (outer - d) and the cosines are clamped, so both bounds
    # are exact: a target inside the inner reach folds the limb flat (the sine's root,
    # a square root of (d - inner), turned a guard of 1e-9 into a 1e-4 rad shoulder
    # offset there), and an out-of-reach residual is exactly the distance beyond reach.
    d = np.clip(raw, np.maximum(inner, guard), outer, out=out.solve_distance[i:j])
    scale = 1.0 / outer
    an, bn = a * scale, b * scale
    dn = d * scale
    d2 = dn * dn
    cos_elbow = np.clip((an * an + bn * bn - d2) * (0.5 / (an * bn)), -1.0, 1.0)
    cos_offset = np.clip((d2 + (an * an - bn * bn)) / ((2.0 * an) * dn), -1.0, 1.0)
    straight = inner + guard >= outer
    if np.any(straight):
        # A bone shorter than the guard (eps/2 of the limb) leaves no range between the
        # reach bounds: the limb is straight, and the cosines above (the difference of
        # nearly equal squares over a vanishing product) are rounding noise there.
        cos_elbow[straight], cos_offset[straight] = -1.0, 1.0
    # The sines come from Heron's formula, whose small factors (outer - d) and
    # (d - inner) vanish exactly at the reach bounds. sqrt(1 - cos^2) would turn the
    # cancellation in the cosines (1 - 2e-14 for a short upper bone) into a shoulder
    # offset of 2e-7 rad and an arm that misses the target line.
    # (The small factors from the unscaled lengths: exactly 0 where d was clamped to a bound.)
    inner_n, outer_n = abs(an - bn), an + bn
    root = np.sqrt(np.maximum((outer_n + dn) * ((outer - d) * scale) * ((d - inner) * scale) * (dn + inner_n), 0.0))
    bs = root / ((2.0 * an) * dn)
    sin_elbow = root * (0.5 / (an * bn))
    if not isinstance(bend, float) or bend != 1.0:
        bs *= bend
    # Upper-bone direction = target direction rotated by -bend * alpha (a complex
    # multiplication): one atan2 of that vector is cheaper than atan2 of the target
    # plus an arccos, and forward kinematics reuses the vector instead of cos/sin.
    c1 = ux * cos_offset + uy * bs
    s1 = uy * cos_offset - ux * bs
    shoulder_angle = np.arctan2(s1, c1, out=out.shoulder_angle[i:j])
    # pi - gamma, from its sine and cosine: exact at both bounds, unlike arccos.
    ce = np.negative(cos_elbow, out=cos_elbow)
    elbow_angle = np.arctan2(sin_elbow, ce, out=out.elbow_angle[i:j])
    if not isinstance(bend, float) or bend != 1.0:
        elbow_angle *= bend
        sin_elbow *= bend
    trig = _rotations(c1, s1, ce, sin_elbow)
    if limits is not None:
        nearest_within_limits(an, bn, dx * scale, dy * scale, bend, limits, shoulder_angle, elbow_angle,
                              out.limited[i:j], out.bend_overridden[i:j])
        k = np.flatnonzero(out.limited[i:j])
        if k.size:  # trigonometry only where a limit changed the angles
            for whole, part in zip(trig, _joint_trig(shoulder_angle[k], elbow_angle[k])):
                whole[k] = part
    if on_limit != "accept":
        c1, s1, c12, s12 = trig
        # The limb's reach vector from the shoulder, before any strategy, in limb lengths.
        vx, vy = an * c1 + bn * c12, an * s1 + bn * s12
        if on_limit == "stretch":
            v2 = vx * vx + vy * vy
            ok = v2 > eps * eps
            k = (dx * vx + dy * vy) * scale / np.where(ok, v2, 1.0)
            out.stretch[i:j] = np.where(ok, np.clip(k, 1.0 - max_stretch, 1.0 + max_stretch), 1.0)
        else:
            gap = np.stack([dx - vx * outer, dy - vy * outer], axis=-1)
            out.root_offset[i:j] = bound_length(gap, max_root_offset)
    _forward(f, out, i, j, trig, plain=on_limit == "accept")


_SMALL_SQUARE = 1e-290
"""Below this a squared length has lost precision to underflow: use hypot there."""


def _length(x, y, out):
    """sqrt(x*x + y*y) into ``out``; hypot where the squares underflow (|v| < 1e-145)."""
    r2 = x * x + y * y
    np.sqrt(r2, out=out)
    if r2.min() < _SMALL_SQUARE:
        k = np.flatnonzero(r2 < _SMALL_SQUARE)
        out[k] = np.hypot(x[k], y[k])
    return out


def _rotations(c1, s1, ce, se):
    """(cos, sin) of the upper bone and of the forearm's absolute angle from the
    upper bone's direction (c1, s1) and the elbow's (ce, se), both renormalised to
    unit length: a complex multiplication instead of four trigonometric calls."""
    n1 = np.sqrt(c1 * c1 + s1 * s1)
    np.divide(c1, n1, out=c1)
    np.divide(s1, n1, out=s1)
    ne = np.sqrt(ce * ce + se * se)
    np.divide(ce, ne, out=ce)
    np.divide(se, ne, out=se)
    return c1, s1, c1 * ce - s1 * se, s1 * ce + c1 * se


def _joint_trig(shoulder_angle, elbow_angle):
    total = shoulder_angle + elbow_angle
    return np.cos(shoulder_angle), np.sin(shoulder_angle), np.cos(total), np.sin(total)


def _forward(f, out, i, j, trig, plain):
    """Forward kinematics of the returned angles for frames [i, j), and the residual.

    Starting again from the angles (not from the construction) means the residual
    checks the signs, the clamping and the strategy rather than restating them.
    ``plain`` skips the (identity) stretch and root offset.
    """
    a, b, (sx, sy), (tx, ty), _, _ = f.block(i, j)
    c1, s1, c12, s12 = trig
    if not plain:
        k = out.stretch[i:j]
        a, b = k * a, k * b
        sx = sx + out.root_offset[i:j, 0]
        sy = sy + out.root_offset[i:j, 1]
    ex, ey = out.elbow[i:j, 0], out.elbow[i:j, 1]
    px, py = out.end[i:j, 0], out.end[i:j, 1]
    np.add(sx, a * c1, out=ex)
    np.add(sy, a * s1, out=ey)
    np.add(ex, b * c12, out=px)
    np.add(ey, b * s12, out=py)
    _length(px - tx, py - ty, out=out.residual[i:j])


def _direction_before(f, i, eps, prev_direction):
    """Unit direction of the last frame before ``i`` with a non-zero distance."""
    j, step = i, 256
    while j > 0:
        lo = max(0, j - step)
        a, b, (sx, sy), (tx, ty), _, _ = f.block(lo, j)
        dx = np.array(np.broadcast_to(tx - sx, (j - lo,)))
        dy = np.array(np.broadcast_to(ty - sy, (j - lo,)))
        raw = _length(dx, dy, out=np.empty(j - lo))
        good = np.flatnonzero(raw > eps * (a + b))
        if good.size:
            k = good[-1]
            return np.array([dx[k], dy[k]]) / raw[k]
        j, step = lo, step * 2
    if prev_direction is None:
        return np.array([1.0, 0.0])
    prev = np.asarray(prev_direction, dtype=float)
    norm = float(np.hypot(prev[0], prev[1])) if prev.shape == (2,) and np.all(np.isfinite(prev)) else 0.0
    if not norm > 0:
        raise ValueError(f"prev_direction: expected a finite non-zero (2,) vector, got {prev_direction!r}")
    return prev / norm


def _fill_directions(dx, dy, raw, good, carry):
    """Unit directions; frames with no distance take the last good one before them."""
    safe = np.where(good, raw, 1.0)
    ux, uy = np.where(good, dx / safe, carry[0]), np.where(good, dy / safe, carry[1])
    idx = np.maximum.accumulate(np.where(good, np.arange(good.size), -1))
    seen = idx >= 0
    ux = np.where(seen, ux[np.maximum(idx, 0)], carry[0])
    uy = np.where(seen, uy[np.maximum(idx, 0)], carry[1])
    return ux, uy
