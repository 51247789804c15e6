"""Artwork edits: place an attachment, show another one (keyed in Animate mode), bind a
slot to a bone, rename a slot, tint a picture, and keep slots valid when their bone is
renamed or deleted.

Pure functions like the other command modules: each takes a Project and returns a new
one or raises :class:`EditError`. Radians and model units, like the model.
"""
from __future__ import annotations

import math
from dataclasses import replace

from rigeditor.edits.deform import deforms_renamed_slot, deforms_without_slot
from rigeditor.edits.shapes import deleted_end_slot, dropped_bones_in_shapes, renamed_bone_in_shapes, renamed_end_slot
from rigeditor.edits.errors import EditError
from rigeditor.core.geometry import Affine
from rigeditor.edits.art_bind import bind_to_bone, decompose
from rigeditor.model.data.skins import shown_skin
from rigeditor.model.data.attachments import NONE
from rigeditor.edits.mesh_ops import carry_bind, drop_bones_from_meshes, renamed_bone_in_meshes
from rigeditor.model.data.project import Project


def _slot(project: Project, name: str):
    try:
        return project.art.slot(name)
    except KeyError:
        raise EditError(f"There is no slot named '{name}'.") from None


def set_placement(project: Project, slot: str, attachment: str, **changes) -> Project:
    """Change an attachment's x, y (model units), rotation (radians), scale (sx, sy),
    opacity ([0, 1]) or tint (r, g, b, a multipliers, each [0, 1]) in its bone's frame
    (the setup pose): the one ``attachment`` shows under the active skins."""
    s = _slot(project, slot)
    try:
        s.find(attachment)
    except KeyError:
        raise EditError(f"Slot '{slot}' has no attachment named '{attachment}'.") from None
    values = [x for v in changes.values() for x in (v if isinstance(v, tuple) else (v,))]
    if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in values):
        raise EditError(f"Placement values must be finite numbers, got {changes!r}.")
    if "scale" in changes and 0.0 in changes["scale"]:
        raise EditError("A scale of zero would make the picture vanish; use the attachment \"(none)\".")
    if "opacity" in changes and not 0.0 <= changes["opacity"] <= 1.0:
        raise EditError(f"Opacity must be between 0 and 1, got {changes['opacity']!r}.")
    if "tint" in changes and (len(changes["tint"]) != 4 or not all(0.0 <= c <= 1.0 for c in changes["tint"])):
        raise EditError(f"A tint is four multipliers (red, green, blue, alpha) between 0 and 1, "
                           f"got {changes['tint']!r}.")
    skin = shown_skin(s.attachments, attachment, project.art.active_skins)
    return replace(project, art=project.art.with_slot(slot, attachments=s.with_attachment(
        attachment, skin=skin, **changes).attachments))


def show_attachment(project: Project, slot: str, name: str, frame: int, *, animate: bool) -> Project:
    """Show attachment ``name`` ("" = none): keyed at ``frame`` in Animate mode (a
    stepped key), else the setup attachment (keyed anyway once the track has keys)."""
    s = _slot(project, slot)
    if name != NONE and name not in [a.name for a in s.attachments]:
        raise EditError(f"Slot '{slot}' has no attachment named '{name}'.")
    track = s.attachment.with_key(frame, name) if animate or s.attachment.keys else replace(
        s.attachment, default=name)
    return replace(project, art=project.art.with_slot(slot, attachment=track))


def bind_slot(project: Project, slot: str, bone: str | None, bake, row: int) -> Project:
    """Carry ``slot`` to ``bone`` (None = character space) keeping its pictures where
    they are at ``row`` of ``bake``."""
    _slot(project, slot)
    try:
        return bind_to_bone(project, slot, bone, bake, row)
    except KeyError as exc:
        raise EditError(str(exc).strip("'\"")) from None
    except ValueError as exc:
        raise EditError(str(exc)) from None


def renamed_slot(project: Project, old: str, new: str) -> Project:
    """Slot ``old`` named ``new`` (checked unique by the caller), in every draw-order key too."""
    art = project.art.with_slot(old, name=new)
    keys = tuple(replace(k, order=tuple(new if n == old else n for n in k.order)) for k in art.draw_order)
    return renamed_end_slot(replace(project, art=replace(art, draw_order=keys,
                                                         deforms=deforms_renamed_slot(art.deforms, old, new))), old, new)


def renamed_bone_in_slots(project: Project, old: str, new: str) -> Project:
    """Slots and meshes that named bone ``old`` name ``new`` (the bone itself is renamed by ``rename``)."""
    slots = tuple(replace(s, bone=new) if s.bone == old else s for s in project.art.slots)
    project = renamed_bone_in_meshes(replace(project, art=replace(project.art, slots=slots)), old, new)
    return renamed_bone_in_shapes(project, old, new)


def rehome_slots(project: Project, gone: set) -> Project:
    """Before deleting the bones ``gone``: their slots move to the nearest bone above
    that stays (or the character space), keeping their rest-pose place."""
    slots = []
    for s in project.art.slots:
        if s.bone not in gone:
            slots.append(s)
            continue
        carry, bone = Affine.identity(), s.bone
        while bone is not None and bone in gone:  # rest frame of the slot's bone in the keeper's frame
            b = project.bone(bone)
            carry = Affine.rotation_about_origin(b.rest_rotation, *b.rest_offset).compose(carry)
            bone = b.parent
        attachments = []
        for a in s.attachments:
            m = carry.compose(a.local()).compose(Affine.trs(a.pivot[0], a.pivot[1]))
            x, y, rotation, sx, sy = decompose(m, where=f"slot {s.name!r}")
            attachments.append(carry_bind(replace(a, x=x, y=y, rotation=rotation, scale=(sx, sy)), carry))
        slots.append(replace(s, bone=bone, attachments=tuple(attachments)))
    project = drop_bones_from_meshes(replace(project, art=replace(project.art, slots=tuple(slots))), gone)
    return dropped_bones_in_shapes(project, gone)


def restack_slot(project: Project, slot: str, step: int, frame: int, *, animate: bool) -> Project:
    """Move ``slot`` ``step`` places toward the front (+) or the back (-) of the draw
    order: in Animate mode as a draw-order key at ``frame`` (the order shown there,
    changed), else in the setup order (the slots' own order)."""
    _slot(project, slot)
    art = project.art
    names = [s.name for s in art.slots]
    current = [names[i] for i in art.order_codes([frame])[0]] if animate else names
    i = current.index(slot)
    j = min(max(i + int(step), 0), len(current) - 1)
    if i == j:
        raise EditError(f"'{slot}' is already at the {'front' if step > 0 else 'back'}.")
    order = current[:i] + current[i + 1:]
    order.insert(j, slot)
    if animate:
        return replace(project, art=art.with_draw_order_key(frame, order))
    by_name = {s.name: s for s in art.slots}
    return replace(project, art=replace(art, slots=tuple(by_name[n] for n in order)))


def delete_slot(project: Project, slot: str) -> Project:
    """Remove ``slot`` (its pictures' files stay on disk) and its place in every
    draw-order key."""
    _slot(project, slot)
    art = project.art
    keys = tuple(replace(k, order=tuple(n for n in k.order if n != slot)) for k in art.draw_order)
    return deleted_end_slot(replace(project, art=replace(art, slots=tuple(s for s in art.slots if s.name != slot),
                                                           draw_order=keys, deforms=deforms_without_slot(art.deforms, slot))),
                            slot)
