"""Semantic checks of sequences and sequence keys (``where.field: what, got value``).

A sequence needs one picture path per frame (relative, '/' separators), its setup
frame among them and Spine's numbering in range; a slot's sequence keys must read
"mode index delay attachment" (``model.data.sequences``) for one of the slot's
attachments that has a sequence, in increasing frame order.
"""
from __future__ import annotations

import posixpath

from rigeditor.model.data.sequences import parse_key


def sequence_problems(seq, where: str) -> list[str]:
    out = []
    if not seq.paths:
        return [f"{where}.sequence.paths: a sequence needs at least one picture"]
    for k, p in enumerate(seq.paths):
        if not isinstance(p, str) or not p.strip() or posixpath.isabs(p) or "\\" in p or (len(p) > 1 and p[1] == ":"):
            out.append(f"{where}.sequence.paths[{k}]: must be an image file relative to the project file with "
                       f"'/' separators, got {p!r}")
    if not 0 <= seq.setup < seq.count:
        out.append(f"{where}.sequence.setup: must be a frame in 0..{seq.count - 1}, got {seq.setup!r}")
    if not 0 <= seq.digits <= 9 or seq.start < 0:
        out.append(f"{where}.sequence: start must be >= 0 and digits in 0..9, got {seq.start!r}, {seq.digits!r}")
    return out


def sequence_key_problems(slot, where: str) -> list[str]:
    out = []
    if slot.sequence.default:
        out.append(f"{where}.sequence.default: must be \"\" (the setup frame), got {slot.sequence.default!r}")
    with_sequence = {a.name for a in slot.attachments if getattr(a, "sequence", None) is not None}
    previous = None
    for k, (frame, value) in enumerate(slot.sequence.keys):
        at = f"{where}.sequence.keys[{k}]"
        if value:
            try:
                key = parse_key(value)
            except ValueError as exc:
                out.append(f"{at}.value: {exc}")
            else:
                if key.attachment not in with_sequence:
                    out.append(f"{at}.value: attachment {key.attachment!r} of this slot has no sequence")
        if previous is not None and frame <= previous:
            out.append(f"{at}.frame: keys must be in increasing frame order, got {frame:g} after {previous:g}")
        previous = frame
    return out


__all__ = ["sequence_problems", "sequence_key_problems"]
