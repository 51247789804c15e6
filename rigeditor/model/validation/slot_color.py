"""Semantic checks of a slot's colour and blend mode; ``where: what`` as the file has it
(``slots[2].color.red.keys[1].value``)."""
from __future__ import annotations

import math

from rigeditor.model.data.slot_color import BLENDS, CHANNELS

_MAX = 1e6  # a colour key further than this from [0, 1] is a mistake, not an overshoot


def slot_color_problems(slot, where: str) -> list[str]:
    out = []
    if slot.blend not in BLENDS:
        out.append(f"{where}.blend: must be one of {', '.join(BLENDS)}, got {slot.blend!r}")
    for name in CHANNELS:
        ch = getattr(slot, name)
        at = f"{where}.color.{name}"
        v = ch.default[0] if len(ch.default) == 1 else math.nan
        if not (isinstance(v, (int, float)) and 0 <= v <= 1):
            out.append(f"{at}.default: must be between 0 and 1, got {v!r}")
        previous = None
        for k, key in enumerate(ch.keys):
            if len(key.value) != 1 or not (math.isfinite(key.value[0]) and abs(key.value[0]) <= _MAX):
                out.append(f"{at}.keys[{k}].value: must be a finite number near [0, 1], got {key.value!r}")
            if previous is not None and key.frame <= previous:
                out.append(f"{at}.keys[{k}].frame: keys must be in increasing frame order, "
                           f"got {key.frame:g} after {previous:g}")
            previous = key.frame
            for h in (key.out_handle, key.in_handle):
                if h is not None and not all(math.isfinite(x) for x in h):
                    out.append(f"{at}.keys[{k}]: a handle must be finite, got {h!r}")
    return out
