"""Small rigs for the export tests, with motion whose angles are known in closed form."""
from __future__ import annotations

import math

from rigeditor.model.data.project import Bone, Chain, Project, Space, Target, Timeline
from rigeditor.model.data.timeline import Channel, Key, StepChannel

RADIUS = 200.0  # target circle radius, inside the 150 + 125 reach


def circling_arm(turns: float = 2.0, frames: int = 96, elbow_limit=None) -> Project:
    """A two-bone arm (150, 125) whose target circles the shoulder ``turns`` times,
    counter-clockwise at constant distance: the upper arm turns by 360 * turns degrees."""
    keys = tuple(Key(f, (RADIUS * math.cos(2 * math.pi * turns * f / frames),
                         RADIUS * math.sin(2 * math.pi * turns * f / frames)), "linear")
                 for f in range(frames + 1))
    return Project(
        name="circling arm", timeline=Timeline(24.0, 0, frames), spaces=(Space("character"),),
        bones=(Bone("upper", None, 150.0), Bone("lower", "upper", 125.0, rest_offset=(150.0, 0.0))),
        targets=(Target("hand", StepChannel("character"), Channel(keys[0].value, keys)),),
        chains=(Chain("arm", ("upper", "lower"), "hand",
                      limits=(None, elbow_limit) if elbow_limit else ()),),
    )


def waving_bone(frames: int = 1000, amplitude_deg: float = 60.0, period: float = 250.0) -> Project:
    """One FK bone whose rotation is a sine keyed on every frame (``frames + 1`` keys)."""
    keys = tuple(Key(f, (math.radians(amplitude_deg) * math.sin(2 * math.pi * f / period),), "linear")
                 for f in range(frames + 1))
    return Project(
        name="waving", timeline=Timeline(30.0, 0, frames), spaces=(Space("character"),),
        bones=(Bone("flag", None, 50.0, rotation=Channel((0.0,), keys)),),
    )
