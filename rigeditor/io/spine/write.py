"""Spine JSON export (format 4.2): the rig as Spine bones, its keys and live IK.

Mapping (Spine is y-up with degrees counter-clockwise, like the model):

- A Spine root bone (named "root", or "root_2"... if a bone has that name) stands for
  the character space: its translate/rotate/scale keys are the character space's own
  keys when it sits in world (else its world transform per frame), so our root bones
  sit at their rest offsets under it.
- Every bone, parents before children: setup pose = the authored rest pose (length,
  x, y = rest offset in the parent's frame, rotation = rest rotation), its own channels
  as timelines: ``rotate``, ``translate`` and ``scale`` keys where ours are, with our
  interpolation (Béziers as Spine curves, cut where Spine's chords would stray, see
  ``spine_curves``). Where a chain is baked (``write_ik.baked_rows``: Spine's IK
  cannot follow there, or ``bake_ik``) its bones get a ``rotate`` key per frame (the
  baked local rotation there, their own elsewhere; offsets from the setup rotation,
  unwrapped), and a bone gets ``translate`` keys per frame where its origin moves in
  its parent's frame by more than its keys (the move-root shift, a stretched parent).
  Stretch itself is not a Spine scale: the scale would be inherited by the children.
- Shear (degrees) and the inherit mode: a still value as the bone's setup
  (``shearX``/``shearY``, ``inherit``), keys as ``shear`` and 4.2 ``inherit`` timelines.
- Live IK: per two-bone analytic chain and one-bone aim chain an ``ik`` constraint
  (bendPositive, softness in model units, mix, Spine's stretch, compress and uniform
  flags as the chain's ``spine_scale``) on one target bone per IK target (named like the target, or
  "NAME_target" if a bone has its name) under the bone of the target's declared space
  (``place_space_bones``), keyed with the target's own keys; mix (0 where baked), softness
  and bend keyed per frame when any changes. Chains of more than two bones have no
  Spine IK constraint (Spine's IK drives one or two bones); their baked rotations play.

Artwork (slots, skin, atlas): see ``export_spine_art``. What Spine lacks (spaces,
switches, limits, strategies, smoothing, curves as authored) rides along in
``skeleton.rigeditor`` for import-spine: see ``write_roundtrip``.

Times are seconds from the first baked frame, each at or before its frame as a
32-bit float reads it (``key_time``). Reads setup data from the Project and
every pose from the Bake.
"""
from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np

from rigeditor.io.atomic import write_files
from rigeditor.io.errors import ExportError
from rigeditor.io.spine.write_art import art_sections, atlas_files
from rigeditor.io.art.images import image_file
from rigeditor.io.spine.write_curves import curve_keys, key_time
from rigeditor.model.evaluation.bake import Bake
from rigeditor.io.spine import write_ik, write_roundtrip
from rigeditor.io.spine.write_bone_keys import (
    STILL, animated, channel_timelines, frame_span, keys1, keys2, offset_deg, rounded, shear_and_inherit, trs_keys,
    unique)
from rigeditor.io.spine.write_targets import place_space_bones, place_target_bone
from rigeditor.io.spine.skeleton import SECTIONS
from rigeditor.model.data.project import CHARACTER, WORLD, Project

SPINE_VERSION = "4.2.0"


def spine_document(project: Project, bake: Bake, *, animation: str | None = None,
                   bake_ik: bool = False, notes: list | None = None) -> dict:
    """The Spine skeleton data of ``bake`` as plain JSON data. ``bake_ik``: every chain
    baked (mix 0), for runtimes without IK. ``notes``: gets one line per chain and
    frame range that is baked because Spine's IK cannot play it."""
    n = len(bake)
    if n == 0:
        raise ExportError(None, ["frames: the bake has no frames"])
    # At or before each frame's time as the runtimes' 32-bit floats read it (key_time).
    times = key_time(bake.frames - bake.frames[0], bake.fps)
    taken = set(bake.bones)
    root = unique("root", taken)
    bones, timelines = [{"name": root}], {}
    char = bake.spaces[CHARACTER]
    span = frame_span(bake)
    space = project.space(CHARACTER)
    if span is not None and space.parent == WORLD:  # the root is the character space: its own keys
        channel_timelines(space, span, bake, times, timelines.setdefault(root, {}), bones[0])
    else:
        trs_keys(char, bake.frames, times, timelines.setdefault(root, {}), f"the {CHARACTER} space")

    baked = write_ik.baked_rows(project, bake, bake_ik=bake_ik)
    for chain in project.chains:
        ranges = write_ik.frame_ranges(baked[chain.name], bake.frames)
        if ranges and notes is not None and not bake_ik:
            shown = ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in ranges)
            why = ("Spine's IK drives one or two bones with the law of cosines" if not write_ik.live(project, chain)
                   else "Spine's IK cannot follow it there (joint limit, strategy, soft reach or smoothing)")
            where = f"animation {animation}: " if animation else ""
            notes.append(f"{where}chain {chain.name}: baked at frames {shown}: {why}")
    from rigeditor.io.spine.write_path import bone_length

    for k, name in enumerate(bake.bones):
        bone = project.bone(name)
        ox, oy = (float(v) for v in bone.rest_offset)
        setup = math.degrees(bone.rest_rotation)
        bones.append({"name": name, "parent": bone.parent or root, "length": bone_length(project, bone),
                      "x": ox, "y": oy, "rotation": rounded(setup)})
        mine = timelines.setdefault(name, {})
        stretch = bake.stretch[:, bake.column(bone.parent)] if bone.parent else np.ones(n)
        # A bone's channels are its timelines, curves and all, unless a chain bakes it
        # on some frames: then per baked frame its baked rotation, elsewhere its own
        # (what a live IK constraint blends with by its mix).
        rows = np.zeros(n, dtype=bool)  # (Spine's IK constraints may share a bone: any of them)
        for chain in project.chains_of_bone(name):
            rows = rows | baked[chain.name]
        exact = span is not None and not rows.any()
        if exact:
            if animated(bone.rotation, (0.0,)):  # (none: the setup rotation holds, as read)
                mine["rotate"] = curve_keys(bone.rotation, *span, bake.fps, ("value",), math.degrees(1.0), 1e-4)
        else:
            fk = bone.rest_rotation + bone.rotation.sample(bake.frames)[:, 0]
            mine["rotate"] = keys1(times, offset_deg(np.where(rows, bake.local_rotation[:, k], fk), bone.rest_rotation))
        translate = bake.translate[:, k] if bake.translate is not None else np.zeros((n, 2))
        moved = np.stack([ox * stretch + bake.shift[:, k, 0] - ox, oy + bake.shift[:, k, 1] - oy], axis=-1) + translate
        if span is not None and np.all(stretch == 1.0) and np.all(bake.shift[:, k] == 0.0) \
                and animated(bone.translate, (0.0, 0.0)):
            mine["translate"] = curve_keys(bone.translate, *span, bake.fps, ("x", "y"), 1.0, 1e-5)
        elif np.abs(moved).max() > STILL:
            mine["translate"] = keys2(times, moved)
        shear_and_inherit(bone, span, bake, times, mine, bones[-1])
        if span is not None and animated(bone.scale, (1.0, 1.0)):
            mine["scale"] = curve_keys(bone.scale, *span, bake.fps, ("x", "y"), 1.0, 1e-6)
        elif bake.scale is not None and np.abs(write_ik.scale_rows(project, bake, name, baked) - 1.0).max() > STILL:
            mine["scale"] = keys2(times, write_ik.scale_rows(project, bake, name, baked))

    space_bone, carried = place_space_bones(project, bake, root, span, times, taken, bones, timelines)
    ik, ik_keys, target_bone = [], {}, {}
    for name, cb in bake.chains.items():
        chain = project.chain(name)
        if chain.target not in target_bone:
            target_bone[chain.target] = place_target_bone(project, bake, chain.target, span, times, taken,
                                                     space_bone, carried, bones, timelines)
        if not write_ik.live(project, chain):
            continue  # Spine's IK drives one or two bones; the baked rotations play
        rows = baked[name]
        # The constraint's setup values are the chain's own (its channels' defaults).
        length = sum(project.bone(b).length for b in chain.bones) if len(chain.bones) == 2 else 0.0
        ik.append({"name": name, "order": len(ik), "bones": list(chain.bones),
                   "target": target_bone[chain.target], "mix": rounded(chain.mix.default[0]),
                   "softness": rounded(chain.softness.default[0] * length), "bendPositive": chain.bend.default[0] > 0,
                   **write_ik.flags(chain)})
        keys = write_ik.ik_keys(project, bake, chain, rows, times)
        if keys is not None:
            ik_keys[name] = keys

    points = np.concatenate([bake.joint_world.reshape(-1, 2), bake.tip_world.reshape(-1, 2)])
    lo, hi = (points.min(axis=0), points.max(axis=0)) if len(points) else (np.zeros(2), np.zeros(2))  # no bones yet
    anim = {"bones": {b: t for b, t in timelines.items() if t}}
    if ik_keys:
        anim["ik"] = ik_keys
    from rigeditor.io.spine.write_transform import transform_sections
    from rigeditor.io.spine.write_path import path_sections
    from rigeditor.io.spine.write_physics import physics_sections, reference_scale
    from rigeditor.io.spine.write_order import renumber

    transforms, transform_keys = transform_sections(project, bake, times, len(ik), set(bake.bones))
    paths, path_keys = path_sections(project, bake, times, set(bake.bones), {s.name for s in project.art.slots})
    physics, physics_keys = physics_sections(project, bake, times, set(bake.bones))
    if transforms or paths or physics:
        renumber(project, ik, transforms, paths, physics)
    for kind, keys in (("transform", transform_keys), ("path", path_keys), ("physics", physics_keys)):
        if keys:
            anim[kind] = keys
    doc = {
        "skeleton": {"spine": SPINE_VERSION, "x": rounded(lo[0]), "y": rounded(lo[1]),
                     "width": rounded(hi[0] - lo[0]), "height": rounded(hi[1] - lo[1]), "fps": bake.fps,
                     **({"referenceScale": reference_scale(project)} if physics else {})},
        "bones": bones,
        "ik": ik,
        **({"transform": transforms} if transforms else {}),
        **({"path": paths} if paths else {}),
        **({"physics": physics} if physics else {}),
        "animations": {animation or project.name or "baked": anim},
    }
    art, art_anim = art_sections(project, bake, root, {b["name"]: i for i, b in enumerate(bones)})
    doc.update(art)
    _skin_items(doc, project.art)
    anim.update(art_anim)
    from rigeditor.io.spine.write_events import event_definitions, event_timeline

    doc.update(event_definitions(project.events))
    if len(bake.frames):
        anim.update(event_timeline(project.events, float(bake.frames[0]), float(bake.frames[-1]), bake.fps))
    from rigeditor.io.spine.write_duration import end_at_exact_end

    end_at_exact_end(anim, project, bake)  # a last key between frames: the animation ends there
    return doc


def spine_document_many(items, *, bake_ik: bool = False, notes: list | None = None) -> dict:
    """One Spine skeleton with one animation per ``(name, project, bake)`` of ``items``
    (the same rig opened on each animation, see ``model.clips.switch``). The setup
    pose is the first's; a target bone whose first frame differs in another
    animation gets its translate keys measured from that setup."""
    docs = [spine_document(p, b, animation=name, bake_ik=bake_ik, notes=notes) for name, p, b in items]
    doc = docs[0]
    setup = {b["name"]: b for b in doc["bones"]}
    sk = doc["skeleton"]
    lo, hi = [sk["x"], sk["y"]], [sk["x"] + sk["width"], sk["y"] + sk["height"]]
    for other, (_, _, other_bake) in zip(docs[1:], items[1:]):
        (name, anim), = other["animations"].items()
        for bone in other["bones"]:
            if bone["name"] not in setup:  # a space bone only this animation's targets use
                setup[bone["name"]] = bone
                doc["bones"].append(bone)
                continue
            first = setup[bone["name"]]
            if bone.get("parent") != first.get("parent"):
                aiming = [c["name"] for c in other.get("ik") or [] if c["target"] == bone["name"]]
                who = f"chain {', '.join(aiming)}: " if aiming else ""
                raise ExportError(None, [f"animations.{name}: {who}target bone {bone['name']!r} starts (frame "
                                         f"{other_bake.frames[0]:g}) in another space ({bone.get('parent')!r}) "
                                         f"than in the first animation ({first.get('parent')!r}); a Spine bone has "
                                         "one parent in every animation: key it in one space at the start"])
            d = (bone.get("x", 0.0) - first.get("x", 0.0), bone.get("y", 0.0) - first.get("y", 0.0))
            if d != (0.0, 0.0):
                tl = anim.setdefault("bones", {}).setdefault(bone["name"], {})
                tl["translate"] = _shifted(tl.get("translate", [{"time": 0.0, "x": 0.0, "y": 0.0}]), d)
            turn = bone.get("rotation", 0.0) - first.get("rotation", 0.0)
            if turn != 0.0:  # rotate keys are offsets from the setup rotation
                tl = anim.setdefault("bones", {}).setdefault(bone["name"], {})
                tl["rotate"] = _turned(tl.get("rotate", [{"time": 0.0, "value": 0.0}]), turn)
            ratio = [bone.get(f, 1.0) / first.get(f, 1.0) if first.get(f, 1.0) else 1.0 for f in ("scaleX", "scaleY")]
            if ratio != [1.0, 1.0]:  # scale keys multiply the setup scale
                tl = anim.setdefault("bones", {}).setdefault(bone["name"], {})
                tl["scale"] = _rescaled(tl.get("scale", [{"time": 0.0, "x": 1.0, "y": 1.0}]), ratio)
        doc["animations"][name] = anim
        o = other["skeleton"]
        lo = [min(lo[0], o["x"]), min(lo[1], o["y"])]
        hi = [max(hi[0], o["x"] + o["width"]), max(hi[1], o["y"] + o["height"])]
    sk.update(x=lo[0], y=lo[1], width=rounded(hi[0] - lo[0]), height=rounded(hi[1] - lo[1]))
    return doc


def _turned(keys, turn) -> list[dict]:
    """Rotate keys (degrees) offset by ``turn``, Bézier handles included."""
    out = []
    for key in keys:
        key = dict(key, value=rounded(key.get("value", 0.0) + turn))
        if isinstance(key.get("curve"), list):
            c = list(key["curve"])
            c[1], c[3] = rounded(c[1] + turn), rounded(c[3] + turn)
            key["curve"] = c
        out.append(key)
    return out


def _rescaled(keys, ratio) -> list[dict]:
    """Scale keys multiplied by ``ratio`` = (rx, ry), Bézier handles included."""
    out = []
    for key in keys:
        key = dict(key, x=rounded(key.get("x", 1.0) * ratio[0]), y=rounded(key.get("y", 1.0) * ratio[1]))
        if isinstance(key.get("curve"), list):
            c = list(key["curve"])
            c[1], c[3], c[5], c[7] = (rounded(c[1] * ratio[0]), rounded(c[3] * ratio[0]), rounded(c[5] * ratio[1]),
                                      rounded(c[7] * ratio[1]))
            key["curve"] = c
        out.append(key)
    return out


def _shifted(keys, d) -> list[dict]:
    """Translate keys moved by d = (dx, dy), Bézier handles included."""
    out = []
    for key in keys:
        key = dict(key, x=rounded(key["x"] + d[0]), y=rounded(key["y"] + d[1]))
        if isinstance(key.get("curve"), list):
            c = list(key["curve"])
            c[1], c[3], c[5], c[7] = (rounded(c[1] + d[0]), rounded(c[3] + d[0]), rounded(c[5] + d[1]), rounded(c[7] + d[1]))
            key["curve"] = c
        out.append(key)
    return out


def animation_label(project: Project, name: str) -> str | None:
    """The Spine name of animation ``name`` of ``project`` in an export: its own name, or
    None (the skeleton's name) for the one unnamed animation of a project that never had
    a list ("animation", as files always had it). An imported rig's one animation keeps
    its name, so a round trip does not rename it."""
    from rigeditor.model.data import clips

    unnamed = name == Project.__dataclass_fields__["animation"].default
    return None if len(clips.names(project)) == 1 and unnamed else name


def _skin_items(doc: dict, art) -> None:
    """The bones and constraints only a skin brings (Spine's skin bones and skin
    constraints): listed by their skin, and marked ``skin`` on the bone or constraint
    (a runtime poses or applies them only while that skin is on)."""
    if not (art.skin_bones or art.skin_constraints):
        return
    skins = doc.setdefault("skins", [])
    entries = {s["name"]: s for s in skins}

    def entry(skin):
        if skin not in entries:  # (a rig without slots writes no skins of its own)
            entries[skin] = {"name": skin}
            skins.append(entries[skin])
        return entries[skin]

    written = {(section, e["name"]) for section in ("bones", *SECTIONS.values()) for e in doc.get(section) or ()}
    marked = set()
    for skin, names in art.skin_bones:
        entry(skin)["bones"] = [n for n in names if ("bones", n) in written]
        marked |= {("bones", n) for n in names}
    for skin, items in art.skin_constraints:
        for item in items:
            kind, name = item.split(":", 1)
            if (SECTIONS[kind], name) in written:  # (a chain Spine cannot hold is baked, not listed)
                entry(skin).setdefault(SECTIONS[kind], []).append(name)
                marked.add((SECTIONS[kind], name))
    for section in ("bones", *SECTIONS.values()):
        for item in doc.get(section) or ():
            if (section, item["name"]) in marked:
                item["skin"] = True


def export_spine_json(project: Project, bake: Bake, path, *, animation: str | None = None,
                      progress=None, images=None, more=(), protect=None, bake_ik: bool = False,
                      notes: list | None = None) -> None:
    """Write the Spine JSON of ``bake`` to ``path``; with artwork, also the atlas
    ``STEM.atlas`` and its page PNGs beside it (see :func:`spine_files`). All of them
    are replaced together or none is (``atomic.write_files``); a missing folder is created."""
    write_files(spine_files(project, bake, path, animation=animation, progress=progress, images=images,
                            more=more, protect=protect, bake_ik=bake_ik, notes=notes), make_folders=True)


def spine_files(project: Project, bake: Bake, path, *, animation: str | None = None,
                progress=None, images=None, more=(), protect=None, bake_ik: bool = False,
                notes: list | None = None) -> dict[Path, bytes]:
    """{file: bytes} of the Spine export to ``path``, the JSON first: the skeleton, and
    with artwork the atlas and its pages packed from the images found relative to
    ``images`` (the project file's folder). ``more``: further ``(name, project, bake)``
    animations written into the same skeleton. protect: {path: what it is} of files
    the export must not replace (the project file); the project's pictures never are.
    ``bake_ik`` and ``notes``: see ``spine_document``."""
    path = Path(path)
    items = [(animation or project.name, project, bake), *more]
    try:
        if more:
            doc = spine_document_many(items, bake_ik=bake_ik, notes=notes)
        else:
            doc = spine_document(project, bake, animation=animation, bake_ik=bake_ik, notes=notes)
        write_roundtrip.attach(doc, items, notes)  # what Spine lacks, for import-spine
        text = json.dumps(doc, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
        files = {}
        if project.art.slots:
            if images is None:
                raise ExportError(None, ["images: save the project first: the atlas is packed from the "
                                         "pictures beside the project file"])
            files = atlas_files(project, images, path.stem, notes=notes)
        out = {path: text.encode("utf-8"), **{path.with_name(n): data for n, data in files.items()}}
        _refuse_replacing(out, _pictures(project, images) | dict(protect or {}))
    except ExportError as exc:
        raise ExportError(Path(path), exc.problems) from None
    except ValueError:
        where = [line for name, p, b in items for line in write_ik.not_finite(p, b, name if more else None)]
        raise ExportError(Path(path), where or ["bake: holds values that are not finite; nothing was written"]) from None
    if progress:
        progress(1.0)
    return out


def _pictures(project: Project, images) -> dict:
    if images is None:
        return {}
    return {image_file(images, path): f"the project's picture {path}"
            for s in project.art.slots for a in s.attachments if a.path  # shapes have none
            for path in (a.sequence.paths if a.sequence is not None else (a.path,))}


def _refuse_replacing(outputs, protected: dict) -> None:
    """An export must not replace a file it reads from: one of the pictures (an atlas
    page "torso.png" for ``-o torso.json`` in the pictures' folder) or the project."""
    resolved = {Path(p).resolve(): what for p, what in protected.items()}
    hit = [f"{out.name}: would replace {resolved[out.resolve()]}; "
           "choose another output name or folder (nothing was written)"
           for out in outputs if out.resolve() in resolved]
    hit += [f"{out.name}: would replace {what}; choose another output name or folder (nothing was written)"
            for out in outputs for p, what in protected.items()
            if out.resolve() not in resolved and _same_file(out, p)]
    if hit:
        raise ExportError(None, hit)


def _same_file(a, b) -> bool:
    """The same file by another name (a hard link)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


