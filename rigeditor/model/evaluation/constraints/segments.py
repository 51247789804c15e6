"""A chain's segments: the straight pieces its solver bends, joint to joint.

A segment runs from a bone's origin to the next bone's origin (the last: to its own
tip). Where the next bone starts off the bone's axis or short of its tip (Spine allows
it), the segment is not the bone: its length is that offset's and it is turned from
the bone's x axis by ``turn`` radians. The solver works on segments; the bones keep
their own frames, so a bone's rotation is its segment's minus its turn.
"""
from __future__ import annotations

import math

import numpy as np


_cache: dict[tuple, tuple] = {}


def segments(project, bones) -> tuple[list[float], list[float]]:
    """(lengths in model units, turns in radians) per segment of the chain ``bones``
    (root to tip); the last segment is its bone (turn 0). Remembered per tuple of
    bones (fresh lists each call: callers may change them)."""
    key = (id(project.bones), tuple(bones))
    hit = _cache.get(key)
    if hit is None or hit[0] is not project.bones:
        if len(_cache) > 256:
            _cache.clear()
        hit = _cache[key] = (project.bones, _segments(project, bones))
    return list(hit[1][0]), list(hit[1][1])


def _segments(project, bones) -> tuple[list[float], list[float]]:
    lengths, turns = [], []
    for name, child in zip(bones, bones[1:]):
        ox, oy = project.bone(child).rest_offset
        lengths.append(math.hypot(ox, oy))
        turns.append(math.atan2(oy, ox))
    lengths.append(project.bone(bones[-1]).length)
    turns.append(0.0)
    return lengths, turns


def translated_first(project, bones, translate: np.ndarray):
    """Where a two-bone chain's second bone is translated (Spine keys an IK child's
    position; ``translate`` (N, 2) its translate in the first bone's frame, the Pose's),
    the first segment per frame: (lengths (N,), turns (N,), the second bone's origin
    (N, 2) in the first bone's frame: its rest offset plus the translate). None: not
    translated."""
    if not np.any(translate):
        return None
    at = np.asarray(project.bone(bones[1]).rest_offset, float) + translate
    return np.hypot(at[:, 0], at[:, 1]), np.arctan2(at[:, 1], at[:, 0]), at


def joint_turns(turns) -> list[float]:
    """Per joint, what its segment angle adds to the bone's local rotation:
    turn[i] - turn[i-1] (the first: turn[0])."""
    return [t - (turns[i - 1] if i else 0.0) for i, t in enumerate(turns)]


def on_axis(project, bones) -> bool:
    """Whether every bone of the chain has the next one on its tip, untranslated
    (segments = bones)."""
    for name, child in zip(bones, bones[1:]):
        parent = project.bone(name)
        ox, oy = project.bone(child).rest_offset
        if project.bone(child).translated:
            return False
        if not (math.isclose(ox, parent.length, rel_tol=1e-9) and abs(oy) <= 1e-9 * parent.length):
            return False
    return True
