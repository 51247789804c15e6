"""Checks shared by the constraint edits (transform, path, physics): a refused value
raises :class:`EditError` saying what is wrong."""
from __future__ import annotations

from rigeditor.edits.errors import EditError


def order_value(value) -> int:
    """``value`` as a constraint's ``order``: a whole number (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise EditError(f"A constraint's order is a whole number, got {value!r}.")
    return value


def bone_list(value, bones_known, what: str) -> tuple[str, ...]:
    """``value`` as the bones of a ``what`` ("A path constraint"): at least one, each a
    bone of the rig, none twice."""
    value = tuple(value)
    if not value:
        raise EditError(f"{what} needs at least one bone.")
    for b in value:
        if b not in bones_known:
            raise EditError(f"There is no bone named '{b}'.")
    if len(set(value)) != len(value):
        raise EditError("A bone is listed twice.")
    return value
