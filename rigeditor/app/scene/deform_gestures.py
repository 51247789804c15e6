"""The mesh tool's vertex drag in Animate mode: a deform key at the current frame.

The pointer's world motion since the press moves the vertex by as much, keyed as the
mesh's offsets at this frame (``edits.key_vertex``): the offsets the frame showed at
the press, with that vertex's moved. One undo step per drag (merged commands).
"""
from __future__ import annotations

import numpy as np

from rigeditor import edits
from rigeditor.app.scene.gestures import _DocDrag


class DeformDrag(_DocDrag):
    """Key vertex ``index`` of the mesh of ``pose`` at the current frame."""

    def __init__(self, view, slot, attachment, pose, index, press_world):
        doc = view.doc
        self.view, self.doc, self.slot, self.attachment = view, doc, slot, attachment
        self.pose, self.index = pose, index
        self.start, self.row, self.frame = doc.project, doc.row, doc.frame
        self.press = np.asarray(press_world, float)
        self.key = ("deform", doc.begin_gesture())
        self.said = False

    def move(self, world) -> None:
        try:
            after = edits.key_vertex(self.start, self.pose, self.row, self.frame, self.index,
                                     np.asarray(world, float) - self.press)
        except edits.EditError as exc:
            if not self.said:
                self.said = True
                self.view.statusMessage.emit(str(exc))
            return
        self.doc.apply(f"Key deform of {self.attachment} (vertex {self.index}) at frame {self.frame}", after,
                       merge_key=self.key)
        self.moved = True


__all__ = ["DeformDrag"]
