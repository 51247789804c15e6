"""Posing an exported Spine skeleton in Python, from the format's description: the
setup pose plus each timeline's value at a time, Béziers solved exactly in time."""
from __future__ import annotations

import math

import numpy as np

from bezier_reference import bezier_at


def timeline_value(keys, t, fields):
    """A Spine timeline's values at time t (seconds), from the format's description:
    before the first key the first key's values (the setup pose only when the first
    key is later than 0), "stepped" holds, no curve is linear, a list of 4 numbers
    per value is a Bézier from (time, value) to the next key through (cx1, cy1),
    (cx2, cy2)."""
    i = max(j for j, k in enumerate(keys) if k.get("time", 0.0) <= t + 1e-9) if t >= keys[0].get("time", 0.0) else 0
    key = keys[i]
    here = [key[f] for f in fields]
    if i == len(keys) - 1 or t <= key.get("time", 0.0):
        return here
    nxt, curve = keys[i + 1], key.get("curve")
    t0, t1 = key.get("time", 0.0), nxt["time"]
    if curve == "stepped":
        return here
    if curve is None:
        u = (t - t0) / (t1 - t0)
        return [a + u * (nxt[f] - a) for f, a in zip(fields, here)]
    return [float(bezier_at([(t0, here[d]), curve[4 * d:4 * d + 2], curve[4 * d + 2:4 * d + 4], (t1, nxt[f])], t,
                            steps=60)[0]) for d, f in enumerate(fields)]


def bone_worlds(doc, t, animation=None) -> dict:
    """3x3 world matrix per bone at time t: setup pose plus timeline offsets, parent
    world * translate(x, y) * rotate(rotation) * scale, as Spine poses bones."""
    anims = doc["animations"]
    anim = anims[animation] if animation else next(iter(anims.values()))
    world = {}
    for bone in doc["bones"]:
        tl = anim.get("bones", {}).get(bone["name"], {})
        x, y = bone.get("x", 0.0), bone.get("y", 0.0)
        rotation = bone.get("rotation", 0.0)
        sx, sy = bone.get("scaleX", 1.0), bone.get("scaleY", 1.0)
        if "translate" in tl:
            dx, dy = timeline_value(tl["translate"], t, ("x", "y"))
            x, y = x + dx, y + dy
        if "rotate" in tl:
            rotation += timeline_value(tl["rotate"], t, ("value",))[0]
        if "scale" in tl:
            kx, ky = timeline_value(tl["scale"], t, ("x", "y"))
            sx, sy = sx * kx, sy * ky
        c, s = math.cos(math.radians(rotation)), math.sin(math.radians(rotation))
        local = np.array([[c * sx, -s * sy, x], [s * sx, c * sy, y], [0, 0, 1]])
        world[bone["name"]] = local if "parent" not in bone else world[bone["parent"]] @ local
    return world


def spine_pose(doc, t, animation=None):
    """World (origin, tip) of every bone at time t (see bone_worlds)."""
    lengths = {b["name"]: b.get("length", 0.0) for b in doc["bones"]}
    return {name: (m[:2, 2], (m @ [lengths[name], 0, 1])[:2]) for name, m in bone_worlds(doc, t, animation).items()}
