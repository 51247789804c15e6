"""Artwork at scale: PSD import, the Bake's art, the crack check, the Spine atlas.

- import-psd of a 2000 x 1500 document with 200 pixel layers (each 40-160 px, in 10
  groups), end to end (open, trim, write PNGs and the project). Goal: under 3 s.
- evaluate of the dressed arm over 10,000 frames with and without its art, side by
  side (what ``bake.art`` adds).
- the crack check over those frames, per frame.
- the Spine export's atlas of the 200 imported layers.
"""
from __future__ import annotations

import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from _common import best_time, table

from rigeditor.io import load_project
from rigeditor.io.spine.write_art import atlas_files
from rigeditor.io.art.psd import import_psd
from rigeditor.model import evaluate
from rigeditor.model.data.attachments import Art
from rigeditor.model.diagnostics.cracks import crack_check
from rigeditor.examples.art import dressed_arm
from rigeditor.model.data.project import Timeline

LAYERS = 200


def write_psd(path: Path, layers: int = LAYERS) -> None:
    from PIL import Image
    from psd_tools import PSDImage
    from psd_tools.api.layers import Group, PixelLayer

    rng = np.random.default_rng(0)
    psd = PSDImage.new("RGBA", (2000, 1500))
    groups = [Group.new(psd, f"g{k}") for k in range(10)]
    for i in range(layers):
        w, h = rng.integers(40, 160, 2)
        px = np.zeros((h, w, 4), dtype=np.uint8)
        px[3:-3, 2:-2] = np.append(rng.integers(0, 255, 3), 255)
        layer = PixelLayer.frompil(Image.fromarray(px, "RGBA"), psd, f"layer{i}",
                                   top=int(rng.integers(0, 1300)), left=int(rng.integers(0, 1800)))
        groups[i % 10].append(layer)
    psd.save(path)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        psd = tmp / "art.psd"
        write_psd(psd)
        runs = []
        for k in range(3):
            t0 = time.perf_counter()
            import_psd(psd, tmp / f"p{k}.rigproj")
            runs.append(time.perf_counter() - t0)
        project = load_project(tmp / "p0.rigproj")
        atlas_s = best_time(lambda: atlas_files(project, tmp, "atlas"), repeat=2)
    print(f"import-psd, {LAYERS} layers: {min(runs):.2f} s best of 3, slowest {max(runs):.2f} s "
          "(psd-tools' own import, about 0.6 s, comes on top in a fresh process); goal < 3 s")
    print(f"atlas of the {LAYERS} imported layers: {atlas_s:.2f} s")

    dressed = replace(dressed_arm(), timeline=Timeline(24.0, 0, 9_999))
    bare = replace(dressed, art=Art())
    with_art = best_time(lambda: evaluate(dressed))
    without = best_time(lambda: evaluate(bare))
    bake = evaluate(dressed)
    cracks = best_time(lambda: crack_check(dressed, bake, {}), repeat=2)
    table([("evaluate, no art", f"{without * 1e3:.1f}", "1.00"),
           ("evaluate, with art", f"{with_art * 1e3:.1f}", f"{with_art / without:.2f}"),
           ("crack check", f"{cracks * 1e3:.1f}", f"{cracks / without:.2f}")],
          ("10,000 frames, dressed arm", "ms", "ratio"))
    print(f"crack check: {cracks / len(bake) * 1e3:.3f} ms per frame per joint")


if __name__ == "__main__":
    main()
