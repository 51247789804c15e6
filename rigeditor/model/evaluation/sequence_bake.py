"""Which frame of a sequence each slot shows, per frame (part of ``bake.art``), as
spine-core's sequence timelines pick it (``model.data.sequences``)."""
from __future__ import annotations

import numpy as np

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
        # Its own keys only: a key for another attachment leaves this one's in effect.
        own = [(f, key) for f, key in keys if key.attachment == a.name]
        if not own:
            continue
        at = np.array([f for f, _ in own])
        which = np.searchsorted(at, frames, side="right") - 1
        for j, (f, key) in enumerate(own):
            rows = shown & (which == j)
            if rows.any():
                out[rows] = frame_index(key, seq.count, frames[rows] - f)
    return out


__all__ = ["sequence_frames"]
