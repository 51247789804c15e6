"""Spine transform constraints -> RigEditor's (``model.data.constraints``): the setup
(the skeleton's ``transform`` array) and the constraint timelines of animations.

Spine writes degrees and mixes 0..1 (any number is played); a field Spine's reader
would not take (not a number, not finite, an unknown bone) is refused where it is
(JSON path, value). What RigEditor's mapping cannot carry is noted, one warning a kind.
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from rigeditor.io.spine.read_keys import runtime_points
from rigeditor.io.spine.skeleton import SpineError
from rigeditor.model.data.constraints import MIXES, TransformConstraint
from rigeditor.model.data.timeline import constant

SPINE_MIXES = ("mixRotate", "mixX", "mixY", "mixScaleX", "mixScaleY", "mixShearY")
"""Spine's names of MIXES, in the same order (a key's curve lists them in this order)."""
_OFFSETS = (("rotation", "offset_rotation", True), ("x", "offset_x", False), ("y", "offset_y", False),
            ("scaleX", "offset_scale_x", False), ("scaleY", "offset_scale_y", False),
            ("shearY", "offset_shear_y", True))


def spine_mixes(raw: dict) -> list[float]:
    """The six mixes of a constraint or a key, Spine's defaults filled in (y follows x,
    scale y follows scale x)."""
    get = lambda k, d: raw.get(k, d)  # noqa: E731
    mx, msx = get("mixX", 1.0), get("mixScaleX", 1.0)
    return [get("mixRotate", 1.0), mx, get("mixY", mx), msx, get("mixScaleY", msx), get("mixShearY", 1.0)]


def _number(value, where, source):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise SpineError(source, [f"{where}: must be a finite number, got {value!r}"])
    return float(value)


def transform_constraints(raw: list, bones: dict, root: str, turns: dict, notes, source=None,
                          taken=frozenset(), count: int | None = None) -> tuple:
    """RigEditor's constraints for Spine's ``transform`` array; ``bones``: RigEditor's
    bones by name (the Spine root is the character space, not a bone). ``taken``: the
    orders of IK constraints; ``count``: how many constraints the skeleton has. Spine
    runs the constraints of orders 0 to count - 1, one an order (IK first): another is
    never run, and is not imported."""
    out = []
    taken = set(taken)
    count = len(raw or []) if count is None else count
    for i, c in enumerate(raw or []):
        at = f"transform[{i}]"
        if not isinstance(c, dict) or not isinstance(c.get("name"), str):
            raise SpineError(source, [f"{at}.name: a transform constraint needs a name"])
        names = c.get("bones", [])
        if not isinstance(names, list) or not all(isinstance(b, str) for b in names):
            raise SpineError(source, [f"{at}.bones: must be a list of bone names, got {names!r}"])
        for field, value in [("target", c.get("target"))] + [(f"bones[{k}]", b) for k, b in enumerate(names)]:
            if value not in bones and value != root:
                raise SpineError(source, [f"{at}.{field}: unknown bone {value!r}"])
        for k in ("order",) + SPINE_MIXES + tuple(s for s, _, _ in _OFFSETS):
            if k in c:
                _number(c[k], f"{at}.{k}", source)
        order = c.get("order", 0)
        if not (0 <= order < count) or order in taken or order != int(order):
            notes.add("transform constraints Spine never runs (an order outside 0 to the constraint "
                      "count - 1, or one another constraint has; not imported)", c["name"])
            continue
        taken.add(order)
        if c["target"] == root or root in names:
            notes.add("transform constraints on or toward the root bone (RigEditor's character space; "
                      "not imported)", c["name"])
            continue
        if any(b in turns for b in [c["target"], *names]):
            notes.add("transform constraints on IK parents whose child is off their axis (approximated)",
                      c["name"])
        offsets = {ours: (math.radians(c.get(s, 0.0)) if angle else float(c.get(s, 0.0)))
                   for s, ours, angle in _OFFSETS}
        mixes = {m: constant(float(v)) for m, v in zip(MIXES, spine_mixes(c))}
        out.append(TransformConstraint(c["name"], tuple(names), c["target"], int(c.get("order", 0)),
                                       bool(c.get("local", False)), bool(c.get("relative", False)),
                                       **mixes, **offsets))
    return tuple(out)


def transform_timelines(project, anim: dict, name: str, fps: float, notes, channel):
    """``project`` with the mixes keyed as animation ``name``'s ``transform`` timelines."""
    known = {t.name for t in project.transforms}
    for cname, keys in (anim.get("transform") or {}).items():
        if cname not in known or not keys:
            continue
        t = project.transform(cname)
        changes = {}
        first_shear = spine_mixes(keys[0])[5]
        for j, (ours, spine) in enumerate(zip(MIXES, SPINE_MIXES)):
            one = []
            for i, k in enumerate(keys):
                curve = k.get("curve")
                value = spine_mixes(k)[j]
                if j == 5:
                    # spine-core 4.2's JSON reader keeps the first key's shear-y mix for
                    # every key of the timeline, though a bezier segment's inner points
                    # still head for the next key's own: the mix as the runtime plays it.
                    one.append({"time": k.get("time", 0.0), "mix": first_shear,
                                **({"curve": curve} if curve == "stepped" else {})})
                    if isinstance(curve, list) and len(curve) >= 24 and i + 1 < len(keys):
                        t0, t1 = float(k.get("time", 0.0)), float(keys[i + 1].get("time", 0.0))
                        c = np.asarray(curve[20:24], dtype=float).reshape(1, 4)
                        for tk, v in runtime_points(t0, np.array([first_shear]), c, t1,
                                                    np.array([spine_mixes(keys[i + 1])[5]])):
                            if t0 < tk < t1:
                                one.append({"time": tk, "mix": float(v[0])})
                    continue
                if isinstance(curve, list):
                    curve = curve[4 * j:4 * j + 4] or None
                one.append({"time": k.get("time", 0.0), "mix": value,
                            **({"curve": curve} if curve is not None else {})})
            at = f"animations.{name}.transform.{cname}"
            ch, _ = channel(one, ("mix",), 1.0, fps, setup=getattr(t, ours).default, where=at)
            changes[ours] = ch
        project = project.with_transform(cname, **changes)
    return project


__all__ = ["transform_constraints", "transform_timelines", "spine_mixes", "SPINE_MIXES", "replace"]
