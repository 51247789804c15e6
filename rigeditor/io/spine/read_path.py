"""Spine path attachments and path constraints -> RigEditor's (``model.data``): the
skins' ``path`` attachments, the skeleton's ``path`` array and the animations'
``path`` timelines (position, spacing, mix).

Spine writes degrees, model units and mixes 0..1 (any number is played); a field
Spine's reader would not take (not a number, not finite, an unknown bone or slot, a
vertex list that does not fit ``vertexCount``) is refused where it is (JSON path,
value). What RigEditor's mapping cannot carry is noted, one warning a kind.
"""
from __future__ import annotations

import math

from rigeditor.io.spine.skeleton import SpineError
from rigeditor.model.data.path_attachment import PathAttachment
from rigeditor.model.data.path_constraint import POSITION_MODES, ROTATE_MODES, SPACING_MODES, PathConstraint
from rigeditor.model.data.timeline import constant

_MIXES = (("mixRotate", "mix_rotate"), ("mixX", "mix_x"), ("mixY", "mix_y"))


def _number(value, where, source=None):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SpineError(source, [f"{where}: must be a finite number, got {value!r}"])
    return float(value)


def path_bones(skel) -> set[str]:
    """Bones that weighted paths hang on and bones path constraints drive."""
    out = set()
    names = [b.name for b in skel.bones]
    for skin in skel.skins.values():
        for slot in (skin.get("attachments") or {}).values():
            for a in slot.values():
                if isinstance(a, dict) and a.get("type") == "path":
                    try:
                        out |= _weighted_bones(a, names)
                    except (IndexError, TypeError, ValueError):
                        pass  # refused with its place when the attachment is read
    for c in skel.other.get("path") or []:
        if isinstance(c, dict):
            out |= {b for b in c.get("bones") or [] if isinstance(b, str)}
    return out


def _weighted_bones(a: dict, names: list[str]) -> set[str]:
    v, count = a.get("vertices") or [], int(a.get("vertexCount", 0) or 0)
    out, i = set(), 0
    if len(v) == 2 * count:
        return out
    while i < len(v):
        k = int(v[i])
        out |= {names[int(v[i + 1 + 4 * j])] for j in range(k) if 0 <= int(v[i + 1 + 4 * j]) < len(names)}
        i += 1 + 4 * k
    return out


def path_attachment(key: str, a: dict, at: str, spine_bones: list[str], root: str, skin: str,
                    notes) -> PathAttachment:
    """Spine's path attachment map ``a`` (named ``key`` at JSON path ``at``)."""
    count = a.get("vertexCount")
    if isinstance(count, bool) or not isinstance(count, int) or count < 3 or count % 3:
        raise SpineError(None, [f"{at}.vertexCount: must be a whole multiple of 3 from 3, got {count!r}"])
    closed, speed = a.get("closed", False), a.get("constantSpeed", True)
    if count < (3 if closed else 6):
        notes.add("path attachments without a curve (an open path of one point: nothing follows it)",
                  at.rsplit(".", 2)[-2] + "/" + key)
    raw = a.get("vertices")
    if not isinstance(raw, list):
        raise SpineError(None, [f"{at}.vertices: must be a list of numbers"])
    values = [_number(v, f"{at}.vertices[{i}]") for i, v in enumerate(raw)]
    lengths = a.get("lengths")
    if not isinstance(lengths, list) or len(lengths) != count // 3:
        raise SpineError(None, [f"{at}.lengths: must list {count // 3} lengths (one a point), got {lengths!r}"])
    lengths = tuple(_number(v, f"{at}.lengths[{i}]") for i, v in enumerate(lengths))
    common = dict(closed=bool(closed), constant_speed=bool(speed), lengths=lengths, skin=skin)
    if len(values) == 2 * count:
        return PathAttachment(key, tuple((values[2 * i], values[2 * i + 1]) for i in range(count)), **common)
    used: list = []
    influences = []
    i = 0
    for v in range(count):
        if i >= len(values):
            raise SpineError(None, [f"{at}.vertices: {count} weighted vertices need more values than the "
                                    f"{len(values)} given"])
        k = values[i]
        if k != int(k) or k < 1 or i + 1 + 4 * int(k) > len(values):
            raise SpineError(None, [f"{at}.vertices[{i}]: vertex {v}'s bone count must be a whole number "
                                    f"from 1 with its 4 values each after it, got {raw[i]!r}"])
        row = []
        for j in range(int(k)):
            b, x, y, w = values[i + 1 + 4 * j:i + 5 + 4 * j]
            if b != int(b) or not 0 <= b < len(spine_bones):
                raise SpineError(None, [f"{at}.vertices[{i + 1 + 4 * j}]: unknown bone index {raw[i + 1 + 4 * j]!r}"])
            name = spine_bones[int(b)]
            name = None if name == root else name
            if name not in used:
                used.append(name)
            row.append((used.index(name), x, y, w))
        influences.append(tuple(row))
        i += 1 + 4 * int(k)
    if i != len(values):
        raise SpineError(None, [f"{at}.vertices: {len(values) - i} values beyond the {count} weighted vertices"])
    return PathAttachment(key, (), bones=tuple(used), influences=tuple(influences), **common)


def path_constraints(raw: list, bones: dict, root: str, slots: dict, notes, source=None,
                     taken=frozenset(), count: int | None = None) -> tuple:
    """RigEditor's constraints for Spine's ``path`` array; ``bones``: RigEditor's
    bones by name, ``slots``: the slots by name. ``taken``: the orders of the IK and
    transform constraints; ``count``: how many constraints the skeleton has (Spine
    runs orders 0 to count - 1, one constraint an order; another is not imported)."""
    out = []
    taken = set(taken)
    count = len(raw or []) if count is None else count
    for i, c in enumerate(raw or []):
        at = f"path[{i}]"
        if not isinstance(c, dict) or not isinstance(c.get("name"), str):
            raise SpineError(source, [f"{at}.name: a path constraint needs a name"])
        names = c.get("bones", [])
        if not isinstance(names, list) or not names or not all(isinstance(b, str) for b in names):
            raise SpineError(source, [f"{at}.bones: must be a list of bone names, got {names!r}"])
        for k, b in enumerate(names):
            if b not in bones and b != root:
                raise SpineError(source, [f"{at}.bones[{k}]: unknown bone {b!r}"])
        if c.get("target") not in slots:
            raise SpineError(source, [f"{at}.target: unknown slot {c.get('target')!r}"])
        for k in ("order", "rotation", "position", "spacing") + tuple(s for s, _ in _MIXES):
            if k in c:
                _number(c[k], f"{at}.{k}", source)
        modes = {}
        for k, allowed, default in (("positionMode", POSITION_MODES, "percent"),
                                    ("spacingMode", SPACING_MODES, "length"),
                                    ("rotateMode", ROTATE_MODES, "tangent")):
            value = c.get(k, default)
            match = [m for m in allowed if isinstance(value, str) and m.lower() == value.lower()]
            if not match:
                raise SpineError(source, [f"{at}.{k}: must be one of {', '.join(allowed)}, got {value!r}"])
            modes[k] = match[0]
        order = c.get("order", 0)
        if not (0 <= order < count) or order in taken or order != int(order):
            notes.add("path constraints Spine never runs (an order outside 0 to the constraint count - 1, "
                      "or one another constraint has; not imported)", c["name"])
            continue
        taken.add(order)
        if root in names:
            notes.add("path constraints on the root bone (RigEditor's character space; not imported)", c["name"])
            continue
        if len(set(names)) != len(names):
            raise SpineError(source, [f"{at}.bones: a bone is listed twice ({names!r})"])
        mx = float(c.get("mixX", 1.0))
        out.append(PathConstraint(
            c["name"], tuple(names), c["target"], int(order), modes["positionMode"], modes["spacingMode"],
            modes["rotateMode"], math.radians(float(c.get("rotation", 0.0))),
            position=constant(float(c.get("position", 0.0))), spacing=constant(float(c.get("spacing", 0.0))),
            mix_rotate=constant(float(c.get("mixRotate", 1.0))), mix_x=constant(mx),
            mix_y=constant(float(c.get("mixY", mx)))))
    return tuple(out)


def path_timelines(project, anim: dict, name: str, fps: float, notes, channel):
    """``project`` with animation ``name``'s ``path`` timelines keyed on its path
    constraints: position and spacing (a key without a value: 0, as Spine reads it),
    mix (rotate, x and y; y follows x)."""
    known = {p.name for p in project.paths}
    for cname, timelines in (anim.get("path") or {}).items():
        if cname not in known or not isinstance(timelines, dict):
            continue
        p = project.path(cname)
        changes = {}
        for kind, keys in timelines.items():
            if not keys:
                continue
            at = f"animations.{name}.path.{cname}.{kind}"
            if kind in ("position", "spacing"):
                changes[kind], _ = channel(keys, ("value",), 0.0, fps, setup=getattr(p, kind).default, where=at)
            elif kind == "mix":
                for j, (spine, ours) in enumerate(_MIXES):
                    one = []
                    for k in keys:
                        curve = k.get("curve")
                        mx = k.get("mixX", 1.0)
                        value = k.get(spine, mx if spine == "mixY" else 1.0)
                        if isinstance(curve, list):
                            curve = curve[4 * j:4 * j + 4] or None
                        one.append({"time": k.get("time", 0.0), "mix": value,
                                    **({"curve": curve} if curve is not None else {})})
                    changes[ours], _ = channel(one, ("mix",), 1.0, fps, setup=getattr(p, ours).default, where=at)
            else:
                notes.add(f"path constraint {kind} timelines (not supported)", cname)
        project = project.with_path(cname, **changes)
    return project


__all__ = ["path_attachment", "path_bones", "path_constraints", "path_timelines"]
