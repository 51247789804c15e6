"""A Spine skeleton's JSON values checked one at a time (``skeleton``): each problem
is one ``_Bad("where: what")``, the JSON path of the value and what it must be."""
from __future__ import annotations

import json
import math
import re

import numpy as np

from rigeditor.model.validation.project import MAX_MAGNITUDE

_TOO_LARGE = f"must have magnitude <= {MAX_MAGNITUDE:g} (RigEditor's limit)"


class _Bad(Exception):
    """One problem, "where: what"."""


def color(value, where) -> tuple[float, float, float, float]:
    """RGBA in [0, 1] from Spine's "rrggbbaa" (or "rrggbb") hex."""
    if not isinstance(value, str) or not re.fullmatch(r"[0-9a-fA-F]{6}([0-9a-fA-F]{2})?", value):
        raise _Bad(f"{where}: must be a colour \"rrggbbaa\", got {value!r}")
    value = value if len(value) == 8 else value + "ff"
    return tuple(int(value[i:i + 2], 16) / 255.0 for i in (0, 2, 4, 6))


def _list(doc, key, required=False) -> list:
    value = doc.get(key)
    if value is None:
        if required:
            raise _Bad(f"{key}: missing (a Spine skeleton lists its {key})")
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise _Bad(f"{key}: must be a list of objects, got {_kind(value)}")
    return value


def _name(item, where) -> str:
    name = item.get("name")
    if not isinstance(name, str) or not name:
        raise _Bad(f"{where}.name: must be a non-empty name, got {name!r}")
    return name


def _num(item, key, default, where, lo=None) -> float:
    value = item.get(key, default)
    if not _is_number(value):
        raise _Bad(f"{where}.{key}: must be a finite number, got {_kind(value)}")
    if abs(value) > MAX_MAGNITUDE:
        raise _Bad(f"{where}.{key}: {_TOO_LARGE}, got {value!r}")
    if lo is not None and value < lo:
        raise _Bad(f"{where}.{key}: must be >= {lo:g}, got {value!r}")
    return float(value)


def _number_array(v) -> np.ndarray | None:
    """``v`` as a float array when it is a list of JSON numbers (no bools, no strings);
    else None. (The reader refuses integers from 2^53 on, so every one fits a float.)"""
    if not isinstance(v, list) or not set(map(type, v)) <= {int, float}:
        return None
    return np.asarray(v, dtype=float)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _bounded(v) -> bool:
    """A finite number within RigEditor's range (skeleton units, degrees, factors):
    a larger one would make the project invalid or its evaluation overflow."""
    return _is_number(v) and abs(v) <= MAX_MAGNITUDE


def _kind(v) -> str:
    if isinstance(v, str):
        return repr(v) if len(v) < 40 else "a string"
    if isinstance(v, bool) or v is None:
        return json.dumps(v)
    if isinstance(v, (int, float)):
        return repr(v)
    return {dict: "an object", list: "a list"}.get(type(v), type(v).__name__)
