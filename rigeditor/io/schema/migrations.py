"""Migrations of older project files, one step per schema version.

``MIGRATIONS[v]`` turns the plain JSON data of version ``v`` into version ``v + 1``
and returns ``(data, problems, notes)``; loading applies them in turn up to the
current version. Notes say what a migration changed that a user would see (motion),
for the editor and ``rigeditor validate`` to show. A migration sees raw,
unvalidated data: it converts what has the expected shape, leaves anything else
alone for the validation of the current layout to report at the same location,
and reports only what it cannot convert itself (putting the current layout's default
in its place, so the rest of the file is still checked and every problem is reported).

Version 1 (the first layout) differs from version 2 in three ways:

- angles are radians (space rotation, bone rest rotation and rotation track, limits);
  version 2 writes degrees, which animators read;
- a chain's ``softness`` is one number in model units (the distance below full reach
  where the soft zone starts); version 2 keys it as a fraction of the chain's length;
- a target's ``space`` is a space name; version 2 keys it (a step track), so a target
  can switch spaces.

Version 3 adds artwork: ``slots`` (layers on bones, with their image attachments and a
stepped attachment track) and ``draw_order`` (a stepped track of whole slot orders).
A version 2 file has no artwork: it gets no slots and an unkeyed draw order; a
version 2 file that already holds a field of those names (hand-edited) is reported,
not overwritten.

Version 4 adds several animations and bone translate and scale channels, and
changes what an automatic bezier handle means: version 3 used the plain Catmull-Rom
slope, which overshoots (a segment between keys at 250 and 300 went to 305);
version 4 clamps it (flat at a local extreme, never steeper than 3x a neighbouring
secant, so the curve stays between its keys). A version 3 file keeps its motion
where it did not overshoot: on every bezier segment whose version 3 curve stays
within its two keys' values, each automatic handle the new rule would change is
written out explicitly with its version 3 value. A segment that overshot (in any
coordinate) keeps automatic handles and so becomes clamped: that change of motion
is the point. The file's keys become the one animation, named ``animation``, over
the timeline's range; bones get no translate or scale keys.

Version 5 lets a key sit between frames (its ``frame`` any number): version 4 files
load unchanged.

Version 6 adds transform constraints (``transforms``) and the ``aim`` solver (a one-bone
chain, Spine's one-bone IK): version 5 files load unchanged.

Version 7 adds path and physics constraints, deform keys, linked meshes, slot colour and
blend, events, boxes, points, clipping and sequences, each optional: version 6 files
load unchanged.

Version 8 adds a space's shear and a chain's keyed Spine stretch and compress flags, each
optional: version 7 files load unchanged.
"""
from __future__ import annotations

import copy
import math


def _number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _scale_channel(ch, factor: float) -> None:
    """Scale a 1-D channel's default, key values and handle dv in place (where well formed)."""
    if not isinstance(ch, dict):
        return
    if _number(ch.get("default")):
        ch["default"] = ch["default"] * factor
    keys = ch.get("keys")
    for key in keys if isinstance(keys, list) else ():
        if not isinstance(key, dict):
            continue
        if _number(key.get("value")):
            key["value"] = key["value"] * factor
        for name in ("out_handle", "in_handle"):
            h = key.get(name)
            if isinstance(h, list) and len(h) == 2 and _number(h[1]):
                h[1] = h[1] * factor


def _items(data, name):
    items = data.get(name)
    return [(i, x) for i, x in enumerate(items) if isinstance(x, dict)] if isinstance(items, list) else []


def v1_to_v2(data: dict) -> tuple[dict, list[str], list[str]]:
    """Version 1 -> 2. Returns the new data, the problems it could not convert, no notes."""
    data = copy.deepcopy(data)
    problems: list[str] = []
    deg = 180.0 / math.pi
    for _, space in _items(data, "spaces"):
        _scale_channel(space.get("rotation"), deg)
    lengths = {}
    for _, bone in _items(data, "bones"):
        if _number(bone.get("rest_rotation")):
            bone["rest_rotation"] = bone["rest_rotation"] * deg
        _scale_channel(bone.get("rotation"), deg)
        if isinstance(bone.get("name"), str) and _number(bone.get("length")):
            lengths[bone["name"]] = bone["length"]
    for _, target in _items(data, "targets"):
        if isinstance(target.get("space"), str):
            target["space"] = {"default": target["space"], "keys": []}
    for i, chain in _items(data, "chains"):
        limits = chain.get("limits")
        for lim in limits if isinstance(limits, list) else ():
            if isinstance(lim, list):
                lim[:] = [x * deg if _number(x) else x for x in lim]
        if "softness" in chain:
            chain["softness"] = _softness(chain, lengths, f"chains[{i}].softness", problems)
    data["schema_version"] = 2
    return data, problems, []


def _softness(chain: dict, lengths: dict, where: str, problems: list[str]):
    value = chain["softness"]
    if not _number(value):
        problems.append(f"{where}: a version 1 softness is a number in model units, got {value!r}")
        return {"default": 0.0, "keys": []}
    if value == 0:
        return {"default": 0.0, "keys": []}
    bones = chain.get("bones")
    names = bones if isinstance(bones, list) else []
    total = sum(lengths.get(b, 0.0) for b in names if isinstance(b, str))
    if not names or any(not isinstance(b, str) or b not in lengths for b in names) or not total > 0:
        problems.append(f"{where}: cannot convert the version 1 softness ({value:g} model units) to a "
                        "fraction of the chain's length: the chain's bones and lengths are not all known")
        return {"default": 0.0, "keys": []}
    if not 0 <= value <= 0.5 * total:
        problems.append(f"{where}: must be between 0 and half the chain's length ({0.5 * total:g} model "
                        f"units), got {value:g}")
        return {"default": 0.0, "keys": []}
    return {"default": value / total, "keys": []}


def v2_to_v3(data: dict) -> tuple[dict, list[str], list[str]]:
    """Version 2 -> 3: a project without artwork."""
    data = copy.deepcopy(data)
    problems = [f"{name}: unknown field in a version 2 file (artwork needs schema_version 3)"
                for name in ("slots", "draw_order") if name in data]
    data["slots"] = []
    data["draw_order"] = {"keys": []}
    data["schema_version"] = 3
    return data, problems, []


def v3_to_v4(data: dict) -> tuple[dict, list[str], list[str]]:
    """Version 3 -> 4: one animation; automatic handles that did not overshoot written
    out; a note counts the bezier segments that overshot (they become clamped)."""
    data = copy.deepcopy(data)
    problems = [f"{name}: unknown field in a version 3 file (animations need schema_version 4)"
                for name in ("animation", "animations") if name in data]
    clamped = 0
    for _, space in _items(data, "spaces"):
        for name in ("position", "rotation", "scale"):
            clamped += keep_v3_handles(space.get(name))
    for _, bone in _items(data, "bones"):
        clamped += keep_v3_handles(bone.get("rotation"))
    for _, target in _items(data, "targets"):
        clamped += keep_v3_handles(target.get("position"))
    for _, chain in _items(data, "chains"):
        clamped += keep_v3_handles(chain.get("softness"))
        clamped += keep_v3_handles(chain.get("mix"))
        clamped += keep_v3_handles(chain.get("bend"), "constant")
    timeline = data.get("timeline")
    tl = timeline if isinstance(timeline, dict) else {}
    data["animation"] = "animation"
    data["animations"] = [{"name": "animation", "start": tl.get("start", 0), "end": tl.get("end", 0),
                           "tracks": {}}]
    data["schema_version"] = 4
    notes = [f"converted from schema 3: {clamped} curve segment{'s' if clamped != 1 else ''} that overshot "
             f"{'their' if clamped != 1 else 'its'} keys now stay{'s' if clamped == 1 else ''} between them"] if clamped else []
    return data, problems, notes


def v4_to_v5(data: dict) -> tuple[dict, list[str], list[str]]:
    """Version 4 -> 5: nothing moves. Version 5 lets a key's frame be any number (a key
    between frames, as Spine keys at any time); every version 4 key is on a whole frame."""
    data = copy.deepcopy(data)
    data["schema_version"] = 5
    return data, [], []


def v5_to_v6(data: dict) -> tuple[dict, list[str], list[str]]:
    """Version 5 -> 6: nothing moves. Version 6 adds transform constraints (``transforms``,
    and their mix tracks in animations) and one-bone chains (solver ``aim``); a version 5
    file has no transforms, and every chain has two or more bones and keeps its solver."""
    data = copy.deepcopy(data)
    data["schema_version"] = 6
    return data, [], []


def v6_to_v7(data: dict) -> tuple[dict, list[str], list[str]]:
    """Version 6 -> 7: nothing moves. Version 7 adds optional sections and fields (path
    and physics constraints, deform keys, linked meshes, slot colour and blend, events,
    boxes, points, clipping, sequences) that a version 6 file does not have."""
    data = copy.deepcopy(data)
    data["schema_version"] = 7
    return data, [], []


def v7_to_v8(data: dict) -> tuple[dict, list[str], list[str]]:
    """Version 7 -> 8: nothing moves. Version 8 adds optional fields (a space's shear, a
    chain's keyed Spine stretch and compress flags) that a version 7 file does not have."""
    data = copy.deepcopy(data)
    data["schema_version"] = 8
    return data, [], []


MIGRATIONS = {1: v1_to_v2, 2: v2_to_v3, 3: v3_to_v4, 4: v4_to_v5, 5: v5_to_v6, 6: v6_to_v7, 7: v7_to_v8}
"""schema_version -> the function that migrates it one version up."""


from rigeditor.io.schema.migrate_handles import keep_v3_handles  # noqa: E402
