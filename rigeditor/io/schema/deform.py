"""Deform keys in the project file (optional, added after schema_version 6; a file
without them reads unchanged): per mesh attachment, keyed vertex offsets in model
units. docs/file-format.md describes every field."""
from __future__ import annotations

from typing import Literal, Optional

from rigeditor.io.schema.art import Four
from rigeditor.io.schema.project import KeyTime, Str, Vec2, _Model


class DeformKey(_Model):
    frame: KeyTime
    # per vertex, per influence (one for an unweighted mesh, the mesh's four padded
    # influences for a weighted one): [dx, dy]
    offsets: list[list[Vec2]]
    interpolation: Literal["linear", "stepped", "bezier"] = "linear"
    curve: Optional[Four] = None  # bezier: [u1, v1, u2, v2] in the segment's unit square


class DeformTrack(_Model):
    slot: Str
    attachment: Str
    skin: Str = ""
    keys: list[DeformKey] = []
