"""Names of items: listing them, unique and numbered names, checking a new one."""
from __future__ import annotations

import re

from rigeditor.edits.errors import EditError
from rigeditor.model.data.project import WORLD, Project

KINDS = ("bone", "chain", "target", "space", "slot", "transform", "path", "physics")
"""Kinds of item: each can be selected and renamed (``slot``: a layer of pictures on a bone;
``transform``: a transform constraint; ``path``: a path constraint; ``physics``: a physics
constraint)."""
SELECTABLE = KINDS


def names_of(project: Project, kind: str) -> list[str]:
    """The names of every item of ``kind`` (one of :data:`KINDS`), in the project's order."""
    pool = {"bone": project.bones, "chain": project.chains, "target": project.targets,
            "space": project.spaces, "slot": project.art.slots, "transform": project.transforms,
            "path": project.paths,
            "physics": project.physics}[kind]
    return [x.name for x in pool]


def unique_name(existing, base: str) -> str:
    """``base`` if unused, else ``base_2``, ``base_3``... (an existing number suffix grows)."""
    existing = set(existing)
    if base not in existing:
        return base
    m = re.fullmatch(r"(.*?)_(\d+)", base)
    stem, n = (m.group(1), int(m.group(2))) if m else (base, 1)
    while f"{stem}_{n + 1}" in existing:
        n += 1
    return f"{stem}_{n + 1}"


def numbered_name(existing, stem: str) -> str:
    """``stem1``, ``stem2``...: one past the highest number any ``stemN`` in
    ``existing`` carries, so names stay short at any depth and a deleted item's name
    does not come back for the next new one while later numbers exist."""
    taken = [int(m.group(1)) for n in existing if (m := re.fullmatch(re.escape(stem) + r"(\d+)", n))]
    return f"{stem}{max(taken, default=0) + 1}"


def _check_new_name(project: Project, kind: str, name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise EditError(f"A {kind} needs a name.")
    if kind == "space" and name == WORLD:
        raise EditError(f"'{WORLD}' is reserved for the world space.")
    if name in names_of(project, kind):
        raise EditError(f"There is already a {kind} named '{name}'.")
    return name
