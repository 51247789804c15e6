"""The editing tool the scene works with: select (default) or bone (draw bones).

One :class:`EditTool` per Document, found with ``EditTool.of(doc)`` (it is a child
QObject of the document, so the scene needs nothing but the doc it already has).

Scene contract, bone tool: on release of a drag from ``start`` to ``end`` (world
points, y-up) call ``EditTool.of(doc).create_bone(start, end, parent)`` where parent
is the bone whose *tip* the drag began on (the new bone then starts exactly at that
tip, ready for an IK chain), ``None`` for a new root bone, or ``EditTool.AUTO`` (the
default) for "the single selected bone, else a root bone" (the new bone starts where
the drag began). It makes one undo step, selects the new bone and returns its name;
on a refusal it emits ``error(message)`` and returns None.
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

    def create_bone(self, start, end, parent=AUTO) -> str | None:
        doc = self.doc
        snap = parent != self.AUTO and parent is not None
        if parent == self.AUTO:
            bones = doc.selected("bone")
            parent = bones[0] if len(bones) == 1 else None
        try:
            project, name = edits.add_bone_between(doc.project, doc.bake, doc.row, start, end,
                                                      parent, snap_to_tip=snap)
        except edits.EditError as exc:
            self.error.emit(str(exc))
            return None
        doc.apply(f"Add bone {name}", project)
        doc.select([("bone", name)])
        return name
