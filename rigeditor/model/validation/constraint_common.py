"""Checks every constraint kind shares (transform, path, physics): a unique name, an
integer order, a list of the rig's bones. Each appends ``where.field: what`` lines."""
from __future__ import annotations

MAX_MAGNITUDE = 1e9  # as validation.project: keeps every evaluation finite


def unique_name(out: list[str], where: str, item, seen: set[str], kind: str) -> None:
    """``item.name`` not seen before among its kind (``kind``: "path constraint")."""
    if item.name in seen:
        out.append(f"{where}.name: duplicate {kind} name {item.name!r}")
    seen.add(item.name)


def integer_order(out: list[str], where: str, item) -> None:
    """``item.order`` an integer (not a bool)."""
    if not isinstance(item.order, int) or isinstance(item.order, bool):
        out.append(f"{where}.order: must be an integer, got {item.order!r}")


def bone_list(out: list[str], where: str, names, bones: set[str], kind: str, other=None) -> None:
    """``names`` (``where``.bones): at least one, each a bone of the rig, none twice;
    ``other(name)``: a further problem of a known, first-listed bone, or None."""
    if not names:
        out.append(f"{where}.bones: a {kind} needs at least 1 bone")
    for k, name in enumerate(names):
        if name not in bones:
            out.append(f"{where}.bones[{k}]: unknown bone {name!r}")
        elif name in names[:k]:
            out.append(f"{where}.bones[{k}]: bone {name!r} is listed twice")
        elif other is not None and (problem := other(name)):
            out.append(f"{where}.bones[{k}]: {problem}")
