"""What drawing the art costs while scrubbing: the dressed walk and the dressed arm in
the scene view (900 x 650, offscreen), frame changes with the Artwork overlay on and off (the crack
overlay off), and the crack overlay on top, measured alternately in one run. Goal:
the images add under 3 ms a frame.
"""
from __future__ import annotations

import os
import sys
import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from _common import table  # noqa: E402
from bench_ui import measure_scrub  # noqa: E402



def main() -> None:
    from PySide6.QtWidgets import QApplication

    from rigeditor.app.document import Document
    from rigeditor.app.scene import SceneView
    from rigeditor.io import load_project
    from rigeditor.examples.art_files import example_project

    app = QApplication.instance() or QApplication([sys.argv[0]])
    for name in ("dressed_walk", "dressed_arm"):
        path = example_project(name)
        measure(app, name, Document(load_project(path), path), SceneView)


def measure(app, name, doc, SceneView) -> None:  # noqa: N803 - a class passed in
    view = SceneView(doc)
    view.resize(900, 650)
    view.show()
    app.processEvents()
    frames = (np.arange(200) * 7) % len(doc.bake)
    on, off, cracks = [], [], []
    for _ in range(3):  # alternate, so all see the same machine load
        view.set_overlay("cracks", False)
        view.set_overlay("art", True)
        on.append(measure_scrub(doc, frames, app.processEvents))
        view.set_overlay("art", False)
        off.append(measure_scrub(doc, frames, app.processEvents))
        view.set_overlay("art", True)
        view.set_overlay("cracks", True)
        cracks.append(measure_scrub(doc, frames, app.processEvents))
    on, off, cracks = np.concatenate(on), np.concatenate(off), np.concatenate(cracks)
    rows = [(name, f"{np.median(t):.2f}", f"{np.percentile(t, 95):.2f}") for name, t in
            (("scrub, art on", on), ("scrub, art off", off), ("scrub, art and cracks on", cracks))]
    table(rows, (f"{name}, scene view 900x650", "median ms", "p95 ms"))
    print(f"the art adds {np.median(on) - np.median(off):.2f} ms a frame (median); goal < 3 ms")
    print(f"the crack overlay adds {np.median(cracks) - np.median(on):.2f} ms a frame (median)\n")
    view.close()


if __name__ == "__main__":
    main()
