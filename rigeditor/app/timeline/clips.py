"""The animation list of the timeline dock: open, add, rename, duplicate and delete
animations (clips); each is one undoable command. Reads the Document, hands it new
Projects built by ``model.clips``."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QMenu, QToolButton, QWidget

from rigeditor.app.dialogs import Dialogs
from rigeditor.app.guard import Guarded
from rigeditor import edits
from rigeditor.model.data import clips


def menu_button(parent, text: str, tip: str, menu: QMenu) -> QToolButton:
    """A tool button that opens ``menu`` (and never takes the keyboard focus)."""
    button = QToolButton(parent)
    button.setText(text)
    button.setToolTip(tip)
    button.setMenu(menu)
    button.setPopupMode(QToolButton.InstantPopup)
    button.setFocusPolicy(Qt.NoFocus)
    return button


class AnimationBar(Guarded, QWidget):
    """A list of the project's animations (the open one shown) and a menu of edits;
    names are asked through ``dialogs`` (rigeditor.app.dialogs)."""

    def __init__(self, doc, parent=None, dialogs=None):
        super().__init__(parent)
        self.doc = doc
        self.dialogs = dialogs or Dialogs()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        row.addWidget(QLabel("Animation", self))
        self.combo = QComboBox(self)
        self.combo.setToolTip("The animation shown and edited; the rig and its setup pose are shared")
        self.combo.setFocusPolicy(Qt.NoFocus)
        self.combo.setMinimumContentsLength(8)
        self.combo.activated.connect(lambda i: self.open_animation(self.combo.itemText(i)))
        row.addWidget(self.combo)
        menu = QMenu(self)
        self.add_action = menu.addAction("New animation…", self._ask_add)
        self.duplicate_action = menu.addAction("Duplicate…", self._ask_duplicate)
        self.rename_action = menu.addAction("Rename…", self._ask_rename)
        self.delete_action = menu.addAction("Delete", lambda: self.delete_animation(self.doc.project.animation))
        row.addWidget(menu_button(self, "⋯", "New, duplicate, rename or delete an animation", menu))
        doc.projectChanged.connect(self._refresh)
        self._refresh()

    # ------------------------------------------------------------------ edits
    def open_animation(self, name: str) -> bool:
        if name == self.doc.project.animation:
            return True
        return self._apply(f"Open animation '{name}'", lambda p: edits.switch_animation(p, name))

    def add_animation(self, name: str) -> bool:
        tl = self.doc.project.timeline
        return self._apply(f"New animation '{name}'",
                           lambda p: edits.switch_animation(edits.add_animation(p, name, tl.start, tl.end), name))

    def duplicate_animation(self, name: str, new: str) -> bool:
        return self._apply(f"Duplicate animation '{name}' as '{new}'",
                           lambda p: edits.switch_animation(edits.duplicate_animation(p, name, new), new))

    def rename_animation(self, old: str, new: str) -> bool:
        return self._apply(f"Rename animation '{old}' to '{new}'", lambda p: edits.rename_animation(p, old, new.strip()))

    def delete_animation(self, name: str) -> bool:
        return self._apply(f"Delete animation '{name}'", lambda p: edits.delete_animation(p, name))

    def _apply(self, label, build) -> bool:
        try:
            project = build(self.doc.project)
        except (KeyError, ValueError) as exc:
            self.doc.refused.emit(label, f"{label}: {exc.args[0] if exc.args else exc}")
            return False
        return self.doc.apply(label, project)

    # ------------------------------------------------------------------ dialogs
    def _ask(self, title, label, text="") -> str | None:
        """The name typed, stripped; None when cancelled. An empty or taken name is
        passed on: the edit refuses it with a message saying why."""
        name = self.dialogs.text(self, title, label, text)
        return None if name is None else name.strip()

    def _ask_add(self):
        name = self._ask("New animation", "Name:", self._free("animation"))
        if name is not None:
            self.add_animation(name)

    def _ask_duplicate(self):
        current = self.doc.project.animation
        name = self._ask("Duplicate animation", "Name of the copy:", self._free(current + "_copy"))
        if name is not None:
            self.duplicate_animation(current, name)

    def _ask_rename(self):
        current = self.doc.project.animation
        name = self._ask("Rename animation", "New name:", current)
        if name is not None:
            self.rename_animation(current, name)

    def _free(self, stem: str) -> str:
        names, n, name = set(clips.names(self.doc.project)), 1, stem
        while name in names:
            n += 1
            name = f"{stem}{n}"
        return name

    def _refresh(self):
        names = clips.names(self.doc.project)
        if [self.combo.itemText(i) for i in range(self.combo.count())] != names:
            self.combo.blockSignals(True)
            self.combo.clear()
            self.combo.addItems(names)
            self.combo.blockSignals(False)
        self.combo.setCurrentIndex(names.index(self.doc.project.animation))
        self.delete_action.setEnabled(len(names) > 1)
