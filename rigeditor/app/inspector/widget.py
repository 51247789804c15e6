"""The Inspector widget: rebuilds its sections when the shape of what is shown
changes (selection, mode, structure), else only copies values into the fields."""
from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget

from rigeditor.app.gesture_pacing import GesturePacer
from rigeditor.app.guard import Guarded
from rigeditor import edits
from rigeditor.app.dialogs import Dialogs
from rigeditor.app.inspector.bone import bone_section
from rigeditor.app.inspector.chain import chain_section
from rigeditor.app.inspector.fields import Form
from rigeditor.app.inspector.project import project_section
from rigeditor.app.inspector.readouts import current_chain, readout_section
from rigeditor.app.inspector.slot_color import slot_color_section
from rigeditor.app.inspector.slot import slot_section
from rigeditor.app.inspector.space import space_section
from rigeditor.app.inspector.target import change_target_space, target_section
from rigeditor.app.inspector.path import path_section
from rigeditor.app.inspector.transform import transform_section
from rigeditor.app.inspector.physics import physics_section

SHOWN_ITEMS = 4
"""Sections shown for a multiple selection (the first items)."""


class Inspector(Guarded, QWidget):
    """Fields are named for tests and scripting: ``"<kind>.<name>.<field>"`` (e.g.
    ``chain.arm.softness``), ``project.fps``, ``readout.residual``; find them with
    ``field(name)``."""

    def __init__(self, doc, dialogs=None, rig_actions=None, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.dialogs = dialogs or Dialogs()
        self.rig_actions = rig_actions
        self._syncers: list = []
        self._signature = None
        self._shown = ()
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
        # A project change is always followed by bakeChanged, which copies the
        # values: rebuild here only when the shape changed (one sync per change).
        doc.projectChanged.connect(self._rebuild_if_reshaped)
        # During a drag the values follow at a reading pace (gesture_pacing), the
        # last one at the drag's end.
        self._paced_sync = GesturePacer(doc, self._sync, self)
        doc.bakeChanged.connect(self._paced_sync)
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
        self._rebuild_if_reshaped()
        self._sync()

    def _rebuild_if_reshaped(self) -> None:
        sig = self._make_signature()
        if sig != self._signature:
            self._signature = sig
            self._rebuild()

    def refresh_later(self) -> None:
        """Rebuild on the next turn of the event loop (after a refused edit, so a combo
        box goes back to the project's value)."""
        self._signature = None
        QTimer.singleShot(0, self.refresh)

    def flip_elbow(self, chain: str) -> None:
        doc = self.doc
        new = edits.flip_bend(doc.project, chain, doc.frame, animate=doc.mode == "animate")
        doc.apply(f"Flip elbow of {chain}", new, touched={f"chain:{chain}"})

    def change_target_space(self, name: str, space: str) -> None:
        """Declare target ``name`` in ``space`` from the current frame (asks how)."""
        change_target_space(self.doc, self.dialogs, self, name, space)
        self._sync()

    # ------------------------------------------------------------------ building
    def _make_signature(self):
        # Asked on every frame and bake: the same project object has the same shape.
        p, key = self.doc.project, (self.doc.selection, self.doc.mode)
        memo = getattr(self, "_signature_memo", None)
        if memo is not None and memo[0] is p and memo[1] == key:
            return memo[2]
        sig = self._shape_of(p)
        self._signature_memo = (p, key, sig)
        return sig

    def _shape_of(self, p):
        return (self.doc.selection, self.doc.mode, tuple(p.space_names()),
                tuple((b.name, b.parent) for b in p.bones),
                tuple((c.name, c.bones, c.solver, c.target) for c in p.chains),
                tuple(t.name for t in p.targets), tuple((s.name, s.parent) for s in p.spaces),
                tuple((s.name, s.bone, s.attachment) for s in p.art.slots),
                tuple((t.name, t.bones, t.target, t.local, t.relative) for t in p.transforms),
                tuple((c.name, c.bones, c.target, c.position_mode, c.spacing_mode, c.rotate_mode) for c in p.paths),
                tuple((c.name, c.bone) for c in p.physics))

    def _rebuild(self) -> None:
        # The same items shown again (a solver switch, an undo): keep the scroll position.
        bar = self._scroll.verticalScrollBar()
        scrolled = bar.value() if self._shown == self.doc.selection else 0
        self._shown = self.doc.selection
        old = self._scroll.takeWidget()
        if old is not None:
            old.deleteLater()
        body = QWidget()
        f = Form(self, QVBoxLayout(body))
        p = self.doc.project
        shown_chains = []
        chain = current_chain(self.doc)
        if chain is not None:
            readout_section(f, chain)  # first: what the solve is doing, at a glance
        for kind, name in self.doc.selection[:SHOWN_ITEMS]:
            if kind == "bone" and any(b.name == name for b in p.bones):
                bone_section(f, name)
            elif kind == "chain" and any(c.name == name for c in p.chains):
                chain_section(f, name)
                shown_chains.append(name)
            elif kind == "target" and any(t.name == name for t in p.targets):
                target_section(f, name)
            elif kind == "space" and any(s.name == name for s in p.spaces):
                space_section(f, name)
            elif kind == "slot" and any(s.name == name for s in p.art.slots):
                slot_section(f, name)
                slot_color_section(f, name)
            elif kind == "transform" and any(t.name == name for t in p.transforms):
                transform_section(f, name)
            elif kind == "path" and any(c.name == name for c in p.paths):
                path_section(f, name)
            elif kind == "physics" and any(c.name == name for c in p.physics):
                physics_section(f, name)
        if chain in shown_chains:
            c = p.chain(chain)
            if ("target", c.target) not in self.doc.selection:
                target_section(f, c.target)
        self._bones_section(f)
        if not self.doc.selection:
            hint = QLabel("Select a bone, chain, target, scene object or slot\n(in the scene or the outliner).")
            hint.setStyleSheet("color: #8b95a5;")
            f.layout.addWidget(hint)
        project_section(f)
        f.layout.addStretch(1)
        self._fields, self._syncers = f.fields, f.syncers
        self._scroll.setWidget(body)
        if scrolled:  # the new body's size settles on the next turn of the event loop
            QTimer.singleShot(0, self, lambda: bar.setValue(scrolled))

    def _bones_section(self, f) -> None:
        """Two or more bones selected: make them an IK chain (or say why not)."""
        bones = self.doc.selected("bone")
        if len(bones) < 2 or self.rig_actions is None:
            return
        form = f.group(f"{len(bones)} bones selected")
        button = f.button(form, "Make IK chain…", "make_chain", self.rig_actions.add_ik_chain)
        try:
            run = edits.chain_run(self.doc.project, bones)
        except edits.EditError as exc:
            button.setEnabled(False)
            why = f.add("make_chain.why", QLabel(str(exc)))
            why.setWordWrap(True)
            why.setStyleSheet("color: #8b95a5;")
            form.addRow(why)
            return
        solver = edits.default_solver(len(run))
        button.setToolTip(f"{' → '.join(run)}: {'analytic' if solver == 'analytic' else solver.upper()} solver")

    # ------------------------------------------------------------------ values
    def _sync(self, *_):
        if self._make_signature() != self._signature:
            return  # a rebuild is due (refresh follows on projectChanged)
        for s in self._syncers:
            s()
