"""What Spine lacks, carried in the export for the way back: ``skeleton.rigeditor``.

Spine plays the rig from its own sections (bones, IK, timelines); a few things it cannot
hold are written beside them, in one object the runtimes and Spine's editor do not read
(spine-core 4.2 loads the file and poses it the same with or without it):

- per animation (in the order of ``animations``): its RigEditor name, frame range and
  first exported frame (Spine's time 0), and in the project file's own layout
  (docs/file-format.md) every space (declared scene objects, their keys), target
  (declared space and its switches, the authored position keys), chain (solver, bend,
  softness, mix, limits, strategy, smoothing, soft reach, order, tolerance) and every
  bone's channels as authored (Spine's timelines hold them cut where the runtimes'
  chords would stray, or per frame where a chain is baked);
- each attachment's tint and opacity exactly (Spine's colour has 8 bits a channel);
- ``digest``: SHA-256 of the rest of the file as written (every section but
  ``skeleton``), so an import takes these only when the Spine data is the data they
  were written with (``read_roundtrip``, ``extras``).
"""
from __future__ import annotations

from rigeditor.io.schema.convert import to_document
from rigeditor.io.schema.project import frame_number
from rigeditor.io.spine.extras import FORMAT, KEY, VERSION, digest

_CHANNELS = ("rotation", "translate", "scale", "shear")


def attach(doc: dict, items, notes: list | None = None) -> None:
    """Add ``skeleton.rigeditor`` to the finished skeleton ``doc`` of ``items`` =
    [(animation name, project opened on it, bake)], one per Spine animation in order.
    ``notes``: one line per animation whose curves Spine holds with more keys."""
    entries = []
    for (spine_name, (_, project, bake)) in zip(doc["animations"], items):
        data = to_document(project)
        tl = project.timeline
        entries.append({
            "spine": spine_name, "name": project.animation, "start": int(tl.start), "end": int(tl.end),
            "first": frame_number(bake.frames[0]),
            "spaces": data["spaces"], "targets": data["targets"], "chains": data["chains"],
            "bones": [{k: b[k] for k in ("name", *_CHANNELS) if k in b} for b in data["bones"]],
        })
        if notes is not None:
            _note_cut(doc["animations"][spine_name], project, spine_name, notes)
    tints = {f"{s.name}/{a.skin}/{a.name}": [*map(float, a.tint), float(a.opacity)]
             for s in items[0][1].art.slots for a in s.attachments}
    doc["skeleton"][KEY] = {"format": FORMAT, "version": VERSION, "fps": float(items[0][1].timeline.fps),
                            "animations": entries, **({"tints": tints} if tints else {}), "digest": digest(doc)}


def _note_cut(anim: dict, project, name: str, notes: list) -> None:
    """One line naming the bone curves Spine holds as more keys than were authored."""
    spine_field = {"rotation": "rotate", "translate": "translate", "scale": "scale", "shear": "shear"}
    grown = []
    for bone in project.bones:
        timelines = (anim.get("bones") or {}).get(bone.name) or {}
        for attr, field in spine_field.items():
            authored = len(getattr(bone, attr).keys)
            written = len(timelines.get(field) or [])
            if authored and written > authored:
                grown.append(f"{bone.name} {attr} {authored} -> {written}")
    if grown:
        shown = ", ".join(grown[:8]) + (f" and {len(grown) - 8} more" if len(grown) > 8 else "")
        notes.append(f"animation {name}: curves written with more keys than authored (Spine's runtimes play a "
                     f"Bézier as ten chords: cut where they would stray, or a key per frame where a chain "
                     f"is baked): {shown}; import-spine gives back the authored keys")
