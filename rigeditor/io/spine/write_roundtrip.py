"""What Spine lacks, carried in the export for the way back: ``skeleton.rigeditor``.

Spine plays the rig from its own sections (bones, IK, timelines); a few things it cannot
hold are written beside them, in one object the runtimes and Spine's editor do not read
(spine-core 4.2 loads the file and poses it the same with or without it):

- per animation (in the order of ``animations``): its RigEditor name, frame range (and
  exact end, ``Timeline.exact_end``, when it ends between frames) and first exported frame (Spine's time 0), and in the project file's own layout
  (docs/file-format.md) every space (declared scene objects, their keys), target
  (declared space and its switches, the authored position keys), chain (solver, bend,
  softness, mix, limits, strategy, smoothing, soft reach, order, tolerance) and every
  bone's channels as authored (Spine's timelines hold them cut where the runtimes'
  chords would stray, or per frame where a chain is baked), the slots' attachment keys
  and the draw-order keys at their own frames;
- each attachment's tint and opacity exactly (Spine's colour has 8 bits a channel);
- ``digest``: SHA-256 of the rest of the file as written (every section but
  ``skeleton``), so an import takes these only when the Spine data is the data they
  were written with (``read_roundtrip``, ``extras``).
"""
from __future__ import annotations

from rigeditor.io.schema.convert import to_document
from rigeditor.io.schema.duration import exact_end_data
from rigeditor.io.schema.project import frame_number
from rigeditor.io.spine.extras import FORMAT, KEY, VERSION, digest

_CHANNELS = ("rotation", "translate", "scale", "shear")


def attach(doc: dict, items, notes: list | None = None) -> None:
    """Add ``skeleton.rigeditor`` to the finished skeleton ``doc`` of ``items`` =
    [(animation name, project opened on it, bake)], one per Spine animation in order.
    ``notes``: one line per animation whose curves Spine holds sampled per frame."""
    entries = []
    for (spine_name, (_, project, bake)) in zip(doc["animations"], items):
        data = to_document(project)
        tl = project.timeline
        entries.append({
            "spine": spine_name, "name": project.animation, "start": int(tl.start), "end": int(tl.end),
            **exact_end_data(tl), "first": frame_number(bake.frames[0]),
            "spaces": data["spaces"], "targets": data["targets"], "chains": data["chains"],
            "bones": [{k: b[k] for k in ("name", *_CHANNELS) if k in b} for b in data["bones"]],
            # Spine's attachment and draw-order keys are the frames the bake changes on
            # (a key read between frames comes back on the next frame): these as set.
            "attachments": {sl["name"]: sl["attachment"]["keys"] for sl in data["slots"] if sl["attachment"]["keys"]},
            "draw_order": data["draw_order"]["keys"],
        })
        if notes is not None:
            _note_sampled(doc, doc["animations"][spine_name], project, len(bake), spine_name, notes)
    tints = {f"{s.name}/{a.skin}/{a.name}": [*map(float, a.tint), float(a.opacity)]
             for s in items[0][1].art.slots for a in s.attachments}
    doc["skeleton"][KEY] = {"format": FORMAT, "version": VERSION, "fps": float(items[0][1].timeline.fps),
                            "animations": entries, **({"tints": tints} if tints else {}), "digest": digest(doc)}


def _note_sampled(doc: dict, anim: dict, project, frames: int, name: str, notes: list) -> None:
    """One line naming the curves (targets', spaces', bones' outside chains) that Spine
    holds as a key per frame instead of their authored keys. (A curve cut where Spine's
    chords would stray is the same curve, exactly, in more keys: not named. A chain's
    bones keyed per frame where it is baked are named by the chain's own note.)"""
    timelines = anim.get("bones") or {}
    aimed = {c["name"]: c["target"] for c in doc.get("ik") or []}
    channels = [(b.name, b.name, attr, getattr(b, attr)) for b in project.bones
                if project.chain_of_bone(b.name) is None for attr in ("rotation", "translate", "scale", "shear")]
    channels += [(aimed[c.name], c.target, "position", project.target(c.target).position)
                 for c in project.chains if c.name in aimed]
    ours = {b.name for b in project.bones}
    channels += [(s.name, s.name, attr, getattr(s, attr)) for s in project.spaces
                 if s.name not in ours for attr in ("position", "rotation", "scale", "shear")]
    sampled = []
    for bone, item, attr, ch in dict.fromkeys(channels):
        written = len((timelines.get(bone) or {}).get(_SPINE_FIELD[attr]) or [])
        if ch.keys and written == frames > len(ch.keys):
            sampled.append(f"{item} {attr} ({len(ch.keys)} keys)")
    if sampled:
        shown = ", ".join(sampled[:8]) + (f" and {len(sampled) - 8} more" if len(sampled) > 8 else "")
        notes.append(f"animation {name}: a key per frame instead of the authored keys (Spine cannot hold them as "
                     f"they are: a target switching spaces is carried into its first space frame by frame): "
                     f"{shown}; import-spine gives back the authored keys")


_SPINE_FIELD = {"rotation": "rotate", "translate": "translate", "scale": "scale", "shear": "shear",
                "position": "translate"}
