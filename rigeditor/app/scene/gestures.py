"""Drags in the scene, turned into Document commands (one undo step per drag).

A gesture remembers the project as it was when the button went down and, on every
pointer move, builds the edited project from that start state and hands it to
``Document.apply`` with the gesture's merge key: the pose follows the pointer on
every move, and the whole drag undoes in one step.

Every gesture has ``move(world)``, ``finish()`` (button up) and ``cancel()`` (Esc:
the document is left as it was, with nothing to redo).
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from rigeditor import edits
from rigeditor.app.scene.state import world_to_space
from rigeditor.core.geometry import wrap_angle
from rigeditor.edits.posing import set_target_key, turn_bone


def move_target(project, target: str, frame: int, position, mode: str):
    """``project`` with ``target`` at ``position`` (declared-space units).

    Animate mode keys the position at ``frame``. Setup mode moves the default
    (unkeyed) value, the setup pose it shows; the animation's keys stay as they are.
    """
    t = project.target(target)
    if mode == "animate":
        return set_target_key(project, target, frame, position)
    return project.with_target(target, position=replace(t.position, default=tuple(float(v) for v in position)))


class _DocDrag:
    """End of a drag that edits the document as it goes."""

    doc = None
    moved = False

    def finish(self) -> None:
        self.doc.end_gesture()

    def cancel(self) -> None:
        self.doc.end_gesture()
        if self.moved:
            self.doc.cancel_gesture()


class TargetDrag(_DocDrag):
    """Drag a target in its declared space at the current frame.

    The pointer's world position (plus the grab offset, so the handle does not jump
    to the pointer) is carried into the space the target is declared in on this
    frame, with that space's transform at this frame: a door-handle target stays a
    door-handle target, only its position in the handle's space changes.
    """

    def __init__(self, doc, target: str, handle_world, press_world):
        self.doc, self.target = doc, target
        self.start = doc.project
        self.frame, self.row = doc.frame, doc.row
        self.mode = doc.mode
        # The space it is declared in where it is shown (Setup mode: the setup pose's).
        self.space = doc.shown_project.target(target).space.value_at(self.frame)
        self.offset = np.asarray(handle_world, float) - np.asarray(press_world, float)
        self.key = ("drag", doc.begin_gesture())
        self.chains = [c.name for c in self.start.chain_for_target(target)]
        self.moved = False

    def declared(self, world) -> np.ndarray:
        # The current bake's row: during a drag that bake holds the current frame only.
        return world_to_space(self.doc.bake, self.space, self.doc.row, np.asarray(world, float) + self.offset)

    def move(self, world) -> None:
        after = move_target(self.start, self.target, self.frame, self.declared(world), self.mode)
        label = f"Move target {self.target}" + (" (setup)" if self.mode != "animate" else "")
        self.doc.pose_edit(label, after, touched={f"target:{self.target}"}, merge_key=self.key)
        self.moved = True


class BoneRotateDrag(_DocDrag):
    """Rotate an FK bone about its joint by the pointer's turn around that joint
    (accumulated, so dragging round more than half a turn keeps going)."""

    MIN_RADIUS = 1e-9

    def __init__(self, doc, bone: str, press_world):
        self.doc, self.bone = doc, bone
        self.start = doc.project
        self.frame, self.mode = doc.frame, doc.mode
        bake, row = doc.bake, doc.row
        item = bake.bone(bone)
        self.pivot = np.asarray(item.joint[row], float)
        w = item.world.take(row)
        # A mirrored parent frame turns the other way round.
        self.sign = -1.0 if bool(w.mirrored()) else 1.0
        self.last = self._angle(press_world)
        self.total = 0.0
        self.key = ("drag", doc.begin_gesture())
        self.moved = False

    def _angle(self, world):
        d = np.asarray(world, float) - self.pivot
        if math.hypot(*d) < self.MIN_RADIUS:
            return None
        return math.atan2(d[1], d[0])

    def move(self, world) -> None:
        a = self._angle(world)
        if a is None or self.last is None:
            self.last = a if a is not None else self.last
            return
        self.total += float(wrap_angle(a - self.last))
        self.last = a
        after = turn_bone(self.start, self.bone, self.frame, self.sign * self.total, self.mode)
        label = f"Rotate bone {self.bone}" + (" (setup)" if self.mode != "animate" else "")
        self.doc.pose_edit(label, after, touched={f"bone:{self.bone}"}, merge_key=self.key)
        self.moved = True


class TipDrag(_DocDrag):
    """Setup mode: drag a bone's tip; the bone's length and rest rotation change so
    the tip follows the pointer (children that start at the tip follow it).

    Measured in the bone's parent frame (the parent bone's frame at this frame, or
    the character space for a root bone), so a scaled or mirrored parent space puts
    the tip under the pointer too: length = |pointer - joint| in that frame (divided
    by the bone's stretch at the press, 1 unless a chain stretches it), the rest
    rotation turns by the pointer's turn about the joint in that frame (accumulated,
    so more than half a turn keeps going). An IK-driven bone takes the new length and
    rest rotation; its chain keeps solving for the target.
    """

    MIN_LENGTH = 1e-6  # model units: a pointer on the joint itself changes nothing

    def __init__(self, doc, bone: str, press_world):
        self.doc, self.bone = doc, bone
        self.start = doc.project
        self.frame = doc.frame
        bake, row = doc.bake, doc.row
        item = bake.bone(bone)
        b = self.start.bone(bone)
        self.into_parent = edits.parent_frame_at(self.start, bake, row, b.parent).inverse()
        self.joint = self._local(item.joint[row])
        tip = np.asarray(item.tip[row], float)
        self.offset = tip - np.asarray(press_world, float)  # the tip does not jump to the pointer
        self.stretch = float(item.stretch[row]) or 1.0
        d = self._local(tip) - self.joint
        self.last = math.atan2(d[1], d[0])
        self.total = 0.0
        self.key = ("drag", doc.begin_gesture())
        self.moved = False

    def _local(self, world) -> np.ndarray:
        return np.asarray(self.into_parent.apply(np.asarray(world, float)), float).reshape(2)

    def move(self, world) -> None:
        d = self._local(np.asarray(world, float) + self.offset) - self.joint
        distance = math.hypot(d[0], d[1])
        if distance < self.MIN_LENGTH:
            return
        a = math.atan2(d[1], d[0])
        self.total += float(wrap_angle(a - self.last))
        self.last = a
        after = edits.set_bone_length(self.start, self.bone, distance / self.stretch)
        after = turn_bone(after, self.bone, self.frame, self.total, "setup", start=self.start)
        self.doc.apply(f"Resize bone {self.bone} (setup)", after, touched={f"bone:{self.bone}"},
                       merge_key=self.key)
        self.moved = True


class BoneDraw:
    """Bone tool: a preview from ``start`` (world) to the pointer; on release a bone
    drawn by the document's EditTool (one undo step), when the drag is long enough.

    parent: the bone the new one will hang from (None: a root bone), chosen at the
    press by ``EditTool.new_bone_parent``; snap: ``start`` is that parent's tip.
    Nothing is written to the document before the release.
    """

    MIN_DRAG_PX = 4.0  # a shorter drag is a click: no bone

    def __init__(self, tool, start, parent, start_px, snap: bool = False):
        self.tool, self.parent, self.snap = tool, parent, bool(snap and parent is not None)
        self.start = np.asarray(start, float)
        self.end = self.start.copy()
        self.start_px = np.asarray(start_px, float)
        self.end_px = self.start_px.copy()
        self.moved = False
        doc = tool.doc
        self._into_parent = edits.parent_frame_at(doc.project, doc.bake, doc.row, parent).inverse()

    def model_length(self) -> float:
        """Length the new bone will have (model units, in its parent's frame)."""
        a, b = (np.asarray(self._into_parent.apply(p), float).reshape(2) for p in (self.start, self.end))
        return float(math.hypot(*(b - a)))

    def move(self, world, px=None) -> None:
        self.end = np.asarray(world, float)
        if px is not None:
            self.end_px = np.asarray(px, float)
        self.moved = True

    def length_px(self) -> float:
        return float(math.hypot(*(self.end_px - self.start_px)))

    def finish(self) -> str | None:
        """Make the bone (name, or None when the drag was too short or refused)."""
        if self.length_px() <= self.MIN_DRAG_PX:
            return None
        return self.tool.create_bone(self.start, self.end, self.parent, snap=self.snap)

    def cancel(self) -> None:
        pass
