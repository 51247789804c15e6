"""Edits of keys across tracks, for the dope sheet and the curve editor (pure
functions of a Project, no Qt): scale in time, copy and paste, interpolation,
moving one key in time and value, its handles.

Keys are addressed as ``{path: frames}``, path = (kind, item, attribute) as in
``model.clips``; the draw-order track is ``clips.DRAW_ORDER``.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from rigeditor.edits.deform import deform_keys_of, with_deform_keys
from rigeditor.edits.errors import EditError
from rigeditor.model.data import clips
from rigeditor.model.data.deform import DEFORM
from rigeditor.model.data.ik_flags import FLAG_TRACKS
from rigeditor.model.data.project import Project
from rigeditor.model.data.timeline import INTERPOLATIONS, Channel, StepChannel

Keys = Mapping[tuple, Iterable[float]]


def get(project: Project, path):
    """The track at ``path`` (the draw order as its tuple of keys)."""
    if path[0] == DEFORM:
        return deform_keys_of(project, path)
    return project.art.draw_order if path == clips.DRAW_ORDER else clips.channel(project, path)


def put(project: Project, path, track) -> Project:
    if path == clips.DRAW_ORDER:
        return replace(project, art=replace(project.art, draw_order=tuple(track)))
    if path[0] == DEFORM:
        return with_deform_keys(project, path, track)
    return clips.with_channel(project, path, track)


def _frame(k) -> float:
    return k.frame if hasattr(k, "frame") else k[0]


def _at(k, frame: int):
    return replace(k, frame=frame) if hasattr(k, "frame") else (frame, k[1])


def _keys_of(track) -> tuple:
    return track if isinstance(track, tuple) else track.keys


def _with_keys(track, keys):
    keys = tuple(sorted(keys, key=_frame))
    return keys if isinstance(track, tuple) else replace(track, keys=keys)


def retime(project: Project, keys: Keys, frame_of) -> Project:
    """Move every selected key to ``frame_of(frame)``. Frames are keys' own (floats: a key
    may sit between frames; 3 and 3.0 name the same key). A moved key lands on an
    unmoved one and replaces it; moved keys landing together keep the later one.
    Handles keep their offsets (the sampler clamps their times into the segment)."""
    for path, frames in keys.items():
        frames = {float(f) for f in frames}
        if not frames:
            continue
        track = get(project, path)
        moved = {}
        for k in _keys_of(track):
            if _frame(k) in frames:
                moved[frame_of(_frame(k))] = _at(k, frame_of(_frame(k)))
        kept = [k for k in _keys_of(track) if _frame(k) not in frames and _frame(k) not in moved]
        project = put(project, path, _with_keys(track, kept + list(moved.values())))
    return project


def scale_keys(project: Project, keys: Keys, pivot: int, factor: float) -> Project:
    """Scale the selected keys in time about frame ``pivot`` (factor > 0), rounding to
    frames; explicit handles' time offsets scale by the same factor."""
    if not factor > 0:
        raise EditError(f"a time scale must be > 0, got {factor}")
    out = retime(project, keys, lambda f: round(pivot + (f - pivot) * factor))
    for path, frames in keys.items():
        track = get(out, path)
        if not isinstance(track, Channel):
            continue
        landed = {round(pivot + (float(f) - pivot) * factor) for f in frames}
        out = put(out, path, replace(track, keys=tuple(
            replace(k, out_handle=_scaled(k.out_handle, factor), in_handle=_scaled(k.in_handle, factor))
            if k.frame in landed else k for k in track.keys)))
    return out


def _scaled(h, factor):
    return None if h is None else (h[0] * factor,) + tuple(h[1:])


@dataclass(frozen=True)
class Clipboard:
    """Copied keys: per path the keys with frames relative to the earliest copied
    frame (0 = where they are pasted)."""

    tracks: dict


def copy_keys(project: Project, keys: Keys) -> Clipboard:
    """The selected ``keys`` of ``project`` as a Clipboard, their frames counted from
    the first of them (0); an empty Clipboard when none is selected."""
    picked = {path: [k for k in _keys_of(get(project, path)) if _frame(k) in set(map(float, frames))]
              for path, frames in keys.items()}
    picked = {p: ks for p, ks in picked.items() if ks}
    if not picked:
        return Clipboard({})
    first = min(_frame(k) for ks in picked.values() for k in ks)
    return Clipboard({p: tuple(_at(k, _frame(k) - first) for k in ks) for p, ks in picked.items()})


def paste_keys(project: Project, board: Clipboard, frame: int, onto: Iterable[tuple[str, str]] = ()):
    """Paste at ``frame`` (the earliest copied key lands there); returns (project,
    {pasted path: frames of the pasted keys}). Keys go to the same track, or, with ``onto`` items ((kind, name)),
    to each of those items' track of the same attribute (another bone's rotation),
    when the copied keys come from one item. Tracks that do not exist are skipped.
    Works across animations: the clipboard holds keys, not places in one animation."""
    onto = list(onto)
    sources = {p[:2] for p in board.tracks if p != clips.DRAW_ORDER}
    pasted = {}
    for path, keys in board.tracks.items():
        targets = [path]
        if onto and len(sources) == 1 and path != clips.DRAW_ORDER:
            targets = [(kind, name, path[2]) for kind, name in onto if kind == path[0]]
        for target in targets:
            try:
                track = get(project, target)
            except KeyError:
                continue
            if isinstance(track, StepChannel) != isinstance(keys[0], tuple) or (
                    isinstance(track, Channel) and track.dim != len(keys[0].value)):
                continue
            if path == clips.DRAW_ORDER and any(set(k.order) != {s.name for s in project.art.slots} for k in keys):
                continue
            new = {int(frame) + _frame(k): _at(k, int(frame) + _frame(k)) for k in keys}
            kept = [k for k in _keys_of(track) if _frame(k) not in new]
            project = put(project, target, _with_keys(track, kept + list(new.values())))
            pasted[target] = tuple(sorted(new))
    return project, pasted


def set_interpolation(project: Project, keys: Keys, interp: str) -> Project:
    """The segments leaving the selected keys interpolate with ``interp``; stepped
    tracks (spaces, attachments, draw order, bend) are left as they are."""
    if interp not in INTERPOLATIONS:
        raise EditError(f"interpolation must be one of {', '.join(INTERPOLATIONS)}, got {interp!r}")
    for path, frames in keys.items():
        track = get(project, path)
        if not isinstance(track, Channel) or path[2] in ("bend", *FLAG_TRACKS.values()):
            continue
        frames = set(map(float, frames))
        project = put(project, path, replace(track, keys=tuple(
            replace(k, interp=interp) if k.frame in frames else k for k in track.keys)))
    return project


def move_key(project: Project, path, frame: int, new_frame: int, value) -> Project:
    """The key at ``frame`` of channel ``path`` moved to ``new_frame`` with ``value``
    (a key already there is replaced); its handles keep their offsets."""
    ch = clips.channel(project, path)
    key = next(k for k in ch.keys if k.frame == frame)
    moved = replace(key, frame=new_frame, value=tuple(float(v) for v in value))
    return clips.with_channel(project, path, ch.without_key(frame).with_key(moved))


def clamp_delta(keys: Keys, delta: int, start: int, end: int) -> int:
    """``delta`` (frames) limited so the moved keys stay inside [start, end] (keys
    already outside may stay where they are, but are never pushed further out)."""
    frames = [float(f) for fs in keys.values() for f in fs]
    if not frames:
        return 0
    lo, hi = start - min(frames), end - max(frames)
    return int(min(max(int(delta), min(lo, 0)), max(hi, 0)))


def move_keys(project: Project, keys: Keys, dt: int,
              dv: Mapping[tuple, Sequence[float]] | None = None) -> Project:
    """Move the selected keys together by ``dt`` frames, limited to the open
    animation's frame range (:func:`clamp_delta`), and change the values of the
    keys ``(path, frame)`` in ``dv`` by one amount per component (model units;
    other keys keep their values). A moved key landing on an unmoved one replaces
    it; moved keys never replace each other (:func:`retime`). A key between frames
    lands on the nearest frame (drags snap to frames). Handles keep their offsets."""
    for (path, frame), change in (dv or {}).items():
        ch = clips.channel(project, path)
        project = clips.with_channel(project, path, replace(ch, keys=tuple(
            replace(k, value=tuple(float(v + c) for v, c in zip(k.value, change))) if k.frame == frame else k
            for k in ch.keys)))
    tl = project.timeline
    dt = clamp_delta(keys, dt, tl.start, tl.end)
    return retime(project, keys, lambda f: round(f + dt)) if dt else project


def set_handle(project: Project, path, frame: int, side: str, dt: float, dv: float, *, component: int = 0,
               aligned: bool, value_scale: float = 1.0) -> Project:
    """Drag the ``side`` ("out" or "in") handle of the key at ``frame`` to ``dt``
    frames from the key (clamped to >= 0 out, <= 0 in) and value offset ``dv`` on
    coordinate ``component`` (model units); the handle's other coordinates keep
    their offsets. Automatic handles are written out first, so the untouched side
    keeps its shape.

    ``aligned`` (a smooth key): as Blender's aligned handles, the other handle turns
    to point exactly opposite and keeps its own length, measured in the plane the
    curve editor draws, (frames, value * ``value_scale``) with ``value_scale`` the
    view units per model unit (degrees per radian for angles); for a 2-D channel
    the plane is the (frames, x, y) space, as the two curves share the handle's
    time. However steep the drag, the other handle's value offset never exceeds its
    length (a drag shorter than 1e-12 leaves it as it is). Else the handles are
    broken and the other stays as it is."""
    from rigeditor.model.data.timeline import control_points

    if not (math.isfinite(dt) and math.isfinite(dv) and value_scale > 0):
        raise EditError(f"a handle needs finite offsets and a positive view scale, got dt={dt!r}, "
                         f"dv={dv!r}, value_scale={value_scale!r}")
    ch = clips.channel(project, path)
    i = next(j for j, k in enumerate(ch.keys) if k.frame == frame)
    key = ch.keys[i]
    out_h, in_h = key.out_handle, key.in_handle
    if len(ch.keys) > 1:
        pts = control_points(ch)
        if out_h is None and i < len(ch.keys) - 1:
            out_h = (float(pts.x1[i] - frame),) + tuple(map(float, pts.y1[i] - pts.values[i]))
        if in_h is None and i > 0:
            in_h = (float(pts.x2[i - 1] - frame),) + tuple(map(float, pts.y2[i - 1] - pts.values[i]))
    current = out_h if side == "out" else in_h
    handle = list(current) if current is not None else [0.0] * (ch.dim + 1)
    handle[0] = max(float(dt), 0.0) if side == "out" else min(float(dt), 0.0)
    handle[1 + component] = float(dv)
    handle = tuple(handle)
    other = in_h if side == "out" else out_h
    if aligned and other is not None:
        other = _opposite(handle, other, value_scale)
    out_h, in_h = (handle, other) if side == "out" else (other, handle)
    keys = list(ch.keys)
    keys[i] = replace(key, out_handle=out_h, in_handle=in_h)
    # The segment the handle shapes becomes a bezier one.
    j = i if side == "out" else i - 1
    if 0 <= j < len(keys) - 1:
        keys[j] = replace(keys[j], interp="bezier")
    return clips.with_channel(project, path, replace(ch, keys=tuple(keys)))


def _opposite(handle, other, value_scale: float) -> tuple:
    """``other`` turned to point opposite ``handle``, keeping its length in the
    (frames, value * value_scale) plane; unchanged if ``handle`` has no direction."""
    s = np.array([1.0] + [value_scale] * (len(handle) - 1))
    h, o = np.asarray(handle) * s, np.asarray(other) * s
    n = float(np.linalg.norm(h))
    if not n > 1e-12:  # too short to say where it points
        return other
    return tuple(map(float, -(h / n) * float(np.linalg.norm(o)) / s))
