"""A RigEditor export read back as the project it was: ``skeleton.rigeditor`` rebuilt.

The import maps Spine's data as for any skeleton; where the file carries RigEditor's own
data (``write_roundtrip``) and the rest of the file is still what it was written with
(its digest, ``extras``), that data replaces what Spine could only approximate: the
spaces (scene objects, switches), targets, chains (limits, strategy, smoothing, solver,
soft reach) and the bones' channels as authored, per animation; the bones that only
stood for spaces and targets in Spine are dropped. Spine's own data keeps the rest:
setup pose, inherit modes, transform, path and physics constraints, slots, skins,
meshes, and every other track (constraint, deform, colour, sequence and event keys;
moved by the animation's first exported frame); the slots'
attachment keys and the draw-order keys are carried at their own frames. An edited file
is imported from its Spine data alone, with a warning.
"""
from __future__ import annotations

from dataclasses import replace

from pydantic import ValidationError

from rigeditor.io.schema.convert import to_document, to_project
from rigeditor.io.schema.document import Document
from rigeditor.io.spine.extras import FORMAT, KEY, VERSION
from rigeditor.io.spine.skeleton import SpineError
from rigeditor.model.data import clips
from rigeditor.model.data.attachments import Art
from rigeditor.model.data.project import Animation, Project, Timeline

_OURS = ("bone", "target", "chain", "space")  # the kinds of item whose tracks the carried data holds


def _carried(path) -> bool:
    """Whether the carried data holds the track at ``path``: the bones' channels (not
    inherit), targets, chains, spaces, the slots' attachment keys and the draw order.
    Every other track (transform, path and physics constraints, deform, colour,
    sequence and event keys) is Spine's own, read from its timelines."""
    kind, _, attr = path
    return (kind in _OURS and attr != "inherit") or (kind == "slot" and attr == "attachment") or path == clips.DRAW_ORDER


def restore(project: Project, skel, notes, chosen: str | None) -> tuple[Project, str | None]:
    """(project rebuilt from the carried data, the open animation's name), or the
    arguments unchanged when the skeleton carries none or was edited since (a note)."""
    found = skel.other.get(KEY)
    if found is None:
        return project, chosen
    data, intact = found
    if not intact:
        notes.add(f"RigEditor's own data (skeleton.{KEY}) ignored: the file changed after RigEditor wrote it, so "
                  "spaces, limits, strategies, smoothing and authored curves come from Spine's data alone")
        return project, chosen
    if not isinstance(data, dict) or data.get("format") != FORMAT or data.get("version") != VERSION:
        raise SpineError(None, [f"skeleton.{KEY}: not {FORMAT} version {VERSION} (written by a newer RigEditor?)"])
    entries = data.get("animations")
    spine_names = clips.names(project) if project.animation is not None else []
    if not isinstance(entries, list) or [e.get("spine") if isinstance(e, dict) else None
                                         for e in entries] != (spine_names if skel.animations else []):
        raise SpineError(None, [f"skeleton.{KEY}.animations: does not list the skeleton's animations in order"])
    if not entries:
        return project, chosen
    fps = data.get("fps")
    imported_fps = project.timeline.fps
    rigs = [_rig(project, e, fps, f"skeleton.{KEY}.animations[{i}]") for i, e in enumerate(entries)]
    ours = {b.name for b in rigs[0].bones}
    tracks = {}
    for e, rig in zip(entries, rigs):
        spine = clips.clip(project, e["spine"]).tracks
        kept = {path: _moved(path, keys, e["first"], rig.timeline.fps / imported_fps) for path, keys in spine.items()
                if not _carried(path) and (path[0] != "bone" or path[1] in ours)}
        kept.update({path: keys for path, keys in clips.tracks_of(rig).items() if _carried(path)})
        tracks[e["name"]] = kept
    first = rigs[0]
    inherit = {b.name: b.inherit for b in project.bones}
    out = replace(project, spaces=first.spaces, targets=first.targets, chains=first.chains,
                  bones=tuple(replace(b, inherit=inherit[b.name]) for b in first.bones),
                  art=_tinted(project.art, data.get("tints")))
    opened = next(e for e in entries if e["spine"] == chosen)
    ends = [_exact_end(e, f"skeleton.{KEY}.animations[{i}]") for i, e in enumerate(entries)]
    stored = tuple(Animation(e["name"], e["start"], e["end"], {} if e is opened else tracks[e["name"]], end)
                   for e, end in zip(entries, ends))
    out = clips.with_tracks(out, tracks[opened["name"]])
    return replace(out, timeline=Timeline(float(fps), opened["start"], opened["end"], ends[entries.index(opened)]),
                   animations=stored if len(stored) > 1 else (), animation=opened["name"]), opened["name"]


def _rig(project: Project, entry, fps, where: str) -> Project:
    """The rig of one carried animation: the imported bones (those RigEditor had) with
    the carried channels, the carried spaces, targets and chains; checked as a
    project file is (SpineError at ``where``)."""
    if not isinstance(entry, dict):
        raise SpineError(None, [f"{where}: not an object"])
    base = to_document(replace(project, animations=(), transforms=()))
    imported = {b["name"]: b for b in base["bones"]}
    try:
        channels = {b["name"]: b for b in entry["bones"]}
        missing = sorted(set(channels) - set(imported))
        if missing:
            raise SpineError(None, [f"{where}.bones: {missing[0]!r} is not a bone of the skeleton"])
        bones = [{**imported[name], **ch} for name, ch in channels.items()]
        keys = entry.get("attachments") or {}
        for slot in base["slots"]:  # the attachment keys as set (none: none)
            slot["attachment"]["keys"] = keys.get(slot["name"], [])
        base["draw_order"] = {"keys": entry.get("draw_order") or []}
        doc = {**base, "timeline": {"fps": fps, "start": entry["start"], "end": entry["end"]},
               "spaces": entry["spaces"], "bones": bones, "targets": entry["targets"], "chains": entry["chains"],
               "animation": entry["name"],
               "animations": [{"name": entry["name"], "start": entry["start"], "end": entry["end"], "tracks": {}}]}
        return to_project(Document.model_validate(doc))
    except (KeyError, TypeError) as exc:
        raise SpineError(None, [f"{where}: missing or malformed {exc}"]) from None
    except ValidationError as exc:
        err = exc.errors()[0]
        at = ".".join(str(p) for p in err["loc"])
        raise SpineError(None, [f"{where}.{at}: {err['msg']}"]) from None


def _exact_end(entry, where: str) -> float | None:
    """The carried exact end (``Timeline.exact_end``) of an animation entry, checked."""
    value = entry.get("exact_end")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not entry["end"] - 1 < value < entry["end"]:
        raise SpineError(None, [f"{where}.exact_end: a frame between end - 1 and end, got {value!r}"])
    return float(value)


def _moved(path, keys, first: float, ratio: float):
    """Spine-side keys (frames from Spine's time 0 at the import's rate) at their
    project frames: ``first`` + frame x ``ratio`` (project fps / import fps)."""
    if first == 0 and ratio == 1.0:
        return keys
    if keys and isinstance(keys[0], tuple):  # step tracks: (frame, value) pairs
        return tuple((first + f * ratio, v) for f, v in keys)
    out = []
    for k in keys:
        moved = replace(k, frame=first + k.frame * ratio)
        if hasattr(k, "out_handle"):  # handles' time offsets scale with the frames
            scale = lambda h: None if h is None else (h[0] * ratio, *h[1:])
            moved = replace(moved, out_handle=scale(k.out_handle), in_handle=scale(k.in_handle))
        out.append(moved)
    return tuple(out)


def _tinted(art: Art, tints) -> Art:
    """``art`` with each attachment's carried tint and opacity (Spine's colour holds 8
    bits a channel), where the attachment is still there."""
    if not isinstance(tints, dict):
        return art
    slots = []
    for s in art.slots:
        atts = []
        for a in s.attachments:
            t = tints.get(f"{s.name}/{a.skin}/{a.name}")
            if isinstance(t, list) and len(t) == 5 and all(isinstance(v, (int, float)) and 0 <= v <= 1 for v in t):
                a = replace(a, tint=tuple(float(v) for v in t[:4]), opacity=float(t[4]))
            atts.append(a)
        slots.append(replace(s, attachments=tuple(atts)))
    return replace(art, slots=tuple(slots))
