"""Angle curves as CSV: UTF-8, comma separated, point decimals, a header row whose
names carry the units (see rigeditor.io.curves.table), no comment lines."""
from __future__ import annotations

import csv
import io as _io
from pathlib import Path

from rigeditor.io.atomic import export_write
from rigeditor.io.curves.table import DECIMALS, curve_table
from rigeditor.io.errors import ExportError
from rigeditor.io.curves.numtext import fixed_rows
from rigeditor.model.evaluation.bake import Bake

CHUNK = 16384
"""Rows formatted per step (the progress callback runs between steps)."""


def curves_csv(bake: Bake, *, radians: bool = False, progress=None) -> bytes:
    """The CSV text of ``bake`` as bytes. progress: optional callable(fraction 0..1)."""
    table = curve_table(bake, radians=radians)
    head = _io.StringIO()
    csv.writer(head, lineterminator="\n").writerow(table.columns)  # quotes odd bone names
    decimals = [DECIMALS[k] for k in table.kinds]
    parts = [head.getvalue().encode("utf-8")]
    n = table.data.shape[0]
    for lo in range(0, n, CHUNK):
        parts.append(fixed_rows(table.data[lo:lo + CHUNK], decimals))
        if progress:
            progress(min(lo + CHUNK, n) / n)
    return b"".join(parts)


def export_curves_csv(project, bake: Bake, path, *, radians: bool = False, progress=None) -> None:
    """Write the curves of ``bake`` to ``path`` atomically (``project`` is not needed:
    the table is the Bake's; the argument keeps every export's signature alike)."""
    try:
        data = curves_csv(bake, radians=radians, progress=progress)
    except ExportError as exc:
        raise ExportError(Path(path), exc.problems) from None
    export_write(path, data)
