"""The Skins menu: which of the project's skins the editor shows. "Default skin only"
shows none; ticking skins combines them in the order ticked (mix and match: a later
skin's attachment of a name replaces an earlier one's). Each change is one undo step;
the preview, bake, report and export all follow it (they evaluate the project)."""
from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu

from rigeditor import edits
from rigeditor.app.guard import Guarded


class SkinMenu(Guarded, QObject):
    """``menu``: rebuilt from the project whenever it opens; enabled when the project
    has skins besides the default one."""

    def __init__(self, doc, window):
        super().__init__(window)
        self.doc = doc
        self.menu = QMenu("S&kins", window)
        self.menu.aboutToShow.connect(self.rebuild)
        # Only enabled here: rebuilding would delete the action whose signal is running.
        doc.projectChanged.connect(lambda: self.menu.setEnabled(bool(self.doc.project.art.skins)))
        self.rebuild()

    def rebuild(self):
        art = self.doc.project.art
        self.menu.clear()
        self.menu.setEnabled(bool(art.skins))
        default = QAction("Default skin only", self.menu)
        default.setCheckable(True)
        default.setChecked(not art.active_skins)
        default.triggered.connect(lambda _on=False: self.show_skins(()))
        self.menu.addAction(default)
        self.menu.addSeparator()
        for name in art.skins:
            a = QAction(name, self.menu)
            a.setCheckable(True)
            a.setChecked(name in art.active_skins)
            a.setToolTip("Tick several to combine them, the last ticked on top")
            a.toggled.connect(lambda on, n=name: self.toggle(n, on))
            self.menu.addAction(a)

    def toggle(self, name: str, on: bool):
        active = [s for s in self.doc.project.art.active_skins if s != name] + ([name] if on else [])
        self.show_skins(tuple(active))

    def show_skins(self, names: tuple):
        label = f"Show skin{'s' if len(names) > 1 else ''} {', '.join(names)}" if names else "Show the default skin"
        self.doc.apply(label, edits.set_active_skins(self.doc.project, names))

    def actions(self) -> list[QAction]:
        return list(self.menu.actions())
