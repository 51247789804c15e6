"""Room for the views' cached items (QGraphicsItem.DeviceCoordinateCache).

The curves, graph and timeline views cache each curve as a pixmap the size of its
plot so a playhead moving across them repaints the line, not the curves. Qt keeps
those pixmaps in QPixmapCache, 10 MB by default: a 50-bone chain's angle curves in a
700x520 dock need about 75 MB, so with the default every frame change evicted the
pixmaps and re-rendered all of them (scrubbing a 50-bone tail: 5 fps).
"""
from __future__ import annotations

from PySide6.QtGui import QPixmapCache

CACHE_KB = 256 * 1024  # at most this much memory for cached items (kB), once used


def make_room() -> None:
    """Raise Qt's pixmap cache limit to CACHE_KB (never lowers a larger one)."""
    if QPixmapCache.cacheLimit() < CACHE_KB:
        QPixmapCache.setCacheLimit(CACHE_KB)
