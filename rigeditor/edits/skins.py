"""Skins: which skins a project shows (Spine's skins; several at once is mix and match)."""
from __future__ import annotations

from dataclasses import replace

from rigeditor.edits.errors import EditError
from rigeditor.model.data.project import Project


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


__all__ = ["set_active_skins"]
