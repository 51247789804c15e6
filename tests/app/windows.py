"""The main window in the tests (pytest-qt, offscreen): shown, exposed and settled, with
fake dialogs that answer as told; and the mapping between model points and pixels."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPoint, QPointF, QSettings
from PySide6.QtWidgets import QApplication

from fakes import FakeDialogs
from rigeditor.app.document import Document
from rigeditor.app.main_window import MainWindow
from rigeditor.examples.rigs import arm


def make_window(qtbot, tmp_path, project=None, path=None, **answers):
    """(window, document, dialogs) of ``project`` (the arm by default) at 1280 x 800;
    ``answers`` are the fake dialogs' replies (``open_file=``, ``save_file=``...)."""
    doc = Document(project if project is not None else arm(), path)
    dialogs = FakeDialogs(**answers)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.IniFormat)
    w = MainWindow(doc, settings=settings, dialogs=dialogs, data_dir=tmp_path / "data", restore_layout=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    settle()
    return w, doc, dialogs


def settle():
    for _ in range(3):
        QApplication.processEvents()


def px(view, world) -> QPoint:
    """The viewport pixel of a model point."""
    p = view.viewportTransform().map(QPointF(float(world[0]), float(world[1])))
    return QPoint(round(p.x()), round(p.y()))


def world(view, point) -> np.ndarray:
    """The model point under a viewport pixel."""
    inv, _ = view.viewportTransform().inverted()
    p = inv.map(QPointF(point))
    return np.array([p.x(), p.y()])
