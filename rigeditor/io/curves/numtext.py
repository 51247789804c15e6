"""Fixed-point text of number tables, vectorised: ``%.{d}f`` without a Python loop per value.

Each column is written into a fixed-width byte field of one (N, width) buffer: its
digits come from numpy integer arithmetic on the value scaled by 10**d, right-aligned
with pad bytes, which one mask over the whole buffer then drops. Rounding is half up
on the scaled value, so the text equals ``%.{d}f`` except, rarely, at an exact tie
(one unit in the last decimal). A column whose scaled values exceed a float's exact
integer range (|x| * 10**d >= 2**53) is formatted by Python instead. A value that
rounds to zero is written without a minus sign. Values must be finite.
"""
from __future__ import annotations

import numpy as np

_PAD = 0
_EXACT = 2.0 ** 53


def fixed_rows(data, decimals, sep: bytes = b",", end: bytes = b"\n") -> bytes:
    """Rows of ``data`` (N, C) as text: columns joined by ``sep``, each row ended by
    ``end``; column c written with ``decimals[c]`` digits after the point (0: none)."""
    data = np.asarray(data, dtype=float)
    n, c = data.shape
    if n == 0:
        return b""
    columns = [_Column(data[:, j], int(decimals[j])) for j in range(c)]
    tails = [np.frombuffer(end if j == c - 1 else sep, dtype=np.uint8) for j in range(c)]
    # Built transposed, (width, N): every byte position of a field is one contiguous
    # row, so the digit loops write contiguous memory; one transpose at the end.
    out = np.full((sum(col.width for col in columns) + sum(t.size for t in tails), n), _PAD, np.uint8)
    at = 0
    for col, tail in zip(columns, tails):
        col.write(out[at:at + col.width])
        at += col.width
        out[at:at + tail.size] = tail[:, None]
        at += tail.size
    flat = np.ascontiguousarray(out.T).ravel()
    return flat[flat != _PAD].tobytes()


class _Column:
    """One column's digits: sign, integer part, point, ``d`` decimals."""

    def __init__(self, x: np.ndarray, d: int):
        self.x, self.d = x, d
        mag = np.floor(np.abs(x) * 10.0 ** d + 0.5)
        self.python = not np.isfinite(mag).all() or mag.max(initial=0.0) >= _EXACT
        if self.python:
            self.text = [(f"%.{d}f" % (v + 0.0 if round(v, d) else 0.0)).encode("ascii")
                         for v in x.tolist()]
            self.width = max(len(t) for t in self.text)
            return
        self.scaled = mag  # an exact integer in a float
        self.negative = (x < 0) & (mag > 0)
        digits = len(str(int(mag.max(initial=0.0)))) - d
        self.digits = max(digits, 1)
        self.width = 1 + self.digits + (1 + d if d else 0)

    def write(self, out: np.ndarray) -> None:
        """Fill ``out`` (width, N), already padded: the fields right-aligned."""
        if self.python:
            out[:] = np.frombuffer(b"".join(t.rjust(self.width, b"\0") for t in self.text),
                                   dtype=np.uint8).reshape(-1, self.width).T
            return
        d, w = self.d, self.width
        rest = self.scaled
        units = w - (1 + d if d else 0) - 1
        ndig = np.ones(rest.shape, dtype=np.intp)
        for k in range(d + self.digits):  # digits, last first
            # Float arithmetic on exact integers (numpy's integer division is slow):
            # rest * 0.1 never rounds below the true quotient, so floor is exact.
            quotient = np.floor(rest * 0.1)
            digit = (rest - 10.0 * quotient).astype(np.uint8) + 48
            rest = quotient
            if k < d:
                out[w - 1 - k] = digit
            elif k == d:
                out[units] = digit
            else:
                present = digit != 48
                present |= rest > 0  # a digit exists where the number has k - d + 1 digits
                out[units - (k - d)] = np.where(present, digit, _PAD)
                ndig += present
        if d:
            out[w - 1 - d] = 46  # "."
        if self.negative.any():
            cols = np.flatnonzero(self.negative)
            out[units - ndig[cols], cols] = 45  # "-"
