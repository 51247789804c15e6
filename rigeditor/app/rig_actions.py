"""Rig-building actions shared by the menus, the outliner's context menu and the
inspector's buttons: each asks its question and makes one ``doc.apply``."""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeySequence

from rigeditor.app.guard import Guarded
from rigeditor import edits
from rigeditor.app.inspector import current_chain
from rigeditor.app.tools import KEYS, EditTool
from rigeditor.model.data.project import WORLD


def make_action(owner, text, slot, shortcut=None, tip="") -> QAction:
    """A QAction owned by ``owner`` calling ``slot()`` (its checked flag dropped)."""
    a = QAction(text, owner)
    a.triggered.connect(lambda _checked=False: slot())
    if shortcut:
        a.setShortcut(QKeySequence(shortcut))
    a.setStatusTip(tip)
    return a


class RigActions(Guarded, QObject):
    """Rig-building gestures (add bone, add IK chain, scene objects, delete), each with
    its question to the user and one ``doc.apply``. Shared by menus, the outliner's
    context menu and the inspector's buttons. statusMessage(str): what a gesture did,
    for the status bar."""

    statusMessage = Signal(str)

    def __init__(self, doc, dialogs, window):
        super().__init__(window)
        self.doc, self.dialogs, self.window = doc, dialogs, window
        self.tool = EditTool.of(doc)

        def act(text, slot, shortcut=None, tip=""):
            return make_action(self, text, slot, shortcut, tip)

        self.add_root_bone_action = act("Add root bone…", self.add_root_bone, tip="A new bone in character space")
        self.add_child_bone_action = act("Add child bone…", lambda: self.add_child_bone(),
                                         tip="A new bone at the tip of the selected bone")
        self.add_chain_action = act("Add IK chain…", self.add_ik_chain, KEYS["add_chain"],
                                    "A selected parent → child run of bones becomes an IK chain with a "
                                    "target at its end (2 bones: analytic; more: FABRIK)")
        self.add_object_action = act("Add scene object…", lambda: self.add_scene_object(),
                                     tip="A new space (door, cup, platform) targets can be declared in")
        self.delete_action = act("Delete", self.delete_selected, tip="Delete the selected items")
        self.flip_action = act("Flip elbow", self.flip_elbow, "Ctrl+E", "Mirror the selected chain's elbow (bend × −1)")
        self.tool_group = QActionGroup(self)
        self.select_tool_action = act("Select tool", lambda: self.tool.set_tool("select"), KEYS["select"])
        self.bone_tool_action = act("Bone tool", lambda: self.tool.set_tool("bone"), KEYS["bone"],
                                    "Drag in the scene to draw a bone (from a bone's tip: a child there)")
        for a in (self.select_tool_action, self.bone_tool_action):
            a.setCheckable(True)
            self.tool_group.addAction(a)
        self.tool.toolChanged.connect(self._tool_changed)
        self.tool.error.connect(lambda msg: self.dialogs.error(self.window, "Add bone", msg))
        self._tool_changed(self.tool.tool)
        doc.selectionChanged.connect(self.update_enabled)
        doc.projectChanged.connect(self.update_enabled)
        self.update_enabled()

    def _tool_changed(self, name):
        if name in ("select", "bone"):  # the mesh tools' actions check themselves (mesh_actions)
            (self.bone_tool_action if name == "bone" else self.select_tool_action).setChecked(True)

    def update_enabled(self):
        bones = self.doc.selected("bone")
        self.add_child_bone_action.setEnabled(len(bones) == 1)
        self.add_chain_action.setEnabled(len(bones) >= 2)
        self.delete_action.setEnabled(bool(self.doc.selection))
        self.flip_action.setEnabled(self._flippable_chain() is not None)

    def _flippable_chain(self):
        """The current chain if it has an elbow to flip (the analytic solver's bend)."""
        chain = current_chain(self.doc)
        if chain is None or self.doc.project.chain(chain).solver != "analytic":
            return None
        return chain

    def context_actions(self, item):
        """Actions for the outliner's context menu on ``item`` ((kind, name) or None)."""
        kind = item[0] if item else None
        group = item[1] if kind == "group" else None
        out = []
        if kind == "bone":
            out += [self.add_child_bone_action, self.add_chain_action]
        if kind in (None, "group") and group in (None, "bone"):
            out.append(self.add_root_bone_action)
        if kind in ("space", None) or group == "space":
            out.append(self.add_object_action)
        if kind == "chain":
            out.append(self.flip_action)
        if kind not in (None, "group"):
            out += [None, self.delete_action]
        return out

    # ------------------------------------------------------------------ gestures
    def _bone_form(self, title, name):
        return self.dialogs.form(self.window, title, [
            ("name", "Name", name, {"kind": "text"}),
            ("length", "Length", 100.0, {"kind": "float", "min": 0.01, "max": 1e5, "suffix": " u"}),
            ("angle", "Angle", 0.0, {"kind": "float", "min": -360.0, "max": 360.0, "decimals": 1,
                                     "suffix": "° (relative to the parent)"}),
        ])

    def _add_bone(self, parent, values):
        import math

        try:
            project, name = edits.add_bone(self.doc.project, parent, float(values["length"]),
                                              math.radians(float(values["angle"])), name=values["name"])
        except edits.EditError as exc:
            self.dialogs.error(self.window, "Add bone", str(exc))
            return None
        self.doc.apply(f"Add bone {name}", project)
        self.doc.select([("bone", name)])
        return name

    def _new_bone_name(self):
        return edits.numbered_name(edits.names_of(self.doc.project, "bone"), "bone")

    def add_root_bone(self):
        values = self._bone_form("Add root bone", self._new_bone_name())
        return self._add_bone(None, values) if values else None

    def add_child_bone(self, parent=None):
        if parent is None:
            bones = self.doc.selected("bone")
            if len(bones) != 1:
                self.dialogs.error(self.window, "Add child bone", "Select one bone to add a child to.")
                return None
            parent = bones[0]
        values = self._bone_form(f"Add child bone to {parent}", self._new_bone_name())
        return self._add_bone(parent, values) if values else None

    def add_ik_chain(self):
        """The selected bones (two or more, a parent → child run, any selection order)
        become an IK chain; its target is declared in the space the user picks."""
        bones = self.doc.selected("bone")
        p = self.doc.project
        try:
            run = edits.chain_run(p, bones)
        except edits.EditError as exc:
            self.dialogs.error(self.window, "Add IK chain", str(exc))
            return None
        spaces = p.space_names()
        space = self.dialogs.pick(self.window, "Add IK chain",
                                  "Declare the new target in which space?\n(world: planted; character: rides "
                                  "with the body; a scene object: rides with it)", spaces, 0)
        if space is None:
            return None
        try:
            project, name = edits.add_chain(p, run, space, self.doc.frame)
        except edits.EditError as exc:
            self.dialogs.error(self.window, "Add IK chain", str(exc))
            return None
        self.doc.apply(f"Add IK chain {name}", project)
        self.doc.select([("chain", name)])
        return name

    def add_scene_object(self, parent=None):
        p = self.doc.project
        if parent is None:
            spaces = self.doc.selected("space")
            parent = spaces[0] if spaces else WORLD
        values = self.dialogs.form(self.window, "Add scene object", [
            ("name", "Name", edits.unique_name(edits.names_of(p, "space"), "object"), {"kind": "text"}),
            ("parent", "Parent", parent, {"kind": "choice", "items": p.space_names()}),
        ])
        if not values:
            return None
        try:
            project, name = edits.add_space(p, values["parent"], name=values["name"])
        except edits.EditError as exc:
            self.dialogs.error(self.window, "Add scene object", str(exc))
            return None
        self.doc.apply(f"Add scene object {name}", project)
        self.doc.select([("space", name)])
        return name

    def delete_selected(self):
        """Delete what can be deleted of the selection as one undo step; the rest stays
        selected and the status bar says why. Bones that would take along chains or
        bones outside the selection ask first."""
        p = self.doc.project
        items = list(self.doc.selection)
        if not items:
            return False
        chosen = set(items)
        extra = []
        for kind, name in items:
            if kind == "bone" and name in edits.names_of(p, "bone"):
                below = [("bone", b) for b in edits.descendants(p, name)]
                chains = [("chain", c) for c in edits.chains_using_bones(p, [name, *(b for _, b in below)])]
                extra += [i for i in below + chains if i not in chosen and i not in extra]
        if extra:
            what = ", ".join(f"{k} {n}" for k, n in extra)
            if not self.dialogs.confirm(self.window, "Delete", f"Deleting the selection also deletes {what}."):
                return False
        new, deleted, kept = edits.delete_items(p, items)
        if not deleted:
            self.dialogs.error(self.window, "Delete", "\n".join(reason for _, reason in kept))
            return False
        label = f"Delete {deleted[0][0]} {deleted[0][1]}" if len(deleted) == 1 else f"Delete {len(deleted)} items"
        self.doc.apply(label, new)
        self.doc.select([item for item, _ in kept])
        message = f"Deleted {_count(deleted)}."
        if kept:
            message += " Kept " + "; ".join(f"{n}: {reason}" for (_, n), reason in kept)
        self.statusMessage.emit(message)
        return True

    def flip_elbow(self):
        chain = self._flippable_chain()
        if chain is None:
            return
        new = edits.flip_bend(self.doc.project, chain, self.doc.frame, animate=self.doc.mode == "animate")
        self.doc.apply(f"Flip elbow of {chain}", new, touched={f"chain:{chain}"})


def _count(items) -> str:
    """'2 bones, 1 chain' for (kind, name) items."""
    kinds = {"bone": "bone", "chain": "IK chain", "target": "target", "space": "scene object", "slot": "slot"}
    counts = {}
    for kind, _ in items:
        counts[kind] = counts.get(kind, 0) + 1
    return ", ".join(f"{n} {kinds.get(k, k)}{'' if n == 1 else 's'}" for k, n in counts.items())
