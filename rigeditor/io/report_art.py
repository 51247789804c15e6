"""The artwork part of ``rigeditor report``: the crack check per joint."""
from __future__ import annotations

import numpy as np

from rigeditor.io.report_text import frame_ranges, frames_where, json_number, short
from rigeditor.model.diagnostics.cracks import MIN_AREA


def crack_entries(cracks, frames) -> dict:
    """{"parent_slot|child_slot": {...}} per joint: max area and its frame, the frames
    whose crack exceeds MIN_AREA px²."""
    out = {}
    for c in cracks:
        worst = int(np.argmax(c.area)) if c.area.size else 0
        out[f"{c.parent_slot}|{c.child_slot}"] = {
            "joint": c.joint, "radius": json_number(c.radius),
            "max": json_number(round(float(c.area[worst]), 3)) if c.area.size else 0.0,
            "max_frame": json_number(frames[worst]) if c.area.size else None,
            "frames": frames_where(frames, c.area > MIN_AREA),
        }
    return out


def crack_lines(entries: dict) -> list[str]:
    lines = []
    for name, c in entries.items():
        where = frame_ranges(c["frames"]) or "none"
        lines.append(f"crack {name} (joint {c['joint']}, within {short(c['radius'])} units): max {c['max']:.1f} px² "
                     f"at frame {short(c['max_frame'])}; open on {where}")
    return lines


def collapse_entries(bake) -> dict:
    """{"slot/attachment": {...}} per mesh: the worst triangle area ratio over the
    frames it shows and its frame, and per joint its worst ratio, frame, and the frames
    where a triangle there collapsed (below COLLAPSE_RATIO of its bind area, or flipped)."""
    from rigeditor.core.skinning import COLLAPSE_RATIO
    out = {}
    frames = bake.frames
    for pose in (bake.art.meshes if bake.art is not None else ()):
        if not pose.shown.any():
            continue
        joints = {}
        for joint, w in pose.joint_worst.items():
            shown = np.where(pose.shown, w, np.inf)
            k = int(np.argmin(shown))
            joints[joint] = {"worst": json_number(round(float(w[k]), 4)), "worst_frame": json_number(frames[k]),
                             "frames": frames_where(frames, pose.shown & (w < COLLAPSE_RATIO))}
        worst = min(joints.values(), key=lambda e: e["worst"])
        out[f"{pose.slot}/{pose.mesh.name}"] = {"threshold": COLLAPSE_RATIO, "worst": worst["worst"],
                                                "worst_frame": worst["worst_frame"], "joints": joints}
    return out


def collapse_lines(entries: dict) -> list[str]:
    lines = []
    for name, m in entries.items():
        for joint, j in m["joints"].items():
            lines.append(f"collapse {name} at joint {joint}: worst triangle keeps {100 * j['worst']:.0f} % of its "
                         f"area at frame {short(j['worst_frame'])}; collapsed (< {100 * m['threshold']:.0f} % or "
                         f"flipped) on {frame_ranges(j['frames']) or 'none'}")
    return lines
