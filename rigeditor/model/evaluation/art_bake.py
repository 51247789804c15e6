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
from rigeditor.model.data.skins import pick as skin_pick
from rigeditor.model.data.project import CHARACTER, Project
from rigeditor.model.data.slot_color import sample_colors
from rigeditor.model.evaluation.skin_bake import mesh_poses
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

    def drawn(self, i: int) -> list[int]:
        """Slot columns drawn at row ``i``, back to front (slots showing nothing left out)."""
        return self.row(i).drawn()

    def row(self, i: int) -> "ArtRow":
        """Everything drawn at row ``i``."""
        return ArtRow(self.attachment[i], np.stack([np.broadcast_to(np.asarray(f)[i], (len(self.slots),))
                                                    for f in self.image_world.fields()], axis=-1),
                      self.corners[i], self.order[i],
                      {m.column: m.vertices(i) for m in self.meshes if m.shown[i]},
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


def bake_art(project: Project, bake: Bake) -> ArtBake:
    """The artwork of ``project`` posed by ``bake``."""
    art = project.art
    n, ns = len(bake), len(art.slots)
    codes = np.full((n, ns), -1, dtype=int)
    fields = [np.zeros((n, ns)) for _ in range(6)]
    fields[0][:] = fields[3][:] = 1.0
    corners = np.zeros((n, ns, 4, 2))
    meshes, shapes = [], []
    sequence = np.full((n, ns), -1, dtype=np.int64)
    for s, slot in enumerate(art.slots):
        # The track's values mapped to attachment indices through the active skins
        # ("" or a name no active or default skin has -> -1).
        lookup = np.array([skin_pick(slot.attachments, v, art.active_skins) for v in slot.attachment.values()],
                          dtype=int)
        codes[:, s] = lookup[slot.attachment.sample(bake.frames)]
        if not slot.attachments:
            continue
        holder = (bake.spaces[CHARACTER] if slot.bone is None
                  else bake.bone(slot.bone).world)
        table = np.array([[float(v) for v in a.local().fields()] for a in slot.attachments])  # (A, 6)
        pick = np.maximum(codes[:, s], 0)
        world = holder.compose(Affine(*table[pick].T))
        shown = codes[:, s] >= 0
        for arr, v in zip(fields, world.fields()):
            arr[:, s] = np.where(shown, np.broadcast_to(v, (n,)), arr[:, s])
        local_corners = np.stack([a.corners() for a in slot.attachments])[pick]  # (N, 4, 2)
        placed = world_points(world, local_corners)
        corners[:, s] = np.where(shown[:, None, None], placed, 0.0)
        meshes += mesh_poses(project, bake, s, slot, codes[:, s])
        shapes += shape_poses(project, bake, s, slot, codes[:, s])
        sequence[:, s] = sequence_frames(slot, codes[:, s], np.asarray(bake.frames, float))
    light, dark = sample_colors(art.slots, bake.frames)
    return ArtBake(
        slots=tuple(s.name for s in art.slots),
        attachment=frozen(codes),
        image_world=Affine(*(frozen(f) for f in fields)),
        corners=frozen(corners),
        order=frozen(art.order_codes(bake.frames)),
        meshes=tuple(meshes),
        color=frozen(light), dark=frozen(dark), blend=tuple(s.blend for s in art.slots),
        shapes=tuple(shapes),
        sequence=frozen(sequence),
    )


def world_points(world: Affine, points: np.ndarray) -> np.ndarray:
    """Per frame transforms (fields (N,)) applied to points (N, P, 2)."""
    f = [np.broadcast_to(np.asarray(v, dtype=float), (points.shape[0],))[:, None] for v in world.fields()]
    x, y = points[..., 0], points[..., 1]
    return np.stack([f[0] * x + f[1] * y + f[4], f[2] * x + f[3] * y + f[5]], axis=-1)


def with_art(project: Project, bake: Bake) -> Bake:
    """``bake`` with its artwork (``bake.art``) added; unchanged when there are no slots."""
    if not project.art.slots:
        return bake
    return replace(bake, art=bake_art(project, bake))


__all__ = ["ArtBake", "ArtRow", "bake_art", "with_art", "world_points"]
