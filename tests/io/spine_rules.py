"""The rules of Spine's JSON export format (4.2), as a checker for tests.

Written from Esoteric Software's description of the format ("JSON export format",
esotericsoftware.com/spine-json-format) and the defaults it documents, not from
RigEditor's output. Only the parts a skeleton without attachments uses are checked
closely (skeleton, bones, ik, bone and IK timelines); other sections must at least
have the documented container types. ``problems(doc)`` returns every violation.
"""
from __future__ import annotations

import math

TOP = {"skeleton", "bones", "slots", "ik", "transform", "path", "physics", "skins", "events", "animations"}
SKELETON = {"hash": str, "spine": str, "x": float, "y": float, "width": float, "height": float,
            "referenceScale": float, "fps": float, "images": str, "audio": str,
            # Not Spine's: RigEditor's own data for the way back, one namespaced object
            # (docs/file-format.md); the runtimes read fields by name and skip it.
            "rigeditor": dict}
BONE = {"name": str, "parent": str, "length": float, "rotation": float, "x": float, "y": float,
        "scaleX": float, "scaleY": float, "shearX": float, "shearY": float, "inherit": str,
        "skin": bool, "color": str, "icon": str, "visible": bool}
INHERIT = {"normal", "onlyTranslation", "noRotationOrReflection", "noScale", "noScaleOrReflection"}
IK = {"name": str, "order": int, "skin": bool, "bones": list, "target": str, "mix": float,
      "softness": float, "bendPositive": bool, "compress": bool, "stretch": bool, "uniform": bool}
ANIMATION = {"slots", "bones", "ik", "transform", "path", "physics", "attachments", "draworder",
             "drawOrder", "events"}
# Bone timelines and the value fields of their keys (every key may also have time, curve).
BONE_TIMELINES = {"rotate": {"value"}, "translate": {"x", "y"}, "translatex": {"value"},
                  "translatey": {"value"}, "scale": {"x", "y"}, "scalex": {"value"},
                  "scaley": {"value"}, "shear": {"x", "y"}, "shearx": {"value"},
                  "sheary": {"value"}, "inherit": {"inherit"}}
IK_KEY = {"time": float, "mix": float, "softness": float, "bendPositive": bool,
          "compress": bool, "stretch": bool, "curve": object}


def problems(doc) -> list[str]:
    out: list[str] = []
    if not isinstance(doc, dict):
        return ["top level: must be an object"]
    _fields(out, "top level", doc, {k: object for k in TOP})
    skel = doc.get("skeleton")
    if not isinstance(skel, dict):
        out.append("skeleton: required object")
    else:
        _fields(out, "skeleton", skel, SKELETON)
        if not str(skel.get("spine", "")).startswith("4.2."):
            out.append(f"skeleton.spine: must name a 4.2 version, got {skel.get('spine')!r}")
    bones = _bones(out, doc.get("bones"))
    iks = _iks(out, doc.get("ik", []), bones)
    for name in ("slots", "transform", "path", "physics", "skins"):
        if name in doc and not isinstance(doc[name], list):
            out.append(f"{name}: must be a list")
    anims = doc.get("animations", {})
    if not isinstance(anims, dict):
        out.append("animations: must be an object")
        anims = {}
    for aname, anim in anims.items():
        _animation(out, f"animations.{aname}", anim, bones, iks)
    return out


def _fields(out, where, obj, allowed):
    for key, value in obj.items():
        if key not in allowed:
            out.append(f"{where}.{key}: not a field of the format")
        elif not _is(value, allowed[key]):
            out.append(f"{where}.{key}: must be {allowed[key].__name__}, got {value!r}")


def _is(value, kind) -> bool:
    if kind is object:
        return True
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, kind)


def _bones(out, bones) -> dict:
    """Bone name -> parent name; the first bone is the root, parents come first."""
    parents: dict = {}
    if not isinstance(bones, list) or not bones:
        out.append("bones: required, a non-empty list (the first is the root)")
        return parents
    for i, bone in enumerate(bones):
        where = f"bones[{i}]"
        if not isinstance(bone, dict) or not isinstance(bone.get("name"), str):
            out.append(f"{where}: must be an object with a name")
            continue
        _fields(out, where, bone, BONE)
        name, parent = bone["name"], bone.get("parent")
        if name in parents:
            out.append(f"{where}.name: duplicate bone name {name!r}")
        if i == 0 and parent is not None:
            out.append(f"{where}: the first bone is the root and has no parent")
        if i > 0 and parent not in parents:
            out.append(f"{where}.parent: {parent!r} must be a bone listed before it")
        if bone.get("length", 0) < 0:
            out.append(f"{where}.length: must be >= 0")
        if bone.get("inherit", "normal") not in INHERIT:
            out.append(f"{where}.inherit: unknown mode {bone.get('inherit')!r}")
        parents[name] = parent
    return parents


def _descends(parents, bone, ancestor) -> bool:
    while bone is not None:
        if bone == ancestor:
            return True
        bone = parents.get(bone)
    return False


def _iks(out, iks, parents) -> set:
    names = set()
    if not isinstance(iks, list):
        out.append("ik: must be a list")
        return names
    for i, ik in enumerate(iks):
        where = f"ik[{i}]"
        if not isinstance(ik, dict):
            out.append(f"{where}: must be an object")
            continue
        _fields(out, where, ik, IK)
        for req in ("name", "bones", "target"):
            if req not in ik:
                out.append(f"{where}.{req}: required")
        if ik.get("name") in names:
            out.append(f"{where}.name: duplicate constraint name")
        names.add(ik.get("name"))
        chain = ik.get("bones", [])
        if not 1 <= len(chain) <= 2 or any(b not in parents for b in chain):
            out.append(f"{where}.bones: one or two existing bones, got {chain!r}")
        elif len(chain) == 2 and parents.get(chain[1]) != chain[0]:
            out.append(f"{where}.bones: the second bone must be a child of the first")
        target = ik.get("target")
        if target not in parents:
            out.append(f"{where}.target: unknown bone {target!r}")
        elif any(_descends(parents, target, b) for b in chain if b in parents):
            out.append(f"{where}.target: must not be one of the constrained bones or below them")
        if not 0 <= ik.get("mix", 1) <= 1:
            out.append(f"{where}.mix: must be between 0 and 1")
        if ik.get("softness", 0) < 0:
            out.append(f"{where}.softness: must be >= 0")
    return names


def _animation(out, where, anim, parents, iks):
    if not isinstance(anim, dict):
        out.append(f"{where}: must be an object")
        return
    for key in anim:
        if key not in ANIMATION:
            out.append(f"{where}.{key}: not a kind of timeline")
    for bone, timelines in anim.get("bones", {}).items():
        if bone not in parents:
            out.append(f"{where}.bones.{bone}: unknown bone")
        for kind, keys in timelines.items():
            if kind not in BONE_TIMELINES:
                out.append(f"{where}.bones.{bone}.{kind}: not a bone timeline")
                continue
            allowed = {k: float for k in BONE_TIMELINES[kind]} | {"time": float, "curve": object}
            if kind == "inherit":
                allowed["inherit"] = str
            _keys(out, f"{where}.bones.{bone}.{kind}", keys, allowed, len(BONE_TIMELINES[kind]))
    for name, keys in anim.get("ik", {}).items():
        if name not in iks:
            out.append(f"{where}.ik.{name}: unknown IK constraint")
        _keys(out, f"{where}.ik.{name}", keys, IK_KEY, 2)


def _keys(out, where, keys, allowed, values):
    if not isinstance(keys, list) or not keys:
        out.append(f"{where}: must be a non-empty list of keys")
        return
    last = -math.inf
    for i, key in enumerate(keys):
        if not isinstance(key, dict):
            out.append(f"{where}[{i}]: must be an object")
            continue
        _fields(out, f"{where}[{i}]", key, allowed)
        t = key.get("time", 0)
        if _is(t, float) and (t < 0 or t <= last):
            out.append(f"{where}[{i}].time: must be >= 0 and after the previous key's ({last})")
        last = t if _is(t, float) else last
        curve = key.get("curve")
        if curve is not None and curve != "stepped" and not (
                isinstance(curve, list) and len(curve) == 4 * values and all(_is(c, float) for c in curve)):
            out.append(f"{where}[{i}].curve: \"stepped\" or {4 * values} bezier numbers")
