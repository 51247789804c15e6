"""Semantic checks of physics constraints, each problem with where it is
(``physics[i].field: what``); called by ``validation.project.problems``."""
from __future__ import annotations

import math

from rigeditor.model.data.physics import GLOBALS, KEYED, WEIGHTS

from rigeditor.model.validation.constraint_common import MAX_MAGNITUDE, integer_order, unique_name


def physics_problems(project, channel_check) -> list[str]:
    """channel_check(out, where, channel, dim): the project's channel checks."""
    out: list[str] = []
    bones = {b.name for b in project.bones}
    seen: set[str] = set()
    for i, p in enumerate(project.physics):
        where = f"physics[{i}]"
        unique_name(out, where, p, seen, "physics constraint")
        if p.bone not in bones:
            out.append(f"{where}.bone: unknown bone {p.bone!r}")
        integer_order(out, where, p)
        for k in WEIGHTS + ("limit", "step", "reference_scale"):
            v = getattr(p, k)
            if not (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                    and abs(v) <= MAX_MAGNITUDE):
                out.append(f"{where}.{k}: must be a finite number of magnitude <= {MAX_MAGNITUDE:g}, got {v!r}")
            elif k in ("step", "reference_scale") and v <= 0:
                out.append(f"{where}.{k}: must be > 0, got {v!r}")
            elif k == "limit" and v < 0:
                out.append(f"{where}.limit: must be >= 0, got {v!r}")
        for k in KEYED + ("reset",):
            channel_check(out, f"{where}.{k}", getattr(p, k), 1)
        ch = p.mass
        values = [ch.default[0]] + [key.value[0] for key in ch.keys]
        if any(isinstance(v, (int, float)) and v <= 0 for v in values):
            out.append(f"{where}.mass: must be > 0 (its inverse is used), got {min(values)!r}")
        for g in GLOBALS:
            if not isinstance(getattr(p, g), bool):
                out.append(f"{where}.{g}: must be true or false, got {getattr(p, g)!r}")
    return out
