"""Edits of the animations (clips) of a project: add, duplicate, rename, delete, open.

Opening one (``switch``) lives with the data (``rigeditor.model.data.clips``): the
validation and the exports open every stored animation to read it. Names are plain
text; frames whole numbers. A refused edit raises :class:`EditError`.
"""
from __future__ import annotations

from dataclasses import replace

from rigeditor.edits.errors import EditError
from rigeditor.model.data.clips import DRAW_ORDER, EVENTS, TRACKS, animations, clip, items, names, switch
from rigeditor.model.data.project import Animation, Project

__all__ = ["add", "duplicate", "rename", "delete", "switch", "renamed_item", "without_missing"]


def _existing(project: Project, name: str) -> Animation:
    try:
        return clip(project, name)
    except KeyError:
        raise EditError(f"no animation named {name!r}") from None


def _stored(project: Project) -> list[Animation]:
    """The list with the open animation's entry reduced to its name."""
    return [Animation(a.name, a.start, a.end) if a.name == project.animation else a
            for a in animations(project)]


def add(project: Project, name: str, start: int = 0, end: int = 48, tracks=None, exact_end=None) -> Project:
    """Append animation ``name`` (no keys unless ``tracks``); the open one stays open.
    ``exact_end``: a frame between end - 1 and end it really ends on (``model.data.duration``)."""
    _check_new(project, name)
    if end < start:
        raise EditError(f"an animation ends at or after its start ({start}), got {end}")
    return replace(project, animations=tuple(_stored(project)) + (Animation(name, int(start), int(end),
                                                                            dict(tracks or {}), exact_end),))


def duplicate(project: Project, name: str, new: str) -> Project:
    """A copy of animation ``name`` (keys and range) named ``new``, after it in the list."""
    source = _existing(project, name)
    out = add(project, new, source.start, source.end, source.tracks, source.exact_end)
    listed = list(out.animations)
    listed.insert(names(project).index(name) + 1, listed.pop())
    return replace(out, animations=tuple(listed))


def rename(project: Project, old: str, new: str) -> Project:
    """Rename animation ``old`` to ``new`` (the open one stays open under its new name)."""
    _existing(project, old)
    if new == old:
        return project
    _check_new(project, new)
    listed = tuple(replace(a, name=new) if a.name == old else a for a in _stored(project))
    return replace(project, animations=listed, animation=new if project.animation == old else project.animation)


def delete(project: Project, name: str) -> Project:
    """Remove animation ``name``; deleting the open one opens its neighbour. The last
    animation cannot be deleted."""
    listed = names(project)
    if name not in listed:
        raise EditError(f"no animation named {name!r}")
    if len(listed) == 1:
        raise EditError("a project keeps at least one animation")
    if name == project.animation:
        i = listed.index(name)
        project = switch(project, listed[i + 1] if i + 1 < len(listed) else listed[i - 1])
    return replace(project, animations=tuple(a for a in project.animations if a.name != name))


def renamed_item(project: Project, kind: str, old: str, new: str) -> Project:
    """The stored animations' tracks of item ``old`` renamed to ``new`` (the open
    animation's keys move with the item itself)."""
    def moved(tracks):
        # a slot's deform tracks ride their slot: ("deform", slot, (skin, attachment))
        out = {(k, new if (k, n) == (kind, old) or (kind, k, n) == ("slot", "deform", old) else n, a): v
               for (k, n, a), v in tracks.items()}
        if kind == "space":  # targets' space keys name spaces
            for path, keys in out.items():
                if path[0] == "target" and path[2] == "space":
                    out[path] = tuple((f, new if v == old else v) for f, v in keys)
        return out
    return replace(project, animations=tuple(replace(a, tracks=moved(a.tracks)) for a in project.animations))


def without_missing(project: Project) -> Project:
    """The stored animations without tracks of items that no longer exist (after a
    delete); draw-order keys drop slots that are gone."""
    present = {(kind, x.name) for kind in TRACKS for x in items(project, kind)}
    present |= {("deform", s.name) for s in project.art.slots}  # deform tracks ride their slot
    slots = {s.name for s in project.art.slots}

    def kept(tracks):
        out = {}
        for path, keys in tracks.items():
            if path == DRAW_ORDER:
                keys = tuple(replace(k, order=tuple(n for n in k.order if n in slots)) for k in keys)
            elif path[:2] not in present and path != EVENTS:  # events belong to no item
                continue
            out[path] = keys
        return out
    return replace(project, animations=tuple(replace(a, tracks=kept(a.tracks)) for a in project.animations))


def _check_new(project: Project, name: str) -> None:
    if not isinstance(name, str) or not name.strip():
        raise EditError("an animation needs a name")
    if name in names(project):
        raise EditError(f"there is already an animation named {name!r}")
