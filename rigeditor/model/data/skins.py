"""Skins: which attachment a slot's attachment name shows (pure data, no Qt, no files).

Every attachment belongs to one skin (``ImageAttachment.skin``; ``""`` is the default
skin). A slot's stepped attachment track names an attachment; the name is looked up
in the active skins first, the last one listed winning (Spine's "mix and match": skins
combined in order, a later one replacing an earlier one's attachment of the same
name), then in the default skin, as Spine's runtimes look it up. A name no active skin
and not the default skin has shows nothing, and so does a slot on a skin-only bone that
no active skin brings (``inactive_bones``).
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


def inactive_bones(skin_bones, active, parent_of) -> frozenset[str]:
    """The skin-only bones (``Art.skin_bones``: (skin, bones) pairs) that skins
    ``active`` leave out: as Spine's runtimes decide it, a bone an active skin lists
    is posed, and so is every bone above it; the others listed are not, and slots on
    them show nothing. ``parent_of(name)``: the bone's parent (None at the top)."""
    if not skin_bones:
        return frozenset()
    posed: set[str] = set()
    for skin, bones in skin_bones:
        if skin in active:
            for bone in bones:
                while bone is not None and bone not in posed:
                    posed.add(bone)
                    bone = parent_of(bone)
    return frozenset(b for _, bones in skin_bones for b in bones if b not in posed)


def unposed_bones(project) -> frozenset[str]:
    """``inactive_bones`` of ``project``'s skin bones under its active skins."""
    art = project.art
    return inactive_bones(art.skin_bones, art.active_skins, lambda b: project.bone(b).parent)


CONSTRAINT_FIELDS = {"chain": "chains", "transform": "transforms", "path": "paths", "physics": "physics"}
"""The kinds a skin constraint item names ("chain:NAME"...), and the Project field of each."""


def constraint_items(project) -> set[str]:
    """"KIND:NAME" of every constraint ``project`` has (the items skins may list)."""
    return {f"{kind}:{c.name}" for kind, field in CONSTRAINT_FIELDS.items() for c in getattr(project, field)}


def inactive_constraints(skin_constraints, active) -> frozenset[str]:
    """The constraints (``Art.skin_constraints`` items, "chain:NAME" ...) that skins
    ``active`` leave out: listed by some skin, by none of those."""
    on = {item for skin, items in skin_constraints if skin in active for item in items}
    return frozenset(item for _, items in skin_constraints for item in items if item not in on)


__all__ = ["DEFAULT", "pick", "shown_skin", "names_of", "inactive_bones", "unposed_bones", "CONSTRAINT_FIELDS",
           "constraint_items", "inactive_constraints"]
