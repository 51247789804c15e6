"""Colours and sizes shared by every view, so a space or a cause reads the same
everywhere (scene, timeline, curves, inspector)."""
from __future__ import annotations

from PySide6.QtGui import QColor

# Declared spaces: world is the reference demo's blue; the character green; scene
# objects take the next colour of a fixed cycle (stable per name order).
SPACE_COLORS = {"world": QColor("#2f7cf6"), "character": QColor("#2fae5b")}
OBJECT_SPACE_CYCLE = [QColor("#e08a1e"), QColor("#a45ee5"), QColor("#d9477a"), QColor("#1fa7a7")]

# Residual causes (rigeditor.model.evaluation.bake.CAUSES).
CAUSE_COLORS = {
    "none": QColor("#7a8699"),
    "out_of_reach": QColor("#e0a31e"),
    "soft_reach": QColor("#3fa7d6"),
    "limit": QColor("#c25ee0"),
    "mix": QColor("#8b95a5"),
    "budget": QColor("#a0c84a"),
    "constraint": QColor("#b58cf0"),  # as the constraint links
    "unexplained": QColor("#e5322d"),
    "sheared": QColor("#b58cf0"),  # Spine's reach with the shear on: as a constraint's
}
CAUSE_LABELS = {
    "none": "on target",
    "out_of_reach": "out of reach",
    "soft_reach": "soft reach",
    "limit": "limit binds",
    "mix": "FK mix",
    "budget": "out of iterations",
    "constraint": "moved by a constraint",
    "unexplained": "UNEXPLAINED",
    "sheared": "sheared reach (Spine)",
}

BONE_FK = QColor("#c9ced6")
BONE_IK = QColor("#f2c14e")
CONSTRAINT_LINK = QColor("#b58cf0")  # transform constraints: bone to target, dashed
PATH_CURVE = QColor("#5ec8e5")  # path attachments: the curve path constraints follow
BONE_OUTLINE = QColor("#2b2f36")
SELECTION = QColor("#ff5d8f")
PARENT = QColor("#4cc2ff")  # the bone tool's parent-to-be, while a new bone is drawn
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

# Timeline and curves.
PLAYHEAD = QColor("#ff7a45")  # the current frame, in every time view
KEY = QColor("#d7dce4")  # a key on an interpolated track
KEY_STEPPED = QColor("#f2c14e")  # a key on a stepped track (bend)
KEY_OUTLINE = QColor("#16181c")
ROW_ALTERNATE = QColor("#353941")  # every other track row
ROW_SELECTED = QColor(255, 93, 143, 38)  # rows of the selected items (SELECTION, faint)
OUTSIDE_LOOP = QColor(0, 0, 0, 70)  # dims frames outside the loop range
LOOP = QColor(47, 124, 246, 110)  # the loop bar on the ruler
RULER = QColor("#282b31")
TRACK_ROW_PX = 22  # height of one track row in the timeline
KEY_SIZE_PX = 11
# Curves of a chain's bones, in chain order (root first).
BONE_CURVE_CYCLE = [QColor("#5fb3f9"), QColor("#f2994a"), QColor("#6fcf97"), QColor("#bb6bd9")]

# Scene (the central view) and its overlays.
GRID_AXIS = QColor("#4f5662")  # the x = 0 and y = 0 lines
HANDLE_RING = QColor("#f4f6f9")  # the rim of a target handle
HOVER = QColor("#ffffff")
LABEL_BACKGROUND = QColor(24, 26, 30, 190)  # behind text drawn over the rig
REACH_RING = QColor("#9aa7b8")  # reach circles |a-b| and a+b
SOFT_BAND = QColor(63, 167, 214, 60)  # soft-reach band (CAUSE_COLORS["soft_reach"], faint)
LIMIT_ARC = QColor("#8fd3c5")  # allowed range of a limited joint
GHOST = QColor("#b9c2cf")  # the mirror solution (other bend)
ONION_BEFORE = QColor("#ff6b6b")  # earlier frames
ONION_AFTER = QColor("#4cd98c")  # later frames
LIMIT_ARC_RADIUS_PX = 26
LABEL_FONT_PT = 9
HUD_BACKGROUND = QColor(34, 37, 42)  # opaque corner panels of the scene (mode/frame, legend)

# Panels (docks, menus, forms, the inspector) share the scene's dark theme.
PANEL = QColor("#2b2e34")
PANEL_BASE = QColor("#23262b")  # inputs and lists
PANEL_BUTTON = QColor("#3a3f47")
PANEL_DISABLED_TEXT = QColor("#7d8593")
HINT_TEXT = QColor("#8b95a5")
ACCENT = QColor("#2f7cf6")  # focus and list selection (the world blue)
MODE_COLORS = {"setup": QColor("#3fa7d6"), "animate": QColor("#e0532d")}  # mode badges


def dark_palette():
    """The application palette for the panels (Fusion style), matching the scene."""
    from PySide6.QtGui import QPalette

    p = QPalette()
    role = QPalette.ColorRole
    for r, c in ((role.Window, PANEL), (role.WindowText, TEXT), (role.Base, PANEL_BASE),
                 (role.AlternateBase, PANEL), (role.Text, TEXT), (role.Button, PANEL_BUTTON),
                 (role.ButtonText, TEXT), (role.ToolTipBase, PANEL_BASE), (role.ToolTipText, TEXT),
                 (role.PlaceholderText, HINT_TEXT), (role.Highlight, ACCENT),
                 (role.HighlightedText, QColor("#ffffff")), (role.Link, QColor("#6aa8ff")),
                 (role.BrightText, QColor("#ff5d5d")), (role.Light, QColor("#4a505a")),
                 (role.Midlight, QColor("#40454e")), (role.Mid, QColor("#30343b")),
                 (role.Dark, QColor("#1c1e22")), (role.Shadow, QColor("#111214"))):
        p.setColor(r, c)
    for r in (role.WindowText, role.Text, role.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, r, PANEL_DISABLED_TEXT)
    return p
