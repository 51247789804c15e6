"""Edits of the artwork that need some geometry: binding a layer to a bone.

The editor calls these inside undoable commands; each returns a new Project.
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from rigeditor.edits.errors import EditError
from rigeditor.core.geometry import Affine
from rigeditor.model.evaluation.bake import Bake
from rigeditor.edits.mesh_ops import carry_bind
from rigeditor.model.data.project import CHARACTER, Project

SHEAR_TOLERANCE = 1e-9


def bind_to_bone(project: Project, slot: str, bone: str | None, bake: Bake, row: int) -> Project:
    """Carry ``slot`` (all its attachments) from its holder to ``bone`` (None = the
    character space) so its images stay exactly where they are on screen at ``row`` of
    ``bake`` (a bake of ``project``): each attachment's offset, rotation and scale are
    recomputed in the new bone's frame; pivots, sizes, tints are kept.

    Raises KeyError for an unknown slot or bone, ValueError when the new frame would
    need a shear (a non-uniformly scaled, rotated space: images cannot shear).
    """
    old = project.art.slot(slot)
    if bone is not None:
        project.bone(bone)
    to_new = _holder(bake, bone, row).inverse().compose(_holder(bake, old.bone, row))
    attachments = []
    for a in old.attachments:
        # local' = to_new . local; keep the pivot: T(x, y) R S = local' . T(pivot).
        m = to_new.compose(a.local()).compose(Affine.trs(a.pivot[0], a.pivot[1]))
        x, y, rotation, sx, sy = decompose(m, where=f"slot {slot!r}, attachment {a.name!r}")
        attachments.append(carry_bind(replace(a, x=x, y=y, rotation=rotation, scale=(sx, sy)), to_new))
    art = project.art.with_slot(slot, bone=bone, attachments=tuple(attachments))
    return replace(project, art=art)


def _holder(bake: Bake, bone: str | None, row: int) -> Affine:
    if bone is None:
        return bake.spaces[CHARACTER].take(row)
    return bake.bone(bone).world.take(row)


def decompose(m: Affine, where: str = "transform") -> tuple[float, float, float, float, float]:
    """(x, y, rotation, sx, sy) with m = T(x, y) . R(rotation) . S(sx, sy) (one frame).

    sx > 0; a mirror shows as sy < 0. ValueError if ``m`` shears or is singular.
    """
    a, b, c, d, tx, ty = (float(np.asarray(v)) for v in m.fields())
    sx = math.hypot(a, c)
    if sx < 1e-300:
        raise EditError(f"{where}: the transform collapses (a scale of zero)")
    rotation = math.atan2(c, a)
    sy = (a * d - b * c) / sx
    # The y column must be the x column turned a quarter: (-sin, cos) * sy.
    if math.hypot(b + math.sin(rotation) * sy, d - math.cos(rotation) * sy) > SHEAR_TOLERANCE * max(abs(sy), 1.0):
        raise EditError(f"{where}: the new frame would shear the image (a rotated space with unequal scales)")
    return tx, ty, rotation, sx, sy
