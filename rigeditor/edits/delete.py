"""Deleting items: any item by kind, or a whole selection in dependency order."""
from __future__ import annotations

from rigeditor.edits import animations
from rigeditor.edits.art import delete_slot
from rigeditor.edits.bones import delete_bone
from rigeditor.edits.chains import delete_chain, delete_target
from rigeditor.edits.errors import EditError
from rigeditor.edits.names import SELECTABLE, names_of
from rigeditor.edits.spaces import remove_space, space_descendants
from rigeditor.model.data.project import Project


_DELETE_ORDER = {"slot": 0, "chain": 0, "bone": 1, "target": 2, "space": 3}


def delete_items(project: Project, items) -> tuple[Project, list, list]:
    """Delete whatever of ``items`` ((kind, name) pairs) can be deleted, in one go.

    Returns (project, deleted, kept): ``deleted`` the items gone (with what they took
    along: a bone's children, a chain's target), ``kept`` [(item, reason)] for the
    refused ones. Bones take the chains that drive them. Chains go first, then bones,
    targets and scene objects (deepest first); a refused item is tried again once
    the others are gone (a scene object is free once the targets declared in it are).
    """
    depth = {s.name: len(space_descendants(project, s.name)) for s in project.spaces}
    pending = sorted(dict.fromkeys(tuple(i) for i in items),
                     key=lambda i: (_DELETE_ORDER.get(i[0], 9), depth.get(i[1], 0) if i[0] == "space" else 0))
    before = project
    reasons: dict = {}
    progress = True
    while pending and progress:
        progress = False
        for item in list(pending):
            kind, name = item
            if kind in SELECTABLE and name not in names_of(project, kind):
                pending.remove(item)  # gone with an earlier item
                continue
            try:
                project = delete(project, kind, name, with_chains=True)
            except EditError as exc:
                reasons[item] = str(exc)
                continue
            pending.remove(item)
            progress = True
    kept = [(item, reasons[item]) for item in pending]
    deleted = [(k, n) for k in SELECTABLE for n in names_of(before, k) if n not in names_of(project, k)]
    return project, deleted, kept


def delete(project: Project, kind: str, name: str, *, with_chains: bool = False) -> Project:
    """Delete any item by kind (bone: see :func:`delete_bone`), and its tracks in
    every animation."""
    return animations.without_missing(_delete(project, kind, name, with_chains=with_chains))


def _delete(project: Project, kind: str, name: str, *, with_chains: bool = False) -> Project:
    if kind == "bone":
        return delete_bone(project, name, with_chains=with_chains)
    if kind == "chain":
        return delete_chain(project, name)
    if kind == "target":
        return delete_target(project, name)
    if kind == "space":
        return remove_space(project, name)
    if kind == "slot":
        return delete_slot(project, name)
    raise EditError(f"Unknown kind {kind!r}.")
