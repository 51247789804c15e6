"""Physics constraints, as Spine 4.2 defines them: a bone that lags, springs back and
sways as the pose around it moves, stepped in time from the animation's start.

``bone``: the bone moved. Channel weights (0 = off, 1 = full; Spine's editor offers
0 to 1): ``x``, ``y`` (its world position lags and springs), ``rotate``, ``shear_x``
(its x axis swings toward where its tip was dragged), ``scale_x`` (its length
stretches along that swing). ``limit``: the most the bone may be dragged in a second
(model units per second); ``step``: the physics rate (steps per second, > 0).

Keyable (1-D channels, sampled at each frame the physics steps): ``inertia`` (0..1,
how much of the bone's own motion becomes lag), ``strength`` (spring stiffness,
>= 0), ``damping`` (0..1: the velocity kept per 1/60 s), ``mass`` (> 0), ``wind``
(+x) and ``gravity`` (-y) (forces per unit mass, model units per second squared at
``reference_scale``), ``mix`` (0 = no physics, 1 = all). ``reset``: its keys' frames
are the times the motion starts over from rest (values unused).

``*_global`` flags: Spine's ``inertiaGlobal`` ...: animation keys written for every
such constraint at once (Spine's timelines of the empty name) apply to this one.
``order``: where it runs among all constraints (IK chains, transform constraints),
as Spine's ``order``; ``reference_scale``: the skeleton's reference scale (model
units: wind and gravity are scaled by it, Spine's ``referenceScale``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rigeditor.model.data.timeline import Channel, constant

WEIGHTS = ("x", "y", "rotate", "scale_x", "shear_x")
"""The channels a physics constraint moves, each with its weight (a float)."""
KEYED = ("inertia", "strength", "damping", "mass", "wind", "gravity", "mix")
"""Its keyable settings (1-D channels)."""
TRACKS = KEYED + ("reset",)
"""Every animatable attribute: the keyed settings and the reset keys."""
GLOBALS = tuple(f"{k}_global" for k in KEYED)
"""The flags that let keys for every constraint at once apply to this one."""
DEFAULTS = {"inertia": 1.0, "strength": 100.0, "damping": 1.0, "mass": 1.0, "wind": 0.0, "gravity": 0.0,
            "mix": 1.0}
"""Spine's defaults of the keyed settings."""


def _ch(name):
    return field(default_factory=lambda: constant(DEFAULTS[name]))


@dataclass(frozen=True)
class PhysicsConstraint:
    """See the module's docstring for every field's meaning, unit and range."""

    name: str
    bone: str
    order: int = 0
    x: float = 0.0
    y: float = 0.0
    rotate: float = 0.0
    scale_x: float = 0.0
    shear_x: float = 0.0
    limit: float = 5000.0
    step: float = 60.0
    reference_scale: float = 100.0
    inertia: Channel = _ch("inertia")
    strength: Channel = _ch("strength")
    damping: Channel = _ch("damping")
    mass: Channel = _ch("mass")
    wind: Channel = _ch("wind")
    gravity: Channel = _ch("gravity")
    mix: Channel = _ch("mix")
    reset: Channel = field(default_factory=lambda: constant(0.0))
    inertia_global: bool = False
    strength_global: bool = False
    damping_global: bool = False
    mass_global: bool = False
    wind_global: bool = False
    gravity_global: bool = False
    mix_global: bool = False


__all__ = ["WEIGHTS", "KEYED", "TRACKS", "GLOBALS", "DEFAULTS", "PhysicsConstraint"]
