"""Read a Spine texture atlas (the libGDX-based text format) and cut its regions out
of the page images as whole pictures.

Format: pages separated by blank lines; a page starts with its image file name and
``key: values`` lines (size, format, filter, repeat, pma); then regions, each a name
followed by indented or plain ``key: values`` lines: ``bounds: x,y,w,h`` (or the older
``xy`` + ``size``), ``offsets: ox,oy,origW,origH`` (or ``offset`` + ``orig``),
``rotate: true|false|90`` and ``index``. Page pixels are y down; ``w, h`` are the
region's size as drawn (before rotation); a rotated region occupies ``h x w`` page
pixels, turned 90 degrees counter-clockwise. ``offsets`` place the packed (trimmed)
pixels in the original image: ``ox`` from its left, ``oy`` from its *bottom*.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from rigeditor.io.spine.skeleton import SpineError


@dataclass(frozen=True)
class AtlasRegion:
    name: str
    page: int
    x: int
    y: int
    width: int
    height: int
    offset_x: int = 0
    offset_y: int = 0
    original_width: int = 0
    original_height: int = 0
    degrees: int = 0
    index: int = -1


@dataclass(frozen=True)
class Atlas:
    pages: tuple[str, ...]  # image file names, relative to the atlas
    pma: tuple[bool, ...]  # premultiplied alpha per page
    regions: dict = field(default_factory=dict)  # name -> AtlasRegion (first with that name)


def read_atlas(path) -> Atlas:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise SpineError(path, ["atlas: file not found (pass the atlas with --atlas)"]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SpineError(path, [f"atlas: cannot read it ({getattr(exc, 'strerror', None) or exc})"]) from None
    return parse_atlas(text, path)


def parse_atlas(text: str, path=None) -> Atlas:
    pages, pma, regions = [], [], {}
    lines = text.splitlines()
    i, n = 0, len(lines)
    page = None
    # Header entries (before the first page) are skipped, as the runtimes do.
    while i < n and not lines[i].strip():
        i += 1
    while i < n and ":" in lines[i]:
        i += 1
    while i < n:
        line = lines[i]
        if not line.strip():
            page, i = None, i + 1
            continue
        if page is None:
            page = len(pages)
            pages.append(line.strip())
            pma.append(False)
            i += 1
            while i < n and ":" in lines[i]:
                key, values = _entry(lines[i])
                if key == "pma":
                    pma[page] = values[:1] == ["true"]
                i += 1
            continue
        name = line.strip()
        fields = {}
        i += 1
        while i < n and ":" in lines[i] and lines[i].strip():
            key, values = _entry(lines[i])
            fields[key] = values
            i += 1
        region = _region(name, page, fields, path, i)
        regions.setdefault(name, region)
    if not pages:
        raise SpineError(path, ["atlas: no pages (not a Spine atlas)"])
    return Atlas(tuple(pages), tuple(pma), regions)


def _entry(line: str) -> tuple[str, list[str]]:
    key, _, rest = line.partition(":")
    return key.strip(), [v.strip() for v in rest.split(",")]


def _ints(fields, key, count, where, line):
    values = fields.get(key)
    if values is None:
        return None
    try:
        out = [int(v) for v in values]
    except ValueError:
        out = []
    if len(out) != count:
        raise SpineError(where, [f"atlas line {line}: {key}: must be {count} integers, got {','.join(values)!r}"])
    return out


def _region(name, page, fields, path, line) -> AtlasRegion:
    bounds = _ints(fields, "bounds", 4, path, line)
    if bounds is None:
        xy, size = _ints(fields, "xy", 2, path, line), _ints(fields, "size", 2, path, line)
        if xy is None or size is None:
            raise SpineError(path, [f"atlas: region {name!r} has no bounds"])
        bounds = xy + size
    offsets = _ints(fields, "offsets", 4, path, line)
    if offsets is None:
        offsets = (_ints(fields, "offset", 2, path, line) or [0, 0]) + (_ints(fields, "orig", 2, path, line) or [0, 0])
    if offsets[2] == 0 and offsets[3] == 0:
        offsets[2], offsets[3] = bounds[2], bounds[3]
    rotate = (fields.get("rotate") or ["false"])[0]
    degrees = 90 if rotate == "true" else 0 if rotate == "false" else int(rotate) if rotate.lstrip("-").isdigit() else 0
    if degrees not in (0, 90) or min(bounds[2:]) <= 0:
        raise SpineError(path, [f"atlas: region {name!r}: unsupported rotation {rotate!r} or empty bounds"])
    index = (_ints(fields, "index", 1, path, line) or [-1])[0]
    return AtlasRegion(name, page, *bounds, *offsets, degrees, index)


def cut_region(page_rgba: np.ndarray, region: AtlasRegion, pma: bool = False) -> np.ndarray:
    """The region's whole original picture (original_height, original_width, 4) uint8,
    straight alpha: its packed pixels un-rotated and put back at their offsets in a
    transparent canvas (the whitespace packing trimmed)."""
    w, h = region.width, region.height
    if region.degrees == 90:
        packed = page_rgba[region.y:region.y + w, region.x:region.x + h]
        packed = np.rot90(packed, k=-1)  # stored turned counter-clockwise: turn it back
    else:
        packed = page_rgba[region.y:region.y + h, region.x:region.x + w]
    if packed.shape[:2] != (h, w):
        raise ValueError(f"region {region.name!r} lies outside its page")
    if pma:
        packed = _unpremultiply(packed)
    ow, oh = max(region.original_width, w), max(region.original_height, h)
    out = np.zeros((oh, ow, 4), dtype=np.uint8)
    top = oh - region.offset_y - h
    if top < 0 or region.offset_x < 0 or region.offset_x + w > ow:
        raise ValueError(f"region {region.name!r}: offsets place it outside its original size")
    out[top:top + h, region.offset_x:region.offset_x + w] = packed
    return out


def _unpremultiply(rgba: np.ndarray) -> np.ndarray:
    out = rgba.astype(np.float64)
    a = out[..., 3:4]
    out[..., :3] = np.where(a > 0, np.minimum(out[..., :3] * 255.0 / np.maximum(a, 1.0), 255.0), 0.0)
    return np.rint(out).astype(np.uint8)


__all__ = ["Atlas", "AtlasRegion", "read_atlas", "parse_atlas", "cut_region"]
