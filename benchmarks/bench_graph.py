"""The curve editor under a drag: 20 channels of 1,000 bezier keys each (20 FK bones
over a 10,000-frame timeline), one key dragged with real mouse events on the
editor's viewport (offscreen). Per move: ms from the move event through the edit,
the Document's evaluation of the frame under the hand, the editor's redraw and
Qt's repaint of what changed (processing events, as bench_ui.py does).

Two views: 4,000 frames (the keys, 3 px apart, are not drawn one by one) and 400
frames (every key drawn). Side by side in one run: the editor as it is (only the dragged channel is resampled
and re-set; the others keep their drawn arrays) and the same with every channel
redrawn on every move (its cache emptied), the way a plot that redraws everything
would. Goal: median under 16 ms (a 60 Hz frame).
"""
from __future__ import annotations

import math
import os
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
from _common import table  # noqa: E402

from rigeditor.model import CHARACTER, Bone, Project, Space, Timeline  # noqa: E402
from rigeditor.model.data.timeline import Channel, Key  # noqa: E402

GOAL_MS = 16.0
CHANNELS, KEYS, EVERY = 20, 1000, 10


def rig() -> Project:
    rng = np.random.default_rng(3)
    bones = []
    for i in range(CHANNELS):
        values = np.cumsum(rng.normal(0.0, 0.2, KEYS))
        keys = tuple(Key(int(k * EVERY), (float(v),), "bezier") for k, v in enumerate(values))
        bones.append(Bone(f"b{i}", None, 50.0, rest_offset=(60.0 * i, 0.0), rotation=Channel((0.0,), keys)))
    return Project(name="graph", timeline=Timeline(24.0, 0, KEYS * EVERY - 1), spaces=(Space(CHARACTER),),
                   bones=tuple(bones))


def main(moves: int = 60) -> None:
    from PySide6.QtCore import QEvent, QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    from rigeditor.app.document import Document
    from rigeditor.app.graph import GraphEditor

    app = QApplication.instance() or QApplication(sys.argv[:1])
    doc = Document(rig())
    editor = GraphEditor(doc)
    editor.resize(1400, 600)
    editor.show()
    editor.show_paths([("bone", f"b{i}", "rotation") for i in range(CHANNELS)])
    editor.frame_selection()
    app.processEvents()
    vp = editor.plot.viewport()

    def send(kind, pos):
        kinds = {"press": QEvent.MouseButtonPress, "move": QEvent.MouseMove, "release": QEvent.MouseButtonRelease}
        button = Qt.NoButton if kind == "move" else Qt.LeftButton
        held = Qt.NoButton if kind == "release" else Qt.LeftButton
        p = QPointF(pos)
        QApplication.sendEvent(vp, QMouseEvent(kinds[kind], p, vp.mapToGlobal(p), button, held, Qt.NoModifier))

    def drag(full: bool, span: int) -> list[float]:
        comp = editor.components[0]
        frame = 5000
        editor.view.setRange(xRange=(frame - span // 2, frame + span // 2), padding=0)
        app.processEvents()
        start = QPointF(editor.key_point(comp, frame))
        send("press", start)
        times = []
        for i in range(moves):
            time.sleep(0.011)  # pyqtgraph drops moves closer than 10 ms apart, as a hand never sends them
            pos = start + QPointF(3.0 * math.sin(i / 5.0) + 1.0, 20.0 * math.cos(i / 7.0))
            if full:
                editor._shown.clear()  # every channel redrawn, as a plot that redraws all
            t0 = time.perf_counter()
            send("move", pos)
            app.processEvents()  # every slot, then Qt repaints what was marked dirty (as bench_ui)
            times.append((time.perf_counter() - t0) * 1e3)
        send("release", pos)
        app.processEvents()
        doc.undo_stack.undo()
        app.processEvents()
        return times[3:]  # the first moves warm caches up

    rows = []
    results = {}
    for span, what in ((4000, "4,000 frames in view (keys too dense to draw)"), (400, "400 frames in view (keys drawn)")):
        for name, full in (("dragged channel only (the editor)", False), ("every curve re-plotted", True)):
            t = np.array(drag(full, span))
            results[(span, name)] = t
            rows.append((what, name, f"{np.median(t):.2f}", f"{np.percentile(t, 95):.2f}", f"{GOAL_MS:g}",
                         "yes" if np.median(t) < GOAL_MS else "NO"))
    print(f"curve editor: {CHANNELS} channels x {KEYS} keys, 1400 x 600 px, one key dragged "
          f"({moves} moves; ms per move)")
    table(rows, ("view", "case", "median", "p95", "goal", "met"))
    for span in (4000, 400):
        a, b = (np.median(v) for k, v in results.items() if k[0] == span)
        print(f"{span} frames in view: re-plotting every curve costs {b / a:.1f}x the editor's redraw")


if __name__ == "__main__":
    main()
