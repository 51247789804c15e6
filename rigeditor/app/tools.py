"""The editing tool the scene works with: select (default) or bone (draw bones).

One :class:`EditTool` per Document, found with ``EditTool.of(doc)`` (it is a child
QObject of the document, so the scene needs nothing but the doc it already has).

Scene contract, bone tool: at the press, ``new_bone_parent(tip)`` says who the new
bone's parent will be (the rule below) and why, so the scene can highlight it and
the status bar name it while the drag goes on; on release of a drag from ``start``
to ``end`` (world points, y-up) call ``EditTool.of(doc).create_bone(start, end,
parent, snap=...)``. It makes one undo step, selects the new bone and returns its
name; on a refusal it emits ``error(message)`` and returns None.

The parent rule, one for every press: the bone whose tip the press lands on (the
nearest tip within the scene's grab radius; the new bone then starts exactly on
that tip, ready for an IK chain), else the selected bone (exactly one selected, as
in Spine; the new bone starts where the press was), else none: a root bone.
"""
from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from rigeditor.app.guard import Guarded
from rigeditor import edits

TOOLS = ("select", "bone", "mesh", "weights")
# Keys of the rig-building gestures, shared by their actions and the empty scene's hint.
KEYS = {"select": "V", "bone": "B", "add_chain": "Ctrl+I", "mesh": "M", "weights": "W"}
BRUSH_RADIUS = (2.0, 400.0)  # model units
"""Mesh tool: drag a vertex of the selected slot's mesh, double-click adds one,
Ctrl+click deletes one. Weights tool: a drag paints the selected bone's weights (Shift
subtracts, Ctrl smooths) with ``brush_radius`` (model units) and ``brush_strength``
(0..1); one undo step per stroke (``rigeditor.app.scene.mesh_gestures``)."""


class EditTool(Guarded, QObject):
    toolChanged = Signal(str)
    error = Signal(str)

    AUTO = "<auto>"

    def __init__(self, doc):
        super().__init__(doc)
        self.setObjectName("edit_tool")
        self.doc = doc
        self._tool = "select"
        self.brush_radius = 20.0
        self.brush_strength = 0.3

    @classmethod
    def of(cls, doc) -> "EditTool":
        """The document's tool state (made on first use)."""
        tool = doc.findChild(cls, "edit_tool")
        return tool if tool is not None else cls(doc)

    @property
    def tool(self) -> str:
        return self._tool

    def set_tool(self, name: str) -> None:
        if name not in TOOLS:
            raise ValueError(f"tool: must be one of {TOOLS}, got {name!r}")
        if name != self._tool:
            self._tool = name
            self.toolChanged.emit(name)

    def scale_brush(self, factor: float) -> None:
        self.brush_radius = min(max(self.brush_radius * factor, BRUSH_RADIUS[0]), BRUSH_RADIUS[1])
        self.toolChanged.emit(self._tool)  # the hint and the brush ring follow

    def new_bone_parent(self, tip: str | None = None) -> tuple[str | None, bool, str]:
        """(parent, snap, why) of a bone drawn from a press: ``tip`` is the bone whose
        tip the press landed on (None: no tip there). snap: the new bone starts on the
        parent's tip. why: the rule that chose, for the status bar."""
        if tip is not None:
            return tip, True, f"child of {tip} (drawn from its tip)"
        bones = self.doc.selected("bone")
        if len(bones) == 1:
            return bones[0], False, f"child of {bones[0]} (the selected bone)"
        if bones:
            return None, False, f"a root bone ({len(bones)} bones selected: select one to make it the parent)"
        return None, False, "a root bone (nothing selected)"

    def create_bone(self, start, end, parent=AUTO, *, snap: bool | None = None) -> str | None:
        """One undo step adding a bone from ``start`` to ``end`` under ``parent`` (AUTO:
        by ``new_bone_parent``). snap (default: a named parent snaps) starts it on the
        parent's tip."""
        doc = self.doc
        if snap is None:
            snap = parent != self.AUTO and parent is not None
        if parent == self.AUTO:
            parent, snap, _ = self.new_bone_parent()
        try:
            project, name = edits.add_bone_between(doc.project, doc.bake, doc.row, start, end,
                                                      parent, snap_to_tip=snap)
        except edits.EditError as exc:
            self.error.emit(str(exc))
            return None
        doc.apply(f"Add bone {name}", project)
        doc.select([("bone", name)])
        return name
