"""Animated values: keys, interpolation, and vectorised sampling over frames.

A :class:`Channel` is one animatable value of fixed dimension D (1 for a rotation,
2 for a position). Keys sit at any time (frames as floats: an imported key keeps its
exact time; the editor puts new keys on whole frames) in strictly increasing order; each key
says how the segment *leaving* it interpolates: ``constant`` (hold), ``linear`` or
``bezier``. Bezier handles are (dt, dv...) offsets from their key in (frame, value)
space; a missing handle is automatic (a clamped Catmull-Rom slope that never overshoots
the neighbouring keys, a third of the segment long; see :func:`auto_slopes`), and
handle times are clamped into the segment so a curve never runs backwards in time;
a key that ends a hold (constant segment) gets a flat automatic slope.
A :class:`StepChannel` holds a discrete value (a space name) that changes at keys.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

INTERPOLATIONS = ("constant", "linear", "bezier")
_CODE = {name: i for i, name in enumerate(INTERPOLATIONS)}


@dataclass(frozen=True)
class Key:
    """A key: ``frame`` (a float, may lie between frames), ``value`` (D floats), the
    segment's ``interp``.

    out_handle / in_handle: (dt, dv_1..dv_D) relative to this key, used by bezier
    segments (out_handle when this key starts the segment, in_handle when it ends
    one; dt >= 0 for out, <= 0 for in). None means automatic.
    """

    frame: float
    value: tuple[float, ...]
    interp: str = "linear"
    out_handle: tuple[float, ...] | None = None
    in_handle: tuple[float, ...] | None = None


@dataclass(frozen=True)
class Channel:
    """An animatable value of dimension ``len(default)``; ``default`` applies when unkeyed."""

    default: tuple[float, ...]
    keys: tuple[Key, ...] = ()

    @property
    def dim(self) -> int:
        return len(self.default)

    def value_at(self, frame) -> tuple[float, ...]:
        return tuple(float(v) for v in self.sample(np.array([frame], dtype=float))[0])

    def sample(self, frames) -> np.ndarray:
        """Values at ``frames`` (any floats), shape (N, D). Holds outside the keyed range."""
        return sample_channel(self, np.asarray(frames, dtype=float))

    def with_key(self, key: Key) -> "Channel":
        """This channel with ``key`` set (replacing a key on the same frame)."""
        keys = [k for k in self.keys if k.frame != key.frame] + [key]
        return replace(self, keys=tuple(sorted(keys, key=lambda k: k.frame)))

    def without_key(self, frame: int) -> "Channel":
        return replace(self, keys=tuple(k for k in self.keys if k.frame != frame))

    def split(self, frame: int) -> "Channel":
        """This channel with a key at ``frame`` that changes no sampled value; see
        :func:`split_channel`."""
        return split_channel(self, frame)

    def moved_key(self, frame: int, new_frame: int) -> "Channel":
        """Retime the key at ``frame``; a key already at ``new_frame`` is replaced."""
        moving = next(k for k in self.keys if k.frame == frame)
        return self.without_key(frame).with_key(replace(moving, frame=new_frame))


@dataclass(frozen=True)
class StepChannel:
    """A discrete value (e.g. a space name) that holds from each key to the next."""

    default: str
    keys: tuple[tuple[float, str], ...] = ()

    def value_at(self, frame) -> str:
        value = self.default
        for f, v in self.keys:
            if f <= frame:
                value = v
        return value

    def sample(self, frames) -> np.ndarray:
        """Index into :meth:`values` per frame, shape (N,) int."""
        frames = np.asarray(frames, dtype=float)
        if not self.keys:
            return np.zeros(frames.shape, dtype=int)
        key_frames = np.array([f for f, _ in self.keys], dtype=float)
        names = self.values()
        codes = np.array([names.index(v) for _, v in self.keys])
        idx = np.searchsorted(key_frames, frames, side="right") - 1
        return np.where(idx >= 0, codes[np.maximum(idx, 0)], names.index(self.default))

    def values(self) -> list[str]:
        """Distinct values in first-use order (default first)."""
        out = [self.default]
        for _, v in self.keys:
            if v not in out:
                out.append(v)
        return out

    def with_key(self, frame: int, value: str) -> "StepChannel":
        keys = dict(self.keys)
        keys[frame] = value
        return replace(self, keys=tuple(sorted(keys.items())))

    def without_key(self, frame: int) -> "StepChannel":
        return replace(self, keys=tuple((f, v) for f, v in self.keys if f != frame))


def constant(*value: float) -> Channel:
    return Channel(default=tuple(float(v) for v in value))


def keyed(points, interp="linear", default=None) -> Channel:
    """Channel from ``[(frame, value_or_tuple), ...]`` with one interpolation for all."""
    keys = []
    for frame, value in points:
        v = tuple(float(x) for x in np.atleast_1d(value))
        keys.append(Key(frame, v, interp))
    keys.sort(key=lambda k: k.frame)
    return Channel(default=default or keys[0].value, keys=tuple(keys))


def split_channel(ch: Channel, frame: int) -> Channel:
    """``ch`` with a key at ``frame`` and every sampled value unchanged.

    A bezier segment around ``frame`` is cut in two exactly (de Casteljau, in frame
    and value together); the keys beside the cut (or a key already at ``frame``) get
    their effective handles written out, so automatic slopes that look across the
    cut stay as they are when keys on the other side change later (a space switch
    rewrites every key after it in another space). Exact unless the segment's
    handles cross in time (the out handle reaching past the in handle): the halves
    would then need handles outside their own segment, and are clamped into it.
    """
    keys = list(ch.keys)
    if not keys:
        return ch.with_key(Key(frame, ch.default))
    i = int(np.searchsorted([k.frame for k in keys], frame, side="right")) - 1
    c = _compile(ch) if len(keys) > 1 else None
    for j in (i, i + 1):
        if c is not None and 0 <= j < len(keys):
            keys[j] = _written_out(ch, c, j)
    if i >= 0 and keys[i].frame == frame:
        return replace(ch, keys=tuple(keys))
    if i < 0 or i == len(keys) - 1:
        # Outside the keyed range the value holds; a flat segment keeps holding it.
        j, flat = (0 if i < 0 else -1), (0.0,) * ch.dim
        gap = abs(frame - keys[j].frame) / 3.0
        if i >= 0:
            keys[j] = replace(keys[j], out_handle=(gap,) + flat)
        new = Key(frame, keys[j].value, keys[j].interp if i >= 0 else "linear",
                  (gap,) + flat, (-gap,) + flat)
        return replace(ch, keys=tuple(sorted(keys + [new], key=lambda k: k.frame)))
    value = tuple(float(v) for v in sample_channel(ch, np.array([float(frame)]))[0])
    new = Key(frame, value, keys[i].interp)
    if keys[i].interp == "bezier":
        new, keys[i], keys[i + 1] = _de_casteljau(c, i, frame, keys[i], keys[i + 1])
    return replace(ch, keys=tuple(keys[:i + 1] + [new] + keys[i + 1:]))


def _written_out(ch: Channel, c: "_Compiled", j: int) -> Key:
    """Key ``j`` with the handles its bezier neighbours use stored explicitly."""
    key = ch.keys[j]
    out_h, in_h = key.out_handle, key.in_handle
    if j < len(ch.keys) - 1 and key.interp == "bezier":
        out_h = (float(c.x1[j] - c.frames[j]),) + tuple(map(float, c.a[j]))
    if j > 0 and ch.keys[j - 1].interp == "bezier":
        in_h = (float(c.x2[j - 1] - c.frames[j]),) + tuple(map(float, c.b[j - 1] - c.c[j - 1]))
    return replace(key, out_handle=out_h, in_handle=in_h)


def _de_casteljau(c: "_Compiled", i: int, frame: int, left: Key, right: Key):
    """Cut bezier segment ``i`` at ``frame``: (new key, left key, right key) with the
    handles of the two halves."""
    f0, f1 = c.frames[i], c.frames[i + 1]
    u = (frame - f0) / c.gap[i]
    t = float(_bezier_time(np.array([float(frame)]), f0, c.x1[i], c.x2[i], f1)[0]) if c.curved[i] else u
    v0 = c.values[i]
    # Control points as (frame, values...) rows.
    p = np.array([np.r_[f0, v0], np.r_[c.x1[i], v0 + c.a[i]], np.r_[c.x2[i], v0 + c.b[i]],
                  np.r_[f1, v0 + c.c[i]]])
    q = p[:-1] + t * (p[1:] - p[:-1])
    r = q[:-1] + t * (q[1:] - q[:-1])
    mid = r[0] + t * (r[1] - r[0])
    mid[0] = frame

    def rel(point, origin):
        return tuple(float(x) for x in point - origin)

    new = Key(frame, tuple(float(x) for x in mid[1:]), "bezier", rel(r[1], mid), rel(r[0], mid))
    return (new, replace(left, out_handle=rel(q[0], p[0])),
            replace(right, in_handle=rel(q[2], p[3])))


# --------------------------------------------------------------------- sampling

@dataclass(frozen=True)
class _Compiled:
    """A channel's keys as per-segment cubic coefficients: segment k runs from key k
    to key k+1 and gives y(t) = v0 + 3(1-t)^2 t A + 3(1-t) t^2 B + t^3 C. Constant,
    linear and bezier segments all take this form, so sampling is one vectorised
    formula; only bezier segments whose handles bend time need t solved from x(t)."""

    frames: np.ndarray  # (K,) key frames
    values: np.ndarray  # (K, D) key values
    gap: np.ndarray  # (K-1,) segment length in frames
    a: np.ndarray  # (K-1, D)
    b: np.ndarray  # (K-1, D)
    c: np.ndarray  # (K-1, D)
    curved: np.ndarray  # (K-1,) bool: x(t) is not linear in t
    x1: np.ndarray  # (K-1,) frame of the out handle
    x2: np.ndarray  # (K-1,) frame of the in handle


_compiled_cache: dict[int, tuple[Channel, _Compiled]] = {}


def _compile(ch: Channel) -> _Compiled:
    cached = _compiled_cache.get(id(ch))
    if cached is not None and cached[0] is ch:
        return cached[1]
    k = len(ch.keys)
    frames = np.array([key.frame for key in ch.keys], dtype=float)
    values = np.array([key.value for key in ch.keys], dtype=float).reshape(k, ch.dim)
    interp = np.array([_CODE[key.interp] for key in ch.keys], dtype=np.int8)
    slope = auto_slopes(frames, values, interp)
    gap = np.diff(frames)
    one = np.ones(1)
    gap_next, gap_prev = np.concatenate((gap, one)), np.concatenate((one, gap))
    out_dt, in_dt = gap_next / 3.0, -gap_prev / 3.0
    out_dv, in_dv = slope * out_dt[:, None], slope * in_dt[:, None]
    for i, key in enumerate(ch.keys):
        if key.out_handle is not None:
            out_dt[i] = np.clip(key.out_handle[0], 0.0, gap_next[i])
            out_dv[i] = key.out_handle[1:]
        if key.in_handle is not None:
            in_dt[i] = np.clip(key.in_handle[0], -gap_prev[i], 0.0)
            in_dv[i] = key.in_handle[1:]
    d = np.diff(values, axis=0)
    code = interp[:-1, None]
    bez, lin = code == _CODE["bezier"], code == _CODE["linear"]
    a = np.where(bez, out_dv[:-1], np.where(lin, d / 3.0, 0.0))
    b = np.where(bez, d + in_dv[1:], np.where(lin, 2.0 * d / 3.0, 0.0))
    c = np.where(bez | lin, d, 0.0)
    x1, x2 = frames[:-1] + out_dt[:-1], frames[1:] + in_dt[1:]
    # Handles a third of the way in (to 1e-12 of it, as np.isclose with rtol=1e-12 and
    # no atol, written out: isclose costs ~20 us a call) keep x(t) linear in t.
    third = gap / 3.0
    tol = 1e-12 * np.abs(third)
    curved = bez[:, 0] & ~((np.abs(x1 - frames[:-1] - third) <= tol) & (np.abs(frames[1:] - x2 - third) <= tol))
    comp = _Compiled(frames, values, gap, a, b, c, curved, x1, x2)
    if len(_compiled_cache) > 4096:
        _compiled_cache.clear()
    _compiled_cache[id(ch)] = (ch, comp)
    return comp


@dataclass(frozen=True)
class ControlPoints:
    """A channel's segments as Béziers over (frame, value): segment s runs from
    (frames[s], values[s]) through (x1[s], y1[s]) and (x2[s], y2[s]) to
    (frames[s+1], values[s+1]); y1, y2 are (K-1, D). Meaningful for bezier
    segments (others are sampled as linear or held)."""

    frames: np.ndarray
    values: np.ndarray
    x1: np.ndarray
    y1: np.ndarray
    x2: np.ndarray
    y2: np.ndarray


def control_points(ch: Channel) -> ControlPoints:
    """The effective handles of every segment (automatic ones resolved); >= 2 keys."""
    c = _compile(ch)
    return ControlPoints(c.frames, c.values, c.x1, c.values[:-1] + c.a, c.x2, c.values[:-1] + c.b)


def auto_slopes(frames: np.ndarray, values: np.ndarray, interp: np.ndarray,
                clamped: bool = True) -> np.ndarray:
    """Automatic slopes (value per frame) of keys at ``frames`` (K,) with ``values``
    (K, D) and interpolation codes ``interp`` (K,), per coordinate.

    Catmull-Rom inside (the neighbours' secant), flat at the ends (an ease in and
    out) and after a hold. ``clamped`` (the current rule, like Blender's "Auto
    Clamped"): flat at a key that is a local extreme, and otherwise no steeper than
    3x either neighbouring secant, so both handles of a segment stay within its two
    key values and the curve, inside the hull of its control points, never
    overshoots them. ``clamped=False`` is the plain rule of schema version 3 (the
    migration needs it to keep old motion).
    """
    slope = np.zeros_like(values)
    if len(frames) > 2:
        slope[1:-1] = (values[2:] - values[:-2]) / (frames[2:] - frames[:-2])[:, None]
        if clamped:
            before = (values[1:-1] - values[:-2]) / np.diff(frames)[:-1, None]
            after = (values[2:] - values[1:-1]) / np.diff(frames)[1:, None]
            limit = 3.0 * np.minimum(np.abs(before), np.abs(after))
            extreme = before * after <= 0.0
            slope[1:-1] = np.where(extreme, 0.0, np.clip(slope[1:-1], -limit, limit))
        # A key that ends a hold eases out of it: a slope reaching back into held
        # (possibly other-space) values would bulge the curve.
        slope[1:-1][interp[:-2] == _CODE["constant"]] = 0.0
    return slope


def sample_channel(ch: Channel, frames: np.ndarray) -> np.ndarray:
    n = frames.shape[0]
    if not ch.keys:
        if n == 1:
            return np.array([ch.default], dtype=float)
        out = np.empty((n, ch.dim))  # filled by assignment: broadcast_to costs microseconds
        out[:] = ch.default
        return out
    c = _compile(ch)
    if len(ch.keys) == 1:
        return np.broadcast_to(c.values[0], (n, ch.dim)).copy()
    if n == 1 and frames.ndim == 1:
        return _sample_one(c, float(frames[0]))
    seg = np.clip(np.searchsorted(c.frames, frames, side="right") - 1, 0, len(ch.keys) - 2)
    # np.take: a plain gather, several times cheaper than fancy indexing.
    f0 = np.take(c.frames, seg)
    u = np.clip((frames - f0) / np.take(c.gap, seg), 0.0, 1.0)
    t = u
    bent = np.take(c.curved, seg) & (u > 0.0) & (u < 1.0)
    if bent.any():
        t = u.copy()
        s = seg[bent]
        t[bent] = _bezier_time(frames[bent], f0[bent], c.x1[s], c.x2[s], c.frames[s + 1])
    mt = 1.0 - t
    out = np.take(c.values, seg, axis=0)
    for coef, weight in ((c.a, 3.0 * mt * mt * t), (c.b, 3.0 * mt * t * t), (c.c, t * t * t)):
        out += weight[:, None] * np.take(coef, seg, axis=0)
    # Written relative to v0, equal keys hold exactly (a hold must compare equal frame
    # to frame, or the sliding check would miss it); the end of a segment is its key.
    end = u >= 1.0
    if end.any():
        out[end] = c.values[seg[end] + 1]
    return out


def _sample_one(c: _Compiled, f: float) -> np.ndarray:
    """:func:`sample_channel` at one frame ``f`` in Python floats, performing the
    vectorised formula's operations in its order (so the same bits: a frame under the
    hand must not move when the range lands), without its dozen numpy calls on one
    element (most of a one-frame sample's cost). Returns (1, D)."""
    seg = min(max(int(c.frames.searchsorted(f, side="right")) - 1, 0), c.gap.shape[0] - 1)
    f0 = float(c.frames[seg])
    u = min(max((f - f0) / float(c.gap[seg]), 0.0), 1.0)
    if u >= 1.0:  # the end of a segment is its key
        return c.values[seg + 1:seg + 2].copy()
    t = u
    if u > 0.0 and c.curved[seg]:
        t = float(_bezier_time(np.array([f]), np.array([f0]), c.x1[seg:seg + 1], c.x2[seg:seg + 1],
                               c.frames[seg + 1:seg + 2])[0])
    mt = 1.0 - t
    w1, w2, w3 = 3.0 * mt * mt * t, 3.0 * mt * t * t, t * t * t
    return np.array([[v + w1 * p + w2 * q + w3 * r for v, p, q, r in
                      zip(c.values[seg].tolist(), c.a[seg].tolist(), c.b[seg].tolist(), c.c[seg].tolist())]])


def _bezier_time(x, x0, x1, x2, x3):
    """t in [0, 1] with x(t) = x for the cubic through frames x0, x1, x2, x3.

    x(t) is monotonic because handle times stay inside the segment, so a few
    safeguarded Newton steps (falling back to bisection) converge to 1e-15 of the
    frame number, scaled down by the slope dx/dt where it is under 1: a handle of zero
    length in time makes x(t) flat at an end, where a time error of 1e-15 frames would
    be a parameter (and value) error of sqrt(1e-15), so there t itself is found to
    1e-15. A frame stops at its own first step within that (not when the slowest
    frame of the batch gets there), so it comes out the same sampled alone or with
    any others.
    """
    lo, hi = np.zeros_like(x), np.ones_like(x)
    t = (x - x0) / (x3 - x0)
    done = np.zeros(np.shape(x), dtype=bool)
    for _ in range(64):
        mt = 1.0 - t
        xt = mt**3 * x0 + 3 * mt * mt * t * x1 + 3 * mt * t * t * x2 + t**3 * x3
        err = xt - x
        dx = 3 * (mt * mt * (x1 - x0) + 2 * mt * t * (x2 - x1) + t * t * (x3 - x2))
        done |= np.abs(err) < 1e-15 * (1.0 + np.abs(x)) * np.minimum(1.0, np.abs(dx))
        if np.all(done):
            break
        lo, hi = np.where(err < 0, t, lo), np.where(err > 0, t, hi)
        newton = t - err / np.where(dx > 1e-12, dx, 1.0)
        step = np.where((dx > 1e-12) & (newton > lo) & (newton < hi), newton, 0.5 * (lo + hi))
        t = np.where(done, t, step)
    return t
