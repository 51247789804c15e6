"""Runs the real editor (``rigeditor.app.main.run``) in its own process and drives it
from a timer, for the tests that need a whole editor process: one that must survive
an edit, one that is killed with SIGKILL.

    python drive_editor.py move-root   apply the long root-smoothing edits, undo, redo;
                                       print the result; exit with run()'s status
    python drive_editor.py edit        make one edit, print "edited", keep running
"""
from __future__ import annotations

import sys
import traceback
from dataclasses import replace

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication


def edited_project(project):
    """The one edit of the ``edit`` mode: the arm's softness to 0.05."""
    chain = project.chain("arm")
    return project.with_chain("arm", softness=chain.softness.__class__((0.05,)))


def move_root(project, *, frames, time_constant):
    """The arm with strategy move_root and ``time_constant`` frames of root smoothing
    on a shot of ``frames`` frames (a window of 12 x time constant + 1 frames)."""
    chain = project.chain("arm")
    strategy = replace(chain.strategy, kind="move_root", max_root_offset=40.0, root_time_constant=time_constant)
    timeline = replace(project.timeline, end=project.timeline.start + frames - 1)
    return replace(project, timeline=timeline, chains=(replace(chain, strategy=strategy),))


def _window():
    from rigeditor.app.main_window import MainWindow

    return next(w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow))


def _move_root() -> None:
    w = _window()
    doc = w.doc
    doc.apply("Shorten the shot, move root", move_root(doc.project, frames=49, time_constant=5.0))
    doc.apply("Default smoothing on 21 frames", move_root(doc.project, frames=21, time_constant=2.0))
    doc.undo_stack.undo()
    doc.undo_stack.redo()
    ch = doc.bake.chains["arm"]
    print(f"frames {len(doc.bake)} steps {doc.undo_stack.count()} "
          f"max_offset {float((ch.root_offset ** 2).sum(axis=1).max() ** 0.5):.6f}", flush=True)
    doc.undo_stack.setClean()  # nothing to ask about on close
    w.close()
    QApplication.instance().quit()


def _edit() -> None:
    doc = _window().doc
    doc.apply("Set softness", edited_project(doc.project), touched={"chain:arm"})
    print("edited", flush=True)


def main(argv) -> int:
    mode = argv[0]
    app = QApplication.instance() or QApplication([sys.argv[0]])
    step = {"move-root": _move_root, "edit": _edit}[mode]

    def drive():
        try:
            step()
        except Exception:  # a broken step ends the run with status 3, never a hang
            traceback.print_exc()
            app.exit(3)

    QTimer.singleShot(0, drive)
    from rigeditor.app.main import run

    return run([]) if app else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
