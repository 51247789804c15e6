"""What a keyed slot colour costs: a 512 x 512 premultiplied picture tinted with N
different colours, as a scrub over a flash or a fade asks for one new colour a frame,
by the numpy path and by the compiled one (``core.tint_jit``), side by side in one
run; plain tint (light colour and alpha) and two-colour tint (light and dark). Then the
editor: a scrub over the dressed arm with its pictures at 512 x 512 and every slot's
colour keyed (each frame a new colour for each slot), frames per second both ways,
again under the cache's bound, and with every tinted copy kept (the frame's floor).
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from _common import table  # noqa: E402
from bench_ui import measure_scrub  # noqa: E402

SIDE = 512
COLOURS = 60
"""Different colours a sweep tints with (one second of a fade at 60 fps)."""


def picture(kind: str):
    """A SIDE x SIDE ARGB32_Premultiplied QImage: "limb" a soft-edged shaded disc over
    a clear margin (a typical cut-out picture), "noise" every texel random and
    visible (no clear texel to skip, every alpha: the kernel's worst case)."""
    from PySide6.QtGui import QImage

    rng = np.random.default_rng(7)
    y, x = np.mgrid[0:SIDE, 0:SIDE] / (SIDE - 1) * 2 - 1
    if kind == "limb":
        alpha = np.clip((0.8 - np.hypot(x, y)) * 20, 0, 1) * 255
        rgb = np.stack([0.9 - 0.3 * y, 0.6 + 0.2 * x, 0.4 + 0.1 * x * y], axis=-1) * 255
    else:
        alpha = rng.integers(1, 256, (SIDE, SIDE)).astype(float)
        rgb = rng.random((SIDE, SIDE, 3)) * 255
    a = np.rint(alpha).astype(np.uint8)
    pm = np.rint(rgb * a[..., None] / 255.0).astype(np.uint8)
    image = QImage(SIDE, SIDE, QImage.Format.Format_ARGB32_Premultiplied)
    px = np.frombuffer(image.bits(), np.uint8).reshape(SIDE, image.bytesPerLine())[:, :SIDE * 4]
    px = px.reshape(SIDE, SIDE, 4)
    px[..., 0], px[..., 1], px[..., 2], px[..., 3] = pm[..., 2], pm[..., 1], pm[..., 0], a
    return image


def sweep(n=COLOURS):
    """n (light RGB, dark RGB, alpha) of a red flash that fades out, dark rising."""
    t = np.linspace(0.0, 1.0, n)
    light = np.stack([np.ones(n), 1 - 0.8 * t, 1 - 0.8 * t], axis=1)
    dark = np.stack([0.4 * t, 0.1 * t, 0.05 * t], axis=1)
    return [(tuple(light[i]), tuple(dark[i]), float(1 - 0.5 * t[i])) for i in range(n)]


def tint_costs() -> None:
    import time

    from rigeditor.app import blend

    real = blend.compiled_tint
    kernel = real(wait=True)
    if kernel is None:
        print("numba is not installed: only the numpy path runs\n")
    paths = {"numpy": lambda wait=False: None}
    if kernel is not None:
        paths["compiled"] = lambda wait=False: kernel
    rows = []
    try:
        for kind in ("limb", "noise"):
            image = picture(kind)
            for two_colour in (False, True):
                best = dict.fromkeys(paths, np.inf)
                for _ in range(5):  # alternate, so both see the same machine load
                    for name, get in paths.items():
                        blend.compiled_tint = get
                        t0 = time.perf_counter()
                        for light, dark, alpha in sweep():
                            blend.tinted(image, light, dark if two_colour else None, alpha)
                        best[name] = min(best[name], (time.perf_counter() - t0) / COLOURS * 1e3)
                fast = best.get("compiled")
                rows.append((kind, "two-colour" if two_colour else "plain", f"{best['numpy']:.2f}",
                             "-" if fast is None else f"{fast:.2f}",
                             "-" if fast is None else f"{best['numpy'] / fast:.1f}x"))
    finally:
        blend.compiled_tint = real
    table(rows, (f"{SIDE}x{SIDE} picture", "tint", "numpy ms", "compiled ms", "ratio"))
    print(f"(ms per tint, best of 5 sweeps of {COLOURS} colours)\n")


def keyed_arm(folder: Path):
    """The dressed arm written into ``folder`` with its pictures redrawn at SIDE x SIDE
    (nearest texel: the same look, 512 x 512 texels each) and every slot's colour keyed
    each frame (a flash over the range; the arm's slots two-colour, their dark rising)."""
    from PIL import Image

    from rigeditor.edits.slot_color import set_slot_color
    from rigeditor.examples.art_files import write_dressed_example
    from rigeditor.io import load_project

    path = write_dressed_example(folder, psd=False)
    for png in (folder / "arm_art").glob("*.png"):
        Image.open(png).resize((SIDE, SIDE), Image.Resampling.NEAREST).save(png)
    project = load_project(path)
    for s, slot in enumerate(project.art.slots):
        project = set_slot_color(project, slot.name, dark=(0.0, 0.0, 0.0)) if s % 2 else project
    return project, path


def editor_scrub(app) -> None:
    from rigeditor.app import art_paint, blend
    from rigeditor.app.document import Document
    from rigeditor.app.scene import SceneView
    from rigeditor.edits.slot_color import key_slot_color
    from rigeditor.io import save_project

    real, counted = blend.compiled_tint, art_paint.tinted
    kernel = real(wait=True)
    tints = []

    def count(*args):
        tints.append(1)
        return counted(*args)

    # numpy, compiled: the colour cache emptied before each scrub (every colour new, as
    # on a first scrub); again: the scrub repeated under the cache's bound
    # (art_paint.COLORED_BYTES); all kept: the bound lifted, every colour already tinted
    # (what the rest of the frame costs).
    bound = art_paint.COLORED_BYTES
    modes = {"numpy": (None, True, bound), "compiled": (kernel, True, bound), "compiled, again": (kernel, False, bound),
             "all kept": (kernel, False, 1 << 40)}
    if kernel is None:
        modes = {name: (None, *mode[1:]) for name, mode in modes.items() if name != "compiled"}
    times, counts = {name: [] for name in modes}, {}
    with tempfile.TemporaryDirectory() as tmp:
        project, path = keyed_arm(Path(tmp))
        n = len(Document(project, path).bake)
        for s, slot in enumerate(project.art.slots):
            for f in range(n):  # a new 8-bit colour every frame
                t = f / max(n - 1, 1)
                project = key_slot_color(project, slot.name, f, (1.0, 1.0 - 0.7 * t, 1.0 - 0.7 * t, 1.0 - 0.4 * t),
                                         dark=(0.5 * t, 0.2 * t, 0.1 * t) if s % 2 else None)
        save_project(project, path)
        doc = Document(project, path)
        view = SceneView(doc)
        view.resize(900, 650)
        view.show()
        app.processEvents()
        cache = view.layer("art").cache
        art_paint.tinted = count
        try:
            for _ in range(3):  # alternate, so all see the same machine load
                for name, (k, fresh, bytes_kept) in modes.items():
                    blend.compiled_tint = lambda wait=False, k=k: k
                    art_paint.COLORED_BYTES = bytes_kept
                    if fresh:
                        cache._colored.clear()
                        cache._colored_bytes = 0
                    elif bytes_kept > bound:  # one scrub to fill it, unmeasured
                        measure_scrub(doc, np.arange(n), app.processEvents)
                    tints.clear()
                    times[name].append(measure_scrub(doc, np.arange(n), app.processEvents))
                    counts[name] = len(tints)
        finally:
            art_paint.tinted, blend.compiled_tint, art_paint.COLORED_BYTES = counted, real, bound
            view.close()
    rows = []
    for name, t in times.items():
        t = np.concatenate(t)
        rows.append((name, counts[name], f"{np.median(t):.2f}", f"{np.percentile(t, 95):.2f}",
                     f"{1e3 / np.median(t):.0f}"))
    table(rows, (f"scrub, {len(project.art.slots)} keyed slots at {SIDE}x{SIDE}", "tints", "median ms", "p95 ms", "fps"))
    print(f"(a scrub of {n} frames, 900x650 view; the cache keeps {bound >> 20} MB of tinted copies)\n")


def main() -> None:
    from PySide6.QtWidgets import QApplication

    from rigeditor.core.memory import tune_allocator

    tune_allocator()  # as the editor does
    app = QApplication.instance() or QApplication([sys.argv[0]])
    tint_costs()
    editor_scrub(app)


if __name__ == "__main__":
    main()
