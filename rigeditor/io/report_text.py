"""How the report writes numbers and frames: JSON-friendly numbers, "1-3, 7" ranges.
Shared by the report's rig part and its artwork part."""
from __future__ import annotations

import numpy as np


def frames_where(frames, mask) -> list:
    """The frames where ``mask`` holds, as JSON numbers."""
    return [json_number(f) for f in np.asarray(frames)[np.asarray(mask, dtype=bool)]]


def frame_ranges(frames: list) -> str:
    """[1, 2, 3, 7] -> "1-3, 7"."""
    out, start, prev = [], None, None
    for f in frames:
        if start is not None and f == prev + 1:
            prev = f
            continue
        if start is not None:
            out.append(short(start) if start == prev else f"{short(start)}-{short(prev)}")
        start = prev = f
    if start is not None:
        out.append(short(start) if start == prev else f"{short(start)}-{short(prev)}")
    return ", ".join(out)


def json_number(x):
    """A whole float as an int (so JSON writes 12, not 12.0)."""
    x = float(x)
    return int(x) if x.is_integer() and abs(x) < 2 ** 53 else x


def short(x) -> str:
    """``%g`` text, "-" for None."""
    return "-" if x is None else f"{x:g}"
