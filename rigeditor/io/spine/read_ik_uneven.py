"""Which IK chains' first bones Spine scales unevenly (scale x != scale y), setup or keyed.

Spine then solves the chain on an ellipse (``constraints.ik_uneven``) and measures and
places the child on its parent's axis, its y offset ignored, as its stretching IK does:
the import puts the child there.
"""
from __future__ import annotations

from rigeditor.model.evaluation.constraints.ik_uneven import UNEVEN


def scaled_unevenly(skel, bone: str) -> bool:
    """Whether Spine bone ``bone`` has uneven scales in its setup pose or at a key of any
    animation (a key's value times the setup scale, per axis; a one-axis timeline
    against the other axis' setup), as Spine compares them: their sizes (a mirror is no
    unevenness)."""
    b = next(x for x in skel.bones if x.name == bone)
    sx, sy = b.scale
    if abs(abs(sx) - abs(sy)) > UNEVEN:
        return True
    for anim in skel.animations.values():
        timelines = (anim.get("bones") or {}).get(bone) or {}
        for key in timelines.get("scale") or []:
            if isinstance(key, dict) and abs(abs(_value(key, "x") * sx) - abs(_value(key, "y") * sy)) > UNEVEN:
                return True
        for kind, own, other in (("scalex", sx, sy), ("scaley", sy, sx)):
            for key in timelines.get(kind) or []:
                if isinstance(key, dict) and abs(abs(_value(key, "value") * own) - abs(other)) > UNEVEN:
                    return True
    return False


def _value(key: dict, field: str) -> float:
    try:
        return float(key.get(field, 1.0))
    except (TypeError, ValueError):
        return 1.0  # the key's own checks refuse it where it is
