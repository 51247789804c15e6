"""The artwork part of ``rigeditor report``: the crack check per joint, the collapse
per mesh and joint, and what of them fails the report (``--fail-on crack,collapse``).

A crack is keyed ``"parent_slot|child_slot"``; one skinned mesh across a joint (it
meets itself there, and its crack is what shows through inside it) is keyed
``"slot@joint"``, so a mesh over three bones has one entry per joint."""
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
        one = c.parent_slot == c.child_slot
        key = f"{c.parent_slot}@{c.joint}" if one else f"{c.parent_slot}|{c.child_slot}"
        if key in out:  # the same two slots meet again at another joint
            key = f"{key}@{c.joint}"
        biggest = round(float(c.area[worst]), 3) if c.area.size else 0.0
        out[key] = {
            "joint": c.joint, "slots": [c.parent_slot, c.child_slot], "one_mesh": one, "radius": json_number(c.radius),
            "max": json_number(biggest), "max_frame": json_number(frames[worst]) if biggest else None,
            "frames": frames_where(frames, c.area > MIN_AREA),
        }
    return out


def crack_failures(entries: dict):
    """(key, title, [("crack", line)]) per joint; the line names the joint and the frames."""

    for key, c in entries.items():
        title = _crack_name(key, c)
        found = [("crack", f"crack {title}: open on frames {frame_ranges(c['frames'])} (max {c['max']:.1f} "
                           f"px² at frame {c['max_frame']:g})")] if c["frames"] else []
        yield key, title, found


def _crack_name(key: str, c: dict) -> str:
    parent, child = c["slots"]
    return f"{parent} across joint {c['joint']}" if c["one_mesh"] else f"{parent}|{child} at joint {c['joint']}"


def crack_lines(entries: dict) -> list[str]:
    lines = []
    for key, c in entries.items():
        where = frame_ranges(c["frames"]) or "none"
        biggest = (f"max {c['max']:.1f} px² at frame {short(c['max_frame'])}" if c["max_frame"] is not None
                   and round(c["max"], 1) else "none")
        if c["one_mesh"]:
            lines.append(f"crack {c['slots'][0]} across joint {c['joint']} (one mesh: holes within "
                         f"{short(c['radius'])} units): {biggest}; open on {where}")
        else:
            lines.append(f"crack {key} (joint {c['joint']}, within {short(c['radius'])} units): {biggest}; "
                         f"open on {where}")
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


def collapse_failures(entries: dict):
    """(key, title, [("collapse", line)]) per mesh and joint ("slot/attachment@joint")."""

    for name, m in entries.items():
        for joint, j in m["joints"].items():
            found = [("collapse", f"collapse {name} at joint {joint}: a triangle below "
                                  f"{100 * m['threshold']:.0f} % of its area or flipped on frames "
                                  f"{frame_ranges(j['frames'])} (worst {100 * j['worst']:.0f} % at frame "
                                  f"{j['worst_frame']:g})")] if j["frames"] else []
            yield f"{name}@{joint}", f"{name} at joint {joint}", found


def collapse_lines(entries: dict) -> list[str]:
    lines = []
    for name, m in entries.items():
        for joint, j in m["joints"].items():
            lines.append(f"collapse {name} at joint {joint}: worst triangle keeps {100 * j['worst']:.0f} % of its "
                         f"area at frame {short(j['worst_frame'])}; collapsed (< {100 * m['threshold']:.0f} % or "
                         f"flipped) on {frame_ranges(j['frames']) or 'none'}")
    return lines
