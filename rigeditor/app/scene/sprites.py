"""Single shapes kept as small pictures while they stay put.

Qt's antialiased fill of a thin slanted shape costs far more than its few pixels
suggest (a 5 px band 150 px long: 100-200 us, most of a layer's paint). A shape drawn
alone into a cleared premultiplied picture holds, at each pixel, the colour times the
coverage Qt blends; compositing that picture 1:1 "source over" blends it as the shape's
own fill would, to the bit. So a shape whose device geometry did not change since it
was last drawn is drawn from its picture: one ``drawImage`` (1.5-8 us against 40-320 us
for a band 40-480 px long). The picture sits on whole device pixels, so the
shape lies on the pixel grid as it would when drawn directly.

Only for shapes drawn alone in one colour under "source over" at full opacity (the
caller's part: overlapping parts of one shape would blend twice, the other modes do
not distribute this way).
"""
from __future__ import annotations

import math

from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage, QPainter

MAX_SPRITES = 256
"""Most pictures kept (then all are dropped): a rig shows a few dozen such shapes."""
MARGIN_PX = 2
"""Device pixels around a shape's box that its antialiased edge may touch."""


class Sprites:
    """Pictures of shapes by (their exact geometry and look, the device's pixel ratio)."""

    def __init__(self):
        self._kept: dict = {}
        self._seen: set = set()  # keys drawn once, directly

    def draw(self, painter: QPainter, key, box, paint) -> None:
        """Draw the shape ``paint(painter)`` draws (logical px) inside ``box`` (x0, y0,
        x1, y1): directly the first time ``key`` is asked for (a moving shape: making
        its picture costs 1.3-2x a direct draw), from its picture from the second on."""
        ratio = painter.device().devicePixelRatioF()
        hit = self._kept.get((key, ratio))
        if hit is None:
            if (key, ratio) not in self._seen:
                if len(self._seen) >= 4 * MAX_SPRITES:
                    self._seen.clear()
                self._seen.add((key, ratio))
                paint(painter)
                return
            if len(self._kept) >= MAX_SPRITES:
                self._kept.clear()
            hints = painter.renderHints()

            def keep(p):
                p.setRenderHints(hints)
                paint(p)

            hit = self._kept[(key, ratio)] = picture_on_pixels(box, ratio, keep)
        painter.drawImage(hit[1], hit[0])


def picture_on_pixels(box, ratio: float, paint, margin: int = MARGIN_PX):
    """(picture, its origin): what ``paint(p)`` draws inside ``box`` (x0, y0, x1, y1,
    logical px) in a cleared premultiplied picture of device pixel ratio ``ratio``,
    ``margin`` device pixels around, its origin on a whole device pixel (so what is
    drawn lies on the pixel grid as it would drawn directly). Draw it with
    ``drawImage(origin, picture)``."""
    ox = math.floor(box[0] * ratio - margin) / ratio
    oy = math.floor(box[1] * ratio - margin) / ratio
    w = math.ceil(box[2] * ratio + margin) - round(ox * ratio)
    h = math.ceil(box[3] * ratio + margin) - round(oy * ratio)
    picture = QImage(max(w, 1), max(h, 1), QImage.Format.Format_ARGB32_Premultiplied)
    picture.setDevicePixelRatio(ratio)
    picture.fill(0)
    p = QPainter(picture)
    try:
        p.translate(-ox, -oy)
        paint(p)
    finally:
        p.end()
    return picture, QPointF(ox, oy)
