"""Spine's IK on bones with Spine's frame rules: shear and inherit modes.

As the runtimes play it (spine-core 4.2, judged on hand-built rigs):

- a bone's x axis lies at its rotation plus its shear x, and that axis is what the IK
  points where the solve says; the bone keeps its shear (:func:`sheared_bones`), but a
  two-bone chain's first bone, placed unsheared wherever the chain acts;
- a one-bone chain measures the target in the frame its bone's inherit mode places it
  in (:func:`aim_vector`): its parent's (normal, noScale, noScaleOrReflection), the
  world's (onlyTranslation), or its parent's without the parent's rotation and mirror
  (noRotationOrReflection), the rotation added back;
- a two-bone chain acts nowhere a bone inherits less than all of its parent's frame
  (:func:`partly_parented`): Spine's two-bone IK leaves such bones their own pose;
- a two-bone chain on mirrored bones (negative scales) solves on the scales' sizes and
  turns the angles back into the mirrored frames (:func:`mirror_of`).

RigEditor's own chains never meet this: their bones carry no shear and inherit all.
"""
from __future__ import annotations

import numpy as np

from rigeditor.core.geometry import pair, wrap_angle
from rigeditor.model.evaluation.inherit import INHERIT_MODES

ONLY_TRANSLATION = INHERIT_MODES.index("onlyTranslation")
NO_ROTATION = INHERIT_MODES.index("noRotationOrReflection")
NO_SCALE = (INHERIT_MODES.index("noScale"), INHERIT_MODES.index("noScaleOrReflection"))


def inherit_codes(pose, name: str, n: int) -> np.ndarray | None:
    """(N,) the bone's inherit codes (into INHERIT_MODES), or None where it inherits all."""
    spine = pose.spine[pose.column[name]]
    if spine is None or not np.any(spine[1]):
        return None
    return np.broadcast_to(np.asarray(spine[1], dtype=int), (n,))


def partly_parented(pose, bones, n: int) -> np.ndarray | None:
    """(N,) frames where a bone of ``bones`` inherits less than all of its parent's
    frame (None: nowhere)."""
    codes = [c for c in (inherit_codes(pose, b, n) for b in bones) if c is not None]
    return np.any(np.stack(codes) != 0, axis=0) if codes else None


def aim_vector(pose, name: str, to_world, target_world: np.ndarray, shoulder_target: np.ndarray, n: int):
    """Where a one-bone chain's bone ``name`` measures its target, by its inherit mode:
    ((N, 2) the target in the measuring frame, relative to the bone's origin; (N,) the
    angle that frame is turned by; (N,) the distance its stretch measures), or None
    where the bone inherits all (``shoulder_target``, the target in its shoulder space
    ``to_world``, :meth:`Pose.joint_frames`, is that)."""
    codes = inherit_codes(pose, name, n)
    if codes is None:
        return None
    vector, turn = np.array(shoulder_target, dtype=float), np.zeros(n)
    world = target_world - to_world.translation()  # from the bone's origin
    only = codes == ONLY_TRANSLATION
    vector[only] = world[only]
    bare = codes == NO_ROTATION
    if bare.any():
        parent = pose.parent_frame(name)
        pa, pb, pc, pd, px, py = (np.broadcast_to(np.asarray(v, dtype=float), (n,))
                                  for v in (parent.a, parent.b, parent.c, parent.d, parent.tx, parent.ty))
        ox, oy = (np.broadcast_to(np.asarray(v, dtype=float), (n,)) for v in pose._offset(name, shifted=False))
        # The parent's frame without its rotation and mirror: its x axis, and a y axis at a
        # right angle to it keeping the frame's area (Spine's rule, the x axis' length
        # floored at 1e-2); the target measured in it from the parent's origin, less the
        # bone's offset; the parent's rotation added back.
        k = np.abs(pa * pd - pb * pc) / np.maximum(1e-4, pa * pa + pc * pc)
        qb, qd = -pc * k, pa * k
        det = pa * qd - qb * pc
        ok = np.abs(det) > 1e-4
        safe = np.where(ok, det, 1.0)
        x, y = target_world[:, 0] - px, target_world[:, 1] - py
        measured = pair(np.where(ok, (x * qd - y * qb) / safe - ox, 0.0), np.where(ok, (y * pa - x * pc) / safe - oy, 0.0))
        vector[bare] = measured[bare]
        turn = np.where(bare, np.arctan2(pc, pa), turn)
    stretch = np.where(only | np.isin(codes, NO_SCALE), np.hypot(world[:, 0], world[:, 1]),
                       np.hypot(vector[:, 0], vector[:, 1]))
    return vector, turn, stretch


def sheared_bones(pose, chain, mix):
    """Spine's IK on sheared bones (keyed or set up, or left so by an earlier constraint):
    (B, N) the shear x each bone's solved rotation gives up, or None when no bone keeps
    one. A bone's x axis lies at its rotation plus its shear x, and that axis is what
    Spine's IK points where the solve says (its own shear kept, y included). The first
    bone of a two-bone chain is placed unsheared wherever the chain acts (mix > 0, (N,)):
    Spine's two-bone IK sets its shear to 0, so it gives up none. Rewrites that bone's
    shear in ``pose``; call before the chain is placed."""
    n = mix.shape[0]
    given_up = [np.zeros(n) for _ in chain.bones]
    kept = False
    for i, name in enumerate(chain.bones):
        k = pose.column[name]
        spine = pose.spine[k]
        if spine is None or not np.any(spine[0]):
            continue
        shear, codes = np.broadcast_to(spine[0], (n, 2)), spine[1]
        if len(chain.bones) == 2 and i == 0:
            pose.spine[k] = (np.where((mix > 0)[:, None], 0.0, shear), codes)
        else:
            given_up[i] = np.array(shear[:, 0], dtype=float)
            kept = True
    return np.stack(given_up) if kept else None


def mirror_of(psx, psy, csx):
    """Spine's two-bone IK on mirrored bones (a negative x or y scale of the first bone, a
    negative x scale of the second; (N,) each): ((N,) the sign of the first bone's
    determinant, (N,) a half turn where its x scale is negative, (N,) a half turn where
    the second's is), or None where no scale is negative. The solve runs on the scales'
    sizes; :func:`mirrored_rotations` turns its angles into the bones' own."""
    if not (np.any(psx < 0) or np.any(psy < 0) or np.any(csx < 0)):
        return None
    flips = np.where(psx < 0, -1.0, 1.0) * np.where(psy < 0, -1.0, 1.0)
    return flips, np.where(psx < 0, np.pi, 0.0), np.where(csx < 0, np.pi, 0.0)


def mirrored_rotations(aimed, fk_rows, turns, mix, mirror):
    """(2, N) the bones' local rotations of a two-bone solve under mirrored frames, mixed
    from their FK ones by ``mix``: aimed, the solve's segment angles (the second's less
    its shear x); fk_rows, the FK rotations as segment angles (the bones' plus ``turns``,
    the segments' constant turns from the bones, (2, N)). A mirrored first bone points
    its segment half a turn round and the child's offset turn flips with it; in a frame
    mirrored once, the second bone's angle turns the other way (as Spine plays it)."""
    flips, half, child_half = mirror
    fk = fk_rows - turns
    first = aimed[0] - flips * turns[0] + half
    second = flips * aimed[1] - turns[1] + child_half
    return fk + mix * wrap_angle(np.stack([first, second]) - fk)


def mirrored_curl(solved, turns, mirror):
    """(N,) the second segment's turn of a mirrored two-bone chain's bones (its side)."""
    flips, _, child_half = mirror
    return flips * wrap_angle(solved[1] + turns[1] - child_half)


COLLAPSED = 1e-4  # Spine's two-bone IK: a first segment shorter than this is no segment


def collapsed_segments(a, b):
    """Spine's two-bone IK where a scale of 0 collapses a segment (a, b: (N,) the scaled
    segment lengths): ((N,) frames whose first segment is shorter than COLLAPSED, where
    Spine aims the first bone alone and turns the second to 0 (:func:`collapsed_result`),
    or None; the lengths to solve with: 1 there, and a second segment of 0 made a
    millionth of the first, whose solve is then Spine's (straight toward the target, or
    folded back where it is nearer than the first segment))."""
    flat = a < COLLAPSED
    a = np.where(flat, 1.0, a)
    b = np.where(flat, 1.0, np.where(b > 0, b, 1e-6 * a))
    return (flat if flat.any() else None), a, b


def collapsed_result(angles, target, flat):
    """(N, 2) a two-bone solve's angles with the collapsed frames' as Spine plays them:
    the first bone aimed at the target (its direction in the shoulder space, (N, 2)),
    the second at 0 (:func:`collapsed_rotation` keeps it there whatever the mix)."""
    out = np.array(angles, dtype=float)
    out[flat, 0] = np.arctan2(target[flat, 1], target[flat, 0])
    out[flat, 1] = 0.0
    return out


def collapsed_rotation(second, flat, mix):
    """(N,) the second bone's local rotation: 0 where the first segment collapsed and
    the chain acts (Spine sets it, unmixed), else ``second``."""
    return np.where(flat & (mix > 0), 0.0, second)


def sheared_reach(pose, chain, offset, n: int):
    """(N,) the first segment's length as Spine's two-bone IK measures it, over its
    unsheared length, or None where that is 1: Spine reaches for the child's origin
    with the first bone's shear still on (then places the bone unsheared), so a child
    off the bone's axis is measured along the sheared axes. ``offset``: the child's
    origin in the first bone's frame, (2,) or (N, 2)."""
    spine = pose.spine[pose.column[chain.bones[0]]]
    offset = np.broadcast_to(np.asarray(offset, dtype=float), (n, 2))
    if len(chain.bones) != 2 or spine is None or not np.any(spine[0]) or not np.any(offset[:, 1]):
        return None
    shear = np.broadcast_to(spine[0], (n, 2))
    scale = pose.scale[pose.column[chain.bones[0]]]
    sx, sy = (np.sign(scale[:, 0]), np.sign(scale[:, 1])) if scale is not pose.unit else (1.0, 1.0)
    cx, cy = offset[:, 0] * sx, offset[:, 1] * sy  # (the sizes of a uniform scale cancel)
    x = cx * np.cos(shear[:, 0]) - cy * np.sin(shear[:, 1])
    y = cx * np.sin(shear[:, 0]) + cy * np.cos(shear[:, 1])
    return np.hypot(x, y) / np.hypot(offset[:, 0], offset[:, 1])
