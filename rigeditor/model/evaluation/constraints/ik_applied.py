"""A chain's bones start from what an earlier constraint left them.

Spine's IK solves from a bone's applied pose: the local values the last constraint left
it (for a bone a world constraint moved, read back from its frame as the runtimes read
it, ``transform.Applied``), not the bone's own. So a chain solved after a transform,
path or physics constraint on its bones starts from that constraint's offset, scale and
shear (its rotation: ``evaluate.fk_of``), written here into the pose as the bones' own
for this evaluation: what forward kinematics places them from, now and when a later
constraint places them again. As the runtimes play it:

- the first bone of a two-bone chain is placed unsheared (Spine's two-bone IK sets its
  shear to 0, ``ik_frames.sheared_bones``); a one-bone chain's bone and a two-bone chain's
  second keep the shear;
- at mix 0 the chain does nothing (Spine skips the constraint), so there the bones keep
  the frames the constraint made: their local values read back exactly, whole y axis
  and all, not by the runtimes' rule that shortens a sheared frame's y axis.

RigEditor's own chains never meet this: their bones carry no shear, and a constraint
before a chain on its own bones is Spine's.
"""
from __future__ import annotations

import numpy as np

from rigeditor.core.geometry import pair
from rigeditor.model.evaluation.inherit import decompose


def applied_bones(applied, chains) -> bool:
    """Whether an earlier constraint left values on a bone of ``chains``."""
    return any(b in applied.set or b in applied.moved for c in chains for b in c.bones)


def start_from_applied(pose, applied, chain, frames) -> None:
    """Write the applied offset, scale and shear of ``chain``'s bones (where an earlier
    constraint left them) into ``pose`` as the values the chain places them from.
    Call after the solve's own resets of scale, stretch and shift."""
    n = frames.shape[0]
    idle = np.clip(chain.mix.sample(frames)[:, 0], 0.0, 1.0) == 0.0
    for i, name in enumerate(chain.bones):
        if name not in applied.set and name not in applied.moved:
            continue
        x, y, _, scale, shear = applied.of(name)
        if name in applied.moved and idle.any():  # the frame as the constraint made it
            local = pose.parent_frame(name).inverse().compose(pose.world[pose.column[name]])
            _, exact_scale, exact_shear = decompose(*(np.broadcast_to(v, (n,)) for v in
                                                      (local.a, local.b, local.c, local.d)))
            scale = np.where(idle[:, None], exact_scale, scale)
            shear = np.where(idle[:, None], exact_shear, shear)
        k = pose.column[name]
        codes = 0 if pose.spine[k] is None else pose.spine[k][1]  # (its inherit mode is its own still)
        bone = pose.project.bone(name)
        ox, oy = bone.rest_offset
        if bone.parent is not None:
            ox = ox * pose.stretch[pose.column[bone.parent]]
        pose.translate[k] = pair(np.broadcast_to(x - ox, (n,)), np.broadcast_to(y - oy, (n,)))
        pose.scale[k] = np.array(np.broadcast_to(scale, (n, 2)), dtype=float)
        sheared = np.array(np.broadcast_to(shear, (n, 2)), dtype=float)
        pose.spine[k] = (sheared, codes) if np.any(shear) or np.any(codes) else None

