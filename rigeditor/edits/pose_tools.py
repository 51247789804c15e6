"""Pose tools (pure functions of a Project, no Qt): copy and paste the pose of
bones, mirror it across left/right names, reset to the setup pose. A pose is each
bone's rotation, translate and scale channel values at a frame; pasting keys them."""
from __future__ import annotations

import re

from rigeditor.edits.posing import key_channel
from rigeditor.model.data.project import Project

CHANNELS = ("rotation", "translate", "scale")
SETUP = {"rotation": (0.0,), "translate": (0.0, 0.0), "scale": (1.0, 1.0)}
_SIDES = [(r"_l$", "_r"), (r"_r$", "_l"), (r"_L$", "_R"), (r"_R$", "_L"), (r"\.l$", ".r"), (r"\.r$", ".l"),
          (r"\.L$", ".R"), (r"\.R$", ".L"), (r"Left", "Right"), (r"Right", "Left"),
          (r"left", "right"), (r"right", "left")]


def mirror_name(name: str) -> str | None:
    """The other side's name (``arm_l`` <-> ``arm_r``, ``LeftHand`` <-> ``RightHand``,
    ``.L``/``.R``), or None when the name has no side."""
    for pattern, other in _SIDES:
        if re.search(pattern, name):
            return re.sub(pattern, other, name, count=1)
    return None


def copy_pose(project: Project, bones, frame: int) -> dict:
    """{bone: {channel: value}} of ``bones`` at ``frame``."""
    return {b: {c: getattr(project.bone(b), c).value_at(frame) for c in CHANNELS} for b in bones}


def paste_pose(project: Project, pose: dict, frame: int, onto=None) -> Project:
    """Key each bone of ``pose`` (or of ``onto``: {target bone: source bone}) at
    ``frame`` where its value differs from what it has there; bones that do not
    exist are skipped. Channels left at their value get no key."""
    names = {b.name for b in project.bones}
    pairs = onto.items() if onto is not None else ((b, b) for b in pose)
    for target, source in pairs:
        if target not in names or source not in pose:
            continue
        bone = project.bone(target)
        changes = {}
        for c in CHANNELS:
            ch, value = getattr(bone, c), tuple(pose[source][c])
            if ch.keys or ch.value_at(frame) != value:
                changes[c] = key_channel(ch, frame, value)
        if changes:
            project = project.with_bone(target, **changes)
    return project


def mirror_pose(project: Project, bones, frame: int) -> Project:
    """Swap the pose of each selected bone with its other side's (``arm_l`` takes
    ``arm_r``'s values and the other way round) at ``frame``, keyed. As in a side
    view, values swap as they are (no sign flip); a bone without a side or without
    its pair keeps its pose."""
    names = {b.name for b in project.bones}
    pairs = {}
    for b in bones:
        other = mirror_name(b)
        if other in names:
            pairs[b], pairs[other] = other, b
    pose = copy_pose(project, list(pairs), frame)
    return paste_pose(project, pose, frame, onto=pairs)


def reset_pose(project: Project, bones, frame: int) -> Project:
    """Key ``bones`` at ``frame`` in the setup pose (no rotation offset, no translate,
    unit scale)."""
    return paste_pose(project, {b: dict(SETUP) for b in bones}, frame)


__all__ = ["mirror_name", "copy_pose", "paste_pose", "mirror_pose", "reset_pose"]
