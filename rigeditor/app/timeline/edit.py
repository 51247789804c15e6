"""Key editing in the timeline (the dope sheet): copy and paste at the playhead
(onto other bones with the same channel, into other animations), scale the selected
keys in time about the playhead, set their interpolation (menu, or T to cycle),
auto-key, playback speed. Every edit is one undoable command with a readable label."""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import (
    QComboBox, QFormLayout, QHBoxLayout, QLabel, QMenu, QSpinBox, QToolButton, QWidget, QWidgetAction,
)

from rigeditor.app import style
from rigeditor.app.timeline.clips import AnimationBar, menu_button
from rigeditor.edits.tracks import touched
from rigeditor.edits import keys as key_edits
from rigeditor.model.data.timeline import INTERPOLATIONS

SPEEDS = (0.25, 0.5, 1.0, 1.5, 2.0)
_CLIPBOARD: list = [None]  # one per editor process, kept across animations and projects


class KeyEditing:
    """Mixed into TimelineWidget (its ``doc``, selection, ``_action``, ``_bar``)."""

    speed = 1.0
    auto_key = True

    def _build_editing(self) -> None:
        self.copy_action = self._action("Copy keys", "Ctrl+C", self.copy_selected_keys)
        self.paste_action = self._action("Paste keys at the playhead", "Ctrl+V", lambda: self.paste_keys())
        self.scale_action = self._action("Scale keys in time…", "Alt+S", self._ask_scale)
        self.cycle_action = self._action("Cycle interpolation", Qt.Key_T, self.cycle_interpolation)
        self.interp_actions = {}
        group = QActionGroup(self)
        menu = QMenu("Interpolation", self)
        for name in INTERPOLATIONS:
            a = menu.addAction(name.capitalize(), lambda n=name: self.set_interpolation(n))
            group.addAction(a)
            self.interp_actions[name] = a
        self.interp_menu = menu
        self.auto_key_action = QAction("Auto-key", self)
        self.auto_key_action.setCheckable(True)
        self.auto_key_action.setChecked(True)
        self.auto_key_action.setToolTip("Auto-key: a drag in Animate mode keys the pose. Off: a drag only "
                                        "previews it (marked unkeyed) until you press K")
        self.auto_key_action.toggled.connect(self._auto_key_toggled)

        # A second row: the animation list and how keys are made and played.
        self._edit_bar = QWidget(self)
        bar = QHBoxLayout(self._edit_bar)
        bar.setContentsMargins(4, 0, 4, 2)
        bar.setSpacing(4)
        self.animations = AnimationBar(self.doc, self._edit_bar, self.dialogs)
        bar.addWidget(self.animations)
        bar.addSpacing(12)
        at = bar.count()
        auto = QToolButton(self)
        auto.setDefaultAction(self.auto_key_action)
        auto.setFocusPolicy(Qt.NoFocus)
        bar.insertWidget(at, auto)
        bar.insertWidget(at + 1, menu_button(self, "Interpolation", "Interpolation of the selected keys (T cycles)",
                                             menu))
        self.unkeyed_label = QLabel("● unkeyed: K keys it", self)
        self.unkeyed_label.setToolTip("Auto-key is off: the pose shown is not keyed. K keys it; "
                                      "another frame or Esc drops it")
        self.unkeyed_label.setStyleSheet(f"color: {style.MODE_COLORS['animate'].name()}; font-weight: bold")
        self.unkeyed_label.hide()
        bar.insertWidget(at + 1, self.unkeyed_label)
        at += 1
        if hasattr(self.doc, "unkeyedChanged"):
            self.doc.unkeyedChanged.connect(self.unkeyed_label.setVisible)
        self.speed_box = QComboBox(self)
        self.speed_box.setToolTip("Playback speed")
        self.speed_box.setFocusPolicy(Qt.NoFocus)
        for s in SPEEDS:
            self.speed_box.addItem(f"{s:g}x", s)
        self.speed_box.setCurrentIndex(SPEEDS.index(1.0))
        self.speed_box.currentIndexChanged.connect(lambda i: self.set_speed(SPEEDS[i]))
        bar.insertWidget(at + 2, self.speed_box)
        bar.insertWidget(at + 3, self._onion_button())
        bar.addStretch(1)

    def _onion_button(self) -> QToolButton:
        """Onion skin settings: ghosts before and after the frame, frames apart."""
        panel = QWidget(self)
        form = QFormLayout(panel)
        self.onion_spins = {}
        for key, label, lo, hi, value in (("before", "Frames before", 0, 20, 3), ("after", "Frames after", 0, 20, 3),
                                          ("step", "Every", 1, 50, 2)):
            spin = QSpinBox(panel)
            spin.setRange(lo, hi)
            spin.setValue(value)
            spin.valueChanged.connect(lambda _v: self.set_onion(**{k: s.value() for k, s in self.onion_spins.items()}))
            form.addRow(label, spin)
            self.onion_spins[key] = spin
        menu = QMenu(self)
        holder = QWidgetAction(menu)
        holder.setDefaultWidget(panel)
        menu.addAction(holder)
        return menu_button(self, "Onion", "Onion skin: ghosts before and after the frame "
                           "(View > Overlays > Onion Skin shows it)", menu)

    def set_onion(self, before: int, after: int, step: int) -> None:
        for key, value in (("before", before), ("after", after), ("step", step)):
            spin = self.onion_spins[key]
            if spin.value() != value:
                spin.blockSignals(True)
                spin.setValue(value)
                spin.blockSignals(False)
        self.onionChanged.emit(int(before), int(after), int(step))

    def editing_actions(self) -> list[QAction]:
        return [self.copy_action, self.paste_action, self.scale_action, self.cycle_action]

    # ------------------------------------------------------------------ playback
    def set_speed(self, speed: float) -> None:
        """Play at ``speed`` times the project's fps (0.25 to 2)."""
        speed = float(min(max(speed, 0.25), 2.0))
        if self.is_playing():  # continue from here at the new speed
            self.pause()
            self.speed = speed
            self.play()
        self.speed = speed
        i = self.speed_box.findData(speed)
        if i >= 0 and i != self.speed_box.currentIndex():
            self.speed_box.setCurrentIndex(i)

    def _auto_key_toggled(self, on: bool) -> None:
        self.auto_key = bool(on)
        if hasattr(self.doc, "set_auto_key"):
            self.doc.set_auto_key(on)

    # ------------------------------------------------------------------ key edits
    def copy_selected_keys(self) -> None:
        keys = self.selected_keys()
        if not keys:
            self._status.setText("Select keys to copy")
            return
        _CLIPBOARD[0] = key_edits.copy_keys(self.doc.project, keys)
        n = sum(map(len, keys.values()))
        self._status.setText(f"Copied {n} key{'s' * (n != 1)}")

    def paste_keys(self, frame: int | None = None) -> None:
        """Paste at the playhead (or ``frame``). Keys copied from one item go to the
        selected items of its kind when others are selected (another bone's rotation)."""
        board = _CLIPBOARD[0]
        if board is None or not board.tracks:
            self._status.setText("Nothing copied")
            return
        frame = self.doc.frame if frame is None else int(frame)
        sources = {p[:2] for p in board.tracks}
        onto = [i for i in self.doc.selection if i not in sources and any(i[0] == s[0] for s in sources)]
        project, pasted = key_edits.paste_keys(self.doc.project, board, frame, onto)
        if not pasted:
            self._status.setText("No track here takes these keys")
            return
        n = sum(map(len, pasted.values()))
        self.doc.apply(f"Paste {n} key{'s' * (n != 1)} at frame {frame}", project, touched=touched(pasted))
        self._set_selection({(p, f) for p, fs in pasted.items() for f in fs})

    def scale_selected_keys(self, factor: float) -> None:
        """Scale the selected keys in time about the playhead (one undo step)."""
        keys = self.selected_keys()
        if not keys or not factor > 0:
            return
        pivot = self.doc.frame
        project = key_edits.scale_keys(self.doc.project, keys, pivot, factor)
        self.doc.apply(f"Scale {sum(map(len, keys.values()))} keys ×{factor:g} about frame {pivot}", project,
                       touched=touched(keys))
        self._set_selection({(p, round(pivot + (f - pivot) * factor)) for p, fs in keys.items() for f in fs})

    def _ask_scale(self) -> None:
        if not self.selected_keys():
            self._status.setText("Select keys to scale")
            return
        answer = self.dialogs.form(self, "Scale keys", [("factor", "Time scale about the playhead:", 1.0,
                                                         {"kind": "float", "min": 0.01, "max": 100.0, "decimals": 2})])
        if answer is not None:
            self.scale_selected_keys(answer["factor"])

    def set_interpolation(self, interp: str) -> None:
        keys = self.selected_keys()
        if not keys:
            self._status.setText("Select keys to set their interpolation")
            return
        project = key_edits.set_interpolation(self.doc.project, keys, interp)
        self.doc.apply(f"Interpolation: {interp}", project, touched=touched(keys))

    def cycle_interpolation(self) -> None:
        """constant -> linear -> bezier -> constant, from the first selected key's."""
        keys = self.selected_keys()
        if not keys:
            return
        path, frames = next(iter(keys.items()))
        track = key_edits.get(self.doc.project, path)
        current = next((k.interp for k in getattr(track, "keys", ()) if hasattr(k, "interp")
                        and k.frame == frames[0]), "bezier")
        self.set_interpolation(INTERPOLATIONS[(INTERPOLATIONS.index(current) + 1) % len(INTERPOLATIONS)])
