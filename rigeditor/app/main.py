"""Start the editor window (grows into the full editor)."""
from __future__ import annotations

import sys


def run(argv=None) -> int:
    from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

    app = QApplication.instance() or QApplication(list(argv or sys.argv[:1]))
    window = QMainWindow()
    window.setWindowTitle("RigEditor")
    window.setCentralWidget(QLabel("RigEditor"))
    window.resize(1280, 800)
    window.show()
    return app.exec()
