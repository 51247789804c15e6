"""Spine's IK stretch and compress flags keyed: stepped tracks on a chain.

A chain's ``spine_stretch`` / ``spine_compress`` tracks hold keys only: each key's value
(1 on, 0 off) holds from its frame to the next key, as Spine's IK timeline steps them;
before the first key, and on a chain without keys, the setup flag in ``spine_scale``
holds (Spine's setup pose). Their defaults play no part (0, left out of the file).
"""
from __future__ import annotations

import numpy as np

FLAG_TRACKS = {"stretch": "spine_stretch", "compress": "spine_compress"}
"""Spine's keyable IK scaling flag -> the chain's track of it."""


def flag_at(chain, flag: str, frames) -> np.ndarray:
    """Per frame (bool, (N,)), whether Spine's ``flag`` ("stretch" or "compress") is on."""
    frames = np.asarray(frames, dtype=float)
    setup = flag in chain.spine_scale
    ch = getattr(chain, FLAG_TRACKS[flag])
    if not ch.keys:
        return np.full(frames.shape, setup)
    on = ch.sample(frames)[:, 0] > 0.5
    return np.where(frames < ch.keys[0].frame, setup, on)


def ever_on(chain, flag: str) -> bool:
    """Whether ``flag`` is on anywhere: set up, or at a key."""
    ch = getattr(chain, FLAG_TRACKS[flag])
    return flag in chain.spine_scale or any(k.value[0] > 0.5 for k in ch.keys)


def scaling(chain) -> bool:
    """Whether Spine's IK scaling may act on the chain at some frame (a flag set up or keyed)."""
    return bool(chain.spine_scale) or any(getattr(chain, t).keys for t in FLAG_TRACKS.values())
