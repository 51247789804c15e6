"""The artwork of the Spine export: slots, every skin's region and mesh attachments
(the default skin first, then the project's skins in order; which one a runtime shows
is the runtime's choice, the default skin alone unless it sets one),
attachment and draw-order timelines, and the texture atlas (``.atlas`` + page PNGs).

Mapping: a slot is a Spine slot on its bone (the root bone, which stands for the
character space, when it is not bound); setup draw order = the slots' order. An image
attachment is a region attachment named like the attachment, whose ``path`` names its
atlas region (the image path without ".png"): x, y = the image centre in the bone
frame (the pivot folded in), rotation in degrees, scaleX/Y, width/height in pixels,
color = tint with the opacity in its alpha. Timelines are read from the Bake: a key
wherever the shown attachment or the draw order changes (stepped by nature).

A mesh attachment is a Spine mesh on the same region: ``uvs`` and ``triangles`` flat,
``hull`` = the outer outline's vertex count (those vertices come first), ``edges`` =
the outline's vertex pairs (indices x 2, Spine's layout). A rigid mesh's ``vertices``
are x, y pairs in its slot bone's frame. A skinned mesh's are, per vertex: its number
of influences, then per influence the Spine bone index, the vertex in that bone's
frame at bind (bind⁻¹ · p) and the weight, so a runtime's Σ w · M(t) · (x, y) is
RigEditor's linear blend skinning.
"""
from __future__ import annotations

import math

import numpy as np

from rigeditor.core.geometry import Affine
from rigeditor.io.art.atlas import MAX_PAGE, PADDING, atlas_text, compose_pages, shelf_pack
from rigeditor.io.errors import ExportError, ProjectFileError
from rigeditor.io.spine.write_curves import key_time
from rigeditor.io.spine.write_color import color_timelines, slot_setup
from rigeditor.io.art.images import encode_png, image_file, read_rgba
from rigeditor.io.spine.write_path import path_attachment_map
from rigeditor.model.data.attachments import NONE, ImageAttachment
from rigeditor.model.evaluation.bake import Bake
from rigeditor.io.spine.write_linked import linked_entry
from rigeditor.model.data.linked_mesh import LinkedMesh
from rigeditor.model.data.mesh_attachment import MeshAttachment
from rigeditor.model.data.project import Project
from rigeditor.model.data.skins import DEFAULT as DEFAULT_SKIN
from rigeditor.model.data.shapes import is_shape
from rigeditor.io.spine.write_shapes import shape_json
from rigeditor.io.spine.write_sequences import frame_regions, merged, sequence_timelines, with_sequence


def region_name(a: ImageAttachment) -> str:
    return a.path[:-4] if a.path.lower().endswith(".png") else a.path


def art_sections(project: Project, bake: Bake, root: str, bone_index: dict) -> tuple[dict, dict]:
    """(top-level sections: slots and skins, animation sections: slots and drawOrder).
    bone_index: {bone name: index in the Spine bones list}."""
    art = project.art
    if not art.slots:
        return {}, {}
    # At or before each frame's time as a 32-bit float (key_time): a key read after
    # it would switch a frame late when a runtime samples exactly at that frame's time.
    times = key_time(bake.frames - bake.frames[0], bake.fps)
    slots, skins = [], {name: {} for name in (DEFAULT_SKIN,) + tuple(art.skins)}
    for slot in art.slots:
        entry = {"name": slot.name, "bone": slot.bone or root}
        if slot.attachment.default != NONE:
            entry["attachment"] = slot.attachment.default
        entry.update(slot_setup(slot))  # colour, dark colour, blend (write_color)
        slots.append(entry)
        for a in slot.attachments:  # each attachment in its own skin
            skins[a.skin].setdefault(slot.name, {})[a.name] = (
                shape_json(a, bone_index, root) if is_shape(a)
                else with_sequence(_mesh(a, bone_index) if isinstance(a, MeshAttachment) else _region(a), a))
        for p in slot.paths:  # io.spine.write_path
            skins[p.skin].setdefault(slot.name, {})[p.name] = path_attachment_map(p, bone_index, bone_index[root])
    anim: dict = {}
    timelines = {}
    for s, slot in enumerate(art.slots):
        keys = _attachment_keys(slot, bake.frames, times)
        if keys:
            timelines[slot.name] = {"attachment": keys}
        if len(bake.frames):
            color = color_timelines(slot, int(bake.frames[0]), int(bake.frames[-1]), bake.fps)
            if color:
                timelines.setdefault(slot.name, {}).update(color)
    if timelines:
        anim["slots"] = timelines
    sequences = sequence_timelines(project, bake)
    if sequences:
        anim["attachments"] = merged(anim.get("attachments", {}), sequences)
    draw = _draw_order_keys([s.name for s in art.slots], bake.art.order, times)
    if draw:
        anim["drawOrder"] = draw
    from rigeditor.io.spine.write_deform import deform_section

    anim.update(deform_section(project, bake))
    return {"slots": slots, "skins": [{"name": name or "default", "attachments": entries}
                                      for name, entries in skins.items()]}, anim


def _region(a: ImageAttachment) -> dict:
    cx, cy = a.centre()
    out = {"type": "region", "path": region_name(a), "x": _r(cx), "y": _r(cy),
           "rotation": _r(math.degrees(a.rotation)), "scaleX": _r(a.scale[0]), "scaleY": _r(a.scale[1]),
           "width": _r(a.width), "height": _r(a.height)}
    color = _color(a)
    if color:
        out["color"] = color
    return out


def _mesh(a: MeshAttachment, bone_index: dict) -> dict:
    if isinstance(a, LinkedMesh):
        return linked_entry(a, region_name(a), _color(a))
    p = a.in_slot_frame()
    if a.skinned:
        # Each influence's own point in its bone's bind frame (the vertex's, unless the
        # mesh was bound with its bones apart: ``bind_offsets``).
        points = a.influence_points()  # (V, K, 2)
        in_bone = [Affine(*f).inverse().apply(points.reshape(-1, 2)).reshape(points.shape) for f in a.bind]
        flat: list = []
        for i in range(len(p)):
            used = [(c, int(k), float(w)) for c, (k, w) in enumerate(zip(a.indices[i], a.weights[i]))
                    if w != 0]  # tiny negatives too
            flat.append(len(used))
            for c, k, w in used:
                flat += [bone_index[a.bones[k]], _r(in_bone[k][i, c, 0]), _r(in_bone[k][i, c, 1]), _r(w)]
    else:
        flat = [_r(v) for v in p.ravel()]
    out = {"type": "mesh", "path": region_name(a), "uvs": [_r(v) for v in a.uvs.ravel()],
           "triangles": [int(v) for v in a.triangles.ravel()], "vertices": flat, "hull": a.hull_count(),
           "edges": [2 * int(v) for v in a.edges.ravel()], "width": _r(a.width), "height": _r(a.height)}
    color = _color(a)
    if color:
        out["color"] = color
    return out


def _color(a: ImageAttachment) -> str | None:
    rgba = list(a.tint[:3]) + [a.tint[3] * a.opacity]
    return "".join(f"{round(v * 255):02x}" for v in rgba) if any(v != 1.0 for v in rgba) else None


def _attachment_keys(slot, frames: np.ndarray, times) -> list[dict]:
    """Keys where the slot's attachment *name* changes (what a runtime looks up in its
    skins: the same keys serve every skin)."""
    values = list(slot.attachment.values())
    shown = np.asarray(slot.attachment.sample(frames))
    setup = values.index(slot.attachment.default)
    changes = np.flatnonzero(np.diff(np.r_[setup, shown]) != 0)
    return [{"time": times[i], "name": values[shown[i]] or None} for i in changes]


def _draw_order_keys(names: list[str], order: np.ndarray, times) -> list[dict]:
    """Keys where the order changes. Each lists, in setup order, the slots not at
    their setup place with offset = new place - setup place; Spine fills the rest in
    setup order, which puts every slot left out back at its own place."""
    setup = np.arange(len(names))
    keys, previous = [], setup
    for i, row in enumerate(order):
        if np.array_equal(row, previous):
            continue
        place = np.empty_like(row)
        place[row] = setup  # place[slot] = its position in this frame's order
        key = {"time": times[i]}
        moved = [{"slot": names[s], "offset": int(place[s] - s)} for s in setup if place[s] != s]
        if moved:
            key["offsets"] = moved
        keys.append(key)
        previous = row
    return keys


LARGEST_PAGE = 8192
"""Pixels: the largest atlas page the export writes (the texture size most GPUs take);
a picture wider or taller than ``max_size`` gets a page up to this size, and one
larger still is scaled down to fit it (the region keeps its size in the skeleton)."""


def atlas_files(project: Project, base, stem: str, *, max_size: int = MAX_PAGE,
                padding: int = PADDING, notes: list | None = None) -> dict[str, bytes]:
    """{file name: bytes}: ``STEM.atlas`` and its pages ``STEM.png``, ``STEM_2.png``...

    Every image is read from the project's folder ``base``; a missing or unreadable
    image is an ExportError naming it (nothing is written). Pages are ``max_size``
    square at most, larger (a power of two up to LARGEST_PAGE) when a picture needs it;
    ``notes`` gets a line per picture that needed a larger page or was scaled.
    """
    regions: dict[str, ImageAttachment] = {}
    problems = []
    for slot in project.art.slots:
        for a in slot.attachments:
            if a.sequence is not None:  # every frame's picture, under its numbered region name
                for name, frame in frame_regions(a):
                    regions.setdefault(name, frame)
            elif not is_shape(a):  # boxes, clipping polygons and points have no picture
                regions.setdefault(region_name(a), a)
    images = []
    for name, a in regions.items():
        try:
            images.append(read_rgba(image_file(base, a.path)))
        except ProjectFileError as exc:
            problems.append(f"{a.path}: {exc.problems[0]}")
    if problems:
        raise ExportError(None, [f"images: cannot pack the atlas: {p}" for p in problems])
    largest = max([max(img.shape[:2]) for img in images], default=0) + 2 * padding
    if largest > max_size:
        size = max_size
        while size < min(largest, LARGEST_PAGE):
            size *= 2
        size = min(size, max(LARGEST_PAGE, max_size))
        for k, (name, a) in enumerate(regions.items()):
            h, w = images[k].shape[:2]
            if max(w, h) + 2 * padding <= max_size:
                continue
            if max(w, h) + 2 * padding > size:
                images[k] = _scaled(images[k], (size - 2 * padding) / max(w, h))
                note = (f"{a.path}: {w}x{h} pixels is larger than the largest atlas page ({size}x{size}); "
                        f"scaled to {images[k].shape[1]}x{images[k].shape[0]} (it keeps its size in the skeleton)")
            else:
                note = f"{a.path}: {w}x{h} pixels is larger than a {max_size}x{max_size} atlas page; its page is {size}x{size}"
            if notes is not None:
                notes.append(note)
        max_size = size
    try:
        placed, pages = shelf_pack([(img.shape[1], img.shape[0]) for img in images], max_size, padding)
    except ValueError as exc:
        raise ExportError(None, [f"atlas: {exc}"]) from None
    page_names = [f"{stem}.png" if k == 0 else f"{stem}_{k + 1}.png" for k in range(len(pages))]
    files = {name: encode_png(img) for name, img in zip(page_names, compose_pages(images, placed, pages))}
    files[f"{stem}.atlas"] = atlas_text(page_names, pages, list(zip(regions, placed))).encode("utf-8")
    return files


def _scaled(img: np.ndarray, factor: float) -> np.ndarray:
    """``img`` (H, W, 4) uint8 resampled by ``factor`` < 1 (Lanczos), at least 1 px."""
    from PIL import Image

    h, w = img.shape[:2]
    size = (max(1, int(w * factor)), max(1, int(h * factor)))
    return np.asarray(Image.fromarray(img, "RGBA").resize(size, Image.LANCZOS))


def _r(x: float) -> float:
    return round(float(x), 6) + 0.0
