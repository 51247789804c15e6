"""What the importers share: layers in document pixels -> a project of unbound slots,
and writing it (PNGs and the project) so a failure leaves nothing half written.

Coordinates: a layer's ``left``/``top`` are document pixels (y down, as image editors
show them). The project is y-up with the document's bottom-left corner at the origin:
a layer's centre lands at (left + w/2, canvas_height - top - h/2), so one document
pixel is one model unit and the picture looks the same in the editor.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rigeditor.io.atomic import write_files
from rigeditor.io.errors import ProjectFileError
from rigeditor.io.project_file import dumps_project
from rigeditor.model.data.attachments import Art, ImageAttachment, Slot
from rigeditor.model.data.project import Project
from rigeditor.model.data.timeline import StepChannel


class ImportError_(ProjectFileError):
    """Input that cannot be imported (nothing was written)."""


@dataclass(frozen=True)
class Layer:
    """One picture: name (groups as "group/name"), its file path relative to the project
    once written, size in pixels, top-left in document pixels (y down), opacity [0, 1]."""

    name: str
    path: str
    width: int
    height: int
    left: int
    top: int
    opacity: float = 1.0


def trim(rgba: np.ndarray) -> tuple[np.ndarray, int, int] | None:
    """The image cut to its alpha bounds and the cut's top-left (x, y); None if empty."""
    alpha = rgba[..., 3] > 0
    rows, cols = np.flatnonzero(alpha.any(axis=1)), np.flatnonzero(alpha.any(axis=0))
    if rows.size == 0:
        return None
    y0, y1, x0, x1 = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    return rgba[y0:y1, x0:x1], int(x0), int(y0)


def unique_names(names: list[str], *, ignore_case: bool = False) -> list[str]:
    """Names made unique by a "_2", "_3"... suffix (first one unchanged).
    ignore_case: "Run" and "run" clash too (file names on Windows and macOS)."""
    seen: set[str] = set()
    out = []
    for name in names:
        candidate, n = name or "layer", 1
        while (candidate.casefold() if ignore_case else candidate) in seen:
            n += 1
            candidate = f"{name}_{n}"
        seen.add(candidate.casefold() if ignore_case else candidate)
        out.append(candidate)
    return out


def file_stem(name: str) -> str:
    """A file name for a layer name: groups joined by "-", odd characters as "_"."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name.replace("/", "-")).strip("._") or "layer"


def layers_project(name: str, layers: list[Layer], canvas_height: float) -> Project:
    """A project whose slots (back to front as ``layers``) hold one picture each, not
    bound to a bone (they ride the character space), placed as in the document."""
    slots = []
    for layer in layers:
        x = layer.left + layer.width / 2.0
        y = canvas_height - layer.top - layer.height / 2.0
        image = ImageAttachment(layer.name, layer.path, float(layer.width), float(layer.height), x=x, y=y,
                                opacity=float(layer.opacity))
        slots.append(Slot(layer.name, None, (image,), StepChannel(layer.name)))
    return Project(name=name, art=Art(tuple(slots)))


def refuse_existing(paths: list[Path], force: bool) -> None:
    """Nothing is overwritten without --force."""
    for p in paths:
        if p.exists() and not force:
            raise ImportError_(p, ["-o: already exists; choose another name or pass --force to replace it"])


def write_import(project: Project, out: Path, folder: Path | None, pngs: dict[str, bytes]) -> None:
    """Write the project to ``out`` and ``pngs`` ({file name: bytes}) into ``folder``,
    all together or nothing (``atomic.write_files``): each file goes to a temporary file
    beside its own target, so no rename crosses a file system even when the pictures'
    folder is a mount or a link to another disk (``--force`` used to replace the project,
    then fail moving the pictures across). Missing folders are created, and removed
    again when anything fails; the error says why."""
    text = dumps_project(project, out).encode("utf-8")
    files = {out: text, **{folder / name: data for name, data in (pngs.items() if folder is not None else ())}}
    write_files(files, error=ImportError_, action="write", make_folders=True)


def relative(path: Path, base: Path) -> str:
    """``path`` relative to folder ``base`` with "/" separators."""
    return Path(os.path.relpath(path.resolve(), base.resolve())).as_posix()
