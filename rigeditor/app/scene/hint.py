"""The hint a scene without bones shows: how to draw the first bone and go on from
there, or start from one's art (Import PSD, Import Images), a Spine rig (Import Spine)
or an example. With pictures already in (an imported PSD or folder of PNGs) it says
how to rig them instead, and keeps off them.

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
ART_TITLE = "Your art is in: now give it bones"
PAD, GAP, KEY_GAP = 14.0, 5.0, 14.0
SHOWN_EXAMPLES = ("arm", "walk", "dressed_walk")
"""The examples the hint names (the menu lists them all; the card stays narrow)."""
AVOID_PX = 40.0  # room kept clear around the character's origin (its marker and label)


def rows(tool: str, art: bool = False) -> list[tuple[str, str]]:
    """(key, what it does) lines of the hint; ``tool`` is the scene's current tool;
    ``art``: the project has pictures (no more talk of importing them)."""
    if art:
        draw = ("Bone tool is on: drag over a picture to draw its bone" if tool == "bone"
                else "Bone tool: then drag over a picture to draw its bone")
        return [
            (KEYS["bone"], draw),
            ("", "drag from a bone's tip to draw the next one, joined to it"),
            ("", "then bind each picture: select it, Inspector \u25b8 Bone"),
            (KEYS["add_chain"], "with two joined bones selected: an IK chain and a target to drag"),
        ]
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


def text(tool: str = "select", art: bool = False) -> str:
    """The hint as plain text (what the scene draws)."""
    return "\n".join([ART_TITLE if art else TITLE] + [f"{k}  {what}" if k else what for k, what in rows(tool, art)])


def _fonts():
    body = label_font()
    body.setPointSizeF(body.pointSizeF() + 1)
    title = QFont(body)
    title.setPointSizeF(body.pointSizeF() + 2)
    title.setBold(True)
    keyf = QFont(body)
    keyf.setBold(True)
    return body, title, keyf


def _measure(tool: str, art: bool):
    """(lines, title, key column width, text column width, card width, card height)."""
    body, title, keyf = _fonts()
    fb, ft, fk = QFontMetricsF(body), QFontMetricsF(title), QFontMetricsF(keyf)
    lines, head = rows(tool, art), ART_TITLE if art else TITLE
    key_w = max(fk.horizontalAdvance(k) for k, _ in lines)
    text_w = max(fb.horizontalAdvance(t) for _, t in lines)
    w = max(ft.horizontalAdvance(head), key_w + KEY_GAP + text_w) + 2 * PAD
    h = PAD + ft.height() + 2 * GAP + (fb.height() + GAP) * len(lines) + PAD - GAP
    return lines, head, key_w, text_w, w, h


def _top(viewport: QRectF) -> float:
    return viewport.top() + max(min(viewport.height() * 0.12, 90.0), 44.0)  # below the mode badge


def clear_top(viewport: QRectF, tool: str, art: bool = False) -> float:
    """Device y below which the card, in its usual place, leaves the view free: the
    view frames what it shows there while the hint is up."""
    return _top(viewport) + _measure(tool, art)[5] + 2 * GAP


def _overlap(a: QRectF, b: QRectF) -> float:
    r = a.intersected(b)
    return max(r.width(), 0.0) * max(r.height(), 0.0)


def draw_start_hint(p: QPainter, viewport: QRectF, tool: str, avoid=None, art: QRectF | None = None) -> QRectF:
    """Paint the hint card centred near the top of ``viewport`` (device pixels, the
    painter untransformed), or below ``avoid`` (a device point, the character's origin:
    where the first bone usually starts) when the card would cover it; returns the
    card's rectangle. ``art``: the device box of the project's pictures (None: none):
    the card tells how to rig them and goes where it covers least of them and the
    origin (above or below them when there is room)."""
    body, title, keyf = _fonts()
    fb, ft = QFontMetricsF(body), QFontMetricsF(title)
    lines, head, key_w, text_w, w, h = _measure(tool, art is not None)
    line_h = fb.height() + GAP
    x = viewport.left() + max((viewport.width() - w) / 2, 8.0)
    y = _top(viewport)
    card = QRectF(x, y, w, h)
    if art is not None:
        keep = QRectF(art)
        if avoid is not None:
            keep = keep.united(QRectF(avoid.x() - AVOID_PX, avoid.y() - AVOID_PX, 2 * AVOID_PX, 2 * AVOID_PX))
        low = max(viewport.bottom() - h - 8.0, viewport.top())
        spots = [y, keep.bottom() + GAP, keep.top() - GAP - h, low]
        fits = [t for t in spots if viewport.top() + 8.0 <= t and t + h <= viewport.bottom() - 8.0] or [y, low]
        # The first free spot, else the one hiding the least of the pictures.
        y = min(fits, key=lambda t: (_overlap(QRectF(x, t, w, h), keep) > 0, _overlap(QRectF(x, t, w, h), keep)))
        card.moveTop(y)
    elif avoid is not None:
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
    p.drawText(QRectF(x + PAD, cy, w - 2 * PAD, ft.height()), Qt.AlignLeft | Qt.AlignVCenter, head)
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
