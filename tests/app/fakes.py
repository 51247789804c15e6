"""Test doubles for the editor's questions to the user (rigeditor.app.dialogs)."""
from __future__ import annotations


class FakeDialogs:
    """Scripted answers (a list answers successive calls in turn); records every question."""

    def __init__(self, **answers):
        self.answers = answers
        self.calls = []

    def _answer(self, name, default, *args):
        self.calls.append((name, args))
        value = self.answers.get(name, default)
        return value.pop(0) if isinstance(value, list) else value

    def asked(self, name):
        return [args for n, args in self.calls if n == name]

    def error(self, parent, title, message):
        self._answer("error", None, title, message)

    def info(self, parent, title, message):
        self._answer("info", None, title, message)

    def confirm(self, parent, title, message):
        return self._answer("confirm", True, title, message)

    def ask_save_changes(self, parent, name):
        return self._answer("ask_save_changes", "discard", name)

    def choose(self, parent, title, message, options):
        return self._answer("choose", options[0], title, message, options)

    def open_file(self, parent, *args):
        return self._answer("open_file", None, *args)

    def color(self, parent, title, rgb):
        return self._answer("color", None, title, rgb)

    def open_folder(self, parent, *args):
        return self._answer("open_folder", None, *args)

    def save_file(self, parent, *args):
        return self._answer("save_file", None, *args)

    def text(self, parent, title, label, text=""):
        return self._answer("text", text, title, label, text)

    def pick(self, parent, title, label, items, current=0):
        return self._answer("pick", items[current], title, label, items)

    def form(self, parent, title, fields):
        return self._answer("form", {k: d for k, _, d, _ in fields}, title, fields)


def window_with_dialogs(qtbot, tmp_path, **answers):
    """(main window, document, dialogs) on the arm example, every question answered by
    FakeDialogs(**answers), settings and data kept in ``tmp_path``."""
    from PySide6.QtCore import QSettings

    from rigeditor.app.document import Document
    from rigeditor.app.main_window import MainWindow
    from rigeditor.examples.rigs import arm

    doc = Document(arm())
    dialogs = FakeDialogs(**answers)
    w = MainWindow(doc, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat), dialogs=dialogs,
                   data_dir=tmp_path / "data", restore_layout=False)
    qtbot.addWidget(w)
    return w, doc, dialogs
