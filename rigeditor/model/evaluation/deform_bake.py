"""Deform keys in the one evaluation: what a mesh's keyed offsets add to its skinned
vertices, per frame, on demand (no frame axis of vertices is held, as for skinning).

A vertex with influences k (bone index i_k, weight w_k) and offsets d_k (model units,
in bone k's own frame; for an unweighted mesh one influence, the slot bone) moves by
sum_k w_k * L_k(t) * d_k, L_k(t) the linear part of bone k's transform (character
space): Spine adds a weighted offset to the vertex's position in each bone's frame
before blending, M_k (p_k + d_k) = M_k p_k + L_k d_k. With skin transforms S_k =
M_k bind_k^-1 (what skin_bake keeps), L_k = lin(S_k) lin(bind_k).
"""
from __future__ import annotations

import weakref

import numpy as np

from rigeditor.model.data.deform import find, key_arrays, sample
from rigeditor.model.data.mesh_attachment import MeshAttachment


class DeformSampler:
    """The frame-free part of one mesh's deform: its keys, influences and bind
    linear parts. ``moved(skins, frames)`` gives the offsets' motion."""

    __slots__ = ("keys", "stack", "arrays", "indices", "weights", "bind_linear")

    def __init__(self, keys, mesh: MeshAttachment):
        self.keys = tuple(keys)
        self.stack = np.stack([k.offsets for k in self.keys])  # (N, V, K, 2), stacked once
        self.arrays = key_arrays(self.keys)
        if mesh.skinned:
            self.indices, self.weights = mesh.indices, mesh.weights
            b = np.asarray(mesh.bind, float).reshape(-1, 6)
            self.bind_linear = b[:, [0, 1, 2, 3]].reshape(-1, 2, 2)
        else:
            n = len(mesh.vertices)
            self.indices, self.weights = np.zeros((n, 1), np.int64), np.ones((n, 1))
            self.bind_linear = np.eye(2)[None]

    def moved(self, skins: np.ndarray, frames) -> np.ndarray:
        """(F, V, 2) motion in character space the offsets at ``frames`` (F,) add,
        ``skins`` (F, B, 2, 3) the mesh's skin transforms at those frames."""
        d = sample(self.keys, frames, self.stack, self.arrays)  # (F, V, K, 2)
        lin = np.asarray(skins)[..., :2] @ self.bind_linear  # (F, B, 2, 2)
        per = lin[:, self.indices]  # (F, V, K, 2, 2)
        moved = (per @ d[..., None])[..., 0]  # (F, V, K, 2): each influence's offset in character space
        return (moved * self.weights[None, :, :, None]).sum(axis=2)


def deform_keys(art, slot: str, mesh: MeshAttachment) -> tuple:
    """The deform keys that play on ``mesh`` in ``slot``: its own track's, or for a
    linked mesh that follows its parent's timelines, the parent's."""
    owner = (getattr(mesh, "parent", "") and getattr(mesh, "timelines", False))
    skin, name = (mesh.parent_skin, mesh.parent) if owner else (mesh.skin, mesh.name)
    track = find(art.deforms, slot, skin, name)
    return track.keys if track is not None else ()


_SAMPLERS: "weakref.WeakKeyDictionary[MeshAttachment, tuple]" = weakref.WeakKeyDictionary()
"""mesh -> (its latest deform keys, their sampler): one entry per live mesh."""


def sampler_for(art, slot: str, mesh: MeshAttachment) -> DeformSampler | None:
    """The DeformSampler of ``mesh``'s deform keys in ``slot`` (None: it has none),
    one object per (keys, mesh) pair: an evaluation after an edit elsewhere finds the
    same sampler, so a mesh whose bones and keys did not change keeps its pose
    (skin_bake) and its keys are not stacked again."""
    keys = deform_keys(art, slot, mesh)
    if not keys:
        return None
    hit = _SAMPLERS.get(mesh)
    if hit is not None and hit[0] is keys:
        return hit[1]
    sampler = DeformSampler(keys, mesh)
    _SAMPLERS[mesh] = (keys, sampler)
    return sampler


__all__ = ["DeformSampler", "deform_keys", "sampler_for"]
