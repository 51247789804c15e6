"""Showing a scene view in the tests (pytest-qt, offscreen)."""
from __future__ import annotations

from rigeditor.app.scene import SceneView

ALIVE = []
"""Documents and views of the running tests: kept alive until the session ends."""


def show_scene(qtbot, doc) -> SceneView:
    """A SceneView of ``doc``, 900 x 650, shown and exposed."""
    view = SceneView(doc)
    ALIVE.append((doc, view))
    qtbot.addWidget(view)
    view.resize(900, 650)
    view.show()
    qtbot.waitExposed(view)
    return view


def release_all() -> None:
    """Close the views shown so far and drop their documents' history while both are
    still alive (a view owned by Python, collected mid-paint, takes its C++ side along;
    an undo stack destroyed while not clean signals into its half-destroyed Document)."""
    while ALIVE:
        doc, view = ALIVE.pop()
        view.close()
        doc.undo_stack.cleanChanged.disconnect()
        doc.undo_stack.clear()
