"""The physics stepping loop compiled by numba: the arithmetic of ``physics.run``.

Imported only through :func:`rigeditor.model.evaluation.constraints.physics_jit.compiled_run`,
when numba is installed. :func:`run` is ``physics.run`` (model/evaluation/constraints)
over arrays instead of lists, operation for operation in the same order (the same
libm calls: ``atan2``, ``cos``, ``sin``, ``pow``; the caller's ``math.hypot``; no fused multiply-add, numba
leaves fastmath off), so both loops give the same bits on one C library; the tests
hold them to 1e-9. The state is the 18 floats of ``physics._FIELDS`` in that order.

``nogil``: the loop releases the interpreter lock (a range stepped on the worker
thread leaves the UI thread free). ``cache``: compiled once per machine.
"""
from __future__ import annotations

import math

import numpy as np
from numba import njit

_JIT = dict(cache=True, nogil=True)


@njit(**_JIT)
def run(weights, step, ref, limit, length, s, times, k, w, norms, resets, every, out, states):
    """Updates 0..N-1 of one constraint from state ``s`` (18,), which ends as the state
    after the last. ``weights``: (x, y, rotate, shear x, scale x); ``step``: seconds a
    spring step; ``ref``: the reference scale; ``limit``: units/s; ``length``: the
    bone's, model units. ``times`` (N,) game seconds; ``k`` (7, N) the settings;
    ``w`` (6, N) the world frame before (a, b, c, d, x, y); ``norms`` (N,) the length
    of its x axis, ``math.hypot(a, c)`` (CPython's own norm, which C's ``hypot`` that
    numba calls misses by an ulp in one case of 200: computed by the caller, so the
    bits stay the Python loop's; read only with scale x on); ``resets`` (N,) bool.
    Writes ``out`` (6, N), the world frame after, and into ``states`` (M, 18) the state
    after updates 0, ``every``, 2 ``every``... (``every`` 0: the last alone); returns M."""
    fresh, ux, uy, cx, cy, tx, ty = s[0], s[1], s[2], s[3], s[4], s[5], s[6]
    xo, xv, yo, yv, ro, rv, so, sv = s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14]
    remaining, last, time = s[15], s[16], s[17]
    wx, wy, w_rotate, w_shear, w_scale = weights[0], weights[1], weights[2], weights[3], weights[4]
    on_x, on_y, on_turn, on_scale = wx > 0, wy > 0, w_rotate > 0 or w_shear > 0, w_scale > 0
    on_move = on_x or on_y
    lever = length / ref
    tau = 2 * math.pi
    kept = 0
    for i in range(times.shape[0]):
        now = times[i]
        inertia, strength, damping, mass, wind, gravity, mix = k[0, i], k[1, i], k[2, i], k[3, i], k[4, i], k[5, i], k[6, i]
        a, b, cc, d, x, y = w[0, i], w[1, i], w[2, i], w[3, i], w[4, i], w[5, i]
        if resets[i]:  # back to rest; the time already run stays
            fresh, ux, uy, cx, cy, tx, ty = 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
            xo, xv, yo, yv, ro, rv, so, sv, remaining = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
            last = time
        time = now
        if mix == 0:  # frozen: only the game clock moves on
            out[0, i], out[1, i], out[2, i], out[3, i], out[4, i], out[5, i] = a, b, cc, d, x, y
        else:
            dt = time - last
            if dt < 0.0:
                dt = 0.0
            remaining += dt
            last = time
            if fresh != 0.0:
                fresh, ux, uy = 0.0, x, y
            else:
                left = remaining
                q = limit * dt
                have_keep, keep = False, 0.0
                if on_move:
                    if on_x:
                        u = (ux - x) * inertia
                        xo += q if u > q else -q if u < -q else u
                        ux = x
                    if on_y:
                        u = (uy - y) * inertia
                        yo += q if u > q else -q if u < -q else u
                        uy = y
                    if left >= step:
                        have_keep, keep = True, damping ** (60 * step)
                        m, fx, fy = step / mass, wind * ref, gravity * ref
                        while True:
                            if on_x:
                                xv += (fx - xo * strength) * m
                                xo += xv * step
                                xv *= keep
                            if on_y:
                                yv -= (fy + yo * strength) * m
                                yo += yv * step
                                yv *= keep
                            left -= step
                            if left < step:
                                break
                    if on_x:
                        x += xo * mix * wx
                    if on_y:
                        y += yo * mix * wy
                if on_turn or on_scale:
                    base = math.atan2(cc, a)
                    dx, dy = cx - x, cy - y
                    dx = q if dx > q else -q if dx < -q else dx  # the bone's own motion, limited
                    dy = q if dy > q else -q if dy < -q else dy
                    turn = (w_rotate + w_shear) * mix
                    angle = base
                    if on_turn:
                        r = math.atan2(dy + ty, dx + tx) - base - ro * turn
                        ro += (r - math.ceil(r / tau - 0.5) * tau) * inertia  # wrapped to (-pi, pi]
                        angle = ro * turn + base
                    cos, sin = math.cos(angle), math.sin(angle)
                    if on_scale:
                        reach = length * norms[i]
                        if reach > 0:
                            so += (dx * cos + dy * sin) * inertia / reach
                    left = remaining
                    if left >= step:
                        if not have_keep:
                            keep = damping ** (60 * step)
                        m = step / mass
                        while True:
                            left -= step
                            if on_scale:
                                sv += (wind * cos - gravity * sin - so * strength) * m
                                so += sv * step
                                sv *= keep
                            if on_turn:
                                rv -= ((wind * sin + gravity * cos) * lever + ro * strength) * m
                                ro += rv * step
                                rv *= keep
                            if left < step:
                                break
                            if on_turn:  # the next step pulls along the turned axis
                                angle = ro * turn + base
                                cos, sin = math.cos(angle), math.sin(angle)
                remaining = left
            cx, cy = x, y
            if on_turn:
                o = ro * mix
                if w_shear > 0:  # the y axis turns by the rotate share only, the x axis by both
                    turn_y = o * w_rotate if w_rotate > 0 else 0.0
                    co, si = math.cos(turn_y), math.sin(turn_y)
                    b, d = co * b - si * d, si * b + co * d
                    turn_x = turn_y + o * w_shear
                    co, si = math.cos(turn_x), math.sin(turn_x)
                else:  # both axes by one turn
                    turn = o * w_rotate
                    co, si = math.cos(turn), math.sin(turn)
                    b, d = co * b - si * d, si * b + co * d
                a, cc = co * a - si * cc, si * a + co * cc
            if on_scale:
                grow = 1 + so * mix * w_scale
                a, cc = a * grow, cc * grow
            tx, ty = length * a, length * cc
            out[0, i], out[1, i], out[2, i], out[3, i], out[4, i], out[5, i] = a, b, cc, d, x, y
        if every != 0 and i % every == 0:
            _store(states[kept], fresh, ux, uy, cx, cy, tx, ty, xo, xv, yo, yv, ro, rv, so, sv, remaining, last, time)
            kept += 1
    s[0], s[1], s[2], s[3], s[4], s[5], s[6] = fresh, ux, uy, cx, cy, tx, ty
    s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14] = xo, xv, yo, yv, ro, rv, so, sv
    s[15], s[16], s[17] = remaining, last, time
    if every == 0:
        states[0, :] = s
        kept = 1
    return kept


@njit(**_JIT)
def _store(row, fresh, ux, uy, cx, cy, tx, ty, xo, xv, yo, yv, ro, rv, so, sv, remaining, last, time):
    row[0], row[1], row[2], row[3], row[4], row[5], row[6] = fresh, ux, uy, cx, cy, tx, ty
    row[7], row[8], row[9], row[10], row[11], row[12], row[13], row[14] = xo, xv, yo, yv, ro, rv, so, sv
    row[15], row[16], row[17] = remaining, last, time


def warm():
    """Compile (or load from the cache) :func:`run` for the one set of types the
    adapter calls it with, by a two-update run; returns it."""
    k = np.ones((7, 2))
    w = np.zeros((6, 2))
    w[0], w[3] = 1.0, 1.0
    run(np.ones(5), 1.0 / 60.0, 1.0, 1000.0, 1.0, np.zeros(18), np.array([0.0, 0.1]), k, w, np.ones(2), np.zeros(2, np.bool_),
        1, np.empty((6, 2)), np.empty((2, 18)))
    return run
