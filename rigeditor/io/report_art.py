"""The artwork part of ``rigeditor report``: the crack check per joint."""
from __future__ import annotations

import numpy as np

from rigeditor.model.cracks import MIN_AREA


def crack_entries(cracks, frames) -> dict:
    """{"parent_slot|child_slot": {...}} per joint: max area and its frame, the frames
    whose crack exceeds MIN_AREA px²."""
    from rigeditor.io.report import _frames, _num

    out = {}
    for c in cracks:
        worst = int(np.argmax(c.area)) if c.area.size else 0
        out[f"{c.parent_slot}|{c.child_slot}"] = {
            "joint": c.joint, "radius": _num(c.radius),
            "max": _num(round(float(c.area[worst]), 3)) if c.area.size else 0.0,
            "max_frame": _num(frames[worst]) if c.area.size else None,
            "frames": _frames(frames, c.area > MIN_AREA),
        }
    return out


def crack_lines(entries: dict) -> list[str]:
    from rigeditor.io.report import _g, _ranges

    lines = []
    for name, c in entries.items():
        where = _ranges(c["frames"]) or "none"
        lines.append(f"crack {name} (joint {c['joint']}, within {_g(c['radius'])} units): max {c['max']:.1f} px² "
                     f"at frame {_g(c['max_frame'])}; open on {where}")
    return lines
