"""Colours and sizes shared by every view, so a space or a cause reads the same
everywhere (scene, timeline, curves, inspector)."""
from __future__ import annotations

from PySide6.QtGui import QColor

# Declared spaces: world is the reference demo's blue; the character green; scene
# objects take the next colour of a fixed cycle (stable per name order).
SPACE_COLORS = {"world": QColor("#2f7cf6"), "character": QColor("#2fae5b")}
OBJECT_SPACE_CYCLE = [QColor("#e08a1e"), QColor("#a45ee5"), QColor("#d9477a"), QColor("#1fa7a7")]

# Residual causes (rigeditor.model.bake.CAUSES).
CAUSE_COLORS = {
    "none": QColor("#7a8699"),
    "out_of_reach": QColor("#e0a31e"),
    "soft_reach": QColor("#3fa7d6"),
    "limit": QColor("#c25ee0"),
    "mix": QColor("#8b95a5"),
    "unexplained": QColor("#e5322d"),
}
CAUSE_LABELS = {
    "none": "on target",
    "out_of_reach": "out of reach",
    "soft_reach": "soft reach",
    "limit": "limit binds",
    "mix": "FK mix",
    "unexplained": "UNEXPLAINED",
}

BONE_FK = QColor("#c9ced6")
BONE_IK = QColor("#f2c14e")
BONE_OUTLINE = QColor("#2b2f36")
SELECTION = QColor("#ff5d8f")
BACKGROUND = QColor("#30343b")
GRID_MINOR = QColor("#373b43")
GRID_MAJOR = QColor("#41464f")
TEXT = QColor("#e6e9ee")

HANDLE_RADIUS_PX = 8  # target handles keep this screen size at any zoom
JOINT_RADIUS_PX = 4

# Jitter legend: sensitivity in degrees per model unit, mapped green -> red.
SENSITIVITY_SAFE_DEG = 0.5
SENSITIVITY_DANGER_DEG = 5.0


def space_color(project, space: str) -> QColor:
    if space in SPACE_COLORS:
        return QColor(SPACE_COLORS[space])
    others = [s.name for s in project.spaces if s.name not in SPACE_COLORS]
    i = others.index(space) if space in others else 0
    return QColor(OBJECT_SPACE_CYCLE[i % len(OBJECT_SPACE_CYCLE)])


def sensitivity_color(deg_per_unit: float) -> QColor:
    """Green below SAFE, red above DANGER, through yellow on a log scale."""
    import math

    lo, hi = math.log(SENSITIVITY_SAFE_DEG), math.log(SENSITIVITY_DANGER_DEG)
    t = (math.log(max(deg_per_unit, 1e-9)) - lo) / (hi - lo)
    t = min(max(t, 0.0), 1.0)
    hue = (1.0 - t) * 120.0 / 360.0  # 120 deg = green, 0 = red
    return QColor.fromHsvF(hue, 0.85, 0.95)
