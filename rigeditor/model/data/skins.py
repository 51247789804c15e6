"""Skins: which attachment a slot's attachment name shows (pure data, no Qt, no files).

Every attachment belongs to one skin (``ImageAttachment.skin``; ``""`` is the default
skin). A slot's stepped attachment track names an attachment; the name is looked up
in the active skins first, the last one listed winning (Spine's "mix and match": skins
combined in order, a later one replacing an earlier one's attachment of the same
name), then in the default skin, as Spine's runtimes look it up. A name no active skin
and not the default skin has shows nothing.
"""
from __future__ import annotations

DEFAULT = ""
"""The default skin's name in the model (Spine calls it "default")."""


def pick(attachments, name: str, active=()) -> int:
    """Index into ``attachments`` of the one attachment name ``name`` shows with skins
    ``active`` (in order; later wins) over the default skin; -1 for none."""
    if not name:
        return -1
    found = {a.skin: i for i, a in enumerate(attachments) if a.name == name}
    for skin in reversed(tuple(active)):
        if skin in found:
            return found[skin]
    return found.get(DEFAULT, -1)


def shown_skin(attachments, name: str, active=()) -> str:
    """The skin whose attachment ``name`` shows with skins ``active`` (the default
    skin's ``""`` when none does)."""
    i = pick(attachments, name, active)
    return attachments[i].skin if i >= 0 else DEFAULT


def names_of(attachments) -> list[str]:
    """The attachment names a slot's track may use (each once, first seen first)."""
    return list(dict.fromkeys(a.name for a in attachments))


__all__ = ["DEFAULT", "pick", "shown_skin", "names_of"]
