"""Target smoothing over a frame sequence, applied before the IK solve.

Smoothing the target (not the solved angles) keeps the filter ahead of the
solver's noise amplification. Every filter here is a first-order recurrence
evaluated with a parallel prefix scan, so a whole bake is filtered in a few
vectorised numpy steps with no Python loop over frames.

Positions are float arrays with a leading frame axis: (N, D), usually (N, 2)
in model units, y-up. Extra axes are allowed, (N, ..., D), e.g. (N, chains, 2);
the One Euro speed is then taken per row of the last axis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from numbers import Real

import numpy as np

__all__ = ["KINDS", "Smoothing", "FilterState", "linear_recurrence", "ema", "one_euro", "smooth",
           "smooth_runs"]

KINDS = ("none", "ema", "one_euro")


def _check_real(name: str, value, *, positive: bool = True) -> float:
    """`value` as a float; ValueError naming `name` unless finite and > 0 (>= 0)."""
    if not isinstance(value, Real) or isinstance(value, bool):
        raise ValueError(f"{name}: must be a number, got {value!r}")
    value_f = float(value)
    if not math.isfinite(value_f):
        raise ValueError(f"{name}: must be finite, got {value!r}")
    if value_f < 0 or (positive and value_f == 0):
        raise ValueError(f"{name}: must be {'> 0' if positive else '>= 0'}, got {value!r}")
    return value_f


@dataclass(frozen=True)
class Smoothing:
    """Per-chain choice of target smoothing, stored in the rig model.

    kind: "none", "ema" or "one_euro".
    time_constant_s: EMA time constant in seconds, > 0 (larger = smoother, more lag).
    min_cutoff_hz: One Euro cutoff at rest in Hz, > 0 (lower = less jitter when still).
    beta: One Euro speed coefficient in 1/model-unit, >= 0: the cutoff rises by
        beta Hz per model-unit/s of target speed (higher = less lag when moving).
    d_cutoff_hz: One Euro cutoff for the speed estimate in Hz, > 0.
    All fields are validated whatever the kind, so a stored value is always usable.
    """

    kind: str = "none"
    time_constant_s: float = 0.05
    min_cutoff_hz: float = 1.0
    beta: float = 0.0
    d_cutoff_hz: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            allowed = ", ".join(repr(k) for k in KINDS)
            raise ValueError(f"Smoothing.kind: must be one of {allowed}, got {self.kind!r}")
        for f in fields(self)[1:]:
            value = _check_real(f"Smoothing.{f.name}", getattr(self, f.name),
                                positive=f.name != "beta")
            # Store floats so equal settings compare and serialise identically.
            object.__setattr__(self, f.name, value)


@dataclass(frozen=True)
class FilterState:
    """What a filter carries from its last frame into the next, each (..., D).

    raw: the last input (a point); speed: One Euro's smoothed speed estimate
    (model units/s, a vector; zero for an EMA); out: the last output (a point).
    Seeding a run with the state a previous run ended in continues the filter as if
    the frames were one run, so a restart never jumps.
    """

    raw: np.ndarray
    speed: np.ndarray
    out: np.ndarray

    def mapped(self, point, vector) -> "FilterState":
        """This state re-expressed by ``point`` (maps points) and ``vector`` (maps
        directions: the linear part of the same change of space)."""
        return FilterState(point(self.raw), vector(self.speed), point(self.out))


def _as_points(points) -> np.ndarray:
    """A float64 copy of `points`, shape (N, ..., D), all finite."""
    try:
        arr = np.array(points, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"points: not convertible to a float array ({exc})") from None
    if arr.ndim < 2:
        raise ValueError(f"points: must have shape (N, D), got {arr.shape}")
    bad = ~np.isfinite(arr)
    if bad.any():
        frame = int(np.argwhere(bad)[0][0])
        raise ValueError(f"points: contains non-finite values (first at frame {frame})")
    return arr


def linear_recurrence(c, u, y0) -> np.ndarray:
    """Solve y[n] = c[n] * y[n-1] + u[n] for n = 0..N-1, with y[-1] = y0.

    u: shape (N,) or (N, ...), e.g. (N, D).  c: shape (N,) or (N, ...) broadcasting
    against u, e.g. (N, 1); missing trailing axes count as size 1.  y0: scalar or
    broadcastable to u[0].  All finite.  Returns a new float64 array of u's shape.

    Hillis-Steele inclusive scan with the associative combine (c1, u1) then
    (c2, u2) -> (c2*c1, c2*u1 + u2): ceil(log2 N) vectorised steps. Only products
    and sums of inputs are formed, never a division by a cumulative product, so
    for |c| <= 1 it stays finite and accurate to rounding for c near 0 or 1.
    """
    u = np.asarray(u, dtype=np.float64)
    c = np.asarray(c, dtype=np.float64)
    y0 = np.asarray(y0, dtype=np.float64)
    if u.ndim == 0:
        raise ValueError(f"u: must have a leading frame axis, got shape {u.shape}")
    if c.ndim == 0 or c.ndim > u.ndim or c.shape[0] != u.shape[0]:
        raise ValueError(f"c: shape {c.shape} does not match u's frame axis, u is {u.shape}")
    c = c.reshape(c.shape + (1,) * (u.ndim - c.ndim))
    for name, arr, target in (("c", c, u.shape), ("y0", y0, u.shape[1:]), ("u", u, u.shape)):
        try:
            fits = np.broadcast_shapes(arr.shape, target) == target
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(f"{name}: shape {arr.shape} does not broadcast to {target}")
        if not np.isfinite(arr).all():
            raise ValueError(f"{name}: contains non-finite values")
    a, v = _frames_last(c), _frames_last(u)
    if v.shape[-1]:
        # Folding y0 into the first element turns the problem into a plain scan.
        v[..., 0] += a[..., 0] * y0
    return _frames_first(_scan(a, v))


def _frames_last(x: np.ndarray) -> np.ndarray:
    """A C-contiguous copy with the frame axis last: numpy's inner loops then run
    over long contiguous frames instead of D = 2 coordinates, ~5x faster per step."""
    return np.array(np.moveaxis(x, 0, -1), order="C")


def _frames_first(x: np.ndarray) -> np.ndarray:
    """Inverse of `_frames_last`, C-contiguous again."""
    n, m = x.shape[-1], math.prod(x.shape[:-1])
    out = np.empty((n, m))
    # Column by column: numpy's generic transposing copy is ~5x slower here.
    for col, row in zip(out.T, x.reshape(m, n)):
        col[...] = row
    return out.reshape(x.shape[-1:] + x.shape[:-1])


def _scan(a: np.ndarray, u: np.ndarray) -> np.ndarray:
    """y[n] = a[n] y[n-1] + u[n], y[-1] = 0, frames on the LAST axis; overwrites both."""
    n = u.shape[-1]
    tmp_u = np.empty_like(u)
    tmp_a = np.empty_like(a)
    shift = 1
    while shift < n:
        # Products go to temporaries first, so each step reads only the
        # previous step's partial results, `shift` frames back.
        np.multiply(a[..., shift:], u[..., :-shift], out=tmp_u[..., shift:])
        u[..., shift:] += tmp_u[..., shift:]
        if 2 * shift < n:
            np.multiply(a[..., shift:], a[..., :-shift], out=tmp_a[..., shift:])
            a[..., shift:] = tmp_a[..., shift:]
        shift *= 2
    return u


def _scan_constant(c: float, u: np.ndarray) -> np.ndarray:
    """y[0] = u[0], y[n] = c y[n-1] + u[n]; frames on the LAST axis; overwrites u.

    The general scan with a[0] = 0 and a[n>0] = c: before the step of shift s
    the carried coefficient is c**s on every frame it touches, so it is a
    scalar and the coefficient array never has to be built or updated.
    """
    n = u.shape[-1]
    shift, carry = 1, c
    while shift < n:
        u[..., shift:] += carry * u[..., :-shift]
        carry *= carry
        shift *= 2
    return u


def ema(points, fps, time_constant_s, start: FilterState | None = None) -> np.ndarray:
    """Exponential moving average of `points` (N, ..., D) sampled at `fps` (Hz, > 0).

    time_constant_s: seconds, > 0; alpha = 1 - exp(-dt / tau) with dt = 1/fps, the
    exact sampling of a continuous first-order lag, so a unit step reaches
    1 - 1/e after tau seconds at any frame rate. First output equals first input,
    unless `start` (the state of the frame before) continues an earlier run.
    """
    x = _as_points(points)
    dt = 1.0 / _check_real("fps", fps)
    tau = _check_real("time_constant_s", time_constant_s)
    if len(x) == 0:
        return x
    # 1 - alpha taken from exp directly: no cancellation when alpha is tiny.
    keep, alpha = math.exp(-dt / tau), -math.expm1(-dt / tau)
    u = _frames_last(x)
    if start is None:
        u[..., 1:] *= alpha
    else:
        u *= alpha
        u[..., 0] += keep * np.asarray(start.out, dtype=np.float64)
    return _frames_first(_scan_constant(keep, u))


def one_euro(points, fps, min_cutoff_hz=1.0, beta=0.0, d_cutoff_hz=1.0,
             start: FilterState | None = None, *, end: list | None = None) -> np.ndarray:
    """One Euro filter (Casiez, Roussel, Vogel, CHI 2012) of `points` (N, ..., D).

    fps: sampling rate in Hz, > 0.  min_cutoff_hz: cutoff at rest, Hz, > 0.
    beta: 1/model-unit, >= 0.  d_cutoff_hz: cutoff of the speed estimate, Hz, > 0.

    Per frame n (dt = 1/fps, alpha(f) = 1 / (1 + tau/dt), tau = 1/(2*pi*f)):
      dx[n]    = (x[n] - x[n-1]) * fps, dx[0] = 0  -- difference of the RAW input
      edx[n]   = EMA of dx with alpha(d_cutoff_hz), edx[0] = dx[0]
      cutoff   = min_cutoff_hz + beta * |edx[n]|    -- Euclidean norm over the last
                 axis: one cutoff for all coordinates, so a path keeps its shape
      y[n]     = alpha(cutoff) x[n] + (1 - alpha(cutoff)) y[n-1],  y[0] = x[0]
    Derivative convention: the authors' reference code before 2023 (dx from the
    previous raw value). Their code since 2023 ("Fixed in 08/23 to use
    lastFilteredValue") differentiates against the previous *filtered* value, so
    the cutoff depends on the output: a nonlinear recurrence, not scannable.
    Here both stages are linear recurrences, scanned as in `linear_recurrence`.
    The reference gives each coordinate its own cutoff; sharing it is deliberate.
    `start` (the state of the frame before) continues an earlier run: dx[0], edx[0]
    and y[0] then follow the formulas above from it. If `end` is a list, the state
    after the last frame is appended to it.
    """
    x = _as_points(points)
    fps = _check_real("fps", fps)
    min_cutoff_hz = _check_real("min_cutoff_hz", min_cutoff_hz)
    beta = _check_real("beta", beta, positive=False)
    d_cutoff_hz = _check_real("d_cutoff_hz", d_cutoff_hz)
    if len(x) == 0:
        return x

    def keep_and_alpha(cutoff):
        # With r = tau/dt, 1 - alpha = r/(1+r), taken directly so a high
        # cutoff (alpha near 1) keeps its small carry-over accurate.
        r = fps / (2.0 * math.pi * cutoff)
        return r / (1.0 + r), 1.0 / (1.0 + r)

    xt = _frames_last(x)                     # (..., D, N)
    dx = np.zeros_like(xt)
    keep_d, alpha_d = keep_and_alpha(d_cutoff_hz)
    np.subtract(xt[..., 1:], xt[..., :-1], out=dx[..., 1:])
    if start is not None:
        dx[..., 0] = xt[..., 0] - start.raw
    dx[..., 1:] *= alpha_d * fps
    if start is not None:
        dx[..., 0] *= alpha_d * fps
        dx[..., 0] += keep_d * np.asarray(start.speed, dtype=np.float64)
    edx = _scan_constant(keep_d, dx)        # without a start, edx[0] = dx[0] = 0

    speed = np.sqrt(np.einsum("...dn,...dn->...n", edx, edx))[..., None, :]
    keep, alpha = keep_and_alpha(min_cutoff_hz + beta * speed)
    if start is None:
        keep[..., 0] = 0.0
        alpha[..., 0] = 1.0
    raw_last = xt[..., -1].copy()
    u = np.multiply(alpha, xt, out=xt)
    if start is not None:
        u[..., 0] += keep[..., 0] * np.asarray(start.out, dtype=np.float64)
    y = _frames_first(_scan(keep, u))
    if end is not None:
        end.append(FilterState(raw_last, edx[..., -1].copy(), y[-1].copy()))
    return y


def smooth(points, smoothing: Smoothing, fps, start: FilterState | None = None, *,
           end: list | None = None) -> np.ndarray:
    """Apply `smoothing` to target positions `points` (N, ..., D) sampled at `fps` Hz.

    Returns a new float64 array of the same shape; kind "none" returns a copy.
    `start`: the state of the frame before, to continue an earlier run (default: a
    fresh start). If `end` is a list, the state after the last frame is appended.
    """
    if not isinstance(smoothing, Smoothing):
        raise TypeError(f"smoothing: expected Smoothing, got {type(smoothing).__name__}")
    if smoothing.kind == "one_euro":
        return one_euro(points, fps, smoothing.min_cutoff_hz, smoothing.beta,
                        smoothing.d_cutoff_hz, start, end=end)
    if smoothing.kind == "ema":
        y = ema(points, fps, smoothing.time_constant_s, start)
    else:
        _check_real("fps", fps)
        y = _as_points(points)
    if end is not None and len(y):
        x_last = np.asarray(points, dtype=np.float64)[-1]
        end.append(FilterState(x_last, np.zeros_like(x_last), y[-1].copy()))
    return y


def smooth_runs(points, smoothing: Smoothing, fps, starts, carry) -> np.ndarray:
    """Smooth `points` (N, ..., D) in runs that begin at the frame indices `starts`
    (increasing, the first 0), each run continuing the filter of the one before.

    carry(lo, state) -> FilterState: the state the previous run ended in (at frame
    lo - 1), re-expressed for the run that begins at frame lo, e.g. mapped into that
    run's coordinate space. Each run is one vectorised filter call; only the state
    of one frame passes between runs.
    """
    x = _as_points(points)
    if len(x) == 1:  # one run, begun fresh: every kind's first output is its input
        _check_real("fps", fps)
        return x
    out = np.empty_like(x)
    bounds = [int(s) for s in starts] + [len(x)]
    state = None
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        if lo > 0:
            state = carry(lo, state)
        end: list = []
        out[lo:hi] = smooth(x[lo:hi], smoothing, fps, state, end=end)
        state = end[0] if end else state
    return out
