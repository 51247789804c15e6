"""A Spine slot's setup colour, dark colour and blend mode as Slot fields."""
from __future__ import annotations

from rigeditor.model.data.slot_color import BLENDS, DARK, LIGHT
from rigeditor.model.data.timeline import Channel


def slot_setup(s, notes) -> dict:
    """Slot keyword arguments of Spine slot ``s`` (a ``skeleton.SpineSlot``): its colour
    channels' defaults, two-colour tint and blend mode (an unknown mode is listed and
    drawn normal)."""
    out = {n: Channel((float(v),)) for n, v in zip(LIGHT, s.color)}
    if s.dark:
        out.update({n: Channel((float(v),)) for n, v in zip(DARK, s.dark_color)}, dark=True)
    if s.blend in BLENDS:
        out["blend"] = s.blend
    else:
        notes.add("unknown slot blend modes (drawn normal)", f"{s.name} ({s.blend})")
    return out
