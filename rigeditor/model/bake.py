"""The Bake: every evaluated quantity as arrays with a leading frame axis.

Produced only by :func:`rigeditor.model.evaluate.evaluate`. Scrubbing reads a row,
export writes all rows. Arrays are read-only: successive bakes share the arrays of
whatever an edit did not touch.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rigeditor.core.geometry import Affine

CAUSES = ("none", "out_of_reach", "soft_reach", "limit", "mix", "budget", "unexplained")
"""Why a chain's end is not on its target, per frame (``ChainBake.cause`` indexes this)."""


@dataclass(frozen=True)
class ChainBake:
    """One chain over the frames. Shoulder space = the frame at the chain's first joint
    (its parent's frame), where the solve happens and the residual is measured.

    residual: |end - target| in shoulder space (model units). cause: index into CAUSES.
    limited: a joint limit bound. stretch: bone scale (1 = none). root_offset: shoulder
    shift in shoulder space. sensitivity: worst-case joint rotation per unit of target
    movement (degrees per model unit). distance / solve_distance: raw and solved
    shoulder-target distance. bend: +1/-1 per frame. side: sign of the final second
    joint's angle (0 when straight). flip: the side changed without a bend change (or a
    limit forcing it). bend_overridden: the limits exclude the saved bend side, so the
    elbow bends the other way.
    iterations: solver iterations (1 for analytic). converged: residual within tolerance
    or explained. hold: the target holds still in its declared space on this frame and
    the previous one. hold_drift: the end effector's motion since the previous frame
    measured in the target's declared space, on hold frames (0 elsewhere; above
    rounding only if the solve or the space resolution is wrong, or the target is out
    of reach). hold_world_motion: the same motion in world: foot sliding when a foot
    is held in a moving space, riding along for a hand held on a moving hip. target_declared: the keyed target in its
    declared space (before smoothing); target_world / target_shoulder: the smoothed
    target. end_world, elbow_world, ghost_elbow_world (the mirror solution's elbow),
    shoulder_world: positions. shoulder_to_world: the shoulder space per frame.
    """

    name: str
    residual: np.ndarray
    cause: np.ndarray
    limited: np.ndarray
    stretch: np.ndarray
    root_offset: np.ndarray
    sensitivity: np.ndarray
    distance: np.ndarray
    solve_distance: np.ndarray
    bend: np.ndarray
    side: np.ndarray
    flip: np.ndarray
    bend_overridden: np.ndarray
    iterations: np.ndarray
    converged: np.ndarray
    hold: np.ndarray
    hold_drift: np.ndarray
    hold_world_motion: np.ndarray
    target_declared: np.ndarray
    target_space: np.ndarray
    target_world: np.ndarray
    target_shoulder: np.ndarray
    end_world: np.ndarray
    elbow_world: np.ndarray
    ghost_elbow_world: np.ndarray
    shoulder_world: np.ndarray
    shoulder_to_world: Affine
    reach: tuple[float, float]
    softness: np.ndarray

    def cause_names(self, i: int) -> str:
        return CAUSES[int(self.cause[i])]


@dataclass(frozen=True)
class Bake:
    """frames: (N,) frame numbers; fps: frames per second.

    bones: names in evaluation order (parents first), the column order of every
    (N, B) array. local_rotation: radians relative to the parent (rest + animation,
    or the IK result). world_rotation: radians in world. joint_world / tip_world:
    (N, B, 2) bone start and end in world. stretch: (N, B) bone scale along its length.
    shift: (N, B, 2) extra offset of a bone's origin in its parent's frame (move root).
    translate / scale: (N, B, 2) each bone's keyed translate (parent frame, model
    units) and scale of its own frame (see ``project.Bone``).
    bone_world: world transform of each bone's frame (fields (N, B)).
    spaces: world transform of each space (fields (N,)).
    art: the slots' images per frame (``rigeditor.model.art_bake.ArtBake``) or None.
    """

    frames: np.ndarray
    fps: float
    bones: tuple[str, ...]
    local_rotation: np.ndarray
    world_rotation: np.ndarray
    joint_world: np.ndarray
    tip_world: np.ndarray
    stretch: np.ndarray
    shift: np.ndarray
    bone_world: Affine
    spaces: dict[str, Affine]
    translate: np.ndarray | None = None
    scale: np.ndarray | None = None
    chains: dict[str, ChainBake] = field(default_factory=dict)
    art: Any = None  # ArtBake (model/art_bake.py) when the project has slots

    def __len__(self) -> int:
        return int(self.frames.shape[0])

    def index(self, frame) -> int:
        """Row of ``frame`` (clamped into the baked range)."""
        i = int(np.searchsorted(self.frames, float(frame)))
        return min(max(i, 0), len(self) - 1)

    def column(self, bone: str) -> int:
        return self.bones.index(bone)

    @property
    def time_s(self) -> np.ndarray:
        return self.frames / self.fps


def frozen(array):
    """Mark ``array`` read-only (bakes share arrays; nobody may write into them)."""
    array = np.asarray(array)
    array.flags.writeable = False
    return array
