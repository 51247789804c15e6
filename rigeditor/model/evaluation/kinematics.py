"""Forward kinematics of the whole bone tree, vectorised over frames."""
from __future__ import annotations

import numpy as np

from rigeditor.core.geometry import Affine, pair, rows
from rigeditor.model.evaluation.chain_fk import chain_frames
from rigeditor.model.evaluation.inherit import INHERIT_MODES, bone_world
from rigeditor.model.data.project import CHARACTER, Project


ROWS_BELOW = 512
ROWS_MIN = 8
"""Ranges shorter than ROWS_BELOW frames are assembled as rows of many items at once
(bones of a depth, a Bake's bones) when there are ROWS_MIN items or more: joining
short arrays then costs less than numpy calls per item (joining costs about what
four items assembled one by one do). Only a whole bake or a single frame: the items'
arrays are then views of shared buffers (see ``evaluate._bake``)."""

_orders: dict[int, tuple] = {}


def bone_order(project: Project) -> list[str]:
    """Bone names with every parent before its children (remembered per tuple of
    bones: an edit that leaves the bones alone keeps the same tuple)."""
    hit = _orders.get(id(project.bones))
    if hit is not None and hit[0] is project.bones:
        return list(hit[1])
    order: list[str] = []
    stack = [b.name for b in reversed(project.children(None))]
    while stack:
        name = stack.pop()
        order.append(name)
        stack.extend(b.name for b in reversed(project.children(name)))
    if len(_orders) > 64:
        _orders.clear()
    _orders[id(project.bones)] = (project.bones, tuple(order))
    return order


_ends: dict[int, tuple] = {}


def subtree_ends(project: Project, order: list[str]) -> list[int]:
    """Per column of ``order`` (parents first, depth first, as :func:`bone_order`
    gives), one past the last column of the bone's subtree. Remembered per tuple of
    bones."""
    hit = _ends.get(id(project.bones))
    if hit is not None and hit[0] is project.bones and hit[1] == order:
        return hit[2]
    column = {name: k for k, name in enumerate(order)}
    ends = list(range(1, len(order) + 1))
    for k in range(len(order) - 1, -1, -1):  # children after parents: fold upwards
        parent = project.bone(order[k]).parent
        if parent is not None:
            p = column[parent]
            ends[p] = max(ends[p], ends[k])
    if len(_ends) > 64:
        _ends.clear()
    _ends[id(project.bones)] = (project.bones, list(order), ends)
    return ends


_channels: dict[int, tuple] = {}


def _channelled(project: Project, order: list[str]) -> tuple[list[int], list[int], list[int]]:
    """Columns of the bones with a translate, with a scale, with Spine's frame rules
    (shear, inherit modes): the channels a Pose samples. Remembered per tuple of bones."""
    hit = _channels.get(id(project.bones))
    if hit is not None and hit[0] is project.bones and hit[1] == order:
        return hit[2]
    bones = [project.bone(name) for name in order]
    out = ([k for k, b in enumerate(bones) if b.translated],
           [k for k, b in enumerate(bones) if b.scale.keys or b.scale.default != (1.0, 1.0)],
           [k for k, b in enumerate(bones) if b.spine_frame])
    if len(_channels) > 64:
        _channels.clear()
    _channels[id(project.bones)] = (project.bones, list(order), out)
    return out


_belows: dict[tuple, tuple] = {}


def _below(project: Project, chains) -> list[str]:
    """The children of chains' bones that are not in the chains (remembered per tuple
    of bones)."""
    key = (id(project.bones), tuple(map(tuple, chains)))
    hit = _belows.get(key)
    if hit is not None and hit[0] is project.bones:
        return hit[1]
    out = [child.name for bones in chains for b in bones for child in project.children(b) if child.name not in bones]
    if len(_belows) > 256:
        _belows.clear()
    _belows[key] = (project.bones, out)
    return out


_rests: dict[tuple, tuple] = {}


def _rest_offsets(project: Project, chains) -> np.ndarray:
    """(B, G, 2) the rest offsets of the bones of G chains of B bones (read-only;
    remembered per tuple of bones)."""
    key = (id(project.bones), tuple(map(tuple, chains)))
    hit = _rests.get(key)
    if hit is not None and hit[0] is project.bones:
        return hit[1]
    out = np.array([[project.bone(bones[i]).rest_offset for bones in chains] for i in range(len(chains[0]))],
                   dtype=float).reshape(len(chains[0]), len(chains), 2)
    out.flags.writeable = False
    if len(_rests) > 256:
        _rests.clear()
    _rests[key] = (project.bones, out)
    return out


class Pose:
    """Per-frame pose of the bone tree while an evaluation runs, one array per bone.

    rotation[k]: (N,) local rotation of bone k (radians, relative to its parent).
    stretch[k]: (N,) scale along bone k (1 = authored length).
    shift[k]: (N, 2) extra translation of bone k's origin in its parent's frame (the
    move-root strategy). translate[k] / scale[k]: (N, 2) the bone's keyed translate
    (parent frame) and scale (own frame), sampled from its channels when ``frames``
    are given. world[k]: the bone's world transform.
    Entries are replaced, never written into: an incremental evaluation starts from
    the previous bake's (read-only) arrays and shares whatever it does not replace.
    """

    def __init__(self, project: Project, order: list[str], n: int, character: Affine,
                 frames: np.ndarray | None = None, kept=None, fresh=frozenset()):
        self.project = project
        self.order = order
        self.frames = frames
        self.column = {name: k for k, name in enumerate(order)}
        ones, zeros, unit = np.ones(n), np.zeros((n, 2)), np.ones((n, 2))
        ones.flags.writeable = zeros.flags.writeable = unit.flags.writeable = False
        self.ones, self.zeros, self.unit = ones, zeros, unit  # shared by every bone that has none
        self.rotation: list[np.ndarray | None] = [None] * len(order)
        self.stretch: list[np.ndarray] = [ones] * len(order)
        self.shift: list[np.ndarray] = [zeros] * len(order)
        self.translate: list[np.ndarray] = [zeros] * len(order)
        self.scale: list[np.ndarray] = [unit] * len(order)
        # Spine's frame rules per bone: (shear (N, 2), inherit codes (N,)), or None.
        self.spine: list[tuple | None] = [None] * len(order)
        if frames is not None:
            translated, scaled, spine = _channelled(project, order)
            for k in translated:
                # An incremental evaluation's starting bones (``kept``, at these frames)
                # hold the translate sampled already (nothing changes it after), but for
                # the bones edited (``fresh``).
                if kept is not None and order[k] not in fresh:
                    self.translate[k] = kept[k].translate
                else:
                    self.translate[k] = project.bone(order[k]).translate.sample(frames)
            for k in scaled:
                self.scale[k] = project.bone(order[k]).scale.sample(frames)
            for k in spine:
                bone = project.bone(order[k])
                names = bone.inherit.values()
                codes = np.array([INHERIT_MODES.index(v) for v in names])[bone.inherit.sample(frames)]
                self.spine[k] = (bone.shear.sample(frames), codes)
        self.world: list[Affine | None] = [None] * len(order)
        # Bones placed as a run (chain_fk): by column, the run's first column; by first
        # column, (the run's columns, (B, N) its angles relative to the frame it hangs
        # in, and the a and c fields of its world transforms).
        self.runs: dict[int, int] = {}
        self.run_angles: dict[int, tuple] = {}
        self.character = character
        self.touched: set[str] = set()  # bones whose world transform was (re)computed
        self.constrained = False  # a constraint set world frames: no angle is a sum

    def parent_frame(self, name: str) -> Affine:
        """World transform of the frame a bone's offset is measured in."""
        bone = self.project.bone(name)
        if bone.parent is None:
            return self.character
        return self.world[self.column[bone.parent]]

    def reset_scale(self, name: str) -> None:
        """The bone's scale back to its own channel's (a solve may have scaled it)."""
        bone, k = self.project.bone(name), self.column[name]
        keyed = self.frames is not None and (bone.scale.keys or bone.scale.default != (1.0, 1.0))
        self.scale[k] = bone.scale.sample(self.frames) if keyed else self.unit

    def joint_frames(self, names, n: int) -> Affine:
        """World transforms at the bones' origins, before their own rotations (their
        'shoulder spaces' when they start chains), as rows (``Affine.rows``)."""
        ox, oy = self._offsets(names, n, shifted=False)
        return Affine.rows([self.parent_frame(name) for name in names], n).compose(
            Affine.rotation_about_origin(0.0, ox, oy))

    def _offsets(self, names, n: int, shifted: bool = True):
        """:meth:`_offset` of several bones as rows: each term added to all of them at
        once when all of them have it, else bone by bone."""
        if len(names) == 1:
            return self._offset(names[0], shifted)
        bones = [self.project.bone(name) for name in names]
        cols = [self.column[name] for name in names]
        terms = ([b.parent is not None for b in bones],
                 [self.translate[k] is not self.zeros for k in cols],
                 [shifted and self.shift[k] is not self.zeros for k in cols])
        if any(any(t) and not all(t) for t in terms):
            offsets = [self._offset(name, shifted) for name in names]
            return rows([o[0] for o in offsets], n), rows([o[1] for o in offsets], n)
        ox, oy = rows([b.rest_offset[0] for b in bones], n), rows([b.rest_offset[1] for b in bones], n)
        if terms[0][0]:
            ox = ox * rows([self.stretch[self.column[b.parent]] for b in bones], n)
        for present, moves in zip(terms[1:], (self.translate, self.shift)):
            if present[0]:
                moved = rows([moves[k] for k in cols], n)
                ox, oy = ox + moved[:, 0], oy + moved[:, 1]
        return ox, oy

    def _offset(self, name: str, shifted: bool = True):
        """The bone's origin in its parent's frame: rest offset (stretched along the
        parent), keyed translate and (``shifted``) the move-root shift, which is
        measured from the joint frame."""
        bone = self.project.bone(name)
        k = self.column[name]
        ox, oy = bone.rest_offset
        if bone.parent is not None:
            ox = ox * self.stretch[self.column[bone.parent]]
        moved = self.translate[k]
        if moved is not self.zeros:
            ox, oy = ox + moved[:, 0], oy + moved[:, 1]
        shift = self.shift[k]
        if shifted and shift is not self.zeros:
            ox, oy = ox + shift[:, 0], oy + shift[:, 1]
        return ox, oy

    def update(self, names, stop_at=frozenset()) -> None:
        """Recompute world transforms of ``names`` and all their descendants, except
        below the bones in ``stop_at`` (their chains will update them)."""
        todo = set(names)
        # Preorder: a bone's subtree is the run of columns from it to its end.
        ends = subtree_ends(self.project, self.order)
        cols = sorted({k for n in todo for k in range(self.column[n], ends[self.column[n]])})
        for name in (self.order[k] for k in cols):
            bone = self.project.bone(name)
            if name in todo or (bone.parent in todo and name not in stop_at):
                todo.add(name)
                self.touched.add(name)
                k = self.column[name]
                ox, oy = self._offset(name)
                scale = self.scale[k]
                if self.spine[k] is not None:
                    shear, codes = self.spine[k]
                    rotation = np.broadcast_to(self.rotation[k], (self.ones.shape[0],))
                    self.world[k] = bone_world(self.parent_frame(name), ox, oy, rotation,
                                               np.broadcast_to(scale, (rotation.shape[0], 2)), shear, codes)
                    self.runs.pop(k, None)  # (placed alone since: no longer part of its run)
                    continue
                if scale is not self.unit:
                    local = Affine.trs(ox, oy, self.rotation[k], scale[:, 0], scale[:, 1])
                else:
                    local = Affine.rotation_about_origin(self.rotation[k], ox, oy)
                self.world[k] = self.parent_frame(name).compose(local)
                self.runs.pop(k, None)

    def place_chains(self, chains, n: int, directions=None) -> list[Affine]:
        """Forward kinematics of chains' bones, then of everything below them.

        chains: bone names per chain (root to tip, the same count each), chains of one
        wave (disjoint, their parents placed). Each joint of all chains is placed in
        one pass over rows (``Affine.rows``); returns the world transforms of each
        joint as such rows. directions: optional per joint (cos, sin) rows of the
        local rotations already at hand (a solver's), so no sin and cos are computed
        again; a scaled bone (only a lone chain may have one) takes its rotation.
        """
        parent = Affine.rows([self.parent_frame(bones[0]) for bones in chains], n)
        if all(self.scale[self.column[b]] is self.unit and self.spine[self.column[b]] is None
               for bones in chains for b in bones):
            worlds = self._place_run(chains, n, parent)  # every frame count alike (chain_fk)
        else:
            worlds = self._place_composed(chains, n, parent, directions)
        below = _below(self.project, chains)
        if below:
            self.update(below)
        return worlds

    def _place_run(self, chains, n: int, parent: Affine) -> list[Affine]:
        """:meth:`place_chains` of unscaled chains, every joint at once (chain_fk)."""
        cols = [[self.column[b] for b in bones] for bones in chains]
        count, group = len(chains[0]), len(chains)
        rest = _rest_offsets(self.project, chains)  # (B, G, 2)
        ox, oy = np.repeat(rest[..., 0], n, axis=1), np.repeat(rest[..., 1], n, axis=1)  # (B, G * n)
        # The terms a joint's offset has: its parent's stretch, its translate, its shift.
        stretch = [[self._parent_stretch(bones, 0) for bones in chains]]
        ones, inner = self.ones, self.stretch[cols[0][0]]
        if group == 1 and all(self.stretch[k] is inner for k in cols[0][:-1]):
            if count > 1 and inner is not ones:  # (the common case: a solve stretches its chain alike)
                ox[1:] *= inner
        else:
            stretch += [[self.stretch[c[i - 1]] for c in cols] for i in range(1, count)]
        for i, s in enumerate(stretch):
            if any(v is not None and v is not ones for v in s):
                ox[i] *= rows([ones if v is None else v for v in s], n)
        zeros = self.zeros
        for moves in (self.translate, self.shift):
            for i in sorted({i for cs in cols for i, k in enumerate(cs) if moves[k] is not zeros}):
                moved = rows([moves[c[i]] for c in cols], n)
                ox[i] += moved[:, 0]
                oy[i] += moved[:, 1]
        if group == 1:
            theta = [self.rotation[k] for k in cols[0]]
        else:
            theta = [rows([self.rotation[c[i]] for c in cols], n) for i in range(count)]
        try:
            stacked = np.stack(theta)
        except ValueError:  # a rotation held as a number
            stacked = None
        if stacked is None or stacked.shape != (count, n * group):
            stacked = np.stack([np.broadcast_to(t, (n * group,)) for t in theta])
        theta = stacked
        fields, phi = chain_frames(parent, ox, oy, theta)
        a, b, c, d, tx, ty = fields
        worlds = [Affine(a[i], b[i], c[i], d[i], tx[i], ty[i]) for i in range(count)]
        for j, (cs, bones) in enumerate(zip(cols, chains)):
            cut = slice(j * n, (j + 1) * n)
            for i, k in enumerate(cs):
                self.world[k] = worlds[i] if group == 1 else worlds[i].take(cut)
                self.runs[k] = cs[0]
            self.run_angles[cs[0]] = (cs, phi[:, cut], a[:, cut], c[:, cut])
            self.touched.update(bones)
        return worlds

    def _parent_stretch(self, bones, i: int):
        """The stretch of joint i's parent (None: the chain's first bone has no parent)."""
        if i:
            return self.stretch[self.column[bones[i - 1]]]
        parent = self.project.bone(bones[0]).parent
        return None if parent is None else self.stretch[self.column[parent]]

    def _place_composed(self, chains, n: int, parent: Affine, directions) -> list[Affine]:
        """:meth:`place_chains` joint by joint, each a transform composed on its parent's."""
        worlds = []
        for i in range(len(chains[0])):
            cols = [self.column[bones[i]] for bones in chains]
            ox, oy = self._offsets([bones[i] for bones in chains], n)
            scale, spine = self.scale[cols[0]], self.spine[cols[0]]
            if spine is not None:  # a lone chain's sheared or partly parented bone (ik_applied)
                rotation = np.broadcast_to(self.rotation[cols[0]], (n,))
                parent = bone_world(parent, ox, oy, rotation, np.broadcast_to(scale, (n, 2)), spine[0], spine[1])
                local = None
            elif scale is not self.unit:  # a lone chain: see the grouping (solve_chain)
                local = Affine.trs(ox, oy, self.rotation[cols[0]], scale[:, 0], scale[:, 1])
            elif directions is not None:
                cos, sin = directions[i]
                local = Affine(cos, -sin, sin, cos, np.asarray(ox, float), np.asarray(oy, float))
            else:
                local = Affine.rotation_about_origin(rows([self.rotation[k] for k in cols], n), ox, oy)
            if local is not None:
                parent = parent.compose(local)
            worlds.append(parent)
            for j, (k, bones) in enumerate(zip(cols, chains)):
                self.world[k] = parent if len(chains) == 1 else parent.take(slice(j * n, (j + 1) * n))
                self.runs.pop(k, None)
                self.touched.add(bones[i])
        return worlds

    def tip(self, name: str) -> np.ndarray:
        k = self.column[name]
        length = self.project.bone(name).length * self.stretch[k]
        w = self.world[k]
        return pair(w.a * length + w.tx, w.c * length + w.ty)

    def origin(self, name: str) -> np.ndarray:
        return self.world[self.column[name]].translation()


def fk_rotations(project: Project, order: list[str], frames: np.ndarray) -> list[np.ndarray]:
    """Per bone (in ``order``), (N,) local rotations from the rest pose plus the animated FK channel."""
    return [fk_rotation(project.bone(name), frames) for name in order]


_fk_cache: dict[tuple, tuple] = {}
FK_CACHED_FRAMES = 4
"""Up to this many frames, a bone's FK rotation is remembered (per bone and frames):
the editor evaluates the frame under the hand on every move of a drag, the chain's
bones' FK rotations the same each time."""


def fk_rotation(bone, frames: np.ndarray) -> np.ndarray:
    """(N,) local rotation of one bone from its rest pose and its animated channel
    (read-only)."""
    if frames.shape[0] > FK_CACHED_FRAMES:
        return bone.rest_rotation + bone.rotation.sample(frames)[:, 0]
    key = (id(bone), frames.tobytes())
    hit = _fk_cache.get(key)
    if hit is not None and hit[0] is bone:
        return hit[1]
    value = bone.rest_rotation + bone.rotation.sample(frames)[:, 0]
    value.flags.writeable = False
    if len(_fk_cache) > 4096:
        _fk_cache.clear()
    _fk_cache[key] = (bone, value)
    return value


def character_of(spaces) -> Affine:
    return spaces[CHARACTER]
