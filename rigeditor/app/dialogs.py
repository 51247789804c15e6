"""Every question the editor asks the user, behind one object.

The main window, inspector, outliner and file glue never call QMessageBox or
QFileDialog themselves: they call a :class:`Dialogs`. Tests pass a scripted stand-in
(any object with the same methods), so nothing modal ever blocks offscreen.
"""
from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFileDialog, QFormLayout,
    QInputDialog, QLineEdit, QMessageBox, QSpinBox,
)


class Dialogs:
    """Modal dialogs on real widgets. Return values: None (or "cancel") when dismissed."""

    def error(self, parent, title: str, message: str) -> None:
        QMessageBox.critical(parent, title, message)

    def info(self, parent, title: str, message: str) -> None:
        QMessageBox.information(parent, title, message)

    def confirm(self, parent, title: str, message: str) -> bool:
        answer = QMessageBox.question(parent, title, message,
                                      QMessageBox.Ok | QMessageBox.Cancel, QMessageBox.Cancel)
        return answer == QMessageBox.Ok

    def ask_save_changes(self, parent, name: str) -> str:
        """"save", "discard" or "cancel"."""
        box = QMessageBox(QMessageBox.Warning, "Unsaved changes",
                          f"Save the changes to '{name}' before closing it?",
                          QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, parent)
        box.setDefaultButton(QMessageBox.Save)
        answer = box.exec()
        return {QMessageBox.Save: "save", QMessageBox.Discard: "discard"}.get(answer, "cancel")

    def choose(self, parent, title: str, message: str, options: list[str]) -> str | None:
        """One of ``options`` (buttons, the first is the default) or None."""
        box = QMessageBox(QMessageBox.Question, title, message, QMessageBox.Cancel, parent)
        buttons = [box.addButton(o, QMessageBox.AcceptRole) for o in options]
        if buttons:
            box.setDefaultButton(buttons[0])
        box.exec()
        clicked = box.clickedButton()
        return options[buttons.index(clicked)] if clicked in buttons else None

    def open_file(self, parent, title: str, directory: str, filters: str) -> str | None:
        path, _ = QFileDialog.getOpenFileName(parent, title, directory, filters)
        return path or None

    def color(self, parent, title: str, rgb: tuple) -> tuple[float, float, float] | None:
        """A colour picked starting from ``rgb`` (each [0, 1]); None when cancelled."""
        from PySide6.QtGui import QColor
        from PySide6.QtWidgets import QColorDialog

        c = QColorDialog.getColor(QColor.fromRgbF(*rgb), parent, title)
        return (c.redF(), c.greenF(), c.blueF()) if c.isValid() else None

    def open_folder(self, parent, title: str, directory: str) -> str | None:
        return QFileDialog.getExistingDirectory(parent, title, directory) or None

    def save_file(self, parent, title: str, directory: str, filters: str) -> str | None:
        path, _ = QFileDialog.getSaveFileName(parent, title, directory, filters)
        return path or None

    def text(self, parent, title: str, label: str, text: str = "") -> str | None:
        """A line of text, starting as ``text`` (maybe empty); None when cancelled."""
        value, ok = QInputDialog.getText(parent, title, label, text=text)
        return value if ok else None

    def pick(self, parent, title: str, label: str, items: list[str], current: int = 0) -> str | None:
        item, ok = QInputDialog.getItem(parent, title, label, items, current, False)
        return item if ok else None

    def form(self, parent, title: str, fields: list[tuple]) -> dict | None:
        """A small form. fields: (key, label, default, spec) with spec a dict:
        {"kind": "text"} | {"kind": "float", "min", "max", "decimals", "suffix"} |
        {"kind": "int", "min", "max"} | {"kind": "choice", "items": [...]}.
        Returns {key: value} or None."""
        dialog = QDialog(parent)
        dialog.setWindowTitle(title)
        layout = QFormLayout(dialog)
        getters = {}
        for key, label, default, spec in fields:
            kind = spec.get("kind", "text")
            if kind == "float":
                w = QDoubleSpinBox()
                w.setRange(spec.get("min", -1e6), spec.get("max", 1e6))
                w.setDecimals(spec.get("decimals", 2))
                w.setSuffix(spec.get("suffix", ""))
                w.setValue(float(default))
                getters[key] = w.value
            elif kind == "int":
                w = QSpinBox()
                w.setRange(spec.get("min", -10**6), spec.get("max", 10**6))
                w.setValue(int(default))
                getters[key] = w.value
            elif kind == "choice":
                w = QComboBox()
                w.addItems(spec["items"])
                w.setCurrentText(str(default))
                getters[key] = w.currentText
            else:
                w = QLineEdit(str(default))
                getters[key] = w.text
            layout.addRow(label, w)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        layout.addRow(buttons)
        if dialog.exec() != QDialog.Accepted:
            return None
        return {k: g() for k, g in getters.items()}
