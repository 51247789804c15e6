"""A slot colour applied to a premultiplied picture, compiled by numba: one pass.

Imported only through ``core.lazy_kernel`` (``app.blend`` holds the loader and the
QImage glue, and the numpy path this replaces); nothing here knows Qt. :func:`tint`
writes the tinted copy of a premultiplied ARGB32 buffer (uint32, 0xAARRGGBB) into
another: each colour channel c of a texel of alpha a becomes
rint(((a - c) * dark + c * light) * alpha), clamped to 0..255, and its alpha
rint(a * alpha) (``app.blend.tint_tables``: the numpy path's tables, the same
operations in the same precision, float32 for the colours and float64 for the alpha,
so both paths give the same bytes).

The numpy path builds the whole 256 x 256 table a channel, then gathers through it
with a uint16 index array and a uint8 result per channel (2-3 ms a 512 x 512
picture). Here a table row (one alpha) is worked out the first time a texel of that
alpha comes, so a picture pays for the alphas it holds (without a dark colour one row
serves them all: the result does not depend on a); each texel is one read and one
write. A clear texel (0) stays clear: every rule gives 0 for a = c = 0.

``nogil``: the loop releases the interpreter lock. ``cache``: compiled once a machine.
"""
from __future__ import annotations

import numpy as np
from numba import njit

_JIT = dict(cache=True, nogil=True)


@njit(**_JIT)
def _row(table, a, light, dark, two_colour, scale):
    """Fill ``table[k, a, c]`` for every c and channel k (red, green, blue) as
    ``app.blend.tint_tables`` computes its entry (a << 8) | c."""
    fa = np.float32(a)
    for k in range(3):
        lk, dk = np.float32(light[k]), np.float32(dark[k])
        for c in range(256):
            fc = np.float32(c)
            value = fc * lk
            if two_colour:
                value = value + (fa - fc) * dk
            value = np.rint(value * scale)
            table[k, a, c] = np.uint8(min(max(value, np.float32(0.0)), np.float32(255.0)))


@njit(**_JIT)
def tint(source, dest, light, dark, two_colour, alpha):
    """Write ``source`` (H, W) uint32 premultiplied ARGB32 tinted into ``dest`` (H, W)
    uint32: light RGB ``light`` (3,) float64, dark RGB ``dark`` (3,, used when
    ``two_colour``), every channel times ``alpha`` in [0, 1]. Returns the number of
    table rows worked out."""
    h, w = source.shape
    table = np.empty((3, 256, 256), np.uint8)
    ready = np.zeros(256, np.bool_)
    alphas = np.empty(256, np.int64)
    for a in range(256):
        alphas[a] = np.int64(min(max(np.rint(np.float64(a) * alpha), 0.0), 255.0)) << 24
    scale = np.float32(alpha)
    rows = 0
    for y in range(h):
        row, out = source[y], dest[y]
        for x in range(w):
            p = np.int64(row[x])
            if p == 0:
                out[x] = 0
                continue
            a = p >> 24
            r = a if two_colour else 0  # without a dark colour every row is row 0
            if not ready[r]:
                _row(table, r, light, dark, two_colour, scale)
                ready[r] = True
                rows += 1
            out[x] = np.uint32(alphas[a] | (np.int64(table[0, r, (p >> 16) & 0xFF]) << 16)
                               | (np.int64(table[1, r, (p >> 8) & 0xFF]) << 8) | np.int64(table[2, r, p & 0xFF]))
    return rows


def warm():
    """Compile (or load from the cache) :func:`tint` for the types the glue passes (a
    read-only source, as a QImage's constBits are, and a writable destination, both
    (H, W) uint32; the colours (3,) float64); returns it."""
    source = np.array([[0xFF808080, 0]], np.uint32)
    source.setflags(write=False)
    tint(source, np.empty((1, 2), np.uint32), np.ones(3), np.zeros(3), True, 1.0)
    return tint
