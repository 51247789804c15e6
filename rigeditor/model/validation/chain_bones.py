"""Checks of a chain's bones: each known, driven by this chain alone (but where Spine's
IK constraints share them), what the solve allows of it (``spine_ik.driven_bone``), and
each the child of the one before, starting at its tip (or, in a chain Spine plays, off
it). Part of ``validation.project``."""
from __future__ import annotations

import math

from rigeditor.core.twobone import MIN_LENGTH
from rigeditor.model.validation.spine_ik import driven_bone, movable_child


def spine_like(c) -> bool:
    """Whether chain ``c`` solves as Spine's IK does (one bone, or two without limits or
    the stretch strategy): it may shear, partly parent and share its bones."""
    return c.solver == "aim" or movable_child(c)


def chain_bones(out, where, c, project, bone_names, used) -> None:
    """Problems of chain ``c``'s bones into ``out``; ``used``: bone -> the chain that
    drives it first (filled in)."""
    for k, name in enumerate(c.bones):
        if name not in bone_names:
            out.append(f"{where}.bones[{k}]: unknown bone {name!r}")
            continue
        if name in used and not (spine_like(c) and spine_like(used[name])):
            # (Spine's IK constraints may share bones: the later one starts from the
            # earlier's solve, an IK switch when their mixes are keyed.)
            out.append(f"{where}.bones[{k}]: bone {name!r} is already driven by chain {used[name].name!r} "
                       "(only one- and two-bone chains without limits or the stretch strategy share bones, as "
                       "in Spine)")
        used[name] = c
        driven_bone(out, f"{where}.bones[{k}]", project.bone(name), k, aim=c.solver == "aim",
                     scalable=c.solver == "analytic", timeline=project.timeline, movable=movable_child(c),
                     spine_frames=spine_like(c))
        if k > 0 and c.bones[k - 1] in bone_names:
            bone, parent = project.bone(name), project.bone(c.bones[k - 1])
            if bone.parent != parent.name:
                out.append(f"{where}.bones[{k}]: {name!r} is not a child of {parent.name!r}")
            elif not (math.isclose(bone.rest_offset[0], parent.length, rel_tol=1e-9)
                      and abs(bone.rest_offset[1]) <= 1e-9 * parent.length):
                # Off the tip (Spine's rigs): the solver bends the segment from the parent's
                # origin to this bone's; limits and stretch are the bones', so not then.
                if any(x is not None for x in c.limits) or c.strategy.kind == "stretch":
                    out.append(f"{where}.bones[{k}]: {name!r} must start at the tip of {parent.name!r} "
                               f"(rest_offset ({parent.length:g}, 0)) in a chain with limits or the stretch "
                               f"strategy, got {tuple(bone.rest_offset)}")
                elif not math.hypot(*bone.rest_offset) >= MIN_LENGTH:
                    out.append(f"{where}.bones[{k}]: {name!r} must start at least {MIN_LENGTH:g} from "
                               f"{parent.name!r}'s origin (the solver's segment), got {tuple(bone.rest_offset)}")
