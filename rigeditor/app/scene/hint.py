"""The hint an empty scene shows: how to draw the first bone and go on from there,
or start from one's art (Import PSD, Import Images), a Spine rig (Import Spine) or an
example.

Drawn by the view over the scene in viewport pixels (it does not pan or zoom) while
the project has no bone; the first bone takes it away, undoing it brings it back.
"""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen

from rigeditor.app import style
from rigeditor.app.scene.paint import label_font
from rigeditor.app.tools import KEYS

TITLE = "An empty rig: start with a bone, or with your art"
PAD, GAP, KEY_GAP = 14.0, 5.0, 14.0
SHOWN_EXAMPLES = ("arm", "walk", "dressed_walk")
"""The examples the hint names (the menu lists them all; the card stays narrow)."""
AVOID_PX = 40.0  # room kept clear around the character's origin (its marker and label)


def rows(tool: str) -> list[tuple[str, str]]:
    """(key, what it does) lines of the hint; ``tool`` is the scene's current tool."""
    draw = ("Bone tool is on: drag in the scene to draw a bone" if tool == "bone"
            else "Bone tool: then drag in the scene to draw a bone")
    return [
        (KEYS["bone"], draw),
        ("", "drag from a bone's tip to draw the next one, joined to it"),
        (KEYS["add_chain"], "with two joined bones selected: an IK chain and a target to drag"),
        (KEYS["select"], "Select tool: click to select, drag targets and bones"),
        ("", "or your art: File \u25b8 Import PSD\u2026, Import Images\u2026 (PNGs) or Import Spine\u2026"),
        ("", f"or an example: File \u25b8 New from Example ({', '.join(SHOWN_EXAMPLES)}\u2026)"),
    ]


def text(tool: str = "select") -> str:
    """The hint as plain text (what the scene draws)."""
    return "\n".join([TITLE] + [f"{k}  {what}" if k else what for k, what in rows(tool)])


def draw_start_hint(p: QPainter, viewport: QRectF, tool: str, avoid=None) -> QRectF:
    """Paint the hint card centred near the top of ``viewport`` (device pixels, the
    painter untransformed), or below ``avoid`` (a device point, the character's origin:
    where the first bone usually starts) when the card would cover it; returns the
    card's rectangle."""
    body = label_font()
    body.setPointSizeF(body.pointSizeF() + 1)
    title = QFont(body)
    title.setPointSizeF(body.pointSizeF() + 2)
    title.setBold(True)
    keyf = QFont(body)
    keyf.setBold(True)
    fb, ft, fk = QFontMetricsF(body), QFontMetricsF(title), QFontMetricsF(keyf)
    lines = rows(tool)
    key_w = max(fk.horizontalAdvance(k) for k, _ in lines)
    text_w = max(fb.horizontalAdvance(t) for _, t in lines)
    w = max(ft.horizontalAdvance(TITLE), key_w + KEY_GAP + text_w) + 2 * PAD
    line_h = fb.height() + GAP
    h = PAD + ft.height() + 2 * GAP + line_h * len(lines) + PAD - GAP
    x = viewport.left() + max((viewport.width() - w) / 2, 8.0)
    y = viewport.top() + max(min(viewport.height() * 0.12, 90.0), 44.0)  # below the mode badge
    card = QRectF(x, y, w, h)
    if avoid is not None:
        keep = QRectF(avoid.x() - AVOID_PX, avoid.y() - AVOID_PX, 2 * AVOID_PX, 2 * AVOID_PX)
        if card.intersects(keep):
            card.moveTop(keep.bottom() + GAP)
            above = keep.top() - GAP - h
            if card.bottom() > viewport.bottom() and above >= viewport.top() + 8:
                card.moveTop(above)
            elif card.bottom() > viewport.bottom():
                # Neither fits whole: up into the clear room, the origin's marker stays in sight.
                card.moveTop(card.top() - min(card.bottom() - viewport.bottom(), AVOID_PX / 2))
            y = card.top()
    p.setRenderHint(QPainter.Antialiasing)
    p.setPen(QPen(QColor(255, 255, 255, 40), 1.0))
    p.setBrush(QColor(24, 26, 30, 215))
    p.drawRoundedRect(card, 8, 8)
    p.setPen(style.TEXT)
    p.setFont(title)
    cy = y + PAD
    p.drawText(QRectF(x + PAD, cy, w - 2 * PAD, ft.height()), Qt.AlignLeft | Qt.AlignVCenter, TITLE)
    cy += ft.height() + 2 * GAP
    bone_on = tool == "bone"
    for i, (key, what) in enumerate(lines):
        if key:
            p.setFont(keyf)
            lit = bone_on and i == 0
            p.setPen(style.MODE_COLORS["setup"] if not lit else style.BONE_IK)
            p.drawText(QRectF(x + PAD, cy, key_w, fb.height()), Qt.AlignRight | Qt.AlignVCenter, key)
        p.setFont(body)
        p.setPen(style.TEXT if key else style.HINT_TEXT)
        p.drawText(QRectF(x + PAD + key_w + KEY_GAP, cy, text_w, fb.height()), Qt.AlignLeft | Qt.AlignVCenter, what)
        cy += line_h
    return card
