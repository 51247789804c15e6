"""FABRIK and CCD frame loops compiled by numba: the arithmetic of ``core.chains``.

Imported only through :func:`rigeditor.core.chains.compiled_loop`, when numba is
installed and a rig has an iterative chain. Each function here is the pure-Python
function of the same name in ``chains`` written over (x, y) floats instead of
complex numbers, operation for operation in the same order (CPython's complex
product, quotient by a float, ``abs`` = C ``hypot``; ``math.remainder`` is exact,
so :func:`_remainder` computes it as CPython does): both paths give the same bits on
the same C library, and the tests hold them to 1e-9.

``nogil``: the loops release the interpreter lock, so a range solved on the worker
thread leaves the UI thread free. ``cache``: compiled once per machine into numba's
cache directory (``chains.compiled_loop`` points it at the user's cache folder).
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

_TAU = 2.0 * math.pi
_JIT = dict(cache=True, nogil=True)
PROGRESS, DAMPING, HALVINGS, NEAR_LINE = 0.9, 1e-9, 10, 0.25  # chains.PROGRESS, _DAMPING, ...


@njit(**_JIT)
def _remainder(x, y):
    """IEEE remainder of finite x by y > 0 (exact, hence equal to math.remainder)."""
    absx, absy = abs(x), abs(y)
    m = np.fmod(absx, absy)
    c = absy - m
    if m < c:
        r = m
    elif m > c:
        r = -c
    else:  # halfway: round the quotient to even
        r = m - 2.0 * np.fmod(0.5 * (absx - m), absy)
    return math.copysign(1.0, x) * r


@njit(**_JIT)
def _step(current, candidate, low, high, limited):
    """chains._step on joint bounds (low, high): scalars, as arrays passed to a call
    cost a reference count each (twice the time of a limited FABRIK iteration)."""
    turn = candidate - current
    # remainder(turn, tau) is turn itself within [-pi, pi] (a tie rounds to an even 0):
    # the usual case, without the two fmod calls.
    value = current + (turn if abs(turn) <= math.pi else _remainder(turn, _TAU))
    if limited:  # min(max(value, lo), hi), with Python's tie rules
        if low > value:
            value = low
        if high < value:
            value = high
    return value


@njit(**_JIT)
def _longer(dx, dy, eps):
    """hypot(dx, dy) > eps, by the components first: hypot is never below them."""
    return abs(dx) > eps or abs(dy) > eps or math.hypot(dx, dy) > eps


@njit(**_JIT)
def _chain(bones, pose, rx, ry, jx, jy, heading):
    """Forward kinematics into jx, jy (B+1) and heading (B)."""
    jx[0], jy[0] = rx, ry
    h = 0.0
    for k in range(bones.shape[0]):
        h += pose[k]
        rx += bones[k] * math.cos(h)
        ry += bones[k] * math.sin(h)
        jx[k + 1], jy[k + 1] = rx, ry
        heading[k] = h


@njit(**_JIT)
def _stalled(pose, before):
    worst = 0.0
    for k in range(pose.shape[0]):
        worst = max(worst, abs(pose[k] - before[k]))
    return worst <= 1e-12


@njit(**_JIT)
def _keep_best(pose, best, least, residual, scale):
    if residual > least + 1e-14 * scale:
        pose[:] = best


@njit(**_JIT)
def _on_line(pose, aim):
    if pose.shape[0] <= 1 or abs(_remainder(pose[0] - aim, math.pi)) > 1e-9:
        return False
    for k in range(1, pose.shape[0]):
        if abs(_remainder(pose[k], math.pi)) > 1e-9:
            return False
    return True


@njit(**_JIT)
def _near_line(pose, aim):
    heading = 0.0
    for k in range(pose.shape[0]):
        heading += pose[k]
        if abs(_remainder(heading - aim, math.pi)) > NEAR_LINE:
            return False
    return True


@njit(**_JIT)
def _straight(pose, aim, lo, hi, limited):
    pose[0] = _step(pose[0], aim, lo[0], hi[0], limited)
    for k in range(1, pose.shape[0]):
        pose[k] = _step(pose[k], 0.0, lo[k], hi[k], limited)


@njit(**_JIT)
def _chord(bones, turn):
    zx, zy, h = 0.0, 0.0, 0.0
    for k in range(bones.shape[0]):
        zx += bones[k] * math.cos(h)
        zy += bones[k] * math.sin(h)
        h += turn
    return zx, zy


@njit(**_JIT)
def _arc(pose, bones, aim, distance, lo, hi, limited):
    low, high = 0.0, _TAU / bones.shape[0]
    for _ in range(52):
        mid = 0.5 * (low + high)
        zx, zy = _chord(bones, mid)
        if math.hypot(zx, zy) > distance:
            low = mid
        else:
            high = mid
    zx, zy = _chord(bones, low)
    pose[0] = _step(pose[0], aim - math.atan2(zy, zx), lo[0], hi[0], limited)
    for k in range(1, pose.shape[0]):
        pose[k] = _step(pose[k], low, lo[k], hi[k], limited)


@njit(**_JIT)
def _fabrik_frame(pose, bones, rx, ry, tx, ty, lo, hi, limited, tolerance, max_iterations, eps, reach,
                  jx, jy, heading, before, best):
    """chains._fabrik_frame; ``best`` (B) keeps the nearest iterate, copied from
    ``before`` only once an iteration ends farther (``fresh``: ``before`` is it)."""
    n = bones.shape[0]
    _chain(bones, pose, rx, ry, jx, jy, heading)
    least, fresh = math.inf, False
    for iteration in range(max_iterations):
        residual = math.hypot(jx[n] - tx, jy[n] - ty)
        if residual <= tolerance:
            return iteration
        if residual < least:
            least, fresh = residual, True
        elif fresh:
            best[:] = before
            fresh = False
        before[:] = pose
        px, py = tx, ty
        jx[n], jy[n] = tx, ty
        for k in range(n - 1, -1, -1):
            dx, dy = px - jx[k], py - jy[k]
            aim = math.atan2(dy, dx) if _longer(dx, dy, eps) else heading[k]
            if limited and k < n - 1:
                aim = heading[k + 1] - _step(pose[k + 1], heading[k + 1] - aim, lo[k + 1], hi[k + 1], limited)
            heading[k] = aim
            px -= bones[k] * math.cos(aim)
            py -= bones[k] * math.sin(aim)
            jx[k], jy[k] = px, py
        px, py, parent = rx, ry, 0.0
        jx[0], jy[0] = rx, ry
        for k in range(n):
            dx, dy = jx[k + 1] - px, jy[k + 1] - py
            if _longer(dx, dy, eps):
                pose[k] = _step(pose[k], math.atan2(dy, dx) - parent, lo[k], hi[k], limited)
            parent += pose[k]
            heading[k] = parent
            px += bones[k] * math.cos(parent)
            py += bones[k] * math.sin(parent)
            jx[k + 1], jy[k + 1] = px, py
        if _stalled(pose, before):
            _keep_best(pose, before if fresh else best, least, math.hypot(jx[n] - tx, jy[n] - ty),
                       reach + math.hypot(rx, ry))
            return iteration + 1
    _keep_best(pose, before if fresh else best, least, math.hypot(jx[n] - tx, jy[n] - ty), reach + math.hypot(rx, ry))
    return max_iterations


@njit(**_JIT)
def _ccd_frame(pose, bones, rx, ry, tx, ty, lo, hi, limited, tolerance, max_iterations, eps, reach,
               jx, jy, heading, before, trial, best, spare, spare_best):
    """chains._ccd_frame; ``best`` as in _fabrik_frame, ``trial``, ``spare`` and
    ``spare_best`` (B) scratch for the escape."""
    n = bones.shape[0]
    tiny = eps * reach  # as chains: eps * math.fsum(bones), reach being that sum
    least, fresh, spent = math.inf, False, max_iterations
    for iteration in range(max_iterations):
        _chain(bones, pose, rx, ry, jx, jy, heading)
        ex, ey = jx[n], jy[n]
        start = math.hypot(ex - tx, ey - ty)
        if start <= tolerance:
            return iteration
        if start < least:
            least, fresh = start, True
        elif fresh:
            best[:] = before
            fresh = False
        before[:] = pose
        for k in range(n - 1, -1, -1):
            qx, qy = jx[k], jy[k]
            ax, ay = ex - qx, ey - qy
            gx, gy = tx - qx, ty - qy
            # w = (target - pivot) * conj(arm), as CPython multiplies complex numbers
            wr = gx * ax - gy * (-ay)
            wi = gx * (-ay) + gy * ax
            if not _longer(wr, wi, tiny):
                continue
            turn = math.atan2(wi, wr)
            if not limited:
                size = math.hypot(wr, wi)
                pose[k] += turn
                ur = (wr + wi * 0.0) / size  # complex / float, as CPython divides
                ui = (wi - wr * 0.0) / size
            else:
                new = pose[k] + turn
                if lo[k] > new:
                    new = lo[k]
                if hi[k] < new:
                    new = hi[k]
                ur, ui = math.cos(new - pose[k]), math.sin(new - pose[k])
                pose[k] = new
            ex = qx + (ax * ur - ay * ui)
            ey = qy + (ax * ui + ay * ur)
        residual = math.hypot(ex - tx, ey - ty)
        if n > 1 and residual > tolerance and residual > PROGRESS * math.hypot(jx[n] - tx, jy[n] - ty):
            _escape(pose, bones, rx, ry, tx, ty, lo, hi, limited, tolerance, residual, eps, reach,
                    jx, jy, heading, trial, spare, spare_best)
        if _stalled(pose, before):
            spent = iteration + 1
            break
    if least < math.inf:
        _keep_best(pose, before if fresh else best, least, _end_distance(bones, pose, rx, ry, tx, ty),
                   reach + math.hypot(rx, ry))
    return spent


@njit(**_JIT)
def _end_distance(bones, pose, rx, ry, tx, ty):
    """|end - target| of ``pose``: chains' abs(_chain(...)[0][-1] - target)."""
    h = 0.0
    for k in range(bones.shape[0]):
        h += pose[k]
        rx += bones[k] * math.cos(h)
        ry += bones[k] * math.sin(h)
    return math.hypot(rx - tx, ry - ty)


@njit(**_JIT)
def _escape(pose, bones, rx, ry, tx, ty, lo, hi, limited, tolerance, residual, eps, reach,
            jx, jy, heading, trial, spare, spare_best):
    """chains._escape; ``trial``, and ``spare`` and ``spare_best`` for FABRIK's
    ``before`` and ``best`` (B), are scratch: the sweep's own stay untouched."""
    n = bones.shape[0]
    _chain(bones, pose, rx, ry, jx, jy, heading)
    ex, ey = jx[n], jy[n]
    a, b, c = 0.0, 0.0, 0.0
    for k in range(n):
        cx, cy = -(ey - jy[k]), ex - jx[k]
        a += cx * cx
        b += cx * cy
        c += cy * cy
    damping = DAMPING * (a + c)
    a += damping
    c += damping
    det = a * c - b * b
    if det > 0.0:
        gx, gy = tx - ex, ty - ey
        yx, yy = (c * gx - b * gy) / det, (a * gy - b * gx) / det
        scale = 1.0
        for _ in range(HALVINGS):
            for k in range(n):
                cx, cy = -(ey - jy[k]), ex - jx[k]
                value = pose[k] + scale * (cx * yx + cy * yy)
                if limited:
                    if lo[k] > value:
                        value = lo[k]
                    if hi[k] < value:
                        value = hi[k]
                trial[k] = value
            if _end_distance(bones, trial, rx, ry, tx, ty) < PROGRESS * residual:
                pose[:] = trial
                return
            scale *= 0.5
    trial[:] = pose
    _fabrik_frame(trial, bones, rx, ry, tx, ty, lo, hi, limited, tolerance, 1, eps, reach, jx, jy, heading, spare,
                  spare_best)
    if _end_distance(bones, trial, rx, ry, tx, ty) < PROGRESS * residual:
        pose[:] = trial
        return
    ox, oy = tx - rx, ty - ry
    aim = math.atan2(oy, ox)
    if _near_line(pose, aim):
        trial[:] = pose
        _arc(trial, bones, aim, math.hypot(ox, oy), lo, hi, limited)
        if _end_distance(bones, trial, rx, ry, tx, ty) < PROGRESS * residual:
            pose[:] = trial


@njit(**_JIT)
def solve_frames(fabrik, bones, roots, targets, pose, lo, hi, limited, tolerance, max_iterations, eps, reach,
                 poses, iterations):
    """Frames 0..N-1 in order, each warm-started from ``pose`` (B,), which ends as the
    last frame's solution; writes ``poses`` (N, B) and ``iterations`` (N,)."""
    n = bones.shape[0]
    jx, jy = np.empty(n + 1), np.empty(n + 1)
    heading, before, trial, best = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    kept, spare, spare_best = np.empty(n), np.empty(n), np.empty(n)
    for f in range(roots.shape[0]):
        rx, ry, tx, ty = roots[f, 0], roots[f, 1], targets[f, 0], targets[f, 1]
        ox, oy = tx - rx, ty - ry
        distance, aim = math.hypot(ox, oy), math.atan2(oy, ox)
        if distance >= reach - eps:
            _straight(pose, aim, lo, hi, limited)
            spent = 1
        else:
            spent = 0
            if distance > eps and _on_line(pose, aim):
                _arc(pose, bones, aim, distance, lo, hi, limited)
                spent = 1
            budget = max_iterations - spent
            if fabrik:
                spent += _fabrik_frame(pose, bones, rx, ry, tx, ty, lo, hi, limited, tolerance, budget, eps, reach,
                                       jx, jy, heading, before, best)
            else:
                spent += _ccd_frame(pose, bones, rx, ry, tx, ty, lo, hi, limited, tolerance, budget, eps, reach,
                                    jx, jy, heading, before, trial, best, spare, spare_best)
            if spent < max_iterations and distance > eps and _on_line(pose, aim):
                _chain(bones, pose, rx, ry, jx, jy, heading)
                least = math.hypot(jx[n] - tx, jy[n] - ty)
                if least > tolerance:
                    kept[:] = pose  # as chains: the restart must not end farther than this
                    _arc(pose, bones, aim, distance, lo, hi, limited)
                    budget = max_iterations - spent - 1
                    if fabrik:
                        more = _fabrik_frame(pose, bones, rx, ry, tx, ty, lo, hi, limited, tolerance, budget,
                                             eps, reach, jx, jy, heading, before, best)
                    else:
                        more = _ccd_frame(pose, bones, rx, ry, tx, ty, lo, hi, limited, tolerance, budget,
                                          eps, reach, jx, jy, heading, before, trial, best, spare, spare_best)
                    spent += 1 + more
                    _keep_best(pose, kept, least, _end_distance(bones, pose, rx, ry, tx, ty),
                               reach + math.hypot(rx, ry))
        poses[f, :] = pose
        iterations[f] = spent


def warm():
    """Compile (or load from the cache) :func:`solve_frames` for the one set of types
    ``chains`` calls it with, by a one-frame solve of each kind; returns it."""
    bones, one = np.ones(2), np.ones((1, 2))
    for fabrik in (True, False):
        solve_frames(fabrik, bones, one * 0.0, one, np.zeros(2), np.zeros(2), np.ones(2), True, 1e-3, 4,
                     1e-12, 2.0, np.empty((1, 2)), np.empty(1, dtype=np.int64))
    return solve_frames
