"""The inspector: every editable field of the selection, with units, and the live
read-outs of the selected chain at the current frame.

Widgets never write the Project: each edit builds a new Project and goes through
``doc.apply`` with a merge key per field, so repeated edits of one field are one undo
step. Units at the edge: degrees, % of chain length, frames, seconds, Hz; radians and
fractions inside. Spin boxes only ever hand on finite numbers.

Animatable values follow the mode: in Animate mode an edit keys the value at the
current frame; in Setup mode it changes the default (a value that already has keys is
keyed, as its default would never show). Chain settings (bend, softness, mix) key only
once they have keys (the key button ◆ starts keying them). Rest-pose fields (length,
offset, rest rotation) are Setup-mode fields.
"""
from __future__ import annotations

import math
from dataclasses import replace

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel,
    QLineEdit, QPushButton, QScrollArea, QSpinBox, QToolButton, QVBoxLayout, QWidget,
)

from rigeditor.app import commands, style, tracks
from rigeditor.app.dialogs import Dialogs
from rigeditor.model import CAUSES
from rigeditor.model.ops import switch_target_space
from rigeditor.model.project import CHARACTER

DEG = 180.0 / math.pi
STRATEGY_LABELS = {"accept": "Accept the gap", "stretch": "Stretch bones", "move_root": "Move root"}
SMOOTHING_LABELS = {"none": "None", "ema": "EMA", "one_euro": "One Euro"}
KEEP_WORLD, REDECLARE = "Keep world position", "Re-declare same numbers"


# ----------------------------------------------------------------------------- read-out helpers

def reach_state(cb, i: int) -> str:
    """'limit', 'out of reach', 'soft' or 'in reach' for row ``i`` of a ChainBake."""
    inner, outer = cb.reach
    d, soft = float(cb.distance[i]), float(cb.softness[i])
    if bool(cb.limited[i]):
        return "limit"
    if d > outer or d < inner:
        return "out of reach"
    if soft > 0 and (d > outer - soft or d < inner + soft):
        return "soft"
    return "in reach"


REACH_COLORS = {"in reach": style.CAUSE_COLORS["none"], "soft": style.CAUSE_COLORS["soft_reach"],
                "out of reach": style.CAUSE_COLORS["out_of_reach"], "limit": style.CAUSE_COLORS["limit"]}


def current_chain(doc) -> str | None:
    """The chain the selection points at: a chain, the chain of a bone, or of a target."""
    p = doc.project
    for kind, name in doc.selection:
        if kind == "chain":
            return name
        if kind == "bone" and p.chain_of_bone(name) is not None:
            return p.chain_of_bone(name).name
        if kind == "target" and p.chain_for_target(name):
            return p.chain_for_target(name)[0].name
    return None


def chain_readout(doc, chain: str) -> dict:
    """Read-outs of ``chain`` at the current frame (plain numbers and names)."""
    cb = doc.bake.chains[chain]
    i = doc.row
    cause = CAUSES[int(cb.cause[i])]
    return {
        "residual": float(cb.residual[i]), "cause": cause, "cause_label": style.CAUSE_LABELS[cause],
        "reach": reach_state(cb, i), "sensitivity": float(cb.sensitivity[i]),
        "stretch": float(cb.stretch[i]), "root_offset": float(math.hypot(*cb.root_offset[i])),
    }


def _css(color) -> str:
    return f"color: {color.name()}; font-weight: bold;"


# ----------------------------------------------------------------------------- field widgets

class SpinField(QDoubleSpinBox):
    """A spin box in display units (model value * ``scale``) that emits
    ``edited(model_value)`` only for finite user edits (Enter, focus out, arrows)."""

    edited = Signal(float)

    def __init__(self, lo, hi, *, decimals=2, step=1.0, suffix="", scale=1.0):
        super().__init__()
        self.scale = scale
        self.setRange(lo, hi)
        self.setDecimals(decimals)
        self.setSingleStep(step)
        self.setSuffix(suffix)
        self.setKeyboardTracking(False)
        self.setAccelerated(True)
        self.setMinimumWidth(64)
        self._quiet = False
        self.valueChanged.connect(self._changed)

    def set_model(self, value: float) -> None:
        shown = value * self.scale
        if not math.isfinite(shown):
            return
        if abs(self.value() - shown) < 0.5 * 10 ** -self.decimals():
            return
        self._quiet = True
        try:
            self.setValue(shown)
        finally:
            self._quiet = False

    def _changed(self, shown: float) -> None:
        if self._quiet or not math.isfinite(shown):
            return
        self.edited.emit(shown / self.scale)


class KeyButton(QToolButton):
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
        self.setText("◆" if on else ("◇" if frames else "○"))
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


# ----------------------------------------------------------------------------- the inspector

class Inspector(QWidget):
    """Fields are named for tests and scripting: ``"<kind>.<name>.<field>"`` (e.g.
    ``chain.arm.softness``), ``project.fps``; find them with ``field(name)``."""

    def __init__(self, doc, dialogs=None, rig_actions=None, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.dialogs = dialogs or Dialogs()
        self.rig_actions = rig_actions
        self._syncers: list = []
        self._signature = None
        self._fields: dict[str, QWidget] = {}
        self._scroll = QScrollArea()
        self._scroll.setWidgetResizable(True)
        self._scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self._scroll.setFrameShape(QScrollArea.NoFrame)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self._scroll)
        self.setMinimumWidth(340)
        doc.selectionChanged.connect(self.refresh)
        doc.projectChanged.connect(self.refresh)
        doc.bakeChanged.connect(self._sync)
        doc.frameChanged.connect(self._sync)
        doc.modeChanged.connect(self.refresh)
        self.refresh()

    # ------------------------------------------------------------------ public
    def field(self, name: str) -> QWidget:
        return self._fields[name]

    def field_names(self) -> list[str]:
        return list(self._fields)

    def refresh(self) -> None:
        """Rebuild when what is shown changed shape, else update the values."""
        sig = self._make_signature()
        if sig != self._signature:
            self._signature = sig
            self._rebuild()
        self._sync()

    def flip_elbow(self, chain: str) -> None:
        doc = self.doc
        new = commands.flip_bend(doc.project, chain, doc.frame, animate=doc.mode == "animate")
        doc.apply(f"Flip elbow of {chain}", new, touched={f"chain:{chain}"})

    # ------------------------------------------------------------------ building
    def _make_signature(self):
        p = self.doc.project
        return (self.doc.selection, self.doc.mode, tuple(p.space_names()),
                tuple((b.name, b.parent) for b in p.bones), tuple((c.name, c.bones) for c in p.chains),
                tuple(t.name for t in p.targets), tuple((s.name, s.parent) for s in p.spaces))

    def _rebuild(self) -> None:
        old = self._scroll.takeWidget()
        if old is not None:
            old.deleteLater()
        self._syncers, self._fields = [], {}
        body = QWidget()
        self._layout = QVBoxLayout(body)
        p = self.doc.project
        shown_chains = []
        chain = current_chain(self.doc)
        if chain is not None:
            self._readout_section(chain)  # first: what the solve is doing, at a glance
        for kind, name in self.doc.selection[:4]:
            if kind == "bone" and any(b.name == name for b in p.bones):
                self._bone_section(name)
            elif kind == "chain" and any(c.name == name for c in p.chains):
                self._chain_section(name)
                shown_chains.append(name)
            elif kind == "target" and any(t.name == name for t in p.targets):
                self._target_section(name)
            elif kind == "space" and any(s.name == name for s in p.spaces):
                self._space_section(name)
        if chain is not None:
            if chain in shown_chains:
                c = p.chain(chain)
                if ("target", c.target) not in self.doc.selection:
                    self._target_section(c.target)
        bones = [n for k, n in self.doc.selection if k == "bone"]
        if len(bones) == 2 and self.rig_actions is not None:
            form = self._group("Two bones selected")
            self._button(form, "Make IK chain…", "make_chain", self.rig_actions.add_ik_chain)
        if not self.doc.selection:
            hint = QLabel("Select a bone, chain, target or scene object\n(in the scene or the outliner).")
            hint.setStyleSheet("color: #8b95a5;")
            self._layout.addWidget(hint)
        self._project_section()
        self._layout.addStretch(1)
        self._scroll.setWidget(body)

    def _group(self, title: str) -> QFormLayout:
        box = QGroupBox(title)
        form = QFormLayout(box)
        form.setFieldGrowthPolicy(QFormLayout.AllNonFixedFieldsGrow)
        self._layout.addWidget(box)
        return form

    def _apply(self, label, project, touched, field):
        self.doc.apply(label, project, touched=touched, merge_key=("field", field))

    def _spin(self, form, label, name, lo, hi, get, set_, *, decimals=2, step=1.0, suffix="",
              scale=1.0, key_path=None, enabled=True, tip=""):
        w = SpinField(lo, hi, decimals=decimals, step=step, suffix=suffix, scale=scale)
        w.setObjectName(name)
        w.setToolTip(tip)
        w.edited.connect(set_)
        self._fields[name] = w
        if callable(enabled):  # follows the project (e.g. the strategy's own bounds)
            self._syncers.append(lambda: w.setEnabled(bool(enabled())))
        else:
            w.setEnabled(enabled)
        self._syncers.append(lambda: w.set_model(get()))
        row = w
        if key_path is not None:
            row = QWidget()
            h = QHBoxLayout(row)
            h.setContentsMargins(0, 0, 0, 0)
            h.addWidget(w, 1)
            kb = KeyButton(self.doc, key_path)
            h.addWidget(kb)
            self._syncers.append(kb.sync)
        form.addRow(label, row)
        return w

    def _vector(self, form, label, name, lo, hi, get, set_, *, key_path=None, enabled=True, decimals=2,
                step=1.0, suffix=""):
        """Two spins (x, y). get() -> (x, y); set_(index, value)."""
        row = QWidget()
        h = QHBoxLayout(row)
        h.setContentsMargins(0, 0, 0, 0)
        for i, axis in enumerate("xy"):
            w = SpinField(lo, hi, decimals=decimals, step=step, suffix=suffix)
            w.setObjectName(f"{name}.{axis}")
            w.setPrefix(f"{axis} ")
            w.setEnabled(enabled)
            w.edited.connect(lambda v, i=i: set_(i, v))
            self._fields[f"{name}.{axis}"] = w
            self._syncers.append(lambda w=w, i=i: w.set_model(get()[i]))
            h.addWidget(w, 1)
        if key_path is not None:
            kb = KeyButton(self.doc, key_path)
            h.addWidget(kb)
            self._syncers.append(kb.sync)
        form.addRow(label, row)

    def _name_edit(self, form, kind, name, editable=True):
        w = QLineEdit(name)
        w.setObjectName(f"{kind}.{name}.name")
        w.setReadOnly(not editable)
        self._fields[w.objectName()] = w

        def commit():
            new = w.text().strip()
            if new == name or name not in commands.names_of(self.doc.project, kind):
                return  # unchanged, or a late signal after the rename went through
            try:
                project = commands.rename(self.doc.project, kind, name, new)
            except commands.CommandError as exc:
                w.setText(name)
                self.dialogs.error(self, "Rename", str(exc))
                return
            sel = [(k, new if (k, n) == (kind, name) else n) for k, n in self.doc.selection]
            self.doc.apply(f"Rename {kind} {name} to {new}", project)
            self.doc.select(sel)

        w.editingFinished.connect(commit)
        form.addRow("Name", w)

    def _combo(self, form, label, name, items, current, on_change, *, data=None):
        w = QComboBox()
        w.setObjectName(name)
        for i, text in enumerate(items):
            w.addItem(text, data[i] if data else text)
        idx = w.findData(current)
        w.setCurrentIndex(max(idx, 0))
        w.currentIndexChanged.connect(lambda _i: on_change(w.currentData()))
        self._fields[name] = w
        form.addRow(label, w)
        return w

    def _button(self, form, text, name, slot, label=""):
        b = QPushButton(text)
        b.setObjectName(name)
        b.clicked.connect(slot)
        self._fields[name] = b
        form.addRow(label, b)
        return b

    def _select_link(self, form, label, kind, name):
        b = QPushButton(name)
        b.setFlat(True)
        b.setStyleSheet("text-align: left; text-decoration: underline;")
        b.setToolTip(f"Select {kind} {name}")
        b.clicked.connect(lambda: self.doc.select([(kind, name)]))
        form.addRow(label, b)

    # ------------------------------------------------------------------ sections
    def _bone_section(self, name):
        doc, p = self.doc, self.doc.project
        bone = p.bone(name)
        setup = doc.mode == "setup"
        form = self._group(f"Bone · {name}")
        self._name_edit(form, "bone", name)
        below = set(commands.descendants(p, name)) | {name}
        parents = [None] + [b.name for b in p.bones if b.name not in below]
        self._combo(form, "Parent", f"bone.{name}.parent", ["(root: character)"] + parents[1:],
                    bone.parent, lambda v: self._reparent_bone(name, v), data=parents)
        rest_tip = "" if setup else "Rest pose: switch to Setup mode to edit"
        chain = p.chain_of_bone(name)
        at_tip = chain is not None and chain.bones.index(name) > 0
        b = lambda: doc.project.bone(name)  # noqa: E731

        def set_len(v):
            try:
                new = commands.set_bone_length(doc.project, name, v)
            except commands.CommandError:
                return
            self._apply(f"Set length of {name}", new, None, f"bones.{name}.length")
        self._spin(form, "Length", f"bone.{name}.length", 0.01, 1e5, lambda: b().length, set_len,
                   suffix=" u", enabled=setup, tip=rest_tip)

        def set_offset(i, v):
            off = list(b().rest_offset)
            off[i] = v
            self._apply(f"Move {name}", doc.project.with_bone(name, rest_offset=tuple(off)), None,
                        f"bones.{name}.rest_offset")
        self._vector(form, "Rest offset", f"bone.{name}.rest_offset", -1e5, 1e5, lambda: b().rest_offset,
                     set_offset, enabled=setup and not at_tip)
        self._spin(form, "Rest rotation", f"bone.{name}.rest_rotation", -360.0, 360.0,
                   lambda: b().rest_rotation,
                   lambda v: self._apply(f"Rotate {name} (rest)", doc.project.with_bone(name, rest_rotation=v),
                                         None, f"bones.{name}.rest_rotation"),
                   suffix="°", scale=DEG, decimals=1, enabled=setup, tip=rest_tip)
        path = ("bone", name, "rotation")
        self._spin(form, "FK rotation", f"bone.{name}.rotation", -720.0, 720.0,
                   lambda: b().rotation.value_at(doc.frame)[0],
                   lambda v: self._apply(f"Key rotation of {name}",
                                         commands.set_value(doc.project, path, doc.frame, v, key=True), None,
                                         f"bones.{name}.rotation@{doc.frame}"),
                   suffix="°", scale=DEG, decimals=1, key_path=path, enabled=not setup,
                   tip="Animated rotation on top of the rest pose (keys in Animate mode)")
        if chain is not None:
            self._select_link(form, "Driven by IK", "chain", chain.name)
        if self.rig_actions is not None:
            self._button(form, "Add child bone…", f"bone.{name}.add_child",
                         lambda: self.rig_actions.add_child_bone(name))

    def _reparent_bone(self, name, parent):
        try:
            new = commands.reparent_bone(self.doc.project, name, parent)
        except commands.CommandError as exc:
            self.dialogs.error(self, "Reparent", str(exc))
            self.refresh_later()
            return
        self.doc.apply(f"Reparent {name} to {parent or 'root'}", new)

    def refresh_later(self):
        from PySide6.QtCore import QTimer

        self._signature = None
        QTimer.singleShot(0, self.refresh)

    def _chain_section(self, name):
        doc = self.doc
        c0 = doc.project.chain(name)
        c = lambda: doc.project.chain(name)  # noqa: E731
        touched = {f"chain:{name}"}
        form = self._group(f"IK chain · {name}")
        self._name_edit(form, "chain", name)
        form.addRow("Bones", QLabel(" → ".join(c0.bones)))
        self._select_link(form, "Target", "target", c0.target)

        # Bend and Flip elbow
        bend_row = QWidget()
        h = QHBoxLayout(bend_row)
        h.setContentsMargins(0, 0, 0, 0)
        bend_label = QLabel()
        bend_label.setObjectName(f"chain.{name}.bend")
        h.addWidget(bend_label, 1)
        flip = QPushButton("Flip elbow")
        flip.setObjectName(f"chain.{name}.flip")
        flip.setToolTip("Mirror the elbow to the other side of the shoulder–target line (bend × −1)")
        flip.clicked.connect(lambda: self.flip_elbow(name))
        h.addWidget(flip)
        kb = KeyButton(doc, ("chain", name, "bend"))
        h.addWidget(kb)
        self._fields[f"chain.{name}.bend"] = bend_label
        self._fields[f"chain.{name}.flip"] = flip

        def sync_bend():
            v = c().bend.value_at(doc.frame)[0]
            bend_label.setText("+1 (counter-clockwise)" if v >= 0 else "−1 (clockwise)")
            kb.sync()
        self._syncers.append(sync_bend)
        form.addRow("Bend", bend_row)

        def channel_setter(attr, label):
            path = ("chain", name, attr)

            def set_(v):
                # Chain settings key only once keyed (see the module docstring).
                new = commands.set_value(doc.project, path, doc.frame, v, key=False)
                keyed = bool(tracks.channel(doc.project, path).keys)
                self._apply(f"Set {label} of {name}", new, touched,
                            f"chains.{name}.{attr}" + (f"@{doc.frame}" if keyed else ""))
            return set_

        self._spin(form, "Softness", f"chain.{name}.softness", 0.0, 50.0,
                   lambda: c().softness.value_at(doc.frame)[0], channel_setter("softness", "softness"),
                   suffix=" %", scale=100.0, decimals=1, step=0.5, key_path=("chain", name, "softness"),
                   tip="Soft reach width, % of the chain's length (typical 3–8 %)")
        self._spin(form, "Mix", f"chain.{name}.mix", 0.0, 1.0,
                   lambda: c().mix.value_at(doc.frame)[0], channel_setter("mix", "IK mix"),
                   decimals=2, step=0.05, key_path=("chain", name, "mix"), tip="0 = FK pose, 1 = IK pose")

        # Limits, per bone
        lim_form = self._group(f"Joint limits · {name}")
        for i, bone in enumerate(c0.bones):
            self._limit_row(lim_form, name, i, bone)

        # Strategy
        st_form = self._group(f"When a limit binds · {name}")
        kinds = list(STRATEGY_LABELS)
        self._combo(st_form, "Strategy", f"chain.{name}.strategy", [STRATEGY_LABELS[k] for k in kinds],
                    c0.strategy.kind, lambda v: self._set_strategy(name, kind=v), data=kinds)
        def kind_is(k):
            return lambda: c().strategy.kind == k
        self._spin(st_form, "Max stretch", f"chain.{name}.max_stretch", 0.0, 50.0,
                   lambda: c().strategy.max_stretch, lambda v: self._set_strategy(name, max_stretch=v),
                   suffix=" %", scale=100.0, decimals=1, enabled=kind_is("stretch"),
                   tip="Bones may scale by up to ± this much (stretch strategy)")
        self._spin(st_form, "Max root offset", f"chain.{name}.max_root_offset", 0.0, 1e5,
                   lambda: c().strategy.max_root_offset, lambda v: self._set_strategy(name, max_root_offset=v),
                   suffix=" u", enabled=kind_is("move_root"), tip="How far the shoulder may lean (move root)")
        self._spin(st_form, "Root smoothing", f"chain.{name}.root_time_constant", 0.0, 1000.0,
                   lambda: c().strategy.root_time_constant,
                   lambda v: self._set_strategy(name, root_time_constant=v),
                   suffix=" frames", decimals=1, enabled=kind_is("move_root"),
                   tip="Time constant smoothing the root offset over frames (move root)")

        # Target smoothing
        sm_form = self._group(f"Target smoothing · {name}")
        sk = list(SMOOTHING_LABELS)
        self._combo(sm_form, "Filter", f"chain.{name}.smoothing", [SMOOTHING_LABELS[k] for k in sk],
                    c0.smoothing.kind, lambda v: self._set_smoothing(name, kind=v), data=sk)
        def filter_is(k):
            return lambda: c().smoothing.kind == k
        self._spin(sm_form, "Time constant", f"chain.{name}.time_constant_s", 0.001, 10.0,
                   lambda: c().smoothing.time_constant_s, lambda v: self._set_smoothing(name, time_constant_s=v),
                   suffix=" s", decimals=3, step=0.01, enabled=filter_is("ema"),
                   tip="EMA: larger is smoother and lags more")
        self._spin(sm_form, "Min cutoff", f"chain.{name}.min_cutoff_hz", 0.001, 100.0,
                   lambda: c().smoothing.min_cutoff_hz, lambda v: self._set_smoothing(name, min_cutoff_hz=v),
                   suffix=" Hz", decimals=3, step=0.1, enabled=filter_is("one_euro"),
                   tip="One Euro: lower is steadier when the target is still")
        self._spin(sm_form, "Beta", f"chain.{name}.beta", 0.0, 100.0,
                   lambda: c().smoothing.beta, lambda v: self._set_smoothing(name, beta=v),
                   decimals=4, step=0.001, enabled=filter_is("one_euro"),
                   tip="One Euro: cutoff rise per unit/s of target speed (higher lags less)")
        self._spin(sm_form, "Speed cutoff", f"chain.{name}.d_cutoff_hz", 0.001, 100.0,
                   lambda: c().smoothing.d_cutoff_hz, lambda v: self._set_smoothing(name, d_cutoff_hz=v),
                   suffix=" Hz", decimals=3, step=0.1, enabled=filter_is("one_euro"))

    def _limit_row(self, form, name, i, bone):
        doc = self.doc
        row = QWidget()
        h = QHBoxLayout(row)
        h.setContentsMargins(0, 0, 0, 0)
        box = QCheckBox()
        box.setObjectName(f"chain.{name}.limit{i}.on")
        lo = SpinField(-180.0, 180.0, suffix="°", scale=DEG, decimals=1)
        hi = SpinField(-180.0, 180.0, suffix="°", scale=DEG, decimals=1)
        lo.setObjectName(f"chain.{name}.limit{i}.min")
        hi.setObjectName(f"chain.{name}.limit{i}.max")
        for w in (box, lo, hi):
            self._fields[w.objectName()] = w
        h.addWidget(box)
        h.addWidget(lo, 1)
        h.addWidget(QLabel("to"))
        h.addWidget(hi, 1)

        def current():
            return doc.project.chain(name).limit(i)

        def write(value, field):
            c = doc.project.chain(name)
            limits = list(c.limits) + [None] * (len(c.bones) - len(c.limits))
            limits[i] = value
            while limits and limits[-1] is None:
                limits.pop()
            self._apply(f"Set limits of {bone}", doc.project.with_chain(name, limits=tuple(limits)),
                        {f"chain:{name}"}, f"chains.{name}.limits[{i}].{field}")

        def toggled(on):
            if on and current() is None:
                write((-math.pi, math.pi) if i == 0 else (-math.radians(150), math.radians(150)), "on")
            elif not on and current() is not None:
                write(None, "on")

        def set_bound(which, v):
            lim = current()
            if lim is None:
                return
            a, b = lim
            a, b = (v, max(b, v)) if which == 0 else (min(a, v), v)
            write((a, b), ("min", "max")[which])

        box.toggled.connect(toggled)
        lo.edited.connect(lambda v: set_bound(0, v))
        hi.edited.connect(lambda v: set_bound(1, v))

        def sync():
            lim = current()
            box.blockSignals(True)
            box.setChecked(lim is not None)
            box.blockSignals(False)
            lo.setEnabled(lim is not None)
            hi.setEnabled(lim is not None)
            if lim is not None:
                lo.set_model(lim[0])
                hi.set_model(lim[1])
        self._syncers.append(sync)
        form.addRow(f"{bone}", row)
        rel = "in the shoulder space" if i == 0 else f"relative to {doc.project.chain(name).bones[i - 1]}"
        row.setToolTip(f"Allowed rotation of {bone}, {rel}")

    def _set_strategy(self, name, **changes):
        c = self.doc.project.chain(name)
        strategy = replace(c.strategy, **changes)
        if strategy == c.strategy:
            return
        field = next(iter(changes))
        self._apply(f"Set limit strategy of {name}", self.doc.project.with_chain(name, strategy=strategy),
                    {f"chain:{name}"}, f"chains.{name}.strategy.{field}")

    def _set_smoothing(self, name, **changes):
        c = self.doc.project.chain(name)
        try:
            smoothing = replace(c.smoothing, **changes)
        except ValueError:
            return
        if smoothing == c.smoothing:
            return
        field = next(iter(changes))
        self._apply(f"Set target smoothing of {name}", self.doc.project.with_chain(name, smoothing=smoothing),
                    {f"chain:{name}"}, f"chains.{name}.smoothing.{field}")

    def _target_section(self, name):
        doc = self.doc
        t = lambda: doc.project.target(name)  # noqa: E731
        form = self._group(f"Target · {name}")
        self._name_edit(form, "target", name)
        spaces = doc.project.space_names()
        combo = self._combo(form, "Declared space", f"target.{name}.space", spaces,
                            t().space.value_at(doc.frame), lambda v: self.change_target_space(name, v))

        def sync_combo():
            combo.blockSignals(True)
            combo.setCurrentIndex(max(combo.findData(t().space.value_at(doc.frame)), 0))
            combo.blockSignals(False)
            color = style.space_color(doc.project, combo.currentData())
            combo.setStyleSheet(f"QComboBox {{ border-left: 6px solid {color.name()}; }}")
        self._syncers.append(sync_combo)
        path = ("target", name, "position")

        def set_pos(i, v):
            pos = list(t().position.value_at(doc.frame))
            pos[i] = v
            new = commands.set_value(doc.project, path, doc.frame, pos, key=doc.mode == "animate")
            self._apply(f"Move target {name}", new, {f"target:{name}"}, f"targets.{name}.position@{doc.frame}")
        self._vector(form, "Position", f"target.{name}.position", -1e5, 1e5,
                     lambda: t().position.value_at(doc.frame), set_pos, key_path=path, suffix="")
        users = [c.name for c in doc.project.chain_for_target(name)]
        form.addRow("Drives", QLabel(", ".join(users) or "no chain"))

    def change_target_space(self, name, space):
        """Declare target ``name`` in ``space`` from the current frame: asks whether to keep
        its world position (a pop-free switch) or keep its numbers."""
        doc = self.doc
        t = doc.project.target(name)
        if space == t.space.value_at(doc.frame):
            return
        answer = self.dialogs.choose(
            self, "Change declared space",
            f"Declare '{name}' in '{space}' from frame {doc.frame}.\n\n"
            f"Keep world position: the target stays where it is (keys are converted).\n"
            f"Re-declare: the same numbers, now read in '{space}' (the target moves).",
            [KEEP_WORLD, REDECLARE])
        if answer == KEEP_WORLD:
            new = switch_target_space(doc.project, name, doc.frame, space)
            doc.apply(f"Switch {name} to {space} (keep world position)", new, touched={f"target:{name}"})
        elif answer == REDECLARE:
            new = commands.redeclare_target_space(doc.project, name, doc.frame, space)
            doc.apply(f"Declare {name} in {space}", new, touched={f"target:{name}"})
        self._sync()

    def _space_section(self, name):
        doc = self.doc
        s = lambda: doc.project.space(name)  # noqa: E731
        form = self._group(f"Scene object · {name}" if name != CHARACTER else "Character space")
        self._name_edit(form, "space", name, editable=name != CHARACTER)
        blocked = {name} | self._space_descendants(name)
        parents = [n for n in doc.project.space_names() if n not in blocked]
        self._combo(form, "Parent", f"space.{name}.parent", parents, s().parent,
                    lambda v: self._reparent_space(name, v))
        key = doc.mode == "animate"

        def setter(attr, label, transform=lambda v: v):
            path = ("space", name, attr)

            def set_(*args):
                if len(args) == 2:
                    i, v = args
                    value = list(getattr(s(), attr).value_at(doc.frame))
                    value[i] = v
                else:
                    value = [args[0]]
                value = transform(value)
                if value is None:
                    self._sync()
                    return
                new = commands.set_value(doc.project, path, doc.frame, value, key=key)
                self._apply(f"{label} {name}", new, None, f"spaces.{name}.{attr}@{doc.frame}")
            return set_

        def nonzero(v):
            return None if any(abs(x) < 1e-6 for x in v) else v

        self._vector(form, "Position", f"space.{name}.position", -1e5, 1e5,
                     lambda: s().position.value_at(doc.frame), setter("position", "Move"),
                     key_path=("space", name, "position"))
        self._spin(form, "Rotation", f"space.{name}.rotation", -720.0, 720.0,
                   lambda: s().rotation.value_at(doc.frame)[0], setter("rotation", "Rotate"),
                   suffix="°", scale=DEG, decimals=1, key_path=("space", name, "rotation"))
        self._vector(form, "Scale", f"space.{name}.scale", -100.0, 100.0,
                     lambda: s().scale.value_at(doc.frame), setter("scale", "Scale", nonzero),
                     key_path=("space", name, "scale"), decimals=3, step=0.05)
        users = commands.targets_in_space(doc.project, name)
        form.addRow("Targets", QLabel(", ".join(users) or "none declared here"))

    def _space_descendants(self, name):
        p = self.doc.project
        out, stack = set(), [name]
        while stack:
            n = stack.pop()
            for s in p.spaces:
                if s.parent == n and s.name not in out:
                    out.add(s.name)
                    stack.append(s.name)
        return out

    def _reparent_space(self, name, parent):
        try:
            new = commands.reparent_space(self.doc.project, name, parent)
        except commands.CommandError as exc:
            self.dialogs.error(self, "Parent", str(exc))
            self.refresh_later()
            return
        self.doc.apply(f"Parent {name} to {parent}", new)

    def _project_section(self):
        doc = self.doc
        tl = lambda: doc.project.timeline  # noqa: E731
        form = self._group("Project")
        name = QLineEdit(doc.project.name)
        name.setObjectName("project.name")
        self._fields["project.name"] = name

        def set_name():
            if name.text().strip() and name.text().strip() != doc.project.name:
                doc.apply("Rename project", replace(doc.project, name=name.text().strip()))
        name.editingFinished.connect(set_name)
        form.addRow("Name", name)
        self._spin(form, "Frame rate", "project.fps", 1.0, 240.0,
                   lambda: tl().fps, lambda v: self._apply("Set frame rate", replace(
                       doc.project, timeline=replace(tl(), fps=v)), None, "timeline.fps"),
                   suffix=" fps", decimals=2)
        row = QWidget()
        h = QHBoxLayout(row)
        h.setContentsMargins(0, 0, 0, 0)
        start, end = QSpinBox(), QSpinBox()
        for w, attr in ((start, "start"), (end, "end")):
            w.setObjectName(f"project.{attr}")
            w.setRange(-100000, 100000)
            w.setKeyboardTracking(False)
            self._fields[w.objectName()] = w
            h.addWidget(w, 1)
        h.insertWidget(1, QLabel("to"))

        def set_range(attr, v):
            t = tl()
            new = replace(t, **{attr: int(v)})
            if new.end < new.start or new == t:
                self._sync()
                return
            self._apply("Set frame range", replace(doc.project, timeline=new), None, f"timeline.{attr}")
        start.valueChanged.connect(lambda v: set_range("start", v))
        end.valueChanged.connect(lambda v: set_range("end", v))

        def sync():
            for w, v in ((start, tl().start), (end, tl().end)):
                if w.value() != v:
                    w.blockSignals(True)
                    w.setValue(v)
                    w.blockSignals(False)
        self._syncers.append(sync)
        form.addRow("Frames", row)

    def _readout_section(self, chain):
        form = self._group(f"Live · {chain}")
        labels = {}
        for key, title in (("residual", "Residual"), ("reach", "Reach"), ("sensitivity", "Sensitivity"),
                           ("stretch", "Stretch"), ("root_offset", "Root offset")):
            lab = QLabel()
            lab.setObjectName(f"readout.{key}")
            lab.setTextInteractionFlags(Qt.TextSelectableByMouse)
            self._fields[f"readout.{key}"] = lab
            labels[key] = lab
            form.addRow(title, lab)

        def sync():
            if chain not in self.doc.bake.chains:
                return
            r = chain_readout(self.doc, chain)
            cause_color = style.CAUSE_COLORS[r["cause"]]
            labels["residual"].setText(f"{r['residual']:.3f} u — {r['cause_label']}")
            labels["residual"].setStyleSheet(_css(cause_color))
            labels["reach"].setText(r["reach"])
            labels["reach"].setStyleSheet(_css(REACH_COLORS[r["reach"]]))
            labels["sensitivity"].setText(f"{r['sensitivity']:.2f} °/u")
            labels["sensitivity"].setStyleSheet(_css(style.sensitivity_color(r["sensitivity"])))
            labels["stretch"].setText(f"{(r['stretch'] - 1.0) * 100.0:+.1f} %")
            labels["root_offset"].setText(f"{r['root_offset']:.2f} u")
        self._syncers.append(sync)

    # ------------------------------------------------------------------ values
    def _sync(self, *_):
        if self._make_signature() != self._signature:
            return  # a rebuild is due (refresh follows on projectChanged)
        for s in self._syncers:
            s()


__all__ = ["Inspector", "SpinField", "KeyButton", "reach_state", "current_chain", "chain_readout",
           "KEEP_WORLD", "REDECLARE"]
