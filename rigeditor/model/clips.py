"""Several animations (clips) over one rig: listing, switching, adding, renaming,
duplicating and deleting them (pure functions of a Project, no Qt).

The setup pose (rest pose, channel defaults, attachments) is shared. Every keyed
track belongs to an animation: the open one (``project.animation``) keeps its keys
on the items, where ``evaluate`` reads them; the others keep theirs in
``project.animations`` as ``{path: keys}``, path being ``(kind, item, attribute)``
as in :data:`TRACKS` or :data:`DRAW_ORDER`. Switching moves the open animation's
keys into its entry and the other's onto the items, with the timeline's range.
"""
from __future__ import annotations

from dataclasses import replace

from rigeditor.model.project import Animation, Project, Timeline

TRACKS: dict[str, tuple[str, ...]] = {
    "target": ("space", "position"),
    "chain": ("bend", "softness", "mix"),
    "space": ("position", "rotation", "scale"),
    "bone": ("rotation", "translate", "scale", "shear", "inherit"),
    "slot": ("attachment",),
}
"""Every animatable attribute per item kind."""
DRAW_ORDER = ("art", "", "draw_order")
"""The path of the draw-order track (whole slot orders)."""
_POOLS = {"target": "targets", "chain": "chains", "space": "spaces", "bone": "bones"}


def items(project: Project, kind: str):
    return project.art.slots if kind == "slot" else getattr(project, _POOLS[kind])


def channel(project: Project, path):
    """The channel at ``path`` = (kind, item, attribute)."""
    kind, name, attr = path
    for item in items(project, kind):
        if item.name == name:
            return getattr(item, attr)
    raise KeyError(f"no {kind} named {name!r}")


def with_channel(project: Project, path, ch) -> Project:
    """``project`` with the channel at ``path`` replaced."""
    kind, name, attr = path
    if kind == "slot":
        return replace(project, art=project.art.with_slot(name, **{attr: ch}))
    return getattr(project, f"with_{kind}")(name, **{attr: ch})


def animations(project: Project) -> tuple[Animation, ...]:
    """Every animation in order (a project that never had a list has one)."""
    if project.animations:
        return project.animations
    tl = project.timeline
    return (Animation(project.animation, tl.start, tl.end),)


def names(project: Project) -> list[str]:
    return [a.name for a in animations(project)]


def tracks_of(project: Project) -> dict:
    """The keys of every keyed track on the items: {path: keys}."""
    out = {}
    for kind, attrs in TRACKS.items():
        for item in items(project, kind):
            for attr in attrs:
                keys = getattr(item, attr).keys
                if keys:
                    out[(kind, item.name, attr)] = keys
    if project.art.draw_order:
        out[DRAW_ORDER] = project.art.draw_order
    return out


def with_tracks(project: Project, tracks: dict) -> Project:
    """``project`` with every track's keys replaced by ``tracks`` (absent: no keys)."""
    def rekeyed(kind, item):
        changes = {}
        for attr in TRACKS[kind]:
            ch, keys = getattr(item, attr), tuple(tracks.get((kind, item.name, attr), ()))
            if ch.keys != keys:
                changes[attr] = replace(ch, keys=keys)
        return replace(item, **changes) if changes else item

    pools = {pool: tuple(rekeyed(kind, x) for x in getattr(project, pool)) for kind, pool in _POOLS.items()}
    art = replace(project.art, slots=tuple(rekeyed("slot", s) for s in project.art.slots),
                  draw_order=tuple(tracks.get(DRAW_ORDER, ())))
    return replace(project, art=art, **pools)


def clip(project: Project, name: str) -> Animation:
    """The animation ``name`` with all its keys and its range."""
    if name == project.animation:
        tl = project.timeline
        return Animation(name, tl.start, tl.end, tracks_of(project))
    for a in animations(project):
        if a.name == name:
            return a
    raise KeyError(f"no animation named {name!r}")


def _stored(project: Project) -> list[Animation]:
    """The list with the open animation's entry reduced to its name."""
    return [Animation(a.name, a.start, a.end) if a.name == project.animation else a
            for a in animations(project)]


def switch(project: Project, name: str) -> Project:
    """Open animation ``name``: its keys onto the items, its range on the timeline."""
    if name == project.animation:
        return project
    target = clip(project, name)
    tl = project.timeline
    stored = [clip(project, a.name) if a.name == project.animation else a for a in animations(project)]
    stored = [Animation(a.name, a.start, a.end) if a.name == name else a for a in stored]
    out = with_tracks(project, target.tracks)
    return replace(out, animations=tuple(stored), animation=name,
                   timeline=Timeline(tl.fps, target.start, target.end))


def add(project: Project, name: str, start: int = 0, end: int = 48, tracks=None) -> Project:
    """Append animation ``name`` (no keys unless ``tracks``); the open one stays open."""
    _check_new(project, name)
    if end < start:
        raise ValueError(f"an animation ends at or after its start ({start}), got {end}")
    return replace(project, animations=tuple(_stored(project)) + (Animation(name, int(start), int(end),
                                                                            dict(tracks or {})),))


def duplicate(project: Project, name: str, new: str) -> Project:
    """A copy of animation ``name`` (keys and range) named ``new``, after it in the list."""
    source = clip(project, name)
    out = add(project, new, source.start, source.end, source.tracks)
    listed = list(out.animations)
    listed.insert(names(project).index(name) + 1, listed.pop())
    return replace(out, animations=tuple(listed))


def rename(project: Project, old: str, new: str) -> Project:
    clip(project, old)
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
        raise KeyError(f"no animation named {name!r}")
    if len(listed) == 1:
        raise ValueError("a project keeps at least one animation")
    if name == project.animation:
        i = listed.index(name)
        project = switch(project, listed[i + 1] if i + 1 < len(listed) else listed[i - 1])
    return replace(project, animations=tuple(a for a in project.animations if a.name != name))


def renamed_item(project: Project, kind: str, old: str, new: str) -> Project:
    """The stored animations' tracks of item ``old`` renamed to ``new`` (the open
    animation's keys move with the item itself)."""
    def moved(tracks):
        out = {(k, new if (k, n) == (kind, old) else n, a): v for (k, n, a), v in tracks.items()}
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
    slots = {s.name for s in project.art.slots}

    def kept(tracks):
        out = {}
        for path, keys in tracks.items():
            if path == DRAW_ORDER:
                keys = tuple(replace(k, order=tuple(n for n in k.order if n in slots)) for k in keys)
            elif path[:2] not in present:
                continue
            out[path] = keys
        return out
    return replace(project, animations=tuple(replace(a, tracks=kept(a.tracks)) for a in project.animations))


def _check_new(project: Project, name: str) -> None:
    if not isinstance(name, str) or not name.strip():
        raise ValueError("an animation needs a name")
    if name in names(project):
        raise ValueError(f"there is already an animation named {name!r}")
