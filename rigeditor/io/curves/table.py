"""The angle-curve table every curve export writes: one row per baked frame.

Columns: ``frame``, ``time_s``, then per bone ``<bone>.rotation_deg`` (the local
rotation relative to the parent, unwrapped along the frames so it never jumps by a
turn), then per chain ``<chain>.residual`` (model units), ``<chain>.limited`` (0/1)
and ``<chain>.sensitivity_deg_per_unit``. With ``radians=True`` angles are radians and
the suffixes read ``.rotation_rad`` and ``.sensitivity_rad_per_unit``. Bones in the
Bake's order (parents first), chains in the Bake's order. Read from the Bake only.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rigeditor.core.geometry import unwrap
from rigeditor.io.errors import ExportError
from rigeditor.model.evaluation.bake import Bake

DECIMALS = {"frame": 0, "subframe": 6, "time": 6, "deg": 6, "rad": 9, "residual": 6, "flag": 0}
"""Decimals written per kind of column (1e-6 degree, 1e-9 radian, 1e-6 model unit; a
frame column is written whole unless a sample falls between frames)."""


@dataclass(frozen=True)
class CurveTable:
    """columns: names; kinds: per column one of DECIMALS' keys; data: (N, C) floats."""

    columns: tuple[str, ...]
    kinds: tuple[str, ...]
    data: np.ndarray
    angle_unit: str  # "deg" or "rad"

    def column(self, name: str) -> np.ndarray:
        return self.data[:, self.columns.index(name)]


def curve_table(bake: Bake, *, radians: bool = False) -> CurveTable:
    """The table of ``bake``; ExportError if a value is not finite (nothing to write)."""
    unit = "rad" if radians else "deg"
    per_rad = 1.0 if radians else 180.0 / math.pi
    # Frames between frames (``bake --fps``) keep their fraction.
    whole = bool(np.all(bake.frames == np.round(bake.frames)))
    columns, kinds, data = ["frame", "time_s"], ["frame" if whole else "subframe", "time"], [bake.frames, bake.time_s]
    rotation = unwrap(bake.local_rotation, axis=0) * per_rad
    for k, bone in enumerate(bake.bones):
        columns.append(f"{bone}.rotation_{unit}")
        kinds.append(unit)
        data.append(rotation[:, k])
    for name, cb in bake.chains.items():
        # ChainBake.sensitivity is in degrees per model unit.
        columns += [f"{name}.residual", f"{name}.limited", f"{name}.sensitivity_{unit}_per_unit"]
        kinds += ["residual", "flag", unit]
        data += [cb.residual, cb.limited.astype(float), cb.sensitivity * (per_rad * math.pi / 180.0)]
    table = np.column_stack(data) if data[0].shape[0] else np.empty((0, len(columns)))
    bad = ~np.isfinite(table)
    if bad.any():
        row, col = (int(i) for i in np.argwhere(bad)[0])
        raise ExportError(None, [f"{columns[col]}: not finite at frame {bake.frames[row]:g} "
                                 f"({table[row, col]}); nothing was written"])
    return CurveTable(tuple(columns), tuple(kinds), table, unit)

