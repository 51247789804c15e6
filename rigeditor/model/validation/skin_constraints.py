"""Checks of the constraints a skin brings (``Art.skin_constraints``). Part of
``validation.project``."""
from __future__ import annotations


def skin_constraint_problems(project) -> list[str]:
    """Each skin's constraints: a known skin, and items naming constraints there are."""
    art = project.art
    if not art.skin_constraints:
        return []
    known = {f"{kind}:{c.name}" for kind, items in (("chain", project.chains), ("transform", project.transforms),
                                                    ("path", project.paths), ("physics", project.physics))
             for c in items}
    out = []
    for skin, items in art.skin_constraints:
        if skin not in art.skins:
            out.append(f"skins.constraints.{skin}: unknown skin {skin!r}")
        out += [f"skins.constraints.{skin}[{k}]: unknown constraint {item!r} (chain:, transform:, path: or "
                f"physics: and a name)" for k, item in enumerate(items) if item not in known]
    return out
