"""Mouse and keyboard of the scene view: selection, drags, the bone tool, Space.

A mixin for SceneView. Left button, select tool: a click selects (Shift/Ctrl
toggles); a drag on a target moves it in its declared space, on an FK bone's body
rotates it; in Setup mode a drag on a bone's tip (within RING_RADIUS_PX) sets the
bone's length and rest rotation. Bone tool (``EditTool.of(doc).tool == "bone"``): a
drag draws a new bone, from the tip it starts on (that bone is the parent) or from
the press point under the selected bone (else a root bone: ``EditTool.new_bone_parent``);
while it goes on, the parent-to-be is highlighted and the status bar names it; a
click selects the bone under it (the next parent) or, on empty canvas, nothing. Esc
cancels any drag.

Space: held, a left drag pans; tapped (pressed and released with no pan), the view
emits ``playToggleRequested``. A window-wide Space shortcut (play/pause) would take
the key first, so the view claims a plain Space through ShortcutOverride while it
has the focus.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, Qt

from rigeditor.app.scene.gestures import BoneDraw, BoneRotateDrag, TargetDrag, TipDrag
from rigeditor.app.scene.paint import DeviceMap
from rigeditor.app.scene.picking import pick_tip
from rigeditor.app.scene.preview import RING_RADIUS_PX
from rigeditor.app.tools import EditTool


class InteractionMixin:
    """Needs from the view: ``doc``, ``ctx``, ``_preview`` (ToolPreview),
    ``_gesture``, ``_pan_last``, ``_space_down``, ``_space_used``, ``item_at()``,
    ``map_from_viewport()``, ``pan_by()``, ``_repaint_all()``, ``_restyle()``, ``_update_boxes()``,
    and the signals ``statusMessage`` and ``playToggleRequested``."""

    # ------------------------------------------------------------------ tool state
    @property
    def edit_tool(self) -> EditTool:
        return EditTool.of(self.doc)

    def _bone_tool(self) -> bool:
        return self.edit_tool.tool == "bone"

    def _mesh_tool(self) -> bool:
        return self.edit_tool.tool in ("mesh", "weights")

    def _idle_cursor(self) -> None:
        """The cursor when nothing is under the pointer and no drag is going on."""
        if self._space_down:
            self._cursor(Qt.OpenHandCursor)
        elif self._bone_tool() or self._mesh_tool():
            self._cursor(Qt.CrossCursor)
        else:
            self._cursor(None)

    def _cursor(self, shape) -> None:
        """Set the viewport's cursor (None: the default), skipping a no-op (hover
        asks on every pointer move)."""
        vp = self.viewport()
        if shape is None:
            if vp.testAttribute(Qt.WA_SetCursor):
                vp.unsetCursor()
        elif not vp.testAttribute(Qt.WA_SetCursor) or vp.cursor().shape() != shape:
            vp.setCursor(shape)

    def _on_tool_changed(self, _tool: str) -> None:
        if isinstance(self._gesture, BoneDraw):
            self._cancel_gesture()
        self._set_ring(None)
        self._idle_cursor()
        # The mesh tools show what they edit: the wireframe with handles, the heat map.
        self._layers["mesh"].handles = _tool == "mesh"
        self._layers["weights"].brush = None
        if _tool == "mesh":
            self.set_overlay("mesh", True)
        elif _tool == "weights":
            self.set_overlay("weights", True)
        self._repaint_all()

    def _on_mode_changed(self, _mode: str) -> None:
        if not self._bone_tool() and self._gesture is None:
            self._set_ring(None)  # tips are grabbed in Setup mode only

    def _tip_under(self, pos):
        """Name of the bone whose tip is within RING_RADIUS_PX of viewport ``pos``."""
        if self.ctx.state is None:
            return None
        k = pick_tip(self.ctx.state, DeviceMap(self.viewportTransform()), pos, RING_RADIUS_PX)
        return None if k is None else self.ctx.structure.bones[k]

    # ------------------------------------------------------------------ Qt events
    def event(self, event):  # noqa: D401 - Qt's name
        t = event.type()
        if t == QEvent.ShortcutOverride:
            mods = event.modifiers() & ~Qt.KeypadModifier
            if (event.key() == Qt.Key_Space and mods == Qt.NoModifier) \
                    or (event.key() == Qt.Key_Escape and self._gesture is not None):
                event.accept()  # the key comes to keyPressEvent, not to a shortcut
                return True
        return super().event(event)

    def keyPressEvent(self, event):  # noqa: N802
        key, mods = event.key(), event.modifiers()
        if key == Qt.Key_F and not (mods & (Qt.ControlModifier | Qt.AltModifier)):
            self.frame_selection() if mods & Qt.ShiftModifier else self.frame_all()
        elif key == Qt.Key_Space:
            if not event.isAutoRepeat() and not self._space_down:
                self._space_down = True
                # A tap during a drag or a pan is no request to play.
                self._space_used = self._gesture is not None or self._pan_last is not None
                if self._gesture is None:
                    self.viewport().setCursor(Qt.OpenHandCursor)
            event.accept()
        elif key == Qt.Key_Escape and self._gesture is not None:
            self._cancel_gesture()
        else:
            super().keyPressEvent(event)

    def keyReleaseEvent(self, event):  # noqa: N802
        if event.key() == Qt.Key_Space:
            if not event.isAutoRepeat() and self._space_down:
                self._space_down = False
                if self._pan_last is None and self._gesture is None:
                    self._idle_cursor()
                if not self._space_used:
                    self.playToggleRequested.emit()
            event.accept()
        else:
            super().keyReleaseEvent(event)

    def focusOutEvent(self, event):  # noqa: N802
        # The Space release goes to whoever has the focus now: forget the key.
        if self._space_down:
            self._space_down = False
            if self._pan_last is None and self._gesture is None:
                self._idle_cursor()
        super().focusOutEvent(event)

    def mousePressEvent(self, event):  # noqa: N802
        pos, button = event.position(), event.button()
        if button == Qt.MiddleButton or (button == Qt.LeftButton and self._space_down):
            self._pan_last = pos
            self._space_used = True
            self.viewport().setCursor(Qt.ClosedHandCursor)
            event.accept()
            return
        if button != Qt.LeftButton or self._gesture is not None:
            super().mousePressEvent(event)
            return
        self._auto_frame = False
        if self._bone_tool():
            self._begin_bone_draw(pos)
            event.accept()
            return
        if self._mesh_tool():
            from rigeditor.app.scene import mesh_gestures

            self._gesture = mesh_gestures.press(self, pos, event.modifiers())
            event.accept()
            return
        hit = self.item_at(pos)
        tip = None
        if self.doc.mode == "setup" and (hit is None or hit[0] != "target"):
            tip = self._tip_under(pos)
            hit = ("bone", tip) if tip is not None else hit
        toggle = bool(event.modifiers() & (Qt.ShiftModifier | Qt.ControlModifier))
        # What is pressed is what is under the pointer: a hover left from before
        # (no move came between) would light up another item during the drag.
        if hit != self.ctx.hover:
            self._restyle(lambda: setattr(self.ctx, "hover", hit))
        self._select(hit, toggle)
        if toggle or hit is None:
            pass
        elif tip is not None:
            self._gesture = TipDrag(self.doc, tip, self.map_from_viewport(pos))
            self._set_ring(tip)
            self.viewport().setCursor(Qt.SizeAllCursor)
        else:
            self._begin_gesture(hit, self.map_from_viewport(pos))
        event.accept()

    def mouseMoveEvent(self, event):  # noqa: N802
        pos = event.position()
        if self._pan_last is not None:
            d = pos - self._pan_last
            self._pan_last = pos
            self.pan_by(d.x(), d.y())
        elif isinstance(self._gesture, BoneDraw):
            self._gesture.move(self.map_from_viewport(pos), (pos.x(), pos.y()))
            self._show_bone_preview()
        elif self._gesture is not None:
            self._gesture.move(self.map_from_viewport(pos))
        else:
            self._hover(pos)
        event.accept()

    def mouseReleaseEvent(self, event):  # noqa: N802
        if self._pan_last is not None and event.button() in (Qt.MiddleButton, Qt.LeftButton):
            self._pan_last = None
            self._idle_cursor()
        elif self._gesture is not None and event.button() == Qt.LeftButton:
            g, self._gesture = self._gesture, None
            if isinstance(g, BoneDraw):
                g.move(self.map_from_viewport(event.position()), (event.position().x(), event.position().y()))
                self._end_bone_preview()
                if g.length_px() <= g.MIN_DRAG_PX:
                    self._bone_tool_click(event.position())
                else:
                    g.finish()
            else:
                g.finish()
            self._end_gesture_view()
            self._hover(event.position())
        event.accept()

    def mouseDoubleClickEvent(self, event):  # noqa: N802
        if self._bone_tool():
            event.accept()
            return
        if self.edit_tool.tool == "mesh":
            from rigeditor.app.scene import mesh_gestures

            mesh_gestures.double_click(self, event.position())
            event.accept()
            return
        hit = self.item_at(event.position())
        if hit and hit[0] == "bone":
            chain = self.ctx.structure.chain_of_bone.get(hit[1])
            if chain:
                self.doc.select([("chain", chain)])
        event.accept()

    def leaveEvent(self, event):  # noqa: N802
        if self._gesture is None:
            self._set_hover(None)
            self._set_ring(None)
        super().leaveEvent(event)

    # ------------------------------------------------------------------ gestures
    def _select(self, hit, toggle: bool) -> None:
        current = list(self.doc.selection)
        if toggle:
            if hit is None:
                return
            self.doc.select([s for s in current if s != hit] if hit in current else current + [hit])
        else:
            self.doc.select([hit] if hit else [])

    def _begin_gesture(self, hit, world) -> None:
        kind, name = hit
        if kind == "target":
            j = self.ctx.state.targets.index(name)
            self._gesture = TargetDrag(self.doc, name, self.ctx.state.handle[j], world)
            chains = self._gesture.chains
            self.viewport().setCursor(Qt.ClosedHandCursor)
            self._restyle(lambda: setattr(self.ctx, "active_chain", chains[0] if chains else None))
        elif kind == "bone":
            chain = self.ctx.structure.chain_of_bone.get(name)
            if chain is not None:
                target = self.doc.project.chain(chain).target
                hint = " (Setup mode: drag its tip to change its length)" if self.doc.mode == "setup" else ""
                self.statusMessage.emit(f"{name} is driven by chain {chain}: drag its target {target}"
                                        f" (double-click selects the chain){hint}")
                return
            self._gesture = BoneRotateDrag(self.doc, name, world)
        elif kind == "slot":
            if self.doc.mode != "setup":
                self.statusMessage.emit(f"{name}: its place on the bone is rest pose: switch to Setup mode "
                                        "to drag it (the inspector keys which picture shows)")
                return
            from rigeditor.app.scene.art_gestures import SlotDrag

            self._gesture = SlotDrag(self.doc, name, world)

    def _begin_bone_draw(self, pos) -> None:
        tip = self._tip_under(pos)
        parent, snap, why = self.edit_tool.new_bone_parent(tip)
        if snap:
            start = self.ctx.state.tips[self.ctx.structure.bones.index(parent)].copy()
        else:
            start = self.map_from_viewport(pos)
        dm = DeviceMap(self.viewportTransform())
        self._gesture = BoneDraw(self.edit_tool, start, parent, dm(start), snap)
        self._bone_status = f"New bone: {why}. Esc cancels."
        self._set_ring(None)
        self._repaint_preview(lambda: setattr(self._preview, "parent", parent))
        self._show_bone_preview()

    def _bone_tool_click(self, pos) -> None:
        """A click with the bone tool picks the parent of the next bones, as in Spine:
        a bone selects it, empty canvas selects nothing (root bones)."""
        hit = self.item_at(pos)
        if hit is None or hit[0] == "bone":
            self._select(hit, False)
            parent, _, why = self.edit_tool.new_bone_parent()
            self.statusMessage.emit(f"New bones: {why}.")

    def _show_bone_preview(self) -> None:
        g = self._gesture
        self._set_bone_preview((g.start, g.end, g.snap, g.model_length()))
        # Said again on every move: the status bar's message would time out mid-drag.
        self.statusMessage.emit(self._bone_status)

    def _end_bone_preview(self) -> None:
        def clear():
            self._preview.bone = self._preview.parent = None

        self._repaint_preview(clear)

    def _set_bone_preview(self, bone) -> None:
        self._repaint_preview(lambda: setattr(self._preview, "bone", bone))

    def _set_ring(self, bone) -> None:
        if bone != self._preview.ring:
            self._repaint_preview(lambda: setattr(self._preview, "ring", bone))

    def _repaint_preview(self, change) -> None:
        dm = DeviceMap(self.viewportTransform())
        before = self._preview.damage(dm)
        change()
        self._update_boxes(np.concatenate([before, self._preview.damage(dm)]))

    def _cancel_gesture(self) -> None:
        g, self._gesture = self._gesture, None
        g.cancel()
        if isinstance(g, BoneDraw):
            self._end_bone_preview()
            self.statusMessage.emit("New bone cancelled.")
        self._end_gesture_view()

    def _end_gesture_view(self) -> None:
        self._set_ring(None)
        if self._pan_last is None:
            self._idle_cursor()
        self._restyle(lambda: setattr(self.ctx, "active_chain", None))

    def _hover(self, pos) -> None:
        """Hover feedback for the pointer at viewport ``pos`` (no button down)."""
        if self._mesh_tool():
            self._set_hover(None)
            if self.edit_tool.tool == "weights":  # the brush's reach follows the pointer
                self._layers["weights"].brush = (self.map_from_viewport(pos), self.edit_tool.brush_radius)
                self.viewport().update()
            return
        if self._bone_tool():
            tip = self._tip_under(pos)
            self._set_ring(tip)
            self._set_hover(("bone", tip) if tip else None)
            return
        hit = self.item_at(pos)
        tip = None
        if self.doc.mode == "setup" and (hit is None or hit[0] != "target"):
            tip = self._tip_under(pos)
        self._set_ring(tip)
        self._set_hover(("bone", tip) if tip else hit, tip=tip is not None)

    def _set_hover(self, hit, tip: bool = False) -> None:
        if hit != self.ctx.hover:
            self._restyle(lambda: setattr(self.ctx, "hover", hit))
        if self._space_down or self._bone_tool() or self._mesh_tool() or hit is None:
            self._idle_cursor()
        elif tip:
            self._cursor(Qt.SizeAllCursor)
        elif hit[0] == "target":
            self._cursor(Qt.OpenHandCursor)
        elif hit[0] == "bone" and hit[1] not in self.ctx.structure.chain_of_bone:
            self._cursor(Qt.SizeAllCursor)
        else:
            self._cursor(Qt.PointingHandCursor)
