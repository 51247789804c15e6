"""Semantic checks of path attachments (``slots[i].paths[k].field: what``) and path
constraints (``paths[i].field: what``); called by ``validation.project.problems``."""
from __future__ import annotations

import math

from rigeditor.model.data.path_constraint import CHANNELS, POSITION_MODES, ROTATE_MODES, SPACING_MODES
from rigeditor.model.validation.constraint_common import MAX_MAGNITUDE, bone_list, integer_order, unique_name


def _finite(out, where, v) -> None:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        out.append(f"{where}: must be a finite number, got {v!r}")
    elif abs(v) > MAX_MAGNITUDE:
        out.append(f"{where}: magnitude must be <= {MAX_MAGNITUDE:g}, got {v:g}")


def path_attachment_problems(art, bone_names) -> list[str]:
    out: list[str] = []
    for i, slot in enumerate(art.slots):
        names = {(a.name, a.skin) for a in slot.attachments}
        for k, p in enumerate(slot.paths):
            where = f"slots[{i}].paths[{k}]"
            if not isinstance(p.name, str) or not p.name.strip():
                out.append(f"{where}.name: must be a non-empty name, got {p.name!r}")
            elif (p.name, p.skin) in names:
                out.append(f"{where}.name: duplicate attachment name {p.name!r} in skin {p.skin!r}")
            names.add((p.name, p.skin))
            if p.skin and p.skin not in art.skins:
                out.append(f"{where}.skin: unknown skin {p.skin!r}")
            count = p.vertex_count
            if count % 3 or count < 3:
                out.append(f"{where}.vertices: a path needs a whole multiple of 3 vertices (handle, point, "
                           f"handle), at least 3, got {count}")
            if len(p.lengths) != count // 3:
                out.append(f"{where}.lengths: must give {count // 3} lengths (one a point), got {len(p.lengths)}")
            for j, v in enumerate(p.lengths):
                _finite(out, f"{where}.lengths[{j}]", v)
            for j, v in enumerate(p.vertices):
                for axis, x in zip("xy", v):
                    _finite(out, f"{where}.vertices[{j}].{axis}", x)
            for j, b in enumerate(p.bones):
                if b is not None and b not in bone_names:
                    out.append(f"{where}.bones[{j}]: unknown bone {b!r}")
            for j, inf in enumerate(p.influences):
                if not inf:
                    out.append(f"{where}.influences[{j}]: a weighted vertex needs at least one bone")
                for m, (b, x, y, w) in enumerate(inf):
                    if not (isinstance(b, int) and 0 <= b < len(p.bones)):
                        out.append(f"{where}.influences[{j}][{m}].bone: must index bones (0 to "
                                   f"{len(p.bones) - 1}), got {b!r}")
                    for name, v in (("x", x), ("y", y), ("weight", w)):
                        _finite(out, f"{where}.influences[{j}][{m}].{name}", v)
    return out


def path_problems(project, channel_check) -> list[str]:
    """channel_check(out, where, channel, dim): the project's channel checks."""
    out: list[str] = []
    bones = {b.name for b in project.bones}
    slots = {s.name for s in project.art.slots}
    seen: set[str] = set()
    for i, c in enumerate(project.paths):
        where = f"paths[{i}]"
        unique_name(out, where, c, seen, "path constraint")
        bone_list(out, where, c.bones, bones, "path constraint")
        if c.target not in slots:
            out.append(f"{where}.target: unknown slot {c.target!r}")
        integer_order(out, where, c)
        for field, allowed in (("position_mode", POSITION_MODES), ("spacing_mode", SPACING_MODES),
                               ("rotate_mode", ROTATE_MODES)):
            if getattr(c, field) not in allowed:
                out.append(f"{where}.{field}: must be one of {', '.join(allowed)}, got {getattr(c, field)!r}")
        _finite(out, f"{where}.offset_rotation", c.offset_rotation)
        for ch in CHANNELS:
            channel_check(out, f"{where}.{ch}", getattr(c, ch), 1)
    return out


__all__ = ["path_attachment_problems", "path_problems"]
