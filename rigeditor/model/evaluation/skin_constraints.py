"""Skin constraints (``Art.skin_constraints``): a constraint a skin brings acts only
while an active skin lists it, as Spine's runtimes leave it out of their update
otherwise. Left out, it plays at mix 0, the bones' own pose, so its diagnostics (a
chain's reach, residual) are still there to read."""
from __future__ import annotations

from dataclasses import replace

from rigeditor.model.data.constraints import MIXES
from rigeditor.model.data.skins import inactive_constraints
from rigeditor.model.data.timeline import constant

_cache: dict = {}


def skin_applied(project):
    """``project`` with every constraint its active skins leave out at mix 0 (the same
    object when there is none; remembered per project)."""
    art = project.art
    if not art.skin_constraints:
        return project
    off = inactive_constraints(art.skin_constraints, art.active_skins)
    if not off:
        return project
    hit = _cache.get(id(project))
    if hit is not None and hit[0] is project:
        return hit[1]
    zero = constant(0.0)
    out = replace(
        project,
        chains=tuple(replace(c, mix=zero) if f"chain:{c.name}" in off else c for c in project.chains),
        transforms=tuple(replace(t, **dict.fromkeys(MIXES, zero)) if f"transform:{t.name}" in off else t
                         for t in project.transforms),
        paths=tuple(replace(p, mix_rotate=zero, mix_x=zero, mix_y=zero) if f"path:{p.name}" in off else p
                    for p in project.paths),
        physics=tuple(replace(p, mix=zero) if f"physics:{p.name}" in off else p for p in project.physics))
    if len(_cache) > 32:
        _cache.clear()
    _cache[id(project)] = (project, out)
    _cache[id(out)] = (out, out)  # applied already: an evaluation of ``out`` (physics' own) keeps it
    return out


__all__ = ["skin_applied"]
