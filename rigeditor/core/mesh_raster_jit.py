"""A textured-triangle rasteriser compiled by numba: a whole mesh into one buffer.

Imported only through ``core.lazy_kernel`` (``app.mesh_raster`` holds the loader and
the QImage glue); nothing here knows Qt. :func:`raster` fills triangles in order into a
premultiplied ARGB32 buffer (uint32, 0xAARRGGBB), each pixel sampled from a repeating
premultiplied texture and composited "source over" what the buffer holds.

Coverage: a pixel is drawn when its centre is inside the triangle. Corners are snapped
to 1/256 px and the edge functions are exact integers, so an edge shared by two
triangles gives one the exact negative of the other's value; a centre exactly on an
edge (or a corner) belongs to the side an infinitesimal step right (then down) enters.
Neighbours therefore neither crack nor overlap: no seam pens.

Sampling follows the floating-point bilinear path of Qt's raster engine for a tiled
texture (what a texture brush through a transform far from the origin samples): per
span the texture position is computed at the first pixel centre and stepped by the
inverse's first column pixel by pixel (restarted every ``CHUNK`` pixels, as Qt fetches
spans in chunks), the 8-bit weights truncated, the four texels mixed top and bottom
first. The caller hands each triangle's device -> texture inverse as Qt computes it
(``app.mesh_raster.span_inverses``), so interiors come out as Qt draws them.

``nogil``: the loop releases the interpreter lock. ``cache``: compiled once a machine.
"""
from __future__ import annotations

import numpy as np
from numba import njit

_JIT = dict(cache=True, nogil=True)

SUB = 256
"""Sub-pixel steps of a snapped corner (1/256 px)."""
CHUNK = 2048
"""Pixels of a span sampled from one start (Qt's fetch buffer)."""
REACH_PX = 2.0**21
"""Farthest a corner may lie from the buffer (px) for the integer edge functions to stay
inside int64; triangles reaching farther are left to the caller (``raster`` returns how
many)."""


@njit(**_JIT)
def _mix(a, b, w):
    """Each 8-bit channel of a and b mixed (a (256 - w) + b w) >> 8, w in 0..256."""
    lo = (((a & 0xFF00FF) * (256 - w) + (b & 0xFF00FF) * w) >> 8) & 0xFF00FF
    hi = ((((a >> 8) & 0xFF00FF) * (256 - w) + ((b >> 8) & 0xFF00FF) * w) >> 8) & 0xFF00FF
    return lo | (hi << 8)


@njit(**_JIT)
def _over(s, d):
    """Premultiplied s over d, 8-bit: s + d (255 - alpha s) / 255 rounded as Qt does."""
    if s >= 0xFF000000:
        return s
    if s == 0:
        return d
    k = 255 - (s >> 24)
    lo = (d & 0xFF00FF) * k
    lo = ((lo + ((lo >> 8) & 0xFF00FF) + 0x800080) >> 8) & 0xFF00FF
    hi = ((d >> 8) & 0xFF00FF) * k
    hi = (hi + ((hi >> 8) & 0xFF00FF) + 0x800080) & 0xFF00FF00
    return s + (lo | hi)


@njit(**_JIT)
def _wrap(i, n, inv_n):
    """i mod n (0 <= result < n) for |i| < 2^50, by a float quotient corrected by one
    step (an integer division costs tens of cycles a texel, twice a pixel)."""
    r = i - np.int64(np.floor(i * inv_n)) * n
    if r < 0:
        r += n
    elif r >= n:
        r -= n
    return r


@njit(**_JIT)
def _edge(ax, ay, bx, by, cx, cy):
    """Twice the signed area of (a, b, c), exact in int64."""
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


FUZZ = 1e-12
"""Qt's qFuzzyIsNull for doubles: what its matrices treat as zero."""
NUDGE = 1.0 / 65536
"""The texture nudge Qt's raster engine puts before every brush matrix it inverts."""
DEGENERATE = 1e-9
"""Smallest |determinant| of a triangle's texture edges (px^2) drawn, as art_paint's."""


@njit(**_JIT)
def _kind(m11, m12, m21, m22, dx, dy):
    """Qt's class of an affine: 0 identity, 1 translation, 2 scale, 3 turn or shear (the
    class Qt multiplies and inverts with its general formulas)."""
    if abs(m12) > FUZZ or abs(m21) > FUZZ:
        return 3
    if abs(m11 - 1) > FUZZ or abs(m22 - 1) > FUZZ:
        return 2
    if abs(dx) > FUZZ or abs(dy) > FUZZ:
        return 1
    return 0


@njit(**_JIT)
def _product(a11, a12, a21, a22, a31, a32, b11, b12, b21, b22, b31, b32):
    """Qt's product a * b of two affines (row vectors, a first), by the higher class:
    the general sums, the scale terms alone or the translations alone, in Qt's order."""
    ka, kb = _kind(a11, a12, a21, a22, a31, a32), _kind(b11, b12, b21, b22, b31, b32)
    if kb == 0:
        return a11, a12, a21, a22, a31, a32
    if ka == 0:
        return b11, b12, b21, b22, b31, b32
    k = max(ka, kb)
    if k == 3:
        return (a11 * b11 + a12 * b21, a11 * b12 + a12 * b22, a21 * b11 + a22 * b21,
                a21 * b12 + a22 * b22, a31 * b11 + a32 * b21 + b31, a31 * b12 + a32 * b22 + b32)
    if k == 2:
        return a11 * b11, 0.0, 0.0, a22 * b22, a31 * b11 + b31, a32 * b22 + b32
    return 1.0, 0.0, 0.0, 1.0, a31 + b31, a32 + b32


@njit(**_JIT)
def _inverse(m11, m12, m21, m22, m31, m32):
    """Qt's inverse of an affine (its class's formula: the adjugate over the
    determinant, reciprocal scales, or a negated translation) as (m11, m12, m21, m22,
    dx, dy, m33); NaNs where Qt finds it singular."""
    k = _kind(m11, m12, m21, m22, m31, m32)
    nan = np.nan
    if k == 3:
        det = m11 * m22 - m21 * m12
        if not abs(det) > FUZZ:
            return nan, nan, nan, nan, nan, nan, nan
        r = 1.0 / det
        return (m22 * r, -m12 * r, -m21 * r, m11 * r, (m21 * m32 - m22 * m31) * r,
                (m12 * m31 - m11 * m32) * r, (m11 * m22 - m12 * m21) * r)
    if k == 2:
        if not (abs(m11) > FUZZ and abs(m22) > FUZZ):
            return nan, nan, nan, nan, nan, nan, nan
        i11, i22 = 1.0 / m11, 1.0 / m22
        return i11, 0.0, 0.0, i22, -m31 * i11, -m32 * i22, 1.0
    return 1.0, 0.0, 0.0, 1.0, -m31, -m32, 1.0


@njit(**_JIT)
def span_inverse(s0x, s0y, s1x, s1y, s2x, s2y, d0x, d0y, d1x, d1y, d2x, d2y, shift_x, shift_y, state):
    """Device pixel -> texture pixel of one triangle, as Qt inverts the texture brush the
    Qt path fills it with: the affine texture (s) -> logical (d) solved in closed form
    (``art_paint.triangle_affines``, the same operations), its texture moved by whole
    tiles (``mesh_batches.shifted_far``), times the painter's transform ``state`` (6,),
    nudged, inverted. (m11, m12, m21, m22, dx, dy, m33); NaNs for a degenerate one."""
    nan = np.nan
    e1x, e1y, e2x, e2y = s1x - s0x, s1y - s0y, s2x - s0x, s2y - s0y
    f1x, f1y, f2x, f2y = d1x - d0x, d1y - d0y, d2x - d0x, d2y - d0y
    det = e1x * e2y - e1y * e2x
    if not abs(det) > DEGENERATE:
        return nan, nan, nan, nan, nan, nan, nan
    inv = 1.0 / det
    m11, m12 = (e2y * f1x - e1y * f2x) * inv, (e2y * f1y - e1y * f2y) * inv
    m21, m22 = (e1x * f2x - e2x * f1x) * inv, (e1x * f2y - e2x * f1y) * inv
    m31, m32 = d0x - s0x * m11 - s0y * m21, d0y - s0x * m12 - s0y * m22
    m31, m32 = m31 - (shift_x * m11 + shift_y * m21), m32 - (shift_x * m12 + shift_y * m22)
    m11, m12, m21, m22, m31, m32 = _product(m11, m12, m21, m22, m31, m32,
                                            state[0], state[1], state[2], state[3], state[4], state[5])
    m11, m12, m21, m22, m31, m32 = _product(1.0, 0.0, 0.0, 1.0, NUDGE, NUDGE, m11, m12, m21, m22, m31, m32)
    return _inverse(m11, m12, m21, m22, m31, m32)


@njit(**_JIT)
def raster(dest, ox, oy, tex, triangles, texture, logical, state, shift, rects, left_out):
    """Fill ``triangles`` (T, 3) int64 into ``dest`` (H, W) uint32, whose pixel [0, 0] is
    device pixel (ox, oy). A triangle's corners are ``texture`` (V, 2) picture px and
    ``logical`` (V, 2) painter px, which the painter's transform ``state`` (6,: m11 m12
    0 0 dx dy, axis-aligned) takes to device px; ``tex`` (h, w) uint32 the picture,
    sampled through the inverse Qt would use for it with its texture moved by ``shift``
    (2,) whole tiles. Only inside ``rects`` (R, 4) int64 buffer px (x0, y0, x1, y1),
    half open. ``left_out`` (T,) bool is set for the triangles reaching past REACH_PX
    (not drawn here)."""
    h, w = dest.shape
    th, tw = tex.shape
    inv_tw, inv_th = 1.0 / tw, 1.0 / th
    reach = REACH_PX
    sx_, sy_, tx_, ty_ = state[0], state[3], state[4], state[5]
    for t in range(triangles.shape[0]):
        i0, i1, i2 = triangles[t, 0], triangles[t, 1], triangles[t, 2]
        im11, im12, im21, im22, idx, idy, im33 = span_inverse(
            texture[i0, 0], texture[i0, 1], texture[i1, 0], texture[i1, 1], texture[i2, 0], texture[i2, 1],
            logical[i0, 0], logical[i0, 1], logical[i1, 0], logical[i1, 1], logical[i2, 0], logical[i2, 1],
            shift[0], shift[1], state)
        if not (np.isfinite(im11) and np.isfinite(im12) and np.isfinite(im21) and np.isfinite(im22)
                and np.isfinite(idx) and np.isfinite(idy) and np.isfinite(im33) and im33 != 0.0):
            continue
        fx0, fy0 = logical[i0, 0] * sx_ + tx_ - ox, logical[i0, 1] * sy_ + ty_ - oy
        fx1, fy1 = logical[i1, 0] * sx_ + tx_ - ox, logical[i1, 1] * sy_ + ty_ - oy
        fx2, fy2 = logical[i2, 0] * sx_ + tx_ - ox, logical[i2, 1] * sy_ + ty_ - oy
        if not (abs(fx0) < reach and abs(fy0) < reach and abs(fx1) < reach and abs(fy1) < reach
                and abs(fx2) < reach and abs(fy2) < reach):
            left_out[t] = True
            continue
        ax, ay = np.int64(np.floor(fx0 * SUB + 0.5)), np.int64(np.floor(fy0 * SUB + 0.5))
        bx, by = np.int64(np.floor(fx1 * SUB + 0.5)), np.int64(np.floor(fy1 * SUB + 0.5))
        cx, cy = np.int64(np.floor(fx2 * SUB + 0.5)), np.int64(np.floor(fy2 * SUB + 0.5))
        area = _edge(ax, ay, bx, by, cx, cy)
        if area == 0:
            continue
        if area < 0:  # turn it so that inside every edge function is positive
            bx, by, cx, cy = cx, cy, bx, by
        # Pixels whose centre (256 x + 128) can lie inside the box.
        px0 = -((128 - min(ax, bx, cx)) // SUB)
        px1 = (max(ax, bx, cx) - 128) // SUB
        py0 = -((128 - min(ay, by, cy)) // SUB)
        py1 = (max(ay, by, cy) - 128) // SUB
        iw = 1.0 / im33
        for r in range(rects.shape[0]):
            x_lo, x_hi = max(px0, rects[r, 0], 0), min(px1, rects[r, 2] - 1, w - 1)
            y_lo, y_hi = max(py0, rects[r, 1], 0), min(py1, rects[r, 3] - 1, h - 1)
            if x_lo > x_hi:
                continue
            for y in range(y_lo, y_hi + 1):
                yc = y * SUB + 128
                first, last = x_lo, x_hi
                for e in range(3):
                    if e == 0:
                        ex, ey, gx, gy = ax, ay, bx, by
                    elif e == 1:
                        ex, ey, gx, gy = bx, by, cx, cy
                    else:
                        ex, ey, gx, gy = cx, cy, ax, ay
                    # inside: F = A (X - ex) + B (Y - ey) >= 1 - tie, at X = 256 x + 128
                    a_, b_ = ey - gy, gx - ex
                    tie = 1 if (a_ > 0 or (a_ == 0 and b_ > 0)) else 0
                    rhs = (1 - tie) - b_ * (yc - ey) + a_ * ex - a_ * 128
                    if a_ > 0:
                        first = max(first, -((-rhs) // (a_ * SUB)))
                    elif a_ < 0:
                        last = min(last, rhs // (a_ * SUB))
                    elif rhs > 0:
                        last = first - 1
                if first > last:
                    continue
                row = dest[y]
                dev_y = float(y + oy) + 0.5
                x = first
                while x <= last:
                    end = min(last, x + CHUNK - 1)
                    dev_x = float(x + ox) + 0.5
                    qx = im21 * dev_y + im11 * dev_x + idx
                    qy = im22 * dev_y + im12 * dev_x + idy
                    # The texel column and row modulo the picture, carried from pixel to
                    # pixel (a step moves them by a few texels at most): no division a pixel.
                    u = qx * iw - 0.5
                    v = qy * iw - 0.5
                    last_i, last_j = int(u) - (1 if u < 0 else 0), int(v) - (1 if v < 0 else 0)
                    col, line = _wrap(last_i, tw, inv_tw), _wrap(last_j, th, inv_th)
                    for xx in range(x, end + 1):
                        u = qx * iw - 0.5
                        v = qy * iw - 0.5
                        i1 = int(u) - (1 if u < 0 else 0)
                        j1 = int(v) - (1 if v < 0 else 0)
                        distx = np.int64(int((u - i1) * 256))
                        disty = np.int64(int((v - j1) * 256))
                        col += i1 - last_i
                        line += j1 - last_j
                        last_i, last_j = i1, j1
                        if col >= tw or col < 0:
                            col = col - tw if tw <= col < 2 * tw else col + tw if -tw <= col < 0 else _wrap(col, tw, inv_tw)
                        if line >= th or line < 0:
                            line = (line - th if th <= line < 2 * th else line + th if -th <= line < 0
                                    else _wrap(line, th, inv_th))
                        x1, y1 = col, line
                        x2 = x1 + 1 if x1 + 1 < tw else 0
                        y2 = y1 + 1 if y1 + 1 < th else 0
                        tl, bl = np.int64(tex[y1, x1]), np.int64(tex[y2, x1])
                        tr, br = np.int64(tex[y1, x2]), np.int64(tex[y2, x2])
                        if tl | bl | tr | br:  # (a picture's clear margin leaves the pixel as it is)
                            s = _mix(_mix(tl, bl, disty), _mix(tr, br, disty), distx)
                            row[xx] = np.uint32(_over(s, np.int64(row[xx])))
                        qx += im11  # Qt steps the position along a span by the inverse's column
                        qy += im12
                    x = end + 1


def warm():
    """Compile (or load from the cache) :func:`raster` for the types the glue passes
    (the picture read-only, as a QImage's bits are), by one small triangle; returns it."""
    dest = np.zeros((4, 4), np.uint32)
    tex = np.full((2, 2), 0xFF808080, np.uint32)
    tex.setflags(write=False)
    pts = np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]])
    raster(dest, np.int64(0), np.int64(0), tex, np.array([[0, 1, 2]], np.int64), pts, pts,
           np.array([1.0, 0.0, 0.0, 1.0, 0.0, 0.0]), np.zeros(2), np.array([[0, 0, 4, 4]], np.int64),
           np.zeros(1, np.bool_))
    return raster
