"""Physics constraints in the Spine export: the ``physics`` array and, for keyed
settings, a ``physics`` timeline per constraint with a key per baked frame (the values
as evaluated, straight between frames) and its reset keys. A physics bone's timelines
are its own channels: Spine steps the physics itself, as RigEditor does."""
from __future__ import annotations

import numpy as np

from rigeditor.io.spine.read_physics import SPINE_GLOBALS
from rigeditor.io.spine.write_curves import key_time
from rigeditor.model.data.physics import DEFAULTS, GLOBALS, KEYED

_WEIGHTS = (("x", "x"), ("y", "y"), ("rotate", "rotate"), ("scale_x", "scaleX"), ("shear_x", "shearX"))


def physics_sections(project, bake, times, bone_names) -> tuple[list, dict]:
    """(the ``physics`` array, {constraint: {timeline: keys}}) for ``project``'s
    constraints whose bone is an exported bone (``bone_names``); ``times``: the baked
    frames' key times (s)."""
    out, keys = [], {}
    first = float(bake.frames[0])
    for p in sorted(project.physics, key=lambda p: p.order):
        if p.bone not in bone_names:
            continue
        entry = {"name": p.name, "order": 0, "bone": p.bone}
        for ours, spine in _WEIGHTS:
            if getattr(p, ours):
                entry[spine] = round(float(getattr(p, ours)), 9)
        entry["limit"] = round(float(p.limit), 9)
        entry["fps"] = round(float(p.step), 9)
        for k in KEYED:
            value = float(getattr(p, k).default[0])
            if value != DEFAULTS[k]:
                entry[k] = round(value, 9)
        for ours, spine in zip(GLOBALS, SPINE_GLOBALS):
            if getattr(p, ours):
                entry[spine] = True
        out.append(entry)
        mine = {}
        for k in KEYED:
            if getattr(p, k).keys:
                values = getattr(p, k).sample(bake.frames)[:, 0]
                mine[k] = [{"time": t, "value": round(float(v), 9)} for t, v in zip(times, values)]
        resets = [k.frame for k in p.reset.keys if bake.frames[0] < k.frame <= bake.frames[-1]]
        if resets:
            # at or before the frame's time as the runtimes' 32-bit floats read it
            mine["reset"] = [{"time": float(key_time(np.array([f - first]), bake.fps)[0])} for f in resets]
        if mine:
            keys[p.name] = mine
    return out, keys


def reference_scale(project) -> float | None:
    """The skeleton's reference scale: the physics constraints' (the first's), or None."""
    return float(project.physics[0].reference_scale) if project.physics else None
