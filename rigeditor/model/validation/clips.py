"""Semantic checks of the stored animations (``Project.animations``).

Each stored animation is checked by opening it (``clips.switch``) and running the
rig's checks again; only what differs from the open animation's problems is
reported, under ``animations[i] ('name')``, so a bad key in a stored animation is
named with its place like one on the items.
"""
from __future__ import annotations

from rigeditor.model.data import clips
from rigeditor.model.data.project import Project


def clip_problems(project: Project, rig_problems) -> list[str]:
    """Problems of ``project.animations``; ``rig_problems(project)`` checks one
    opened animation (the checks of ``validate.problems`` without these)."""
    out: list[str] = []
    listed = project.animations
    if not listed:
        return out
    names = [a.name for a in listed]
    for i, a in enumerate(listed):
        if not isinstance(a.name, str) or not a.name.strip():
            out.append(f"animations[{i}].name: an animation needs a name")
        elif names.index(a.name) != i:
            out.append(f"animations[{i}].name: {a.name!r} is used twice")
    if project.animation not in names:
        out.append(f"animation: {project.animation!r} is not in the animations list")
        return out
    base = None
    present = {(kind, x.name) for kind in clips.TRACKS for x in clips.items(project, kind)}
    present |= {("deform", s.name) for s in project.art.slots}  # deform tracks ride their slot
    for i, a in enumerate(listed):
        where = f"animations[{i}] ({a.name!r})"
        if a.name == project.animation:
            if a.tracks:
                out.append(f"{where}.tracks: the open animation keeps its keys on the items")
            continue
        if a.end < a.start:
            out.append(f"{where}.end: must be >= start ({a.start}), got {a.end}")
            continue
        unknown = [p for p in a.tracks if p not in (clips.DRAW_ORDER, clips.EVENTS) and p[:2] not in present]
        out.extend(f"{where}.tracks: unknown {kind} {name!r}" for kind, name, _ in unknown)
        if base is None:
            base = set(rig_problems(project))
        try:
            opened = clips.switch(project, a.name)
        except (TypeError, ValueError) as exc:  # malformed keys: say where, do not crash
            out.append(f"{where}.tracks: {exc}")
            continue
        out.extend(f"{where}: {p}" for p in rig_problems(opened) if p not in base)
    return out
