"""Spaces and targets: the one place a target is resolved out of its declared space.

The reference text's point: foot sliding is almost never a solver error, it is the
wrong target space. So a target is never a bare coordinate: it carries its space, and
this module alone turns (position, space) into world and shoulder coordinates.
"""
from __future__ import annotations

import numpy as np

from rigeditor.core.filters import smooth_runs
from rigeditor.core.geometry import Affine
from rigeditor.model.data.project import WORLD, Project, Target
from rigeditor.model.evaluation.inherit import local_matrix


def space_order(project: Project) -> list[str]:
    """Space names with every parent before its children (validation rules out cycles)."""
    done: list[str] = []
    pending = {s.name: s.parent for s in project.spaces}
    while pending:
        ready = [n for n, p in pending.items() if p == WORLD or p in done]
        if not ready:
            raise ValueError(f"spaces: cycle among {sorted(pending)}")
        for n in ready:
            done.append(n)
            del pending[n]
    return done


def space_transforms(project: Project, frames: np.ndarray) -> dict[str, Affine]:
    """World transform of every space (and ``world``) at every frame."""
    n = frames.shape[0]
    out = {WORLD: Affine.identity(n)}
    for name in space_order(project):
        s = project.space(name)
        pos = s.position.sample(frames)
        scale = s.scale.sample(frames)
        rotation = s.rotation.sample(frames)[:, 0]
        if s.shear.keys or any(s.shear.default):  # (most spaces do not shear: the plain product)
            local = Affine(*local_matrix(rotation, scale, s.shear.sample(frames)), pos[:, 0], pos[:, 1])
        else:
            local = Affine.trs(pos[:, 0], pos[:, 1], rotation, scale[:, 0], scale[:, 1])
        out[name] = out[s.parent].compose(local)
    return out


def space_at(spaces: dict[str, Affine], names: list[str], codes: np.ndarray) -> Affine:
    """Per frame, the world transform of space ``names[codes[i]]``."""
    result = spaces[names[0]]
    for k, name in enumerate(names[1:], start=1):
        if np.any(codes == k):
            result = result.select(codes == k, spaces[name])
    return result


def resolve_target(target: Target, frames: np.ndarray, spaces: dict[str, Affine], smoothing, fps):
    """Sample a target and carry it into world space.

    Returns (declared, codes, names, world, space): the keyed position in its declared
    space (N, 2), the per-frame space index into ``names``, the *smoothed* position in
    world (N, 2), and the declared space's world transform per frame.
    """
    declared, codes, names, smoothed, space = smoothed_target(target, frames, spaces, smoothing, fps)
    return declared, codes, names, space.apply(smoothed), space


def smoothed_target(target: Target, frames: np.ndarray, spaces: dict[str, Affine], smoothing, fps):
    """:func:`resolve_target` up to the last step: (declared, codes, names, smoothed,
    space), the smoothed position still in the declared space (``space.apply`` carries
    it into world; several targets' at once as rows).

    Smoothing runs on the declared-space position, one run per stretch of frames
    with the same space: noise lives in the target's own data, and filtering there
    adds no lag to the space's motion (a planted world foot stays put while the
    body moves; a hand on a hip rides with the hip). At a space switch the filter
    goes on from where it was: its state is carried into the new space at the frame
    before the switch, so the smoothed target moves no more there than the raw one.
    """
    declared = target.position.sample(frames)
    codes = target.space.sample(frames)
    names = target.space.values()
    space = space_at(spaces, names, codes)
    smoothed = declared
    if smoothing.kind != "none" and declared.shape[0] > 1:  # a filter begun fresh returns its input
        def carry(lo, state):
            # The same world point at frame lo - 1, seen from the new space.
            change = spaces[names[codes[lo]]].take(lo - 1).inverse().compose(space.take(lo - 1))
            return state.mapped(change.apply, change.apply_vector)

        starts = [0, *(np.flatnonzero(np.diff(codes)) + 1).tolist()]
        smoothed = smooth_runs(declared, smoothing, fps, starts, carry)
    return declared, codes, names, smoothed, space
