"""Between the file layout (schema.Document, degrees) and the model (Project, radians).

Angles are converted here and nowhere else: a space's rotation, a bone's rest
rotation and rotation track (values and the dv of their handles), chain limits.
Degrees are written rounded to 1e-9 degree, so loading and saving again gives the
same text.
"""
from __future__ import annotations

import math

from rigeditor.core.filters import Smoothing
from rigeditor.io import schema
from rigeditor.io.convert_art import art_data, to_art
from rigeditor.io.schema import FORMAT, SCHEMA_VERSION, frame_number
from rigeditor.model.project import (
    Bone, Chain, LimitStrategy, Project, Space, Target, Timeline,
)
from rigeditor.model.timeline import Channel, Key, StepChannel

_RAD = math.pi / 180.0


# ------------------------------------------------------------------ file -> model

def to_project(doc: schema.Document) -> Project:
    """The model project a validated document describes (ranges may still be wrong
    when validated leniently; the semantic checks report those)."""
    return Project(
        name=doc.name,
        timeline=Timeline(fps=float(doc.timeline.fps), start=doc.timeline.start, end=doc.timeline.end),
        spaces=tuple(_space(s) for s in doc.spaces),
        bones=tuple(_bone(b) for b in doc.bones),
        targets=tuple(Target(t.name, _steps(t.space), _channel(t.position)) for t in doc.targets),
        chains=tuple(_chain(c) for c in doc.chains),
        art=to_art(doc.slots, doc.draw_order),
        animations=to_animations(doc.animations, doc.animation),
        animation=doc.animation,
    )


def _space(s: schema.Space) -> Space:
    return Space(s.name, s.parent, _channel(s.position), _channel(s.rotation, _RAD), _channel(s.scale))


def _bone(b: schema.Bone) -> Bone:
    return Bone(b.name, b.parent, float(b.length), _vec(b.rest_offset), float(b.rest_rotation) * _RAD,
                _channel(b.rotation, _RAD), _channel(b.translate), _channel(b.scale), _channel(b.shear, _RAD),
                _steps(b.inherit))


def _chain(c: schema.Chain) -> Chain:
    st, sm = c.strategy, c.smoothing
    try:
        smoothing = Smoothing(sm.kind, sm.time_constant_s, sm.min_cutoff_hz, sm.beta, sm.d_cutoff_hz)
    except ValueError:
        smoothing = Smoothing()  # only when validated leniently: the range error is already reported
    return Chain(
        name=c.name, bones=tuple(c.bones), target=c.target, solver=c.solver,
        bend=_channel(c.bend, interp="constant"), softness=_channel(c.softness), mix=_channel(c.mix),
        limits=tuple(None if lim is None else (lim[0] * _RAD, lim[1] * _RAD) for lim in c.limits),
        strategy=LimitStrategy(st.kind, float(st.max_stretch), float(st.max_root_offset),
                               float(st.root_time_constant)),
        smoothing=smoothing, tolerance=float(c.tolerance), max_iterations=c.max_iterations,
        soft_reach=c.soft_reach,
    )


def _vec(v) -> tuple[float, ...]:
    return tuple(float(x) for x in v)


def _value(v, scale=1.0) -> tuple[float, ...]:
    if isinstance(v, list):
        return tuple(float(x) * scale for x in v)
    return (float(v) * scale,)


def _handle(h, scale):
    return None if h is None else (float(h[0]),) + tuple(float(x) * scale for x in h[1:])


def _channel(ch, scale=1.0, interp="linear") -> Channel:
    """A model channel from a validated one; keys are dicts (``interp`` is their default)."""
    default = _value(ch.default, scale)
    return Channel(default, keys_from_file(ch.keys, len(default), scale, interp))


def keys_from_file(raw, dim: int, scale=1.0, interp="linear") -> tuple[Key, ...]:
    """Model keys from validated key dicts of dimension ``dim`` (values times ``scale``)."""
    if scale != 1.0:
        return tuple(Key(k["frame"], _value(k["value"], scale), k.get("interp", interp),
                         _handle(k.get("out_handle"), scale), _handle(k.get("in_handle"), scale))
                     for k in raw)
    if dim == 1:
        # The lean paths: a file may hold 100,000 keys, and validated values are floats.
        return tuple(Key(k["frame"], (k["value"],), k.get("interp", interp),
                         _tuple(k.get("out_handle")), _tuple(k.get("in_handle"))) for k in raw)
    return tuple(Key(k["frame"], tuple(k["value"]), k.get("interp", interp),
                     _tuple(k.get("out_handle")), _tuple(k.get("in_handle"))) for k in raw)


def _tuple(h):
    return None if h is None else tuple(h)


def _steps(ch: schema.StepChannel) -> StepChannel:
    return StepChannel(ch.default, tuple((k.frame, k.value) for k in ch.keys))


# ------------------------------------------------------------------ model -> file

def to_document(project: Project) -> dict:
    """The project as plain JSON data in the current layout (all fields written)."""
    tl = project.timeline
    return {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "name": str(project.name),
        "timeline": {"fps": float(tl.fps), "start": int(tl.start), "end": int(tl.end)},
        "spaces": [_space_data(s) for s in project.spaces],
        "bones": [_bone_data(b) for b in project.bones],
        "targets": [{"name": t.name, "space": _steps_data(t.space), "position": _channel_data(t.position)}
                    for t in project.targets],
        "chains": [_chain_data(c) for c in project.chains],
        **art_data(project.art, _deg),
        **animations_data(project),
    }


def _deg(radians: float) -> float:
    return round(math.degrees(radians), 9) + 0.0  # + 0.0: never write -0.0


def _space_data(s: Space) -> dict:
    return {"name": s.name, "parent": s.parent, "position": _channel_data(s.position),
            "rotation": _channel_data(s.rotation, angle=True), "scale": _channel_data(s.scale)}


def _bone_data(b: Bone) -> dict:
    return {"name": b.name, "parent": b.parent, "length": float(b.length),
            "rest_offset": [float(x) for x in b.rest_offset], "rest_rotation": _deg(b.rest_rotation),
            "rotation": _channel_data(b.rotation, angle=True), "translate": _channel_data(b.translate),
            "scale": _channel_data(b.scale)} | _spine_frame_data(b)


def _spine_frame_data(b: Bone) -> dict:
    """Shear and inherit, written only where a bone has them (most have neither)."""
    out = {}
    if b.shear.keys or any(b.shear.default):
        out["shear"] = _channel_data(b.shear, angle=True)
    if b.inherit.keys or b.inherit.default != "normal":
        out["inherit"] = _steps_data(b.inherit)
    return out


def _chain_data(c: Chain) -> dict:
    st, sm = c.strategy, c.smoothing
    return {
        "name": c.name, "bones": list(c.bones), "target": c.target, "solver": c.solver,
        "bend": _channel_data(c.bend), "softness": _channel_data(c.softness), "mix": _channel_data(c.mix),
        "limits": [None if lim is None else [_deg(lim[0]), _deg(lim[1])] for lim in c.limits],
        "strategy": {"kind": st.kind, "max_stretch": float(st.max_stretch),
                     "max_root_offset": float(st.max_root_offset),
                     "root_time_constant": float(st.root_time_constant)},
        "smoothing": {"kind": sm.kind, "time_constant_s": sm.time_constant_s,
                      "min_cutoff_hz": sm.min_cutoff_hz, "beta": sm.beta, "d_cutoff_hz": sm.d_cutoff_hz},
        "tolerance": float(c.tolerance), "max_iterations": int(c.max_iterations),
    } | ({"soft_reach": c.soft_reach} if c.soft_reach != "exponential" else {})


def _channel_data(ch: Channel, angle: bool = False) -> dict:
    return {"default": _value_data(ch.default, angle), "keys": keys_data(ch.keys, angle)}


def _value_data(v, angle: bool = False):
    conv = _deg if angle else float
    return conv(v[0]) if len(v) == 1 else [conv(x) for x in v]


def keys_data(keys, angle: bool = False) -> list[dict]:
    """Model keys as the file's key dicts (``angle``: values and handle dv in degrees)."""
    conv = _deg if angle else float

    def value(v):
        return conv(v[0]) if len(v) == 1 else [conv(x) for x in v]

    def handle(h):
        return [float(h[0])] + [conv(x) for x in h[1:]]

    out = []
    for k in keys:
        key = {"frame": frame_number(k.frame), "value": value(k.value), "interp": k.interp}
        if k.out_handle is not None:
            key["out_handle"] = handle(k.out_handle)
        if k.in_handle is not None:
            key["in_handle"] = handle(k.in_handle)
        out.append(key)
    return out


def _steps_data(ch: StepChannel) -> dict:
    return {"default": ch.default, "keys": [{"frame": frame_number(f), "value": v} for f, v in ch.keys]}


from rigeditor.io.convert_clips import animations_data, to_animations  # noqa: E402  (builds on the key helpers)
