"""Image files of the artwork: where they are, whether they exist, their pixels.

Paths in a project are relative to the project file's folder with "/" separators.
Pillow is imported lazily (only the commands that read pixels load it).
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from rigeditor.io.errors import ProjectFileError
from rigeditor.model.data.project import Project
from rigeditor.model.data.shapes import is_shape


def image_file(base: Path, rel: str) -> Path:
    """The file an attachment path names, for a project in folder ``base``."""
    return Path(base) / Path(*rel.split("/"))


def missing_images(project: Project, base) -> list[str]:
    """One line per attachment whose image file is not there: ``where: what``."""
    out = []
    for i, slot in enumerate(project.art.slots):
        for k, a in enumerate(slot.attachments):
            if is_shape(a):
                continue  # no picture
            for where, path in _pictures(a, f"slots[{i}].attachments[{k}]"):
                if not image_file(base, path).is_file():
                    out.append(f"{where}: image not found: {path} "
                               f"(slot {slot.name!r} draws a placeholder; the reference is kept)")
    return out


MAX_SIDE = 8192
MAX_PIXELS = MAX_SIDE * MAX_SIDE
"""Largest picture read, in pixels (8192 x 8192 = 67 Mpx, 256 MB as RGBA): under
Pillow's decompression-bomb warning (89 Mpx) and within what Qt allocates for an
image, so neither refuses (or warns on stderr) what validation passed."""

_PNG = b"\x89PNG\r\n\x1a\n"


def declared_size(path) -> tuple[int, int] | None:
    """(width, height) a PNG's header declares, read without decoding; None if not a PNG."""
    import struct

    try:
        with open(path, "rb") as f:
            head = f.read(24)
    except OSError:
        return None
    if len(head) == 24 and head.startswith(_PNG) and head[12:16] == b"IHDR":
        return struct.unpack(">II", head[16:24])
    return None


def size_problem(width: int, height: int) -> str | None:
    """``image: ...`` when a picture of that size is beyond :data:`MAX_PIXELS`."""
    if width * height > MAX_PIXELS:
        return (f"image: {width} x {height} pixels is more than RigEditor reads "
                f"(at most {MAX_PIXELS:,} pixels, {MAX_SIDE} x {MAX_SIDE})")
    return None


def read_rgba(path) -> np.ndarray:
    """The image at ``path`` as (height, width, 4) uint8 RGBA (straight alpha).

    Raises ProjectFileError(path, ["image: ..."]) when it is missing, not a readable
    image, or larger than :data:`MAX_PIXELS` (checked from the header, before decoding).
    """
    import warnings

    from PIL import Image, UnidentifiedImageError

    size = declared_size(path)
    too_big = size_problem(*size) if size else None
    if too_big:
        raise ProjectFileError(path, [too_big])
    try:
        with warnings.catch_warnings():
            # Pillow warns (on stderr) between 89 and 179 Mpx and raises beyond: a refusal here.
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as img:
                too_big = size_problem(*img.size)
                if too_big:
                    raise ProjectFileError(path, [too_big])
                img.load()
                return np.asarray(img.convert("RGBA")).copy()
    except FileNotFoundError:
        raise ProjectFileError(path, ["image: file not found"]) from None
    except (Image.DecompressionBombWarning, Image.DecompressionBombError) as exc:
        raise ProjectFileError(path, [f"image: too large to read ({exc})"]) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise ProjectFileError(path, [f"image: not a readable PNG ({exc})"]) from None


def encode_png(rgba: np.ndarray) -> bytes:
    """PNG bytes of an (H, W, 4) uint8 image."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(rgba), "RGBA").save(buf, format="PNG", optimize=False)
    return buf.getvalue()


def _pictures(a, where: str) -> list[tuple[str, str]]:
    """[(where, path)] of every picture attachment ``a`` shows (a sequence: each frame's)."""
    if a.sequence is None:
        return [(f"{where}.path", a.path)]
    return [(f"{where}.sequence.paths[{k}]", p) for k, p in enumerate(a.sequence.paths)]


def image_problems(project: Project, base) -> list[str]:
    """Missing images, then images that exist but cannot be read, one line each."""
    out = missing_images(project, base)
    for i, slot in enumerate(project.art.slots):
        for k, a in enumerate(slot.attachments):
            for where, path in ([] if is_shape(a) else _pictures(a, f"slots[{i}].attachments[{k}]")):
                file = image_file(base, path)
                if file.is_file():
                    try:
                        read_rgba(file)
                    except ProjectFileError as exc:
                        out.append(f"{where}: {path}: {exc.problems[0]}")
    return out


def alpha_masks(project: Project, base, threshold: int = 128) -> dict:
    """{(slot, attachment): (rows, cols) bool, alpha >= threshold}; images that are
    missing or unreadable are left out (the crack check takes their rectangle)."""
    out = {}
    for slot in project.art.slots:
        for a in slot.attachments:
            if is_shape(a):
                continue
            try:
                out[(slot.name, a.name)] = read_rgba(image_file(base, a.path))[..., 3] >= threshold
            except ProjectFileError:
                pass
    return out


def copy_pictures(project: Project, source, target) -> tuple[Project, list[str]]:
    """The pictures ``project`` refers to (relative to folder ``source``) made available
    to a project saved into folder ``target`` (Save As of an example or into another
    folder). Returns the project to save, its paths rewritten where a picture went
    elsewhere, and the paths (new ones) that were copied. See :func:`plan_pictures`;
    :func:`save_with_pictures` writes the copies and the project as one."""
    import shutil

    project, copies = plan_pictures(project, source, target)
    for dst, src in copies.items():
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
    return project, [Path(os.path.relpath(d, target)).as_posix() for d in copies]


def plan_pictures(project: Project, source, target) -> tuple[Project, dict[Path, Path]]:
    """What :func:`copy_pictures` would copy, changing nothing: the project to save and
    {new file: picture it copies}.

    A picture inside ``source`` keeps its relative path; one outside it (a ``../``
    path) goes to ``FOLDER/NAME`` in ``target`` (its own folder's name). A file already
    there with the same bytes is used; one with different bytes is never overwritten
    nor used: the picture gets a free name (``hand-2.png``). A picture missing at the
    source keeps its path (the document draws a placeholder either way)."""
    source, target = Path(source), Path(target)
    if source.resolve() == target.resolve():
        return project, {}
    moved, copies = {}, {}
    for rel in dict.fromkeys(p for s in project.art.slots for a in s.attachments if not is_shape(a)
                             for p in (a.path,) + (a.sequence.paths if a.sequence is not None else ())):
        src = image_file(source, rel).resolve()
        if not src.is_file():
            continue
        inside = src.is_relative_to(source.resolve())
        new = src.relative_to(source.resolve()).as_posix() if inside else f"{src.parent.name}/{src.name}"
        new, fresh = _free_place(target, new.lstrip("/"), src, taken=copies)
        if fresh:
            copies[image_file(target, new)] = src
        if new != rel:
            moved[rel] = new
    return _with_paths(project, moved), copies


def save_with_pictures(project: Project, path, source) -> Project:
    """Save ``project`` to ``path`` with the copies of its pictures (from folder
    ``source``, see :func:`plan_pictures`) beside it, all together or nothing: a full
    disk leaves neither a pictures folder nor a half-copied picture. Returns the
    project as saved (its picture paths may have changed)."""
    from rigeditor.io.atomic import write_files
    from rigeditor.io.project_file import dumps_project

    path = Path(path)
    project, copies = plan_pictures(project, source, path.parent)
    files = {path: dumps_project(project, path).encode("utf-8")}
    for dst, src in copies.items():
        try:
            files[dst] = src.read_bytes()
        except OSError as exc:
            raise ProjectFileError(path, [f"save: picture {src}: {exc.strerror or exc} (nothing was written)"]) from None
    # Folders are made only for the pictures' copies (a missing project folder stays an error).
    write_files(files, error=ProjectFileError, action="save", make_folders=path.parent.is_dir())
    return project


def _free_place(target: Path, rel: str, src: Path, taken=None) -> tuple[str, bool]:
    """(path in ``target`` for picture ``src``, whether it must be copied there): ``rel``
    unless a different file holds it (or is planned there: ``taken``, {file: picture}),
    else ``rel`` with -2, -3 ... before the suffix."""
    taken = taken or {}
    stem, dot, suffix = rel.rpartition(".")
    stem, suffix = (stem, dot + suffix) if stem and "/" not in suffix else (rel, "")
    n = 1
    while True:
        cand = rel if n == 1 else f"{stem}-{n}{suffix}"
        dst = image_file(target, cand)
        if dst in taken:
            if taken[dst] == src or _same_bytes(taken[dst], src):
                return cand, False
            n += 1
            continue
        if not dst.exists():
            return cand, True
        if dst.is_file() and (dst.resolve() == src or _same_bytes(dst, src)):
            return cand, False
        n += 1


def _same_bytes(a: Path, b: Path) -> bool:
    import filecmp

    return filecmp.cmp(a, b, shallow=False)


def _with_paths(project: Project, moved: dict) -> Project:
    """``project`` with attachment paths renamed by ``moved`` (old -> new)."""
    if not moved:
        return project
    from dataclasses import replace

    def renamed(a):
        seq = a.sequence and replace(a.sequence, paths=tuple(moved.get(p, p) for p in a.sequence.paths))
        return replace(a, path=moved.get(a.path, a.path), sequence=seq)

    slots = tuple(replace(s, attachments=tuple(renamed(a) for a in s.attachments)) for s in project.art.slots)
    return replace(project, art=replace(project.art, slots=slots))
