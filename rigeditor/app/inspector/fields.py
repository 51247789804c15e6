"""Field widgets of the inspector and the :class:`Form` the sections build into.

Widgets never write the Project: each edit builds a new Project and goes through
``doc.apply`` with a merge key per field (:meth:`Form.apply`), so repeated edits of
one field are one undo step. Spin boxes only ever hand on finite numbers.
"""
from __future__ import annotations

import math

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton,
    QSpinBox, QToolButton, QWidget,
)

from rigeditor.app.guard import Guarded
from rigeditor import edits
from rigeditor.edits import tracks

DEG = 180.0 / math.pi


class _Quiet:
    """Shared by the spin boxes: the model sets values silently, only user edits
    emit ``edited``."""

    def _setup(self, suffix) -> None:
        self.setSuffix(suffix)
        self.setKeyboardTracking(False)
        self.setAccelerated(True)
        self.setMinimumWidth(64)
        self._quiet = False
        self.valueChanged.connect(self._changed)

    def _set_quietly(self, value) -> None:
        self._quiet = True
        try:
            self.setValue(value)
        finally:
            self._quiet = False


class SpinField(Guarded, _Quiet, QDoubleSpinBox):
    """A spin box in display units (model value * ``scale``) that emits
    ``edited(model_value)`` only for finite user edits (Enter, focus out, arrows)."""

    edited = Signal(float)

    def __init__(self, lo, hi, *, decimals=2, step=1.0, suffix="", scale=1.0):
        super().__init__()
        self.scale = scale
        self.setRange(lo, hi)
        self.setDecimals(decimals)
        self.setSingleStep(step)
        self._setup(suffix)

    def set_model(self, value: float) -> None:
        shown = value * self.scale
        if math.isfinite(shown) and abs(self.value() - shown) >= 0.5 * 10 ** -self.decimals():
            self._set_quietly(shown)

    def _changed(self, shown: float) -> None:
        if self._quiet or not math.isfinite(shown):
            return
        self.edited.emit(shown / self.scale)


class IntField(Guarded, _Quiet, QSpinBox):
    """An integer spin box that emits ``edited(value)`` only for user edits."""

    edited = Signal(int)

    def __init__(self, lo: int, hi: int, *, suffix=""):
        super().__init__()
        self.setRange(lo, hi)
        self._setup(suffix)

    def set_model(self, value: int) -> None:
        if self.value() != int(value):
            self._set_quietly(int(value))

    def _changed(self, value: int) -> None:
        if not self._quiet:
            self.edited.emit(int(value))


class KeyButton(Guarded, QToolButton):
    """◆ key on this frame (click removes it), ◇ keyed elsewhere, ○ not keyed (click keys)."""

    def __init__(self, doc, path):
        super().__init__()
        self.doc, self.path = doc, path
        self.setAutoRaise(True)
        self.setObjectName("key:" + ".".join(path))
        self.clicked.connect(self._toggle)

    def sync(self) -> None:
        ch = tracks.channel(self.doc.project, self.path)
        frames = [k[0] if isinstance(k, tuple) else k.frame for k in ch.keys]
        on = self.doc.frame in frames
        text = "◆" if on else ("◇" if frames else "○")
        if self.text() != text:  # re-polishing a button costs more than the comparison
            self.setText(text)
            self.setToolTip("Remove the key on this frame" if on else "Key this value on this frame")
            self.setStyleSheet("color: #f2c14e;" if on else "")

    def _toggle(self) -> None:
        doc, p, f = self.doc, self.doc.project, self.doc.frame
        ch = tracks.channel(p, self.path)
        if any((k[0] if isinstance(k, tuple) else k.frame) == f for k in ch.keys):
            new, label = tracks.delete_keys(p, {self.path: [f]}), "Delete key"
        else:
            new, label = tracks.set_key(p, self.path, f, ch.value_at(f)), "Key"
        doc.apply(f"{label} {self.path[1]} {self.path[2]} @ {f}", new, touched=tracks.touched([self.path]))


def hbox(*widgets) -> tuple[QWidget, QHBoxLayout]:
    """A margin-less row widget holding ``widgets`` (stretch 1 each)."""
    row = QWidget()
    h = QHBoxLayout(row)
    h.setContentsMargins(0, 0, 0, 0)
    for w in widgets:
        h.addWidget(w, 1)
    return row, h


def wrapped_label(text: str) -> QLabel:
    """A read-only line of the form that wraps (a constraint's bones, say)."""
    w = QLabel(text)
    w.setWordWrap(True)
    return w


def constraint_setting(f, title: str, edit, label: str, merge: str | None = None) -> None:
    """Apply ``edit()`` (a Project -> Project constraint edit) from form ``f``: a discrete
    change as its own undo step, or with ``merge`` a field's repeated edits merged into
    one. A refused edit is shown in a dialog titled ``title`` and the form redrawn."""
    if merge is None:
        f.command(title, label, edit)
        return
    try:
        new = edit()
    except edits.EditError as exc:
        f.dialogs.error(f.owner, title, str(exc))
        f.refresh_later()
        return
    f.apply(label, new, None, merge)


class Form:
    """What one rebuild of the inspector builds into: group boxes in ``layout``, the
    named fields (``"<kind>.<name>.<field>"``) and the syncers that copy the project
    into the widgets. ``owner`` is the inspector (parent of dialogs, ``resync`` and
    ``refresh_later``)."""

    def __init__(self, owner, layout):
        self.owner = owner
        self.doc = owner.doc
        self.dialogs = owner.dialogs
        self.rig_actions = owner.rig_actions
        self.layout = layout
        self.fields: dict[str, QWidget] = {}
        self.syncers: list = []

    # ------------------------------------------------------------------ plumbing
    def add(self, name: str, widget: QWidget) -> QWidget:
        widget.setObjectName(name)
        self.fields[name] = widget
        return widget

    def on_sync(self, fn) -> None:
        self.syncers.append(fn)

    def apply(self, label, project, touched, field) -> None:
        """One edit of ``field``: consecutive edits of the same field merge."""
        self.doc.apply(label, project, touched=touched, merge_key=("field", field))

    def command(self, title, label, build, touched=None) -> None:
        """A discrete edit (its own undo step): ``build()`` makes the new project; a
        refusal (EditError) is shown under ``title`` and the fields go back."""
        try:
            project = build()
        except edits.EditError as exc:
            self.dialogs.error(self.owner, title, str(exc))
            self.refresh_later()
            return
        self.doc.apply(label, project, touched=touched)

    def resync(self) -> None:
        self.owner._sync()

    def refresh_later(self) -> None:
        self.owner.refresh_later()

    # ------------------------------------------------------------------ rows
    def group(self, title: str) -> QFormLayout:
        box = QGroupBox(title)
        form = QFormLayout(box)
        form.setFieldGrowthPolicy(QFormLayout.AllNonFixedFieldsGrow)
        self.layout.addWidget(box)
        return form

    def _with_key(self, widget, key_path):
        if key_path is None:
            return widget
        row, h = hbox(widget)
        kb = KeyButton(self.doc, key_path)
        h.addWidget(kb)
        self.on_sync(kb.sync)
        return row

    def _enable(self, w, enabled):
        if callable(enabled):  # follows the project (e.g. the strategy's own bounds)
            self.on_sync(lambda: w.setEnabled(bool(enabled())))
        else:
            w.setEnabled(enabled)

    def spin(self, form, label, name, lo, hi, get, set_, *, decimals=2, step=1.0, suffix="",
             scale=1.0, key_path=None, enabled=True, tip=""):
        w = self.add(name, SpinField(lo, hi, decimals=decimals, step=step, suffix=suffix, scale=scale))
        w.setToolTip(tip)
        w.edited.connect(set_)
        self._enable(w, enabled)
        self.on_sync(lambda: w.set_model(get()))
        form.addRow(label, self._with_key(w, key_path))
        return w

    def int_spin(self, form, label, name, lo, hi, get, set_, *, suffix="", enabled=True, tip=""):
        w = self.add(name, IntField(lo, hi, suffix=suffix))
        w.setToolTip(tip)
        w.edited.connect(set_)
        self._enable(w, enabled)
        self.on_sync(lambda: w.set_model(get()))
        form.addRow(label, w)
        return w

    def vector(self, form, label, name, lo, hi, get, set_, *, key_path=None, enabled=True, decimals=2,
               step=1.0, suffix=""):
        """Two spins (x, y). get() -> (x, y); set_(index, value)."""
        row, h = hbox()
        for i, axis in enumerate("xy"):
            w = self.add(f"{name}.{axis}", SpinField(lo, hi, decimals=decimals, step=step, suffix=suffix))
            w.setPrefix(f"{axis} ")
            w.setEnabled(enabled)
            w.edited.connect(lambda v, i=i: set_(i, v))
            self.on_sync(lambda w=w, i=i: w.set_model(get()[i]))
            h.addWidget(w, 1)
        if key_path is not None:
            kb = KeyButton(self.doc, key_path)
            h.addWidget(kb)
            self.on_sync(kb.sync)
        form.addRow(label, row)

    def name_edit(self, form, kind, name, editable=True):
        w = self.add(f"{kind}.{name}.name", QLineEdit(name))
        w.setReadOnly(not editable)
        doc = self.doc

        def commit():
            new = w.text().strip()
            if new == name or name not in edits.names_of(doc.project, kind):
                return  # unchanged, or a late signal after the rename went through
            try:
                project = edits.rename(doc.project, kind, name, new)
            except edits.EditError as exc:
                w.setText(name)
                self.dialogs.error(self.owner, "Rename", str(exc))
                return
            sel = [(k, new if (k, n) == (kind, name) else n) for k, n in doc.selection]
            doc.apply(f"Rename {kind} {name} to {new}", project)
            doc.select(sel)

        w.editingFinished.connect(commit)
        form.addRow("Name", w)

    def combo(self, form, label, name, items, current, on_change, *, data=None):
        w = self.add(name, QComboBox())
        for i, text in enumerate(items):
            w.addItem(text, data[i] if data else text)
        w.setCurrentIndex(max(w.findData(current), 0))
        w.currentIndexChanged.connect(lambda _i: on_change(w.currentData()))
        form.addRow(label, w)
        return w

    def button(self, form, text, name, slot, label=""):
        b = self.add(name, QPushButton(text))
        b.clicked.connect(slot)
        form.addRow(label, b)
        return b

    def select_link(self, form, label, kind, name):
        b = QPushButton(name)
        b.setFlat(True)
        b.setStyleSheet("text-align: left; text-decoration: underline;")
        b.setToolTip(f"Select {kind} {name}")
        b.clicked.connect(lambda: self.doc.select([(kind, name)]))
        form.addRow(label, b)
        return b
