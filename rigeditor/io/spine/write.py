"""Spine JSON export (format 4.2): the rig as Spine bones, the baked pose as keys.

Mapping (Spine is y-up with degrees counter-clockwise, like the model):

- A Spine root bone (named "root", or "root_2"... if a bone has that name) stands for
  the character space: its translate/rotate/scale keys carry the character's world
  transform per frame, so our root bones sit at their rest offsets under it.
- Every bone, parents before children: setup pose = the authored rest pose (length,
  x, y = rest offset in the parent's frame, rotation = rest rotation). A bone no
  chain drives has its own channels as timelines: ``rotate``, ``translate`` and
  ``scale`` keys where ours are, with our interpolation (Béziers as Spine curves,
  cut where Spine's chords would stray, see ``spine_curves``). A bone a chain drives
  gets a ``rotate`` key per baked frame with the local rotation as an offset from
  the setup rotation (unwrapped, so no key jumps by a turn), and ``translate`` keys
  where its origin moves in its parent's frame (its translate keys, the move-root
  shift, or a stretched parent). Stretch itself is not a Spine scale: the scale
  would be inherited by the children; a bone's scale keys are (inherit: normal).
- One target bone per IK target (child of the root, named like the target, or
  "NAME_target" if a bone has its name), keyed to the target's baked
  position, and per two-bone chain an ``ik`` constraint on it (bendPositive, softness
  in model units, mix) with an IK timeline keyed to mix 0 at time 0: the baked
  rotations play exactly as evaluated, and setting the mix back to 1 in Spine brings
  its own IK back. Chains of more than two bones have no Spine IK constraint (Spine's
  IK drives one or two bones); their baked rotations play all the same.

Artwork (slots, skin, atlas): see ``export_spine_art``.

Times are seconds from the first baked frame. Reads setup data from the Project and
every pose from the Bake.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from rigeditor.core.geometry import unwrap, wrap_angle
from rigeditor.io.atomic import export_write
from rigeditor.io.errors import ExportError
from rigeditor.io.spine.write_art import art_sections, atlas_files
from rigeditor.io.art.images import image_file
from rigeditor.io.spine.write_curves import curve_keys
from rigeditor.model.evaluation.bake import Bake
from rigeditor.model.data.project import CHARACTER, Project

SPINE_VERSION = "4.2.0"
_DECIMALS = 6
_STILL = 1e-9  # below this a channel counts as not animated (no timeline written)


def spine_document(project: Project, bake: Bake, *, animation: str | None = None) -> dict:
    """The Spine skeleton data of ``bake`` as plain JSON data."""
    n = len(bake)
    if n == 0:
        raise ExportError(None, ["frames: the bake has no frames"])
    # Seconds to 1e-9: a key a microsecond off at 500 degrees/s would be 5e-4 degrees.
    times = (np.round((bake.frames - bake.frames[0]) / bake.fps, 9) + 0.0).tolist()
    taken = set(bake.bones)
    root = _unique("root", taken)
    bones, timelines = [{"name": root}], {}
    char = bake.spaces[CHARACTER]
    _root_keys(char, n, times, timelines.setdefault(root, {}))

    span = _frame_span(bake)
    for k, name in enumerate(bake.bones):
        bone = project.bone(name)
        ox, oy = (float(v) for v in bone.rest_offset)
        setup = math.degrees(bone.rest_rotation)
        bones.append({"name": name, "parent": bone.parent or root, "length": bone.length,
                      "x": ox, "y": oy, "rotation": _r(setup)})
        mine = timelines.setdefault(name, {})
        stretch = bake.stretch[:, bake.column(bone.parent)] if bone.parent else np.ones(n)
        # An FK bone's channels are its timelines, curves and all; what a chain
        # drives (or a stretched parent moves) is written per baked frame.
        exact = span is not None and project.chain_of_bone(name) is None
        if exact:
            mine["rotate"] = curve_keys(bone.rotation, *span, bake.fps, ("value",), math.degrees(1.0), 1e-4)
        else:
            mine["rotate"] = _keys1(times, _offset_deg(bake.local_rotation[:, k], bone.rest_rotation))
        translate = bake.translate[:, k] if bake.translate is not None else np.zeros((n, 2))
        moved = np.stack([ox * stretch + bake.shift[:, k, 0] - ox, oy + bake.shift[:, k, 1] - oy], axis=-1) + translate
        if exact and np.all(stretch == 1.0) and _animated(bone.translate, (0.0, 0.0)):
            mine["translate"] = curve_keys(bone.translate, *span, bake.fps, ("x", "y"), 1.0, 1e-5)
        elif np.abs(moved).max() > _STILL:
            mine["translate"] = _keys2(times, moved)
        if exact and _animated(bone.scale, (1.0, 1.0)):
            mine["scale"] = curve_keys(bone.scale, *span, bake.fps, ("x", "y"), 1.0, 1e-6)
        elif bake.scale is not None and np.abs(bake.scale[:, k] - 1.0).max() > _STILL:
            mine["scale"] = _keys2(times, bake.scale[:, k])

    ik, ik_keys, target_bone = [], {}, {}
    to_root = char.inverse()
    for name, cb in bake.chains.items():
        chain = project.chain(name)
        if chain.target not in target_bone:
            # Named like the target (the import maps it back to that target), unless a
            # bone has that name.
            target_bone[chain.target] = tb = _unique(chain.target if chain.target not in taken
                                                     else f"{chain.target}_target", taken)
            local = to_root.apply(cb.target_world)
            bones.append({"name": tb, "parent": root, "x": _r(local[0, 0]), "y": _r(local[0, 1])})
            if np.abs(local - local[0]).max() > _STILL:
                timelines[tb] = {"translate": _keys2(times, local - _r(local[0]))}
        if len(chain.bones) != 2:
            continue
        bend_positive = bool(cb.bend[0] > 0)
        # The constraint's setup values are the chain's own (its channels' defaults);
        # the IK timeline below is what plays.
        length = sum(project.bone(b).length for b in chain.bones)
        ik.append({"name": name, "order": len(ik), "bones": list(chain.bones),
                   "target": target_bone[chain.target], "mix": _r(chain.mix.default[0]),
                   "softness": _r(chain.softness.default[0] * length), "bendPositive": chain.bend.default[0] > 0})
        # Keyed to 0: the baked rotations play as evaluated, untouched by Spine's IK.
        ik_keys[name] = [{"time": 0, "mix": 0, "softness": _r(cb.softness[0]), "bendPositive": bend_positive}]

    points = np.concatenate([bake.joint_world.reshape(-1, 2), bake.tip_world.reshape(-1, 2)])
    lo, hi = (points.min(axis=0), points.max(axis=0)) if len(points) else (np.zeros(2), np.zeros(2))  # no bones yet
    anim = {"bones": {b: t for b, t in timelines.items() if t}}
    if ik_keys:
        anim["ik"] = ik_keys
    from rigeditor.io.spine.write_transform import renumber, transform_sections

    transforms, transform_keys = transform_sections(project, bake, times, len(ik), set(bake.bones))
    if transforms:
        renumber(ik, transforms, project)
    if transform_keys:
        anim["transform"] = transform_keys
    doc = {
        "skeleton": {"spine": SPINE_VERSION, "x": _r(lo[0]), "y": _r(lo[1]),
                     "width": _r(hi[0] - lo[0]), "height": _r(hi[1] - lo[1]), "fps": bake.fps},
        "bones": bones,
        "ik": ik,
        **({"transform": transforms} if transforms else {}),
        "animations": {animation or project.name or "baked": anim},
    }
    art, art_anim = art_sections(project, bake, root, {b["name"]: i for i, b in enumerate(bones)})
    doc.update(art)
    anim.update(art_anim)
    return doc


def spine_document_many(items) -> dict:
    """One Spine skeleton with one animation per ``(name, project, bake)`` of ``items``
    (the same rig opened on each animation, see ``model.clips.switch``). The setup
    pose is the first's; a target bone whose first frame differs in another
    animation gets its translate keys measured from that setup."""
    docs = [spine_document(p, b, animation=name) for name, p, b in items]
    doc = docs[0]
    setup = {b["name"]: b for b in doc["bones"]}
    sk = doc["skeleton"]
    lo, hi = [sk["x"], sk["y"]], [sk["x"] + sk["width"], sk["y"] + sk["height"]]
    for other in docs[1:]:
        (name, anim), = other["animations"].items()
        for bone in other["bones"]:
            first = setup[bone["name"]]
            d = (bone.get("x", 0.0) - first.get("x", 0.0), bone.get("y", 0.0) - first.get("y", 0.0))
            if d != (0.0, 0.0):
                tl = anim.setdefault("bones", {}).setdefault(bone["name"], {})
                tl["translate"] = _shifted(tl.get("translate", [{"time": 0.0, "x": 0.0, "y": 0.0}]), d)
        doc["animations"][name] = anim
        o = other["skeleton"]
        lo = [min(lo[0], o["x"]), min(lo[1], o["y"])]
        hi = [max(hi[0], o["x"] + o["width"]), max(hi[1], o["y"] + o["height"])]
    sk.update(x=lo[0], y=lo[1], width=_r(hi[0] - lo[0]), height=_r(hi[1] - lo[1]))
    return doc


def _shifted(keys, d) -> list[dict]:
    """Translate keys moved by d = (dx, dy), Bézier handles included."""
    out = []
    for key in keys:
        key = dict(key, x=_r(key["x"] + d[0]), y=_r(key["y"] + d[1]))
        if isinstance(key.get("curve"), list):
            c = list(key["curve"])
            c[1], c[3], c[5], c[7] = (_r(c[1] + d[0]), _r(c[3] + d[0]), _r(c[5] + d[1]), _r(c[7] + d[1]))
            key["curve"] = c
        out.append(key)
    return out


def export_spine_json(project: Project, bake: Bake, path, *, animation: str | None = None,
                      progress=None, images=None, more=()) -> None:
    """Write the Spine JSON of ``bake`` to ``path`` atomically; with artwork, also the
    atlas ``STEM.atlas`` and its page PNGs beside it, packed from the images found
    relative to ``images`` (the project file's folder). ``more``: further
    ``(name, project, bake)`` animations written into the same skeleton. Everything is prepared before
    anything is written; the JSON is written last."""
    path = Path(path)
    try:
        if more:
            doc = spine_document_many([(animation or project.name, project, bake), *more])
        else:
            doc = spine_document(project, bake, animation=animation)
        text = json.dumps(doc, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
        files = {}
        if project.art.slots:
            if images is None:
                raise ExportError(None, ["images: save the project first: the atlas is packed from the "
                                         "pictures beside the project file"])
            files = atlas_files(project, images, path.stem)
            _refuse_replacing_pictures(project, images, [path.with_name(n) for n in files] + [path])
    except ExportError as exc:
        raise ExportError(Path(path), exc.problems) from None
    except ValueError:
        raise ExportError(Path(path), ["bake: holds values that are not finite; nothing was written"]) from None
    if progress:
        progress(1.0)
    for name, data in files.items():
        export_write(path.with_name(name), data)
    export_write(path, text.encode("utf-8"))


def _refuse_replacing_pictures(project: Project, images, outputs) -> None:
    """An export written beside the pictures must not replace one of them (an atlas
    page "torso.png" for ``-o torso.json`` in the pictures' folder)."""
    pictures = {image_file(images, a.path).resolve(): a.path for s in project.art.slots for a in s.attachments}
    hit = [f"{out.name}: would replace the project's picture {pictures[out.resolve()]}; "
           "choose another output name or folder (nothing was written)"
           for out in outputs if out.resolve() in pictures]
    if hit:
        raise ExportError(None, hit)


def _frame_span(bake: Bake):
    """(first, last) when the bake is every integer frame of a range, else None."""
    f = bake.frames
    if len(f) and np.array_equal(f, np.arange(f[0], f[0] + len(f))) and float(f[0]).is_integer():
        return int(f[0]), int(f[-1])
    return None


def _animated(ch, rest) -> bool:
    return bool(ch.keys) or tuple(ch.default) != rest


def _root_keys(char, n, times, out: dict) -> None:
    """Timelines of the root bone: the character space's world transform per frame."""
    a, b, c, d, tx, ty = (np.broadcast_to(np.asarray(v, dtype=float), (n,)) for v in char.fields())
    angle = np.arctan2(c, a)
    sx = np.hypot(a, c)
    sy = (a * d - b * c) / sx
    sheared = np.hypot(b + np.sin(angle) * sy, d - np.cos(angle) * sy) > 1e-9 * np.maximum(np.abs(sy), 1.0)
    if sheared.any():
        frame = int(np.flatnonzero(sheared)[0])
        raise ExportError(None, [f"spaces: the {CHARACTER} space is sheared at frame {frame} "
                                 "(a rotated parent with unequal scales); Spine bones cannot shear"])
    if max(np.abs(tx).max(), np.abs(ty).max()) > _STILL:
        out["translate"] = _keys2(times, np.stack([tx, ty], axis=-1))
    if np.abs(angle).max() > _STILL:
        out["rotate"] = _keys1(times, np.degrees(unwrap(angle)))
    if max(np.abs(sx - 1).max(), np.abs(sy - 1).max()) > _STILL:
        out["scale"] = _keys2(times, np.stack([sx, sy], axis=-1))


def _offset_deg(local: np.ndarray, setup: float) -> np.ndarray:
    """Local rotation minus the setup rotation in degrees, unwrapped along the frames and
    shifted by whole turns so the first frame's offset lies within +/-180."""
    offset = unwrap(local, axis=0) - setup
    offset += wrap_angle(offset[0]) - offset[0]
    return np.degrees(offset)


def _keys1(times, values) -> list[dict]:
    return [{"time": t, "value": v} for t, v in zip(times, _r(values))]


def _keys2(times, xy) -> list[dict]:
    return [{"time": t, "x": x, "y": y} for t, (x, y) in zip(times, _r(xy))]


def _r(values):
    """Round for the file (1e-6 s, degree, model unit); -0.0 becomes 0.0."""
    return (np.round(np.asarray(values, dtype=float), _DECIMALS) + 0.0).tolist()


def _unique(name: str, taken: set) -> str:
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name}_{n}"
    taken.add(candidate)
    return candidate
