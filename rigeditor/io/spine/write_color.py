"""Slot colour in the Spine export: the setup ``color``, ``dark`` and ``blend`` of each
slot, and one colour timeline per slot built from its channels, not resampled.

The timeline kind follows what is keyed: rgba2 (or rgb2 when alpha is not keyed) for a
slot with a keyed dark colour, else rgba, rgb or alpha. Spine keys all of a timeline's
components at the same times, so every channel of the timeline is cut at the union of
their key frames (``Channel.split``: exact, the sampled values never change). A curve
is written as it is, not cut where Spine's ten chords stray from it (as bone curves
are): a cut's new key would be a hex colour, off the curve by up to 1/510, more than the
chords stray on a colour's short range; so an authored Spine curve comes back as itself.
A key's ``curve`` then lists one bezier per component: a curved component its own
handles, a linear one handles on its straight line (a runtime plays that as the line).
Key colours are hex digits, so a key value is written to the nearest 1/255 (Spine's
format); curve handles are written as numbers.
"""
from __future__ import annotations

from rigeditor.io.spine.write_curves import key_time
from rigeditor.model.data.slot_color import DARK, LIGHT, setup_dark, setup_light
from rigeditor.model.data.timeline import Channel, Key, control_points


def hex_color(values) -> str:
    return "".join(f"{int(round(min(max(float(v), 0.0), 1.0) * 255)):02x}" for v in values)


def slot_setup(slot) -> dict:
    """The slot entry's ``color``, ``dark`` and ``blend`` (only those not Spine's default)."""
    out = {}
    light = setup_light(slot)
    if hex_color(light) != "ffffffff":
        out["color"] = hex_color(light)
    dark = setup_dark(slot)
    if dark is not None:
        out["dark"] = hex_color(dark)
    if slot.blend != "normal":
        out["blend"] = slot.blend
    return out


def _plans(slot) -> list[list[tuple[str, tuple[str, ...]]]]:
    """The ways to write ``slot``'s keyed colour, best first: each a list of (timeline
    kind, its channels in Spine's order); [] when nothing is keyed. One timeline for
    everything first; then alpha on its own (when its steps fall elsewhere)."""
    keyed = {c for c in LIGHT + DARK if getattr(slot, c).keys}
    alpha = "alpha" in keyed
    if slot.dark and keyed & set(DARK):
        rgb = ("rgb2", LIGHT[:3] + DARK)
        return [[("rgba2", LIGHT + DARK)], [rgb, ("alpha", ("alpha",))]] if alpha else [[rgb]]
    if keyed & set(LIGHT[:3]):
        return [[("rgba", LIGHT)], [("rgb", LIGHT[:3]), ("alpha", ("alpha",))]] if alpha else [[("rgb", LIGHT[:3])]]
    return [[("alpha", ("alpha",))]] if alpha else []


def color_timelines(slot, first: int, last: int, fps: float, notes: list | None = None) -> dict:
    """{kind: keys} of ``slot``'s colour over frames first..last ({} when unkeyed)."""
    plans = _plans(slot)
    written = {}
    for plan in plans:
        written, approximated = {}, False
        for kind, names in plan:
            written[kind], jumped = _timeline(slot, kind, names, first, last, fps)
            approximated |= jumped
        if not approximated:
            return written
    if notes is not None:
        notes.append(f"slot {slot.name}: a colour component holds and jumps where another eases; "
                     "the whole key is written stepped")
    return written


def _timeline(slot, kind, names, first, last, fps) -> tuple[list[dict], bool]:
    """(Spine keys of timeline ``kind`` over ``names``, whether a step was forced)."""
    chans = []
    for n in names:
        ch = getattr(slot, n)
        if not ch.keys:
            ch = Channel(ch.default, (Key(first, ch.default, "linear"),))
        chans.append(ch.split(first).split(last))
    # A step imported at its 32-bit time may lie a hair after the last frame: kept.
    frames = sorted({float(k.frame) for ch in chans for k in ch.keys if first <= k.frame < last + 1} | {first, last})
    for f in frames:
        chans = [ch.split(f) for ch in chans]
    per = [{float(k.frame): (i, k) for i, k in enumerate(ch.keys)} for ch in chans]
    pts = [control_points(ch) if len(ch.keys) > 1 else None for ch in chans]
    times = [key_time(f - first, fps) for f in frames]
    out, approximated = [], False
    for j, f in enumerate(frames):
        values = [per[c][f][1].value[0] for c in range(len(chans))]
        entry = {"time": times[j], **_fields(kind, values)}
        if j < len(frames) - 1:
            curve, jumped = _curve(chans, per, pts, f, frames[j + 1], times[j], times[j + 1], fps)
            approximated |= jumped
            if curve is not None:
                entry["curve"] = curve
        out.append(entry)
    return out, approximated


def _curve(chans, per, pts, f0, f1, t0, t1, fps):
    """(the key's curve: "stepped", a list of numbers or None for linear, whether a
    held jump was forced onto components that ease)."""
    interps, rows = [], []
    for c, ch in enumerate(chans):
        i, key = per[c][f0]
        v0, v1 = key.value[0], per[c][f1][1].value[0]
        interp = key.interp
        if interp == "constant" and v0 == v1:
            interp = "linear"  # a hold that does not jump is a flat line
        interps.append(interp)
        if interp == "bezier":
            p = pts[c]
            rows.append([t0 + (p.x1[i] - f0) / fps, p.y1[i, 0], t1 + (p.x2[i] - f1) / fps, p.y2[i, 0]])
        else:
            rows.append([t0 + (t1 - t0) / 3, v0 + (v1 - v0) / 3, t0 + 2 * (t1 - t0) / 3, v0 + 2 * (v1 - v0) / 3])
    if "constant" in interps:
        return "stepped", any(i != "constant" for i in interps)
    if all(i == "linear" for i in interps):
        return None, False
    return [round(float(v), 9 if k % 2 == 0 else 6) + 0.0 for row in rows for k, v in enumerate(row)], False


def _fields(kind: str, v: list) -> dict:
    if kind == "rgba":
        return {"color": hex_color(v)}
    if kind == "rgb":
        return {"color": hex_color(v)}
    if kind == "alpha":
        return {"value": round(float(v[0]), 6) + 0.0}
    if kind == "rgba2":
        return {"light": hex_color(v[:4]), "dark": hex_color(v[4:])}
    return {"light": hex_color(v[:3]), "dark": hex_color(v[3:])}


__all__ = ["slot_setup", "color_timelines", "hex_color"]
