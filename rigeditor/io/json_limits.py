"""Limits on JSON input, checked once after parsing, before any reader sees the data.

Readers (migrations, the Spine mapping, numpy arrays of indices) expect numbers that
fit a float and a nesting a few levels deep. Without these checks a 400-digit integer
ended in ``OverflowError`` in a migration, a 5,000-digit one in Python's
integer-conversion ``ValueError``, a huge mesh index in numpy's ``OverflowError`` and a
deeply nested file in ``RecursionError``: "internal error" instead of a refusal that
says where. :func:`problem` names the first offending place (``bones[3].length``).
"""
from __future__ import annotations

import json

MAX_DEPTH = 64
"""Deepest nesting of objects and lists accepted (project files and Spine skeletons
nest under 10 levels)."""

MAX_INTEGER = 2 ** 53
"""Largest integer magnitude accepted: every integer below it is exact as a float and
fits a 64-bit index; nothing a rig holds comes near it."""

_DIGITS = 300  # longer integer literals are not converted at all (Python refuses > 4300)


class _Huge(str):
    """An integer literal too long to convert, kept as its text for the message."""


def _parse_int(text: str):
    return _Huge(text) if len(text) > _DIGITS else int(text)


def loads(text: str):
    """``json.loads`` that never raises anything but ``ValueError`` (a JSONDecodeError for
    bad syntax): deep nesting and huge integer literals are reported by :func:`problem`
    or as ValueError here."""
    try:
        return json.loads(text, parse_int=_parse_int)
    except RecursionError:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels of objects and lists") from None


def problem(data) -> str | None:
    """``where: what`` for a value of ``data`` beyond the limits, else None. Iterative
    (a recursive walk would itself hit the recursion limit); the place is spelled only
    when something is found (a walk formatting every path took seconds on 20,000 bones)."""
    if not isinstance(data, (dict, list)):
        return _number_problem(data, None)
    stack = [(data, None, 0)]
    while stack:
        value, trail, depth = stack.pop()
        if depth >= MAX_DEPTH:
            return f"{_where(trail)}: nested deeper than {MAX_DEPTH} levels of objects and lists"
        for key, item in (value.items() if type(value) is dict else enumerate(value)):
            kind = type(item)
            if kind is dict or kind is list:
                stack.append((item, (trail, key), depth + 1))
            elif kind is int or kind is _Huge:
                found = _number_problem(item, (trail, key))
                if found:
                    return found
    return None


def _number_problem(value, trail) -> str | None:
    if type(value) is _Huge or (type(value) is int and abs(value) >= MAX_INTEGER):
        text = str(value)
        shown = f"{text[:12]}... ({len(text.lstrip('-'))} digits)" if len(text) > 24 else text
        return f"{_where(trail)}: the number {shown} is too large (integers must be below 2^53)"
    return None


def _where(trail) -> str:
    """``bones[3].length`` from a trail of (parent trail, key) pairs."""
    keys = []
    while trail is not None:
        trail, key = trail
        keys.append(key)
    out = ""
    for key in reversed(keys):
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else key)
    return out or "file"
