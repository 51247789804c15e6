"""Spine timelines as RigEditor channels: seconds to frames, Spine's curves to keys.

A Spine key says how the segment *leaving* it runs, like a RigEditor key: no
``curve`` is linear, ``"stepped"`` holds (``constant``), and four numbers per value
``[cx1, cy1, cx2, cy2]`` are the segment's bezier handles in absolute (seconds, value)
coordinates. They become the key's ``out_handle`` and the next key's ``in_handle`` as
(frames, value) offsets. A key keeps its exact time, between frames if need be: the
time the runtimes hold (a 32-bit float) times fps. A key the runtimes hold at a frame's
own time (the same 32-bit float) sits on that frame, unless a step arrives at it and the
32-bit time lies after the frame: the runtimes still show the value before the step
there, and so does the key kept at its 32-bit time (:func:`frame_of`). The frame rate
is chosen so Spine's key times land on frames where one does (:func:`frame_rate`).

Two keys at one time play as Spine's runtimes play them: the segment before ends at
the first one's value, the last one holds from that time on (the runtime looks up
the last key at or before the time). The first is kept ``DUPLICATE_GAP`` frames
earlier, a step no sampling rate sees.

Before its first key a Spine timeline leaves the setup pose alone; a channel holds
its first key backwards. So a timeline whose first key is after 0 gets a held key at
frame 0 with the setup value.
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from rigeditor.io.spine.skeleton import SpineError
from rigeditor.model.data.timeline import Channel, Key, StepChannel
from rigeditor.model.validation.project import MAX_MAGNITUDE, MIN_SCALE

ON_FRAME_S = 6e-5
"""Seconds: a frame rate fits a skeleton when every key time is this close to one of
its frames (Spine writes times to 4 decimals: 0.0667 s is frame 2.001 at 30 fps)."""


def key_times(animation: dict) -> list[float]:
    """Every key time (seconds) of a Spine animation's timelines."""
    out = []

    def walk(node):
        if isinstance(node, list):
            for key in node:
                if isinstance(key, dict):
                    out.append(float(key.get("time", 0.0)))
                    walk({k: v for k, v in key.items() if isinstance(v, (list, dict)) and k != "curve"})
        elif isinstance(node, dict):
            for v in node.values():
                walk(v)

    walk(animation)
    return out


def frame_rate(times, preferred: float | None) -> tuple[float, float]:
    """(fps, worst distance of a key from a frame, in frames): the first of the
    skeleton's own rate (or 30), 30, 60, 24, 120, 240 fps on which every time lies on a
    frame (within ON_FRAME_S); else the skeleton's own rate (or 30), the keys between
    its frames keeping their times."""
    times = np.asarray(list(times), dtype=float)
    first = None
    for fps in dict.fromkeys([preferred or 30.0, 30.0, 60.0, 24.0, 120.0, 240.0]):
        shift = float(np.abs(times * fps - np.rint(times * fps)).max()) if times.size else 0.0
        if shift <= ON_FRAME_S * fps:
            return float(fps), shift
        first = first or (float(fps), shift)
    return first


DUPLICATE_GAP = 1e-6
"""Frames between the two keys that stand for two Spine keys at one time."""


def frame_of(t: float, fps: float, step: bool = False) -> float:
    """The frame of a key at ``t`` seconds as Spine's runtimes play it: the whole frame
    whose time is the key's 32-bit time (the float nearest it, or the largest float at
    or before it), else that time (float32(t)) times fps. ``step``:
    the segment arriving at the key jumps (a stepped key before, or the setup pose before
    a first key after 0), so a key whose 32-bit time lies just after its frame stays
    there: at the frame the runtimes still show the value before it."""
    t32 = float(np.float32(t))
    whole = round(t32 * fps)
    exact = whole / fps
    nearest = float(np.float32(exact))
    # RigEditor's export writes a frame's key as the largest 32-bit float at or before
    # the frame's time (so it shows on that frame): that float stands for the frame too.
    below = nearest if nearest <= exact else float(np.nextafter(np.float32(nearest), np.float32(-np.inf)))
    if t32 == below or (t32 == nearest and not (step and t32 > exact)):
        return float(whole)
    return t32 * fps


def duplicate_times(keys: list[dict]) -> list[float]:
    """Times (seconds) at which two or more of ``keys`` fall (as 32-bit floats)."""
    times = [float(np.float32(k.get("time", 0.0))) for k in keys if isinstance(k, dict)]
    return sorted({b for a, b in zip(times, times[1:]) if a == b})


def channel(keys: list[dict], fields: tuple[str, ...], spine_default: float, fps: float, *,
            setup: tuple[float, ...], mul=1.0, add=0.0, runtime: bool = False,
            where: str | None = None) -> tuple[Channel, bool]:
    """A channel from Spine ``keys`` of ``fields`` (("value",), ("x", "y"), ("mix",)).

    ``runtime``: a bezier segment becomes the ten straight pieces Spine's runtimes play
    (:func:`runtime_points`: linear keys at their corners) instead of the authored
    curve: what a game shows at any time, no longer one editable curve.

    Model value = ``mul * spine_value + add`` per field; ``setup`` is the model value
    before the first key (and the channel's default). Returns (channel, exact): not
    exact when a 2-value key eases its values with different timing (the channel shares
    one time handle: the first value's is used). Two keys at one time are kept as
    Spine plays them (see the module's notes; :func:`duplicate_times` finds them).
    ``where`` (the timeline's JSON path): a key value or curve handle beyond
    RigEditor's range once mapped is refused there (SpineError); None: the caller
    clamps the values.
    """
    dims = len(fields)
    mul = np.broadcast_to(np.asarray(mul, dtype=float), (dims,))
    add = np.broadcast_to(np.asarray(add, dtype=float), (dims,))
    exact = True
    model = []  # (frame, time, values, curve)
    for i, key in enumerate(keys):
        t = float(key.get("time", 0.0))
        raw = np.array([float(key.get(f, spine_default)) for f in fields])
        step = (keys[i - 1].get("curve") == "stepped") if i else t > 0
        # A key with another at its time is where the value jumps (to the last of them),
        # at that 32-bit time, as at a stepped key.
        step = step or (i + 1 < len(keys) and np.float32(keys[i + 1].get("time", 0.0)) == np.float32(t))
        frame = frame_of(t, fps, step)
        if model and np.float32(t) == np.float32(model[-1][1]):
            # A second key at one time sits where the first does (whether a step
            # arrives at it or not), so the two play as one time (see _merged).
            frame = model[-1][0]
        model.append((frame, t, raw, key.get("curve")))
    out: list[Key] = []
    if model and model[0][0] > 0:
        out.append(Key(0, tuple(float(v) for v in setup), "constant"))
    in_handles: dict[int, tuple] = {}
    for i, (frame, t, raw, curve) in enumerate(model):
        value = tuple(float(v) for v in mul * raw + add)
        if where is not None:
            _within(f"{where}[{i}]", fields, raw, value)
            if isinstance(curve, list):  # the handles, as values and as offsets from their keys
                c = np.asarray(curve, dtype=float).reshape(-1, 4)[:dims]
                nxt = model[i + 1][2][:len(c)] if i + 1 < len(model) else raw[:len(c)]
                for j in (1, 3):
                    _within(f"{where}[{i}].curve", fields, c[:, j], mul[:len(c)] * c[:, j] + add[:len(c)])
                _within(f"{where}[{i}].curve", fields, c[:, 1], mul[:len(c)] * (c[:, 1] - raw[:len(c)]))
                _within(f"{where}[{i}].curve", fields, c[:, 3], mul[:len(c)] * (c[:, 3] - nxt))
        interp, out_h = "linear", None
        if curve == "stepped":
            interp = "constant"
        elif isinstance(curve, list) and i + 1 < len(model):
            c = np.asarray(curve, dtype=float).reshape(-1, 4)
            if c.shape[0] < dims:
                c = np.vstack([c, np.repeat(c[-1:], dims - c.shape[0], axis=0)])
            if not runtime and dims > 1 and (np.ptp(c[:dims, 0]) > 1e-9 or np.ptp(c[:dims, 2]) > 1e-9):
                exact = False
            if runtime:
                out.append(Key(frame, value, "linear", None, in_handles.get(i)))
                f2, t2, raw2, _ = model[i + 1]
                for tk, v in runtime_points(t, raw[:dims], c[:dims], t2, raw2[:dims]):
                    fk = tk * fps
                    if frame < fk < f2 - 2 * DUPLICATE_GAP:
                        out.append(Key(fk, tuple(float(x) for x in mul * v + add), "linear"))
                continue
            interp = "bezier"
            out_h = ((c[0, 0] - t) * fps,) + tuple(float(v) for v in mul * (c[:dims, 1] - raw))
            _, t2, raw2, _ = model[i + 1]
            in_handles[i + 1] = ((c[0, 2] - t2) * fps,) + tuple(float(v) for v in mul * (c[:dims, 3] - raw2))
        out.append(Key(frame, value, interp, out_h, in_handles.get(i)))
    still = tuple(float(v) for v in setup)
    if all(tuple(k.value) == still for k in out):  # exactly, as allclose at zero tolerance (numpy's per-call cost)
        # Every key holds the setup value: in one animation that is no motion at all,
        # and an unkeyed channel says so (exporters write such keys for still bones).
        return Channel(default=tuple(float(v) for v in setup)), exact
    return _merged(out, setup), exact


def _within(where, fields, raw, values) -> None:
    """SpineError at ``where`` when a mapped value is beyond RigEditor's range."""
    for f, r, v in zip(fields, raw, values):
        if not abs(v) <= MAX_MAGNITUDE:
            raise SpineError(None, [f"{where}.{f}: {float(r):.10g} becomes {float(v):.10g} in RigEditor (on the setup "
                                    f"pose), beyond its limit (magnitude <= {MAX_MAGNITUDE:g})"])


def scale_keys(keys: list[dict], setup: tuple[float, float], where: str) -> None:
    """SpineError at the Spine scale key RigEditor refuses: a component (setup scale
    times the key's) of magnitude below MIN_SCALE, or one that changes sign from the
    key before (unless that key holds: the value passes through zero)."""
    previous = None
    for i, key in enumerate(keys):
        value = [s * float(key.get(f, 1.0)) for s, f in zip(setup, "xy")]
        for f, v, u in zip("xy", value, previous or value):
            if abs(v) < MIN_SCALE:
                raise SpineError(None, [f"{where}[{i}].{f}: gives a scale of {v:g}, RigEditor needs a magnitude "
                                        f">= {MIN_SCALE:g} (a smaller one collapses the bone)"])
            if u * v < 0 and keys[i - 1].get("curve") != "stepped":
                raise SpineError(None, [f"{where}[{i}].{f}: the scale changes sign from the key before ({u:g} to "
                                        f"{v:g}), passing through 0 (RigEditor needs a magnitude >= {MIN_SCALE:g})"])
        previous = value


BEZIER_STEPS = 10
"""Spine's runtimes play a bezier segment as this many straight pieces, evenly spaced
in the curve's parameter (not in time)."""

JUMP_S = 1e-9
"""Seconds between the two corners that stand for a jump inside a bezier segment (the
value at the jump's time, then the value just after it)."""


def _bezier_points(t0, v0, cx1, cy1, cx2, cy2, t1, v1) -> tuple[np.ndarray, np.ndarray]:
    """(times, values) of the curve at parameters 0, 0.1, ..., 1."""
    u = np.linspace(0.0, 1.0, BEZIER_STEPS + 1)
    a, b, c, d = (1 - u) ** 3, 3 * (1 - u) ** 2 * u, 3 * (1 - u) * u * u, u ** 3
    return a * t0 + b * cx1 + c * cx2 + d * t1, a * v0 + b * cy1 + c * cy2 + d * v1


def _played(ts: np.ndarray, vs: np.ndarray, time: float, side: int = 0) -> float:
    """The runtime's value at ``time`` of the pieces through ``(ts, vs)`` (the points of
    :func:`_bezier_points`). The runtime takes the piece ending at the first inner point
    strictly past ``time`` if that is the first inner point, else at the first one at or
    past it, else the last piece. Handles that reach outside the segment make the times
    go back and forth, and the value then jumps where a later piece takes over.
    ``side``: -1 the limit from the left, 1 from the right, 0 the value at ``time``."""
    def past(x, first):
        return x > time if side > 0 or (side == 0 and first) else x >= time

    n = len(ts) - 1
    k = n
    if past(ts[1], True):
        k = 1
    else:
        for i in range(2, n):
            if past(ts[i], False):
                k = i
                break
    x0, x1, y0, y1 = ts[k - 1], ts[k], vs[k - 1], vs[k]
    return float(y1 if x1 == x0 else y0 + (time - x0) / (x1 - x0) * (y1 - y0))


def runtime_points(t0, v0, c, t1, v1) -> list[tuple[float, np.ndarray]]:
    """The inner corners (time s, values (D,)) of the straight pieces Spine's runtimes
    play for a bezier segment from (t0, v0) to (t1, v1), ``c`` (D, 4) its handles per
    value. Values eased with different timing have their corners at different times:
    each is read off its own pieces at every corner of them all, so the keys are still
    exactly the runtime's lines. Where a value jumps (a handle outside the segment's
    time span) the corner is doubled: the value arriving there, then JUMP_S later the
    value leaving it."""
    curves = [_bezier_points(t0, v0[k], *h, t1, v1[k]) for k, h in enumerate(c)]
    corners = sorted({float(t0)} | {float(x) for ts, _ in curves for x in ts[1:-1] if t0 < x < t1})
    out = []
    for tk in corners:
        left = np.array([_played(ts, vs, tk, -1) for ts, vs in curves])
        right = np.array([_played(ts, vs, tk, 1) for ts, vs in curves])
        if tk > t0:
            out.append((tk, left))
        if not np.allclose(left, right, rtol=1e-12, atol=1e-12):
            out.append((tk + JUMP_S, right))
    return out


def _merged(keys: list[Key], setup) -> Channel:
    """Keys with strictly increasing frames. Of keys on one frame the first ends the
    segment before (kept DUPLICATE_GAP frames earlier, arriving linearly at the last)
    and the last holds from that frame on, as Spine plays them."""
    groups: dict[float, list[Key]] = {}
    for k in keys:
        groups.setdefault(k.frame, []).append(k)
    out = []
    for f in sorted(groups):
        same = groups[f]
        # Keys a hair after a frame (a 32-bit time past it) keep the first one after the
        # frame too: the frame itself still shows what came before, as in the runtimes.
        gap = DUPLICATE_GAP if f == math.floor(f) else min(DUPLICATE_GAP, (f - math.floor(f)) / 2)
        if len(same) > 1 and (not out or out[-1].frame < f - gap):
            out.append(replace(same[0], frame=f - gap, interp="linear", out_handle=None))
        out.append(same[-1])
    # The default is the setup value (what every animation of the rig starts from).
    return Channel(default=tuple(float(v) for v in setup), keys=tuple(out))


def step_channel(keys: list[tuple[float, str]], fps: float, setup: str) -> StepChannel:
    """A stepped channel of names from (time s, name) pairs; the later of two keys on
    one frame wins."""
    out: dict[float, str] = {}
    for t, name in keys:
        out[frame_of(t, fps, step=True)] = name
    return StepChannel(setup, tuple(sorted(out.items())))


def radians(deg) -> float:
    return math.radians(deg)


def rotated(ch: Channel, angle: float) -> Channel:
    """A 2-value channel turned by ``angle`` radians: its values and its handles' value
    offsets (a linear map keeps every curve the same curve, turned)."""
    c, s = math.cos(angle), math.sin(angle)

    def turn(v):
        return (c * v[0] - s * v[1], s * v[0] + c * v[1])

    def handle(h):
        return None if h is None else (h[0],) + turn(h[1:])

    keys = tuple(replace(k, value=turn(k.value), out_handle=handle(k.out_handle), in_handle=handle(k.in_handle))
                 for k in ch.keys)
    return Channel(default=turn(ch.default), keys=keys)
