"""How a slot's pixels are drawn, as Spine's runtimes draw them: its colour (light and
dark, two-colour tint) applied to the picture, and its blend mode as a QPainter
composition mode.

Pictures are premultiplied (ARGB32_Premultiplied). With light colour L (slot colour
times the attachment's tint) and dark colour D, a texel of straight colour c and alpha
a draws as a·((1 − c)·D + c·L), alpha a (the runtime's two-colour shader with
premultiplied alpha); in premultiplied terms (a − c_pm)·D + c_pm·L, linear, no
division. Without two-colour tint D = 0: the plain multiply. The light alpha (with the
attachment's opacity) multiplies every channel of the copy, alpha too, as the runtime
premultiplies light and dark by it; it is not the painter's opacity, since Qt applies
that after a mode's own sum (Plus saturates s + d first, then mixes with d).

Blend modes, premultiplied source s (alpha s_a) over destination d, as the runtime's
blend functions give them: normal d' = s + d·(1 − s_a) (SourceOver); additive
d' = s + d (Plus); multiply d' = s·d + d·(1 − s_a) (Multiply: Qt adds s·(1 − d_a),
nothing over an opaque background); screen d' = s + d − s·d (Screen).
"""
from __future__ import annotations

import numpy as np
from PySide6.QtGui import QImage, QPainter

from rigeditor.core.lazy_kernel import LazyKernel

_MODES = {
    "normal": QPainter.CompositionMode.CompositionMode_SourceOver,
    "additive": QPainter.CompositionMode.CompositionMode_Plus,
    "multiply": QPainter.CompositionMode.CompositionMode_Multiply,
    "screen": QPainter.CompositionMode.CompositionMode_Screen,
}


def composition(blend: str) -> QPainter.CompositionMode:
    """The QPainter composition mode of a slot blend mode (unknown: normal)."""
    return _MODES.get(blend, _MODES["normal"])


def slot_paint(row, column: int, attachment) -> tuple[tuple, tuple | None, str]:
    """(light RGBA: the slot's colour at this row times the attachment's tint, dark RGB
    or None without two-colour tint, blend mode) of slot ``column`` of an ArtRow."""
    tint = tuple(float(v) for v in attachment.tint)
    if getattr(row, "color", None) is None:
        return tint, None, "normal"
    light = tuple(float(c) * t for c, t in zip(row.color[column], tint))
    dark = row.dark[column]
    shown_dark = tuple(float(v) for v in dark) if np.any(dark != 0) else None
    return light, shown_dark, row.blend[column] if row.blend else "normal"


def quantised(values) -> tuple[int, ...] | None:
    """Colour components as 0..255 integers (what an 8-bit picture can show): cache keys."""
    return None if values is None else tuple(int(round(min(max(float(v), 0.0), 1.0) * 255)) for v in values)


_GRID_C, _GRID_A = np.meshgrid(np.arange(256, dtype=np.float32), np.arange(256, dtype=np.float32))
_GRID_C, _GRID_A = _GRID_C.ravel(), _GRID_A.ravel()  # index (a << 8) | c -> (c, a)

_KERNEL = LazyKernel("rigeditor.core.tint_jit", "rigeditor-tint")


def compiled_tint(wait: bool | float = False):
    """``core.tint_jit.tint``, or None: numba missing or failing, ``RIGEDITOR_JIT=0``,
    or not loaded yet after ``wait`` (``LazyKernel.get``)."""
    return _KERNEL.get(wait)


def tint_tables(light, dark=None, alpha: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(tables (3, 65536) uint8: the red, green and blue result of a texel channel c
    of alpha a at index (a << 8) | c; alpha_table (256,) uint8: its alpha) for light RGB
    ``light``, dark RGB ``dark`` (None: none), every channel times ``alpha`` in [0, 1].
    Rounded to the nearest level (ties to even), clamped to 0..255."""
    tables = np.empty((3, 65536), np.uint8)
    for k in range(3):
        value = _GRID_C * float(light[k])  # float32, as the tables always were
        if dark is not None:
            value += (_GRID_A - _GRID_C) * float(dark[k])
        tables[k] = np.clip(np.rint(value * float(alpha)), 0, 255)
    return tables, np.clip(np.rint(np.arange(256) * float(alpha)), 0, 255).astype(np.uint8)


def tinted(image: QImage, light, dark=None, alpha: float = 1.0) -> QImage:
    """A premultiplied copy of ``image`` (ARGB32_Premultiplied) with light RGB ``light``
    and dark RGB ``dark`` (None: none) applied, every channel times ``alpha`` in [0, 1].

    Each output channel is a function of the texel's channel and alpha only, so it is
    one table of 256 x 256 entries looked up per pixel (``tint_tables``), exact to the
    8-bit result: by numpy, or compiled (``core.tint_jit``, the table rows worked out as
    texels need them) when numba is there, with the same bytes."""
    kernel = compiled_tint()
    if kernel is not None and not image.isNull():
        out = QImage(image.width(), image.height(), image.format())  # every texel written below
        out.setDevicePixelRatio(image.devicePixelRatio())
        out.setDotsPerMeterX(image.dotsPerMeterX())
        out.setDotsPerMeterY(image.dotsPerMeterY())
        out.setColorSpace(image.colorSpace())
        kernel(_words(image.constBits(), image), _words(out.bits(), out),
               np.array(light[:3], float), np.zeros(3) if dark is None else np.array(dark[:3], float),
               dark is not None, float(alpha))
        return out
    out = image.copy()
    if out.isNull():
        return out
    tables, alpha_table = tint_tables(light, dark, alpha)
    px = np.frombuffer(out.bits(), dtype=np.uint8).reshape(out.height(), out.bytesPerLine())[:, :out.width() * 4]
    px = px.reshape(out.height(), out.width(), 4)
    high = px[..., 3].astype(np.uint16) << 8
    # ARGB32 in memory on little-endian machines: B, G, R, A.
    for channel, k in ((2, 0), (1, 1), (0, 2)):
        px[..., channel] = tables[k][high | px[..., channel]]
    if alpha != 1.0:
        px[..., 3] = alpha_table[px[..., 3]]
    return out


def _words(bits, image: QImage) -> np.ndarray:
    """The pixels (h, w) uint32 of an ARGB32 picture, a view of ``bits``."""
    return np.frombuffer(bits, dtype=np.uint32).reshape(image.height(), image.bytesPerLine() // 4)[:, :image.width()]


__all__ = ["composition", "compiled_tint", "slot_paint", "quantised", "tint_tables", "tinted"]
