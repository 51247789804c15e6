"""Semantic checks of transform constraints, each problem with where it is
(``transforms[i].field: what``); called by ``validation.project.problems``."""
from __future__ import annotations

import math

from rigeditor.model.data.constraints import MIXES, OFFSETS
from rigeditor.model.validation.constraint_common import MAX_MAGNITUDE, bone_list, integer_order, unique_name



def transform_problems(project, channel_check) -> list[str]:
    """channel_check(out, where, channel, dim): the project's channel checks."""
    out: list[str] = []
    bones = {b.name for b in project.bones}
    seen: set[str] = set()
    for i, t in enumerate(project.transforms):
        where = f"transforms[{i}]"
        unique_name(out, where, t, seen, "transform constraint")
        bone_list(out, where, t.bones, bones, "transform constraint",
                  lambda name, t=t: f"bone {name!r} is the constraint's own target" if name == t.target else None)
        if t.target not in bones:
            out.append(f"{where}.target: unknown bone {t.target!r}")
        integer_order(out, where, t)
        for flag in ("local", "relative"):
            if not isinstance(getattr(t, flag), bool):
                out.append(f"{where}.{flag}: must be true or false, got {getattr(t, flag)!r}")
        for m in MIXES:
            channel_check(out, f"{where}.{m}", getattr(t, m), 1)
        for o in OFFSETS:
            x = getattr(t, o)
            angle = o in ("offset_rotation", "offset_shear_y")
            if not (isinstance(x, (int, float)) and math.isfinite(x) and abs(x) <= MAX_MAGNITUDE):
                shown = f"{math.degrees(x):g} deg" if angle and isinstance(x, float) and math.isfinite(x) else repr(x)
                out.append(f"{where}.{o}: must be a finite number of magnitude <= {MAX_MAGNITUDE:g}, got {shown}")
    return out
