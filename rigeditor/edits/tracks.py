"""Keyed tracks: the model-side listing the timeline draws, and key edits on them.

Pure functions of a Project (no Qt): :func:`keyed_tracks` lists every animatable
channel that has keys; :func:`move_keys`, :func:`delete_keys` and :func:`set_key`
return a new Project; :func:`key_item` keys a selected item as it currently is.

A track is addressed by its path ``(kind, name, attribute)``, kind being target,
chain, space, bone or slot, for example ``("target", "hand", "position")`` or
``("slot", "hand", "attachment")`` (the picture a slot shows).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

import numpy as np

from rigeditor.model.data.ik_flags import FLAG_TRACKS, flag_at
from rigeditor.model.data import clips
from rigeditor.edits import keys as key_edits
from rigeditor.edits.deform import deform_rows
from rigeditor.edits.posing import key_channel, set_target_key
from rigeditor.model.data.project import Project
from rigeditor.model.data.slot_color import CHANNELS as SLOT_COLOR, DEFAULTS as SLOT_DEFAULTS
from rigeditor.model.data.timeline import Key, StepChannel

Path = tuple[str, str, str]

# Every animatable attribute per kind, in the order rows are listed.
ATTRIBUTES: dict[str, tuple[str, ...]] = clips.TRACKS
STEPPED = {("target", "space"), ("chain", "bend"), ("slot", "attachment"), ("slot", "sequence"), ("bone", "inherit"),
           ("chain", "spine_stretch"), ("chain", "spine_compress")}
"""Tracks whose value holds from key to key (their keys are always ``constant``)."""

_items = clips.items


@dataclass(frozen=True)
class Track:
    """One keyed channel.

    label: "item · attribute" for display. path: (kind, name, attribute).
    frames: key frames, increasing. stepped: the value holds between keys.
    spaces: for a target's tracks, the space each key is declared in (position
    keys) or switches to (space keys), so views can colour keys by space; else ().
    """

    label: str
    path: Path
    frames: tuple[int, ...]
    stepped: bool = False
    spaces: tuple[str, ...] = ()

    @property
    def item(self) -> tuple[str, str]:
        """The (kind, name) this track animates, as in Document.selection."""
        return self.path[0], self.path[1]


def keyed_tracks(project: Project) -> list[Track]:
    """Every channel with at least one key: targets, chains, spaces, then bones,
    each kind in project order and each item's attributes in ATTRIBUTES order."""
    out: list[Track] = []
    for kind, attrs in ATTRIBUTES.items():
        for item in _items(project, kind):
            for attr in attrs:
                ch = getattr(item, attr)
                if not ch.keys:
                    continue
                frames, spaces = _keys_of(ch, item.space if (kind, attr) == ("target", "position") else None)
                out.append(Track(f"{item.name} · {attr}", (kind, item.name, attr), frames,
                                 (kind, attr) in STEPPED, spaces if kind != "slot" else ()))
    if project.art.draw_order:
        out.append(Track("draw order", clips.DRAW_ORDER, tuple(k.frame for k in project.art.draw_order), True))
    return _under_their_items(out, deform_rows(project, Track))


def _under_their_items(tracks: list[Track], rows) -> list[Track]:
    """``tracks`` with each of ``rows`` after the last track of its item (in order;
    rows of an item without tracks at the end, grouped by item): one pass, as a rig
    with many skins has a deform row per mesh."""
    groups: dict = {}
    for row in rows:
        groups.setdefault(row.item, []).append(row)
    if not groups:
        return tracks
    last = {t.item: i for i, t in enumerate(tracks)}
    out = []
    for i, t in enumerate(tracks):
        out.append(t)
        if last[t.item] == i and t.item in groups:
            out.extend(groups.pop(t.item))
    for group in groups.values():
        out.extend(group)
    return out


channel = clips.channel
with_channel = clips.with_channel


def touched(paths: Iterable[Path]) -> set[str] | None:
    """What an edit of these tracks touched, for Document.apply: targets, chains and
    bones re-evaluate incrementally; a space track needs a full evaluation (None)."""
    out = set()
    for kind, name, _ in paths:
        if kind not in ("target", "chain", "bone"):
            return None
        out.add(f"{kind}:{name}")
    return out


# ------------------------------------------------------------------ key edits

def move_keys(project: Project, keys: Mapping[Path, Iterable[int]], delta: int) -> Project:
    """Retime ``keys`` (frames per track) by ``delta`` frames, together, inside the
    animation's frame range (rigeditor.edits.keys.move_keys: a moved key lands
    on top of an unmoved key at its new frame and replaces it)."""
    return key_edits.move_keys(project, keys, int(delta))


clamp_delta = key_edits.clamp_delta


def delete_keys(project: Project, keys: Mapping[Path, Iterable[int]]) -> Project:
    """Remove ``keys`` (frames per track). A channel left without keys holds its default."""
    for path, frames in keys.items():
        gone = set(map(float, frames))
        track = key_edits.get(project, path)
        if isinstance(track, tuple):  # the draw order
            project = key_edits.put(project, path, tuple(k for k in track if k.frame not in gone))
            continue
        for f in gone:
            track = track.without_key(f)
        project = with_channel(project, path, track)
    return project


def set_key(project: Project, path: Path, frame: int, value) -> Project:
    """Key ``path`` at ``frame`` with ``value`` (a space name for a target's space,
    else floats). A key already on that frame keeps its interpolation and handles;
    a new key is ``constant`` on stepped tracks and takes the interpolation of the
    segment it splits elsewhere (rigeditor.edits.posing.key_channel). As with
    a target's first key, a channel's first key also becomes its default, so
    unkeyed frames agree with it."""
    kind, name, attr = path
    frame = int(frame)
    if (kind, attr) == ("target", "position"):
        return set_target_key(project, name, frame, value)
    ch = channel(project, path)
    if isinstance(ch, StepChannel):
        return with_channel(project, path, ch.with_key(frame, str(value)))
    value = tuple(float(v) for v in np.atleast_1d(value))
    if (kind, attr) in STEPPED:
        keyed = ch.with_key(Key(frame, value, "constant"))
        return with_channel(project, path, replace(keyed, default=value) if not ch.keys else keyed)
    return with_channel(project, path, key_channel(ch, frame, value))


def key_item(project: Project, item: tuple[str, str], frame: int) -> tuple[Project, list[Path]]:
    """Key a selected item at ``frame`` as it currently is (its sampled values).

    target: its position, in the space it is declared in at ``frame``. chain:
    bend, softness and mix (and Spine's stretch and compress flags once keyed). bone: its FK rotation, or, for a bone an IK chain
    drives, that chain (its rotation there is the solver's, not a key's); its
    translate and scale too once they are keyed or moved from the rest pose.
    space: position, rotation and scale. slot: its attachment, and its colour
    channels once keyed or set. Returns the project and the keyed paths.
    """
    kind, name = item
    if kind not in ATTRIBUTES or not any(x.name == name for x in _items(project, kind)):
        return project, []  # e.g. the world space: nothing to key
    if kind == "bone":
        chain = project.chain_of_bone(name)
        if chain is not None:
            kind, name = "chain", chain.name
    attrs = ("position",) if kind == "target" else ATTRIBUTES[kind]
    if kind == "slot":  # a sequence key needs a mode and a frame: keyed where it is chosen, not by K
        attrs = ("attachment",)
    if kind == "bone":  # translate and scale once they are used (squash, stretch, hops)
        bone = project.bone(name)
        attrs = ("rotation",) + tuple(a for a, rest in (("translate", (0.0, 0.0)), ("scale", (1.0, 1.0)))
                                      if getattr(bone, a).keys or getattr(bone, a).default != rest)
    if kind == "chain":  # Spine's keyed IK flags once they are keyed (model.data.ik_flags)
        chain = project.chain(name)
        attrs = tuple(a for a in attrs if a not in FLAG_TRACKS.values() or getattr(chain, a).keys)
    if kind == "slot":  # its colour once it is keyed or set (model.data.slot_color)
        slot = project.art.slot(name)
        attrs = ("attachment",) + tuple(c for c in SLOT_COLOR if getattr(slot, c).keys
                                        or getattr(slot, c).default[0] != SLOT_DEFAULTS[c])
    paths = [(kind, name, a) for a in attrs]
    flags = {track: flag for flag, track in FLAG_TRACKS.items()}
    for path in paths:
        if path[0] == "chain" and path[2] in flags:  # the flag in force there (set up before the first key)
            value = float(flag_at(project.chain(name), flags[path[2]], [float(frame)])[0])
        else:
            value = channel(project, path).value_at(frame)
        project = set_key(project, path, frame, value)
    return project, paths


_keys_cache: dict[tuple[int, int], tuple[object, object, tuple]] = {}


def _keys_of(ch, space: StepChannel | None):
    """(frames, spaces) of a channel's keys; ``space``: the target's space channel
    when ``ch`` is its position. Cached per channel object (channels are immutable
    and an edit replaces only the channels it changes), so listing the tracks of a
    long animation on every drag move stays cheap."""
    cache_key = (id(ch), id(space))
    hit = _keys_cache.get(cache_key)
    if hit is not None and hit[0] is ch and hit[1] is space:
        return hit[2]
    if isinstance(ch, StepChannel):
        result = tuple(float(f) for f, _ in ch.keys), tuple(v for _, v in ch.keys)
    else:
        frames = tuple(float(k.frame) for k in ch.keys)  # a key between frames stays there
        spaces: tuple[str, ...] = ()
        if space is not None:
            names = space.values()
            spaces = tuple(names[c] for c in space.sample(np.array(frames, dtype=float)))
        result = frames, spaces
    if len(_keys_cache) > 4096:
        _keys_cache.clear()
    _keys_cache[cache_key] = (ch, space, result)
    return result
