"""``rigeditor import-psd ART.psd -o PROJECT.rigproj``: a layered picture becomes a project.

Every visible pixel layer becomes a PNG in ``PROJECT_art/`` beside the project,
trimmed to its alpha bounds and placed exactly where it sits in the document; slots
follow the document's draw order (bottom layer at the back); a layer inside groups
is named "group/sub/layer". A layer's opacity (times its groups') becomes the
attachment's opacity. Blend modes, masks and layer effects are not applied (a rig
moves the layers apart, so the document's composite cannot be kept anyway); hidden
layers and empty layers are skipped. psd-tools is imported only here.
"""
from __future__ import annotations

from pathlib import Path

from rigeditor.io.art.images import encode_png, size_problem
from rigeditor.io.art.layers import (
    ImportError_, Layer, file_stem, layers_project, refuse_existing, trim, unique_names, write_import,
)


PSD_MAGIC = b"8BPS"
"""The first four bytes of every PSD (and PSB) file."""
_OTHER_KINDS = (
    (b"\x89PNG\r\n\x1a\n", "a PNG picture"), (b"\xff\xd8\xff", "a JPEG picture"), (b"GIF8", "a GIF picture"),
    (b"II*\x00", "a TIFF picture"), (b"MM\x00*", "a TIFF picture"), (b"BM", "a BMP picture"),
    (b"%PDF", "a PDF document"), (b"PK\x03\x04", "a ZIP archive"),
)


def _refuse_other_kinds(path: Path) -> None:
    """Refuse, by its first bytes, a file that is not a PSD, saying what it is; a PNG
    points to import-images, the way in for single pictures."""
    try:
        with open(path, "rb") as f:
            head = f.read(16)
    except FileNotFoundError:
        raise ImportError_(path, ["open: file not found"]) from None
    except IsADirectoryError:
        raise ImportError_(path, ["open: this is a folder, not a PSD file (a folder of PNGs: "
                                  "Import Images, rigeditor import-images)"]) from None
    except OSError as exc:
        raise ImportError_(path, [f"open: {exc.strerror or exc}"]) from None
    if head.startswith(PSD_MAGIC):
        return
    kind = next((what for magic, what in _OTHER_KINDS if head.startswith(magic)), None)
    if kind is None and head[8:12] == b"WEBP" and head.startswith(b"RIFF"):
        kind = "a WebP picture"
    if kind is None:
        why = "the file is empty" if not head else "it does not start with 8BPS, as every PSD does"
        raise ImportError_(path, [f"open: not a readable PSD file ({why})"])
    hint = ("; PNG pictures are imported with Import Images (rigeditor import-images DIR: a folder of PNGs, "
            "one slot each)" if "PNG" in kind else "; Import PSD reads Photoshop .psd and .psb files")
    raise ImportError_(path, [f"open: this is {kind}, not a PSD file{hint}"])


def read_psd_layers(path: Path):
    """[(name, rgba, left, top, opacity)] back to front, and the canvas (width, height).
    A file that is not a PSD is refused by its first bytes, saying what it is."""
    _refuse_other_kinds(path)
    from psd_tools import PSDImage  # lazily: 0.6 s to import

    import numpy as np

    try:
        psd = PSDImage.open(path)
    except FileNotFoundError:
        raise ImportError_(path, ["open: file not found"]) from None
    except IsADirectoryError:
        raise ImportError_(path, ["open: this is a folder, not a PSD file"]) from None
    except Exception as exc:  # psd-tools raises many kinds on damaged input
        raise ImportError_(path, [f"open: not a readable PSD file ({type(exc).__name__}: {exc})"]) from None
    out = []

    def walk(group, prefix, opacity):
        for layer in group:  # bottom to top: the draw order
            if not layer.visible:
                continue
            alpha = opacity * layer.opacity / 255.0
            if layer.is_group():
                walk(layer, f"{prefix}{layer.name}/", alpha)
                continue
            if layer.kind != "pixel":
                continue
            too_big = size_problem(int(layer.width), int(layer.height))
            if too_big:  # before decoding: Pillow would warn or refuse it mid-way
                raise ImportError_(path, [f"layer {prefix}{layer.name!r}: {too_big.removeprefix('image: ')}"])
            try:
                image = layer.topil()
            except Exception as exc:
                raise ImportError_(path, [f"layer {prefix}{layer.name!r}: cannot read its pixels "
                                          f"({type(exc).__name__}: {exc})"]) from None
            if image is None:
                continue
            rgba = np.asarray(image.convert("RGBA"))
            out.append((f"{prefix}{layer.name}", rgba, int(layer.left), int(layer.top), alpha))

    try:
        walk(psd, "", 1.0)
    except ImportError_:
        raise
    except Exception as exc:
        raise ImportError_(path, [f"layers: not a readable PSD file ({type(exc).__name__}: {exc})"]) from None
    return out, (int(psd.width), int(psd.height))


def art_folder(out) -> Path:
    """Where the pictures of a project imported to ``out`` go: ``PROJECT_art/`` beside it."""
    out = Path(out)
    return out.with_name(f"{out.stem}_art")


def import_psd(psd_path, out, *, force: bool = False) -> Path:
    """Import ``psd_path`` into a new project at ``out``; returns the images' folder."""
    psd_path, out = Path(psd_path), Path(out)
    folder = art_folder(out)
    refuse_existing([out, folder], force)
    raw, (_, height) = read_psd_layers(psd_path)
    layers, pngs = [], {}
    names = unique_names([name for name, *_ in raw])
    stems = unique_names([file_stem(n).lower() for n in names])  # one file per layer, any file system
    for name, stem, (_, rgba, left, top, opacity) in zip(names, stems, raw):
        cut = trim(rgba)
        if cut is None:
            continue
        pixels, dx, dy = cut
        file = f"{stem}.png"
        pngs[file] = encode_png(pixels)
        layers.append(Layer(name, f"{folder.name}/{file}", pixels.shape[1], pixels.shape[0], left + dx, top + dy,
                            round(opacity, 6)))
    if not layers:
        raise ImportError_(psd_path, ["layers: no visible pixel layer to import"])
    write_import(layers_project(out.stem, layers, height), out, folder, pngs)
    return folder
