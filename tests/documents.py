"""Committed JSON files against what the code builds, numbers to a tolerance.

Generated numbers (a sparse solve's weights, sines and cosines) may differ in their last
bits on another CPU, BLAS or libm, so a committed file is compared as data: the same
keys, lists, strings, booleans and integers, and every float within ``ATOL``. That is
far below any change a user could see (the files keep degrees and mesh numbers to
1e-9), and far above the last bits of a float (1e-15 on these magnitudes).
"""
from __future__ import annotations

import json
import math

ATOL = 1e-8
"""Largest difference accepted between two floats of the same place (model units,
pixels, degrees, weights)."""


def assert_same_document(committed: str, built: str, hint: str = "", atol: float = ATOL) -> None:
    """Raise AssertionError naming the first place where the JSON texts differ."""
    _same(json.loads(committed), json.loads(built), "", hint, atol)


def _same(a, b, where: str, hint: str, atol: float) -> None:
    def fail(what):
        raise AssertionError(f"{where or 'document'}: {what}" + (f" ({hint})" if hint else ""))

    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            fail(f"keys {list(a)} != {list(b)}")
        for k in a:
            _same(a[k], b[k], f"{where}.{k}" if where else k, hint, atol)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            fail(f"{len(a)} items != {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{where}[{i}]", hint, atol)
    elif isinstance(a, float) or isinstance(b, float):
        if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, (int, float)) \
                or not isinstance(b, (int, float)) or not math.isclose(a, b, rel_tol=0.0, abs_tol=atol):
            fail(f"{a!r} != {b!r}")
    elif type(a) is not type(b) or a != b:
        fail(f"{a!r} != {b!r}")
