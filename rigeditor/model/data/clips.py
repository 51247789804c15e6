"""Several animations (clips) over one rig: the data side, listing them, their tracks,
opening one (pure functions of a Project, no Qt). Adding, renaming, duplicating and
deleting them are edits: ``rigeditor.edits.animations``.

The setup pose (rest pose, channel defaults, attachments) is shared. Every keyed
track belongs to an animation: the open one (``project.animation``) keeps its keys
on the items, where ``evaluate`` reads them; the others keep theirs in
``project.animations`` as ``{path: keys}``, path being ``(kind, item, attribute)``
as in :data:`TRACKS` or :data:`DRAW_ORDER`. Switching moves the open animation's
keys into its entry and the other's onto the items, with the timeline's range.
"""
from __future__ import annotations

from dataclasses import replace

from rigeditor.model.data.constraints import MIXES
from rigeditor.model.data.deform import DEFORM, deform_tracks, deforms_of
from rigeditor.model.data.path_constraint import CHANNELS as PATH_CHANNELS
from rigeditor.model.data.physics import TRACKS as PHYSICS_TRACKS
from rigeditor.model.data.project import Animation, Project, Timeline
from rigeditor.model.data.slot_color import CHANNELS as SLOT_COLOR
from rigeditor.model.data.events import EVENTS

TRACKS: dict[str, tuple[str, ...]] = {
    "target": ("space", "position"),
    "chain": ("bend", "softness", "mix", "spine_stretch", "spine_compress"),
    "transform": MIXES,
    "path": PATH_CHANNELS,
    "physics": PHYSICS_TRACKS,
    "space": ("position", "rotation", "scale", "shear"),
    "bone": ("rotation", "translate", "scale", "shear", "inherit"),
    "slot": ("attachment", "sequence") + SLOT_COLOR,
}
"""Every animatable attribute per item kind."""
DRAW_ORDER = ("art", "", "draw_order")
"""The path of the draw-order track (whole slot orders)."""
# A deform track's path is (DEFORM, slot, (skin, attachment)): see model.data.deform.
_POOLS = {"target": "targets", "chain": "chains", "space": "spaces", "bone": "bones", "transform": "transforms", "path": "paths",
          "physics": "physics"}


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
    out.update(deform_tracks(project.art.deforms))
    if project.events.keys:
        out[EVENTS] = project.events.keys
    return out


_REKEYED: dict = {}  # (id(item), kind, ids of the keys given) -> (item, the keys given, the item rekeyed)
_REKEYED_MAX = 1 << 16


def _remembered(key, alive, make):
    """``make()``, or what it gave for ``key`` before while the objects ``alive`` (whose
    ids make up ``key``) are the very same ones."""
    hit = _REKEYED.get(key)
    if hit is not None and len(hit[0]) == len(alive) and all(a is b for a, b in zip(hit[0], alive)):
        return hit[1]
    out = make()
    if len(_REKEYED) >= _REKEYED_MAX:
        _REKEYED.clear()
    _REKEYED[key] = (alive, out)  # the objects kept alive: their ids stay their own
    return out


def with_tracks(project: Project, tracks: dict) -> Project:
    """``project`` with every track's keys replaced by ``tracks`` (absent: no keys).

    Items and keys are immutable: an item rekeyed with the very same key tuples as
    before comes back as the same object as before (and so does the artwork), so the
    checks that remember the items found fine (validation) do not check it again.
    The stored animations are validated by opening each one after every edit; without
    this every bone, slot and mesh of every stored animation was checked afresh on
    every mouse move of a drag."""
    def rekeyed(kind, item):
        given = tuple(tracks.get((kind, item.name, attr), ()) for attr in TRACKS[kind])

        def make():
            changes = {}
            for attr, keys in zip(TRACKS[kind], given):
                ch = getattr(item, attr)
                if ch.keys != tuple(keys):
                    changes[attr] = replace(ch, keys=tuple(keys))
            return replace(item, **changes) if changes else item
        return _remembered((id(item), kind, *map(id, given)), (item, *given), make)

    pools = {pool: tuple(rekeyed(kind, x) for x in getattr(project, pool)) for kind, pool in _POOLS.items()}
    slots = tuple(rekeyed("slot", s) for s in project.art.slots)
    order = tracks.get(DRAW_ORDER, ())
    deform_keys = tuple(keys for path, keys in tracks.items() if path[0] == DEFORM)
    art = _remembered(("art", id(project.art), id(order), *map(id, slots), *map(id, deform_keys)),
                      (project.art, order, *slots, *deform_keys),
                      lambda: replace(project.art, slots=slots, draw_order=tuple(order), deforms=deforms_of(tracks)))
    events = replace(project.events, keys=tuple(tracks.get(EVENTS, ())))
    return replace(project, art=art, events=events, **pools)


def setup_pose(project: Project) -> Project:
    """``project`` with every track's keys ignored: on every frame the setup (rest)
    pose, the channels' defaults, the setup draw order (what Setup mode shows and
    edits). Items without keys are shared, not copied."""
    return with_tracks(project, {})


def clip(project: Project, name: str) -> Animation:
    """The animation ``name`` with all its keys and its range."""
    if name == project.animation:
        tl = project.timeline
        return Animation(name, tl.start, tl.end, tracks_of(project), tl.exact_end)
    for a in animations(project):
        if a.name == name:
            return a
    raise KeyError(f"no animation named {name!r}")


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
                   timeline=Timeline(tl.fps, target.start, target.end, target.exact_end))
