"""Skins: which skins a project shows (Spine's skins; several at once is mix and match)."""
from __future__ import annotations

from dataclasses import replace

from rigeditor.edits.errors import EditError
from rigeditor.model.data.project import Project
from rigeditor.model.data.skins import CONSTRAINT_FIELDS, constraint_items


def set_active_skins(project: Project, names) -> Project:
    """``project`` showing skins ``names`` (in order over the default skin; a later
    one's attachment of a name replaces an earlier one's); ``()`` shows the default
    skin alone. EditError for a skin the project does not have or one named twice."""
    names = tuple(names)
    for name in names:
        if name not in project.art.skins:
            have = ", ".join(project.art.skins) or "none"
            raise EditError(f"There is no skin named '{name}' (the project's skins: {have}).")
    if len(set(names)) != len(names):
        raise EditError(f"Each skin can be shown once, got {list(names)}.")
    return replace(project, art=replace(project.art, active_skins=names))


def renamed_in_skins(project: Project, kind: str, old: str, new: str) -> Project:
    """``project`` with a renamed bone or constraint renamed in the skins that bring it."""
    art = project.art
    if kind == "bone" and art.skin_bones:
        art = replace(art, skin_bones=tuple((skin, tuple(new if b == old else b for b in bones))
                                            for skin, bones in art.skin_bones))
    elif kind in CONSTRAINT_FIELDS and art.skin_constraints:
        was, now = f"{kind}:{old}", f"{kind}:{new}"
        art = replace(art, skin_constraints=tuple((skin, tuple(now if i == was else i for i in items))
                                                  for skin, items in art.skin_constraints))
    return project if art is project.art else replace(project, art=art)


def pruned_skins(project: Project) -> Project:
    """``project`` without the skins' bones and constraints that are gone (deleted)."""
    art = project.art
    if not (art.skin_bones or art.skin_constraints):
        return project
    bones = {b.name for b in project.bones}
    there = constraint_items(project)
    skin_bones = tuple((skin, kept) for skin, names in art.skin_bones
                       if (kept := tuple(b for b in names if b in bones)))
    skin_constraints = tuple((skin, kept) for skin, items in art.skin_constraints
                             if (kept := tuple(i for i in items if i in there)))
    if skin_bones == art.skin_bones and skin_constraints == art.skin_constraints:
        return project
    return replace(project, art=replace(art, skin_bones=skin_bones, skin_constraints=skin_constraints))


__all__ = ["set_active_skins", "renamed_in_skins", "pruned_skins"]
