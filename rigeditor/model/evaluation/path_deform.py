"""Deform keys on path attachments: the offsets a path's keyed deform adds to its
vertices over frames (what Spine's deform timeline does to a path, as to a mesh).

The offsets (F, V, K, 2), model units, are added per vertex and influence in that
influence's bone frame (``PathAttachment.world_vertices``); before the first key they
are 0, after the last they hold it (``model.data.deform.sample``).
"""
from __future__ import annotations

import numpy as np

from rigeditor.model.data.deform import find, sample


def path_offsets(art, slot: str, path, frames) -> np.ndarray | None:
    """(F, V, K, 2) deform offsets of ``path`` in ``slot`` at ``frames`` (F,), or None
    when no deform keys play on it."""
    track = find(art.deforms, slot, path.skin, path.name)
    if track is None or not track.keys:
        return None
    return sample(track.keys, np.asarray(frames, float).reshape(-1))


__all__ = ["path_offsets"]
