"""Placing bones again below bones a constraint moved, as Spine updates them after it.

A bone below is placed from its local values relative to its (moved) parent: those an
earlier constraint left it (Spine's applied pose: what the constraint did, kept relative
to the parent), else its own. The applied values are read before the parents move.
"""
from __future__ import annotations

from rigeditor.model.evaluation.inherit import bone_world


def below(project, names) -> list[str]:
    """The bones below ``names`` and not among them, parents first."""
    skip = set(names)
    out, stack = [], [c.name for n in reversed(list(names)) for c in reversed(project.children(n))]
    while stack:
        d = stack.pop()
        if d in skip:
            continue
        out.append(d)
        stack.extend(c.name for c in reversed(project.children(d)))
    return out


def kept(applied, bones) -> dict:
    """The local values earlier constraints left ``bones`` (read before their parents
    move): {bone: (x, y, rotation, scale, shear)}."""
    return {d: applied.of(d) for d in bones if d in applied.set or d in applied.moved}


def place_below(pose, applied, bones, kept_local) -> None:
    """Place ``bones`` (:func:`below`, parents first) again after their ancestors moved:
    from ``kept_local`` (:func:`kept`), else from their own local values."""
    if not bones:
        return
    if not kept_local:
        before = set(pose.touched)
        pose.touched.clear()
        inside = set(bones)
        pose.update([d for d in bones if pose.project.bone(d).parent not in inside])
        applied.forget(pose.touched)
        pose.touched |= before
        return
    for d in bones:
        k = pose.column[d]
        if d in kept_local:
            codes = pose.spine[k][1] if pose.spine[k] is not None else 0
            pose.world[k] = bone_world(pose.parent_frame(d), *kept_local[d], codes)
            applied.set[d] = kept_local[d]
            applied.moved.discard(d)
            pose.touched.add(d)
        else:
            pose.update([d], stop_at={c.name for c in pose.project.children(d)})
            applied.forget([d])
