"""Constraints beside IK chains, as Spine defines them: transform constraints.

A transform constraint moves its ``bones`` toward its ``target`` bone, channel by
channel (rotation, x, y, scale x, scale y, shear y), each by its own mix (0 = the
bone's own pose, 1 = the target's plus the offset). ``local``: act on the bones'
local transforms (relative to their parents) instead of their world transforms;
``relative``: add the target's transform (plus offset) to the bone's instead of
moving the bone to it. ``order``: where the constraint runs among all constraints
(IK chains, transform constraints), as Spine's ``order`` (lower first).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rigeditor.model.data.timeline import Channel, constant

MIXES = ("mix_rotate", "mix_x", "mix_y", "mix_scale_x", "mix_scale_y", "mix_shear_y")
"""A transform constraint's keyable mixes (1-D channels, any finite number; Spine's
editor offers 0 to 1)."""
OFFSETS = ("offset_rotation", "offset_x", "offset_y", "offset_scale_x", "offset_scale_y", "offset_shear_y")
"""Its offsets: rotation and shear y in radians, x and y in model units (in the target's
frame for world constraints, the parent's for local ones), scales as added factors."""


@dataclass(frozen=True)
class TransformConstraint:
    """bones: the constrained bones (any, in any order, none twice); target: a bone not
    among them. Mixes: channels (see MIXES); offsets: floats (see OFFSETS)."""

    name: str
    bones: tuple[str, ...]
    target: str
    order: int = 0
    local: bool = False
    relative: bool = False
    mix_rotate: Channel = field(default_factory=lambda: constant(1.0))
    mix_x: Channel = field(default_factory=lambda: constant(1.0))
    mix_y: Channel = field(default_factory=lambda: constant(1.0))
    mix_scale_x: Channel = field(default_factory=lambda: constant(1.0))
    mix_scale_y: Channel = field(default_factory=lambda: constant(1.0))
    mix_shear_y: Channel = field(default_factory=lambda: constant(1.0))
    offset_rotation: float = 0.0
    offset_x: float = 0.0
    offset_y: float = 0.0
    offset_scale_x: float = 0.0
    offset_scale_y: float = 0.0
    offset_shear_y: float = 0.0


__all__ = ["MIXES", "OFFSETS", "TransformConstraint"]
