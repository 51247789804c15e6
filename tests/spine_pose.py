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


def bone_worlds(doc, t, animation=None, *, moved=None) -> dict:
    """3x3 world matrix per bone at time t: setup pose plus timeline offsets, parent
    world * translate(x, y) * rotate(rotation) * scale, as Spine poses bones; then each
    two-bone IK constraint (see ``_two_bone``). ``moved``: {bone: (dx, dy)} world
    offsets a game adds to bones after the animation is applied (IK targets)."""
    anims = doc["animations"]
    anim = anims[animation] if animation else next(iter(anims.values()))
    local = {}
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
        local[bone["name"]] = [x, y, rotation, sx, sy]
    world = _worlds(doc, local)
    for name, (dx, dy) in (moved or {}).items():  # a world offset, carried into the parent's frame
        parent = next(b.get("parent") for b in doc["bones"] if b["name"] == name)
        inv = np.linalg.inv(world[parent]) if parent else np.eye(3)
        local[name][0] += (inv @ [dx, dy, 0])[0]
        local[name][1] += (inv @ [dx, dy, 0])[1]
    world = _worlds(doc, local)
    for ik in sorted(doc.get("ik", []), key=lambda c: c.get("order", 0)):
        if len(ik["bones"]) != 2:
            continue
        setup = {"mix": ik.get("mix", 1.0), "softness": ik.get("softness", 0.0), "bendPositive": ik.get("bendPositive", True)}
        keys = [{"mix": 1.0, "softness": 0.0, "bendPositive": True, **k} for k in anim.get("ik", {}).get(ik["name"], [])]
        if keys:
            mix, soft = timeline_value(keys, t, ("mix", "softness"))
            bend = [k for k in keys if k.get("time", 0.0) <= t + 1e-9][-1:] or keys[:1]
            bend = bend[0]["bendPositive"]
        else:
            mix, soft, bend = setup["mix"], setup["softness"], setup["bendPositive"]
        _two_bone(doc, local, world, ik, mix, soft, bend)
        world = _worlds(doc, local)
    return world


def _worlds(doc, local) -> dict:
    world = {}
    for bone in doc["bones"]:
        x, y, rotation, sx, sy = local[bone["name"]]
        c, s = math.cos(math.radians(rotation)), math.sin(math.radians(rotation))
        m = np.array([[c * sx, -s * sy, x], [s * sx, c * sy, y], [0, 0, 1]])
        world[bone["name"]] = m if "parent" not in bone else world[bone["parent"]] @ m
    return world


def _two_bone(doc, local, world, ik, mix, soft, bend_positive) -> None:
    """Two-bone IK from the format's description: turn the first bone and the second
    so the second's tip reaches the target (law of cosines), the second bending
    counter-clockwise when ``bendPositive``; softness s draws a target within s of full
    reach in to ``L - s (1 - u)^2``, u = (d - (L - s)) / 2s capped at 1; the mix blends
    each bone's local rotation toward the solved one along the shorter way. Chain bones
    unscaled and unsheared (what the export writes)."""
    b1, b2 = ik["bones"]
    by = {b["name"]: b for b in doc["bones"]}
    # Solved in the first bone's parent's frame (a scaled or turned parent included).
    parent = world[by[b1]["parent"]] if "parent" in by[b1] else np.eye(3)
    origin = np.array(local[b1][:2])
    target = (np.linalg.inv(parent) @ world[ik["target"]][:, 2])[:2]
    x2, y2 = local[b2][0], local[b2][1]
    l1, l2 = math.hypot(x2, y2), by[b2].get("length", 0.0)
    full = l1 + l2
    aim = target - origin
    d = float(np.hypot(*aim))
    if soft > 0 and d > full - soft:
        u = min(1.0, (d - (full - soft)) / (2 * soft))
        d = full - soft * (1 - u) ** 2
    cos2 = np.clip((d * d - l1 * l1 - l2 * l2) / (2 * l1 * l2), -1.0, 1.0)
    a2 = math.acos(cos2) * (1 if bend_positive else -1)
    a1 = math.atan2(aim[1], aim[0]) - math.atan2(l2 * math.sin(a2), l1 + l2 * math.cos(a2))
    offset = math.atan2(y2, x2)
    solved = {b1: math.degrees(a1 - offset),
              b2: math.degrees(a2 + offset)}
    for name, angle in solved.items():
        fk = local[name][2]
        local[name][2] = fk + mix * ((angle - fk + 180.0) % 360.0 - 180.0)


def spine_pose(doc, t, animation=None, *, moved=None):
    """World (origin, tip) of every bone at time t (see bone_worlds)."""
    lengths = {b["name"]: b.get("length", 0.0) for b in doc["bones"]}
    return {name: (m[:2, 2], (m @ [lengths[name], 0, 1])[:2])
            for name, m in bone_worlds(doc, t, animation, moved=moved).items()}
