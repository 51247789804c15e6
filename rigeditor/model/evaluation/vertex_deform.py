"""Deform keys on path attachments, boxes and clipping polygons: the offsets a keyed
deform adds to their vertices over frames (Spine's deform timeline keys any vertex
attachment, not only meshes; meshes: ``deform_bake``).

The offsets (F, V, K, 2), model units, are added per vertex and influence in that
influence's bone frame (K = 1 unweighted: the slot bone's), before the vertex is
placed; before the first key they are 0, after the last they hold it
(``model.data.deform.sample``). A weighted path or polygon keys its influences in
Spine's order, every one kept (``io.spine.read_deform.path_slots``).
"""
from __future__ import annotations

import numpy as np

from rigeditor.model.data.deform import find, sample


def vertex_offsets(art, slot: str, attachment, frames) -> np.ndarray | None:
    """(F, V, K, 2) deform offsets of ``attachment`` (a path, box or clipping polygon,
    by its name and skin) in ``slot`` at ``frames`` (F,), or None when no deform keys
    play on it."""
    track = find(art.deforms, slot, attachment.skin, attachment.name)
    if track is None or not track.keys:
        return None
    return sample(track.keys, np.asarray(frames, float).reshape(-1))


path_offsets = vertex_offsets  # the path constraints' name for it

__all__ = ["path_offsets", "vertex_offsets"]
