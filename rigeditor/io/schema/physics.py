"""Physics constraints in the project file (optional ``physics`` list): layout and
conversion. Weights and settings as in ``model.data.physics`` (no angles: nothing is
converted); keyed settings and the reset keys are 1-D channels. Older files have no
list and read unchanged. docs/file-format.md describes every field.
"""
from __future__ import annotations

from pydantic import Field

from rigeditor.io.schema.convert_keys import file_value, keys_data, keys_from_file
from rigeditor.io.schema.project import Channel1, Int, Num, Positive, Str, _Model
from rigeditor.model.data.physics import DEFAULTS, GLOBALS, KEYED, TRACKS, WEIGHTS, PhysicsConstraint


def _setting(name):
    return Field(default_factory=lambda: Channel1(default=DEFAULTS.get(name, 0.0)))


class Physics(_Model):
    name: Str
    bone: Str
    order: Int = 0
    x: Num = 0.0
    y: Num = 0.0
    rotate: Num = 0.0
    scale_x: Num = 0.0
    shear_x: Num = 0.0
    limit: Num = 5000.0
    step: Positive = 60.0
    reference_scale: Positive = 100.0
    inertia: Channel1 = _setting("inertia")
    strength: Channel1 = _setting("strength")
    damping: Channel1 = _setting("damping")
    mass: Channel1 = _setting("mass")
    wind: Channel1 = _setting("wind")
    gravity: Channel1 = _setting("gravity")
    mix: Channel1 = _setting("mix")
    reset: Channel1 = _setting("reset")
    inertia_global: bool = False
    strength_global: bool = False
    damping_global: bool = False
    mass_global: bool = False
    wind_global: bool = False
    gravity_global: bool = False
    mix_global: bool = False


def to_physics(p: Physics) -> PhysicsConstraint:
    from rigeditor.model.data.timeline import Channel

    channels = {k: Channel(file_value(getattr(p, k).default), keys_from_file(getattr(p, k).keys, 1))
                for k in TRACKS}
    return PhysicsConstraint(p.name, p.bone, p.order, **{w: float(getattr(p, w)) for w in WEIGHTS},
                             limit=float(p.limit), step=float(p.step), reference_scale=float(p.reference_scale),
                             **channels, **{g: bool(getattr(p, g)) for g in GLOBALS})


def physics_data(p: PhysicsConstraint) -> dict:
    out = {"name": p.name, "bone": p.bone, "order": int(p.order),
           **{w: float(getattr(p, w)) for w in WEIGHTS},
           "limit": float(p.limit), "step": float(p.step), "reference_scale": float(p.reference_scale)}
    for k in TRACKS:
        ch = getattr(p, k)
        out[k] = {"default": float(ch.default[0]), "keys": keys_data(ch.keys)}
    out.update({g: bool(getattr(p, g)) for g in GLOBALS})
    return out


__all__ = ["Physics", "to_physics", "physics_data", "KEYED"]
