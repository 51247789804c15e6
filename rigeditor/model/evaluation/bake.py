"""The Bake: every evaluated quantity as arrays with a leading frame axis.

Produced only by :func:`rigeditor.model.evaluation.evaluate.evaluate`. Scrubbing reads a row,
export writes all rows. Arrays are read-only and stored per item (one
:class:`BoneBake` per bone, one :class:`ChainBake` per chain): an incremental bake
shares every item an edit did not touch with the bake before it, and copies nothing.
"""
from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields, is_dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np

from rigeditor.core.geometry import Affine

CAUSES = ("none", "out_of_reach", "soft_reach", "limit", "mix", "budget", "constraint", "unexplained", "sheared")
"""Why a chain's end is not on its target, per frame (``ChainBake.cause`` indexes this).
``constraint``: a constraint that runs after the chain (transform, path, physics) moved
its bones off where the solve left them. ``sheared``: Spine's two-bone IK reached with
the first bone's shear on and placed it unsheared, so an off-axis child lands off the
target (``ik_frames.sheared_reach``; last, so the other indices stay as they were)."""


def _stored_at_once(cls):
    """Give the frozen per-item dataclass ``cls`` an __init__ taking every field by
    keyword and storing them in one go: the generated one guards each assignment
    (5 us for a ChainBake's 29 fields), and evaluating one frame builds an item per
    chain and bone."""
    names = frozenset(f.name for f in fields(cls))
    defaults = {f.name: f.default for f in fields(cls) if f.default is not MISSING}

    def __init__(self, **values):
        if values.keys() != names:
            values = {**defaults, **values}  # fields with a default may be left out
            if values.keys() != names:
                raise TypeError(f"{cls.__name__}: missing {sorted(names - values.keys())}, "
                                f"unknown {sorted(values.keys() - names)}")
        self.__dict__.update(values)

    cls.__init__ = __init__
    return cls


@_stored_at_once
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
    warm: np.ndarray | None = None  # iterative chains: (N, B) each frame's start pose (chains_warm)

    def cause_names(self, i: int) -> str:
        return CAUSES[int(self.cause[i])]


@_stored_at_once
@dataclass(frozen=True)
class BoneBake:
    """One bone over the frames. local_rotation: radians relative to the parent (rest +
    animation, or the IK result). world_rotation: radians in world. joint / tip: (N, 2)
    bone start and end in world. stretch: (N,) scale along its length (1 = none).
    shift: (N, 2) extra offset of its origin in its parent's frame (move root).
    translate / scale: (N, 2) its keyed translate (parent frame, model units) and the
    scale of its own frame (see ``project.Bone``).
    world: the world transform of the bone's frame (fields (N,))."""

    local_rotation: np.ndarray
    world_rotation: np.ndarray
    joint: np.ndarray
    tip: np.ndarray
    stretch: np.ndarray
    shift: np.ndarray
    world: Affine
    translate: np.ndarray
    scale: np.ndarray

    @classmethod
    def of(cls, values: dict, world: Affine) -> "BoneBake":
        """A BoneBake of every field but ``world`` in ``values`` (a fresh dict, taken),
        unchecked: for the evaluation's own assembly, a hundred items a frame."""
        item = object.__new__(cls)
        values["world"] = world
        item.__dict__.update(values)
        return item


def _stacked(name, tail=()):
    """An (N, B, ...) read-only array of one BoneBake field, built on first use."""
    def build(self):
        if not self.bone_bakes:
            return frozen(np.empty((len(self), 0) + tail))
        return frozen(np.stack([getattr(b, name) for b in self.bone_bakes], axis=1))
    prop = cached_property(build)
    prop.__doc__ = f"(N, B, ...) ``{name}`` of every bone, columns in ``bones`` order (built on first use)."
    return prop


@dataclass(frozen=True)
class Bake:
    """frames: (N,) frame numbers; fps: frames per second.

    bones: names in evaluation order (parents first). bone_bakes: one BoneBake per
    bone, in that order (the per-item store; bakes share the items an edit did not
    touch). spaces: world transform of each space (fields (N,)). chains: one
    ChainBake per chain. art: the slots' images per frame
    (``rigeditor.model.evaluation.art_bake.ArtBake``) or None.

    For readers of whole tables, ``local_rotation``, ``world_rotation``, ``stretch``
    (N, B), ``joint_world``, ``tip_world``, ``shift``, ``translate``, ``scale``
    (N, B, 2) and ``bone_world``
    (fields (N, B)) stack the bones' arrays on first use; a view that needs one frame
    reads ``joints_at(row)`` and friends, which stack nothing.
    """

    frames: np.ndarray
    fps: float
    bones: tuple[str, ...]
    bone_bakes: tuple[BoneBake, ...]
    spaces: dict[str, Affine]
    chains: dict[str, ChainBake] = field(default_factory=dict)
    art: Any = None  # ArtBake (model/art_bake.py) when the project has slots

    local_rotation = _stacked("local_rotation")
    world_rotation = _stacked("world_rotation")
    joint_world = _stacked("joint", (2,))
    tip_world = _stacked("tip", (2,))
    stretch = _stacked("stretch")
    shift = _stacked("shift", (2,))
    translate = _stacked("translate", (2,))
    scale = _stacked("scale", (2,))

    @cached_property
    def bone_world(self) -> Affine:
        """World transform of every bone's frame, fields (N, B) (built on first use)."""
        worlds = [b.world for b in self.bone_bakes]
        if not worlds:
            return Affine(*(frozen(np.empty((len(self), 0))) for _ in range(6)))
        return Affine(*(frozen(np.stack(f, axis=1)) for f in zip(*(w.fields() for w in worlds))))

    def __len__(self) -> int:
        return int(self.frames.shape[0])

    def index(self, frame) -> int:
        """Row of ``frame`` (clamped into the baked range)."""
        i = int(np.searchsorted(self.frames, float(frame)))
        return min(max(i, 0), len(self) - 1)

    @cached_property
    def _columns(self) -> dict[str, int]:
        return {name: k for k, name in enumerate(self.bones)}

    def column(self, bone: str) -> int:
        try:
            return self._columns[bone]
        except KeyError:
            raise ValueError(f"bone {bone!r} is not in the bake") from None

    def bone(self, name: str) -> BoneBake:
        return self.bone_bakes[self.column(name)]

    def rows(self, start: int, stop: int) -> "Bake":
        """The frames [start, stop) as a Bake of their own: views into this one's
        arrays, nothing copied. Every row of a full evaluation is that frame's exact
        pose, so this is the starting point of an evaluation at those frames."""
        return _rows_of(self, slice(start, stop))

    def joints_at(self, row: int) -> np.ndarray:
        """(B, 2) bone starts in world at one row."""
        return np.array([b.joint[row] for b in self.bone_bakes]).reshape(-1, 2)

    def tips_at(self, row: int) -> np.ndarray:
        """(B, 2) bone ends in world at one row."""
        return np.array([b.tip[row] for b in self.bone_bakes]).reshape(-1, 2)

    def world_rotations_at(self, row: int) -> np.ndarray:
        """(B,) world rotations (radians) at one row."""
        return np.array([b.world_rotation[row] for b in self.bone_bakes], dtype=float)

    @property
    def time_s(self) -> np.ndarray:
        return self.frames / self.fps


def _rows_of(item, cut):
    """A bake or per-item bake (any dataclass of frame-axis arrays, Affines, and
    tuples or dicts of such items) cut to the frames ``cut``: new kinds of per-item
    data are cut without being named here."""
    changes = {}
    for f in fields(item):
        value = getattr(item, f.name)
        cut_value = _cut(value, cut)
        if cut_value is not value:
            changes[f.name] = cut_value
    return replace(item, **changes)


def _cut(value, cut):
    if isinstance(value, Affine):
        return value.take(cut)
    if isinstance(value, np.ndarray):
        return value[cut] if value.ndim else value
    if is_dataclass(value) and not isinstance(value, type):
        return _rows_of(value, cut)
    if isinstance(value, dict):
        return {k: _cut(v, cut) for k, v in value.items()}
    if isinstance(value, tuple) and value and is_dataclass(value[0]):
        return tuple(_cut(v, cut) for v in value)
    return value


def frozen(array):
    """Mark ``array`` read-only (bakes share arrays; nobody may write into them)."""
    array = np.asarray(array)
    array.flags.writeable = False
    return array
