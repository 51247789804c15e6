"""The mesh part of ``bake.art``: deformed mesh vertices on demand, seam reductions
over the whole range.

Memory decides the shape (see docs/architecture.md, "Skinning never holds a frame axis
of vertices"): a :class:`MeshPose` keeps the per-frame skin transforms (F, B, 2, 3)
and the skin operator, computes one frame's vertices when asked (:meth:`vertices`),
and reduces the whole range in blocks to what the views and the report need: the worst
triangle area ratio per frame and its triangle (:attr:`worst`), collapse per frame.
Everything is in character space (so a scaled character does not read as a collapse);
:meth:`vertices` carries the frame into world.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from rigeditor.core import skinning as sk
from rigeditor.core.geometry import Affine
from rigeditor.model.data.mesh_attachment import MeshAttachment
from rigeditor.model.data.linked_mesh import resolved
from rigeditor.model.data.project import CHARACTER
from rigeditor.model.evaluation.deform_bake import sampler_for

_OPERATORS: "weakref.WeakKeyDictionary[MeshAttachment, np.ndarray]" = weakref.WeakKeyDictionary()


def operator_of(mesh: MeshAttachment, n_bones: int) -> np.ndarray:
    """The skin operator of a mesh (cached per attachment: attachments are immutable)."""
    g = _OPERATORS.get(mesh)
    if g is None:
        if mesh.skinned:
            g = sk.skin_operator(mesh.influence_points() if len(mesh.bind_offsets) else mesh.in_slot_frame(),
                                 mesh.indices, mesh.weights, n_bones)
        else:
            v = mesh.in_slot_frame()
            g = sk.skin_operator(v, np.zeros((len(v), 1), np.int64), np.ones((len(v), 1)), 1)
        g.flags.writeable = False
        _OPERATORS[mesh] = g
    return g


_EXCESS: "weakref.WeakKeyDictionary[MeshAttachment, tuple]" = weakref.WeakKeyDictionary()


def weight_excess(mesh: MeshAttachment) -> np.ndarray | None:
    """(V,) each vertex's weights' sum less 1, or None where every sum is 1 (within
    1e-12: RigEditor's own weights, an unskinned mesh). Spine's runtimes place a vertex
    at the weighted sum of its bones' world points, the root's (our character space)
    motion inside each, so a vertex whose weights sum to 0.99999 (Spine's editor
    rounds them to 5 decimals) moves with 0.99999 of the character's translation:
    0.03 units at 3,000 units out."""
    hit = _EXCESS.get(mesh)
    if hit is None:
        excess = np.asarray(mesh.weights, float).sum(axis=1) - 1.0 if mesh.skinned else None
        if excess is not None and not np.abs(excess).max(initial=0.0) > 1e-12:
            excess = None
        if excess is not None:
            excess.flags.writeable = False
        hit = _EXCESS[mesh] = (excess,)
    return hit[0]


def to_world(character: Affine, local: np.ndarray, excess: np.ndarray | None) -> np.ndarray:
    """(V, 2) world points of character-space vertices ``local`` (one frame of
    ``character``), the translation taken ``1 + excess`` times per vertex
    (:func:`weight_excess`)."""
    world = character.apply(local)
    if excess is not None:
        world = world + excess[:, None] * np.array([float(np.ravel(character.tx)[0]),
                                                    float(np.ravel(character.ty)[0])])
    return world


class MeshStatic:
    """What a mesh pose keeps that has no frame axis: the attachment, its triangles'
    joints (the joint, a child bone name, each triangle sits at, or the slot's bone
    away from joints) and the number of skin bones. Not a dataclass, so ``Bake.rows``
    (which cuts every dataclass array along frames) leaves it whole."""

    __slots__ = ("mesh", "_joint_of", "_where", "n_bones", "deform", "binds")

    def __init__(self, mesh: MeshAttachment, joint_of, n_bones: int, deform=None, where=None, binds=None):
        """joint_of: the tuple, or None with ``where`` = (project, slot bone) to find it
        on first use (only the seam diagnostics ask; a drag's one-frame evaluations
        never do). deform: a deform_bake.DeformSampler, or None: no deform keys."""
        self.mesh, self._joint_of, self._where, self.n_bones = mesh, joint_of, where, n_bones
        self.deform = deform
        self.binds = binds  # (B, 2, 3) the skin bones' bind transforms (MeshPose.skins)

    @property
    def joint_of(self) -> tuple:
        if self._joint_of is None:
            self._joint_of = _triangle_joints(*self._where, self.mesh)
            self._where = None
        return self._joint_of


@dataclass(frozen=True, eq=False)
class MeshPose:
    """One mesh attachment of one slot over the bake's frames.

    slot, column: the slot's name and ArtBake column; code: the attachment's index in
    the slot; static: the attachment and what else has no frame axis. made: (F, B, 2,
    3) skin transforms in character space, or None until asked (:attr:`skins` makes
    them from ``bone_worlds``, the world transforms of the skin bones (None: the
    character space itself), and the static binds). character: the character space's
    world transform (fields (F,)). shown: (F,) whether the slot shows this attachment.
    frames: (F,) the bake's frames (where deform keys are sampled).
    """

    slot: str
    column: int
    code: int
    static: MeshStatic
    made: np.ndarray | None
    character: Affine
    shown: np.ndarray
    frames: np.ndarray | None = None
    bone_worlds: tuple = ()

    @cached_property
    def skins(self) -> np.ndarray:
        """(F, B, 2, 3) skin transforms in character space."""
        if self.made is not None:
            return self.made
        return skin_rows(self.bone_worlds, self.static.binds, self.character, len(self.shown))

    @property
    def mesh(self) -> MeshAttachment:
        return self.static.mesh

    @property
    def joint_of(self) -> tuple:
        return self.static.joint_of

    @property
    def operator(self) -> np.ndarray:
        return operator_of(self.mesh, self.static.n_bones)

    def local_vertices(self, row: int) -> np.ndarray:
        """(V, 2) deformed vertices at ``row`` in character space (deform keys included)."""
        return self.block_vertices(row, row + 1)[0]

    def block_vertices(self, start: int, stop: int) -> np.ndarray:
        """(stop - start, V, 2) deformed vertices of rows [start, stop) in character space."""
        out = sk.deform(self.operator, self.skins[start:stop])
        if self.static.deform is not None:
            out = out + self.static.deform.moved(self.skins[start:stop], self.frames[start:stop])
        return out

    def vertices(self, row: int) -> np.ndarray:
        """(V, 2) deformed vertices at ``row`` in world."""
        return to_world(self.character.take(row), self.local_vertices(row), weight_excess(self.mesh))

    def ratios(self, row: int) -> np.ndarray:
        """(T,) deformed over bind signed area of each triangle at ``row`` (< 0: flipped)."""
        return sk.area_ratios(self.mesh.in_slot_frame(), self.local_vertices(row), self.mesh.triangles)

    @cached_property
    def worst(self) -> tuple[np.ndarray, np.ndarray]:
        """((F,) smallest area ratio per frame, (F,) its triangle), walked in blocks."""
        if len(self.mesh.triangles) == 0:
            return np.ones(len(self.skins)), np.zeros(len(self.skins), np.int64)
        if self.static.deform is not None:
            return self._deformed_worst(self.mesh.triangles)
        worst, which = sk.worst_area_ratio(self.mesh.in_slot_frame(), self.mesh.triangles, self.operator,
                                           self.skins)
        worst.flags.writeable = which.flags.writeable = False
        return worst, which

    @cached_property
    def joint_worst(self) -> dict[str, np.ndarray]:
        """{joint: (F,) smallest area ratio among the triangles at that joint}."""
        out = {}
        names = np.array(self.joint_of, dtype=object)
        for j in dict.fromkeys(self.joint_of):
            tri = self.mesh.triangles[names == j]
            w, _ = (self._deformed_worst(tri) if self.static.deform is not None
                    else sk.worst_area_ratio(self.mesh.in_slot_frame(), tri, self.operator, self.skins))
            w.flags.writeable = False
            out[j] = w
        return out

    def _deformed_worst(self, triangles, chunk_bytes=32 << 20):
        """``worst`` for triangles ``triangles`` of a mesh with deform keys: the
        vertices of a block of frames at a time (offsets are not linear in the skins)."""
        n = len(self.skins)
        worst, which = np.empty(n), np.empty(n, np.int64)
        step = max(1, int(chunk_bytes // (len(self.mesh.vertices) * 4 * 2 * 8 * 4 + 1)))
        bind = self.mesh.in_slot_frame()
        for start in range(0, n, step):
            r = sk.area_ratios(bind, self.block_vertices(start, min(n, start + step)), triangles)
            which[start:start + len(r)] = np.argmin(r, axis=1)
            worst[start:start + len(r)] = r[np.arange(len(r)), which[start:start + len(r)]]
        worst.flags.writeable = which.flags.writeable = False
        return worst, which

    def collapsed(self, threshold: float = sk.COLLAPSE_RATIO) -> np.ndarray:
        """(F,) True where a shown triangle shrank below ``threshold`` or flipped."""
        return self.shown & sk.collapse_flags(self.worst[0], threshold)


def mesh_poses(project, bake, column: int, slot, codes: np.ndarray, previous=None,
               memo: dict | None = None) -> list[MeshPose]:
    """A MeshPose per mesh attachment of ``slot`` (ArtBake column ``column``).
    ``previous``: the Bake of an incremental evaluation's starting point (with its
    art); a mesh whose bones, attachment, frames and shown frames are all its own there
    keeps its MeshPose (a drag of one foot re-skins the meshes on that foot only).
    ``memo``: a dict shared by the slots of one artwork's bake (what they compare alike
    is compared once)."""
    out = []
    character = bake.spaces[CHARACTER]
    inv_char = None
    for k, a in enumerate(slot.attachments):
        if not isinstance(a, MeshAttachment):
            continue
        a = resolved(slot, a)  # a linked mesh on its parent's geometry
        deform = sampler_for(project.art, slot.name, a)
        kept = _kept_pose(previous, bake, slot, column, k, a, codes, character, deform, {} if memo is None else memo)
        if kept is not None:
            out.append(kept)
            continue
        if a.skinned:
            worlds = tuple(bake.bone(b).world for b in a.bones)
            bind = np.asarray(a.bind).reshape(-1, 6)[:, [0, 1, 4, 2, 3, 5]].reshape(-1, 2, 3)
        else:
            worlds = (None if slot.bone is None else bake.bone(slot.bone).world,)
            bind = np.array([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
        shown = codes == k
        made = None
        if shown.any():  # drawn: made now, on this thread (a mesh no frame shows is made if asked)
            inv_char = character.inverse() if inv_char is None else inv_char
            made = skin_rows(worlds, bind, character, len(bake), inv_char)
        static = MeshStatic(a, None, len(worlds), deform, where=(project, slot.bone), binds=bind)
        out.append(MeshPose(slot.name, column, k, static, made, character, shown, bake.frames, worlds))
    return out


def skin_rows(worlds, binds, character: Affine, n: int, inv_char: Affine | None = None) -> np.ndarray:
    """(n, B, 2, 3) read-only skin transforms in character space of bones whose world
    transforms are ``worlds`` (None: the character space itself) bound at ``binds``
    (B, 2, 3); ``inv_char``: the character space's inverse, when already at hand."""
    inv_char = character.inverse() if inv_char is None else inv_char
    # Every bone at once: fields (B, n), the character's inverse composed on each (the
    # same products per element as bone by bone).
    unit = Affine.identity()
    fields = [_stacked(parts, n) for parts in zip(*((unit if w is None else w).fields() for w in worlds))]
    local = inv_char.compose(Affine(*fields))
    # (n, B, 2, 3): rows (a, b, tx) and (c, d, ty) of each bone's transform
    rows = np.stack(np.broadcast_arrays(local.a, local.b, local.tx, local.c, local.d, local.ty), axis=-1)
    rows = rows.reshape(len(worlds), n, 2, 3).transpose(1, 0, 2, 3)
    for k, w in enumerate(worlds):
        if w is None:  # the character space itself: the identity there, exactly
            rows[:, k] = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0))
    skins = sk.skin_transforms(rows, binds)
    skins.flags.writeable = False
    return skins


def _stacked(parts, n: int) -> np.ndarray:
    """(B, n) of B values over n frames (arrays or numbers)."""
    try:
        out = np.stack(parts)
        if out.shape == (len(parts), n):
            return out
    except ValueError:  # numbers beside arrays
        pass
    return np.stack([np.broadcast_to(f, (n,)) for f in parts])


HELD = "held"
"""``memo`` key: True when ``previous``'s art is this artwork's at these frames and
both bakes' character spaces are equal (art_bake's ``_same_source``), False when only
the character spaces differ. Every MeshPose then has its bake's frames and character
space, and shows the frames its bake's codes show (``codes`` are the previous art's),
so only what the mesh itself is made of is compared."""


def _kept_pose(previous, bake, slot, column, code, mesh, codes, character, deform, memo) -> MeshPose | None:
    """``previous``'s MeshPose of this mesh when nothing it is made of changed: the
    same attachment object and deform sampler (``deform_bake.sampler_for``: one per
    keys), the same BoneBake objects for every bone that moves it, the same character
    space, frames and shown frames. ``memo``: the comparisons of character spaces and
    frames made for this bake, by the previous object compared (and ``HELD``)."""
    art = getattr(previous, "art", None)
    if art is None or column >= len(art.slots) or art.slots[column] != slot.name:
        return None
    old = art.mesh(column, code)
    if old is None or old.static.mesh is not mesh or old.static.deform is not deform or old.frames is None:
        return None
    bones = mesh.bones if mesh.skinned else ((slot.bone,) if slot.bone is not None else ())
    try:
        if any(bake.bone(b) is not previous.bone(b) for b in bones):
            return None
    except ValueError:
        return None
    held = memo.get(HELD)
    if held is not None:  # bake_art compared the bakes once (see HELD)
        return old if held else None
    same = memo.get(("character", id(old.character)))
    if same is None:
        same = memo[("character", id(old.character))] = same_affine(old.character, character)
    frames = memo.get(("frames", id(old.frames)))
    if frames is None:
        frames = memo[("frames", id(old.frames))] = (old.frames.shape == bake.frames.shape
                                                    and bool(np.array_equal(old.frames, bake.frames)))
    if not (same and frames):
        return None
    if not np.array_equal(old.shown, codes == code):
        return None
    return old


def same_affine(a: Affine, b: Affine) -> bool:
    """Whether two transforms are equal field by field: the same object, or a range's
    row (``Bake.rows`` cuts its own copy of the character space) and an evaluation of
    that row."""
    if a is b:
        return True
    for f, g in zip(a.fields(), b.fields()):
        if f is g:
            continue
        f, g = np.asarray(f), np.asarray(g)
        if f.shape != g.shape:  # (a field held as a number beside one over frames)
            try:
                f, g = np.broadcast_arrays(f, g)
            except ValueError:
                return False
        if not (f == g).all():  # (array_equal's checks cost more than the comparison at a frame)
            return False
    return True


def _triangle_joints(project, slot_bone, mesh: MeshAttachment) -> tuple[str, ...]:
    """Per triangle: the nearest joint (a weighted bone whose parent is weighted too),
    by the triangle's centroid at bind; the slot's bone (or slot) when there is none."""
    from rigeditor.model.data.rest import bone_segments

    n = len(mesh.triangles)
    joints = [b for b in mesh.bones if project.bone(b).parent in mesh.bones]
    if not joints:
        return (slot_bone or "",) * n
    where = bone_segments(project, slot_bone, joints)[:, 0]
    centroid = mesh.in_slot_frame()[mesh.triangles].mean(axis=1)
    nearest = np.argmin(np.hypot(*(centroid[:, None] - where[None]).transpose(2, 0, 1)), axis=1)
    return tuple(joints[int(k)] for k in nearest)


__all__ = ["HELD", "MeshPose", "MeshStatic", "mesh_poses", "operator_of", "same_affine"]
