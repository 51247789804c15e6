"""A slot's colour as Spine defines it: a light colour (RGBA) that multiplies what the
slot draws, and an optional dark colour (RGB, "two-colour tint") that the darkest
parts of the picture take on. Pure data and vectorised sampling, no Qt.

Each of the seven components is its own 1-D channel (``Slot.red`` ... ``Slot.dark_blue``),
keyed and curved on its own: Spine's colour timelines (rgba, rgb, alpha, rgba2, rgb2)
carry one curve per component, so one channel per component keeps each curve as
written. Values are in [0, 1]; a curve may overshoot between keys, and the sampled
colour is clamped to [0, 1] as the runtimes clamp it. The attachment's own colour
(``ImageAttachment.tint`` and ``opacity``) multiplies the light colour when drawn.

Blend modes say how a slot's pixels combine with what is behind them (see
``app.blend``): normal, additive, multiply, screen (Spine's names).
"""
from __future__ import annotations

import numpy as np

LIGHT = ("red", "green", "blue", "alpha")
DARK = ("dark_red", "dark_green", "dark_blue")
CHANNELS = LIGHT + DARK
"""The colour channels of a slot, as Slot attribute names (keyable tracks)."""
DEFAULTS = {"red": 1.0, "green": 1.0, "blue": 1.0, "alpha": 1.0, "dark_red": 0.0, "dark_green": 0.0,
            "dark_blue": 0.0}
BLENDS = ("normal", "additive", "multiply", "screen")


def setup_light(slot) -> tuple[float, float, float, float]:
    """The slot's setup light colour (RGBA, [0, 1])."""
    return tuple(float(getattr(slot, c).default[0]) for c in LIGHT)


def setup_dark(slot) -> tuple[float, float, float] | None:
    """The slot's setup dark colour (RGB, [0, 1]), or None without two-colour tint."""
    return tuple(float(getattr(slot, c).default[0]) for c in DARK) if slot.dark else None


def is_default(slot) -> bool:
    """True when the slot's colour is Spine's default: white, no dark colour, no keys,
    normal blending (nothing to write)."""
    return (not slot.dark and slot.blend == "normal"
            and all(not getattr(slot, c).keys and getattr(slot, c).default[0] == DEFAULTS[c] for c in CHANNELS))


def sample_colors(slots, frames) -> tuple[np.ndarray, np.ndarray]:
    """(light (N, S, 4), dark (N, S, 3)) per frame and slot, clamped to [0, 1]. A slot
    without two-colour tint has dark (0, 0, 0): the tint formula then reduces to the
    plain multiply (see ``app.blend.tinted``)."""
    frames = np.asarray(frames, dtype=float)
    n, ns = frames.shape[0], len(slots)
    light = np.ones((n, ns, 4))
    dark = np.zeros((n, ns, 3))
    for s, slot in enumerate(slots):
        for k, name in enumerate(LIGHT):
            light[:, s, k] = _sampled(getattr(slot, name), frames)
        if slot.dark:
            for k, name in enumerate(DARK):
                dark[:, s, k] = _sampled(getattr(slot, name), frames)
    return np.clip(light, 0.0, 1.0), np.clip(dark, 0.0, 1.0)


def _sampled(ch, frames) -> np.ndarray:
    if not ch.keys:
        return np.full(frames.shape, float(ch.default[0]))
    return ch.sample(frames)[:, 0]


__all__ = ["LIGHT", "DARK", "CHANNELS", "DEFAULTS", "BLENDS", "setup_light", "setup_dark", "is_default",
           "sample_colors"]
