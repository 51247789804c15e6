"""Sequences in the Spine export (the reverse of ``read_sequence``).

A region or mesh attachment with a sequence is written with ``sequence`` {count,
start, digits, setup} and a ``path`` that is its frames' common base name: frame i's
atlas region is the base plus ``start + i`` zero-padded to ``digits`` (the setup
frame's region name without its number when it ends with it, else that name and
"_"). Its frames' pictures are packed under those names. A slot's sequence keys are
``attachments.SKIN.SLOT.ATTACHMENT.sequence`` keys {time, mode, index, delay (s)}
of every skin having that attachment; keys before the exported range start at its
first frame.
"""
from __future__ import annotations

from dataclasses import replace

from rigeditor.io.spine.write_curves import key_time
from rigeditor.model.data.sequences import parse_key


def _stem(path: str) -> str:
    return path[:-4] if path.lower().endswith(".png") else path


def sequence_base(a) -> str:
    """The base region name of ``a``'s sequence frames."""
    seq = a.sequence
    setup = _stem(seq.paths[seq.setup])
    number = f"{seq.start + seq.setup:0{seq.digits}d}"
    return setup[:-len(number)] if setup.endswith(number) and len(setup) > len(number) else setup + "_"


def frame_regions(a) -> list[tuple[str, object]]:
    """[(region name, attachment carrying that frame's picture as its path)] of ``a``'s frames."""
    seq, base = a.sequence, sequence_base(a)
    return [(f"{base}{seq.start + i:0{seq.digits}d}", replace(a, path=p, sequence=None))
            for i, p in enumerate(seq.paths)]


def with_sequence(entry: dict, a) -> dict:
    """The attachment map ``entry`` of ``a`` with its sequence (unchanged without one)."""
    if a.sequence is None:
        return entry
    seq = a.sequence
    return {**entry, "path": sequence_base(a),
            "sequence": {"count": seq.count, "start": seq.start, "digits": seq.digits, "setup": seq.setup}}


def sequence_timelines(project, bake) -> dict:
    """{skin: {slot: {attachment: {"sequence": keys}}}} of the slots' sequence tracks.
    A runtime reads a key without a delay at the previous key's (0 before the first), so
    a key's delay is written wherever it differs from the one before it, 0 included."""
    out: dict = {}
    last: dict = {}  # (skin, slot, attachment): the delay (s) its keys so far end on
    first = float(bake.frames[0])
    for slot in project.art.slots:
        for frame, value in slot.sequence.keys:
            if not value:
                continue
            key = parse_key(value)
            entry = {"time": key_time(max(float(frame) - first, 0.0), bake.fps), "mode": key.mode}
            if key.index:
                entry["index"] = key.index
            delay = round(key.delay / bake.fps, 9)
            for a in slot.attachments:
                if a.name == key.attachment and a.sequence is not None:
                    skin = a.skin or "default"
                    written = dict(entry)
                    if delay != last.get((skin, slot.name, a.name), 0.0):
                        written["delay"] = delay
                    last[skin, slot.name, a.name] = delay
                    out.setdefault(skin, {}).setdefault(slot.name, {}).setdefault(a.name, {}).setdefault(
                        "sequence", []).append(written)
    return out


def merged(attachments: dict, more: dict) -> dict:
    """``attachments`` (an animation's attachment timelines) with ``more`` added."""
    for skin, slots in more.items():
        for slot, atts in slots.items():
            for att, timelines in atts.items():
                attachments.setdefault(skin, {}).setdefault(slot, {}).setdefault(att, {}).update(timelines)
    return attachments


__all__ = ["sequence_base", "frame_regions", "with_sequence", "sequence_timelines", "merged"]
