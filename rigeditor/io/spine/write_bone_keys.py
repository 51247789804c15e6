"""A bone's timelines in the Spine export: its channels as curves or a key a frame.

A channel with keys on whole frames is written as Spine curve keys (``write_curves``),
else sampled, a key per baked frame; a channel without keys is the bone's setup value.
Shared by the bones (``write``) and the bones standing for spaces and targets
(``write_targets``). Values are rounded for the file (``rounded``: 1e-6 s, degree,
model unit).
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from rigeditor.core.geometry import unwrap, wrap_angle
from rigeditor.io.errors import ExportError
from rigeditor.io.spine import write_ik
from rigeditor.io.spine.write_curves import curve_keys, key_time
from rigeditor.model.evaluation.bake import Bake

DECIMALS = 6
STILL = 1e-9  # below this a channel counts as not animated (no timeline written)


def shear_and_inherit(bone, span, bake, times, out: dict, entry: dict) -> None:
    """A bone's shear (degrees; its still value is its setup ``shearX``/``shearY``, keys
    are offsets from it) and inherit mode (setup ``inherit``, 4.2 ``inherit``
    keys where it is keyed, stepped)."""
    if animated(bone.shear, (0.0, 0.0)):
        # The still value is the setup (every animation's: Spine's shear keys are
        # offsets from it, as the import reads them), the keys offsets from it.
        setup = np.asarray(bone.shear.default, dtype=float)
        if setup.any():
            entry["shearX"], entry["shearY"] = rounded(np.degrees(setup))
        offsets = less_setup(bone.shear, setup)
        if not offsets.keys:
            pass
        elif span is not None:
            out["shear"] = curve_keys(offsets, *span, bake.fps, ("x", "y"), math.degrees(1.0), 1e-4)
        else:
            out["shear"] = keys2(times, np.degrees(offsets.sample(bake.frames)))
    if bone.inherit.default != "normal":
        entry["inherit"] = bone.inherit.default
    if bone.inherit.keys:
        first = bake.frames[0]
        modes = [(f, v) for f, v in bone.inherit.keys if f <= bake.frames[-1]]
        start = bone.inherit.value_at(first)
        keys = ([] if start == bone.inherit.default else [{"time": 0.0, "inherit": start}]) + [
            {"time": key_time(f - first, bake.fps), "inherit": v} for f, v in modes if f > first]
        if keys:
            out["inherit"] = keys


def channel_timelines(s, span, bake, times, out: dict, entry: dict) -> None:
    """A space's own position, rotation, scale and shear as the timelines of a bone (curves
    and all on whole frames, else a key per frame); a channel without keys is the
    bone's setup value (``entry``: its bones-list entry)."""
    for field, ch, rest, key, unit, setup in (
            ("translate", s.position, (0.0, 0.0), ("x", "y"), 1.0, ("x", "y")),
            ("rotate", s.rotation, (0.0,), ("value",), math.degrees(1.0), ("rotation",)),
            ("scale", s.scale, (1.0, 1.0), ("x", "y"), 1.0, ("scaleX", "scaleY")),
            ("shear", s.shear, (0.0, 0.0), ("x", "y"), math.degrees(1.0), ("shearX", "shearY"))):
        if not animated(ch, rest):
            continue
        if not ch.keys:
            entry.update(zip(setup, rounded(np.asarray(ch.default) * unit)))
        elif span is not None:
            out[field] = curve_keys(ch, *span, bake.fps, key, unit, 1e-5)
        else:
            values = ch.sample(bake.frames) * unit
            out[field] = keys1(times, values[:, 0]) if len(key) == 1 else keys2(times, values)


def less_setup(ch, setup):
    """Channel ``ch`` with ``setup`` taken from its keys' values (handles are offsets
    from their keys: unchanged): a Spine timeline of offsets from a setup value."""
    return replace(ch, default=tuple(0.0 for _ in ch.default),
                   keys=tuple(replace(k, value=tuple(np.subtract(k.value, setup).tolist())) for k in ch.keys))


def frame_span(bake: Bake):
    """(first, last) when the bake is every integer frame of a range, else None."""
    f = bake.frames
    if len(f) and np.array_equal(f, np.arange(f[0], f[0] + len(f))) and float(f[0]).is_integer():
        return int(f[0]), int(f[-1])
    return None


def animated(ch, rest) -> bool:
    return bool(ch.keys) or tuple(ch.default) != rest


def trs_keys(char, frames, times, out: dict, what: str) -> None:
    """Translate, rotate and scale timelines per frame (``frames``) of the transform
    ``char`` (the character space's for the root bone); ``what`` names it in a refusal."""
    n = len(frames)
    a, b, c, d, tx, ty = (np.broadcast_to(np.asarray(v, dtype=float), (n,)) for v in char.fields())
    angle = np.arctan2(c, a)
    sx = np.hypot(a, c)
    sy = (a * d - b * c) / sx
    sheared = np.hypot(b + np.sin(angle) * sy, d - np.cos(angle) * sy) > 1e-9 * np.maximum(np.abs(sy), 1.0)
    if sheared.any():
        shown = ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in write_ik.frame_ranges(sheared, frames))
        raise ExportError(None, [f"spaces: {what} is sheared at frames {shown} "
                                 "(a rotated parent with unequal scales); Spine bones cannot shear"])
    if max(np.abs(tx).max(), np.abs(ty).max()) > STILL:
        out["translate"] = keys2(times, np.stack([tx, ty], axis=-1))
    if np.abs(angle).max() > STILL:
        out["rotate"] = keys1(times, np.degrees(unwrap(angle)))
    if max(np.abs(sx - 1).max(), np.abs(sy - 1).max()) > STILL:
        out["scale"] = keys2(times, np.stack([sx, sy], axis=-1))


def offset_deg(local: np.ndarray, setup: float) -> np.ndarray:
    """Local rotation minus the setup rotation in degrees, unwrapped along the frames and
    shifted by whole turns so the first frame's offset lies within +/-180."""
    offset = unwrap(local, axis=0) - setup
    offset += wrap_angle(offset[0]) - offset[0]
    return np.degrees(offset)


def keys1(times, values) -> list[dict]:
    return [{"time": t, "value": v} for t, v in zip(times, rounded(values))]


def keys2(times, xy) -> list[dict]:
    return [{"time": t, "x": x, "y": y} for t, (x, y) in zip(times, rounded(xy))]


def rounded(values):
    """Round for the file (1e-6 s, degree, model unit); -0.0 becomes 0.0."""
    return (np.round(np.asarray(values, dtype=float), DECIMALS) + 0.0).tolist()


def unique(name: str, taken: set) -> str:
    """``name``, or ``name_2``, ``name_3``... the first not in ``taken``; added to it."""
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name}_{n}"
    taken.add(candidate)
    return candidate
