"""Checks of the chains that play as Spine's IK: Spine's stretch, compress and uniform
scaling (``Chain.spine_scale`` and its keyed flags), bones a chain drives that scale,
shear or translate, and a two-bone chain whose first bone scales unevenly (solved on
Spine's ellipse, ``constraints.ik_uneven``). Part of ``validation.project``."""
from __future__ import annotations

import numpy as np

from rigeditor.core.twobone import MIN_LENGTH
from rigeditor.model.data.ik_flags import FLAG_TRACKS, ever_on
from rigeditor.model.data.project import SPINE_SCALE
from rigeditor.model.evaluation.constraints.ik_uneven import UNEVEN


def spine_scale_problems(chain) -> list[str]:
    """What is wrong with ``chain``'s Spine IK scaling (``Chain.spine_scale``), as
    "spine_scale: ..." lines (empty: fine)."""
    out: list[str] = []
    spine_scale(out, "", chain)
    return [p.lstrip(".") for p in out]


def spine_scale(out, where, c):
    """Spine's IK scaling replaces the strategy's answer to an unreachable target and
    scales the bones' frames: not with limits or another strategy, one bone or two."""
    flags = tuple(c.spine_scale)
    bad = [f for f in flags if f not in SPINE_SCALE]
    if bad or len(set(flags)) != len(flags):
        out.append(f"{where}.spine_scale: must list each of {', '.join(SPINE_SCALE)} at most once, got {list(flags)}")
        return
    try:
        keyed = {f for f in FLAG_TRACKS if ever_on(c, f)}  # set up or keyed on somewhere
    except (TypeError, IndexError, AttributeError):
        return  # malformed keys: the tracks' own checks report them
    if not flags and not keyed:
        return
    if c.solver not in ("analytic", "aim"):
        out.append(f"{where}.spine_scale: Spine scales one- and two-bone chains (aim, analytic), got solver {c.solver!r}")
    if "compress" in keyed and c.solver != "aim":
        out.append(f"{where}.spine_scale: compress is for one-bone (aim) chains")
    # (uniform alone is legal, as in Spine: it scales nothing until a stretch or compress key.)
    if c.strategy.kind != "accept" or any(x is not None for x in c.limits):
        out.append(f"{where}.spine_scale: needs the accept strategy and no limits (it is the chain's answer "
                   f"to an unreachable target), got strategy {c.strategy.kind!r}")


def movable_child(chain) -> bool:
    """Whether ``chain``'s second bone may be translated: a two-bone analytic chain
    without limits or the stretch strategy (both measure the bones themselves)."""
    return (chain.solver == "analytic" and len(chain.bones) == 2 and chain.strategy.kind != "stretch"
            and not any(x is not None for x in chain.limits))


def driven_bone(out, where, bone, k, aim=False, scalable=False, timeline=None, movable=False, spine_frames=False):
    """A chain solves with its bones' lengths and joints where they are authored: its
    bones cannot be scaled (an aim chain's can: its bone only turns; an analytic
    chain's two as Spine solves them: by any factor but a first bone's 0 along y), and only the first may be
    translated (that moves the shoulder), or the second of a ``movable`` chain (an
    analytic one without limits or stretch: its solver bends the segment to wherever
    that bone starts, as Spine's two-bone IK does)."""
    scaled = bone.scale.keys or bone.scale.default != (1.0, 1.0)
    if scaled and scalable and solvable_scale(bone.scale, k, timeline, mirrored=spine_frames):
        pass
    elif scaled and not aim:
        out.append(f"{where}: bone {bone.name!r} is driven by an IK chain and cannot be scaled "
                   + (("to 0 along y " if spine_frames else "other than by positive factors ") if scalable else "")
                   + "(the solve uses its length)")
    if bone.spine_frame and not spine_frames:
        out.append(f"{where}: bone {bone.name!r} is driven by an IK chain that cannot shear it or let it "
                   "inherit less than all of its parent's frame (only a one-bone (aim) chain and a two-bone "
                   "analytic chain without limits or the stretch strategy can, as in Spine)")
    if k > 0 and not movable and bone.translated:
        out.append(f"{where}: bone {bone.name!r} is driven by an IK chain and cannot be translated "
                   "(it starts at its parent's tip); only the chain's first bone can, and the second "
                   "of a two-bone chain without limits or the stretch strategy")
    elif k > 0 and bone.translated and not translated_clear(bone, timeline):
        out.append(f"{where}: bone {bone.name!r} is translated to within {MIN_LENGTH:g} of its parent's origin "
                   "(the solver's segment from there to it has no length)")


def translated_clear(bone, timeline) -> bool:
    """Whether a translated second bone starts at least MIN_LENGTH from the first
    bone's origin at every frame of the timeline (and at its keys)."""
    values = np.asarray(bone.rest_offset, float) + _scale_values(bone.translate, timeline)
    return bool(np.all(np.hypot(values[:, 0], values[:, 1]) >= MIN_LENGTH))


def _scale_values(ch, timeline) -> np.ndarray:
    """(M, 2): a scale channel at every frame of the timeline, its default and keys."""
    frames = np.arange(timeline.start, timeline.end + 1, dtype=float) if timeline is not None else np.zeros(1)
    return np.concatenate([ch.sample(frames), [ch.default]] + [[key.value] for key in ch.keys])


def solvable_scale(ch, k, timeline, mirrored: bool = True) -> bool:
    """Whether a scaled bone of an analytic chain keeps, at every frame of the timeline,
    scales the solve takes. In a chain Spine plays (``mirrored``): any x scale (a negative
    one mirrors, ``constraints.ik_frames.mirror_of``; a 0 collapses its segment, as Spine
    plays it, ``collapsed_segments``), and the first bone's y scale other than 0 (Spine's
    solve divides by it; an uneven one solves on Spine's ellipse, ``constraints.ik_uneven``).
    Else positive scales."""
    values = _scale_values(ch, timeline)
    if mirrored:
        return bool(np.all(np.isfinite(values)) and (k > 0 or np.all(values[:, 1] != 0)))
    return bool(np.all(values[:, 0] > 0) and (k > 0 or np.all(values[:, 1] > 0)))


def uneven_scale(ch, timeline) -> bool:
    """Whether a scale channel is uneven (x and y sizes apart by more than Spine's 1e-4:
    a mirror is no unevenness) at a frame of the timeline, its default or a key."""
    values = np.abs(_scale_values(ch, timeline))
    return bool(np.any(np.abs(values[:, 0] - values[:, 1]) > UNEVEN))


def uneven_chain(out, where, project, c, bone_names):
    """A two-bone chain whose first bone scales unevenly solves as Spine's does (its
    child measured and placed on the first bone's axis on those frames), without limits
    or another strategy, its softness Spine's."""
    if c.solver != "analytic" or len(c.bones) != 2 or not set(c.bones) <= bone_names:
        return
    first, child = project.bone(c.bones[0]), project.bone(c.bones[1])
    if not ((first.scale.keys or first.scale.default != (1.0, 1.0)) and uneven_scale(first.scale, project.timeline)):
        return
    if c.strategy.kind != "accept" or any(x is not None for x in c.limits):
        out.append(f"{where}.bones[0]: bone {first.name!r} scales unevenly, which Spine's solve handles with "
                   f"the accept strategy and no limits only, got strategy {c.strategy.kind!r}")
    if c.soft_reach != "quadratic" and (c.softness.keys or c.softness.default):
        out.append(f"{where}.soft_reach: bone {first.name!r} scales unevenly: softness must be Spine's "
                   f"(quadratic), got {c.soft_reach!r}")
    if not child.rest_offset[0] >= MIN_LENGTH:
        out.append(f"{where}.bones[1]: {child.name!r} must start at least {MIN_LENGTH:g} along {first.name!r}'s "
                   f"axis (Spine measures it there where {first.name!r} scales unevenly), got "
                   f"{tuple(child.rest_offset)}")


__all__ = ["driven_bone", "solvable_scale", "spine_scale", "spine_scale_problems", "uneven_chain", "uneven_scale"]
