"""Checks of the constraints a skin brings (``Art.skin_constraints``). Part of
``validation.project``."""
from __future__ import annotations

from rigeditor.model.data.skins import constraint_items


def skin_constraint_problems(project) -> list[str]:
    """Each skin's constraints: a known skin, and items naming constraints there are."""
    art = project.art
    if not art.skin_constraints:
        return []
    known = constraint_items(project)
    out = []
    for skin, items in art.skin_constraints:
        if skin not in art.skins:
            out.append(f"skins.constraints.{skin}: unknown skin {skin!r}")
        out += [f"skins.constraints.{skin}[{k}]: unknown constraint {item!r} (chain:, transform:, path: or "
                f"physics: and a name)" for k, item in enumerate(items) if item not in known]
    return out
