"""Path constraints, as Spine defines them: bones laid along a slot's path attachment.

``bones`` (in order) are placed one after another along the path the ``target`` slot
shows (a :class:`~rigeditor.model.data.path_attachment.PathAttachment`; a slot
showing anything else leaves the bones alone), starting at ``position`` and ``spacing``
apart:

- position_mode "fixed": ``position`` in model units along the path; "percent": a
  fraction of the path's length (0 = start, 1 = end; any number).
- spacing_mode "length": ``spacing`` model units added to each bone's length;
  "fixed": ``spacing`` model units between origins; "percent": a fraction of the
  path's length; "proportional": the path shared out in proportion to the bones'
  lengths (``spacing`` scales the share, 1 = the whole path).
- rotate_mode "tangent": each bone turns along the path at its origin; "chain": each
  bone points at the next one's origin (its tip lands on the path); "chainScale": as
  chain, and the bone's length scales to reach it.
- ``offset_rotation``: radians added to every bone's rotation (chain modes: the
  bones then no longer reach the path exactly, as in Spine).
- mixes (0 = the bones' own pose, 1 = on the path): rotation and x, y position.
- ``order``: where it runs among all constraints (IK chains, transform and path
  constraints), as Spine's ``order`` (lower first).

Position, spacing and the mixes are keyable 1-D channels.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rigeditor.model.data.timeline import Channel, constant

POSITION_MODES = ("fixed", "percent")
SPACING_MODES = ("length", "fixed", "percent", "proportional")
ROTATE_MODES = ("tangent", "chain", "chainScale")
CHANNELS = ("position", "spacing", "mix_rotate", "mix_x", "mix_y")
"""A path constraint's keyable channels (1-D, any finite number)."""


@dataclass(frozen=True)
class PathConstraint:
    """bones: the constrained bones (at least one, none twice); target: a slot name."""

    name: str
    bones: tuple[str, ...]
    target: str
    order: int = 0
    position_mode: str = "percent"
    spacing_mode: str = "length"
    rotate_mode: str = "tangent"
    offset_rotation: float = 0.0
    position: Channel = field(default_factory=lambda: constant(0.0))
    spacing: Channel = field(default_factory=lambda: constant(0.0))
    mix_rotate: Channel = field(default_factory=lambda: constant(1.0))
    mix_x: Channel = field(default_factory=lambda: constant(1.0))
    mix_y: Channel = field(default_factory=lambda: constant(1.0))


__all__ = ["POSITION_MODES", "SPACING_MODES", "ROTATE_MODES", "CHANNELS", "PathConstraint"]
