"""Spine's slot colour timelines as the slot's colour channels (``model.data.slot_color``).

A colour key lists its components in one string ("rrggbbaa", "rrggbb") or number, and
its ``curve`` one bezier (four numbers) per component in that order: rgba (r, g, b,
a), rgb (r, g, b), alpha (a, its ``value``), rgba2 (light r, g, b, a, then dark r, g,
b), rgb2 (light r, g, b, dark r, g, b). Each component becomes its own channel with
its own curve (``read_keys.channel``), so the runtime's per-component timing is kept.
Before the first key the slot shows its setup colour, as in Spine.
"""
from __future__ import annotations

from rigeditor.io.spine.skeleton import SpineError, _Bad, color
from rigeditor.model.data.slot_color import DARK, LIGHT

_LAYOUT: dict[str, list[tuple[str, str, int]]] = {
    # timeline kind -> (channel, key field, index in the field's colour; -1: a number)
    "rgba": [(c, "color", i) for i, c in enumerate(LIGHT)],
    "rgb": [(c, "color", i) for i, c in enumerate(LIGHT[:3])],
    "alpha": [("alpha", "value", -1)],
    "rgba2": [(c, "light", i) for i, c in enumerate(LIGHT)] + [(c, "dark", i) for i, c in enumerate(DARK)],
    "rgb2": [(c, "light", i) for i, c in enumerate(LIGHT[:3])] + [(c, "dark", i) for i, c in enumerate(DARK)],
}
KINDS = tuple(_LAYOUT)


def color_timeline(slot, kind: str, keys: list, fps: float, channel, at: str, notes):
    """Slot changes: ``slot``'s colour channels keyed by the Spine timeline ``kind`` (``keys``,
    JSON path ``at``); ``channel`` is ``read_keys.channel`` (runtime or authored curves)."""
    layout = _LAYOUT[kind]
    changes: dict = {}
    if any(f == "dark" for _, f, _ in layout) and not slot.dark:
        changes["dark"] = True  # a runtime keys a dark colour only on a slot that has one (setup black)
    for j, (name, field, index) in enumerate(layout):
        setup = getattr(slot, name).default
        spine_keys = []
        for k, key in enumerate(keys):
            try:
                if index < 0:
                    value = float(key.get(field, 0.0))
                else:
                    value = color(key.get(field), f"{at}[{k}].{field}")[index]
            except _Bad as bad:
                raise SpineError(None, [str(bad)]) from None
            except (TypeError, ValueError):
                raise SpineError(None, [f"{at}[{k}].{field}: must be a number, got {key.get(field)!r}"]) from None
            entry = {"time": key.get("time", 0.0), "value": value}
            curve = key.get("curve")
            if curve == "stepped":
                entry["curve"] = "stepped"
            elif isinstance(curve, list):
                part = curve[4 * j:4 * j + 4]
                if len(part) != 4:
                    raise SpineError(None, [f"{at}[{k}].curve: a {kind} key needs {4 * len(layout)} curve numbers "
                                            f"(four per component), got {len(curve)}"])
                entry["curve"] = part
            spine_keys.append(entry)
        ch, _ = channel(spine_keys, ("value",), 0.0, fps, setup=setup, where=f"{at}.{name}")
        if getattr(slot, name).keys:
            notes.add("several colour timelines keying one component (the last one kept)", f"{slot.name}.{name}")
        changes[name] = ch
    return changes


__all__ = ["KINDS", "color_timeline"]
