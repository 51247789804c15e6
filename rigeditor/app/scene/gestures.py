"""Drags in the scene, turned into Document commands (one undo step per drag).

A gesture remembers the project as it was when the button went down and, on every
pointer move, builds the edited project from that start state and hands it to
``Document.apply`` with the gesture's merge key: the pose follows the pointer on
every move, and the whole drag undoes in one step.
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from rigeditor.core.geometry import wrap_angle
from rigeditor.model.ops import set_target_key, turn_bone
from rigeditor.app.scene.state import world_to_space


def move_target(project, target: str, frame: int, position, mode: str):
    """``project`` with ``target`` at ``position`` (declared-space units).

    Animate mode keys the position at ``frame``. Setup mode moves the default
    (unkeyed) value; if the target already has position keys, the default would
    not show on any frame, so setup mode keys it at ``frame`` too.
    """
    t = project.target(target)
    if mode == "animate" or t.position.keys:
        return set_target_key(project, target, frame, position)
    return project.with_target(target, position=replace(t.position, default=tuple(float(v) for v in position)))


class TargetDrag:
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
        self.space = self.start.target(target).space.value_at(self.frame)
        self.offset = np.asarray(handle_world, float) - np.asarray(press_world, float)
        self.key = ("drag", doc.begin_gesture())
        self.chains = [c.name for c in self.start.chain_for_target(target)]
        self.moved = False

    def declared(self, world) -> np.ndarray:
        return world_to_space(self.doc.bake, self.space, self.row, np.asarray(world, float) + self.offset)

    def move(self, world) -> None:
        after = move_target(self.start, self.target, self.frame, self.declared(world), self.mode)
        label = f"Move target {self.target}" + (" (setup)" if self.mode != "animate" else "")
        self.doc.apply(label, after, touched={f"target:{self.target}"}, merge_key=self.key)
        self.moved = True

    def finish(self) -> None:
        self.doc.end_gesture()


class BoneRotateDrag:
    """Rotate an FK bone about its joint by the pointer's turn around that joint
    (accumulated, so dragging round more than half a turn keeps going)."""

    MIN_RADIUS = 1e-9

    def __init__(self, doc, bone: str, press_world):
        self.doc, self.bone = doc, bone
        self.start = doc.project
        self.frame, self.mode = doc.frame, doc.mode
        bake, row = doc.bake, doc.row
        col = bake.column(bone)
        self.pivot = np.asarray(bake.joint_world[row, col], float)
        w = bake.bone_world.take((row, col))
        # A mirrored parent frame turns the other way round.
        self.sign = -1.0 if float(w.a * w.d - w.b * w.c) < 0 else 1.0
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
        self.doc.apply(label, after, touched={f"bone:{self.bone}"}, merge_key=self.key)
        self.moved = True

    def finish(self) -> None:
        self.doc.end_gesture()
