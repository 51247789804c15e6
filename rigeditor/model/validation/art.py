"""Semantic checks of the artwork (slots, attachments, draw order); ``where: what``.

Locations follow the file: ``slots[2].attachments[0].width``, ``draw_order.keys[1]``.
A missing image file is not a problem of the project (it still loads and saves its
reference); ``rigeditor.io.art.images.missing_images`` reports those.
"""
from __future__ import annotations

import math
import posixpath
import weakref

from rigeditor.model.data.attachments import NONE, Art
from rigeditor.model.data.linked_mesh import LinkedMesh, linked_problems
from rigeditor.model.validation.deform import deform_problems
from rigeditor.model.validation.slot_color import slot_color_problems
from rigeditor.model.data.shapes import is_shape
from rigeditor.model.validation.mesh import mesh_problems
from rigeditor.model.validation.shapes import shape_problems
from rigeditor.model.validation.sequences import sequence_key_problems, sequence_problems

_MAX = 1e9


def art_problems(art: Art, bone_names) -> list[str]:
    out: list[str] = []
    bone_names = _canon(bone_names)
    names = _canon(s.name for s in art.slots)
    seen: set[str] = set()
    for i, slot in enumerate(art.slots):
        where = f"slots[{i}]"
        if not isinstance(slot.name, str) or not slot.name.strip():
            out.append(f"{where}.name: must be a non-empty name, got {slot.name!r}")
        elif slot.name in seen:
            out.append(f"{where}.name: duplicate name {slot.name!r}")
        seen.add(slot.name)
        if slot.bone is not None and slot.bone not in bone_names:
            out.append(f"{where}.bone: unknown bone {slot.bone!r}")
        att_names: set = set()
        for k, a in enumerate(slot.attachments):
            _attachment(out, f"{where}.attachments[{k}]", a, att_names, bone_names, names)
            if a.skin and a.skin not in art.skins:
                out.append(f"{where}.attachments[{k}].skin: unknown skin {a.skin!r}")
            if isinstance(a, LinkedMesh):
                out.extend(linked_problems(slot, where, k, a))
        out.extend(sequence_key_problems(slot, where))
        allowed = {name for name, _ in att_names} | {NONE} | {p.name for p in slot.paths}
        if slot.attachment.default not in allowed:
            out.append(f"{where}.attachment.default: unknown attachment {slot.attachment.default!r}")
        previous = None
        for k, (frame, value) in enumerate(slot.attachment.keys):
            if value not in allowed:
                out.append(f"{where}.attachment.keys[{k}].value: unknown attachment {value!r}")
            if previous is not None and frame <= previous:
                out.append(f"{where}.attachment.keys[{k}].frame: keys must be in increasing frame order, "
                           f"got {frame:g} after {previous:g}")
            previous = frame
        out += slot_color_problems(slot, where)
    for k, skin in enumerate(art.skins):
        if not isinstance(skin, str) or not skin.strip() or skin in art.skins[:k]:
            out.append(f"skins.names[{k}]: must be a non-empty name listed once, got {skin!r}")
    for k, skin in enumerate(art.active_skins):
        if skin not in art.skins:
            out.append(f"skins.active[{k}]: unknown skin {skin!r}")
    for skin, bones in art.skin_bones:
        if skin not in art.skins:
            out.append(f"skins.bones.{skin}: unknown skin {skin!r}")
        for k, bone in enumerate(bones):
            if bone not in bone_names:
                out.append(f"skins.bones.{skin}[{k}]: unknown bone {bone!r}")
    previous = None
    for k, key in enumerate(art.draw_order):
        where = f"draw_order.keys[{k}]"
        if sorted(key.order) != sorted(names) or len(set(key.order)) != len(key.order):
            out.append(f"{where}.order: must list every slot once, got {list(key.order)}")
        if previous is not None and key.frame <= previous:
            out.append(f"{where}.frame: keys must be in increasing frame order, got {key.frame:g} after {previous:g}")
        previous = key.frame
    out.extend(deform_problems(art))
    return out


_HERE = "\x00"  # where an attachment's own problems are, filled in per use
_own_cache: dict[int, tuple] = {}
_canonical: dict = {}


def _attachment(out, where, a, names: set, bone_names, slot_names=()) -> None:
    if not isinstance(a.name, str) or not a.name.strip():
        out.append(f"{where}.name: must be a non-empty name, got {a.name!r}")
    elif (a.name, a.skin) in names:
        skin = f" of skin {a.skin!r}" if a.skin else ""
        out.append(f"{where}.name: duplicate name {a.name!r}{skin} in this slot")
    names.add((a.name, a.skin))
    out.extend(p.replace(_HERE, where) for p in _own_problems(a, bone_names, slot_names))


def _own_problems(a, bone_names, slot_names) -> list[str]:
    """What is wrong with attachment ``a`` itself (its place written as ``_HERE``).
    Remembered per attachment object (attachments are immutable, and one is shared by
    every animation a project stores: the file's check opens each, and re-checking
    every mesh each time was most of a big Spine import)."""
    key = id(a)
    hit = _own_cache.get(key)
    if hit is not None and hit[0]() is a and hit[1] is bone_names and hit[2] is slot_names:
        return hit[3]
    found = _checked(a, bone_names, slot_names)
    try:  # held weakly: a closed project's meshes are not kept for this
        ref = weakref.ref(a, lambda _, key=key: _own_cache.pop(key, None))
    except TypeError:  # (an object that takes no weak reference: checked each time)
        return found
    _own_cache[key] = (ref, bone_names, slot_names, found)
    return found


def _canon(value):
    """One object for equal bone or slot name sets, so that a remembered check is
    found by identity (``_own_problems``)."""
    value = frozenset(value) if isinstance(value, (set, frozenset)) else tuple(value)
    if len(_canonical) > 64:
        _canonical.clear()
    return _canonical.setdefault(value, value)


def _checked(a, bone_names, slot_names) -> list[str]:
    out: list[str] = []
    where = _HERE
    if is_shape(a):  # no picture: its own checks (model.validation.shapes)
        out.extend(shape_problems(a, where, bone_names, slot_names))
        return out
    if a.sequence is not None:
        out.extend(sequence_problems(a.sequence, where))
    if a.kind == "mesh":
        out.extend(mesh_problems(a, where, bone_names))
    elif a.kind != "image":
        out.append(f"{where}.type: unknown attachment type {a.kind!r}")
    path = a.path if isinstance(a.path, str) else ""
    if not path.strip():
        out.append(f"{where}.path: must name an image file, got {a.path!r}")
    elif posixpath.isabs(path) or "\\" in path or (len(path) > 1 and path[1] == ":"):
        out.append(f"{where}.path: must be relative to the project file with '/' separators, got {path!r}")
    for name in ("width", "height"):
        v = getattr(a, name)
        if not (math.isfinite(v) and 0 < v <= _MAX):
            out.append(f"{where}.{name}: must be a finite number of pixels > 0, got {v!r}")
    for name, v in (("x", a.x), ("y", a.y), ("rotation", a.rotation), ("scale[0]", a.scale[0]),
                    ("scale[1]", a.scale[1]), ("pivot[0]", a.pivot[0]), ("pivot[1]", a.pivot[1])):
        if not (math.isfinite(v) and abs(v) <= _MAX):
            out.append(f"{where}.{name}: must be a finite number of magnitude <= {_MAX:g}, got {v!r}")
    if 0.0 in a.scale:
        out.append(f"{where}.scale: a scale of zero collapses the image")
    for k, v in enumerate(a.tint):
        if not (0.0 <= v <= 1.0):
            out.append(f"{where}.tint[{k}]: must be between 0 and 1, got {v!r}")
    if not (0.0 <= a.opacity <= 1.0):
        out.append(f"{where}.opacity: must be between 0 and 1, got {a.opacity!r}")
    return out
