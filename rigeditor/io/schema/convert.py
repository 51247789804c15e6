"""Between the file layout (``schema.document.Document``, degrees) and the model (Project, radians).

Angles are converted here and nowhere else: a space's rotation, a bone's rest
rotation and rotation track (values and the dv of their handles), chain limits.
Degrees are written rounded to 1e-9 degree, so loading and saving again gives the
same text.
"""
from __future__ import annotations

import math
from dataclasses import replace

from rigeditor.core.filters import Smoothing
from rigeditor.io.schema import project as schema
from rigeditor.io.schema.document import Document
from rigeditor.io.schema.convert_art import art_data, to_art
from rigeditor.io.schema.convert_deform import deforms_data, to_deforms
from rigeditor.io.schema.convert_events import events_data, to_events
from rigeditor.io.schema.convert_clips import animations_data, to_animations
from rigeditor.io.schema.duration import exact_end_data
from rigeditor.io.schema.constraints import to_transform, transform_data
from rigeditor.io.schema.paths import path_constraint_data, to_path_constraint
from rigeditor.io.schema.physics import physics_data, to_physics
from rigeditor.io.schema.convert_keys import file_degrees, file_value, keys_data, keys_from_file
from rigeditor.io.schema.project import FORMAT, SCHEMA_VERSION, frame_number
from rigeditor.model.data.project import (
    Bone, Chain, LimitStrategy, Project, Space, Target, Timeline,
)
from rigeditor.model.data.timeline import Channel, StepChannel

_RAD = math.pi / 180.0


# ------------------------------------------------------------------ file -> model

def to_project(doc: Document) -> Project:
    """The model project a validated document describes (ranges may still be wrong
    when validated leniently; the semantic checks report those)."""
    return Project(
        name=doc.name,
        timeline=Timeline(fps=float(doc.timeline.fps), start=doc.timeline.start, end=doc.timeline.end,
                          exact_end=doc.timeline.exact_end),
        spaces=tuple(_space(s) for s in doc.spaces),
        bones=tuple(_bone(b) for b in doc.bones),
        targets=tuple(Target(t.name, _steps(t.space), _channel(t.position)) for t in doc.targets),
        chains=tuple(_chain(c) for c in doc.chains),
        transforms=tuple(to_transform(t) for t in doc.transforms),
        physics=tuple(to_physics(p) for p in doc.physics),
        paths=tuple(to_path_constraint(p) for p in doc.paths),
        art=replace(to_art(doc.slots, doc.draw_order, doc.skins), deforms=to_deforms(doc.deforms)),
        animations=to_animations(doc.animations, doc.animation),
        animation=doc.animation,
        events=to_events(doc.events),
    )


def _space(s: schema.Space) -> Space:
    return Space(s.name, s.parent, _channel(s.position), _channel(s.rotation, _RAD), _channel(s.scale),
                 _channel(s.shear, _RAD))


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
        soft_reach=c.soft_reach, order=c.order, spine_scale=tuple(c.spine_scale),
        spine_stretch=_channel(c.spine_stretch, interp="constant"),
        spine_compress=_channel(c.spine_compress, interp="constant"),
    )


def _vec(v) -> tuple[float, ...]:
    return tuple(float(x) for x in v)


def _channel(ch, scale=1.0, interp="linear") -> Channel:
    """A model channel from a validated one; keys are dicts (``interp`` is their default)."""
    default = file_value(ch.default, scale)
    return Channel(default, keys_from_file(ch.keys, len(default), scale, interp))


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
        "timeline": {"fps": float(tl.fps), "start": int(tl.start), "end": int(tl.end), **exact_end_data(tl)},
        "spaces": [_space_data(s) for s in project.spaces],
        "bones": [_bone_data(b) for b in project.bones],
        "targets": [{"name": t.name, "space": _steps_data(t.space), "position": _channel_data(t.position)}
                    for t in project.targets],
        "chains": [_chain_data(c) for c in project.chains],
        **({"transforms": [transform_data(t) for t in project.transforms]} if project.transforms else {}),
        **({"paths": [path_constraint_data(p) for p in project.paths]} if project.paths else {}),
        **({"physics": [physics_data(p) for p in project.physics]} if project.physics else {}),
        **art_data(project.art, file_degrees),
        **deforms_data(project.art.deforms),
        **animations_data(project),
        **events_data(project.events),
    }


def _space_data(s: Space) -> dict:
    return {"name": s.name, "parent": s.parent, "position": _channel_data(s.position),
            "rotation": _channel_data(s.rotation, angle=True), "scale": _channel_data(s.scale)} | (
        {"shear": _channel_data(s.shear, angle=True)} if s.shear.keys or any(s.shear.default) else {})


def _bone_data(b: Bone) -> dict:
    return {"name": b.name, "parent": b.parent, "length": float(b.length),
            "rest_offset": [float(x) for x in b.rest_offset], "rest_rotation": file_degrees(b.rest_rotation),
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
        "limits": [None if lim is None else [file_degrees(lim[0]), file_degrees(lim[1])] for lim in c.limits],
        "strategy": {"kind": st.kind, "max_stretch": float(st.max_stretch),
                     "max_root_offset": float(st.max_root_offset),
                     "root_time_constant": float(st.root_time_constant)},
        "smoothing": {"kind": sm.kind, "time_constant_s": sm.time_constant_s,
                      "min_cutoff_hz": sm.min_cutoff_hz, "beta": sm.beta, "d_cutoff_hz": sm.d_cutoff_hz},
        "tolerance": float(c.tolerance), "max_iterations": int(c.max_iterations),
    } | ({"soft_reach": c.soft_reach} if c.soft_reach != "exponential" else {}) | (
        ({"order": int(c.order)} if c.order else {}) | ({"spine_scale": list(c.spine_scale)} if c.spine_scale else {})) | {
        name: _channel_data(getattr(c, name)) for name in ("spine_stretch", "spine_compress") if getattr(c, name).keys}


def _channel_data(ch: Channel, angle: bool = False) -> dict:
    return {"default": _value_data(ch.default, angle), "keys": keys_data(ch.keys, angle)}


def _value_data(v, angle: bool = False):
    conv = file_degrees if angle else float
    return conv(v[0]) if len(v) == 1 else [conv(x) for x in v]


def _steps_data(ch: StepChannel) -> dict:
    return {"default": ch.default, "keys": [{"frame": frame_number(f), "value": v} for f, v in ch.keys]}
