"""What the scene draws, read from the Document's Bake as plain arrays.

:class:`Structure` holds what only changes when bones, targets, chains or spaces are
added, removed, renamed or re-parented (columns, which bones a chain drives);
:class:`FrameState` is one row of the Bake (the current frame) gathered into arrays the
layers paint from. Both are rebuilt by the view, never edited by a layer. World units,
y-up, radians.
"""
from __future__ import annotations

import math

from dataclasses import dataclass, field
from operator import is_
from typing import NamedTuple

import numpy as np

from rigeditor.core.geometry import Affine
from rigeditor.model import WORLD

ONION_OFFSETS = (-6, -4, -2, 2, 4, 6)  # frames drawn by the onion-skin overlay (default)


def onion_offsets(before: int, after: int, step: int) -> tuple[int, ...]:
    """Frame offsets of the onion skin: ``before`` ghosts back and ``after`` ahead,
    ``step`` frames apart (each 0-20, step 1-50)."""
    step = max(1, int(step))
    return tuple(-step * k for k in range(int(before), 0, -1)) + tuple(step * k for k in range(1, int(after) + 1))
LIMIT_TOLERANCE = 1e-6  # radians: a joint this close to a bound is the bound one


def structure_key(project) -> tuple:
    """Changes exactly when the scene has to rebuild its structure."""
    return (
        tuple((b.name, b.parent) for b in project.bones),
        tuple(t.name for t in project.targets),
        tuple((c.name, c.bones, c.target) for c in project.chains),
        tuple((s.name, s.parent) for s in project.spaces),
    )


@dataclass(frozen=True)
class Structure:
    """bones: the Bake's column order. ik: (B,) bool, driven by a chain.
    parent: (B,) parent column or -1. leaf: (B,) bool, no child bones.
    chain_of_bone: bone -> chain name. chain_cols: chain -> its bones' columns.
    targets: target names. target_chain: target -> first chain aiming at it (or None).
    spaces: object spaces (every space except world), parents first as declared."""

    key: tuple
    bones: tuple[str, ...]
    ik: np.ndarray
    parent: np.ndarray
    leaf: np.ndarray
    chain_of_bone: dict
    chains: tuple[str, ...]
    chain_cols: dict
    targets: tuple[str, ...]
    target_chain: dict
    spaces: tuple[tuple[str, str], ...]

    @classmethod
    def build(cls, project, bake) -> "Structure":
        col = {name: k for k, name in enumerate(bake.bones)}
        parent = np.array([col.get(project.bone(b).parent, -1) if project.bone(b).parent else -1
                           for b in bake.bones], dtype=int)
        leaf = np.ones(len(bake.bones), dtype=bool)
        leaf[parent[parent >= 0]] = False
        chain_of_bone = {b: c.name for c in project.chains for b in c.bones}
        ik = np.array([b in chain_of_bone for b in bake.bones], dtype=bool)
        return cls(
            key=structure_key(project),
            bones=tuple(bake.bones),
            ik=ik,
            parent=parent,
            leaf=leaf,
            chain_of_bone=chain_of_bone,
            chains=tuple(c.name for c in project.chains),
            chain_cols={c.name: [col[b] for b in c.bones if b in col] for c in project.chains},
            targets=tuple(t.name for t in project.targets),
            target_chain={t.name: next((c.name for c in project.chains if c.target == t.name), None)
                          for t in project.targets},
            spaces=tuple((s.name, s.parent) for s in project.spaces),
        )


class LimitArc(NamedTuple):
    """One limited joint: ``center`` world point, ``frame`` the parent frame's linear
    part (2x2, maps local directions to world), ``lo``/``hi``/``angle`` radians in that
    frame, ``bound`` True when the chain is limited on this frame at this joint. (A
    named tuple: a 50-bone chain makes 50 of these on every move and frame.)"""

    chain: str
    bone: str
    center: np.ndarray
    frame: np.ndarray
    lo: float
    hi: float
    angle: float
    bound: bool


@dataclass(frozen=True, eq=False)
class LimitArcs:
    """Every limited joint of a frame as arrays (K arcs): ``chain`` and ``bone`` names,
    ``center`` (K, 2), ``frame`` (K, 2, 2), ``lo``, ``hi``, ``angle`` (K,) and ``bound``
    (K,) bool, as in LimitArc. Arrays, not K objects: a 50-bone tail's arcs are read,
    compared and drawn on every move and frame. Indexing and iteration give LimitArc."""

    chain: tuple = ()
    bone: tuple = ()
    center: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    frame: np.ndarray = field(default_factory=lambda: np.zeros((0, 2, 2)))
    lo: np.ndarray = field(default_factory=lambda: np.zeros(0))
    hi: np.ndarray = field(default_factory=lambda: np.zeros(0))
    angle: np.ndarray = field(default_factory=lambda: np.zeros(0))
    bound: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))

    def __len__(self) -> int:
        return len(self.bone)

    def __getitem__(self, k: int) -> LimitArc:
        return LimitArc(self.chain[k], self.bone[k], self.center[k], self.frame[k], float(self.lo[k]),
                        float(self.hi[k]), float(self.angle[k]), bool(self.bound[k]))

    def __iter__(self):
        return (self[k] for k in range(len(self)))

    @staticmethod
    def join(parts) -> "LimitArcs":
        parts = [p for p in parts if len(p)]
        if len(parts) < 2:
            return parts[0] if parts else LimitArcs()
        return LimitArcs(sum((p.chain for p in parts), ()), sum((p.bone for p in parts), ()),
                         *(np.concatenate([getattr(p, f) for p in parts])
                           for f in ("center", "frame", "lo", "hi", "angle", "bound")))


@dataclass(frozen=True)
class FrameState:
    """One frame of the Bake, ready to paint. Positions are world (N, 2) arrays.

    Chains (rows in ``chains`` order): shoulder, elbow, ghost (mirror elbow), end,
    target (the smoothed target, where the residual points), residual (shoulder-space
    units), cause (index into CAUSES), sensitivity (deg per unit), limited, reach
    (C, 2) inner/outer in shoulder units, soft (C,) soft band width, ring (C, 2, 2)
    the shoulder space's linear part.
    Targets (rows in ``targets`` order): handle = declared position carried to world
    with its declared space at this frame; space = that space's name.
    """

    frame: float
    row: int
    joints: np.ndarray
    tips: np.ndarray
    world_rotation: np.ndarray
    chains: tuple[str, ...]
    shoulder: np.ndarray
    elbow: np.ndarray
    ghost: np.ndarray
    end: np.ndarray
    target: np.ndarray
    residual: np.ndarray
    cause: np.ndarray
    sensitivity: np.ndarray
    limited: np.ndarray
    reach: np.ndarray
    soft: np.ndarray
    ring: np.ndarray
    targets: tuple[str, ...]
    handle: np.ndarray
    space: tuple[str, ...]
    limits: LimitArcs
    onion: tuple[tuple[int, np.ndarray, np.ndarray], ...]
    space_origin: dict = field(default_factory=dict)
    art: object = None  # ArtRow of this frame (rigeditor.model.evaluation.art_bake) or None
    paths: tuple = ()  # (slot name, (K, 2) world polyline) per path shown (constraints.path.path_curves)

    def bounds(self) -> np.ndarray | None:
        """(2, 2) min/max corner of everything drawn at this frame, or None if empty."""
        parts = [a for a in (self.joints, self.tips, self.handle, self.target, self.end) if a.size]
        if self.art is not None and self.art.drawn():
            parts.append(self.art.corners[self.art.drawn()])
        parts += [pts for _, pts in self.paths]
        if not parts:
            return None
        pts = np.concatenate([a.reshape(-1, 2) for a in parts])
        return np.stack([pts.min(axis=0), pts.max(axis=0)])


def _at(aff: Affine, index) -> tuple[float, ...]:
    """(a, b, c, d, tx, ty) of one frame (and column) of ``aff``, without building an
    Affine (this runs for every chain on every pointer move)."""
    return tuple(float(v[index]) if np.ndim(v) else float(v) for v in aff.fields())


def _linear(f) -> np.ndarray:
    return np.array([[f[0], f[1]], [f[2], f[3]]])


def _apply(f, p) -> np.ndarray:
    return np.array([f[0] * p[0] + f[1] * p[1] + f[4], f[2] * p[0] + f[3] * p[1] + f[5]])


_NO_CHAIN = (np.zeros((5, 2)), (0.0, 0.0, 0.0, 0, False), np.zeros(2), np.eye(2), ())  # not in the bake


class RowCache:
    """Rows already read, per chain and per target, reused while the ChainBake object,
    the model item and the row are the same: an incremental evaluation keeps the
    ChainBake of every chain it did not solve again, so a drag re-reads one chain."""

    def __init__(self):
        self._items: dict = {}

    def get(self, key, row: int, deps: tuple, compute):
        """The cached value of ``key`` if ``row`` is the same and every object in
        ``deps`` is the same object (identity, never equality), else ``compute()``."""
        hit = self._items.get(key)
        if hit is not None and hit[0] == row and len(hit[1]) == len(deps) and all(map(is_, hit[1], deps)):
            return hit[2]
        value = compute()
        self._items[key] = (row, deps, value)
        return value

    def clear(self) -> None:
        self._items.clear()


def _chain_row(cb, chain, bake, row, structure):
    ring = _linear(_at(cb.shoulder_to_world, row))
    limits = LimitArcs()
    if chain is not None and any(chain.limit(j) is not None for j in range(len(chain.bones))):
        limits = _limit_arcs(chain, bake, row, structure, ring, bool(cb.limited[row]))
    vectors = np.stack([cb.shoulder_world[row], cb.elbow_world[row], cb.ghost_elbow_world[row],
                        cb.end_world[row], cb.target_world[row]])
    scalars = (float(cb.residual[row]), float(cb.sensitivity[row]), float(cb.softness[row]),
               int(cb.cause[row]), bool(cb.limited[row]))
    return vectors, scalars, cb.reach, ring, limits


def path_curves(project, bake, row):
    from rigeditor.model.evaluation.constraints.path import path_curves as curves

    return curves(project, bake, row)


def gather(project, bake, frame, structure: Structure, onion: bool = False, cache: RowCache | None = None) -> FrameState:
    """Read row ``bake.index(frame)`` of ``bake`` into a FrameState (``cache``: rows
    read for the previous state, reused where nothing changed)."""
    cache = cache if cache is not None else RowCache()
    row = bake.index(frame)
    exact_frame = float(bake.frames[row])
    names = structure.chains
    n = len(names)
    # Rows of each chain as lists, made into arrays once (per-element writes into
    # preallocated arrays cost more than the cached rows they copy).
    rows = []
    chains_by_name = {c.name: c for c in project.chains}
    for name in names:
        cb = bake.chains.get(name)
        if cb is None:
            rows.append(_NO_CHAIN)
            continue
        chain = chains_by_name.get(name)
        rows.append(cache.get(("chain", name), row, (cb, chain),
                              lambda: _chain_row(cb, chain, bake, row, structure)))
    vectors = np.array([r[0] for r in rows], dtype=float).reshape(n, 5, 2)
    scalars = list(zip(*(r[1] for r in rows))) or [()] * 5
    residual, sensitivity, soft = (np.array(scalars[k], dtype=float) for k in range(3))
    cause, limited = np.array(scalars[3], dtype=int), np.array(scalars[4], dtype=bool)
    reach = np.array([r[2] for r in rows], dtype=float).reshape(n, 2)
    ring = np.array([r[3] for r in rows], dtype=float).reshape(n, 2, 2)
    limits = LimitArcs.join([r[4] for r in rows])

    handles = []
    for tname in structure.targets:
        t = project.target(tname)
        cname = structure.target_chain.get(tname)
        cb = bake.chains.get(cname) if cname else None
        handles.append(cache.get(("target", tname), row, (cb, t, bake.spaces),
                                 lambda: _handle(t, cb, bake, row, exact_frame)))
    handle = np.array([h[0] for h in handles], dtype=float).reshape(-1, 2)
    space = [h[1] for h in handles]

    onion_rows = []
    if onion:
        for off in (ONION_OFFSETS if onion is True else onion):
            r = row + off
            if 0 <= r < len(bake):
                onion_rows.append((off, bake.joints_at(r), bake.tips_at(r)))

    origins = {}
    for sname, parent in structure.spaces:
        aff = bake.spaces.get(sname)
        if aff is not None:
            f = _at(aff, row)
            origins[sname] = (np.array([f[4], f[5]]), _linear(f), parent)

    return FrameState(
        frame=exact_frame, row=row,
        joints=bake.joints_at(row), tips=bake.tips_at(row), world_rotation=bake.world_rotations_at(row),
        chains=names, shoulder=vectors[:, 0], elbow=vectors[:, 1], ghost=vectors[:, 2], end=vectors[:, 3],
        target=vectors[:, 4], residual=residual, cause=cause, sensitivity=sensitivity, limited=limited,
        reach=reach, soft=soft, ring=ring, targets=structure.targets, handle=handle, space=tuple(space),
        limits=limits, onion=tuple(onion_rows), space_origin=origins,
        art=None if bake.art is None else bake.art.row(row),
        paths=tuple(path_curves(project, bake, row)) if project.paths or any(s.paths for s in project.art.slots)
        else (),
    )


def _handle(t, cb, bake, row, frame):
    """A target's declared position carried to world with its declared space at ``row``,
    and that space's name."""
    if cb is not None:
        declared = cb.target_declared[row]
        sname = t.space.values()[int(cb.target_space[row])]
    else:
        declared = np.asarray(t.position.value_at(frame))
        sname = t.space.value_at(frame)
    aff = bake.spaces.get(sname)
    return (_apply(_at(aff, row), declared) if aff is not None else np.asarray(declared, float)), sname


_plans: dict = {}


def _limit_plan(chain, structure):
    """(bone column, parent-in-chain column or -1, lo, hi) of each limited joint of
    ``chain``, remembered while the chain and the structure are the same objects."""
    key = (chain.name, id(structure))
    hit = _plans.get(key)
    if hit is not None and hit[0] is chain and hit[1] is structure:
        return hit[2]
    cols = structure.chain_cols.get(chain.name, [])
    plan = []
    for i, col in enumerate(cols):
        bounds = chain.limit(i)
        if bounds is not None:
            plan.append((col, cols[i - 1] if i else -1, float(bounds[0]), float(bounds[1])))
    if len(_plans) > 256:
        _plans.clear()
    _plans[key] = (chain, structure, plan)
    return plan


def _limit_arcs(chain, bake, row, structure, shoulder_frame, limited) -> LimitArcs:
    """The chain's limited joints at ``row``, read as plain floats (a 50-bone chain's
    arcs are read on every frame of a scrub) into one LimitArcs."""
    bakes, names = bake.bone_bakes, bake.bones
    plan = _limit_plan(chain, structure)
    frames, centers, angles = [], [], []
    for col, parent, _lo, _hi in plan:
        if parent < 0:
            frames.append(shoulder_frame)
        else:
            w = bakes[parent].world
            frames.append(((_field(w.a, row), _field(w.b, row)), (_field(w.c, row), _field(w.d, row))))
        b = bakes[col]
        centers.append(b.joint[row])
        angles.append(float(b.local_rotation[row]))
    lo = np.array([p[2] for p in plan])
    hi = np.array([p[3] for p in plan])
    angle = np.array(angles)
    # The nearer bound's distance around the circle (each difference wrapped to [-pi, pi)).
    near = np.minimum(_off(angle - lo), _off(angle - hi))
    return LimitArcs((chain.name,) * len(plan), tuple(names[p[0]] for p in plan),
                     np.array(centers, dtype=float).reshape(-1, 2), np.array(frames, dtype=float).reshape(-1, 2, 2),
                     lo, hi, angle, limited & (near < LIMIT_TOLERANCE))


def _off(x: np.ndarray) -> np.ndarray:
    """|x| around the circle: the angle difference x (radians) wrapped to [-pi, pi)."""
    return np.abs(np.remainder(x + math.pi, 2.0 * math.pi) - math.pi)


def _field(v, row) -> float:
    return float(v[row]) if getattr(v, "ndim", 0) else float(v)


def world_to_space(bake, space: str, row: int, point) -> np.ndarray:
    """A world point in ``space``'s coordinates at ``row`` (the drag conversion)."""
    if space == WORLD:
        return np.asarray(point, dtype=float)
    return bake.spaces[space].take(row).inverse().apply(np.asarray(point, dtype=float))
