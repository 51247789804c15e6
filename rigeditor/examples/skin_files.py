"""The pictures and files of the seam examples (``rigeditor.examples.skin``):
a sleeve and a forearm painted like the dressed arm's, and the same two drawn into one
picture for the skinned arm. :func:`write_skin_examples` writes both example folders."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from rigeditor.examples.art_files import EXAMPLES_DIR, SHIRT, SHIRT_DARK, SKIN, SKIN_DARK, _capsule, _finish
from rigeditor.io.art.images import encode_png
from rigeditor.io.project_file import save_project
from rigeditor.examples.skin import SIZES, SKIN_DIR, rigid_arm, skinned_arm

EXAMPLES = ("rigid_arm", "skinned_arm")


def paint_arm() -> dict[str, np.ndarray]:
    """{name: (h, w, 4) uint8 RGBA}: "upper_arm", "forearm", and "arm" (the forearm
    under the sleeve in one picture, as the two layers look in the setup pose)."""
    from rigeditor.examples.art_files import _SS, _canvas

    upper = _capsule(*SIZES["upper_arm"], SHIRT, SHIRT_DARK)
    fore = _capsule(*SIZES["forearm"], SKIN, SKIN_DARK)
    whole = _canvas(*SIZES["arm"])
    # Layer placement as in rigid_arm: sleeve centre x=75, forearm centre 150+60 on
    # the upper arm; the picture's left edge sits at -13.
    whole.paste(fore, ((150 + 60 - 73 + 13) * _SS, 4 * _SS), fore)
    whole.paste(upper, (0, 0), upper)
    return {"upper_arm": _finish(upper), "forearm": _finish(fore), "arm": _finish(whole)}


def write_skin_examples(folder=None) -> list[Path]:
    """Write ``rigid_arm`` and ``skinned_arm`` (each a folder with its project and
    ``skin_art/`` PNGs) into ``folder`` (default: the package's examples)."""
    root = Path(folder) if folder is not None else EXAMPLES_DIR
    layers = paint_arm()
    out = []
    for name, project, used in (("rigid_arm", rigid_arm(), ("upper_arm", "forearm")),
                                ("skinned_arm", skinned_arm(layers["arm"][..., 3] / 255.0), ("arm",))):
        d = root / name
        (d / SKIN_DIR).mkdir(parents=True, exist_ok=True)
        for k in used:
            (d / SKIN_DIR / f"{k}.png").write_bytes(encode_png(layers[k]))
        save_project(project, d / f"{name}.rigproj")
        out.append(d / f"{name}.rigproj")
    return out


if __name__ == "__main__":  # python -m rigeditor.examples.skin_files [FOLDER]
    import sys

    for p in write_skin_examples(Path(sys.argv[1]) if len(sys.argv) > 1 else None):
        print(p)
