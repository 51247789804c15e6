"""The artwork part of the Bake: where every slot's picture is, per frame.

Computed by :func:`bake_art` from the bones' world transforms at the end of
``evaluate`` (the one evaluation path): views, the crack check and the Spine export
read these arrays and never place images themselves.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from rigeditor.core.geometry import Affine
from rigeditor.model.evaluation.bake import Bake, frozen
from rigeditor.model.data.skins import pick as skin_pick, unposed_bones
from rigeditor.model.data.project import CHARACTER, Project
from rigeditor.model.data.slot_color import sample_colors
from rigeditor.model.data.mesh_attachment import MeshAttachment
from rigeditor.model.evaluation.mesh_frame import MeshFrame
from rigeditor.model.evaluation.skin_bake import HELD, mesh_poses, same_affine
from rigeditor.model.evaluation.shape_bake import shape_poses
from rigeditor.model.evaluation.sequence_bake import sequence_frames


@dataclass(frozen=True)
class ArtBake:
    """Per slot (columns in setup order ``slots``) and frame (rows).

    attachment: (N, S) index into the slot's attachments of the one shown, -1 = none.
    image_world: the shown image's frame (origin at the image centre, pixels) in world,
    fields (N, S); identity where nothing shows. corners: (N, S, 4, 2) world corners,
    bottom-left, top-left, top-right, bottom-right (zero where nothing shows).
    order: (N, S) slot columns back to front.
    color: (N, S, 4) each slot's light colour (RGBA in [0, 1]); dark: (N, S, 3) its dark
    colour (zero without two-colour tint); blend: per slot, its blend mode
    (``model.data.slot_color``). The attachment's tint multiplies ``color`` when drawn.
    meshes: a ``skin_bake.MeshPose`` per mesh attachment (deformed vertices on demand,
    worst area ratio per frame); a mesh's ``corners`` are its picture's rigid rectangle.
    shapes: a ``shape_bake.ShapePose`` per box, clipping polygon or point shown.
    sequence: (N, S) the sequence frame each slot shows (-1: its attachment has none).
    """

    slots: tuple[str, ...]
    attachment: np.ndarray
    image_world: Affine
    corners: np.ndarray
    order: np.ndarray
    meshes: tuple = ()
    color: np.ndarray | None = None
    dark: np.ndarray | None = None
    blend: tuple[str, ...] = ()
    shapes: tuple = ()
    sequence: np.ndarray | None = None
    source: _Source | None = field(default=None, compare=False, repr=False)

    def shape(self, column: int, code: int):
        """The ShapePose of attachment ``code`` of slot ``column``, or None (a picture)."""
        for m in self.shapes:
            if m.column == column and m.code == code:
                return m
        return None

    def mesh(self, column: int, code: int):
        """The MeshPose of attachment ``code`` of slot ``column``, or None (an image)."""
        for m in self.meshes:
            if m.column == column and m.code == code:
                return m
        return None

    def column(self, slot: str) -> int:
        return self.slots.index(slot)

    def _mesh_frame(self, i: int) -> MeshFrame:
        """The joined meshes shown at row ``i`` (one MeshFrame per set of shown meshes:
        the set changes only where an attachment switches)."""
        shown = tuple(k for k, m in enumerate(self.meshes) if m.shown[i])
        kept = self.__dict__.setdefault("_mesh_frames", {})  # (not a field: frozen, compared by its fields)
        hit = kept.get(shown)
        if hit is None:
            if len(kept) > 32:
                kept.clear()
            hit = kept[shown] = MeshFrame([self.meshes[k] for k in shown])
        return hit

    def drawn(self, i: int) -> list[int]:
        """Slot columns drawn at row ``i``, back to front (slots showing nothing left out)."""
        return self.row(i).drawn()

    def row(self, i: int) -> "ArtRow":
        """Everything drawn at row ``i``."""
        return ArtRow(self.attachment[i], np.stack([np.broadcast_to(np.asarray(f)[i], (len(self.slots),))
                                                    for f in self.image_world.fields()], axis=-1),
                      self.corners[i], self.order[i],
                      self._mesh_frame(i).at(i),
                      {m.column: m for m in self.shapes if m.shown[i]}, i,
                      None if self.sequence is None else self.sequence[i],
                      *((self.color[i], self.dark[i], self.blend) if self.color is not None else ()))


@dataclass(frozen=True)
class ArtRow:
    """One frame of an ArtBake: attachment (S,), image_world (S, 6) affine fields
    (a, b, c, d, tx, ty), corners (S, 4, 2), order (S,) back to front; meshes:
    {slot column: (V, 2) world vertices} of the slots showing a mesh; shapes: {slot
    column: ShapePose} of the slots showing a box, clipping polygon or point, and
    ``index`` the row (``shapes[s].vertices(row.index)``)."""

    attachment: np.ndarray
    image_world: np.ndarray
    corners: np.ndarray
    order: np.ndarray
    meshes: dict = field(default_factory=dict)
    shapes: dict = field(default_factory=dict)
    index: int = 0
    sequence: np.ndarray | None = None  # (S,) the sequence frame shown, -1: none
    color: np.ndarray | None = None  # (S, 4) light, (S, 3) dark, blend modes: as ArtBake
    dark: np.ndarray | None = None
    blend: tuple[str, ...] = ()

    def drawn(self) -> list[int]:
        return [int(s) for s in self.order if self.attachment[s] >= 0]


class _Source:
    """The project artwork an ArtBake was made from (not a dataclass, so ``Bake.rows``
    leaves it whole): an incremental evaluation of the same artwork reuses what no
    moved bone changed."""

    __slots__ = ("art",)

    def __init__(self, art):
        self.art = art


def bake_art(project: Project, bake: Bake, previous: Bake | None = None) -> ArtBake:
    """The artwork of ``project`` posed by ``bake``. Every slot's picture is placed in
    one set of (N, S) operations, not slot by slot: each element gets the bits its
    slot would get alone (elementwise products and sums), at a few numpy calls for
    the whole rig instead of some forty per slot (a 27-slot rig at one frame).
    ``previous``: an incremental evaluation's starting Bake. Made from the same
    artwork at the same frames, its attachments, colours, draw order and sequence
    frames are kept, and so is every slot, mesh and shape whose bones did not move
    (a drag of one foot places the pictures on that foot only)."""
    art = project.art
    n, ns = len(bake), len(art.slots)
    tables = [_slot_tables(slot, art.active_skins) for slot in art.slots]
    old = _same_source(previous, art, bake)
    holders_moved = None if old is None else {s for s, slot in enumerate(art.slots) if _moved(slot.bone, bake, previous)}
    has_mesh, keyed_shapes = _slot_kinds(art)
    if old is not None:
        codes = old.attachment
        moved = [s for s, slot in enumerate(art.slots) if slot.attachments and s in holders_moved]
        fields = [np.array(f) for f in _full_fields(old.image_world, n, ns)] if moved else None
        corners = np.array(old.corners) if moved else old.corners
    else:
        codes = np.full((n, ns), -1, dtype=int)
        unposed = unposed_bones(project)
        for s, (slot, (lookup, _, _)) in enumerate(zip(art.slots, tables)):
            if slot.bone not in unposed:  # (a slot on a skin bone no active skin brings: nothing)
                codes[:, s] = lookup[slot.attachment.sample(bake.frames)]
        moved = [s for s, slot in enumerate(art.slots) if slot.attachments]
        fields = [np.zeros((n, ns)) for _ in range(6)]
        fields[0][:] = fields[3][:] = 1.0
        corners = np.zeros((n, ns, 4, 2))
    if moved:
        _place(art, bake, tables, codes, moved, fields, corners)
    meshes, shapes = [], []
    memo = {} if old is None else {HELD: same_affine(previous.spaces[CHARACTER], bake.spaces[CHARACTER])}
    frames = np.asarray(bake.frames, float)
    kept_shapes = {} if old is None else {(m.column, m.code): m for m in old.shapes}
    sequence = np.full((n, ns), -1, dtype=np.int64) if old is None else old.sequence
    for s, slot in enumerate(art.slots):
        if not slot.attachments:
            continue
        if s in has_mesh:
            meshes += mesh_poses(project, bake, s, slot, codes[:, s], previous, memo)
        if old is not None and s not in holders_moved and s not in keyed_shapes:
            shapes += [m for (col, _), m in kept_shapes.items() if col == s]
        else:
            shapes += shape_poses(project, bake, s, slot, codes[:, s])
        if old is None:
            sequence[:, s] = sequence_frames(slot, codes[:, s], frames)
    if old is not None:
        light, dark, order = old.color, old.dark, old.order
    else:
        light, dark = sample_colors(art.slots, bake.frames)
        order = art.order_codes(bake.frames)
    world = old.image_world if fields is None else Affine(*(frozen(f) for f in fields))
    return ArtBake(
        slots=tuple(s.name for s in art.slots),
        attachment=frozen(codes),
        image_world=world,
        corners=frozen(corners),
        order=frozen(order),
        meshes=tuple(meshes),
        color=frozen(light), dark=frozen(dark), blend=tuple(s.blend for s in art.slots),
        shapes=tuple(shapes),
        sequence=frozen(sequence),
        source=_Source(art),
    )


_kinds: dict[int, tuple] = {}


def _slot_kinds(art) -> tuple[set[int], set[int]]:
    """(the slots with a mesh, the slots whose shapes move without their holder: weighted,
    or with deform keys, which may have moved), remembered per artwork."""
    hit = _kinds.get(id(art))
    if hit is not None and hit[0] is art:
        return hit[1]
    deformed = {t.slot for t in art.deforms}
    out = ({s for s, slot in enumerate(art.slots) if any(isinstance(a, MeshAttachment) for a in slot.attachments)},
           {s for s, slot in enumerate(art.slots) if _weighted_shapes(slot) or slot.name in deformed})
    if len(_kinds) > 16:
        _kinds.clear()
    _kinds[id(art)] = (art, out)
    return out


def _same_source(previous, art, bake):
    """``previous``'s ArtBake when it was made from this very artwork at these frames."""
    old = getattr(previous, "art", None)
    if (old is None or old.source is None or old.source.art is not art or len(previous) != len(bake)
            or not np.array_equal(previous.frames, bake.frames)):
        return None
    return old


def _moved(bone, bake, previous) -> bool:
    """The slot's holder (a bone, or the character space for None) is not the very
    one of ``previous``."""
    if bone is None:
        return bake.spaces[CHARACTER] is not previous.spaces[CHARACTER]
    return bake.bone(bone) is not previous.bone(bone)


def _weighted_shapes(slot) -> bool:
    """A box, clipping polygon or point of the slot may be weighted to other bones
    than the slot's: such shapes are placed again."""
    return any(getattr(a, "bones", None) for a in slot.attachments if not isinstance(a, MeshAttachment))


def _full_fields(world: Affine, n: int, ns: int):
    return [np.broadcast_to(np.asarray(f, float), (n, ns)) for f in world.fields()]


def _place(art, bake, tables, codes, cols, fields, corners) -> None:
    """Place the pictures of slot columns ``cols`` into ``fields`` (6 arrays (N, S))
    and ``corners`` (N, S, 4, 2), in place."""
    n = len(bake)
    # Each slot's holder: its bone's world frame (all bones' stacked once), or the
    # character space for a slot on no bone. Fields (N, K).
    bones = [art.slots[s].bone for s in cols]
    free = [k for k, b in enumerate(bones) if b is None]
    character = bake.spaces[CHARACTER].fields()
    if len(free) < len(bones) and len(cols) * 4 < len(bake.bones):
        # A few slots (a drag's): their bones' fields alone, not every bone's stacked.
        held_cols = [bake.bone(b).world.fields() if b is not None else None for b in bones]
        holder_fields = []
        for i, own in enumerate(character):
            f = np.empty((n, len(bones)))
            for k, h in enumerate(held_cols):
                f[:, k] = np.broadcast_to(np.asarray(own if h is None else h[i], float), (n,))
            holder_fields.append(f)
    else:
        at = np.array([0 if b is None else bake.column(b) for b in bones], dtype=np.intp)
        held = bake.bone_world.fields() if len(free) < len(bones) else [np.zeros((n, 0))] * 6
        holder_fields = []
        for field_, own in zip(held, character):
            f = np.array(field_[:, at]) if len(free) < len(bones) else np.zeros((n, len(bones)))
            if free:
                f[:, free] = np.broadcast_to(np.asarray(own, dtype=float), (n,))[:, None]
            holder_fields.append(f)
    holder = Affine(*holder_fields)
    sizes = [len(tables[s][1]) for s in cols]
    offsets = np.cumsum([0] + sizes[:-1])
    sub = codes[:, cols]
    pick = offsets[None, :] + np.maximum(sub, 0)  # (N, K) rows of the joined tables
    local = np.concatenate([tables[s][1] for s in cols])[pick]  # (N, K, 6)
    world = holder.compose(Affine(*np.moveaxis(local, -1, 0)))
    shown = sub >= 0
    for arr, v in zip(fields, world.fields()):
        arr[:, cols] = np.where(shown, v, 1.0 if arr is fields[0] or arr is fields[3] else 0.0)
    local_corners = np.concatenate([tables[s][2] for s in cols])[pick]  # (N, K, 4, 2)
    f = [v[..., None] for v in world.fields()]
    x, y = local_corners[..., 0], local_corners[..., 1]
    placed = np.stack([f[0] * x + f[1] * y + f[4], f[2] * x + f[3] * y + f[5]], axis=-1)
    corners[:, cols] = np.where(shown[..., None, None], placed, 0.0)


_SLOT_TABLES: dict = {}  # id(slot) -> (slot, active skins, tables): slots are immutable
_SLOT_TABLES_MAX = 4096


def _slot_tables(slot, active_skins):
    """(lookup: the attachment track's values mapped to attachment indices through the
    active skins, "" or a name no active or default skin has -> -1; table (A, 6): each
    attachment's local frame; corners (A, 4, 2)). Frame-independent, so kept per slot
    object: a one-frame evaluation (every mouse move of a drag) built them again for
    every slot, a third of its art's cost on a 27-slot rig."""
    hit = _SLOT_TABLES.get(id(slot))
    if hit is not None and hit[0] is slot and hit[1] == active_skins:
        return hit[2]
    lookup = np.array([skin_pick(slot.attachments, v, active_skins) for v in slot.attachment.values()], dtype=int)
    table = np.array([[float(v) for v in a.local().fields()] for a in slot.attachments]).reshape(-1, 6)
    corners = (np.stack([a.corners() for a in slot.attachments]) if slot.attachments
               else np.zeros((0, 4, 2)))
    for arr in (lookup, table, corners):
        arr.flags.writeable = False
    if len(_SLOT_TABLES) >= _SLOT_TABLES_MAX:
        _SLOT_TABLES.clear()
    _SLOT_TABLES[id(slot)] = (slot, active_skins, (lookup, table, corners))  # the slot kept: its id stays its own
    return lookup, table, corners


def world_points(world: Affine, points: np.ndarray) -> np.ndarray:
    """Per frame transforms (fields (N,)) applied to points (N, P, 2)."""
    f = [np.broadcast_to(np.asarray(v, dtype=float), (points.shape[0],))[:, None] for v in world.fields()]
    x, y = points[..., 0], points[..., 1]
    return np.stack([f[0] * x + f[1] * y + f[4], f[2] * x + f[3] * y + f[5]], axis=-1)


def with_art(project: Project, bake: Bake, previous: Bake | None = None) -> Bake:
    """``bake`` with its artwork (``bake.art``) added; unchanged when there are no slots.
    ``previous``: see :func:`bake_art`."""
    if not project.art.slots:
        return bake
    return replace(bake, art=bake_art(project, bake, previous))


__all__ = ["ArtBake", "ArtRow", "bake_art", "with_art", "world_points"]
