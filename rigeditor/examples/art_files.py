"""The dressed arm's pictures, painted by code (no third-party art), and its files.

:func:`paint_layers` draws each layer of ``rigeditor.examples.art`` with Pillow
(shapes drawn 4x larger and scaled down, for smooth edges): a shirt torso, upper arm
and forearm as shaded capsules whose round ends overlap at the elbow, an open hand
and a fist. :func:`write_dressed_example` writes the PNGs, the project and a PSD of
the same layers (placed as in the setup pose) into a folder; the packaged example
lives in ``resources/examples/`` and a test checks it is what this builds.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from rigeditor.io.art.images import encode_png
from rigeditor.io.project_file import save_project
from rigeditor.examples.art import ART_DIR, SIZES, WALK_DIR, WALK_SIZES, dressed_arm, dressed_walk
from rigeditor.model.data.project import CHARACTER
from rigeditor.resource_files import SOURCE_RESOURCES

_SS = 4  # supersampling factor

EXAMPLES_DIR = SOURCE_RESOURCES / "examples"
"""Where the dressed examples live, each in a folder of its name with its pictures."""


def example_project(name: str) -> Path:
    """The project file of dressed example ``name`` ("dressed_arm", "dressed_walk")."""
    return EXAMPLES_DIR / name / f"{name}.rigproj"

SKIN, SKIN_DARK = (236, 188, 150), (176, 122, 92)
SHIRT, SHIRT_DARK = (72, 112, 168), (40, 66, 108)


def _canvas(w, h):
    from PIL import Image

    return Image.new("RGBA", (w * _SS, h * _SS), (0, 0, 0, 0))


def _finish(img):
    from PIL import Image

    w, h = img.size
    return np.asarray(img.resize((w // _SS, h // _SS), Image.Resampling.LANCZOS))


def _capsule(w, h, fill, edge, shade=True):
    """A limb: a rounded bar with a darker outline and a light band along its top."""
    from PIL import ImageDraw

    img = _canvas(w, h)
    d = ImageDraw.Draw(img)
    s, r = _SS, h * _SS // 2
    d.rounded_rectangle((s, s, w * s - s, h * s - s), radius=r - s, fill=edge)
    d.rounded_rectangle((3 * s, 3 * s, w * s - 3 * s, h * s - 3 * s), radius=r - 3 * s, fill=fill)
    if shade:
        light = tuple(min(255, c + 28) for c in fill)
        d.rounded_rectangle((6 * s, 5 * s, w * s - 6 * s, h * s // 2 - s), radius=r // 2, fill=light)
    return img


def paint_layers() -> dict[str, np.ndarray]:
    """{layer name: (h, w, 4) uint8 RGBA} at the sizes of ``SIZES``."""
    from PIL import ImageDraw

    out = {}
    w, h = SIZES["torso"]
    img = _canvas(w, h)
    d = ImageDraw.Draw(img)
    s = _SS
    d.rounded_rectangle((s, s, w * s - s, h * s - s), radius=18 * s, fill=SHIRT_DARK)
    d.rounded_rectangle((3 * s, 3 * s, w * s - 3 * s, h * s - 3 * s), radius=16 * s, fill=SHIRT)
    for k in range(3):  # buttons down the front
        y = (50 + 45 * k) * s
        d.ellipse((w * s // 2 - 4 * s, y - 4 * s, w * s // 2 + 4 * s, y + 4 * s), fill=SHIRT_DARK)
    out["torso"] = _finish(img)
    out["upper_arm"] = _finish(_capsule(*SIZES["upper_arm"], SHIRT, SHIRT_DARK))
    out["forearm"] = _finish(_capsule(*SIZES["forearm"], SKIN, SKIN_DARK))

    w, h = SIZES["hand_open"]
    img = _canvas(w, h)
    d = ImageDraw.Draw(img)
    d.ellipse((s, 6 * s, 30 * s, h * s - 6 * s), fill=SKIN_DARK)  # palm
    d.ellipse((3 * s, 8 * s, 28 * s, h * s - 8 * s), fill=SKIN)
    for k, y in enumerate((9, 17, 25, 33)):  # fingers, the middle ones longest
        reach = (w - 2, w - 1, w - 2, w - 6)[k]
        d.rounded_rectangle((20 * s, (y - 3) * s, reach * s, (y + 3) * s), radius=3 * s, fill=SKIN_DARK)
        d.rounded_rectangle((21 * s, (y - 2) * s, (reach - 1) * s, (y + 2) * s), radius=2 * s, fill=SKIN)
    d.rounded_rectangle((8 * s, s, 16 * s, 14 * s), radius=4 * s, fill=SKIN_DARK)  # thumb
    out["hand_open"] = _finish(img)

    w, h = SIZES["hand_fist"]
    img = _canvas(w, h)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((s, s, w * s - s, h * s - s), radius=12 * s, fill=SKIN_DARK)
    d.rounded_rectangle((3 * s, 3 * s, w * s - 3 * s, h * s - 3 * s), radius=10 * s, fill=SKIN)
    for y in (12, 20, 28):  # knuckle creases
        d.line(((w - 14) * s, y * s, (w - 4) * s, y * s), fill=SKIN_DARK, width=2 * s)
    out["hand_fist"] = _finish(img)
    return out


def paint_walk_layers() -> dict[str, np.ndarray]:
    """The dressed walk's pictures: {name: (h, w, 4) uint8} at WALK_SIZES (the far
    leg reuses the near leg's pictures, tinted darker in the project)."""
    from PIL import ImageDraw

    out = {"torso": _finish(_capsule(*WALK_SIZES["torso"], SHIRT, SHIRT_DARK)),
           "upper_arm": _finish(_capsule(*WALK_SIZES["upper_arm"], SHIRT, SHIRT_DARK)),
           "forearm": _finish(_capsule(*WALK_SIZES["forearm"], SKIN, SKIN_DARK)),
           "thigh": _finish(_capsule(*WALK_SIZES["thigh"], TROUSERS, TROUSERS_DARK))}
    w, h = WALK_SIZES["head"]
    img = _canvas(w, h)
    d = ImageDraw.Draw(img)
    s = _SS
    d.ellipse((s, s, w * s - s, h * s - s), fill=SKIN_DARK)
    d.ellipse((3 * s, 3 * s, w * s - 3 * s, h * s - 3 * s), fill=SKIN)
    # The head bone points up the neck: the picture's right edge is the top of the
    # head and its lower edge faces forward (+x in the world when standing).
    d.pieslice((s, s, w * s - s, h * s - s), -80, 60, fill=HAIR)
    d.ellipse(((w - 17) * s, (h - 11) * s, (w - 13) * s, (h - 7) * s), fill=HAIR)  # an eye
    out["head"] = _finish(img)
    # The shin ends in a shoe pointing across the bone (forward, when the leg hangs down).
    w, h = WALK_SIZES["shin"]
    img = _capsule(w - 10, 16, TROUSERS, TROUSERS_DARK)
    full = _canvas(w, h)
    full.paste(img, (0, (h - 16) * s), img)
    d = ImageDraw.Draw(full)
    d.rounded_rectangle(((w - 18) * s, s, (w - 1) * s, (h - 4) * s), radius=6 * s, fill=SHOE)
    out["shin"] = _finish(full)
    return out


TROUSERS, TROUSERS_DARK = (92, 84, 72), (58, 52, 44)
SHOE, HAIR = (48, 40, 36), (84, 56, 40)


def write_dressed_walk(folder=None) -> Path:
    """Write ``dressed_walk.rigproj`` and its PNGs (``walk_art/``) into ``folder``
    (default: the package's examples/dressed_walk); returns the project's path."""
    if folder is None:
        folder = EXAMPLES_DIR / "dressed_walk"
    folder = Path(folder)
    (folder / WALK_DIR).mkdir(parents=True, exist_ok=True)
    for name, px in paint_walk_layers().items():
        (folder / WALK_DIR / f"{name}.png").write_bytes(encode_png(px))
    path = folder / "dressed_walk.rigproj"
    save_project(dressed_walk(), path)
    return path


def write_dressed_example(folder=None, *, psd: bool = True) -> Path:
    """Write ``dressed_arm.rigproj``, its PNGs (``arm_art/``) and, with ``psd``,
    ``arm_art.psd`` into ``folder`` (default: the package's examples, without the PSD);
    returns the project's path."""
    if folder is None:
        folder, psd = EXAMPLES_DIR / "dressed_arm", False
    folder = Path(folder)
    (folder / ART_DIR).mkdir(parents=True, exist_ok=True)
    layers = paint_layers()
    for name, px in layers.items():
        (folder / ART_DIR / f"{name}.png").write_bytes(encode_png(px))
    project = dressed_arm()
    path = folder / "dressed_arm.rigproj"
    save_project(project, path)

    if psd:
        _write_psd(project, layers, folder / "arm_art.psd")
    return path


def _write_psd(project, layers, out: Path) -> None:
    from PIL import Image
    from psd_tools import PSDImage
    from psd_tools.api.layers import PixelLayer

    from rigeditor.model import evaluate

    # The PSD: each picture where the setup pose (no IK, rest rotations) puts it; the
    # arm lies straight along +x there, so every picture is upright.
    rest = evaluate(replace(project, chains=(), targets=()), [0])
    placed = {}
    for slot in project.art.slots:
        holder = (rest.spaces[CHARACTER] if slot.bone is None
                  else rest.bone(slot.bone).world)
        for a in slot.attachments:
            placed[a.name] = holder.compose(a.local()).apply(a.corners()[None])[0]
    every = np.concatenate(list(placed.values()))
    lo, hi = every.min(axis=0) - 20, every.max(axis=0) + 20
    psd = PSDImage.new("RGBA", (int(np.ceil(hi[0] - lo[0])), int(np.ceil(hi[1] - lo[1]))))
    for slot in project.art.slots:
        for a in slot.attachments:
            c = placed[a.name]
            left, top = int(round(c[:, 0].min() - lo[0])), int(round(hi[1] - c[:, 1].max()))
            layer = PixelLayer.frompil(Image.fromarray(layers[a.name], "RGBA"), psd,
                                       a.name if len(slot.attachments) > 1 else slot.name, top=top, left=left)
            layer.visible = a.name == slot.attachment.default
            psd.append(layer)
    psd.save(out)


if __name__ == "__main__":  # python -m rigeditor.examples.art_files [FOLDER]
    import sys

    given = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    print(write_dressed_example(given))
    print(write_dressed_walk(given / "dressed_walk" if given else None))
