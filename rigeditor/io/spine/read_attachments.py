"""Spine slots and their attachments, read into the project's artwork.

Every skin's attachments per slot (the default skin's in skin "", the others' in their
skin's name): regions as pictures cut from the atlas pages (``AtlasPages``, read on
first use), sequences as their frames' pictures, meshes and linked meshes (placed once
the rig exists: ``bind_meshes`` binds each at the setup pose its weights agree with
best), boxes, clipping polygons and points (``read_shapes``), paths (``read_path``).
"""
from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np

from rigeditor.io.art.layers import file_stem, unique_names
from rigeditor.io.spine.read_atlas import Atlas, cut_region, read_atlas
from rigeditor.io.spine.read_linked import as_linked, linked_fields
from rigeditor.io.spine.read_mesh import build_mesh, mesh_geometry
from rigeditor.io.spine.read_path import path_attachment
from rigeditor.io.spine.read_sequence import frame_region, sequence_of
from rigeditor.io.spine.read_shapes import SPINE_KINDS, read_shape
from rigeditor.io.spine.read_slot import slot_setup
from rigeditor.io.spine.skeleton import SpineError, _Bad, color
from rigeditor.model.data.attachments import NONE, Art, ImageAttachment, Slot
from rigeditor.model.data.sequences import Sequence
from rigeditor.model.data.skins import DEFAULT as DEFAULT_SKIN
from rigeditor.model.data.timeline import StepChannel
from rigeditor.model.validation.project import MAX_MAGNITUDE


class AtlasPages:
    """An atlas and its page images, read on first use (straight alpha)."""

    def __init__(self, path: Path):
        self.path = path
        self.atlas: Atlas = read_atlas(path)
        self._pages: dict[int, np.ndarray] = {}

    def picture(self, region_name: str) -> np.ndarray:
        from rigeditor.io.errors import ProjectFileError
        from rigeditor.io.art.images import read_rgba

        region = self.atlas.regions.get(region_name)
        if region is None:
            raise SpineError(self.path, [f"atlas: no region {region_name!r} (an attachment uses it)"])
        if region.page not in self._pages:
            page = self.path.with_name(self.atlas.pages[region.page])
            try:
                self._pages[region.page] = read_rgba(page)
            except ProjectFileError as exc:
                raise SpineError(self.path, [f"page {page.name!r}: {exc.problems[0].removeprefix('image: ')}"]) from None
        try:
            return cut_region(self._pages[region.page], region, self.atlas.pma[region.page])
        except ValueError as exc:
            raise SpineError(self.path, [f"atlas: {exc}"]) from None


def read_art(skel, pages, bones, root, folder, notes):
    """(Art, {file name: picture}, pending meshes) from the slots and every skin (the
    default skin's attachments in skin "", the others' in their skin's name)."""
    skins = skel.skins
    required = {b.name for b in skel.bones if b.skin}
    parent = {b.name: b.parent for b in skel.bones}
    skin_bones, brought = [], set()
    for name, skin in skins.items():
        listed = []  # its bones, and the skin bones above them (the runtimes pose those too)
        for b in (skin.get("bones") or ()):
            while isinstance(b, str) and b not in listed:
                listed.append(b)
                b = parent.get(b)
        brought.update(listed)
        own = tuple(b for b in listed if b in required and b in bones)
        if own and name != "default":
            skin_bones.append((name, own))
        elif own:
            notes.add("skin bones in the default skin (always posed)", name)
    files: dict[str, str] = {}  # region -> file name
    images: dict[str, np.ndarray] = {}
    pending: dict = {}  # (slot, skin, attachment) -> mesh geometry
    slots = []
    for s in skel.slots:
        attachments, paths = [], []
        for k, (skin_name, skin) in enumerate(skins.items()):
            ours = DEFAULT_SKIN if skin_name == "default" else skin_name
            for key, a in ((skin.get("attachments") or {}).get(s.name) or {}).items():
                if isinstance(a, dict) and a.get("type") == "path":  # io.spine.read_path
                    paths.append(path_attachment(key, a, f"skins[{k}].attachments.{s.name}.{key}",
                                                 [b.name for b in skel.bones], root, ours, notes))
                    continue
                made = _attachment(skel, pages, s, key, a, f"skins[{k}].attachments.{s.name}.{key}", folder, files,
                                   images, notes)
                if made is None:
                    continue
                picture, geometry = made
                if geometry is not None:  # placed after the rig exists (its setup pose binds it)
                    pending[(s.name, ours, key)] = geometry
                attachments.append(replace(picture, skin=ours))
        names = {a.name for a in attachments} | {p.name for p in paths}
        setup = s.attachment if s.attachment in names else NONE
        slots.append(Slot(s.name, None if s.bone == root else (s.bone if s.bone in bones else None),
                          tuple(attachments), StepChannel(setup), paths=tuple(paths), **slot_setup(s, notes)))
    unbrought = (required & set(bones)) - brought
    if unbrought:
        notes.add("skin bones no skin brings (always posed)", ", ".join(sorted(unbrought)))
    return Art(tuple(slots), skins=tuple(n for n in skins if n != "default"), skin_bones=tuple(skin_bones)), \
        images, pending


def _attachment(skel, pages, s, key, a, at, folder, files, images, notes):
    """(ImageAttachment, mesh geometry or None) of Spine attachment ``a`` (key ``key``
    at JSON path ``at``) in slot ``s``, its picture cut into ``images``; None for a
    kind not imported (listed)."""
    kind = a.get("type", "region")
    geometry = None
    link = None
    if kind == "linkedmesh":
        link = linked_fields(a)
        a = _linked(skel, s.name, key, a)
        if a is None:
            notes.add("linked meshes whose parent mesh is missing", f"{s.name}/{key}")
            return None
        kind = "mesh"
    if kind == "mesh":
        geometry = {**mesh_geometry(a, notes, f"{s.name}/{key}"), **({"link": link} if link else {})}
    elif kind in SPINE_KINDS:  # a box, clipping polygon or point: no picture
        return read_shape(a, key, at, [b.name for b in skel.bones], {x.name for x in skel.slots}), None
    elif kind != "region":
        notes.add(f"{kind} attachments (not supported)", f"{s.name}/{key}")
        return None
    region = a.get("path", a.get("name", key))
    seq = sequence_of(a, at)
    if pages is None:
        raise SpineError(None, ["atlas: the skeleton has pictures but no atlas was given"])

    def cut(region):  # the region's picture file, cut once
        if region not in files:
            # The region's own name, without its folders (Spine names regions by their
            # image path: "images/head").
            files[region] = unique_names(list(files.values()) + [file_stem(region.rsplit("/", 1)[-1]) + ".png"])[-1]
            images[files[region]] = pages.picture(region)
        return files[region]

    sequence = None
    if seq is not None:  # every frame's region: the path plus its number; the setup frame's is the picture
        sequence = Sequence(tuple(f"{folder}/{cut(frame_region(region, seq, i))}" for i in range(seq["count"])),
                            seq["start"], seq["digits"], seq["setup"])
        region = frame_region(region, seq, seq["setup"])
    picture = images[cut(region)]
    oh, ow = picture.shape[:2]
    try:
        tint = color(a.get("color", "ffffffff"), f"{at}.color")  # the slot's own colour multiplies it
    except _Bad as bad:
        raise SpineError(None, [str(bad)]) from None
    tint = tuple(float(v) for v in tint)
    if geometry is not None:
        return ImageAttachment(key, f"{folder}/{files[region]}", float(ow), float(oh), tint=tint,
                               sequence=sequence), geometry
    return ImageAttachment(
        key, f"{folder}/{files[region]}", float(ow), float(oh), float(a.get("x", 0.0)),
        float(a.get("y", 0.0)), math.radians(float(a.get("rotation", 0.0))),
        (_picture_scale(a, "X", "width", ow, at), _picture_scale(a, "Y", "height", oh, at)), tint=tint,
        sequence=sequence), None


def _picture_scale(a: dict, axis: str, size: str, pixels: int, at: str) -> float:
    """The picture's scale along ``axis``: Spine's scale times its drawn size over the
    picture's ``pixels``; SpineError at ``at`` when RigEditor would refuse it (zero,
    or beyond MAX_MAGNITUDE)."""
    scale, drawn = float(a.get(f"scale{axis}", 1.0)), float(a.get(size, pixels))
    value = scale * drawn / pixels
    if not 0 < abs(value) <= MAX_MAGNITUDE:
        raise SpineError(None, [f"{at}.scale{axis}: {scale:g} at {size} {drawn:g} on a {pixels}-pixel picture "
                                f"scales it by {value:g} (RigEditor needs a scale that is not 0 and has "
                                f"magnitude <= {MAX_MAGNITUDE:g})"])
    return value


def _linked(skel, slot: str, key: str, a: dict) -> dict | None:
    """A linked mesh as a mesh: its parent's geometry with its own region and colour."""
    skin = skel.skins.get(a.get("skin") or "default", {}).get("attachments", {})
    parent = (skin.get(slot) or {}).get(a.get("parent"))
    if not isinstance(parent, dict) or parent.get("type") != "mesh":
        return None
    own = {k: v for k, v in a.items() if k in ("path", "name", "color", "sequence")}
    return {**{k: v for k, v in parent.items() if k != "sequence"}, "path": own.get("path", own.get("name", key)),
            **{k: own[k] for k in ("color", "sequence") if k in own}}  # its own sequence, as Spine reads it


def bind_meshes(project, skel, pending, notes):
    """``project`` with its mesh placeholders made meshes, bound at the setup pose."""
    if not pending:
        return project
    from rigeditor.model.evaluation.evaluate import evaluate

    # Spine binds a weighted mesh where its bones stood: in the setup pose as its data
    # says (constraints off) or as the editor shows it (constraints on). Each mesh takes
    # the pose its weights agree with best.
    from rigeditor.model.data.timeline import constant

    poses = [evaluate(replace(project, chains=tuple(replace(c, mix=constant(0.0)) for c in project.chains)),
                      np.zeros(1))]
    if project.chains:
        poses.append(evaluate(project, np.zeros(1)))
    spine_bones = [b.name for b in skel.bones]
    index = {(DEFAULT_SKIN if n == "default" else n): k for k, n in enumerate(skel.skins)}
    slots = []
    for slot in project.art.slots:
        atts = []
        for a in slot.attachments:
            if (slot.name, a.skin, a.name) in pending:
                label = f"skins[{index[a.skin]}].attachments.{slot.name}.{a.name}"
                built = [build_mesh(a, pending[(slot.name, a.skin, a.name)], slot.bone, spine_bones, pose, {},
                                    label) for pose in poses]
                mesh, spread, dropped = min(built, key=lambda b: b[1])
                mesh = as_linked(mesh, pending[(slot.name, a.skin, a.name)].get("link"))
                for line in dropped:
                    notes.add(line, f"{slot.name}/{a.name}")
                a = mesh
            atts.append(a)
        slots.append(replace(slot, attachments=tuple(atts)))
    return replace(project, art=replace(project.art, slots=tuple(slots)))
