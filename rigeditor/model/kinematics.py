"""Forward kinematics of the whole bone tree, vectorised over frames."""
from __future__ import annotations

import numpy as np

from rigeditor.core.geometry import Affine
from rigeditor.model.project import CHARACTER, Project


def bone_order(project: Project) -> list[str]:
    """Bone names with every parent before its children."""
    order: list[str] = []
    stack = [b.name for b in reversed(project.children(None))]
    while stack:
        name = stack.pop()
        order.append(name)
        stack.extend(b.name for b in reversed(project.children(name)))
    return order


class Pose:
    """Mutable per-frame pose of the bone tree while an evaluation runs.

    rotation[:, k]: local rotation of bone k (radians, relative to its parent).
    stretch[:, k]: scale along bone k (1 = authored length).
    shift[:, k]: extra translation of bone k's origin in its parent's frame (the
    move-root strategy). translate[:, k] / scale[:, k]: the bone's keyed translate
    (parent frame) and scale (own frame), (N, B, 2), sampled once from the channels.
    world[k]: the bone's world transform.
    """

    def __init__(self, project: Project, order: list[str], n: int, character: Affine,
                 frames: np.ndarray | None = None):
        self.project = project
        self.order = order
        self.column = {name: k for k, name in enumerate(order)}
        self.rotation = np.empty((n, len(order)))
        self.stretch = np.ones((n, len(order)))
        self.shift = np.zeros((n, len(order), 2))
        self.translate = np.zeros((n, len(order), 2))
        self.scale = np.ones((n, len(order), 2))
        if frames is not None:
            for k, name in enumerate(order):
                bone = project.bone(name)
                if bone.translate.keys or any(bone.translate.default):
                    self.translate[:, k] = bone.translate.sample(frames)
                if bone.scale.keys or bone.scale.default != (1.0, 1.0):
                    self.scale[:, k] = bone.scale.sample(frames)
        self.world: list[Affine | None] = [None] * len(order)
        self.character = character
        self.touched: set[str] = set()  # bones whose world transform was (re)computed

    def parent_frame(self, name: str) -> Affine:
        """World transform of the frame a bone's offset is measured in."""
        bone = self.project.bone(name)
        if bone.parent is None:
            return self.character
        return self.world[self.column[bone.parent]]

    def joint_frame(self, name: str) -> Affine:
        """World transform at the bone's origin, before its own rotation (its
        'shoulder space' when it starts a chain)."""
        ox, oy = self._offset(name, shifted=False)
        return self.parent_frame(name).compose(Affine.rotation_about_origin(0.0, ox, oy))

    def _offset(self, name: str, shifted: bool = True):
        """The bone's origin in its parent's frame: rest offset (stretched along the
        parent), keyed translate and (``shifted``) the move-root shift, which is
        measured from the joint frame."""
        bone = self.project.bone(name)
        k = self.column[name]
        ox, oy = bone.rest_offset
        if bone.parent is not None:
            ox = ox * self.stretch[:, self.column[bone.parent]]
        ox, oy = ox + self.translate[:, k, 0], oy + self.translate[:, k, 1]
        if shifted:
            ox, oy = ox + self.shift[:, k, 0], oy + self.shift[:, k, 1]
        return ox, oy

    def update(self, names, stop_at=frozenset()) -> None:
        """Recompute world transforms of ``names`` and all their descendants, except
        below the bones in ``stop_at`` (their chains will update them)."""
        todo = set(names)
        for name in self.order:
            bone = self.project.bone(name)
            if name in todo or (bone.parent in todo and name not in stop_at):
                todo.add(name)
                self.touched.add(name)
                k = self.column[name]
                ox, oy = self._offset(name)
                local = Affine.trs(ox, oy, self.rotation[:, k], self.scale[:, k, 0], self.scale[:, k, 1])
                self.world[k] = self.parent_frame(name).compose(local)

    def tip(self, name: str) -> np.ndarray:
        k = self.column[name]
        length = self.project.bone(name).length * self.stretch[:, k]
        w = self.world[k]
        return np.stack([w.a * length + w.tx, w.c * length + w.ty], axis=-1)

    def origin(self, name: str) -> np.ndarray:
        return self.world[self.column[name]].translation()


def fk_rotations(project: Project, order: list[str], frames: np.ndarray) -> np.ndarray:
    """(N, B) local rotations from the rest pose plus the animated FK channels."""
    out = np.empty((frames.shape[0], len(order)))
    for k, name in enumerate(order):
        bone = project.bone(name)
        out[:, k] = bone.rest_rotation + bone.rotation.sample(frames)[:, 0]
    return out


def character_of(spaces) -> Affine:
    return spaces[CHARACTER]
