"""Path constraints over frames: bones laid along a slot's Bezier path.

Vectorised over frames (per frame every step is elementwise, so a single frame
evaluates to the same bits as that frame of a range); loops run over the
constrained bones and the path's curves only. Written from Spine's documented
behaviour and checked against its runtime (spine-core 4.2):

1. The path's world vertices per frame: its slot bone's frame (or, weighted, the
   weighted sum of its bones' frames).
2. Where each bone sits: the spacing between origins per frame from the bones'
   world lengths and the spacing mode; the path's length from the authored
   ``lengths`` or, with constant speed, measured as Spine measures it (each curve
   by a four-step forward difference, and within a curve ten steps, positions then
   taken linearly between those steps).
3. A position beyond an open path's ends continues on the straight line of the end
   point's handle; a closed path wraps around.
4. Each bone's origin moves to its point (by mix x / mix y), then turns along the
   path's tangent or toward the next point (and scales, chainScale), by mix rotate.

Loops over positions carry state as Spine's do: along an open path the curve
searched from never goes back (a negative spacing keeps the later curve), which a
per-frame index array reproduces.
"""
from __future__ import annotations

import numpy as np

from rigeditor.core.geometry import Affine
from rigeditor.model.data.skins import pick, unposed_bones
from rigeditor.model.data.project import POINT_LENGTH
from rigeditor.model.evaluation.vertex_deform import path_offsets

EPSILON = 1e-5
"""Bones shorter than this count as points (Spine's epsilon, model units)."""
POINT = POINT_LENGTH
"""The length the Spine import gives bones of length 0: measured as a point here, as
Spine measures them (``Bone.measured_length``)."""


def setup_length(bone) -> float:
    """A bone's authored length as the constraint measures it (points: 0)."""
    return bone.measured_length


def shown_paths(project, slot, frames):
    """[(PathAttachment, (N,) bool mask of the frames it shows)] for ``slot``: none on
    a skin bone no active skin brings (nor does a constraint follow it there, as in Spine)."""
    if not slot.paths:
        return []
    if slot.bone in unposed_bones(project):
        return []
    codes = slot.attachment.sample(frames)
    out = {}
    for k, name in enumerate(slot.attachment.values()):
        i = pick(slot.paths, name, project.art.active_skins)
        if i >= 0:
            mask = codes == k
            if mask.any():
                prev = out.get(i)
                out[i] = mask if prev is None else prev | mask
    # an open path of one point has no curve: nothing follows it
    return [(slot.paths[i], m) for i, m in out.items()
            if slot.paths[i].vertex_count >= (3 if slot.paths[i].closed else 6)]


def apply_paths(project, pose, frames, constraints, applied) -> None:
    """Apply path ``constraints`` (in their order) to ``pose`` in place."""
    n = pose.ones.shape[0]
    for c in constraints:
        slot = project.art.slot(c.target)
        values = {ch: getattr(c, ch).sample(frames)[:, 0] for ch in ("position", "spacing", "mix_rotate",
                                                                   "mix_x", "mix_y")}
        off = values["mix_rotate"] == 0
        off &= values["mix_x"] == 0
        off &= values["mix_y"] == 0
        moved = False
        for path, mask in shown_paths(project, slot, frames):
            mask = mask & ~off
            if not mask.any():
                continue
            with np.errstate(all="ignore"):
                worlds = _constrain(c, path, slot, project, pose, values, n,
                                    path_offsets(project.art, slot.name, path, frames))
            for k, w in zip((pose.column[b] for b in c.bones), worlds):
                pose.world[k] = w if mask.all() else _select(mask, w, pose.world[k], n)
            moved = True
        if not moved:
            continue
        pose.constrained = True
        for name in c.bones:
            applied.set.pop(name, None)
            applied.moved.add(name)
            pose.touched.add(name)
        below = [ch.name for b in c.bones for ch in project.children(b) if ch.name not in c.bones]
        if below:
            before = set(pose.touched)
            pose.touched.clear()
            pose.update(below)
            applied.forget(pose.touched)
            pose.touched |= before


def _select(mask, new: Affine, old: Affine, n) -> Affine:
    f = lambda v: np.broadcast_to(np.asarray(v, float), (n,))  # noqa: E731
    return Affine(*(np.where(mask, f(a), f(b)) for a, b in zip(new.fields(), old.fields())))


def _frame(pose, bone, n) -> Affine:
    w = pose.character if bone is None else pose.world[pose.column[bone]]
    return Affine(*(np.broadcast_to(np.asarray(v, float), (n,)) for v in w.fields()))


def _constrain(c, path, slot, project, pose, values, n, offsets=None) -> list[Affine]:
    """The constrained bones' world frames on every frame, as if ``path`` showed
    (``offsets``: its deform keys' offsets, ``vertex_deform``)."""
    tangents, scale = c.rotate_mode == "tangent", c.rotate_mode == "chainScale"
    count = len(c.bones)
    spaces_count = count if tangents else count + 1
    frames_of = [_frame(pose, b, n) for b in c.bones]
    spacing = values["spacing"]
    spaces = np.zeros((spaces_count, n))  # a row per point: contiguous over the frames
    lengths = np.zeros((count, n))
    total = np.zeros(n)
    for i in range(spaces_count - 1):
        w, setup = frames_of[i], setup_length(project.bone(c.bones[i]))
        length = np.sqrt((setup * w.a) ** 2 + (setup * w.c) ** 2)
        if c.spacing_mode == "percent":
            lengths[i] = length
            spaces[i + 1] = spacing
        elif setup < EPSILON:
            spaces[i + 1] = spacing
        else:
            lengths[i] = length
            if c.spacing_mode == "proportional":
                spaces[i + 1] = length
                total += length
            else:
                spaces[i + 1] = ((setup + spacing) if c.spacing_mode == "length" else spacing) * length / setup
    if c.spacing_mode == "proportional":
        factor = np.where(total > 0, spaces_count / np.where(total > 0, total, 1.0) * spacing, 1.0)
        spaces[1:] *= factor[None, :]
    world = path.world_vertices(lambda b: _frame(pose, b, n), slot.bone, n, offsets)
    out = _positions(c, path, world, spaces, values["position"], tangents, n)

    mr, mx, my = values["mix_rotate"], values["mix_x"], values["mix_y"]
    offset = np.full(n, c.offset_rotation)
    tip = False
    if c.offset_rotation == 0:
        tip = c.rotate_mode == "chain"
    else:
        t = _frame(pose, slot.bone, n)
        offset = np.where(t.a * t.d - t.b * t.c > 0, offset, -offset)
    bone_x, bone_y = out[0, 0], out[1, 0]
    result = []
    for i, w in enumerate(frames_of):
        a, b, cc, d = w.a, w.b, w.c, w.d
        x = w.tx + (bone_x - w.tx) * mx
        y = w.ty + (bone_y - w.ty) * my
        px, py = out[0, i + 1], out[1, i + 1]
        dx, dy = px - bone_x, py - bone_y
        if scale:
            length = lengths[i]
            s = np.where(length != 0, (np.sqrt(dx * dx + dy * dy) / np.where(length != 0, length, 1.0) - 1) * mr + 1,
                         1.0)
            a, cc = a * s, cc * s
        bone_x, bone_y = px, py
        turn = mr > 0
        if turn.any():
            if tangents:
                r = out[2, i]
            else:
                r = np.where(spaces[i + 1] == 0, out[2, i + 1], np.arctan2(dy, dx))
            r = r - np.arctan2(cc, a)
            if tip:
                cos, sin = np.cos(r), np.sin(r)
                setup = setup_length(project.bone(c.bones[i]))
                bone_x = np.where(turn, bone_x + (setup * (cos * a - sin * cc) - dx) * mr, bone_x)
                bone_y = np.where(turn, bone_y + (setup * (sin * a + cos * cc) - dy) * mr, bone_y)
            else:
                r = r + offset
            r = np.where(r > np.pi, r - 2 * np.pi, np.where(r < -np.pi, r + 2 * np.pi, r)) * mr
            cos, sin = np.cos(r), np.sin(r)
            a, b, cc, d = (np.where(turn, v, old) for v, old in
                           ((cos * a - sin * cc, a), (cos * b - sin * d, b), (sin * a + cos * cc, cc),
                            (sin * b + cos * d, d)))
        result.append(Affine(a, b, cc, d, x, y))
    return result


def _positions(c, path, world, spaces, position, tangents, n) -> np.ndarray:
    """(3, S + 1, n): x, y and rotation (radians) of each of the S points along the
    path (the last point unused), each point's row contiguous over the frames."""
    closed = path.closed
    count = spaces.shape[0]
    out = np.zeros((3, count + 1, n))  # a last unused point (tangent mode reads one beyond)
    rows = np.arange(n)
    v = world.shape[1]
    if not path.constant_speed:
        curve_count = v // 3 - (1 if closed else 2)
        cum = np.broadcast_to(np.asarray(path.lengths, float)[:, None], (len(path.lengths), n))
        total = np.full(n, float(path.lengths[curve_count]))
        # the 4 vertices of curve k: the point, its out handle, the next in handle, the next point
        starts = np.arange(v // 3) * 3 + 1
        quads = (starts[:, None] + np.arange(4)[None, :]) % v
        before, after = world[:, [1, 2]], world[:, [v - 3, v - 2]]
    else:
        if closed:
            pts = np.concatenate([world[:, 1:], world[:, :2]], axis=1)  # v1..v_{V-1}, v0, v1
            curve_count = v // 3
        else:
            pts = world[:, 1:v - 1]
            curve_count = v // 3 - 1
        quads = np.arange(curve_count)[:, None] * 3 + np.arange(4)[None, :]
        # each curve's four vertices, per coordinate, (n, C) contiguous each
        corners = [[np.ascontiguousarray(pts[:, j:j + 3 * curve_count:3, k]) for j in range(4)] for k in (0, 1)]
        cum = np.ascontiguousarray(np.cumsum(_polyline(*corners, 4)[-1], axis=1).T)  # (C, n)
        total = cum[-1]
        # every curve's ten steps at once (Spine measures the one a position falls on)
        steps = _polyline(*corners, 10)  # (10, n, C)
        before, after = pts[:, [0, 1]], pts[:, [-2, -1]]
        world = pts
    # vertex-major flat coordinates (vertex * n + frame): frames on one curve read
    # neighbouring memory
    flat_x, flat_y = (np.ascontiguousarray(world[..., k].T).reshape(-1) for k in (0, 1))
    corner_cols = [np.ascontiguousarray(col) * n for col in quads.T]  # per curve: its k-th vertex's row
    if c.position_mode == "percent":
        position = position * total
    multiplier = {"percent": total, "proportional": total / count}.get(c.spacing_mode, np.ones(n))
    curve = np.zeros(n, dtype=np.int64)
    prev_curve = np.full(n, -1, dtype=np.int64)
    segment = np.zeros(n, dtype=np.int64)
    seg = np.zeros((10, n))  # the ten steps' lengths of each frame's curve
    last = cum.shape[0] - 1
    for i in range(count):
        space = spaces[i] * multiplier
        position = position + space
        p = position.copy()
        if closed:
            p = np.fmod(p, total)
            p = np.where(p < 0, p + total, p)
            inside = np.ones(n, dtype=bool)
            found = _count_below(cum, p)
        else:
            low, high = p < 0, p > total
            inside = ~(low | high)
            _line(out, i, before, p, low, start=True)
            _line(out, i, after, p - total, high, start=False)
            found = np.maximum(curve, _count_below(cum, p))
        curve = np.where(inside, np.minimum(found, last), curve)
        length = cum[curve, rows]
        prev = np.where(curve > 0, cum[np.maximum(curve - 1, 0), rows], 0.0)
        t = np.where(curve == 0, p / length, (p - prev) / (length - prev))
        # the curve's four vertices, flat: x1, y1, cx1, cy1, cx2, cy2, x2, y2 (n,) each
        corner = [np.take(col, curve) + rows for col in corner_cols]
        q = [np.take(v, k) for k in corner for v in (flat_x, flat_y)]
        if path.constant_speed:
            fresh = inside & (curve != prev_curve)
            if fresh.any():  # only where the curve changed (rare): the rest keep theirs
                k = np.flatnonzero(fresh)
                seg[:, k] = steps[:, k, curve[k]]
                segment = np.where(fresh, 0, segment)
            prev_curve = np.where(inside, curve, prev_curve)
            t = t * seg[9]
            found = np.minimum(np.maximum(segment, _count_below(seg, t)), 9)
            segment = np.where(inside, found, segment)
            slen = seg[segment, rows]
            sprev = np.where(segment > 0, seg[np.maximum(segment - 1, 0), rows], 0.0)
            t = np.where(segment == 0, t / slen, segment + (t - sprev) / (slen - sprev)) * 0.1
        want = np.ones(n, dtype=bool) if tangents else (space == 0) & (i > 0)
        _curve_point(out, i, q, t, inside, want)
    return out


def _count_below(cum, p):
    """Per frame, how many of the cumulative lengths (``cum``: (K, n), a row each)
    are below p: the first index whose length reaches p (a NaN p: 0). Row by row:
    a reduction along a short axis costs several times K contiguous comparisons."""
    out = np.zeros(p.shape, dtype=np.int64)
    for row in cum:
        out += row < p
    return out


def _line(out, i, ends, p, mask, start: bool) -> None:
    """Beyond an end: along the end handle's line (``ends``: (n, 2, 2) the two
    vertices that give it, the point second for the end, first for the start); only
    the frames in ``mask`` are computed."""
    k = np.flatnonzero(mask)
    if not k.size:
        return
    a, b = ends[k, 0], ends[k, 1]
    origin = a if start else b
    r = np.arctan2(b[:, 1] - a[:, 1], b[:, 0] - a[:, 0])
    out[0, i, k] = origin[:, 0] + p[k] * np.cos(r)
    out[1, i, k] = origin[:, 1] + p[k] * np.sin(r)
    out[2, i, k] = r


def _curve_point(out, i, q, t, mask, want) -> None:
    """The point at parameter t of each frame's curve q (x1, y1, cx1, cy1, cx2, cy2,
    x2, y2: (n,) each) where ``mask``, and its tangent angle where ``want`` (at t = 0
    always: the start handle's)."""
    x1, y1, cx1, cy1, cx2, cy2, x2, y2 = q
    at_start = (t == 0) | np.isnan(t)
    tt, u = t * t, 1 - t
    uu, ttt = u * u, t * t * t
    uuu, ut = uu * u, u * t
    ut3 = ut * 3
    uut3, utt3 = u * ut3, ut3 * t
    x = x1 * uuu + cx1 * uut3 + cx2 * utt3 + x2 * ttt
    y = y1 * uuu + cy1 * uut3 + cy2 * utt3 + y2 * ttt
    start_angle = np.arctan2(cy1 - y1, cx1 - x1)
    along = np.arctan2(y - (y1 * uu + cy1 * ut * 2 + cy2 * tt), x - (x1 * uu + cx1 * ut * 2 + cx2 * tt))
    angle = np.where(t < 0.001, start_angle, along)
    x, y = np.where(at_start, x1, x), np.where(at_start, y1, y)
    angle = np.where(at_start, start_angle, np.where(want, angle, out[2, i]))
    out[0, i] = np.where(mask, x, out[0, i])
    out[1, i] = np.where(mask, y, out[1, i])
    out[2, i] = np.where(mask, angle, out[2, i])


def _differences(p1, c1, c2, p2, steps: int):
    """Forward differences of one coordinate of the cubic through the four points
    (arrays of one shape) sampled at ``steps`` equal steps: (first difference,
    second, third)."""
    h = 1.0 / steps
    tmp = (p1 - c1 * 2 + c2) * (3 * h * h)
    ddd = ((c1 - c2) * 3 - p1 + p2) * (6 * h * h * h)
    dd = tmp * 2 + ddd
    d = (c1 - p1) * (3 * h) + tmp + ddd * (1.0 / 6.0)
    return d, dd, ddd


def _polyline(xs, ys, steps):
    """(steps, ...) cumulative lengths of the polyline through the cubic's points at
    ``steps`` equal parameter steps (forward differences, as Spine sums them);
    ``xs``, ``ys``: the four points' x and y (arrays of one shape)."""
    dx, ddx, dddx = _differences(*xs, steps)
    dy, ddy, dddy = _differences(*ys, steps)
    out = np.empty((steps,) + dx.shape)
    total = np.sqrt(dx * dx + dy * dy)
    out[0] = total
    for k in range(1, steps):
        dx += ddx
        dy += ddy
        ddx += dddx
        ddy += dddy
        total = total + np.sqrt(dx * dx + dy * dy)
        out[k] = total
    return out




def path_curves(project, bake, row: int, steps: int = 24) -> list[tuple[str, np.ndarray]]:
    """[(slot name, (K, 2) world points)]: each path a slot shows at ``row`` of
    ``bake``, as a polyline of ``steps`` points a curve (what the scene draws)."""
    from rigeditor.model.data.project import CHARACTER

    out = []
    frame = bake.frames[row:row + 1]
    character = bake.spaces[CHARACTER].take(slice(row, row + 1))
    for slot in project.art.slots:
        for path, mask in shown_paths(project, slot, frame):
            def frame_of(bone):
                if bone is None or bone not in bake.bones:
                    return character
                return bake.bone_bakes[bake.column(bone)].world.take(slice(row, row + 1))
            v = path.world_vertices(lambda b: _frame_one(frame_of(b)), slot.bone, 1,
                                    path_offsets(project.art, slot.name, path, frame))[0]
            count = v.shape[0] // 3 if path.closed else v.shape[0] // 3 - 1
            t = np.linspace(0.0, 1.0, steps)[:, None]
            pts = []
            for k in range(count):
                p0, c0, c1, p1 = (v[(3 * k + j) % v.shape[0]] for j in (1, 2, 3, 4))
                pts.append((1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * c0 + 3 * (1 - t) * t * t * c1 + t ** 3 * p1)
            if pts:
                curve = np.concatenate(pts)
                if np.all(np.isfinite(curve)):  # nothing not finite reaches the screen
                    out.append((slot.name, curve))
    return out


def _frame_one(w: Affine) -> Affine:
    return Affine(*(np.broadcast_to(np.asarray(v, float), (1,)) for v in w.fields()))
