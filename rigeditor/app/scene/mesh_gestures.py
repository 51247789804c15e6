"""The mesh tool and the weight brush in the scene (one undo step per gesture).

Mesh tool: press on a vertex (within HANDLE_PX) of the mesh and drag it (in Animate
mode the drag keys a deform at the current frame: ``deform_gestures``); Ctrl+click a
vertex deletes it; a double-click inside the mesh adds one there. Weights tool: a drag
paints the selected bone's weights (Shift: subtract, Ctrl: smooth) with the tool's
brush radius and strength, dabs every quarter radius along the stroke. The mesh is the
selected slot's, else the topmost mesh under the pointer (which gets selected).

Pointer positions are mapped to the mesh's bind pose (``edits.bind_point``), so a
bent arm is edited where it is shown and the edit lands where it belongs.
"""
from __future__ import annotations

import numpy as np

from rigeditor import edits
from rigeditor.app.scene.deform_gestures import DeformDrag
from rigeditor.app.scene.gestures import _DocDrag
from rigeditor.app.scene.paint import DeviceMap
from rigeditor.app.tools import EditTool
from rigeditor.edits import mesh_ops

HANDLE_PX = 8.0


def mesh_at(view, world):
    """(slot name, attachment name, MeshPose) of the mesh the tools work on, or None."""
    doc = view.doc
    bake, row = doc.bake, doc.row
    if bake.art is None:
        return None
    shown = {m.column: m for m in bake.art.meshes if m.shown[row]}
    for name in doc.selected("slot"):
        col = bake.art.column(name) if name in bake.art.slots else -1
        if col in shown:
            return name, shown[col].mesh.name, shown[col]
    for col in reversed(bake.art.order[row].tolist()):  # front to back
        pose = shown.get(col)
        if pose is not None and _inside(pose, row, world):
            doc.select([("slot", pose.slot)])
            return pose.slot, pose.mesh.name, pose
    return None


def _inside(pose, row, world) -> bool:
    from rigeditor.model.diagnostics.cracks import mesh_cover

    return bool(mesh_cover(pose.mesh, pose.vertices(row), np.asarray(world, float)[None], None)[0])


def _vertex_near(view, pose, row, pos):
    dm = DeviceMap(view.viewportTransform())
    d = dm(pose.vertices(row))
    dist = np.hypot(d[:, 0] - pos.x(), d[:, 1] - pos.y())
    i = int(np.argmin(dist))
    return i if dist[i] <= HANDLE_PX else None


class VertexDrag(_DocDrag):
    """Move vertex ``index``: the pointer's world motion, undone by the vertex's own
    blended transform, moves it at bind; clamped to the picture (said once a drag in
    the status bar)."""

    def __init__(self, view, slot, attachment, pose, index, press_world):
        doc = view.doc
        self.view, self.said_edge = view, False
        self.doc, self.slot, self.attachment, self.pose, self.index = doc, slot, attachment, pose, index
        self.start, self.row = doc.project, doc.row
        self.origin = pose.mesh.vertices[index].copy()
        self.press = np.asarray(press_world, float)
        self.key = ("drag", doc.begin_gesture())

    def move(self, world) -> None:
        delta = edits.vertex_to_image(self.pose, self.row, self.index, np.asarray(world, float) - self.press)
        # Off the picture a vertex would have no texture to show: it stops on the edge.
        xy, clamped = mesh_ops.on_picture(self.pose.mesh, self.origin + delta)
        if clamped and not self.said_edge:
            self.said_edge = True
            self.view.statusMessage.emit(f"Vertex {self.index} stays on the picture's edge "
                                         f"({self.pose.mesh.width:g} x {self.pose.mesh.height:g} px)")
        try:
            after = edits.move_vertex(self.start, self.slot, self.attachment, self.index, xy)
        except edits.EditError:
            return  # (outside the outline, onto another vertex): stay at the last good place
        self.doc.apply(f"Move vertex {self.index} of {self.attachment}", after, merge_key=self.key)
        self.moved = True


class PaintStroke(_DocDrag):
    """One stroke of the weight brush on ``bone``."""

    def __init__(self, doc, slot, attachment, pose, bone, mode, tool: EditTool, press_world):
        self.doc, self.slot, self.attachment, self.pose, self.bone, self.mode = doc, slot, attachment, pose, bone, mode
        self.row = doc.row
        self.radius, self.strength = tool.brush_radius, tool.brush_strength
        self.current = doc.project
        self.last = None
        self.key = ("paint", doc.begin_gesture())
        self.move(press_world)

    def move(self, world) -> None:
        p = edits.bind_point(self.pose, self.row, world)
        if self.last is not None and np.hypot(*(p - self.last)) < 0.25 * self.radius:
            return
        self.last = p
        try:
            after = edits.paint_stroke(self.current, self.slot, self.attachment, self.bone, p[None], self.radius,
                                          self.strength, self.mode)
        except edits.EditError:
            return
        self.current = after
        self.doc.apply(f"Paint {self.bone} weights on {self.attachment}", after, merge_key=self.key)
        self.moved = True


def press(view, pos, modifiers):
    """A press with the mesh or weights tool on: the gesture it starts, or None."""
    from PySide6.QtCore import Qt

    doc, tool = view.doc, EditTool.of(view.doc)
    world = view.map_from_viewport(pos)
    found = mesh_at(view, world)
    if found is None:
        view.statusMessage.emit("No mesh here: select a slot showing a mesh (Mesh > Make Mesh from Picture)")
        return None
    slot, attachment, pose = found
    row = doc.row
    if tool.tool == "mesh":
        i = _vertex_near(view, pose, row, pos)
        if i is None:
            view.statusMessage.emit("Mesh tool: drag a vertex, Ctrl+click deletes one, double-click adds one")
            return None
        if modifiers & Qt.ControlModifier:
            try:
                after = edits.delete_vertex(doc.project, slot, attachment, i)
            except edits.EditError as exc:
                view.statusMessage.emit(str(exc))
                return None
            doc.apply(f"Delete vertex {i} of {attachment}", after)
            return None
        if doc.mode == "animate":  # Animate mode keys a deform; Setup mode edits the mesh
            return DeformDrag(view, slot, attachment, pose, i, world)
        return VertexDrag(view, slot, attachment, pose, i, world)
    m = pose.mesh
    bones = [b for b in doc.selected("bone") if b in m.bones]
    if not m.skinned or not bones:
        view.statusMessage.emit(f"Weights: select the bone to paint, one of {', '.join(m.bones) or '(none)'}"
                                if m.skinned else f"{attachment} has no bones: Mesh > Recompute Weights first")
        return None
    mode = "subtract" if modifiers & Qt.ShiftModifier else "smooth" if modifiers & Qt.ControlModifier else "add"
    return PaintStroke(doc, slot, attachment, pose, bones[0], mode, tool, world)


def double_click(view, pos) -> None:
    """Mesh tool: add a vertex where the mesh is double-clicked."""
    doc = view.doc
    world = view.map_from_viewport(pos)
    found = mesh_at(view, world)
    if found is None or not _inside(found[2], doc.row, world):
        view.statusMessage.emit("Double-click inside a mesh to add a vertex")
        return
    slot, attachment, pose = found
    try:
        after = edits.add_vertex(doc.project, slot, attachment, edits.bind_point(pose, doc.row, world))
    except edits.EditError as exc:
        view.statusMessage.emit(str(exc))
        return
    doc.apply(f"Add vertex to {attachment}", after)
