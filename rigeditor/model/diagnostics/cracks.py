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

Skinned meshes take part as what they are: a mesh sits on every bone it is weighted
to, so a mesh over a bone and its child meets itself (one picture across the joint)
or another layer there, and its posed cover is the deformed triangles
(``mesh_cover``) where the picture is opaque. When both pictures are skinned across
the joint (to both of its bones) they bend with it and open no notch; their crack is
what shows through inside their posed outlines (holes; see ``_Joint.holes``), since the
notch measure would count the corner linear blending rounds off (350 px² on the
example arm, more than the rigid layers' gap, with nothing showing through). Setup
silhouettes are the pictures in the rest pose (a mesh's bind pose).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rigeditor.core.geometry import Affine
from rigeditor.core.mesh.triangulate import inside
from rigeditor.model.evaluation.bake import Bake
from rigeditor.model.data.mesh_attachment import MeshAttachment
from rigeditor.model.data.rest import rest_frame
from rigeditor.model.data.project import Project

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


def world_of(frames_affine: Affine, points: np.ndarray) -> np.ndarray:
    """(N, P, 2): points (P, 2) of a frame carried into world by N transforms."""
    f = [np.asarray(v, dtype=float).reshape(-1, 1) for v in frames_affine.fields()]
    return np.stack([f[0] * points[:, 0] + f[1] * points[:, 1] + f[4],
                     f[2] * points[:, 0] + f[3] * points[:, 1] + f[5]], axis=-1)


def mesh_cover(mesh: MeshAttachment, deformed: np.ndarray, points: np.ndarray, mask) -> np.ndarray:
    """(P,) whether world points fall in a deformed triangle of ``mesh`` (vertices
    ``deformed`` (V, 2) in world) on an opaque pixel of ``mask`` (None: all opaque),
    the pixel found through the point's barycentric UV. Only triangles whose box meets
    the points' box are tested."""
    t = mesh.triangles
    lo, hi = points.min(axis=0), points.max(axis=0)
    corners = deformed[t]  # (T, 3, 2)
    near = np.all(corners.max(axis=1) >= lo, axis=1) & np.all(corners.min(axis=1) <= hi, axis=1)
    t, corners = t[near], corners[near]
    out = np.zeros(len(points), bool)
    if len(t) == 0:
        return out
    a, b, c = corners[:, 0], corners[:, 1], corners[:, 2]
    det = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0])
    ok = np.abs(det) > 1e-12
    det = np.where(ok, det, 1.0)
    px, py = points[:, None, 0] - a[:, 0], points[:, None, 1] - a[:, 1]  # (P, T)
    l1 = (px * (c[:, 1] - a[:, 1]) - py * (c[:, 0] - a[:, 0])) / det
    l2 = ((b[:, 0] - a[:, 0]) * py - (b[:, 1] - a[:, 1]) * px) / det
    hit = ok & (l1 >= 0) & (l2 >= 0) & (l1 + l2 <= 1)
    which = np.argmax(hit, axis=1)
    any_hit = hit.any(axis=1)
    if mask is None:
        return any_hit
    r = np.arange(len(points))
    uv = mesh.uvs[t[which]]  # (P, 3, 2)
    w1, w2 = l1[r, which], l2[r, which]
    u = (1 - w1 - w2) * uv[:, 0, 0] + w1 * uv[:, 1, 0] + w2 * uv[:, 2, 0]
    v = (1 - w1 - w2) * uv[:, 0, 1] + w1 * uv[:, 1, 1] + w2 * uv[:, 2, 1]
    rows_, cols = mask.shape
    return any_hit & mask[np.clip((v * rows_).astype(np.intp), 0, rows_ - 1),
                          np.clip((u * cols).astype(np.intp), 0, cols - 1)]


def covered(points: np.ndarray, mask: np.ndarray | None, width: float, height: float) -> np.ndarray:
    """Whether image-frame points (..., 2) (origin at the image centre, y up, pixels of
    a ``width`` x ``height`` image) fall on an opaque pixel of ``mask`` ((rows, cols)
    bool, row 0 at the top; None = the whole rectangle is opaque). A shape (a box,
    clipping polygon or point: no picture, size 0) covers nothing."""
    if not (width > 0 and height > 0):
        return np.zeros(np.shape(points)[:-1], dtype=bool)
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
        world = bake.bone(joint.parent).world.take(row).apply(joint.grid[gap])
        crack = JointCrack(joint.child.name, joint.slot_a.name, joint.slot_b.name, joint.radius,
                           np.array([gap.sum() * joint.cell ** 2]))
        out.append((crack, world))
    return out


def joints(project: Project, bake: Bake, masks: dict) -> list["_Joint"]:
    """The joints where a picture on a bone meets a picture on its child bone (a
    skinned mesh is on every bone it is weighted to, so it can meet itself)."""
    if bake.art is None:
        return []
    out, seen = [], set()
    for slot_a in project.art.slots:
        for parent in _riding(slot_a):
            for child in project.children(parent):
                for slot_b in project.art.slots:
                    pair = (frozenset((slot_a.name, slot_b.name)), child.name)
                    if child.name in _riding(slot_b) and pair not in seen:
                        a, b = (slot_b, slot_a) if slot_b.bone == parent != slot_a.bone else (slot_a, slot_b)
                        joint = _Joint.build(project, bake, masks, a, b, parent, child)
                        if joint is not None:
                            seen.add(pair)  # two meshes over both bones meet once, not twice
                            out.append(joint)
    return out


def _across(slot, parent: str, child: str) -> bool:
    """Whether the slot's setup picture is a mesh skinned to both bones of the joint."""
    names = [a.name for a in slot.attachments]
    if slot.attachment.default not in names:
        return False
    a = slot.find(slot.attachment.default)
    return isinstance(a, MeshAttachment) and parent in a.bones and child in a.bones


def _riding(slot) -> list[str]:
    """The bones a slot's setup picture rides: its bone, or a skinned mesh's bones."""
    names = [a.name for a in slot.attachments]
    if slot.attachment.default in names:
        a = slot.find(slot.attachment.default)
        if isinstance(a, MeshAttachment) and a.skinned:
            return list(a.bones)
    return [slot.bone] if slot.bone is not None else []


class _Joint:
    """The sample grid of one joint (in the parent bone's frame) and what covers it."""

    @classmethod
    def build(cls, project, bake, masks, slot_a, slot_b, parent, child):
        if not slot_a.attachments or not slot_b.attachments:
            return None
        names_a, names_b = [a.name for a in slot_a.attachments], [a.name for a in slot_b.attachments]
        if slot_a.attachment.default not in names_a or slot_b.attachment.default not in names_b:
            return None  # nothing shows in the setup pose: nothing to crack
        self = cls()
        self.bake, self.masks, self.slot_a, self.slot_b, self.child = bake, masks, slot_a, slot_b, child
        self.parent = parent
        # Both pictures skinned across the joint bend with it: holes, not a notch.
        self.across = _across(slot_a, parent, child.name) and _across(slot_b, parent, child.name)
        bind_a, bind_b = slot_a.find(slot_a.attachment.default), slot_b.find(slot_b.attachment.default)
        self.bind_a, self.bind_b = bind_a, bind_b
        self.radius = float(min(min(bind_a.width * abs(bind_a.scale[0]), bind_a.height * abs(bind_a.scale[1])),
                                min(bind_b.width * abs(bind_b.scale[0]), bind_b.height * abs(bind_b.scale[1]))))
        if not self.radius > 0:
            return None  # a shape shows at setup (no picture): nothing to crack
        self.cell = 2.0 * self.radius / GRID
        ticks = (np.arange(GRID) + 0.5) * self.cell - self.radius
        gx, gy = np.meshgrid(ticks, ticks)
        disc = gx**2 + gy**2 <= self.radius**2
        joint = np.array(child.rest_offset, dtype=float)
        self.grid = np.stack([gx[disc], gy[disc]], axis=-1) + joint  # (P, 2) in the parent bone's frame
        self.bind_child = Affine.rotation_about_origin(child.rest_rotation, *joint)  # child frame -> parent frame
        # parent frame -> each slot's bone frame, in the rest pose
        self.to_a = rest_frame(project, slot_a.bone).inverse().compose(rest_frame(project, parent))
        self.to_b = rest_frame(project, slot_b.bone).inverse().compose(rest_frame(project, parent))
        at_a = self.cover(bind_a, slot_a, self.to_a.apply(self.grid))
        at_b = self.cover(bind_b, slot_b, self.to_b.apply(self.grid))
        if not (at_a.any() and at_b.any()):
            return None  # the two pictures do not both reach the joint: they do not meet there
        # Only samples inside the setup union can crack: keep just those.
        self.grid = self.grid[at_a | at_b]
        # A rigid picture on the parent does not move in the parent's frame: its cover is fixed.
        self.cover_a = [None if isinstance(a, MeshAttachment) or slot_a.bone != parent
                        else self.cover(a, slot_a, self.grid) for a in slot_a.attachments]
        self.child_in_parent = bake.bone(parent).world.inverse().compose(bake.bone(child.name).world)
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
        # The setup union carried by the child: in the parent's frame at setup.
        at_setup = self.bind_child.apply(in_child)
        union_child = (self.cover(self.bind_a, self.slot_a, self.to_a.apply(at_setup))
                       | self.cover(self.bind_b, self.slot_b, self.to_b.apply(at_setup)))
        if self.across:
            return union_child & self.holes(lo, hi)
        posed = np.zeros((hi - lo, grid.shape[0]), dtype=bool)
        for k, fixed in enumerate(self.cover_a):
            rows = self.code_a[lo:hi] == k
            if rows.any():
                posed[rows] |= fixed[None, :] if fixed is not None else self.posed(self.slot_a, k, lo, hi, rows)
        for k, b in enumerate(self.slot_b.attachments):
            rows = self.code_b[lo:hi] == k
            if rows.any():
                if isinstance(b, MeshAttachment) or self.slot_b.bone != self.child.name:
                    posed[rows] |= self.posed(self.slot_b, k, lo, hi, rows)
                else:
                    posed[rows] |= self.cover(b, self.slot_b, in_child[rows])
        return union_child & ~posed

    def holes(self, lo, hi) -> np.ndarray:
        """Pictures skinned across the joint bend with it and cannot open a notch
        there; what can show through is a hole inside their posed outlines: (rows, P)
        samples inside a deformed outline and in no deformed triangle (the triangles
        are the cover: edge pixels under the alpha threshold are not holes). One sheet
        keeping its orientation covers its outline's inside, so for one picture only
        frames with a flipped triangle are sampled."""
        out = np.zeros((hi - lo, len(self.grid)), bool)
        slots = [self.slot_a] if self.slot_a is self.slot_b else [self.slot_a, self.slot_b]
        codes = [self.code_a[lo:hi]] if len(slots) == 1 else [self.code_a[lo:hi], self.code_b[lo:hi]]
        poses = [[self.bake.art.mesh(self.bake.art.column(sl.name), k) for k in range(len(sl.attachments))]
                 for sl in slots]
        rows = np.ones(hi - lo, bool)
        if len(slots) == 1:
            worst = np.ones(hi - lo)
            for k, pose in enumerate(poses[0]):
                if pose is not None:
                    worst = np.where(codes[0] == k, pose.worst[0][lo:hi], worst)
            rows = worst <= 0
        frames = np.arange(lo, hi)[rows]
        world = world_of(self.bake.bone(self.parent).world.take(frames), self.grid)
        for i, f, w in zip(np.flatnonzero(rows), frames, world):
            outline, cover = np.zeros(len(w), bool), np.zeros(len(w), bool)
            for ps, code in zip(poses, codes):
                pose = ps[code[i]] if code[i] >= 0 else None
                if pose is None:
                    continue
                v = pose.vertices(int(f))
                outline |= inside(w, v, pose.mesh.edges)
                cover |= mesh_cover(pose.mesh, v, w, None)
            out[i] = outline & ~cover
        return out

    def posed(self, slot, code, lo, hi, rows) -> np.ndarray:
        """(rows.sum(), P) cover of the grid by attachment ``code`` of ``slot`` as posed
        by the bake (a mesh deformed; an image rigid on its own bone)."""
        bake, a = self.bake, slot.attachments[code]
        frames = np.arange(lo, hi)[rows]
        parent = bake.bone(self.parent).world.take(frames)
        world = world_of(parent, self.grid)
        if isinstance(a, MeshAttachment):
            pose = bake.art.mesh(bake.art.column(slot.name), code)
            mask = self.masks.get((slot.name, a.name))
            return np.stack([mesh_cover(a, pose.vertices(int(f)), w, mask) for f, w in zip(frames, world)])
        holder = bake.bone(slot.bone).world.take(frames) if slot.bone else bake.spaces["character"].take(frames)
        return np.stack([self.cover(a, slot, holder.take(i).inverse().apply(w)) for i, w in enumerate(world)])
