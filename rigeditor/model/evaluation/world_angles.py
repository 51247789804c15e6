"""World rotations of bones (radians, wrapped into [-pi, pi]) from a posed Pose:
summed along the bones where every space turns and scales uniformly, else read off the
world transforms (kinematics places the bones; this reads their angles)."""
from __future__ import annotations

import numpy as np

from rigeditor.core.geometry import Affine, rows, wrap_angle
from rigeditor.model.data.project import Project
from rigeditor.model.evaluation.kinematics import Pose


def world_rotations(project: Project, order: list[str], pose: Pose, columns, previous=None,
                    as_rows: bool = False) -> dict[int, np.ndarray]:
    """World rotation (radians, wrapped into [-pi, pi]) of the bones at ``columns``.

    A bone's frame is its parent's turned by its local rotation, so on a frame where
    every space the character sits in turns and scales uniformly (no mirror, no squash)
    the world rotation is the parent's plus the local one, wrapped: a sum instead of
    an atan2 per bone and frame. On other frames it is read off the world transform.
    Chosen frame by frame, so a frame comes out the same evaluated alone or in a range.
    ``previous``: world rotations of bones not in ``columns`` (a previous bake's).
    ``as_rows``: the bones of each depth computed as one set of rows (the results are
    views of it; see ``_levels``), else bone by bone.
    """
    ch = pose.character
    conformal = _conformal(ch)
    if (not all(s is pose.unit for s in pose.scale) or any(s is not None for s in pose.spine)
            or pose.constrained):
        # A scaled, sheared or partly inheriting bone may squash or mirror its frame, or
        # not turn with its parent: read every angle off the transforms.
        conformal = np.zeros(np.shape(conformal), dtype=bool)
    every, none = bool(conformal.all()), not conformal.any()
    out: dict[int, np.ndarray] = {}
    base = None if none else np.arctan2(ch.c, ch.a)
    n = pose.ones.shape[0]
    runs = {} if none else _runs(pose, columns)
    levels = _levels(project, order, pose, columns) if as_rows else [[k] for k in columns]
    if runs:  # a run is computed with its first bone: its other bones leave the levels
        later = {k for cols, *_ in runs.values() for k in cols[1:]}
        levels = [kept for kept in ([k for k in level if k not in later] for level in levels) if kept]
    for level in levels:
        if runs:
            level = _with_runs(project, order, pose, level, runs, out, base, conformal, every, previous)
        count = len(level)
        if not count:
            continue
        w = Affine.rows([pose.world[k] for k in level], n) if not every else None
        if none:
            angle = np.arctan2(w.c, w.a)
        else:
            ups = []
            for k in level:
                parent = project.bone(order[k]).parent
                p = None if parent is None else pose.column[parent]
                ups.append(base if p is None else out[p] if p in out else previous(p))
            summed = wrap_angle(rows(ups, n) + rows([pose.rotation[k] for k in level], n))
            angle = summed if every else np.where(rows([conformal] * count, n), summed, np.arctan2(w.c, w.a))
        for j, k in enumerate(level):
            out[k] = angle if count == 1 else angle[j * n:(j + 1) * n]
    return out


def _runs(pose, columns) -> dict[int, tuple]:
    """The runs (chain_fk) wholly among ``columns`` and placed whole since, by first column."""
    counts: dict[int, int] = {}
    for k in columns:
        first = pose.runs.get(k)
        if first is not None:
            counts[first] = counts.get(first, 0) + 1
    return {first: pose.run_angles[first] for first, c in counts.items()
            if c == len(pose.run_angles[first][0]) and all(pose.runs.get(k) == first for k in pose.run_angles[first][0])}


def _with_runs(project, order, pose, level, runs, out, base, conformal, every, previous) -> list[int]:
    """World rotations of the runs starting in ``level``, each run in one go (its
    bones' angles relative to the run's frame are at hand: the parent's angle plus
    those, wrapped); returns the columns of ``level`` still to compute."""
    rest = []
    for k in level:
        run = runs.get(k)
        if run is None:
            rest.append(k)
            continue
        cols, phi, a, c = run
        parent = project.bone(order[k]).parent
        p = None if parent is None else pose.column[parent]
        up = base if p is None else out[p] if p in out else previous(p)
        angle = wrap_angle(up + phi)
        if not every:
            angle = np.where(conformal, angle, np.arctan2(c, a))
        for i, j in enumerate(cols):
            out[j] = angle[i]
    return rest


_level_cache: dict[tuple, tuple] = {}


def _levels(project, order, pose, columns):
    """``columns`` in groups computed together, the bones of each depth as one set of
    rows (``geometry.rows``). Remembered per tuple of bones and columns."""
    key = (id(project.bones), tuple(columns))
    hit = _level_cache.get(key)
    if hit is not None and hit[0] is project.bones and hit[1] == order:
        return hit[2]
    levels = _depths(project, order, pose, columns)
    if len(_level_cache) > 64:
        _level_cache.clear()
    _level_cache[key] = (project.bones, list(order), levels)
    return levels


def _depths(project, order, pose, columns):
    depth: dict[int, int] = {}
    levels: list[list[int]] = []
    for k in columns:  # parents first
        parent = project.bone(order[k]).parent
        d = depth.get(pose.column[parent], -1) + 1 if parent is not None else 0
        depth[k] = d
        if d == len(levels):
            levels.append([])
        levels[d].append(k)
    return levels


_conformals: dict[int, tuple] = {}


def _conformal(t: Affine) -> np.ndarray:
    """Per frame: does ``t`` turn and scale uniformly (no mirror, no squash)?
    Remembered per transform (an incremental evaluation reuses the spaces)."""
    hit = _conformals.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    # np.isclose's test written out (it costs 30 us a call at one frame); spaces are finite.
    result = ((np.abs(t.a - t.d) <= 1e-12 + 1e-12 * np.abs(t.d)) & (np.abs(t.b + t.c) <= 1e-12 + 1e-12 * np.abs(t.c))
              & (np.abs(t.a) + np.abs(t.c) > 0))
    if len(_conformals) > 8:  # each holds a space transform over all frames
        _conformals.clear()
    _conformals[id(t)] = (t, result)
    return result
