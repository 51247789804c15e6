"""Live IK for the Spine export: which frames Spine's own IK can play, the space bones
the IK targets sit under, and the IK constraints' timelines.

A two-bone analytic chain is played by a Spine IK constraint (mix 1, Spine's quadratic
softness). Spine cannot do everything a RigEditor chain does (joint limits, the
stretch and move-root strategies, exponential soft reach, smoothing, the iterative
solvers); rather than list rules, :func:`baked_rows` evaluates the project once more
with every such chain as Spine plays it (:func:`as_spine_plays`) and compares: on the
frames where the two poses part (more than ``TOLERANCE``), the export writes the baked
rotations and keys the constraint's mix to 0. Longer chains are baked on every frame.
"""
from __future__ import annotations

import numpy as np

from rigeditor.core.filters import Smoothing
from rigeditor.model.data.project import CHARACTER, WORLD, LimitStrategy, Project
from rigeditor.model.data.ik_flags import FLAG_TRACKS, flag_at, scaling
from rigeditor.model.evaluation.bake import Bake

TOLERANCE = 1e-3
"""Model units: a chain frame whose joints or tip Spine's IK would put further than
this from RigEditor's bake is baked."""


def live(project: Project, chain) -> bool:
    """Whether the chain can be a Spine IK constraint at all (Spine's IK drives one or
    two bones; RigEditor's law-of-cosines solver and its aim solver are the ones
    Spine's match)."""
    return (len(chain.bones) == 2 and chain.solver == "analytic") or (len(chain.bones) == 1 and chain.solver == "aim")


def flags(chain) -> dict:
    """The constraint's Spine scaling flags (``stretch``, ``compress``, ``uniform``),
    as the chain's ``spine_scale`` says: only those set are written."""
    return {flag: True for flag in ("stretch", "compress", "uniform") if flag in chain.spine_scale}


def scale_rows(project: Project, bake: Bake, bone: str, baked: dict) -> np.ndarray:
    """(N, 2) the scale keys of ``bone`` for Spine: the bake's, except where a live
    chain's Spine stretch scales it (the constraint does that in Spine): there its own
    scale channel."""
    k = bake.column(bone)
    chain = project.chain_of_bone(bone)
    if chain is None or not scaling(chain) or not live(project, chain) or chain.bones[0] != bone:
        return bake.scale[:, k]
    own = project.bone(bone).scale.sample(bake.frames)
    return np.where(baked[chain.name][:, None], bake.scale[:, k], own)


def as_spine_plays(project: Project) -> Project:
    """``project`` with every live chain as a Spine IK constraint plays it: no limits,
    accepting what it cannot reach, no smoothing, Spine's quadratic soft reach."""
    for chain in project.chains:
        if live(project, chain):
            project = project.with_chain(chain.name, limits=(), strategy=LimitStrategy("accept"),
                                         smoothing=Smoothing(kind="none"), soft_reach="quadratic")
    return project


def baked_rows(project: Project, bake: Bake, *, bake_ik: bool = False) -> dict[str, np.ndarray]:
    """Per chain, (N,) bool: the frames the export bakes (Spine's IK cannot follow).
    ``bake_ik``: every frame of every chain (for runtimes without IK)."""
    n = len(bake)
    if bake_ik:
        return {c.name: np.ones(n, dtype=bool) for c in project.chains}
    from rigeditor.model import evaluate  # the one evaluation path

    spine = evaluate(as_spine_plays(project), bake.frames)
    out = {}
    for chain in project.chains:
        if not live(project, chain):
            out[chain.name] = np.ones(n, dtype=bool)
            continue
        gap = np.zeros(n)
        for bone in chain.bones:
            i, j = bake.column(bone), spine.column(bone)
            for a, b in ((bake.joint_world, spine.joint_world), (bake.tip_world, spine.tip_world)):
                gap = np.maximum(gap, np.hypot(*(a[:, i] - b[:, j]).T))
        out[chain.name] = gap > TOLERANCE
    return out


def frame_ranges(rows: np.ndarray, frames: np.ndarray) -> list[tuple[int, int]]:
    """The runs of True in ``rows`` as (first, last) frame numbers."""
    out, start = [], None
    for i, on in enumerate(list(rows) + [False]):
        if on and start is None:
            start = i
        elif not on and start is not None:
            out.append((int(frames[start]), int(frames[i - 1])))
            start = None
    return out


def target_spaces(project: Project, names, first: float) -> list[str]:
    """The spaces the targets ``names`` are declared in first, with their ancestors, parents
    first (``world`` and ``character`` excluded: they are the world and root bones)."""
    wanted = set()
    for name in names:
        t = project.target(name)
        # A target that switches stays under its first space (see write._target_bone);
        # ``first``: the first exported frame.
        for space in {t.space.value_at(first)}:
            while space not in (WORLD, CHARACTER):
                wanted.add(space)
                space = project.space(space).parent
    from rigeditor.model.evaluation.spaces import space_order

    return [s for s in space_order(project) if s in wanted]


def in_world(project: Project, spaces: list[str], first: float) -> bool:
    """Whether a target is declared in world or in a scene space under world."""
    declared = {project.target(c.target).space.value_at(first) for c in project.chains}
    return WORLD in declared or any(project.space(s).parent == WORLD for s in spaces)


def switches(project: Project, target: str) -> bool:
    """Whether the target's declared space changes during the shot."""
    t = project.target(target)
    return any(v != t.space.default for _, v in t.space.keys)


def ik_keys(project: Project, bake: Bake, chain, rows: np.ndarray, times) -> list[dict] | None:
    """The IK timeline of a live chain: per frame its mix (0 on baked frames), softness
    (model units) and bend side; None when none of them changes (the setup values play)."""
    length = sum(project.bone(b).length for b in chain.bones) if len(chain.bones) == 2 else 0.0
    authored = _authored_ik_keys(chain, bake, rows, length)
    if authored is not None:
        return authored or None
    mix = np.where(rows, 0.0, np.clip(chain.mix.sample(bake.frames)[:, 0], 0.0, 1.0))
    soft = chain.softness.sample(bake.frames)[:, 0] * length
    bend = chain.bend.sample(bake.frames)[:, 0] > 0
    flags = {f: flag_at(chain, f, bake.frames) for f in FLAG_TRACKS}
    if np.ptp(mix) == 0 and np.ptp(soft) == 0 and bend.all() == bend.any() \
            and mix[0] == chain.mix.default[0] and soft[0] == chain.softness.default[0] * length \
            and bend[0] == (chain.bend.default[0] > 0) \
            and all(on.all() == on.any() == (f in chain.spine_scale) for f, on in flags.items()):
        return None
    r = lambda v: round(float(v), 6) + 0.0
    return [{"time": t, "mix": r(m), "softness": r(s), "bendPositive": bool(b), **_flag_fields(flags, i)}
            for i, (t, m, s, b) in enumerate(zip(times, mix, soft, bend))]


def _flag_fields(flags: dict, i: int) -> dict:
    """Spine's stretch and compress of an IK key (its JSON reader takes an absent one as
    off, whatever the constraint's setup: so every key says those that are on)."""
    return {f: True for f, on in flags.items() if on[i]}



def aimed_in(project: Project, space: str, first: float) -> str:
    """", where chain C's target T is declared" for the chains whose targets start in
    ``space`` or a space below it (for a refusal that names them); "" for none."""
    def under(s):
        while s not in (WORLD, CHARACTER):
            if s == space:
                return True
            s = project.space(s).parent
        return s == space

    named = [f"chain {c.name}'s target {c.target}" for c in project.chains
             if under(project.target(c.target).space.value_at(first))]
    return f", where {' and '.join(named)} {'is' if len(named) == 1 else 'are'} declared" if named else ""


def not_finite(project: Project, bake: Bake, animation: str | None = None) -> list[str]:
    """Where ``bake`` holds a value that is not finite, one line per chain (or bone
    outside chains, or space) with the frame ranges: a refusal that says where."""
    where = f"animation {animation}: " if animation else ""
    bad = {}
    for k, bone in enumerate(bake.bones):
        rows = np.zeros(len(bake), dtype=bool)
        for table in (bake.local_rotation[:, k, None], bake.joint_world[:, k], bake.tip_world[:, k],
                      bake.translate[:, k], bake.scale[:, k]):
            rows |= ~np.isfinite(table).all(axis=-1)
        if rows.any():
            chain = project.chain_of_bone(bone)
            key = f"chain {chain.name}" if chain is not None else f"bone {bone}"
            bad[key] = bad.get(key, rows) | rows
    for name, space in bake.spaces.items():
        rows = ~np.all([np.isfinite(np.broadcast_to(f, (len(bake),))) for f in space.fields()], axis=0)
        if rows.any():
            bad[f"space {name}"] = rows
    out = []
    for key, rows in bad.items():
        shown = ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in frame_ranges(rows, bake.frames))
        out.append(f"{where}{key}: not finite at frames {shown}; nothing was written")
    return out


FOLLOWS = 1e-6
"""Model units (and matrix entries): a space whose frame is a bone's this closely on
every exported frame stands for that bone."""


def followed_bone(project: Project, bake: Bake, space: str) -> str | None:
    """The bone a scene space stands for, or None: a space directly in the character
    named like a bone whose frame it is on every frame (what import-spine makes of a
    Spine target's parent bone). Its targets are then written under that bone, as they
    were read, rather than under a bone of their own keyed to follow it."""
    s = project.space(space)
    if s.parent != CHARACTER or space not in bake.bones:
        return None
    ours = bake.spaces[space].fields()
    bone = bake.bone_world.take((slice(None), bake.column(space))).fields()
    n = len(bake)
    if all(np.allclose(np.broadcast_to(a, (n,)), np.broadcast_to(b, (n,)), rtol=0.0, atol=FOLLOWS)
           for a, b in zip(ours, bone)):
        return space
    return None


def _authored_ik_keys(chain, bake: Bake, rows: np.ndarray, length: float) -> list[dict] | None:
    """The IK timeline as the chain's own keys of mix, softness and bend (one Spine key
    at each frame any of them is keyed, linear or stepped as authored), [] when none is
    keyed; None when that cannot be exact: the chain is baked somewhere, a Bézier, mix
    and softness moving with different interpolations in one segment (a Spine key
    has one curve for both), or the bake is not whole frames (then a key per frame)."""
    from rigeditor.io.spine.write_curves import key_time

    f = bake.frames
    if rows.any() or not (len(f) and np.array_equal(f, np.arange(f[0], f[0] + len(f)))):
        return None
    first, last = float(f[0]), float(f[-1])
    tracks = (chain.mix, chain.softness, chain.bend) + tuple(getattr(chain, t) for t in FLAG_TRACKS.values())
    keyed = sorted({float(k.frame) for ch in tracks for k in ch.keys if first < k.frame <= last})
    if not keyed and not any(ch.keys for ch in tracks):
        return []
    frames = [first] + keyed
    at = np.asarray(frames)
    mix = np.clip(chain.mix.sample(at)[:, 0], 0.0, 1.0)
    soft = chain.softness.sample(at)[:, 0] * length
    bend = chain.bend.sample(at)[:, 0] > 0
    flags = {f: flag_at(chain, f, at) for f in FLAG_TRACKS}
    out = []
    for i, frame in enumerate(frames):
        key = {"time": key_time(frame - first, bake.fps), "mix": round(float(mix[i]), 6) + 0.0,
               "softness": round(float(soft[i]), 6) + 0.0, "bendPositive": bool(bend[i]), **_flag_fields(flags, i)}
        if i + 1 < len(frames):
            kinds = set()
            for ch, values in ((chain.mix, mix), (chain.softness, soft)):
                if values[i] != values[i + 1] or _interp(ch, frame) == "bezier":
                    kinds.add(_interp(ch, frame))
            if "bezier" in kinds or len(kinds) > 1:
                return None
            if kinds == {"constant"}:
                key["curve"] = "stepped"
        out.append(key)
    return out


def _interp(ch, frame: float) -> str:
    """The interpolation of ``ch``'s segment leaving ``frame`` (before its first key it
    holds: constant)."""
    before = [k for k in ch.keys if k.frame <= frame]
    if not before or before[-1] is ch.keys[-1]:
        return "constant"
    return before[-1].interp
