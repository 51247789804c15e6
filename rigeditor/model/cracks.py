"""Crack check: the gap two rigid images open at the joint between their bones.

At each joint where a slot on a bone meets a slot on its child bone, the *crack* of a
frame is the area (px², i.e. model units² at scale 1) near the joint that the union
of the two pictures' setup-pose silhouettes covers both as carried by the parent bone
and as carried by the child bone, and that neither posed picture covers: the notch
a continuous limb would fill (bounded by both outer edges), not the ground the
forearm simply swept away from. Computed, not guessed: the alpha silhouettes are
sampled on a grid fixed in the parent bone's frame, a disc around the joint of radius
= the thinner picture's thickness (its shorter side, scaled), ``GRID`` samples across;
area = uncovered samples x cell area. Vectorised over samples and frames (blocks of
frames). For two pictures of thickness h meeting end to end, a bend of theta opens
h^2/4 tan(theta/2).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rigeditor.core.geometry import Affine
from rigeditor.model.bake import Bake
from rigeditor.model.project import Project

GRID = 96
"""Samples across the disc's diameter (cell = diameter / GRID)."""
MIN_AREA = 1.0
"""px²: a frame whose crack is larger shows it (one pixel)."""
_BLOCK = 256


@dataclass(frozen=True)
class JointCrack:
    """joint: the child bone; parent_slot / child_slot: the two layers; radius: model
    units; area: (N,) uncovered px² per frame."""

    joint: str
    parent_slot: str
    child_slot: str
    radius: float
    area: np.ndarray

    def frames(self, bake_frames) -> np.ndarray:
        return np.asarray(bake_frames)[self.area > MIN_AREA]


def covered(points: np.ndarray, mask: np.ndarray | None, width: float, height: float) -> np.ndarray:
    """Whether image-frame points (..., 2) (origin at the image centre, y up, pixels of
    a ``width`` x ``height`` image) fall on an opaque pixel of ``mask`` ((rows, cols)
    bool, row 0 at the top; None = the whole rectangle is opaque)."""
    u = points[..., 0] / width + 0.5  # 0..1 left to right
    v = 0.5 - points[..., 1] / height  # 0..1 top to bottom
    inside = (u >= 0) & (u < 1) & (v >= 0) & (v < 1)
    if mask is None:
        return inside
    rows, cols = mask.shape
    r = np.clip((v * rows).astype(np.intp), 0, rows - 1)
    c = np.clip((u * cols).astype(np.intp), 0, cols - 1)
    return inside & mask[r, c]


def crack_check(project: Project, bake: Bake, masks: dict) -> list[JointCrack]:
    """Every joint crack of ``bake``. masks: {(slot, attachment): bool array or None}
    (None or absent: the picture's full rectangle, as for a missing file)."""
    out = []
    for joint in joints(project, bake, masks):
        area = np.empty(len(bake))
        for lo in range(0, len(bake), _BLOCK):
            hi = min(lo + _BLOCK, len(bake))
            area[lo:hi] = joint.gap(lo, hi).sum(axis=1) * joint.cell ** 2
        out.append(JointCrack(joint.child.name, joint.slot_a.name, joint.slot_b.name, joint.radius, area))
    return out


def crack_points(project: Project, bake: Bake, masks: dict, row: int,
                 prepared=None) -> list[tuple[JointCrack, np.ndarray]]:
    """At one row: per joint, its crack (area of that row only) and the world centres
    of the uncovered sample cells (K, 2), for drawing. prepared: ``joints(project,
    bake, masks)`` kept from an earlier call with the same arguments (scrubbing)."""
    out = []
    for joint in joints(project, bake, masks) if prepared is None else prepared:
        gap = joint.gap(row, row + 1)[0]
        world = bake.bone(joint.slot_a.bone).world.take(row).apply(joint.grid[gap])
        crack = JointCrack(joint.child.name, joint.slot_a.name, joint.slot_b.name, joint.radius,
                           np.array([gap.sum() * joint.cell ** 2]))
        out.append((crack, world))
    return out


def joints(project: Project, bake: Bake, masks: dict) -> list["_Joint"]:
    """The joints where a picture on a bone meets a picture on its child bone."""
    if bake.art is None:
        return []
    out = []
    for slot_a in project.art.slots:
        if slot_a.bone is None:
            continue
        for child in project.children(slot_a.bone):
            for slot_b in project.art.slots:
                if slot_b.bone == child.name:
                    joint = _Joint.build(bake, masks, slot_a, slot_b, child)
                    if joint is not None:
                        out.append(joint)
    return out


class _Joint:
    """The sample grid of one joint (in the parent bone's frame) and what covers it."""

    @classmethod
    def build(cls, bake, masks, slot_a, slot_b, child):
        if not slot_a.attachments or not slot_b.attachments:
            return None
        names_a, names_b = [a.name for a in slot_a.attachments], [a.name for a in slot_b.attachments]
        if slot_a.attachment.default not in names_a or slot_b.attachment.default not in names_b:
            return None  # nothing shows in the setup pose: nothing to crack
        self = cls()
        self.bake, self.masks, self.slot_a, self.slot_b, self.child = bake, masks, slot_a, slot_b, child
        bind_a, bind_b = slot_a.find(slot_a.attachment.default), slot_b.find(slot_b.attachment.default)
        self.bind_a, self.bind_b = bind_a, bind_b
        self.radius = float(min(min(bind_a.width * abs(bind_a.scale[0]), bind_a.height * abs(bind_a.scale[1])),
                                min(bind_b.width * abs(bind_b.scale[0]), bind_b.height * abs(bind_b.scale[1]))))
        self.cell = 2.0 * self.radius / GRID
        ticks = (np.arange(GRID) + 0.5) * self.cell - self.radius
        gx, gy = np.meshgrid(ticks, ticks)
        disc = gx**2 + gy**2 <= self.radius**2
        joint = np.array(child.rest_offset, dtype=float)
        self.grid = np.stack([gx[disc], gy[disc]], axis=-1) + joint  # (P, 2) in the parent bone's frame
        bind_child = Affine.rotation_about_origin(child.rest_rotation, *joint)  # child frame -> parent frame
        at_a = self.cover(bind_a, slot_a, self.grid)
        at_b = self.cover(bind_b, slot_b, bind_child.inverse().apply(self.grid))
        if not (at_a.any() and at_b.any()):
            return None  # the two pictures do not both reach the joint: they do not meet there
        # Only samples inside the setup union can crack: keep just those.
        self.grid = self.grid[at_a | at_b]
        # The parent's pictures do not move in the parent's frame: their cover is fixed.
        self.cover_a = [self.cover(a, slot_a, self.grid) for a in slot_a.attachments]
        self.bind_a_in_child = bind_child.inverse().compose(bind_a.local())  # the union carried by the child
        self.child_in_parent = bake.bone(slot_a.bone).world.inverse().compose(bake.bone(child.name).world)
        self.code_a = bake.art.attachment[:, bake.art.column(slot_a.name)]
        self.code_b = bake.art.attachment[:, bake.art.column(slot_b.name)]
        return self

    def cover(self, attachment, slot, pts):
        inv = attachment.local().inverse()
        return covered(inv.apply(pts), self.masks.get((slot.name, attachment.name)), attachment.width,
                       attachment.height)

    def gap(self, lo: int, hi: int) -> np.ndarray:
        """(hi - lo, P): which samples (``grid``: those inside the setup union) of rows
        lo..hi-1 are cracks."""
        grid = self.grid
        rel = self.child_in_parent.take(slice(lo, hi)).inverse()
        fields = [np.broadcast_to(np.asarray(f, dtype=float), (hi - lo,))[:, None] for f in rel.fields()]
        in_child = np.stack([fields[0] * grid[:, 0] + fields[1] * grid[:, 1] + fields[4],
                             fields[2] * grid[:, 0] + fields[3] * grid[:, 1] + fields[5]], axis=-1)
        posed = np.zeros((hi - lo, grid.shape[0]), dtype=bool)
        for k, fixed in enumerate(self.cover_a):
            rows = self.code_a[lo:hi] == k
            if rows.any():
                posed[rows] |= fixed[None, :]
        for k, b in enumerate(self.slot_b.attachments):
            rows = self.code_b[lo:hi] == k
            if rows.any():
                posed[rows] |= self.cover(b, self.slot_b, in_child[rows])
        bind_a = self.bind_a
        union_child = self.cover(self.bind_b, self.slot_b, in_child) | covered(
            self.bind_a_in_child.inverse().apply(in_child), self.masks.get((self.slot_a.name, bind_a.name)),
            bind_a.width, bind_a.height)
        return union_child & ~posed
