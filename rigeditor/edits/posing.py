"""Model operations that the editor and the tests call (each returns a new Project)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from rigeditor.edits.errors import EditError
from rigeditor.core.filters import Smoothing
from rigeditor.model.data.project import Project
from rigeditor.model.evaluation.spaces import resolve_target, space_transforms
from rigeditor.model.data.timeline import Channel, Key


def switch_target_space(project: Project, target: str, frame: int, new_space: str) -> Project:
    """Declare ``target`` in ``new_space`` from ``frame`` on, without a pop.

    Keys: the old space's value is held with a constant key at ``frame - 1`` (nothing
    interpolates across the switch, and no frame before it changes), the new space is
    keyed at ``frame`` with the position that lands on the same world point, and the
    position keys after the switch (up to the next space key) are converted so each
    keeps its world position.
    """
    if new_space not in project.space_names():
        raise EditError(f"switch_target_space: unknown space {new_space!r}")
    t = project.target(target)
    frame = int(frame)
    next_switch = min((f for f, _ in t.space.keys if f > frame), default=None)
    later = [k for k in t.position.keys if k.frame > frame and (next_switch is None or k.frame < next_switch)]
    frames = np.array([frame] + [k.frame for k in later], dtype=float)
    spaces = space_transforms(project, frames)
    world = resolve_target(t, frames, spaces, Smoothing(), project.timeline.fps)[3]
    into_new = spaces[new_space].inverse()
    local = into_new.apply(world)

    # The hold key at frame - 1 cuts the curve there without changing it, and writes
    # out the handles beside the cut: automatic slopes would otherwise reach across
    # into the keys after the switch, which are in the other space.
    position = t.position.split(frame - 1)
    held = next(k for k in position.keys if k.frame == frame - 1)
    position = position.with_key(replace(held, interp="constant", out_handle=None))
    at = next((k for k in position.keys if k.frame == frame), None)
    interp = at.interp if at else "linear"
    position = position.with_key(Key(frame, tuple(map(float, local[0])), interp))
    for k, value in zip(later, local[1:]):
        position = position.with_key(replace(k, value=tuple(map(float, value))))
    return project.with_target(target, space=t.space.with_key(frame, new_space), position=position)


def key_channel(channel: Channel, frame: int, value) -> Channel:
    """``channel`` keyed to ``value`` at ``frame``: an existing key there keeps its
    interpolation, a new one takes the interpolation of the segment it splits (so a
    key added inside a bezier path keeps it smooth); the first key also moves the
    default, so unkeyed frames agree."""
    value = tuple(float(v) for v in value)
    existing = next((k for k in channel.keys if k.frame == int(frame)), None)
    before = [k for k in channel.keys if k.frame < int(frame)]
    interp = before[-1].interp if before else (channel.keys[0].interp if channel.keys else "linear")
    key = replace(existing, value=value) if existing else Key(int(frame), value, interp)
    if not channel.keys:
        channel = replace(channel, default=value)
    return channel.with_key(key)


def set_target_key(project: Project, target: str, frame: int, position) -> Project:
    """Key the target's position (in its declared space) at ``frame``."""
    t = project.target(target)
    return project.with_target(target, position=key_channel(t.position, frame, position))


def turn_bone(project: Project, bone: str, frame: int, delta: float, mode: str, start: Project | None = None) -> Project:
    """``project`` with ``bone`` turned by ``delta`` radians relative to ``start`` (the
    project when a drag began; default ``project``). Animate mode keys the bone's
    rotation channel at ``frame``; setup mode changes the rest rotation."""
    b0 = (start or project).bone(bone)
    if mode != "animate":
        return project.with_bone(bone, rest_rotation=float(b0.rest_rotation + delta))
    value = b0.rotation.value_at(frame)[0] + delta
    return project.with_bone(bone, rotation=key_channel(b0.rotation, frame, (value,)))
