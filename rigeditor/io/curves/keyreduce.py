"""Reduce a baked curve to a few bezier keys that reproduce it within a tolerance.

The keys are the model's own (``rigeditor.model.data.timeline.Key``), so sampling them
with ``Channel.sample`` is how the result is checked, here and by any reader. Each
key's tangent is the curve's slope there (central differences), shared by its in
and out handles (an unbroken tangent, as an animator would set it); handles reach
a third of the way along their segment, which makes the bezier's time linear and the
segment a cubic Hermite curve. Segments are split at their worst frame until every
baked frame is within the tolerance; a one-frame segment is linear, exact at both
ends. Error is measured at the baked frames, in the curve's own unit.
"""
from __future__ import annotations

import numpy as np

from rigeditor.model.data.timeline import Channel, Key

_MARGIN = 1.0 - 1e-9  # fit slightly inside the tolerance: the sampler's rounding differs


def reduce_curve(frames, values, tolerance: float) -> tuple[Key, ...]:
    """Keys reproducing ``values`` (N,) at integer ``frames`` (N,) within ``tolerance``.

    frames: increasing integer frame numbers. tolerance: > 0, in the values' unit.
    """
    f = np.asarray(frames, dtype=float)
    y = np.asarray(values, dtype=float)
    if not tolerance > 0:
        raise ValueError(f"tolerance: must be > 0, got {tolerance!r}")
    if f.shape[0] < 2:
        return tuple(Key(int(fr), (float(v),), "linear") for fr, v in zip(f, y))
    slope = np.gradient(y, f)
    cuts = _fit(f, y, slope, [0, f.shape[0] - 1], tolerance * _MARGIN)
    while True:  # check with the model's sampler; split where it disagrees
        keys = _keys(f, y, slope, cuts)
        err = np.abs(Channel((float(y[0]),), keys).sample(f)[:, 0] - y)
        if err.max() <= tolerance:
            return keys
        worst = int(np.argmax(err))
        cuts = sorted(set(cuts) | {worst})


def _fit(f, y, slope, cuts, tol) -> list[int]:
    """Indices of the keys: ``cuts`` refined until each segment's Hermite fits."""
    done, todo = set(cuts), [(cuts[i], cuts[i + 1]) for i in range(len(cuts) - 1)]
    while todo:
        i, j = todo.pop()
        if j - i < 2:
            continue
        err = np.abs(_hermite(f, y, slope, i, j) - y[i + 1:j])
        k = int(np.argmax(err))
        if err[k] > tol:
            k += i + 1
            done.add(k)
            todo += [(i, k), (k, j)]
    return sorted(done)


def _hermite(f, y, slope, i, j) -> np.ndarray:
    """The cubic Hermite segment from key i to key j at the frames strictly between."""
    g = f[j] - f[i]
    u = (f[i + 1:j] - f[i]) / g
    u2, u3 = u * u, u * u * u
    return ((2 * u3 - 3 * u2 + 1) * y[i] + (u3 - 2 * u2 + u) * g * slope[i]
            + (-2 * u3 + 3 * u2) * y[j] + (u3 - u2) * g * slope[j])


def _keys(f, y, slope, cuts) -> tuple[Key, ...]:
    keys = []
    for n, i in enumerate(cuts):
        nxt = cuts[n + 1] if n + 1 < len(cuts) else None
        prv = cuts[n - 1] if n else None
        bezier_out = nxt is not None and nxt - i > 1
        bezier_in = prv is not None and i - prv > 1
        out_h = in_h = None
        if bezier_out:
            dt = (f[nxt] - f[i]) / 3.0
            out_h = (float(dt), float(slope[i] * dt))
        if bezier_in:
            dt = (f[i] - f[prv]) / 3.0
            in_h = (float(-dt), float(-slope[i] * dt))
        keys.append(Key(int(f[i]), (float(y[i]),), "bezier" if bezier_out else "linear", out_h, in_h))
    return tuple(keys)
