"""The exported animation ends where the project's does: at its exact end.

A Spine animation lasts until its last key. The export writes a key at every baked
frame where a pose is baked (and a chord-cut curve can hold to the range's last
frame), so a range ending on frame ``end`` makes the animation ``end`` long, a frame
more than an imported animation whose last key fell between frames
(``Timeline.exact_end``: cloud-pot's 4.6667 s came back 4.7 s). Here the keys on
the range's last frame move back to the exact end (or go, where a key already sits
there). No key of the project lies after the exact end (``ends_early``), so from there
to ``end`` every channel holds: the pose at the last frame is the pose at the exact
end, and every earlier key, hence every pose Spine plays at a frame before, is kept.
"""
from __future__ import annotations

from rigeditor.io.spine.write_curves import key_time
from rigeditor.model.data import clips
from rigeditor.model.data.duration import exact_end

_SAME = 1e-9  # seconds: two key times this close are one


def ends_early(project) -> float | None:
    """The open animation's exact end (a frame between end - 1 and end), or None: none
    stored, or a key of the animation lies after it (it was edited since)."""
    value = exact_end(project.timeline)
    if value is None:
        return None
    for keys in clips.tracks_of(project).values():
        for key in keys:
            frame = key.frame if hasattr(key, "frame") else key[0]
            if float(frame) > value + 1e-9:
                return None
    return value


def end_at_exact_end(anim: dict, project, bake) -> None:
    """Move ``anim``'s keys on the bake's last frame to the project's exact end, in
    place, when the bake runs to the timeline's end and the animation ends early."""
    value = ends_early(project)
    frames = bake.frames
    if value is None or len(frames) < 2 or frames[-1] != project.timeline.end or frames[-2] != frames[-1] - 1:
        return
    first = float(frames[0])
    last, exact = key_time(frames[-1] - first, bake.fps), key_time(value - first, bake.fps)
    for keys in _timelines(anim):
        if not keys or abs(keys[-1].get("time", 0.0) - last) > _SAME:
            continue
        before = keys[-2].get("time", 0.0) if len(keys) > 1 else None
        if before is not None and before >= exact - _SAME:
            keys.pop()  # a key at the exact end already: from there the value holds
            keys[-1].pop("curve", None)
            continue
        keys[-1]["time"] = exact
        if before is not None and isinstance(keys[-2].get("curve"), list):
            _squeeze(keys[-2]["curve"], before, last, exact)


def _squeeze(curve: list, start: float, old: float, new: float) -> None:
    """A Spine Bézier segment from ``start`` to ``old`` s re-timed to end at ``new``:
    its handle times (every first and third number of each four) scaled alike."""
    ratio = (new - start) / (old - start)
    for i in range(0, len(curve), 2):
        if i % 4 in (0, 2):
            curve[i] = start + (curve[i] - start) * ratio


def _timelines(node):
    """Every list of key objects (dicts, each with its "time", 0 when absent) in ``node``."""
    if isinstance(node, list):
        if node and all(isinstance(k, dict) for k in node) and any("time" in k for k in node):
            yield node
        for k in node:
            if isinstance(k, (dict, list)):
                yield from _timelines(k)
    elif isinstance(node, dict):
        for v in node.values():
            if isinstance(v, (dict, list)):
                yield from _timelines(v)
