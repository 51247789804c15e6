"""Semantic checks of transform constraints, each problem with where it is
(``transforms[i].field: what``); called by ``validation.project.problems``."""
from __future__ import annotations

import math

from rigeditor.model.data.constraints import MIXES, OFFSETS

MAX_MAGNITUDE = 1e9  # as validation.project: keeps every evaluation finite


def transform_problems(project, channel_check) -> list[str]:
    """channel_check(out, where, channel, dim): the project's channel checks."""
    out: list[str] = []
    bones = {b.name for b in project.bones}
    seen: set[str] = set()
    for i, t in enumerate(project.transforms):
        where = f"transforms[{i}]"
        if t.name in seen:
            out.append(f"{where}.name: duplicate transform constraint name {t.name!r}")
        seen.add(t.name)
        if not t.bones:
            out.append(f"{where}.bones: a transform constraint needs at least 1 bone")
        for k, name in enumerate(t.bones):
            if name not in bones:
                out.append(f"{where}.bones[{k}]: unknown bone {name!r}")
            elif name in t.bones[:k]:
                out.append(f"{where}.bones[{k}]: bone {name!r} is listed twice")
            elif name == t.target:
                out.append(f"{where}.bones[{k}]: bone {name!r} is the constraint's own target")
        if t.target not in bones:
            out.append(f"{where}.target: unknown bone {t.target!r}")
        if not isinstance(t.order, int) or isinstance(t.order, bool):
            out.append(f"{where}.order: must be an integer, got {t.order!r}")
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
