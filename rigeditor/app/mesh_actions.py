"""The Mesh menu: mesh the selected slot's picture, recompute its weights with a blend
width, the mesh tool and the weight brush (and its size).

Which bones a new mesh is weighted to: the selected bones, else the slot's bone and
its children. Every action is one undo step; refusals are dialogs with the reason. The
weight solve (seconds on a mesh of tens of thousands of vertices) runs behind the window
(``background_edit``) under a progress dialog that appears after half a second and whose
Cancel leaves the project as it was.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QActionGroup

from rigeditor import edits
from rigeditor.app.background_edit import BackgroundEdit
from rigeditor.app.guard import Guarded
from rigeditor.app.rig_actions import make_action
from rigeditor.app.tools import KEYS, EditTool
from rigeditor.model.data.mesh_attachment import MeshAttachment
from rigeditor.edits.mesh_ops import DEFAULT_BLEND_WIDTH


class MeshActions(Guarded, QObject):
    statusMessage = Signal(str)

    def __init__(self, doc, dialogs, window, tool_group: QActionGroup):
        super().__init__(window)
        self.doc, self.dialogs, self.window = doc, dialogs, window
        self.tool = EditTool.of(doc)
        self.background = BackgroundEdit(doc, window)  # the weight solves, off the UI thread
        self.background.statusMessage.connect(self.statusMessage)

        def act(text, slot, shortcut=None, tip=""):
            return make_action(self, text, slot, shortcut, tip)

        self.make_mesh_action = act("Make Mesh from Picture…", self.make_mesh,
                                    tip="Cut the selected slot's picture into triangles along its outline and "
                                        "weight it to the selected bones (else its bone and that bone's children)")
        self.weights_action = act("Recompute Weights…", self.recompute_weights,
                                  tip="Automatic (bounded biharmonic) weights with a blend width at each joint")
        self.mesh_tool_action = act("Mesh tool", lambda: self.tool.set_tool("mesh"), KEYS["mesh"],
                                    "Drag a vertex; Ctrl+click deletes one; double-click adds one")
        self.weights_tool_action = act("Weight brush", lambda: self.tool.set_tool("weights"), KEYS["weights"],
                                       "Paint the selected bone's weights: drag adds, Shift subtracts, Ctrl smooths")
        self.bigger_action = act("Larger brush", lambda: self._brush(1.25), "]")
        self.smaller_action = act("Smaller brush", lambda: self._brush(0.8), "[")
        self.stronger_action = act("Stronger brush", lambda: self._strength(1.5), "Ctrl+]")
        self.weaker_action = act("Weaker brush", lambda: self._strength(1 / 1.5), "Ctrl+[")
        for a in (self.mesh_tool_action, self.weights_tool_action):
            a.setCheckable(True)
            tool_group.addAction(a)
        self.tool.toolChanged.connect(self._tool_changed)
        doc.selectionChanged.connect(self.update_enabled)
        doc.projectChanged.connect(self.update_enabled)
        self.update_enabled()

    def actions(self):
        return [self.make_mesh_action, self.weights_action, None, self.mesh_tool_action, self.weights_tool_action,
                self.bigger_action, self.smaller_action, self.stronger_action, self.weaker_action]

    def _tool_changed(self, name):
        if name == "mesh":
            self.mesh_tool_action.setChecked(True)
        elif name == "weights":
            self.weights_tool_action.setChecked(True)
            self._say_brush()

    def _brush(self, factor):
        self.tool.scale_brush(factor)
        self._say_brush()

    def _strength(self, factor):
        self.tool.brush_strength = min(max(self.tool.brush_strength * factor, 0.02), 1.0)
        self._say_brush()

    def _say_brush(self):
        self.statusMessage.emit(f"Weight brush: radius {self.tool.brush_radius:.3g} units, strength "
                                f"{self.tool.brush_strength:.2g}")

    def _shown(self):
        """(slot, attachment name, attachment) of the one selected slot at this frame, or None."""
        slots = self.doc.selected("slot")
        if len(slots) != 1:
            return None
        s = self.doc.project.art.slot(slots[0])
        name = s.attachment.value_at(self.doc.frame)
        if name not in [a.name for a in s.attachments]:
            return None
        return s.name, name, s.find(name)

    def _behind(self, title, label, work, undo_label):
        """work(progress=, cancel=) on a thread under a progress dialog
        (``background_edit``); its project lands as one undo step, an EditError as a
        dialog titled ``title``."""
        def failed(exc):
            if not isinstance(exc, edits.EditError):
                raise exc  # a bug: to sys.excepthook (guard.report)
            self.dialogs.error(self.window, title, str(exc))

        if not self.background.start("Automatic weights", label, work, undo_label, failed):
            self.statusMessage.emit("Automatic weights are already being computed")

    def update_enabled(self):
        shown = self._shown()
        self.make_mesh_action.setEnabled(shown is not None and not isinstance(shown[2], MeshAttachment))
        self.weights_action.setEnabled(shown is not None and isinstance(shown[2], MeshAttachment))

    def make_mesh(self):
        shown = self._shown()
        if shown is None:
            self.dialogs.error(self.window, "Make mesh", "Select one slot that shows a picture.")
            return
        slot, name, _ = shown
        bones = edits.default_bones(self.doc.project, slot, self.doc.selected("bone"))
        values = self.dialogs.form(self.window, f"Mesh {name}", [
            ("detail", "Outline detail", 1.5, {"kind": "float", "min": 0.0, "max": 20.0, "decimals": 1,
                                               "suffix": " px (tolerance)"}),
            ("spacing", "Triangle size", 20.0, {"kind": "float", "min": 2.0, "max": 500.0, "suffix": " px"}),
            ("blend_width", "Blend width", DEFAULT_BLEND_WIDTH, {"kind": "float", "min": 0.0, "max": 1e4,
                                                                 "suffix": " u at each joint"}),
        ])
        if not values:
            return
        project, images = self.doc.project, self.doc.images
        self._behind("Make mesh", f"Meshing and weighting {name}…", lambda **hooks: edits.make_mesh(
            project, slot, name, images, bones, detail=float(values["detail"]),
            spacing=float(values["spacing"]), joint_spacing=float(values["spacing"]) / 2.5,
            blend_width=float(values["blend_width"]), **hooks),
            f"Mesh {name}" + (f" on {', '.join(bones)}" if bones else ""))

    def recompute_weights(self):
        shown = self._shown()
        if shown is None or not isinstance(shown[2], MeshAttachment):
            self.dialogs.error(self.window, "Recompute weights", "Select one slot that shows a mesh.")
            return
        slot, name, mesh = shown
        bones = self.doc.selected("bone") or list(mesh.bones) or list(
            edits.default_bones(self.doc.project, slot, ()))
        values = self.dialogs.form(self.window, f"Weights of {name} over {', '.join(bones)}", [
            ("blend_width", "Blend width", mesh.blend_width or DEFAULT_BLEND_WIDTH,
             {"kind": "float", "min": 0.0, "max": 1e4, "suffix": " u at each joint"}),
        ])
        if not values:
            return
        project = self.doc.project
        self._behind("Recompute weights", f"Weighting {name}…", lambda **hooks: edits.recompute_weights(
            project, slot, name, bones, float(values["blend_width"]), **hooks), f"Weights of {name}")
