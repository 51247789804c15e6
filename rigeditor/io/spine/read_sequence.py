"""Spine sequences (frame-by-frame pictures) and their timelines.

An attachment's ``sequence`` {count, start = 1, digits = 0, setup = 0} names its
frames' regions: the attachment's path followed by the frame number ``start + index``,
zero-padded to ``digits`` ("left-wing" with start 1, digits 2 -> "left-wing01"). The
setup pose shows frame ``setup``. An animation's ``attachments.SKIN.SLOT.ATTACHMENT.
sequence`` keys {time s, mode = hold, index = 0, delay s = the previous key's, 0 for
the first} become the slot's
sequence track (``model.data.sequences``: delay in timeline frames).
"""
from __future__ import annotations

import numpy as np

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


def sequence_keys(project, anim: dict, fps: float, notes, name: str):
    """``project`` with the sequence timelines of Spine animation ``anim`` (named
    ``name``) on its slots' sequence tracks (keys for one attachment in several skins
    merge: the later skin's key at a time wins); SpineError naming a bad key."""
    from dataclasses import replace

    from rigeditor.io.spine.read_keys import frame_of
    from rigeditor.model.data.sequences import MODES, SequenceKey, key_text
    from rigeditor.model.data.timeline import StepChannel

    art = project.art
    for skin, slots in (anim.get("attachments") or {}).items():
        for slot_name, attachments in (slots or {}).items():
            for att, timelines in (attachments or {}).items():
                keys = (timelines or {}).get("sequence")
                if not keys:
                    continue
                at = f"animations.{name}.attachments.{skin}.{slot_name}.{att}.sequence"
                try:
                    slot = art.slot(slot_name)
                except KeyError:
                    raise SpineError(None, [f"{at}: unknown slot {slot_name!r}"]) from None
                if not any(a.name == att and a.sequence is not None for a in slot.attachments):
                    notes.add("sequence keys of attachments without a sequence (Spine ignores them)",
                              f"{slot_name}/{att}")
                    continue
                track = dict(slot.sequence.keys)
                delay = 0.0
                for k, key in enumerate(keys):
                    # A key without a delay keeps the previous key's, as the runtimes read it
                    # (Spine writes each delay once; a mode change alone keeps the pace).
                    mode, index, delay = key.get("mode", "hold"), key.get("index", 0), key.get("delay", delay)
                    t = key.get("time", 0.0)
                    if mode not in MODES:
                        raise SpineError(None, [f"{at}[{k}].mode: must be one of {', '.join(MODES)}, got {mode!r}"])
                    for field, v in (("index", index), ("delay", delay), ("time", t)):
                        if isinstance(v, bool) or not isinstance(v, (int, float)) or not v >= 0 or v > 1e9 \
                                or (field == "index" and not float(v).is_integer()):
                            raise SpineError(None, [f"{at}[{k}].{field}: must be a number >= 0"
                                                    f"{' (whole)' if field == 'index' else ''}, got {v!r}"])
                    # The runtimes hold the delay as a 32-bit float, like the key's time.
                    track[frame_of(float(t), fps, step=True)] = key_text(
                        SequenceKey(mode, int(index), float(np.float32(delay)) * fps, att))
                art = art.with_slot(slot_name, sequence=StepChannel(slot.sequence.default, tuple(sorted(track.items()))))
    return replace(project, art=art)


__all__ = ["sequence_of", "frame_region", "sequence_keys", "MAX_FRAMES"]
