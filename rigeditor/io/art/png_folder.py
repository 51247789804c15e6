"""``rigeditor import-images DIR -o PROJECT.rigproj``: a folder of PNGs becomes a project.

The PNGs stay where they are; the project refers to them relative to itself. Where
each goes comes from the sidecar ``DIR/layout.json`` when there is one:

    {
      "canvas": {"width": 1024, "height": 768},            (optional)
      "layers": [                                           (back to front)
        {"file": "torso.png", "x": 412, "y": 120},          (top-left pixel, y down)
        {"file": "arm/hand.png", "x": 600, "y": 300, "name": "hand"}
      ]
    }

``x``, ``y``: the image's top-left corner in canvas pixels, y down (as image editors and
their export scripts write it). ``name``: the slot's name (default: the file name
without ".png"). ``canvas.height`` sets where y flips (default: the lowest layer's
bottom edge). PNGs of the folder not listed follow the listed ones, in name order,
side by side. Without a sidecar every PNG is laid out side by side, left to right in
name order, tops aligned, 16 px apart.
"""
from __future__ import annotations

import math
from pathlib import Path

from rigeditor.io import json_limits
from rigeditor.io.art.images import read_rgba
from rigeditor.io.art.layers import (
    ImportError_, Layer, layers_project, refuse_existing, relative, unique_names, write_import,
)

SIDECAR = "layout.json"
GAP = 16


def import_images(folder, out, *, force: bool = False) -> None:
    """Import the PNGs of ``folder`` into a new project at ``out`` (only the project is written)."""
    folder, out = Path(folder), Path(out)
    if not folder.is_dir():
        raise ImportError_(folder, ["open: not a folder of PNG images"])
    refuse_existing([out], force)
    placed, height = _sidecar(folder) if (folder / SIDECAR).is_file() else ([], None)
    listed = {p["file"] for p in placed}
    rest = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.png")
                  if p.relative_to(folder).as_posix() not in listed)
    if not placed and not rest:
        raise ImportError_(folder, ["open: no PNG images in this folder"])
    sizes = {}
    for entry in [p["file"] for p in placed] + rest:
        rgba = read_rgba(folder / entry)  # a corrupt PNG stops here, naming the file
        sizes[entry] = (rgba.shape[1], rgba.shape[0])
    x = max((p["x"] + sizes[p["file"]][0] for p in placed), default=-GAP) + GAP
    for entry in rest:
        placed.append({"file": entry, "x": x, "y": 0})
        x += sizes[entry][0] + GAP
    canvas = height if height is not None else max(p["y"] + sizes[p["file"]][1] for p in placed)
    names = unique_names([p.get("name") or p["file"][:-4] for p in placed])
    base = out.parent if str(out.parent) else Path(".")
    layers = [Layer(name, relative(folder / p["file"], base), *sizes[p["file"]], p["x"], p["y"])
              for name, p in zip(names, placed)]
    write_import(layers_project(out.stem, layers, canvas), out, None, {})


def _sidecar(folder: Path) -> tuple[list[dict], float | None]:
    """The layers the sidecar lists and its canvas height, checked; each problem says where."""
    path = folder / SIDECAR
    try:
        data = json_limits.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ImportError_(path, [f"file: not valid JSON ({exc})"]) from None
    beyond = json_limits.problem(data)
    if beyond:
        raise ImportError_(path, [beyond])
    if not isinstance(data, dict) or not isinstance(data.get("layers"), list):
        raise ImportError_(path, ['file: expected {"layers": [{"file": ..., "x": ..., "y": ...}, ...]}'])
    problems, out = [], []
    height = None
    canvas = data.get("canvas")
    if canvas is not None:
        h = canvas.get("height") if isinstance(canvas, dict) else None
        if not _number(h) or h <= 0:
            problems.append(f"canvas.height: must be a number of pixels > 0, got {h!r}")
        else:
            height = h
    for i, layer in enumerate(data["layers"]):
        where = f"layers[{i}]"
        if not isinstance(layer, dict):
            problems.append(f"{where}: must be an object")
            continue
        file = layer.get("file")
        if not isinstance(file, str) or not file.lower().endswith(".png"):
            problems.append(f"{where}.file: must name a PNG in the folder, got {file!r}")
        elif not (folder / file).is_file():
            problems.append(f"{where}.file: no such image {file!r} in {folder}")
        for key in ("x", "y"):
            if not _number(layer.get(key)):
                problems.append(f"{where}.{key}: must be a number of pixels, got {layer.get(key)!r}")
        name = layer.get("name")
        if name is not None and (not isinstance(name, str) or not name.strip()):
            problems.append(f"{where}.name: must be a non-empty name, got {name!r}")
        out.append({"file": file, "x": layer.get("x"), "y": layer.get("y"), "name": name})
    if problems:
        raise ImportError_(path, problems)
    return out, height


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
