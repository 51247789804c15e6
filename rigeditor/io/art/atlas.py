"""Texture atlas for the Spine export: a shelf packer and Spine's atlas text (the
libGDX-based format the official runtimes read).

Packing: images sorted by height (tallest first) fill rows ("shelves") left to right
on pages of at most ``max_size`` x ``max_size`` pixels (2048 by default; 4096 is the
usual upper limit of mobile GPUs), ``padding`` transparent pixels (2 by default)
around every image so linear filtering never bleeds a neighbour in. Images are not
rotated or trimmed (the importers already trim to the alpha bounds). A page is cropped
to what it uses.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MAX_PAGE = 2048
PADDING = 2


@dataclass(frozen=True)
class Placed:
    """Where an image went: page index, top-left pixel (x, y down), size."""

    page: int
    x: int
    y: int
    width: int
    height: int


def shelf_pack(sizes: list[tuple[int, int]], max_size: int = MAX_PAGE,
               padding: int = PADDING) -> tuple[list[Placed], list[tuple[int, int]]]:
    """Place images of ``sizes`` (width, height); returns (placements in input order,
    page sizes). ValueError when an image cannot fit on a page."""
    room = max_size - 2 * padding
    for k, (w, h) in enumerate(sizes):
        if w > room or h > room:
            raise ValueError(f"image {k} is {w}x{h} pixels: larger than an atlas page "
                             f"({max_size}x{max_size} with {padding} px padding)")
    order = sorted(range(len(sizes)), key=lambda k: (-sizes[k][1], -sizes[k][0], k))
    placed: list[Placed | None] = [None] * len(sizes)
    pages: list[list[int]] = []  # per page: [used width, used height]
    page, x, y, shelf = -1, 0, 0, 0
    for k in order:
        w, h = sizes[k]
        if page >= 0 and x + w + padding > max_size:  # next shelf
            x, y, shelf = padding, y + shelf + padding, 0
        if page < 0 or y + h + padding > max_size:  # next page
            page, x, y, shelf = page + 1, padding, padding, 0
            pages.append([0, 0])
        placed[k] = Placed(page, x, y, w, h)
        pages[page][0] = max(pages[page][0], x + w + padding)
        pages[page][1] = max(pages[page][1], y + h + padding)
        x += w + padding
        shelf = max(shelf, h)
    return [p for p in placed], [(w, h) for w, h in pages]


def compose_pages(images: list[np.ndarray], placed: list[Placed], pages) -> list[np.ndarray]:
    """The page images (H, W, 4) uint8 with every image copied to its place."""
    out = [np.zeros((h, w, 4), dtype=np.uint8) for w, h in pages]
    for img, p in zip(images, placed):
        out[p.page][p.y:p.y + p.height, p.x:p.x + p.width] = img
    return out


def atlas_text(page_names: list[str], pages, regions: list[tuple[str, Placed]]) -> str:
    """Spine atlas text: per page its header, then its regions (name, bounds)."""
    lines: list[str] = []
    for index, (name, (w, h)) in enumerate(zip(page_names, pages)):
        if lines:
            lines.append("")
        lines += [name, f"size: {w},{h}", "format: RGBA8888", "filter: Linear,Linear", "repeat: none",
                  "pma: false"]
        for region, p in regions:
            if p.page == index:
                lines += [region, f"bounds: {p.x},{p.y},{p.width},{p.height}"]
    return "\n".join(lines) + "\n"
