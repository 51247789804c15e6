"""What the curve editor draws, as numpy arrays (no Qt): per shown component (one
coordinate of one channel) its sampled curve, its keys and its handles, in display
units (degrees for angles). Cached per channel object: channels are immutable and an
edit replaces only those it changes, so a drag resamples one curve."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rigeditor.model.data import clips
from rigeditor.model.data.ik_flags import FLAG_TRACKS
from rigeditor.model.data.timeline import Channel, control_points

ANGLES = {("bone", "rotation"), ("space", "rotation")}
NAMES = {1: ("",), 2: (".x", ".y")}


@dataclass(frozen=True)
class Component:
    """Coordinate ``d`` of the channel at ``path``; ``scale`` maps model values to
    display values (degrees per radian for angles)."""

    path: tuple
    d: int
    scale: float

    @property
    def label(self) -> str:
        kind, name, attr = self.path
        return f"{name} · {attr}{NAMES[2][self.d] if attr in ('position', 'translate', 'scale') else ''}"


def components(project, paths) -> list[Component]:
    """The numeric components of ``paths`` that have keys (stepped tracks excluded)."""
    out = []
    for path in paths:
        try:
            ch = clips.channel(project, path)
        except KeyError:
            continue
        if not isinstance(ch, Channel) or not ch.keys or path[2] in ("bend", *FLAG_TRACKS.values()):
            continue
        scale = math.degrees(1.0) if (path[0], path[2]) in ANGLES else 1.0
        out.extend(Component(tuple(path), d, scale) for d in range(ch.dim))
    return out


@dataclass(frozen=True)
class Drawn:
    """curve_x/curve_y: the sampled curve; key_x/key_y: the keys; handles: (K, 2, 2)
    in and out handle points per key ((nan, nan) where a key has none on that side)."""

    curve_x: np.ndarray
    curve_y: np.ndarray
    key_x: np.ndarray
    key_y: np.ndarray
    handles: np.ndarray


_cache: dict = {}


def frame_keyed(project, comp: Component, frame: int) -> bool:
    """Does ``comp``'s channel have a key at ``frame``?"""
    d = drawn(clips.channel(project, comp.path), comp)
    i = int(np.searchsorted(d.key_x, frame))
    return i < len(d.key_x) and d.key_x[i] == frame


def drawn(ch: Channel, comp: Component, samples_per_frame: float = 2.0, per_segment: int = 12) -> Drawn:
    """The curve of ``comp`` over its keyed range (plus nothing outside: the value
    holds there), the keys and their effective handles. Sampled ``samples_per_frame``
    a frame, and at most ``per_segment`` times between two keys on average (a long
    animation's curve stays a few points per key; the view downsamples further)."""
    key = (id(ch), comp.d, comp.scale, samples_per_frame)
    hit = _cache.get(key)
    if hit is not None and hit[0] is ch:
        return hit[1]
    frames = np.array([k.frame for k in ch.keys], float)
    values = np.array([k.value[comp.d] for k in ch.keys], float) * comp.scale
    lo, hi = frames[0], frames[-1]
    n = int(max(min((hi - lo) * samples_per_frame, per_segment * len(frames)), 2))
    # Keys are samples too, so a key is never cut off between two samples.
    x = np.union1d(np.linspace(lo, hi, n + 1), frames)
    y = ch.sample(x)[:, comp.d] * comp.scale
    handles = np.full((len(frames), 2, 2), np.nan)
    if len(frames) > 1:
        pts = control_points(ch)
        bez = np.array([k.interp == "bezier" for k in ch.keys[:-1]])
        handles[:-1, 1, 0] = np.where(bez, pts.x1, np.nan)
        handles[:-1, 1, 1] = np.where(bez, pts.y1[:, comp.d] * comp.scale, np.nan)
        handles[1:, 0, 0] = np.where(bez, pts.x2, np.nan)
        handles[1:, 0, 1] = np.where(bez, pts.y2[:, comp.d] * comp.scale, np.nan)
    out = Drawn(x, y, frames, values, handles)
    if len(_cache) > 512:
        _cache.clear()
    _cache[key] = (ch, out)
    return out
