"""Version 3 -> 4 of automatic bezier handles (see ``migrations``): keep the
version 3 curve of every segment that did not overshoot, by writing out the
automatic handles the clamped rule would change."""
from __future__ import annotations

import numpy as np

from rigeditor.model.data.timeline import _CODE, INTERPOLATIONS, auto_slopes


def _number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _well_formed(keys, dim_hint=None):
    """(frames, values, interps) of raw keys, or None when anything is off (then
    validation reports it at its place and nothing is migrated here)."""
    frames, values, interps = [], [], []
    for k in keys:
        if not isinstance(k, dict) or not isinstance(k.get("frame"), int) or isinstance(k.get("frame"), bool):
            return None
        v = k.get("value")
        v = [v] if _number(v) else v
        if not isinstance(v, list) or not v or not all(_number(x) for x in v):
            return None
        if k.get("interp", "linear") not in INTERPOLATIONS:
            return None
        for h in (k.get("out_handle"), k.get("in_handle")):
            if h is not None and not (isinstance(h, list) and len(h) == len(v) + 1 and all(_number(x) for x in h)):
                return None
        frames.append(k["frame"])
        values.append(v)
        interps.append(k.get("interp"))
    if len({len(v) for v in values}) != 1 or any(b <= a for a, b in zip(frames, frames[1:])):
        return None
    return np.array(frames, float), np.array(values, float), interps


def keep_v3_handles(ch, interp: str = "linear") -> int:
    """Rewrite the raw channel ``ch`` in place (``interp``: its keys' default); returns
    how many bezier segments overshot under version 3 and so change (become clamped)."""
    if not isinstance(ch, dict) or not isinstance(ch.get("keys"), list) or len(ch["keys"]) < 3:
        return 0  # with two keys both ends are flat under either rule
    keys = ch["keys"]
    parsed = _well_formed(keys)
    if parsed is None:
        return 0
    frames, values, interps = parsed
    interps = [interp if i is None else i for i in interps]
    codes = np.array([_CODE[i] for i in interps], dtype=np.int8)
    with np.errstate(all="ignore"):  # values past float range: left to validation, below
        old = auto_slopes(frames, values, codes, clamped=False)
        new = auto_slopes(frames, values, codes, clamped=True)
    if not (np.all(np.isfinite(old)) and np.all(np.isfinite(new))):
        return 0  # validation refuses such values at their place; nothing to keep
    clamped = 0
    for s in range(len(keys) - 1):
        if interps[s] != "bezier":
            continue
        gap = frames[s + 1] - frames[s]
        out_auto = keys[s].get("out_handle") is None and not np.array_equal(old[s], new[s])
        in_auto = keys[s + 1].get("in_handle") is None and not np.array_equal(old[s + 1], new[s + 1])
        if not (out_auto or in_auto):
            continue
        out_h = _handle(keys[s].get("out_handle"), gap / 3.0, old[s] * gap / 3.0, 0.0, gap)
        in_h = _handle(keys[s + 1].get("in_handle"), -gap / 3.0, -old[s + 1] * gap / 3.0, -gap, 0.0)
        if _overshoots(values[s], values[s + 1], out_h[1], in_h[1]):
            clamped += 1
            continue  # becomes clamped: that change is the point
        if out_auto:
            keys[s]["out_handle"] = [out_h[0]] + out_h[1].tolist()
        if in_auto:
            keys[s + 1]["in_handle"] = [in_h[0]] + in_h[1].tolist()
    return clamped


def _handle(raw, dt, dv, lo, hi):
    """(dt, dv) of a handle: the written one (time clamped into the segment, as the
    sampler does) or the automatic one."""
    if raw is None:
        return float(dt), np.asarray(dv, float)
    return float(np.clip(raw[0], lo, hi)), np.asarray(raw[1:], float)


def _overshoots(v0, v1, out_dv, in_dv) -> bool:
    """Whether the cubic with control values v0, v0 + out_dv, v1 + in_dv, v1 leaves
    [min(v0, v1), max(v0, v1)] in any coordinate (time is monotone, so the range over
    the segment is the range over t in [0, 1]); extremes from the derivative's roots."""
    p0, p1, p2, p3 = v0, v0 + out_dv, v1 + in_dv, v1
    for d in range(len(v0)):
        with np.errstate(all="ignore"):
            a = -p0[d] + 3 * p1[d] - 3 * p2[d] + p3[d]
            b = 2 * (p0[d] - 2 * p1[d] + p2[d])
            c = p1[d] - p0[d]
        if not np.all(np.isfinite([a, b, c])):
            continue  # handles past float range: validation refuses them at their place
        with np.errstate(all="ignore"):  # np.roots scales by the leading coefficient
            roots = np.roots([a, b, c]) if abs(a) > 1e-300 or abs(b) > 1e-300 else []
        ts = [r.real for r in np.atleast_1d(roots) if abs(r.imag) < 1e-12 and 0.0 < r.real < 1.0]
        lo, hi = min(p0[d], p3[d]), max(p0[d], p3[d])
        tol = 1e-12 * max(1.0, abs(lo), abs(hi))
        for t in ts:
            y = (1 - t) ** 3 * p0[d] + 3 * (1 - t) ** 2 * t * p1[d] + 3 * (1 - t) * t * t * p2[d] + t ** 3 * p3[d]
            if y < lo - tol or y > hi + tol:
                return True
    return False
