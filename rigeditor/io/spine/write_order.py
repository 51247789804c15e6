"""Spine's constraint orders for an export: 0..N-1 over every exported constraint."""
from __future__ import annotations


def renumber(project, ik: list, transforms: list = (), paths: list = (), physics: list = ()) -> None:
    """Set each exported constraint's ``order`` (in place) to its rank in the order
    RigEditor runs them: by ``order``, and of one order a chain, a transform, a path,
    then a physics constraint (as ``evaluate.constraint_stages`` sorts them)."""
    entries = sorted([((project.chain(c["name"]).order, 0, i), c) for i, c in enumerate(ik)]
                     + [((project.transform(t["name"]).order, 1, i), t) for i, t in enumerate(transforms)]
                     + [((project.path(p["name"]).order, 2, i), p) for i, p in enumerate(paths)]
                     + [((project.physics_constraint(p["name"]).order, 3, i), p) for i, p in enumerate(physics)],
                     key=lambda e: e[0])
    for rank, (_, entry) in enumerate(entries):
        entry["order"] = rank


__all__ = ["renumber"]
