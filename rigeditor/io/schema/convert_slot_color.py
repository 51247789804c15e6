"""A slot's colour and blend mode between the file (schema_slot_color) and the model
(``Slot.red`` ... ``Slot.dark_blue``, ``Slot.dark``, ``Slot.blend``)."""
from __future__ import annotations

from rigeditor.io.schema.convert_keys import keys_data, keys_from_file
from rigeditor.model.data.slot_color import CHANNELS, is_default
from rigeditor.model.data.timeline import Channel


def slot_color_fields(s) -> dict:
    """Slot keyword arguments from a file slot ``s`` (none when it has no colour)."""
    out = {"blend": s.blend} if s.blend != "normal" else {}
    if s.color is None:
        return out
    for name in CHANNELS:
        ch = getattr(s.color, name)
        out[name] = Channel((float(ch.default),), keys_from_file(ch.keys, 1))
    out["dark"] = bool(s.color.dark)
    return out


def slot_color_data(slot) -> dict:
    """The file's ``color`` and ``blend`` of a model slot; {} for Spine's defaults (so a
    file without colours is written as before)."""
    if is_default(slot):
        return {}
    out: dict = {"color": {"dark": bool(slot.dark)}}
    for name in CHANNELS:
        ch = getattr(slot, name)
        out["color"][name] = {"default": float(ch.default[0]), "keys": keys_data(ch.keys)}
    if slot.blend != "normal":
        out["blend"] = slot.blend
    return out
