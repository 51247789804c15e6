"""Image files of the artwork: where they are, whether they exist, their pixels.

Paths in a project are relative to the project file's folder with "/" separators.
Pillow is imported lazily (only the commands that read pixels load it).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from rigeditor.io.errors import ProjectFileError
from rigeditor.model.project import Project


def image_file(base: Path, rel: str) -> Path:
    """The file an attachment path names, for a project in folder ``base``."""
    return Path(base) / Path(*rel.split("/"))


def missing_images(project: Project, base) -> list[str]:
    """One line per attachment whose image file is not there: ``where: what``."""
    out = []
    for i, slot in enumerate(project.art.slots):
        for k, a in enumerate(slot.attachments):
            if not image_file(base, a.path).is_file():
                out.append(f"slots[{i}].attachments[{k}].path: image not found: {a.path} "
                           f"(slot {slot.name!r} draws a placeholder; the reference is kept)")
    return out


def read_rgba(path) -> np.ndarray:
    """The image at ``path`` as (height, width, 4) uint8 RGBA (straight alpha).

    Raises ProjectFileError(path, ["image: ..."]) when it is missing or not a readable image.
    """
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as img:
            img.load()
            return np.asarray(img.convert("RGBA")).copy()
    except FileNotFoundError:
        raise ProjectFileError(path, ["image: file not found"]) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise ProjectFileError(path, [f"image: not a readable PNG ({exc})"]) from None


def encode_png(rgba: np.ndarray) -> bytes:
    """PNG bytes of an (H, W, 4) uint8 image."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(rgba), "RGBA").save(buf, format="PNG", optimize=False)
    return buf.getvalue()


def image_problems(project: Project, base) -> list[str]:
    """Missing images, then images that exist but cannot be read, one line each."""
    out = missing_images(project, base)
    for i, slot in enumerate(project.art.slots):
        for k, a in enumerate(slot.attachments):
            file = image_file(base, a.path)
            if file.is_file():
                try:
                    read_rgba(file)
                except ProjectFileError as exc:
                    out.append(f"slots[{i}].attachments[{k}].path: {a.path}: {exc.problems[0]}")
    return out


def alpha_masks(project: Project, base, threshold: int = 128) -> dict:
    """{(slot, attachment): (rows, cols) bool, alpha >= threshold}; images that are
    missing or unreadable are left out (the crack check takes their rectangle)."""
    out = {}
    for slot in project.art.slots:
        for a in slot.attachments:
            try:
                out[(slot.name, a.name)] = read_rgba(image_file(base, a.path))[..., 3] >= threshold
            except ProjectFileError:
                pass
    return out


def copy_pictures(project: Project, source, target) -> list[str]:
    """Copy the pictures ``project`` refers to from folder ``source`` to folder
    ``target`` (same relative paths), so a project saved into ``target`` keeps them
    (Save As of an example or into another folder). A picture already at the target,
    or missing at the source, is left alone. Returns the paths copied."""
    import shutil

    source, target = Path(source), Path(target)
    if source.resolve() == target.resolve():
        return []
    copied = []
    for rel in dict.fromkeys(a.path for s in project.art.slots for a in s.attachments):
        src, dst = image_file(source, rel), image_file(target, rel)
        if not src.is_file() or dst.exists() or not dst.resolve().is_relative_to(target.resolve()):
            continue  # "../" paths stay where they point: nothing outside the target is written
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
        copied.append(rel)
    return copied
