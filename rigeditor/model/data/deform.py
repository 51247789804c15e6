"""Deform (free-form) keys: keyed vertex offsets of one mesh attachment (pure data, no
Qt, no files).

A :class:`DeformTrack` belongs to one mesh attachment, named by its slot, its skin
(``""``: the default skin) and its name, and lives in ``Art.deforms`` (the open
animation's; the others keep theirs in ``Project.animations`` under the path
``("deform", slot, (skin, attachment))``, see ``model.data.clips``).

Each :class:`DeformKey` holds ``offsets`` (V, K, 2) in model units: per vertex and
influence, what is added to the vertex before it is skinned. K = 1 for an unweighted
mesh (added to the vertex in the slot bone's frame), K = the mesh's padded influences
(4) for a weighted one (added to the vertex's position in each influence bone's own
frame, as Spine does: a weighted deform moves a vertex by sum_k w_k * L_k * d_k, L_k
the linear part of bone k's world transform). The key's ``interpolation`` says how the
segment leaving it runs: ``linear``, ``stepped`` (holds), or ``bezier`` with
``curve = (u1, v1, u2, v2)``, the handles in the segment's unit square (u: fraction
of the segment's time in [0, 1], v: fraction of the way from this key's offsets to
the next key's). Before the first key the mesh shows its setup vertices (offsets 0);
after the last it holds the last key.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

DEFORM_INTERPOLATIONS = ("linear", "stepped", "bezier")
LINEAR_CURVE = (1.0 / 3.0, 1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0)
"""Bezier handles that play as a straight line."""


def _ro(a) -> np.ndarray:
    out = np.array(a, dtype=float)
    if out.ndim == 2:  # (V, 2): one influence per vertex
        out = out[:, None, :]
    out = out.reshape(-1, *out.shape[1:]) if out.ndim == 3 else out.reshape(0, 1, 2)
    out.flags.writeable = False
    return out


@dataclass(frozen=True, eq=False)
class DeformKey:
    """From ``frame`` on: ``offsets`` (V, K, 2), model units; see the module."""

    frame: float
    offsets: np.ndarray
    interpolation: str = "linear"
    curve: tuple[float, float, float, float] = LINEAR_CURVE

    def __post_init__(self):
        object.__setattr__(self, "offsets", _ro(self.offsets))
        object.__setattr__(self, "frame", float(self.frame))
        object.__setattr__(self, "curve", tuple(float(c) for c in self.curve))

    def __eq__(self, other):
        if not isinstance(other, DeformKey):
            return NotImplemented
        return (self.frame == other.frame and self.interpolation == other.interpolation
                and self.curve == other.curve and self.offsets.shape == other.offsets.shape
                and bool(np.array_equal(self.offsets, other.offsets)))

    __hash__ = object.__hash__


@dataclass(frozen=True)
class DeformTrack:
    """The deform keys of mesh ``attachment`` of skin ``skin`` in slot ``slot``, in
    increasing frame order."""

    slot: str
    attachment: str
    skin: str = ""
    keys: tuple[DeformKey, ...] = field(default_factory=tuple)

    @property
    def key(self) -> tuple[str, str, str]:
        return self.slot, self.skin, self.attachment

    def with_key(self, key: DeformKey) -> "DeformTrack":
        """This track with ``key`` added (replacing one on the same frame)."""
        keys = {k.frame: k for k in self.keys}
        keys[key.frame] = key
        return replace(self, keys=tuple(keys[f] for f in sorted(keys)))

    def sample(self, frames) -> np.ndarray:
        """(F, V, K, 2) offsets at ``frames`` (F,) (zeros when there are no keys)."""
        return sample(self.keys, frames)


def find(deforms, slot: str, skin: str, attachment: str) -> DeformTrack | None:
    """The track of that attachment in ``deforms``, or None."""
    for t in deforms:
        if t.slot == slot and t.skin == skin and t.attachment == attachment:
            return t
    return None


def bezier_mix(curve, u) -> np.ndarray:
    """The mix (0 at u = 0, 1 at u = 1) of a segment eased by unit-square handles
    ``curve`` = (u1, v1, u2, v2) at time fractions ``u`` in [0, 1]: the curve's
    parameter found by bisection on its time (monotonic while u1, u2 lie in [0, 1]),
    60 halvings, far below any visible difference."""
    u1, v1, u2, v2 = curve
    u = np.clip(np.asarray(u, float), 0.0, 1.0)
    lo, hi = np.zeros_like(u), np.ones_like(u)
    for _ in range(60):
        s = 0.5 * (lo + hi)
        x = 3 * (1 - s) ** 2 * s * u1 + 3 * (1 - s) * s * s * u2 + s ** 3
        below = x < u
        lo, hi = np.where(below, s, lo), np.where(below, hi, s)
    s = 0.5 * (lo + hi)
    return 3 * (1 - s) ** 2 * s * v1 + 3 * (1 - s) * s * s * v2 + s ** 3


def key_arrays(keys) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(N,) key frames, (N,) interpolation codes (index into DEFORM_INTERPOLATIONS),
    (N, 4) bezier handles: what sampling needs, kept by callers that sample often."""
    times = np.array([k.frame for k in keys], float)
    codes = np.array([DEFORM_INTERPOLATIONS.index(k.interpolation) for k in keys], np.int64)
    curves = np.array([k.curve for k in keys], float).reshape(-1, 4)
    return times, codes, curves


def mix_at(arrays, frames) -> tuple[np.ndarray, np.ndarray]:
    """((F,) index of the key at or before each frame, -1 before the first; (F,) the
    mix from that key's offsets toward the next key's, 0 on and after the last) for
    keys given as ``key_arrays``."""
    times, codes, curves = arrays
    frames = np.asarray(frames, float).reshape(-1)
    if len(frames) == 1:  # one frame (scrubbing): a dozen array calls cost more than the maths
        return _one_mix(times, codes, curves, float(frames[0]))
    i = np.searchsorted(times, frames, side="right") - 1
    inside = (i >= 0) & (i < len(times) - 1)
    j = np.clip(i, 0, max(len(times) - 2, 0))
    span = times[np.minimum(j + 1, len(times) - 1)] - times[j]
    u = np.where(inside, (frames - times[j]) / np.where(span > 0, span, 1.0), 0.0)
    code = np.where(inside, codes[j], 1)  # outside a segment: held
    mix = np.where(code == 0, u, 0.0)
    bez = code == 2
    if bez.any():
        mix[bez] = bezier_mix(tuple(curves[j[bez], c] for c in range(4)), u[bez])
    return i, mix


def _one_mix(times, codes, curves, f: float):
    """``mix_at`` for a single frame, the same arithmetic on scalars."""
    i = int(np.searchsorted(times, f, side="right")) - 1
    if i < 0 or i >= len(times) - 1 or codes[i] == 1:
        return np.array([i]), np.zeros(1)
    u = (f - times[i]) / (times[i + 1] - times[i])
    mix = u if codes[i] == 0 else float(bezier_mix(tuple(curves[i]), np.array([u]))[0])
    return np.array([i]), np.array([mix])


def mix_of(keys, frames) -> tuple[np.ndarray, np.ndarray]:
    """``mix_at`` of ``keys``."""
    return mix_at(key_arrays(keys), frames)


def sample(keys, frames, stack=None, arrays=None) -> np.ndarray:
    """(F, V, K, 2) offsets of ``keys`` at ``frames`` (see the module); ``stack``: the
    keys' offsets stacked (N, V, K, 2) and ``arrays`` their ``key_arrays``, when the
    caller keeps them."""
    frames = np.asarray(frames, float).reshape(-1)
    if not keys:
        return np.zeros((len(frames), 0, 1, 2))
    if stack is None:
        stack = np.stack([k.offsets for k in keys])
    i, mix = mix_at(arrays if arrays is not None else key_arrays(keys), frames)
    here = stack[np.maximum(i, 0)]
    ahead = stack[np.minimum(np.maximum(i, 0) + 1, len(keys) - 1)]
    out = here + mix[:, None, None, None] * (ahead - here)
    out[i < 0] = 0.0
    return out


__all__ = ["DEFORM_INTERPOLATIONS", "LINEAR_CURVE", "DeformKey", "DeformTrack", "bezier_mix", "find", "key_arrays",
           "mix_at", "mix_of", "sample"]

DEFORM = "deform"
"""The kind of a deform track's path in ``Animation.tracks``: (DEFORM, slot, (skin,
attachment))."""


def deform_tracks(deforms) -> dict:
    """{path: keys} of the keyed tracks among ``deforms``."""
    return {(DEFORM, t.slot, (t.skin, t.attachment)): t.keys for t in deforms if t.keys}


def deforms_of(tracks: dict) -> tuple[DeformTrack, ...]:
    """The deform tracks among ``tracks`` ({path: keys}), in path order."""
    paths = sorted(p for p in tracks if p[0] == DEFORM)
    return tuple(DeformTrack(slot, att, skin, tuple(tracks[(DEFORM, slot, (skin, att))]))
                 for _, slot, (skin, att) in paths)


__all__ += ["DEFORM", "deform_tracks", "deforms_of"]
