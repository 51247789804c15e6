"""Angle curves as JSON: the CSV's columns plus the project's name, fps and units, and
each bone's rotation reduced to bezier keys within a stated angular tolerance.

Layout (``format`` "rigeditor-curves", ``version`` 1)::

    {"format", "version", "project", "fps",
     "units": {"frame", "time", "angle", "residual", "sensitivity"},
     "columns": {"frame": [...], "time_s": [...], "<bone>.rotation_deg": [...], ...},
     "keys": {"tolerance": 0.1, "curves": {"<bone>.rotation_deg": [key, ...]}}}

Columns hold the same values as the CSV (same names, same decimals). A key is
``{"frame", "value", "interp", "out_handle": [dt, dv], "in_handle": [dt, dv]}`` as in
the project file (handles only where a bezier segment uses them; dt in frames, dv in
the angle unit). ``keys.tolerance`` is in the angle unit: sampling the keys the way
RigEditor samples a track gives every baked frame's angle within it.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

from rigeditor.io.atomic import export_write
from rigeditor.io.curves.table import DECIMALS, curve_table
from rigeditor.io.errors import ExportError
from rigeditor.io.curves.keyreduce import reduce_curve
from rigeditor.io.curves.numtext import fixed_rows
from rigeditor.model.evaluation.bake import Bake

FORMAT = "rigeditor-curves"
VERSION = 1
DEFAULT_TOLERANCE_DEG = 0.1


def curves_json(name: str, bake: Bake, *, radians: bool = False,
                tolerance_deg: float = DEFAULT_TOLERANCE_DEG, progress=None, events=None) -> bytes:
    """The JSON text (bytes) of ``bake``'s curves for the project called ``name``;
    ``events``: the fired events as data (``model.evaluation.events.fired_data``), listed
    under "events" when given."""
    if not (math.isfinite(tolerance_deg) and tolerance_deg > 0):
        raise ExportError(None, [f"tolerance: must be a number > 0 (degrees), got {tolerance_deg!r}"])
    table = curve_table(bake, radians=radians)
    unit = table.angle_unit
    tolerance = math.radians(tolerance_deg) if radians else float(tolerance_deg)
    head = {
        "format": FORMAT, "version": VERSION, "project": name, "fps": bake.fps,
        "units": {"frame": "frames", "time": "s", "angle": unit, "residual": "model units",
                  "sensitivity": f"{unit} per model unit"},
    }
    parts = [json.dumps(head, ensure_ascii=False)[:-1], ',\n "columns": {']
    for c, (column, kind) in enumerate(zip(table.columns, table.kinds)):
        values = fixed_rows(table.data[:, c:c + 1], [DECIMALS[kind]], end=b",")[:-1].decode("ascii")
        parts.append(f'{"," if c else ""}\n  {json.dumps(column, ensure_ascii=False)}: [{values}]')
    parts.append('\n },\n "keys": {"tolerance": ' + json.dumps(tolerance) + ', "curves": {')
    angles = [c for c, kind in enumerate(table.kinds) if kind == unit and ".rotation_" in table.columns[c]]
    for n, c in enumerate(angles):
        keys = reduce_curve(bake.frames, table.data[:, c], tolerance)
        text = ",\n   ".join(json.dumps(_key(k)) for k in keys)
        parts.append(f'{"," if n else ""}\n  {json.dumps(table.columns[c], ensure_ascii=False)}: [\n   {text}]')
        if progress:
            progress((n + 1) / len(angles))
    parts.append("\n }}")
    if events is not None:
        parts.append(',\n "events": [' + ",".join("\n  " + json.dumps(e, ensure_ascii=False) for e in events)
                     + ("\n ]" if events else "]"))
    parts.append("\n}\n")
    return "".join(parts).encode("utf-8")


def _key(k) -> dict:
    out = {"frame": k.frame, "value": k.value[0], "interp": k.interp}
    if k.out_handle is not None:
        out["out_handle"] = list(k.out_handle)
    if k.in_handle is not None:
        out["in_handle"] = list(k.in_handle)
    return out


def export_curves_json(project, bake: Bake, path, *, radians: bool = False,
                       tolerance_deg: float = DEFAULT_TOLERANCE_DEG, progress=None) -> None:
    """Write the curves JSON of ``bake`` (``project`` gives the name) atomically."""
    try:
        data = curves_json(project.name, bake, radians=radians, tolerance_deg=tolerance_deg,
                           progress=progress)
    except ExportError as exc:
        raise ExportError(Path(path), exc.problems) from None
    export_write(path, data)
