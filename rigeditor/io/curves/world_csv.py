"""World poses as CSV (``rigeditor bake --world``): one row per sampled frame.

Columns: ``frame`` (a float when the samples fall between frames), ``time_s``, then per
bone (the Bake's order, parents first) ``<bone>.x`` and ``<bone>.y`` (the bone's origin
in world, model units), ``<bone>.rotation_deg`` (the world direction of its x axis,
within (-180, 180]), ``<bone>.scale_x`` and ``<bone>.scale_y`` (the lengths of its world
x and y axes, model units per bone unit; scale_y is negative when the frame is
mirrored), ``<bone>.shear_deg`` (how far the y axis leans from 90 degrees
counter-clockwise of the x axis, after taking a mirror out, within (-90, 90]).

From these six numbers the world matrix is rebuilt as
``[[sx cos r, -sy sin(r + s)], [sx sin r, sy cos(r + s)]]`` (r rotation, s shear), the
same numbers Spine's runtimes keep as a, b, c, d. A bone's IK stretch scales its x
axis, as in Spine.
"""
from __future__ import annotations

import csv
import io as _io
import math
from pathlib import Path

import numpy as np

from rigeditor.io.atomic import export_write
from rigeditor.io.curves.table import CurveTable
from rigeditor.io.errors import ExportError
from rigeditor.io.curves.numtext import fixed_rows
from rigeditor.model.evaluation.bake import Bake

DECIMALS = {"frame": 0, "subframe": 6, "time": 6, "units": 6, "deg": 6, "scale": 9}
"""Decimals per kind of column (1e-6 unit and degree, 1e-9 of scale)."""

CHANNELS = (("x", "units"), ("y", "units"), ("rotation_deg", "deg"), ("scale_x", "scale"),
            ("scale_y", "scale"), ("shear_deg", "deg"))


def decompose(a, b, c, d):
    """(rotation, scale_x, scale_y, shear) of 2x2 matrices [[a, b], [c, d]] (arrays);
    angles in radians. scale_x >= 0; scale_y carries the mirror's sign; shear within
    (-pi/2, pi/2] for any matrix whose axes are not parallel."""
    a, b, c, d = (np.asarray(v, dtype=float) for v in (a, b, c, d))
    rotation = np.arctan2(c, a)
    sx = np.hypot(a, c)
    mirrored = a * d - b * c < 0
    sy = np.where(mirrored, -1.0, 1.0) * np.hypot(b, d)
    # The y axis with the mirror taken out, measured from 90 degrees past the x axis.
    yx, yy = np.where(mirrored, -b, b), np.where(mirrored, -d, d)
    shear = np.arctan2(yy, yx) - rotation - math.pi / 2
    shear = -np.remainder(-shear + math.pi, 2 * math.pi) + math.pi  # into (-pi, pi]
    return rotation, sx, sy, shear


def world_table(bake: Bake) -> CurveTable:
    """The world table of ``bake``; ExportError if a value is not finite."""
    frames = np.asarray(bake.frames, dtype=float)
    whole = bool(np.all(frames == np.round(frames)))
    columns, kinds, data = ["frame", "time_s"], ["frame" if whole else "subframe", "time"], [frames, bake.time_s]
    for name, bb in zip(bake.bones, bake.bone_bakes):
        w = bb.world
        n = frames.shape[0]
        stretch = np.broadcast_to(bb.stretch, (n,))
        a, c = np.broadcast_to(w.a, (n,)) * stretch, np.broadcast_to(w.c, (n,)) * stretch
        rotation, sx, sy, shear = decompose(a, np.broadcast_to(w.b, (n,)), c, np.broadcast_to(w.d, (n,)))
        values = (np.broadcast_to(w.tx, (n,)), np.broadcast_to(w.ty, (n,)), np.degrees(rotation), sx, sy,
                  np.degrees(shear))
        for (suffix, kind), v in zip(CHANNELS, values):
            columns.append(f"{name}.{suffix}")
            kinds.append(kind)
            data.append(v)
    table = np.column_stack(data) if frames.shape[0] else np.empty((0, len(columns)))
    bad = ~np.isfinite(table)
    if bad.any():
        row, col = (int(i) for i in np.argwhere(bad)[0])
        raise ExportError(None, [f"{columns[col]}: not finite at frame {frames[row]:g} "
                                 f"({table[row, col]}); nothing was written"])
    return CurveTable(tuple(columns), tuple(kinds), table, "deg")


def world_csv(bake: Bake) -> bytes:
    """The CSV text of ``bake``'s world poses as bytes."""
    table = world_table(bake)
    head = _io.StringIO()
    csv.writer(head, lineterminator="\n").writerow(table.columns)
    return head.getvalue().encode("utf-8") + fixed_rows(table.data, [DECIMALS[k] for k in table.kinds])


def export_world_csv(project, bake: Bake, path) -> None:
    """Write the world poses of ``bake`` to ``path`` atomically."""
    try:
        data = world_csv(bake)
    except ExportError as exc:
        raise ExportError(Path(path), exc.problems) from None
    export_write(path, data)
