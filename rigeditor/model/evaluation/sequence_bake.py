"""Which frame of a sequence each slot shows, per frame (part of ``bake.art``), as
spine-core's sequence timelines pick it (``model.data.sequences``).

A linked mesh that plays its parent's timelines (``LinkedMesh.timelines``) plays its
parent's sequence keys too, beside its own: the frame is counted over the parent's
sequence (its count wraps the loop and ping-pong modes) and shown clamped to the linked
mesh's own last frame, as the runtimes do."""
from __future__ import annotations

import numpy as np

from rigeditor.model.data.linked_mesh import parent_of
from rigeditor.model.data.sequences import frame_index, parse_key


def sequence_frames(slot, codes: np.ndarray, frames: np.ndarray) -> np.ndarray:
    """(N,) the sequence frame ``slot`` shows at ``frames`` (``codes``: the attachment
    index shown per frame), -1 where the shown attachment has no sequence."""
    out = np.full(len(frames), -1, dtype=np.int64)
    keys = [(float(f), parse_key(v)) for f, v in slot.sequence.keys if v]
    for k, a in enumerate(slot.attachments):
        seq = getattr(a, "sequence", None)
        shown = codes == k
        if seq is None or not shown.any():
            continue
        out[shown] = seq.setup
        counts = {a.name: seq.count}
        parent = _timeline_parent(slot, a)
        if parent is not None:
            counts.setdefault(parent.name, parent.sequence.count)
        # Its own keys (and its parent's) only: a key for another attachment leaves these in effect.
        own = [(f, key) for f, key in keys if key.attachment in counts]
        if not own:
            continue
        at = np.array([f for f, _ in own])
        which = np.searchsorted(at, frames, side="right") - 1
        for j, (f, key) in enumerate(own):
            rows = shown & (which == j)
            if rows.any():
                index = frame_index(key, counts[key.attachment], frames[rows] - f)
                out[rows] = np.minimum(index, seq.count - 1)
    return out


def _timeline_parent(slot, a):
    """The mesh of ``slot`` whose sequence keys linked mesh ``a`` plays (None: ``a``
    plays its own only, or its parent has no sequence)."""
    if not getattr(a, "parent", "") or not getattr(a, "timelines", False):
        return None
    parent = parent_of(slot, a)
    return parent if getattr(parent, "sequence", None) is not None else None


__all__ = ["sequence_frames"]
