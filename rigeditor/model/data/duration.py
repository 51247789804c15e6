"""An animation's exact end: its last key's time when that falls between frames.

A Spine animation lasts until its last key (cloud-pot's 4.6667 s at 30 fps, frame
140.001); RigEditor's timeline, whole frames, ends on the first frame at or after it
(141). ``Timeline.exact_end`` / ``Animation.exact_end`` keep that frame so an export
ends where the source did, not a frame later. Editing the end in the editor clears
it; a range changed otherwise (its end moved) no longer ends there: the value is then
ignored, never trusted.
"""
from __future__ import annotations


def exact_end(span) -> float | None:
    """The frame ``span`` (a Timeline or an Animation: start, end, exact_end) ends on
    when it is not ``end``: its exact_end if strictly between end - 1 and end and after
    start, else None."""
    value = getattr(span, "exact_end", None)
    if value is None:
        return None
    value = float(value)
    return value if span.end - 1 < value < span.end and value > span.start else None
