"""Shape attachments: bounding boxes, points and clipping polygons (pure data, no Qt, no files).

They sit in a slot beside pictures (``Slot.attachments``), are shown by the same
stepped attachment track and skins, and draw no picture:

- a **box** (``kind = "box"``, Spine's bounding box) is a polygon a game hit-tests
  against; the editor draws its outline.
- a **clipping** polygon (``kind = "clipping"``) masks the slots drawn after its own,
  up to and including ``end`` (a slot name; ``""``: to the end of the draw order):
  only the part of each picture inside the polygon is drawn.
- a **point** (``kind = "point"``) is a position and a direction in its slot bone's
  frame (``x``, ``y``, ``rotation`` of the attachment, radians): a muzzle, a hand's grip.

A polygon is either rigid, ``vertices`` (V, 2) placed in its slot bone's frame by the
attachment's ``local()`` (x, y, rotation, scale, as a picture is; the identity as
imported from Spine, so the inspector's placement moves a box like a picture), model
units, y up, or weighted, as Spine keeps it: ``influences`` per vertex, each influence
``(bone, x, y, weight)`` with the vertex in that bone's frame; its world position is
Σ weight · M_bone · (x, y) (its placement unused). ``bones`` names the bones the indices refer to
(``model.data.project.CHARACTER`` for the character space, Spine's root). Weighted
polygons keep Spine's form rather than a bind pose: they have no picture to bind, and
the form is exact whatever the setup pose. ``tint`` is the editor colour of the outline.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rigeditor.model.data.attachments import ImageAttachment

BOX, CLIPPING, POINT = "box", "clipping", "point"
SHAPE_KINDS = (BOX, CLIPPING, POINT)
"""The attachment kinds that draw no picture."""
POLYGON_KINDS = (BOX, CLIPPING)


@dataclass(frozen=True)
class ShapeAttachment(ImageAttachment):
    """A box, clipping polygon or point (see module). ``path``, ``width`` and ``height``
    are unused (no picture): "" and 0."""

    path: str = ""
    width: float = 0.0
    height: float = 0.0
    kind: str = BOX
    vertices: tuple[tuple[float, float], ...] = ()
    bones: tuple[str, ...] = ()
    influences: tuple[tuple[tuple[int, float, float, float], ...], ...] = ()
    end: str = ""

    @property
    def weighted(self) -> bool:
        return bool(self.influences)

    @property
    def count(self) -> int:
        """How many vertices the polygon has (1 for a point)."""
        if self.kind == POINT:
            return 1
        return len(self.influences) if self.weighted else len(self.vertices)

    def corners(self) -> np.ndarray:
        """(4, 2) zeros: a shape has no picture rectangle (its polygon is in the Bake's ``shapes``)."""
        return np.zeros((4, 2))

    def padded(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A weighted polygon as (V, K) bone indices, (V, K) weights (0 pads) and
        (V, K, 2) bone-frame positions, K the most influences of any vertex."""
        k = max((len(v) for v in self.influences), default=1) or 1
        n = len(self.influences)
        idx, w, p = np.zeros((n, k), dtype=int), np.zeros((n, k)), np.zeros((n, k, 2))
        for i, vertex in enumerate(self.influences):
            for j, (b, x, y, weight) in enumerate(vertex):
                idx[i, j], p[i, j], w[i, j] = b, (x, y), weight
        return idx, w, p


def is_shape(a) -> bool:
    """Whether attachment ``a`` draws no picture (a box, clipping polygon or point)."""
    return a.kind in SHAPE_KINDS


__all__ = ["BOX", "CLIPPING", "POINT", "SHAPE_KINDS", "POLYGON_KINDS", "ShapeAttachment", "is_shape"]
