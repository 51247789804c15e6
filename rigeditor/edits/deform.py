"""Deform key edits: key, move and delete a mesh's keyed vertex offsets
(``model.data.deform``). Pure functions over Projects; refusals are EditErrors.

``key_vertex`` is the mesh tool's drag in Animate mode: the vertex under the pointer
moves by a world displacement at the current frame, as a deform key (the offsets the
frame shows, with that vertex's moved), one edit for the whole gesture.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from rigeditor.edits.errors import EditError
from rigeditor.model.data.deform import (
    DEFORM, DEFORM_INTERPOLATIONS, LINEAR_CURVE, DeformKey, DeformTrack, find, sample,
)
from rigeditor.model.data.mesh_attachment import MeshAttachment
from rigeditor.model.data.project import Project
from rigeditor.model.validation.deform import influences


def _mesh(project: Project, slot: str, attachment: str, skin: str) -> MeshAttachment:
    try:
        a = project.art.slot(slot).find(attachment, skin)
    except KeyError as exc:
        raise EditError(str(exc).strip("'\"")) from None
    if not isinstance(a, MeshAttachment) or a.skin != skin:
        raise EditError(f"'{attachment}' on slot '{slot}' is not a mesh of skin '{skin or 'default'}'.")
    return a


def _with_track(project: Project, track: DeformTrack) -> Project:
    others = tuple(t for t in project.art.deforms if t.key != track.key)
    kept = others + ((track,) if track.keys else ())
    return replace(project, art=replace(project.art, deforms=tuple(sorted(kept, key=lambda t: t.key))))


def set_deform_key(project: Project, slot: str, attachment: str, frame: float, offsets, *, skin: str = "",
                   interpolation: str = "linear", curve=LINEAR_CURVE) -> Project:
    """Key mesh ``attachment``'s offsets at ``frame`` (replacing a key there).
    offsets: (V, 2) for an unweighted mesh (slot bone frame), (V, K, 2) per influence
    (each bone's frame) for a weighted one; model units."""
    mesh = _mesh(project, slot, attachment, skin)
    key = DeformKey(frame, np.asarray(offsets, float), interpolation, curve)
    shape = (len(mesh.vertices), influences(mesh), 2)
    if key.offsets.shape != shape:
        raise EditError(f"{slot}/{attachment}: deform offsets must be {shape[0]} x {shape[1]} x 2, got "
                        f"{' x '.join(map(str, key.offsets.shape))}")
    if not np.all(np.isfinite(key.offsets)):
        raise EditError(f"{slot}/{attachment}: deform offsets must be finite numbers")
    if interpolation not in DEFORM_INTERPOLATIONS:
        raise EditError(f"interpolation must be one of {', '.join(DEFORM_INTERPOLATIONS)}, got {interpolation!r}")
    track = find(project.art.deforms, slot, skin, attachment) or DeformTrack(slot, attachment, skin)
    return _with_track(project, track.with_key(key))


def delete_deform_key(project: Project, slot: str, attachment: str, frame: float, *, skin: str = "") -> Project:
    """Remove the deform key of that mesh at ``frame`` (EditError when there is none)."""
    track = find(project.art.deforms, slot, skin, attachment)
    if track is None or all(k.frame != frame for k in track.keys):
        raise EditError(f"{slot}/{attachment} has no deform key at frame {frame:g}")
    return _with_track(project, replace(track, keys=tuple(k for k in track.keys if k.frame != frame)))


def key_vertex(project: Project, pose, row: int, frame: float, index: int, world_delta) -> Project:
    """Move vertex ``index`` of the mesh of ``pose`` (a skin_bake.MeshPose of a Bake of
    ``project``) by ``world_delta`` (world units) at ``row``, keyed at ``frame``: the
    offsets shown at that frame, with this vertex's influences each moved by the same
    character-space displacement (so their blend moves by it). A linked mesh that
    follows its parent's keys keys its parent."""
    mesh = pose.mesh
    if not 0 <= index < len(mesh.vertices):
        raise EditError(f"{pose.slot}/{mesh.name} has no vertex {index}")
    follows = getattr(mesh, "parent", "") and getattr(mesh, "timelines", False)
    owner = (mesh.parent, mesh.parent_skin) if follows else (mesh.name, mesh.skin)
    track = find(project.art.deforms, pose.slot, owner[1], owner[0])
    offsets = sample(track.keys if track else (), [frame])[0]
    if offsets.shape[0] == 0:
        offsets = np.zeros((len(mesh.vertices), influences(mesh), 2))
    char = pose.character.take(row)
    char_lin = np.array([[float(char.a), float(char.b)], [float(char.c), float(char.d)]])
    try:
        delta = np.linalg.solve(char_lin, np.asarray(world_delta, float))
        s = pose.skins[row]  # (B, 2, 3) in character space
        if mesh.skinned:
            bind = np.asarray(mesh.bind, float).reshape(-1, 6)[:, :4].reshape(-1, 2, 2)
            for k, b in enumerate(mesh.indices[index]):
                if mesh.weights[index, k] != 0:
                    offsets[index, k] += np.linalg.solve(s[b, :, :2] @ bind[b], delta)
        else:
            offsets[index, 0] += np.linalg.solve(s[0, :, :2], delta)
    except np.linalg.LinAlgError:
        raise EditError(f"{pose.slot}/{mesh.name}: a bone of vertex {index} is scaled to 0 here; "
                        f"its deform cannot be keyed at this frame") from None
    return set_deform_key(project, pose.slot, owner[0], frame, offsets, skin=owner[1])




def deform_keys_of(project: Project, path) -> tuple:
    """The keys of deform track ``path`` = (DEFORM, slot, (skin, attachment)) (empty when none)."""
    _, slot, (skin, attachment) = path
    track = find(project.art.deforms, slot, skin, attachment)
    return track.keys if track is not None else ()


def with_deform_keys(project: Project, path, keys) -> Project:
    """``project`` with deform track ``path``'s keys replaced (the generic key edits:
    move, delete, paste, through ``edits.keys.put``)."""
    _, slot, (skin, attachment) = path
    keys = tuple(sorted(keys, key=lambda k: k.frame))
    return _with_track(project, DeformTrack(slot, attachment, skin, keys))


_ROW_TYPES: dict = {}


def _row_type(track_type):
    """A Track whose item is its slot (made once per track type)."""
    if track_type not in _ROW_TYPES:
        class DeformRow(track_type):
            @property
            def item(self):
                return "slot", self.path[1]

        _ROW_TYPES[track_type] = DeformRow
    return _ROW_TYPES[track_type]


def deform_rows(project: Project, track_type) -> list:
    """A timeline row per keyed deform track, labelled as its slot's and selected with
    it (``track_type``: edits.tracks.Track, passed in: tracks imports this module)."""

    row = _row_type(track_type)
    out = []
    for t in project.art.deforms:
        if t.keys:
            label = f"{t.slot} · deform {t.attachment}" + (f" ({t.skin})" if t.skin else "")
            out.append(row(label, (DEFORM, t.slot, (t.skin, t.attachment)), tuple(k.frame for k in t.keys)))
    return out


__all__ = ["deform_keys_of", "deform_rows", "delete_deform_key", "key_vertex", "set_deform_key", "with_deform_keys"]


def deforms_renamed_slot(deforms, old: str, new: str) -> tuple:
    """Deform tracks with slot ``old`` named ``new`` (a slot rename carries its keys)."""
    return tuple(replace(t, slot=new) if t.slot == old else t for t in deforms)


def deforms_without_slot(deforms, slot: str) -> tuple:
    """Deform tracks without those of ``slot`` (a deleted slot takes its keys)."""
    return tuple(t for t in deforms if t.slot != slot)


__all__ += ["deforms_renamed_slot", "deforms_without_slot"]


def carried_offsets(before: MeshAttachment, after: MeshAttachment, old_of_new, offsets: np.ndarray) -> np.ndarray:
    """Offsets (V, K, 2) of ``before`` for mesh ``after`` whose vertex v' was vertex
    ``old_of_new[v']`` (-1: new, offset 0); a weighted vertex's offsets follow their
    bone (a vertex edit may reorder its influences)."""
    old_of_new = np.asarray(old_of_new, np.int64)
    out = np.zeros((len(after.vertices), influences(after), 2))
    for v, old in enumerate(old_of_new):
        if old < 0:
            continue
        if not (before.skinned and after.skinned):
            if before.skinned == after.skinned:
                out[v] = offsets[old]
            continue
        column = {before.bones[b]: k for k, (b, w) in enumerate(zip(before.indices[old], before.weights[old]))
                  if w != 0}
        for k, (b, w) in enumerate(zip(after.indices[v], after.weights[v])):
            if w != 0 and after.bones[b] in column:
                out[v, k] = offsets[old, column[after.bones[b]]]
    return out


def refit_after_vertex_edit(before: Project, after: Project, slot: str, attachment: str, old_of_new) -> Project:
    """``after`` (a vertex added or deleted on mesh ``attachment`` of ``slot``) with that
    mesh's deform keys carried over, in every animation: kept vertices keep their
    offsets, a new vertex starts at 0."""
    try:
        a, b = before.art.slot(slot).find(attachment), after.art.slot(slot).find(attachment)
    except KeyError:
        return after
    if not (isinstance(a, MeshAttachment) and isinstance(b, MeshAttachment)):
        return after
    path = (DEFORM, slot, (a.skin, attachment))

    def keys_carried(keys):
        return tuple(replace(k, offsets=carried_offsets(a, b, old_of_new, k.offsets)) for k in keys)

    out = after
    keys = deform_keys_of(after, path)
    if keys:
        out = with_deform_keys(out, path, keys_carried(keys))
    animations = tuple(replace(x, tracks={**x.tracks, path: keys_carried(x.tracks[path])}) if path in x.tracks else x
                       for x in out.animations)
    return replace(out, animations=animations)


__all__ += ["carried_offsets", "refit_after_vertex_edit"]
