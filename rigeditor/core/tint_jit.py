"""A slot colour applied to a premultiplied picture, compiled by numba: one pass.

Imported only through ``core.lazy_kernel`` (``app.blend`` holds the loader, the tables
and the QImage glue); nothing here knows Qt. :func:`tint` rewrites a premultiplied
ARGB32 buffer (uint32, 0xAARRGGBB) in place: each colour channel c of a texel of alpha
a becomes ``tables[k, (a << 8) | c]`` (k = 0, 1, 2: red, green, blue) and its alpha
``alpha_table[a]``. The tables are the numpy path's own (``app.blend.tint_tables``),
so both paths give the same bytes; the loop only replaces numpy's gathers, which
build a uint16 index array per channel and a uint8 result per channel (2-3 ms a
512 x 512 picture) by one read and one write a texel.

A clear texel (0) stays clear: every table maps (a = 0, c = 0) to 0, since c <= a in a
premultiplied picture and the tint of nothing is nothing (light and dark both scale
by the texel's coverage). Skipping it is what makes a picture's transparent margin
free.

``nogil``: the loop releases the interpreter lock. ``cache``: compiled once a machine.
"""
from __future__ import annotations

import numpy as np
from numba import njit

_JIT = dict(cache=True, nogil=True)


@njit(**_JIT)
def tint(words, tables, alpha_table):
    """Tint ``words`` (H, W) uint32 premultiplied ARGB32 in place by ``tables`` (3,
    65536) uint8 (red, green, blue, indexed (a << 8) | c) and ``alpha_table`` (256,)
    uint8. Returns the number of texels rewritten (the ones not clear)."""
    h, w = words.shape
    red, green, blue = tables[0], tables[1], tables[2]
    done = 0
    for y in range(h):
        row = words[y]
        for x in range(w):
            p = np.int64(row[x])
            if p == 0:
                continue
            a = p >> 24
            high = a << 8
            r = np.int64(red[high | ((p >> 16) & 0xFF)])
            g = np.int64(green[high | ((p >> 8) & 0xFF)])
            b = np.int64(blue[high | (p & 0xFF)])
            row[x] = np.uint32((np.int64(alpha_table[a]) << 24) | (r << 16) | (g << 8) | b)
            done += 1
    return done


def warm():
    """Compile (or load from the cache) :func:`tint` for the types the glue passes (a
    writable (H, W) uint32 view, C-contiguous uint8 tables); returns it."""
    words = np.array([[0xFF808080, 0]], np.uint32)
    tables = np.zeros((3, 65536), np.uint8)
    tint(words, tables, np.arange(256).astype(np.uint8))
    return tint
