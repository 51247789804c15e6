"""The box-constrained biharmonic solve behind automatic weights, fast on big meshes.

For each bone j: min ½ wᵀQw (Q = K M⁻¹ K) with w fixed on the handles and 0 <= w <= 1
elsewhere, by a primal active set (solve with the bounds fixed, fix the violators,
release the bounds whose multiplier has the wrong sign, until the KKT conditions hold).
Every step is a sparse factorisation, and started cold the active set's front moves about
one ring of vertices a step, so the steps grow with the mesh's resolution and the cost
as V^1.9. What keeps it near linear:

- **Coarse to fine.** The same problem on a mesh clustered ~3x coarser predicts each
  bone's active set; the fine solve starts from it and moves its front only the few rings
  the prediction is off (recursively, down to ``COARSEST`` vertices). A prediction only
  chooses where the iteration starts: the answer is the fine mesh's exact KKT point, and
  a warm start that does not converge is redone cold.
- **Big steps settle a band first.** A step that changes more than a few vertices runs
  the same active set on the band around them (six rings, 1-5k vertices, everything
  else held), a small factorisation a step, and the next global step starts where the
  band settled (:func:`_settle_band`): at 48k vertices 4-5 global steps a bone instead
  of 7-9. The global step's KKT check still decides. A coarser level only predicts, so
  its steps are capped (``_COARSE_STEPS``): a clustered mesh can crawl by a handful of
  vertices a step for a hundred steps, which changes nothing the finer level needs.
- **Small steps border the last factorisation.** Once only a few vertices change
  bounds, a Schur complement over them reuses the previous LU (:class:`_Dirichlet`).
- **Two bones need one solve.** Q annihilates constants (K·1 = 0), so with two bones
  w₁ = 1 − w₀ is the second problem's minimiser exactly. With more, 1 − Σ others is
  taken for the last bone when it meets that bone's optimality conditions (a chain whose
  vertices see at most two bones each, such as the example arm's three), which the
  coarser level predicts; where three bones overlap the sums reach 1.1 and it is solved.
- **The degenerate far field is predicted at its bound.** Beyond the other bones'
  handles a weight is 0 with a zero multiplier; the active set leaves such vertices free
  (their values are round-off), so the fine systems would carry them. A coarse weight at
  0 or 1 to 1e-12 is predicted at that bound, which halves the fine systems (27-33k
  free vertices a bone at 48k with 6 bones -> 10-19k); the KKT check releases any that
  belong inside.

Factorisations use SuperLU in symmetric mode (minimum degree on AᵀA+A, diagonal pivots):
the matrices are symmetric positive definite, and this ordering has ~25 % less fill than
the default. The bones of a level are solved on two threads (SuperLU releases the GIL
while it factorises); the calling thread meanwhile reports progress and asks whether to
cancel, so a UI's callbacks never run on a worker.
"""
from __future__ import annotations

import os
import threading

import numpy as np

__all__ = ["Cancelled", "COARSEST", "solve_weights", "cluster_mesh"]

COARSEST = 1500  # below this many vertices a cold start is cheap (a few ms a step)
_COARSEN = 3.0  # vertices per cluster, about
_DEGENERATE = 1e-12  # a coarse weight this close to a bound is predicted at it
_BAND_RINGS = 3  # stencil steps (2 rings each) around the changed vertices a band settles; 0: none
_BAND_STEPS = 12  # active-set steps a band may take
_BAND_AFTER = 16  # changed vertices above which a step settles a band (fewer: the next step borders the LU)
_COARSE_STEPS = 12  # a coarser level only predicts: a slow crawl of tiny changes there is cut
_LU_OPTIONS = dict(permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0, options=dict(SymmetricMode=True))


class Cancelled(Exception):
    """The caller's ``cancel()`` said stop; nothing was changed."""


def _operators(vertices, triangles):
    import scipy.sparse as sp
    from .laplacian import cotangent_laplacian, lumped_mass

    k = cotangent_laplacian(vertices, triangles)
    mass = lumped_mass(vertices, triangles)
    used = mass > 0
    q = (k @ sp.diags(np.where(used, 1.0 / np.where(used, mass, 1.0), 0.0)) @ k).tocsc()
    return k, q, used


def cluster_mesh(vertices, triangles, labels, ratio=_COARSEN):
    """A coarser mesh by vertex clustering on a square grid (cells of √ratio mean sides):
    (vertices (C, 2), triangles, labels (C,), cluster of each input vertex (V,)). A
    cluster holding handle vertices takes the largest of their labels; triangles that
    collapse or lose their area are dropped. Only a predictor: it may bridge a gap
    narrower than a cell."""
    v, t = np.asarray(vertices, float), np.asarray(triangles, np.int64)
    # mean over the triangles' sides (inner edges count twice): a cell size, no need to dedupe
    cell = np.sqrt(ratio) * float(np.mean(np.hypot(*(v[t[:, [1, 2, 0]]] - v[t]).reshape(-1, 2).T)))
    ij = np.floor((v - v.min(axis=0)) / cell).astype(np.int64)
    _, cluster = np.unique(ij[:, 0] * (ij[:, 1].max() + 1) + ij[:, 1], return_inverse=True)
    count = np.bincount(cluster)
    vc = np.stack([np.bincount(cluster, weights=v[:, d]) for d in (0, 1)], axis=1) / count[:, None]
    tc = np.sort(cluster[t], axis=1)
    c = np.int64(len(count))  # one int64 key per triangle: unique on rows is much slower
    tc = np.unique((tc[:, 0] * c + tc[:, 1]) * c + tc[:, 2])
    tc = np.stack([tc // (c * c), tc // c % c, tc % c], axis=1)
    a, b, c = vc[tc[:, 0]], vc[tc[:, 1]], vc[tc[:, 2]]
    area = 0.5 * np.abs((b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0]))
    tc = tc[(tc[:, 0] != tc[:, 1]) & (tc[:, 1] != tc[:, 2]) & (area > 1e-3 * cell * cell)]
    lc = np.full(len(vc), -1, np.int64)
    np.maximum.at(lc, cluster, np.asarray(labels, np.int64))
    return vc, tc, lc, cluster


class _Progress:
    """Progress and cancel across the worker threads. Workers record how far their bone
    solve is (``step``) and stop at the next step once cancelled; the calling thread
    alone talks to the caller (``poll``), so a UI's callbacks stay on the UI thread.
    Each bone solve has a share proportional to its level's vertex count."""

    def __init__(self, sizes, bones, progress, cancel):
        self.total = float(sum(sizes)) * bones or 1.0
        self.done = 0.0
        self.running = {}
        self.stop = threading.Event()
        self.report, self.cancel = progress, cancel

    def step(self, key, share, it):
        if self.stop.is_set():
            raise Cancelled("automatic weights cancelled")
        self.running[key] = share * it / (it + 4.0)

    def finish(self, key, share):
        self.running.pop(key, None)
        self.done += share

    def poll(self):
        if self.cancel is not None and self.cancel():
            self.stop.set()
        if self.report is not None:
            self.report(min(1.0, (self.done + sum(list(self.running.values()))) / self.total))


class _Aborted(Exception):
    """A sibling task failed: this one stops at its next step."""


def _side_by_side(fn, items, meter):
    """[fn(x, abort) for x in items] on up to two threads (SuperLU lets go of the GIL
    while it factorises), polling ``meter`` every 50 ms meanwhile. When one task fails,
    ``abort`` is set for the others and the failure is raised."""
    from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait

    abort = threading.Event()
    workers = max(1, min(len(items), os.cpu_count() or 1, 2))
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="rigeditor-weights") as pool:
        futures = [pool.submit(fn, x, abort) for x in items]
        pending = futures
        while pending:
            meter.poll()
            _, pending = wait(pending, timeout=0.05, return_when=FIRST_EXCEPTION)
            if any(f.done() and f.exception() is not None for f in futures):
                abort.set()
                wait(pending)
                break
    errors = [f.exception() for f in futures if f.exception() is not None]
    first = next((e for e in errors if not isinstance(e, _Aborted)), errors[0] if errors else None)
    if first is not None:
        raise first
    meter.poll()
    return [f.result() for f in futures]


class _Dirichlet:
    """Solves Q[R, R] w_R = -Q[R, K] c_K (R free, K fixed at values c) for free sets near
    the one it factorised, R0. For R = R0 - D + E (D fixed since, E released since) it
    borders the factorisation with E's columns and D's constraints (a Schur complement
    of size |D| + |E|, one extra solve per vertex that first joins D or E): the active
    set's last steps change a handful of vertices, where a solve is ~1/30 of a new
    factorisation. ``solve`` returns None when the change is too big to pay."""

    MAX_NEW = 16  # columns one step may add (solves) before a new factorisation pays
    MAX_BORDER = 160  # dense Schur complement size

    def __init__(self, q, free):
        from scipy.sparse.linalg import splu

        self.q = q
        self.r0 = np.nonzero(free)[0]
        self.free0 = free.copy()
        self.pos = np.full(len(free), -1)
        self.pos[self.r0] = np.arange(len(self.r0))
        qr = q[self.r0]
        self.lu = splu(qr[:, self.r0].tocsc(), **_LU_OPTIONS) if len(self.r0) else None
        self.columns = {}  # vertex -> A⁻¹ (its column of Q[R0, :]  or  its unit vector)

    def _column(self, v, released):
        key = (v, released)
        col = self.columns.get(key)
        if col is None:
            if released:
                rhs = self.q[:, [v]].toarray().ravel()[self.r0]
            else:
                rhs = np.zeros(len(self.r0))
                rhs[self.pos[v]] = 1.0
            col = self.columns[key] = self.lu.solve(rhs)
        return col

    def solve(self, free, values, force=False):
        w = values.copy()
        if self.lu is None:
            return None if free.any() else w
        fixed_now = np.nonzero(self.free0 & ~free)[0]  # D
        released = np.nonzero(free & ~self.free0)[0]  # E
        new = sum((v, False) not in self.columns for v in fixed_now) + sum((v, True) not in self.columns
                                                                          for v in released)
        if not force and (new > self.MAX_NEW or len(fixed_now) + len(released) > self.MAX_BORDER):
            return None
        unknown = self.free0 | free
        c = np.where(unknown, 0.0, values)
        rhs_all = -(self.q @ c)
        u0 = self.lu.solve(rhs_all[self.r0])
        if len(fixed_now) + len(released):
            zb = np.stack([self._column(v, True) for v in released], axis=1) if len(released) else \
                np.zeros((len(self.r0), 0))
            zp = np.stack([self._column(v, False) for v in fixed_now], axis=1) if len(fixed_now) else \
                np.zeros((len(self.r0), 0))
            dpos = self.pos[fixed_now]
            qe = self.q[:, released].tocsc()
            c_ee = qe[released].toarray()
            bt_u0 = qe[self.r0].T @ u0
            bt_zb = qe[self.r0].T @ zb
            s11 = c_ee - bt_zb
            s21 = -zb[dpos]
            s22 = -zp[dpos]
            schur = np.block([[s11, s21.T], [s21, s22]])
            rhs = np.concatenate([rhs_all[released] - bt_u0, values[fixed_now] - u0[dpos]])
            y = np.linalg.solve(schur, rhs)
            x = u0 - zb @ y[:len(released)] - zp @ y[len(released):]
            w[released] = y[:len(released)]
        else:
            x = u0
        keep = free[self.r0]
        w[self.r0[keep]] = x[keep]
        return w


def _active_set(q, target, fixed, lower, upper, max_iterations, tolerance, scale, tick):
    """One bone's primal active set from the bounds (lower, upper) given; returns
    (w, lower, upper, steps, converged)."""
    lower, upper = lower & ~fixed, upper & ~fixed
    solver = reach = None
    for it in range(1, max_iterations + 1):
        tick(it)
        values = np.where(upper, 1.0, np.where(lower, 0.0, target))
        free = ~(fixed | lower | upper)
        w = None if solver is None else solver.solve(free, values)
        if w is None:
            solver = _Dirichlet(q, free)
            w = solver.solve(free, values, force=True)
        free = ~(fixed | lower | upper)
        grad = q @ w
        new_lo = free & (w < -tolerance)
        new_hi = free & (w > 1 + tolerance)
        release = (lower & (grad < -tolerance * scale)) | (upper & (grad > tolerance * scale))
        if not (new_lo.any() or new_hi.any() or release.any()):
            return w, lower, upper, it, True
        lower = (lower | new_lo) & ~release
        upper = (upper | new_hi) & ~release
        changed = new_lo | new_hi | release
        if _BAND_RINGS and np.count_nonzero(changed) > _BAND_AFTER:
            if reach is None:
                reach = (q != 0).astype(np.int8)
            lower, upper = _settle_band(q, reach, w, fixed, lower, upper, changed, tolerance, scale, lambda: tick(it))
    return w, lower, upper, max_iterations, False


def _settle_band(q, reach, w, fixed, lower, upper, changed, tolerance, scale, check):
    """Moves the bounds (lower, upper) of the vertices near ``changed`` to where the
    same active set, run on that band alone with every other vertex held at ``w``,
    settles. The band is ``_BAND_RINGS`` steps of Q's stencil (two rings each) around
    the vertices that changed. A band of 1-5k vertices is a small factorisation, so the
    front moves its few rings here instead of one global factorisation a ring; it only
    chooses where the next global step starts, whose own KKT check decides. check() is
    called every step (it raises to stop)."""
    from scipy.sparse.linalg import splu

    band = changed.astype(np.int8)
    for _ in range(_BAND_RINGS):
        band = (reach @ band > 0).astype(np.int8)
    idx = np.nonzero((band > 0) & ~fixed)[0]
    rows = q[idx].tocsr()
    lower, upper, wl = lower.copy(), upper.copy(), w.copy()
    for _ in range(_BAND_STEPS):
        check()
        lo, hi = lower[idx], upper[idx]
        wl[idx] = np.where(hi, 1.0, np.where(lo, 0.0, wl[idx]))
        inside = ~(lo | hi)
        if inside.any():
            cols = idx[inside]
            held = wl.copy()
            held[cols] = 0.0
            a = rows[inside][:, cols].tocsc()
            wl[cols] = splu(a, **_LU_OPTIONS).solve(-(rows[inside] @ held))
        grad, wb = rows @ wl, wl[idx]
        new_lo, new_hi = inside & (wb < -tolerance), inside & (wb > 1 + tolerance)
        release = (lo & (grad < -tolerance * scale)) | (hi & (grad > tolerance * scale))
        if not (new_lo.any() or new_hi.any() or release.any()):
            break
        lower[idx], upper[idx] = (lo | new_lo) & ~release, (hi | new_hi) & ~release
    return lower, upper


def _derived_last(q, weights, fixed, anchored, tolerance, scale):
    """The last bone's weights as 1 minus the others' sum, with its bounds at 0 and at 1,
    when that meets the last bone's own optimality conditions (to the active set's own
    ``tolerance``); else None. The problem is strictly convex, so a point meeting them is
    its minimiser. Along a chain whose every vertex sees at most two bones' weights (the
    example arm's three bones) it holds to round-off; where three bones overlap it fails
    (the sums reach 1.1) and the bone is solved."""
    u = np.where(anchored, 1.0 - weights[:, :-1].sum(axis=1), 0.0)
    free = ~fixed
    g = q @ u
    lo, hi = free & (u <= tolerance), free & (u >= 1.0 - tolerance)
    inside = free & ~lo & ~hi
    bound = tolerance * scale
    ok = (np.all(u[free] >= -tolerance) and np.all(u[free] <= 1.0 + tolerance) and np.all(np.abs(g[inside]) <= bound)
          and np.all(g[lo] >= -bound) and np.all(g[hi] <= bound))
    return (np.clip(u, 0.0, 1.0), lo, hi) if ok else None


def _level(vertices, triangles, labels, bones, max_iterations, tolerance, meter, fine):
    """Weights (V, B), bounds at 0 and at 1 (V, B) bool, steps per bone on this level and
    whether the last bone's weights came out as 1 minus the others' (:func:`_derived_last`),
    after predicting the bounds (and that) from a coarser level where the mesh is big enough."""
    from scipy.sparse.csgraph import connected_components

    n = len(vertices)
    k, q, used = _operators(vertices, triangles)
    _, comp = connected_components(abs(k) > 0, directed=False)
    anchored = np.isin(comp, np.unique(comp[labels >= 0])) & used
    fixed = (labels >= 0) | ~anchored
    lower0 = np.zeros((n, bones), bool)
    upper0 = np.zeros((n, bones), bool)
    derivable = False  # unknown without a coarser level: solve every bone, then look
    if n > COARSEST:
        vc, tc, lc, cluster = cluster_mesh(vertices, triangles, labels)
        if len(vc) < 0.8 * n and len(tc) and np.all(np.isin(np.arange(bones), lc)):
            try:
                w_c, lo_c, hi_c, _, derivable = _level(vc, tc, lc, bones, max_iterations, tolerance, meter, False)
                # A coarse weight at 0 or 1 to round-off is mostly the degenerate far field
                # (bound and multiplier both zero, beyond the other bones' handles), which the
                # active set leaves free: predicting it at its bound halves the fine systems,
                # and the fine KKT check releases any vertex that belongs inside.
                lower0 = (lo_c | (w_c <= _DEGENERATE))[cluster]
                upper0 = (hi_c | (w_c >= 1.0 - _DEGENERATE))[cluster]
            except RuntimeError:  # a clustered mesh can come out singular: predict nothing
                pass
    derive = bones == 2 or (bones > 2 and derivable)
    solved = bones - 1 if derive else bones
    scale = float(abs(q).max()) or 1.0
    share = float(n) * (1 if fine else bones / solved)  # a coarse level's shares cover all its bones

    def bone(j, abort):
        key = (n, j)
        target = np.where(labels == j, 1.0, 0.0)

        def tick(it):
            if abort.is_set():
                raise _Aborted
            meter.step(key, share, it)

        steps = max_iterations if fine else min(max_iterations, _COARSE_STEPS)
        w, lo, hi, it, ok = _active_set(q, target, fixed, lower0[:, j], upper0[:, j], steps, tolerance, scale, tick)
        if not ok and fine and (lower0[:, j].any() or upper0[:, j].any()):  # the prediction led astray: start cold
            none = np.zeros(n, bool)
            w, lo, hi, it2, ok = _active_set(q, target, fixed, none, none, max_iterations, tolerance, scale, tick)
            it += it2
        meter.finish(key, share)
        return np.clip(w, 0.0, 1.0), lo, hi, it

    weights = np.zeros((n, bones))
    lower, upper = np.zeros((n, bones), bool), np.zeros((n, bones), bool)
    steps = [0] * bones

    def keep(js, results):
        for j, (w, lo, hi, it) in zip(js, results):
            weights[:, j], lower[:, j], upper[:, j], steps[j] = w, lo, hi, it

    keep(range(solved), _side_by_side(bone, list(range(solved)), meter))
    last = bones - 1
    if bones == 2:  # w1 = 1 - w0 solves the second problem (Q·1 = 0, same bounds mirrored)
        weights[:, 1] = np.where(anchored, 1.0 - weights[:, 0], 0.0)
        lower[:, 1], upper[:, 1] = upper[:, 0], lower[:, 0]
        meter.finish((n, 1), float(n) if fine else 0.0)
        return weights, lower, upper, steps, True
    if bones < 2:
        return weights, lower, upper, steps, False
    found = _derived_last(q, weights, fixed, anchored, tolerance, scale)
    if derive and found is None:  # the coarser level's sum was 1, this one's is not: solve it
        keep([last], _side_by_side(bone, [last], meter))
    elif derive:
        weights[:, last], lower[:, last], upper[:, last] = found
        meter.finish((n, last), float(n) if fine else 0.0)
    return weights, lower, upper, steps, found is not None


def _sizes(n):
    sizes = [n]
    while sizes[-1] > COARSEST:
        sizes.append(sizes[-1] / _COARSEN)
    return sizes


def solve_weights(vertices, triangles, labels, max_iterations=60, tolerance=1e-9, progress=None, cancel=None):
    """Bounded biharmonic weights (V, B) for handle labels (V,) in -1..B-1, before
    normalisation, and the active-set steps each bone took on the full mesh.

    progress(fraction in 0..1) is called as the solve goes (monotone); cancel() is asked
    before every factorisation (each well under 0.5 s at 50,000 vertices) and raises
    :class:`Cancelled` when it returns True."""
    v, t = np.asarray(vertices, float), np.asarray(triangles, np.int64)
    labels = np.asarray(labels, np.int64)
    bones = int(labels.max()) + 1 if len(labels) else 0
    meter = _Progress(_sizes(len(v)), bones, progress, cancel)
    weights, _, _, steps, _ = _level(v, t, labels, bones, max_iterations, tolerance, meter, True)
    if progress is not None:
        progress(1.0)
    if meter.stop.is_set():  # cancelled after the last step: still the caller's word
        raise Cancelled("automatic weights cancelled")
    return weights, steps
