"""Rasterised meshes kept between repaints (``mesh_raster.draw_raster``).

The rasteriser fills a mesh into a buffer of its own, cleared, then composites that
buffer once: the buffer is a function of the mesh's inputs only (picture, triangles,
texture corners, device corners, the painter's transform, the painted device's box).
A mesh asked for twice in a row with the same inputs (a picture that did not move
while a drag repaints around it) is rasterised once over its whole box and kept; later
repaints composite the rectangles they need from the kept buffer, as they would
composite a fresh one. A mesh whose inputs change every repaint (the dragged one, a
scrub) is never kept and costs what it did.
"""
from __future__ import annotations

import numpy as np

BUDGET_PX = 16_000_000
"""Most pixels kept over all buffers (64 MB); a mesh past it is drawn as before."""
MAX_ENTRIES = 64
"""Most meshes remembered (a rig shows a few dozen at once)."""


class MeshBuffers:
    """Per mesh (picture, triangles): the inputs it was last drawn with, and its whole
    box rasterised once those inputs held for two repaints in a row."""

    def __init__(self):
        self._entries: dict = {}  # (picture key, id(triangles)) -> _Entry
        self._pixels = 0

    def clear(self) -> None:
        self._entries.clear()
        self._pixels = 0

    def lookup(self, picture_key: int, triangles, inputs: tuple):
        """(buffer (H, W) uint32 of the whole box or None, steady): ``steady`` when the
        mesh was last asked for with the same ``inputs`` (arrays) and no buffer is kept
        yet, so the caller rasterises the whole box and ``keep``s it."""
        key = (picture_key, id(triangles))
        e = self._entries.get(key)
        if e is not None and e.triangles is triangles and _same(e.inputs, inputs):
            return e.buffer, e.buffer is None and not e.refused
        if e is not None and e.buffer is not None:
            self._pixels -= e.buffer.size
        if len(self._entries) >= MAX_ENTRIES and key not in self._entries:
            self.clear()
        # Copies: the caller's arrays may be changed in place by the next frame.
        self._entries[key] = _Entry(triangles, tuple(np.array(a, copy=True) for a in inputs))
        return None, False

    def keep(self, picture_key: int, triangles, buffer: np.ndarray | None) -> None:
        """Keep ``buffer`` for the mesh ``lookup`` just found steady; None, or a buffer
        past the budget, refuses it: while its inputs stay, it is not asked for again
        (a mesh rasterised whole on every repaint would cost more than its rectangles)."""
        e = self._entries.get((picture_key, id(triangles)))
        if e is None or e.triangles is not triangles:
            return
        if buffer is None or self._pixels + buffer.size > BUDGET_PX:
            e.refused = True
            return
        e.buffer = buffer
        self._pixels += buffer.size


class _Entry:
    __slots__ = ("triangles", "inputs", "buffer", "refused")

    def __init__(self, triangles, inputs):
        self.triangles = triangles  # held, so its id names it while the entry lives
        self.inputs = inputs
        self.buffer = None
        self.refused = False  # not kept (past the budget, or partly the Qt path's)


def _same(a: tuple, b: tuple) -> bool:
    return len(a) == len(b) and all(x.shape == np.shape(y) and np.array_equal(x, y) for x, y in zip(a, b))
