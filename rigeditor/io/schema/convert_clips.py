"""Between the file's animations (schema_clips, degrees) and the model's
(``Project.animations``: {(kind, item, attribute): keys}, radians)."""
from __future__ import annotations

import math

from rigeditor.io.schema import clips as schema_clips
from rigeditor.io.schema.convert_deform import deforms_data, to_deforms
from rigeditor.io.schema.convert_keys import keys_data, keys_from_file
from rigeditor.model.data.deform import DEFORM, deform_tracks, deforms_of
from rigeditor.model.data import clips
from rigeditor.model.data.attachments import DrawOrderKey
from rigeditor.model.data.project import Animation, Project
from rigeditor.model.data.slot_color import CHANNELS as SLOT_COLOR
from rigeditor.model.data.events import EVENTS
from rigeditor.io.schema.convert_events import key_data, to_key
from rigeditor.io.schema.project import frame_number
from rigeditor.io.schema.duration import exact_end_data

_POOL = {"bone": "bones", "target": "targets", "chain": "chains", "space": "spaces", "slot": "slots",
         "transform": "transforms", "path": "paths", "physics": "physics"}
_ANGLES = {("bone", "rotation"), ("space", "rotation"), ("bone", "shear"), ("space", "shear")}
_DIM = {("bone", "rotation"): 1, ("space", "rotation"): 1, ("chain", "bend"): 1, ("chain", "softness"): 1,
        ("chain", "mix"): 1, ("chain", "spine_stretch"): 1, ("chain", "spine_compress"): 1, **{("transform", m): 1 for m in clips.TRACKS["transform"]},
        **{("slot", c): 1 for c in SLOT_COLOR},
        **{("path", m): 1 for m in clips.TRACKS["path"]},
        **{("physics", m): 1 for m in clips.TRACKS["physics"]}}
_STEPPED = {("chain", "bend"), ("chain", "spine_stretch"), ("chain", "spine_compress")}  # 1-D, constant keys
_STEPS = {("target", "space"), ("slot", "attachment"), ("slot", "sequence"), ("bone", "inherit")}


def to_animations(entries: list[schema_clips.Animation], open_name: str) -> tuple[Animation, ...]:
    """The model's list; one animation, the open one, is the implicit list ()."""
    if len(entries) == 1 and entries[0].name == open_name:
        return ()
    return tuple(Animation(a.name, a.start, a.end, _tracks(a.tracks), a.exact_end) for a in entries)


def _tracks(t: schema_clips.Tracks) -> dict:
    out = {}
    for kind, pool in _POOL.items():
        for name, item in getattr(t, pool).items():
            for attr in clips.TRACKS[kind]:
                raw = getattr(item, attr)
                if not raw:
                    continue
                if (kind, attr) in _STEPS:
                    out[(kind, name, attr)] = tuple((k.frame, k.value) for k in raw)
                else:
                    scale = math.pi / 180.0 if (kind, attr) in _ANGLES else 1.0
                    interp = "constant" if (kind, attr) in _STEPPED else "linear"
                    out[(kind, name, attr)] = keys_from_file(raw, _DIM.get((kind, attr), 2), scale, interp)
    if t.draw_order:
        out[clips.DRAW_ORDER] = tuple(DrawOrderKey(k.frame, tuple(k.order)) for k in t.draw_order)
    out.update(deform_tracks(to_deforms(t.deforms)))
    if t.events:
        out[EVENTS] = tuple(to_key(k) for k in t.events)
    return out


def animations_data(project: Project) -> dict:
    """{"animation": the open one, "animations": [...]} as plain JSON data."""
    return {"animation": project.animation,
            "animations": [_entry(project, a) for a in clips.animations(project)]}


def _entry(project: Project, a: Animation) -> dict:
    if a.name == project.animation:
        tl = project.timeline
        return {"name": a.name, "start": int(tl.start), "end": int(tl.end), "tracks": {}}
    tracks: dict = {}
    deforms = {p: k for p, k in a.tracks.items() if p[0] == DEFORM}
    for path, keys in sorted(a.tracks.items(), key=lambda kv: _order(kv[0])):
        if path == clips.DRAW_ORDER:
            tracks["draw_order"] = [{"frame": frame_number(k.frame), "order": list(k.order)} for k in keys]
            continue
        if path[0] == DEFORM:
            if deforms:  # all of them at the first, in one list (once: each is a mesh's worth of numbers)
                tracks.update(deforms_data(deforms_of(deforms)))
                deforms = {}
            continue
        if path == EVENTS:
            tracks["events"] = [key_data(k) for k in keys]
            continue
        kind, name, attr = path
        if (kind, attr) in _STEPS:
            data = [{"frame": frame_number(f), "value": v} for f, v in keys]
        else:
            data = keys_data(keys, angle=(kind, attr) in _ANGLES)
        tracks.setdefault(_POOL[kind], {}).setdefault(name, {})[attr] = data
    return {"name": a.name, "start": int(a.start), "end": int(a.end), "tracks": tracks, **exact_end_data(a)}


def _order(path):
    kinds = list(_POOL) + ["art", DEFORM, "events"]
    return kinds.index(path[0]), path[1], path[2]
