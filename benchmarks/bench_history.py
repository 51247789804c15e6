"""What the History dock costs a drag in the editor: the main window on the raptor-like
rig (``bench_production``), a target dragged with real mouse events, after N earlier
steps in the history, with Qt's own QUndoView in the History dock and with
RigEditor's HistoryView (``app/history_view``), alternating in one run. QUndoView
resets its model on every push, and a drag's merged push comes with every mouse move:
the list, and the docks around it, are laid out again each move."""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from _common import table  # noqa: E402
from bench_production import mouse_drag, raptor, raptor_file  # noqa: E402
from bench_ui import build_window  # noqa: E402

MOVES = 60
ROUNDS = 4


def drag_medians(app, steps: int) -> tuple[list, list]:
    """Drag medians (ms a move) with QUndoView and with HistoryView, ROUNDS each."""
    from PySide6.QtGui import QUndoCommand
    from PySide6.QtWidgets import QUndoView

    from rigeditor.app import collector
    from rigeditor.app.document import Document
    from rigeditor.app.history_view import HistoryView

    class Earlier(QUndoCommand):  # a step of earlier work (nothing to redo or undo here)
        def redo(self):
            pass

        def undo(self):
            pass

    folder = Path(tempfile.mkdtemp())
    project = raptor(folder)
    foot = next(t.name for t in project.targets if "foot" in t.name)
    doc = Document(project, raptor_file(folder))
    window, _ = build_window(doc, folder)
    window.resize(1440, 900)
    window.show()
    doc.set_frame(12)
    window.scene.frame_all()
    collector.follow(doc, lambda fn: fn())
    for k in range(steps):
        doc.undo_stack.push(Earlier(f"edit {k}"))
    views = {"QUndoView": QUndoView(doc.undo_stack), "HistoryView": HistoryView(doc.undo_stack)}
    window.docks["history"].raise_()  # its tab in front, as when the animator looks at it
    app.processEvents()
    mouse_drag(app, window, doc, foot, 10)  # warm up
    out = {name: [] for name in views}
    for _ in range(ROUNDS):
        for name, view in views.items():
            window.docks["history"].setWidget(view)
            app.processEvents()
            out[name].append(float(np.median(mouse_drag(app, window, doc, foot, MOVES)[0])))
    doc.undo_stack.setClean()
    window.close()
    return out["QUndoView"], out["HistoryView"]


def main():
    from PySide6.QtWidgets import QApplication

    from rigeditor.app import mesh_raster
    from rigeditor.core.chains import compiled_loop

    compiled_loop(wait=True)
    mesh_raster.compiled_raster(wait=True)
    app = QApplication.instance() or QApplication([sys.argv[0]])
    rows = []
    for steps in (10, 500):
        qt, ours = drag_medians(app, steps)
        rows.append((f"{steps:,}", f"{np.median(qt):.1f} ms", f"{np.median(ours):.1f} ms",
                     f"{np.median(qt) - np.median(ours):+.1f} ms"))
    print(f"Raptor-like drag, History dock in front, median ms a move (median of {ROUNDS} x {MOVES} moves):")
    table(rows, ("steps before", "QUndoView", "HistoryView", "QUndoView - ours"))


if __name__ == "__main__":
    main()
