"""Channels as Spine 4.2 curve timelines (keys with ``curve``), not resampled.

A Spine key's ``curve`` is a cubic Bézier over (time, value) per value, absolute
coordinates, like a RigEditor bezier segment; ``stepped`` is our constant and no
curve is linear. Spine's runtimes do not evaluate that Bézier exactly, though: they
cut it into ten chords at equal steps of the curve parameter and interpolate
linearly in time. So a segment whose chords stray from the curve at any frame by
more than ``tolerance`` is cut in two at a frame (an exact de Casteljau cut,
``Channel.split``), still as curves, until every frame agrees. The channel is first
cut at the exported range's ends, so the keys start at time 0.
"""
from __future__ import annotations

import numpy as np

from rigeditor.model.data.timeline import Channel, control_points

_CHORDS = np.linspace(0.0, 1.0, 11)  # the curve parameters of Spine's chord ends
_TIME_DIGITS = 9  # handle times (seconds): a microsecond off at 800 degrees/s would be 1e-3 degree


def key_time(frames, fps: float):
    """Seconds of key(s) ``frames`` after the exported range's first frame, as written.

    Spine's runtimes hold a key time as a 32-bit float and show a key from that time
    on; the float nearest a frame's time (0.43333334 for 13/30 s) may lie after it, so
    a key would show a frame late when the game samples exactly at frame times. A key
    on a whole frame is therefore written as the largest 32-bit float at or before the
    frame's time (exactly, so a 64-bit reader reads the same number); a key between
    frames keeps its own time. A scalar gives a float, an array a list.
    """
    f = np.asarray(frames, dtype=float)
    exact = f / fps
    t32 = exact.astype(np.float32)
    t32 = np.where(t32.astype(float) > exact, np.nextafter(t32, np.float32(-np.inf)), t32)
    out = np.where(f == np.round(f), t32.astype(float), exact) + 0.0
    return float(out) if out.ndim == 0 else out.tolist()


def curve_keys(ch: Channel, first: int, last: int, fps: float, fields: tuple[str, ...],
               scale: float = 1.0, tolerance: float = 1e-4, digits: int = 6) -> list[dict]:
    """Spine keys of ``ch`` (dimension ``len(fields)``) over frames first..last.

    Values are multiplied by ``scale`` (e.g. degrees per radian) and named
    ``fields`` ("value", or "x", "y"); ``tolerance`` is in those units.
    """
    ch = fitted(ch, first, last, fps, scale, tolerance)
    keys = [k for k in ch.keys if first <= k.frame <= last]
    if not keys:
        return [{"time": 0.0, **_named(fields, np.asarray(ch.value_at(first)) * scale, digits)}]
    pts = control_points(ch) if len(ch.keys) > 1 else None
    index = {k.frame: i for i, k in enumerate(ch.keys)}
    out = []
    for j, key in enumerate(keys):
        entry = {"time": key_time(key.frame - first, fps),
                 **_named(fields, np.asarray(key.value) * scale, digits)}
        if j < len(keys) - 1:
            if key.interp == "constant":
                entry["curve"] = "stepped"
            elif key.interp == "bezier":
                s = index[key.frame]
                # Handle times from the written key times: the import reads a handle as
                # an offset from its key's time, so the offsets come back as they were.
                t0, t1 = entry["time"], key_time(keys[j + 1].frame - first, fps)
                out_t, in_t = t0 + (pts.x1[s] - key.frame) / fps, t1 + (pts.x2[s] - keys[j + 1].frame) / fps
                curve = []
                for d in range(len(fields)):
                    curve += [out_t, pts.y1[s, d] * scale, in_t, pts.y2[s, d] * scale]
                entry["curve"] = [_round(v, _TIME_DIGITS if i % 2 == 0 else digits) for i, v in enumerate(curve)]
        out.append(entry)
    return out


def fitted(ch: Channel, first: int, last: int, fps: float, scale: float, tolerance: float) -> Channel:
    """``ch`` cut at ``first`` and ``last`` and at frames between until Spine's chords
    meet every frame's value within ``tolerance`` (the sampled values never change)."""
    if not ch.keys:
        return ch
    ch = ch.split(first).split(last)
    while True:
        frame = _worst_split(ch, first, last, fps, scale, tolerance)
        if frame is None:
            return ch
        ch = ch.split(frame)


def _worst_split(ch, first, last, fps, scale, tolerance):
    """A frame to cut at: the middle of the first bezier segment whose chords miss a
    frame by more than ``tolerance``; None when all agree."""
    pts = control_points(ch)
    for s, key in enumerate(ch.keys[:-1]):
        f0, f1 = key.frame, ch.keys[s + 1].frame
        if key.interp != "bezier" or f1 - f0 < 2 or f1 <= first or f0 >= last:
            continue
        frames = np.arange(f0 + 1, f1, dtype=float)
        exact = ch.sample(frames) * scale
        chords = chord_values(pts, s, frames) * scale
        if np.abs(chords - exact).max() > tolerance:
            return (f0 + f1) // 2
    return None


def chord_values(pts, s: int, frames: np.ndarray) -> np.ndarray:
    """What a Spine runtime gives for segment ``s`` at ``frames``: the Bézier at ten
    equal steps of its parameter, joined by straight lines in time. (N, D)."""
    t = _CHORDS[:, None]
    mt = 1.0 - t
    w = np.hstack([mt ** 3, 3 * mt * mt * t, 3 * mt * t * t, t ** 3])  # (11, 4)
    xs = w @ np.array([pts.frames[s], pts.x1[s], pts.x2[s], pts.frames[s + 1]])
    ys = w @ np.stack([pts.values[s], pts.y1[s], pts.y2[s], pts.values[s + 1]])
    return np.stack([np.interp(frames, xs, ys[:, d]) for d in range(ys.shape[1])], axis=-1)


def _named(fields, values, digits) -> dict:
    return {name: _round(v, digits) for name, v in zip(fields, values)}


def _round(v, digits):
    return round(float(v), digits) + 0.0
