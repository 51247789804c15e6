"""Transform constraints over frames: each constrained bone moved toward its target.

Vectorised over frames; every operation is elementwise per frame, so a single frame
evaluates to the same bits as that frame of a range. Written from Spine's documented
behaviour (and checked against its runtime), radians throughout:

- world, absolute: the bone's world frame turns by the angle between its x axis and
  the target's (plus the offset), its origin moves to the target's image of the offset,
  its axes' lengths move to the target's (plus the offsets), its y axis turns toward
  the target's shear; each by its mix.
- world, relative: the target's world rotation, translation, scales and shear are
  added to the bone's (the offset with them), each times its mix.
- local, absolute / relative: the same on the bones' local values (offset, rotation,
  scale, shear y relative to the parent), then the bone's world frame is made again
  from its parent with its inherit mode. Absolute local angles are not wrapped, and its
  mixed scale is divided by the bone's own scale (Spine 4.2's runtime does both).

A mirrored target (negative determinant) turns rotation and shear offsets the other way.
After a constraint the bones below its bones are placed again (constraints.placement:
from what an earlier constraint left them, else their own local values, as Spine
updates them after the constraint).
"""
from __future__ import annotations

import numpy as np

from rigeditor.core.geometry import Affine
from rigeditor.model.evaluation.constraints.placement import below, kept, place_below
from rigeditor.model.evaluation.inherit import bone_world


def _wrap(angle):
    """Into [-pi, pi)."""
    return angle - 2 * np.pi * np.floor((angle + np.pi) / (2 * np.pi))


class Applied:
    """The local values of bones as the last constraint left them (Spine's 'applied'
    pose): what a local constraint reads. A bone a world constraint moved is read back
    from its world frame; a bone placed again by forward kinematics has its own."""

    def __init__(self, pose):
        self.pose = pose
        self.set: dict[str, tuple] = {}  # name -> (x, y, rotation, (N,2) scale, (N,2) shear)
        self.moved: set[str] = set()  # moved in world: read back from the frame

    def of(self, name: str):
        if name in self.set:
            return self.set[name]
        pose, n = self.pose, self.pose.ones.shape[0]
        k = pose.column[name]
        if name in self.moved:
            return _decompose(pose.parent_frame(name).inverse().compose(pose.world[k]), n,
                              root=pose.project.bone(name).parent is None)
        ox, oy = pose._offset(name)
        shear = pose.spine[k][0] if pose.spine[k] is not None else np.zeros((n, 2))
        return (np.broadcast_to(ox, (n,)), np.broadcast_to(oy, (n,)), np.broadcast_to(pose.rotation[k], (n,)),
                np.broadcast_to(pose.scale[k], (n, 2)), shear)

    def forget(self, names):
        for name in names:
            self.set.pop(name, None)
            self.moved.discard(name)


def _decompose(local: Affine, n: int, root: bool = False):
    """(x, y, rotation, scale, shear) of a local frame, shear x 0, read as Spine's
    runtimes read a bone's frame back after a constraint moved it (its applied pose,
    ``updateAppliedTransform``): rotation the x axis' angle, scale x its length, shear y
    the y axis' angle beyond a right angle from the x axis, and scale y the determinant
    over scale x. That last is the y axis' length only while the axes are square: a
    sheared frame (a turned bone under a parent scaled unevenly) comes back with its y
    axis shortened by the sine of the angle between the axes, and a bone placed again
    from it (a later constraint on an ancestor, even at mix 0) shows that, as every
    runtime does. An x axis shorter than 1e-4: scale x 0 and the rotation from the y
    axis. ``root``: a bone on no parent, read as the runtimes read one (the y axis'
    length unsigned, its shear measured the other way round)."""
    a, b, c, d = (np.broadcast_to(np.asarray(v, float), (n,)) for v in (local.a, local.b, local.c, local.d))
    sx = np.hypot(a, c)
    det = a * d - b * c
    dot = a * b + c * d
    if root:
        sy, shy, rotation = np.hypot(b, d), np.arctan2(dot, det), np.arctan2(c, a)
    else:
        ok = sx > 1e-4
        sy = np.where(ok, det / np.where(ok, sx, 1.0), np.hypot(b, d))
        shy = np.where(ok, -np.arctan2(dot, det), 0.0)
        rotation = np.where(ok, np.arctan2(c, a), np.pi / 2 - np.arctan2(d, b))
        sx = np.where(ok, sx, 0.0)
    scale = np.stack([sx, sy], axis=1)
    shear = np.stack([np.zeros(n), shy], axis=1)
    tx, ty = (np.broadcast_to(np.asarray(v, float), (n,)) for v in (local.tx, local.ty))
    return tx, ty, rotation, scale, shear


def apply_transforms(project, pose, frames, constraints, applied: Applied | None = None) -> None:
    """Apply ``constraints`` (already in their order) to ``pose`` in place; ``applied``
    carries the local values constraints left from one call to the next."""
    applied = Applied(pose) if applied is None else applied
    n = pose.ones.shape[0]
    for t in constraints:
        mixes = [getattr(t, m).sample(frames)[:, 0] for m in
                 ("mix_rotate", "mix_x", "mix_y", "mix_scale_x", "mix_scale_y", "mix_shear_y")]
        under = below(project, t.bones)
        kept_local = kept(applied, under)  # before the constrained bones move
        for name in t.bones:
            k = pose.column[name]
            if t.local:
                _local(t, pose, applied, name, k, mixes, n)
            else:
                pose.world[k] = _world(t, pose.world[k], pose.world[pose.column[t.target]], mixes, n)
                applied.set.pop(name, None)
                applied.moved.add(name)
            pose.touched.add(name)
        place_below(pose, applied, under, kept_local)


def _world(t, w: Affine, tw: Affine, mixes, n) -> Affine:
    mr, mx, my, msx, msy, mshy = mixes
    f = lambda v: np.broadcast_to(np.asarray(v, float), (n,))  # noqa: E731
    a, b, c, d, x, y = map(f, (w.a, w.b, w.c, w.d, w.tx, w.ty))
    ta, tb, tc, td, tx, ty = map(f, (tw.a, tw.b, tw.c, tw.d, tw.tx, tw.ty))
    reflect = np.where(ta * td - tb * tc > 0, 1.0, -1.0)
    off_r, off_shy = t.offset_rotation * reflect, t.offset_shear_y * reflect
    # target's image of the offset
    px = ta * t.offset_x + tb * t.offset_y + tx
    py = tc * t.offset_x + td * t.offset_y + ty
    if t.relative:
        r = _wrap(np.arctan2(tc, ta) + off_r) * mr
    else:
        r = _wrap(np.arctan2(tc, ta) - np.arctan2(c, a) + off_r) * mr
    cos, sin = np.cos(r), np.sin(r)
    a, b, c, d = cos * a - sin * c, cos * b - sin * d, sin * a + cos * c, sin * b + cos * d
    if t.relative:
        x, y = x + px * mx, y + py * my
        sx = (np.hypot(ta, tc) - 1 + t.offset_scale_x) * msx + 1
        sy = (np.hypot(tb, td) - 1 + t.offset_scale_y) * msy + 1
    else:
        x, y = x + (px - x) * mx, y + (py - y) * my
        s = np.hypot(a, c)
        sx = np.where(s != 0, (s + (np.hypot(ta, tc) - s + t.offset_scale_x) * msx) / np.where(s != 0, s, 1.0), 1.0)
        s = np.hypot(b, d)
        sy = np.where(s != 0, (s + (np.hypot(tb, td) - s + t.offset_scale_y) * msy) / np.where(s != 0, s, 1.0), 1.0)
    a, c, b, d = a * sx, c * sx, b * sy, d * sy
    by = np.arctan2(d, b)
    if t.relative:
        r = by + (_wrap(np.arctan2(td, tb) - np.arctan2(tc, ta)) - np.pi / 2 + off_shy) * mshy
    else:
        r = by + (_wrap(np.arctan2(td, tb) - np.arctan2(tc, ta) - (by - np.arctan2(c, a))) + off_shy) * mshy
    s = np.hypot(b, d)
    b, d = np.where(mshy != 0, np.cos(r) * s, b), np.where(mshy != 0, np.sin(r) * s, d)
    return Affine(a, b, c, d, x, y)


def _absolute_scale(own, target, offset, mix):
    """A local absolute constraint's scale: the mixed scale over the bone's own where
    the mix and the bone's scale are non-zero, else the bone's own."""
    keep = (mix == 0) | (own == 0)
    safe = np.where(own != 0, own, 1.0)
    return np.where(keep, own, (own + (target - own + offset) * mix) / safe)


def _local(t, pose, applied, name, k, mixes, n) -> None:
    mr, mx, my, msx, msy, mshy = mixes
    x, y, rot, scale, shear = applied.of(name)
    tx_, ty_, trot, tscale, tshear = applied.of(t.target)
    if t.relative:
        rot = rot + (trot + t.offset_rotation) * mr
        x, y = x + (tx_ + t.offset_x) * mx, y + (ty_ + t.offset_y) * my
        sx = scale[:, 0] * ((tscale[:, 0] - 1 + t.offset_scale_x) * msx + 1)
        sy = scale[:, 1] * ((tscale[:, 1] - 1 + t.offset_scale_y) * msy + 1)
        shy = shear[:, 1] + (tshear[:, 1] + t.offset_shear_y) * mshy
    else:
        # Angles are not wrapped (a target a turn ahead turns the bone a turn), and a
        # mixed scale is divided by the bone's own, as Spine 4.2's runtime plays it.
        rot = rot + (trot - rot + t.offset_rotation) * mr
        x, y = x + (tx_ - x + t.offset_x) * mx, y + (ty_ - y + t.offset_y) * my
        sx, sy = (_absolute_scale(scale[:, j], tscale[:, j], off, m)
                  for j, off, m in ((0, t.offset_scale_x, msx), (1, t.offset_scale_y, msy)))
        shy = shear[:, 1] + (tshear[:, 1] - shear[:, 1] + t.offset_shear_y) * mshy
    scale = np.stack([sx, sy], axis=1)
    shear = np.stack([shear[:, 0], shy], axis=1)
    codes = pose.spine[k][1] if pose.spine[k] is not None else 0
    pose.world[k] = bone_world(pose.parent_frame(name), x, y, rot, scale, shear, codes)
    applied.set[name] = (x, y, rot, scale, shear)
    applied.moved.discard(name)
