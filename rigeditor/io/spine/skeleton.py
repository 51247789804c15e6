"""Read and check a Spine 4.0-4.2 skeleton (JSON): plain data with Spine's defaults
filled in, or one :class:`SpineError` naming the file, the field and the value.

Only what the import maps is normalised here (bones, slots, the skins' attachments,
IK constraints, animations); other sections are kept as they are so the import can
list them; the values are checked by ``skeleton_fields``, the animations by
``skeleton_animations``. Units are Spine's: skeleton units (y-up), degrees counter-clockwise,
seconds. Field defaults follow Spine's JSON format documentation (a missing ``x`` is
0, ``scaleX`` 1, ``bendPositive`` true, ``mix`` 1, a key's ``time`` 0, ...).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import numpy as np
from pathlib import Path

from rigeditor.io import json_limits
from rigeditor.io.art.layers import ImportError_
from rigeditor.io.spine.extras import carried
from rigeditor.model.evaluation.inherit import INHERIT_MODES
from rigeditor.model.validation.mesh import MIN_WEIGHT
from rigeditor.io.spine.skeleton_animations import check_animation
from rigeditor.io.spine.skeleton_fields import (_TOO_LARGE, _Bad, _is_number, _kind, _list, _name,
                                               _num, _number_array, color)
from rigeditor.model.validation.project import MAX_MAGNITUDE, MIN_LENGTH

SUPPORTED = ((4, 0), (4, 1), (4, 2))
SUPPORTED_TEXT = "4.0\u20134.2"
MAX_FPS = 240.0
"""Highest skeleton frame rate taken as the timeline's (the highest the import tries
on its own); a higher one is not used, so an hour stays under a million frames, nor
one below 1 fps (every key would round onto frame 0)."""
NEGATIVE_WEIGHT = -MIN_WEIGHT
"""How far below 0 a mesh weight may be (RigEditor's meshes keep it as written, as Spine
plays it); anything further below is refused as invalid."""


class SpineError(ImportError_):
    """A Spine file that cannot be imported (nothing was written)."""


SECTIONS = {"chain": "ik", "transform": "transform", "path": "path", "physics": "physics"}
"""The Spine section (and skin list) of each kind of constraint RigEditor maps."""


@dataclass(frozen=True)
class SpineBone:
    name: str
    parent: str | None
    length: float = 0.0
    x: float = 0.0
    y: float = 0.0
    rotation: float = 0.0  # degrees
    scale: tuple[float, float] = (1.0, 1.0)
    shear: tuple[float, float] = (0.0, 0.0)
    inherit: str = "normal"
    skin: bool = False  # posed only while a skin that lists it is active (Spine's skinRequired)


@dataclass(frozen=True)
class SpineSlot:
    name: str
    bone: str
    attachment: str | None = None
    color: tuple[float, float, float, float] = (1.0, 1.0, 1.0, 1.0)
    dark: bool = False
    blend: str = "normal"
    dark_color: tuple[float, float, float] = (0.0, 0.0, 0.0)  # rgb, when ``dark``


@dataclass(frozen=True)
class SpineIk:
    name: str
    bones: tuple[str, ...]
    target: str
    order: int = 0
    mix: float = 1.0
    softness: float = 0.0
    bend_positive: bool = True
    compress: bool = False
    stretch: bool = False
    uniform: bool = False
    skin: bool = False  # acts only while a skin that lists it is active (Spine's skinRequired)


@dataclass(frozen=True)
class SpineSkeleton:
    """bones parents first (Spine's order); skins: {skin: {slot: {attachment: map}}}
    (attachment maps as in the file); animations: {name: map} (checked: every key
    has a finite ``time``, times do not decrease, curves are well formed)."""

    version: str
    fps: float | None
    bones: tuple[SpineBone, ...]
    slots: tuple[SpineSlot, ...]
    skins: dict
    ik: tuple[SpineIk, ...]
    animations: dict
    other: dict = field(default_factory=dict)  # sections read but not mapped


def read_spine(path) -> SpineSkeleton:
    """Read and check the skeleton at ``path``; SpineError(path, [one problem]) if unusable."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SpineError(path, ["open: file not found"]) from None
    except IsADirectoryError:
        raise SpineError(path, ["open: is a folder, not a Spine skeleton (.json)"]) from None
    except OSError as exc:
        raise SpineError(path, [f"open: {exc.strerror or exc}"]) from None
    return parse_spine(raw, path)


def parse_spine(raw: bytes | str, path=None) -> SpineSkeleton:
    try:
        text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
        doc = json_limits.loads(text)
    except UnicodeDecodeError:
        raise SpineError(path, ["JSON: not a text file (a binary .skel? export JSON from Spine)"]) from None
    except json.JSONDecodeError as exc:
        if _unclosed(text):
            raise SpineError(path, [f"JSON: truncated: the file ends inside an unfinished {_unclosed(text)} "
                                    f"(line {text.count(chr(10)) + 1})"]) from None
        raise SpineError(path, [f"JSON: not valid JSON at line {exc.lineno} column {exc.colno} ({exc.msg})"]) from None
    except ValueError as exc:  # nested too deeply for the parser
        raise SpineError(path, [f"JSON: {exc}"]) from None
    beyond = json_limits.problem(doc)
    if beyond:
        raise SpineError(path, [beyond])
    try:
        return _skeleton(doc)
    except _Bad as bad:
        raise SpineError(path, [str(bad)]) from None


def _unclosed(text: str) -> str:
    """What a JSON text ends inside of ("string", "object", "list"), or "" if nothing."""
    stack, in_string, escaped = [], False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            stack.append("object" if ch == "{" else "list")
        elif ch in "}]" and stack:
            stack.pop()
    return "string" if in_string else (stack[-1] if stack else "")


def _skeleton(doc) -> SpineSkeleton:
    if not isinstance(doc, dict) or not isinstance(doc.get("skeleton"), dict):
        raise _Bad("skeleton: not a Spine skeleton (no \"skeleton\" section)")
    version = doc["skeleton"].get("spine")
    if not isinstance(version, str):
        raise _Bad(f"skeleton.spine: missing or not a version string ({SUPPORTED_TEXT} expected)")
    m = re.match(r"^(\d+)\.(\d+)", version)
    if not m or (int(m.group(1)), int(m.group(2))) not in SUPPORTED:
        shown = f"{m.group(1)}.{m.group(2)}" if m else repr(version)
        raise _Bad(f"skeleton.spine: version {shown} is not supported ({SUPPORTED_TEXT})")
    fps = doc["skeleton"].get("fps")
    fps = float(fps) if _is_number(fps) and 1 <= fps <= MAX_FPS else None
    modern = (int(m.group(1)), int(m.group(2))) >= (4, 2)  # 4.2 renamed a bone's "transform" to "inherit"
    bones, unread = _bones(_list(doc, "bones", required=True), modern)
    names = {b.name for b in bones}
    slots = _slots(_list(doc, "slots"), names)
    slot_names = {s.name: None for s in slots}  # in setup order (draw-order offsets count on it)
    skins = _skins(_list(doc, "skins"), slot_names, len(bones))
    ik = _iks(_list(doc, "ik"), names)
    animations = doc.get("animations", {})
    if not isinstance(animations, dict):
        raise _Bad(f"animations: must be an object of animations, got {_kind(animations)}")
    for name, anim in animations.items():
        check_animation(f"animations.{name}", anim, names, slot_names, {c.name for c in ik})
    other = {k: doc[k] for k in ("transform", "path", "physics", "events") if doc.get(k)}
    if unread:
        other["unread_transform"] = unread
    other.update(carried(doc))  # RigEditor's own data beside Spine's (write_roundtrip)
    if _is_number(doc["skeleton"].get("referenceScale")) and doc["skeleton"]["referenceScale"] > 0:
        other["referenceScale"] = float(doc["skeleton"]["referenceScale"])  # physics' wind and gravity
    return SpineSkeleton(version, fps, bones, slots, skins, ik, animations, other)


# ----------------------------------------------------------------- sections

def _named(items, section, kind):
    """(index, where, name, item, names before it) per item; a repeated name is refused."""
    seen: set[str] = set()
    for i, item in enumerate(items):
        where = f"{section}[{i}]"
        name = _name(item, where)
        if name in seen:
            raise _Bad(f"{where}.name: duplicate {kind} {name!r}")
        yield i, where, name, item, seen
        seen.add(name)


def _bones(items, modern: bool) -> tuple[tuple[SpineBone, ...], tuple[str, ...]]:
    """The bones, and those whose inherit mode a 4.2 runtime does not read: a 4.2 file
    (``modern``) names it "inherit", and spine-core 4.2 ignores an older export's
    "transform" there (early 4.2 exports still wrote it), playing the bone as normal."""
    if not items:
        raise _Bad("bones: a skeleton needs at least one bone")
    out, unread = [], []
    for i, where, name, b, seen in _named(items, "bones", "bone"):
        parent = b.get("parent")
        if i == 0 and parent is not None:
            raise _Bad(f"{where}.parent: the first bone is the root and has no parent, got {parent!r}")
        if i > 0 and (not isinstance(parent, str) or parent not in seen):
            raise _Bad(f"{where}.parent: must name a bone listed before it, got {parent!r}")
        key = "inherit" if modern or "inherit" in b else "transform"
        if modern and "transform" in b and "inherit" not in b and b["transform"] != "normal":
            unread.append(name)
        inherit = b.get(key, "normal")
        if inherit not in INHERIT_MODES:
            raise _Bad(f"{where}.{key}: must be one of {', '.join(INHERIT_MODES)}, got "
                       f"{inherit if isinstance(inherit, str) else _kind(inherit)!r}")
        length = _num(b, "length", 0.0, where, lo=0.0)
        if 0 < length < MIN_LENGTH:
            raise _Bad(f"{where}.length: must be 0 (a point) or >= {MIN_LENGTH:g} (the shortest bone "
                       f"RigEditor's solver takes), got {length!r}")
        out.append(SpineBone(
            name, parent, length, _num(b, "x", 0.0, where),
            _num(b, "y", 0.0, where), _num(b, "rotation", 0.0, where),
            (_num(b, "scaleX", 1.0, where), _num(b, "scaleY", 1.0, where)),
            (_num(b, "shearX", 0.0, where), _num(b, "shearY", 0.0, where)), inherit, b.get("skin") is True))
    return tuple(out), tuple(unread)


def _slots(items, bones) -> tuple[SpineSlot, ...]:
    out = []
    for _, where, name, s, _ in _named(items, "slots", "slot"):
        if not isinstance(s.get("bone"), str) or s["bone"] not in bones:
            raise _Bad(f"{where}.bone: unknown bone {s.get('bone')!r}")
        attachment = s.get("attachment")
        if attachment is not None and not isinstance(attachment, str):
            raise _Bad(f"{where}.attachment: must be a name, got {_kind(attachment)}")
        out.append(SpineSlot(name, s["bone"], attachment, color(s.get("color", "ffffffff"), f"{where}.color"),
                             s.get("dark") is not None, str(s.get("blend", "normal")),
                             color(s["dark"], f"{where}.dark")[:3] if s.get("dark") is not None else (0.0, 0.0, 0.0)))
    return tuple(out)


def _skins(items, slots, bones) -> dict:
    out = {}
    for i, skin in enumerate(items):
        where = f"skins[{i}]"
        name = _name(skin, where)
        for key in ("bones", *SECTIONS.values()):
            listed = skin.get(key, [])
            if not isinstance(listed, list) or not all(isinstance(n, str) for n in listed):
                raise _Bad(f"{where}.{key}: must be a list of names, got {_kind(listed)}")
        attachments = skin.get("attachments", {})
        if not isinstance(attachments, dict):
            raise _Bad(f"{where}.attachments: must be an object of slots, got {_kind(attachments)}")
        for slot, entries in attachments.items():
            if slot not in slots:
                raise _Bad(f"{where}.attachments.{slot}: unknown slot {slot!r}")
            if not isinstance(entries, dict) or not all(isinstance(a, dict) for a in entries.values()):
                raise _Bad(f"{where}.attachments.{slot}: must map attachment names to attachments")
            for key, a in entries.items():
                at = f"{where}.attachments.{slot}.{key}"
                if not key.strip():
                    raise _Bad(f"{at}: an attachment needs a non-empty name, got {key!r}")
                kind = a.get("type", "region")
                if not isinstance(kind, str):
                    raise _Bad(f"{at}.type: must be an attachment type, got {_kind(kind)}")
                for f in ("path", "name"):
                    if f in a and not isinstance(a[f], str):
                        raise _Bad(f"{at}.{f}: must be a name, got {_kind(a[f])}")
                if kind == "mesh":
                    _mesh(a, at, bones)
                elif kind == "linkedmesh" and not isinstance(a.get("parent"), str):
                    raise _Bad(f"{at}.parent: must name the mesh it links to, got {_kind(a.get('parent'))}")
                if kind == "region":
                    for f, d in (("x", 0.0), ("y", 0.0), ("rotation", 0.0), ("scaleX", 1.0), ("scaleY", 1.0)):
                        _num(a, f, d, at)
                    for f in ("width", "height"):
                        if _num(a, f, 32.0, at, lo=0.0) <= 0:
                            raise _Bad(f"{at}.{f}: must be > 0, got {a[f]!r}")
                    color(a.get("color", "ffffffff"), f"{at}.color")
        out[name] = skin
    return out


def flat_triangles(tri: np.ndarray) -> np.ndarray:
    """(T,) True where a triangle of ``tri`` (T, 3 vertex indices) repeats a vertex:
    it covers nothing (the import drops it, ``read_mesh.mesh_geometry``)."""
    return (tri[:, 0] == tri[:, 1]) | (tri[:, 1] == tri[:, 2]) | (tri[:, 0] == tri[:, 2])


def _mesh(a, at, bone_count) -> None:
    """A mesh's arrays: UVs in pairs, triangles of known vertices, vertices unweighted
    (x, y per vertex) or weighted (count, then bone, x, y, weight per influence)."""
    def numbers(f, ints=False):
        v = a.get(f)
        # Checked as one array: a production rig's meshes hold about a million numbers.
        arr = _number_array(v)
        if arr is None or not np.isfinite(arr).all() or (ints and not np.all(arr == np.floor(arr))):
            raise _Bad(f"{at}.{f}: must be a list of {'whole ' if ints else ''}numbers, got {_kind(v)}")
        big = np.flatnonzero(~(np.abs(arr) <= MAX_MAGNITUDE))
        if big.size:
            raise _Bad(f"{at}.{f}[{int(big[0])}]: {_TOO_LARGE}, got {v[int(big[0])]!r}")
        return v

    uvs = numbers("uvs")
    count = len(uvs) // 2
    if len(uvs) % 2 or count < 3:
        raise _Bad(f"{at}.uvs: must be u, v pairs for at least 3 vertices, got {len(uvs)} numbers")
    tri = numbers("triangles", ints=True)
    if not tri or len(tri) % 3 or not all(0 <= t < count for t in tri):
        raise _Bad(f"{at}.triangles: must be triples of vertex indices in 0..{count - 1}")
    if flat_triangles(np.asarray(tri, dtype=np.int64).reshape(-1, 3)).all():
        raise _Bad(f"{at}.triangles: every triangle repeats a vertex: the mesh covers nothing")
    vertices = numbers("vertices")
    if len(vertices) != 2 * count:
        i = 0
        for _ in range(count):
            n = int(vertices[i]) if i < len(vertices) and float(vertices[i]).is_integer() else -1
            if n < 1 or i + 1 + 4 * n > len(vertices) or not all(
                    float(vertices[i + 1 + 4 * k]).is_integer() and 0 <= vertices[i + 1 + 4 * k] < bone_count
                    for k in range(n)):
                raise _Bad(f"{at}.vertices: neither x, y per vertex nor weighted (count, then bone, x, y, "
                           f"weight per influence) for {count} vertices")
            weights = vertices[i + 4:i + 1 + 4 * n:4]
            if min(weights) < -NEGATIVE_WEIGHT or sum(weights) <= 0:
                raise _Bad(f"{at}.vertices[{i}:{i + 1 + 4 * n}]: a vertex's weights must be >= "
                           f"{-NEGATIVE_WEIGHT:g} with a positive sum, got {weights}")
            i += 1 + 4 * n
        if i != len(vertices):
            raise _Bad(f"{at}.vertices: {len(vertices) - i} numbers left over after {count} weighted vertices")
    edges = numbers("edges", ints=True) if "edges" in a else []
    if len(edges) % 2 or not all(0 <= e < 2 * count and e % 2 == 0 for e in edges):
        raise _Bad(f"{at}.edges: must be pairs of vertex indices times 2 below {2 * count}")
    hull = a.get("hull", 0)
    if not (_is_number(hull) and float(hull).is_integer() and 0 <= hull <= count):
        raise _Bad(f"{at}.hull: must be a vertex count in 0..{count}, got {_kind(hull)}")


def _iks(items, bones) -> tuple[SpineIk, ...]:
    out = []
    for i, c in enumerate(items):
        where = f"ik[{i}]"
        name = _name(c, where)
        chain = c.get("bones")
        if not isinstance(chain, list) or not chain or not all(isinstance(b, str) and b in bones for b in chain):
            raise _Bad(f"{where}.bones: must list known bones, got {chain!r}")
        if not isinstance(c.get("target"), str) or c["target"] not in bones:
            raise _Bad(f"{where}.target: unknown bone {c.get('target')!r}")
        out.append(SpineIk(name, tuple(chain), c["target"], int(_num(c, "order", 0.0, where)),
                           _num(c, "mix", 1.0, where), _num(c, "softness", 0.0, where, lo=0.0),
                           bool(c.get("bendPositive", True)), bool(c.get("compress", False)),
                           bool(c.get("stretch", False)), bool(c.get("uniform", False)), c.get("skin") is True))
    return tuple(sorted(out, key=lambda k: k.order))


def constraint_moved(skel: SpineSkeleton) -> set[str]:
    """Bones a transform, path or physics constraint moves."""
    moved = {b for kind in ("transform", "path") for c in skel.other.get(kind) or [] if isinstance(c, dict)
             for b in c.get("bones") or [] if isinstance(b, str)}
    return moved | {c.get("bone") for c in skel.other.get("physics") or [] if isinstance(c, dict)}


__all__ = ["SpineError", "SpineBone", "SpineSlot", "SpineIk", "SpineSkeleton", "read_spine", "parse_spine",
           "color", "SUPPORTED_TEXT", "constraint_moved"]

