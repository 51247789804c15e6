"""Dragging a picture in the scene (Setup mode): its offset in its bone's frame
follows the pointer; one undo step per drag, Esc cancels."""
from __future__ import annotations

import numpy as np

from rigeditor import edits
from rigeditor.app.scene.gestures import _DocDrag
from rigeditor.model.data.attachments import NONE
from rigeditor.model.data.project import CHARACTER


class SlotDrag(_DocDrag):
    """Move the picture ``slot`` shows at the current frame by the pointer's motion,
    measured in the frame of the bone that carries it at this frame."""

    def __init__(self, doc, slot: str, press_world):
        self.doc, self.slot = doc, slot
        self.start = doc.project
        s = doc.project.art.slot(slot)
        self.attachment = s.attachment.value_at(doc.frame)
        bake, row = doc.bake, doc.row
        holder = (bake.spaces[CHARACTER].take(row) if s.bone is None
                  else bake.bone(s.bone).world.take(row))
        self.to_local = holder.inverse()
        self.press = np.asarray(press_world, float)
        a = s.find(self.attachment) if self.attachment != NONE else None
        self.origin = None if a is None else np.array([a.x, a.y])
        self.key = ("drag", doc.begin_gesture())

    def move(self, world) -> None:
        if self.origin is None:
            return
        d = self.to_local.apply_vector(np.asarray(world, float) - self.press)
        x, y = (float(v) for v in self.origin + d)
        try:
            after = edits.set_placement(self.start, self.slot, self.attachment, x=x, y=y)
        except edits.EditError:
            return
        self.doc.apply(f"Move {self.attachment}", after, merge_key=self.key)
        self.moved = True
