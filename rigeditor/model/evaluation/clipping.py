"""Which slots a clipping polygon masks, per frame, as Spine's runtimes decide it.

Walking one frame's draw order back to front: a slot showing a clipping polygon starts
clipping (unless one already clips: clipping does not nest) and the slots after it are
clipped, up to and including its ``end`` slot, whether or not that slot shows
anything; without an end slot, or with one drawn before it, clipping lasts to the end
of the draw order. The clipping slot itself draws nothing.
"""
from __future__ import annotations

from rigeditor.model.data.shapes import CLIPPING


def clipped_by(art, row) -> dict[int, int]:
    """{slot column: column of the clipping slot masking it} at one frame.
    art: the project's Art; row: that frame's ``ArtRow`` (attachment, order)."""
    out: dict[int, int] = {}
    clip, end = None, ""
    for s in (int(c) for c in row.order):
        code = int(row.attachment[s])
        a = art.slots[s].attachments[code] if code >= 0 else None
        if a is not None and a.kind == CLIPPING:
            if clip is None and s in row.shapes:
                clip, end = s, a.end
            continue
        if clip is not None:
            if a is not None:
                out[s] = clip
            if art.slots[s].name == end:
                clip, end = None, ""
    return out


__all__ = ["clipped_by"]
