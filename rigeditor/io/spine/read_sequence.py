"""Spine sequences (frame-by-frame pictures) as far as the import reads them.

An attachment's ``sequence`` {count, start = 1, digits = 0, setup = 0} names its
frames' regions: the attachment's path followed by the frame number ``start + index``,
zero-padded to ``digits`` ("left-wing" with start 1, digits 2 -> "left-wing01"). The
setup pose shows frame ``setup``.
"""
from __future__ import annotations

from rigeditor.io.spine.skeleton import SpineError

MAX_FRAMES = 100_000
"""The most frames a sequence may have (Spine's editor writes far fewer)."""


def sequence_of(a: dict, at: str) -> dict | None:
    """{count, start, digits, setup} of attachment map ``a`` (None without a sequence);
    SpineError at ``at`` (the attachment's JSON path) for a field that is not a whole
    number in range."""
    seq = a.get("sequence")
    if seq is None:
        return None
    if not isinstance(seq, dict):
        raise SpineError(None, [f"{at}.sequence: must be an object (count, start, digits, setup), got {seq!r}"])
    out = {}
    for name, default, lo, hi in (("count", None, 1, MAX_FRAMES), ("start", 1, 0, 10 ** 9), ("digits", 0, 0, 9),
                                  ("setup", 0, 0, MAX_FRAMES - 1)):
        v = seq.get(name, default)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not float(v).is_integer() or not lo <= v <= hi:
            raise SpineError(None, [f"{at}.sequence.{name}: must be a whole number in {lo}..{hi}, got {v!r}"])
        out[name] = int(v)
    if out["setup"] >= out["count"]:
        raise SpineError(None, [f"{at}.sequence.setup: must be a frame below count {out['count']}, "
                                f"got {out['setup']}"])
    return out


def frame_region(path: str, seq: dict, index: int) -> str:
    """The region of frame ``index`` (0-based) of sequence ``seq`` on ``path``."""
    return f"{path}{seq['start'] + index:0{seq['digits']}d}"


__all__ = ["sequence_of", "frame_region", "MAX_FRAMES"]
