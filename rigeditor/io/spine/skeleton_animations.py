"""A Spine skeleton's animations checked (``skeleton``): what the import reads of the
bone, slot, IK and draw-order timelines (key times, fields, curves); other timelines
are read by their own modules or only listed."""
from __future__ import annotations

import math

from rigeditor.io.spine.skeleton_fields import _TOO_LARGE, _Bad, _bounded, _is_number, _kind, _num
from rigeditor.model.evaluation.inherit import INHERIT_MODES

MAX_SECONDS = 3600.0
"""Latest key time accepted (an hour: 108,000 frames at 30 fps)."""
NUM, FLAG, NAME = "number", "true or false", "an attachment name or null"
INHERIT = "one of " + ", ".join(INHERIT_MODES)
_BONE_TIMELINES = {"rotate": {"value": NUM}, "translate": {"x": NUM, "y": NUM}, "scale": {"x": NUM, "y": NUM},
                   "shear": {"x": NUM, "y": NUM}, "translatex": {"value": NUM}, "translatey": {"value": NUM},
                   "scalex": {"value": NUM}, "scaley": {"value": NUM}, "shearx": {"value": NUM},
                   "sheary": {"value": NUM}, "inherit": {"inherit": INHERIT}}
_IK_FIELDS = {"mix": NUM, "softness": NUM, "bendPositive": FLAG, "compress": FLAG, "stretch": FLAG}


def check_animation(where, anim, bones, slots, iks) -> None:
    """Check what the import reads of an animation; other timelines are only listed."""
    if not isinstance(anim, dict):
        raise _Bad(f"{where}: must be an object of timelines, got {_kind(anim)}")
    for name, timelines in _group(anim, "bones", where, bones, "bone"):
        for kind, keys in timelines.items():
            _keys(f"{where}.bones.{name}.{kind}", keys, _BONE_TIMELINES.get(kind, {}))
    for name, timelines in _group(anim, "slots", where, slots, "slot"):
        for kind, keys in timelines.items():
            _keys(f"{where}.slots.{name}.{kind}", keys, {"name": NAME} if kind == "attachment" else None)
    for name, keys in _group(anim, "ik", where, iks, "IK constraint", timelines=False):
        _keys(f"{where}.ik.{name}", keys, _IK_FIELDS)
    if "drawOrder" in anim:
        _keys(f"{where}.drawOrder", anim["drawOrder"], {"offsets": "offsets"})
        for k, key in enumerate(anim["drawOrder"]):
            _offsets(f"{where}.drawOrder[{k}].offsets", key.get("offsets") or [], slots)


def _group(anim, key, where, known, kind, timelines=True):
    """(name, timelines) of section ``key`` of an animation, every name known."""
    group = anim.get(key, {})
    if not isinstance(group, dict):
        raise _Bad(f"{where}.{key}: must be an object, got {_kind(group)}")
    for name, value in group.items():
        if name not in known:
            raise _Bad(f"{where}.{key}.{name}: unknown {kind}")
        if timelines and not isinstance(value, dict):
            raise _Bad(f"{where}.{key}.{name}: must be an object of timelines, got {_kind(value)}")
        yield name, value


def _offsets(where, offsets, slots) -> None:
    """Draw-order offsets: known slots in setup order, each moved to a free place."""
    names = list(slots)
    if not isinstance(offsets, list):
        raise _Bad(f"{where}: must be a list, got {_kind(offsets)}")
    taken, last = set(), -1
    for j, o in enumerate(offsets):
        ok = (isinstance(o, dict) and isinstance(o.get("slot"), str) and o["slot"] in slots
              and isinstance(o.get("offset"), int) and not isinstance(o.get("offset"), bool))
        place = names.index(o["slot"]) + o["offset"] if ok else -1
        if not ok or names.index(o["slot"]) <= last or not 0 <= place < len(names) or place in taken:
            raise _Bad(f"{where}[{j}]: must move a slot (in setup order) to a free place among "
                       f"{len(names)} slots, got {o!r}")
        taken.add(place)
        last = names.index(o["slot"])


def _keys(where, keys, fields) -> None:
    """Keys: objects with a finite, non-decreasing ``time`` and the ``fields`` the
    import reads ({name: kind}; None: the timeline is only listed, not read). A
    ``curve`` is "stepped" or 4 numbers per numeric field."""
    if not isinstance(keys, list):
        raise _Bad(f"{where}: must be a list of keys, got {_kind(keys)}")
    last = -math.inf
    for k, key in enumerate(keys):
        if not isinstance(key, dict):
            raise _Bad(f"{where}[{k}]: must be a key object, got {_kind(key)}")
        t = _num(key, "time", 0.0, f"{where}[{k}]", lo=0.0)
        if t > MAX_SECONDS:
            raise _Bad(f"{where}[{k}].time: must be at most {MAX_SECONDS:g} seconds, got {t:g}")
        if t < last:
            raise _Bad(f"{where}[{k}].time: keys must not go back in time, got {t:g} after {last:g}")
        last = t
        if fields is None:
            continue
        for f, kind in fields.items():
            if f not in key:
                continue
            v = key[f]
            good = {NUM: _is_number(v), FLAG: isinstance(v, bool), NAME: v is None or isinstance(v, str),
                    INHERIT: v in INHERIT_MODES}.get(kind, True)
            if not good:
                got = repr(v) if kind == INHERIT and isinstance(v, str) else _kind(v)
                raise _Bad(f"{where}[{k}].{f}: must be {'a ' if kind == NUM else ''}{kind}, got {got}")
            if kind == NUM and not _bounded(v):
                raise _Bad(f"{where}[{k}].{f}: {_TOO_LARGE}, got {v!r}")
        curves = sum(kind == NUM for kind in fields.values())
        curve = key.get("curve")
        if curve is None or curve == "stepped" or curves == 0:
            continue
        if not (isinstance(curve, list) and len(curve) % 4 == 0 and 4 <= len(curve) <= 4 * curves
                and all(_is_number(c) for c in curve)):
            raise _Bad(f"{where}[{k}].curve: must be \"stepped\" or 4 numbers per value, got {_kind(curve)}")
        for j, c in enumerate(curve):
            if not _bounded(c):
                raise _Bad(f"{where}[{k}].curve[{j}]: {_TOO_LARGE}, got {c!r}")
