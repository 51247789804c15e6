"""Which events fire over sampled frames, as a runtime fires them, with their values.

A runtime playing an animation at a frame rate fires, at each sample, the keys whose
time lies after the previous sample and at or before this one (the first sample
fires the keys at or before it, from the range's start). So a key fires at the first
sampled frame at or after its own frame: ``Fired.at``. Events move no bone, so they
are not part of the Bake; the command line, the export checks and the judge read them
here (one function, the keys' only reader besides the dope sheet).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from rigeditor.model.data.events import Fired
from rigeditor.model.data.project import Project


def fired_events(project: Project, frames=None) -> list[Fired]:
    """The open animation's events fired over ``frames`` (increasing; default the
    timeline's), in firing order, each with ``at`` = the frame it fires on."""
    frames = project.timeline.frames if frames is None else np.asarray(frames, dtype=float)
    if not len(frames) or not project.events.keys:
        return []
    out = []
    for k in project.events.keys:
        if not frames[0] <= k.frame <= frames[-1]:
            continue
        at = float(frames[np.searchsorted(frames, k.frame, side="left")])
        out.append(replace(project.events.fired(k), at=at))
    return sorted(out, key=lambda f: f.at)  # stable: keys of one sample keep their order


def fired_data(fired: list[Fired], fps: float) -> list[dict]:
    """The fired events as plain JSON data: frame fired on, key frame and time (s), name
    and every value."""
    return [{"at": f.at, "frame": f.frame, "time": f.frame / fps, "name": f.name, "int": f.int_value,
             "float": f.float_value, "string": f.string, "audio": f.audio, "volume": f.volume,
             "balance": f.balance} for f in fired]


__all__ = ["fired_events", "fired_data"]
