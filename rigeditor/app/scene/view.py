"""The central scene: the rig at the current frame, its targets and the overlays.

Model space is y-up; the view flips y with its transform and nothing else does.
Navigation: wheel zooms at the cursor, middle-drag or Space+left-drag pans, F frames
everything, Shift+F the selection; a tap on Space asks to play or pause. Left click
selects (Shift/Ctrl toggles), a drag on a target moves it in its declared space, a
drag on an FK bone rotates it, in Setup mode a drag on a bone's tip sets its length
and rest angle, with the bone tool a drag draws a bone; a double click on an IK bone
selects its chain, Esc during a drag cancels it (see interaction.py).
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import QPainter, QRegion
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView

from rigeditor.app.guard import Guarded
from rigeditor.app import style
from rigeditor.app.scene.grid import draw_grid
from rigeditor.app.scene.hint import clear_top, draw_start_hint, text as hint_text
from rigeditor.app.scene.hud import Hud, JitterLegend
from rigeditor.app.scene.art_layer import ArtLayer
from rigeditor.app.scene.crack_layer import CrackLayer
from rigeditor.app.scene.mesh_layer import MeshLayer
from rigeditor.app.scene.layers import (
    BoneLayer, LabelLayer, OnionLayer, SceneContext, TargetLayer, report_paint_error,
)
from rigeditor.app.scene.constraint_layer import ConstraintLayer
from rigeditor.app.scene.path_layer import PathLayer
from rigeditor.app.scene.overlays import (
    GhostLayer, JitterLayer, LimitLayer, ReachLayer, ResidualLayer, SpaceLayer,
)
from rigeditor.app.scene.interaction import InteractionMixin
from rigeditor.app.scene.navigation import SCENE_EXTENT, NavigationMixin
from rigeditor.app.scene.paint import DeviceMap
from rigeditor.app.scene.picking import pick
from rigeditor.app.scene.stack import LayerStack
from rigeditor.app.scene.preview import ToolPreview
from rigeditor.app.scene.state import ONION_OFFSETS, RowCache, Structure, gather, onion_offsets, structure_key
from rigeditor.model.data.project import CHARACTER


class SceneView(Guarded, InteractionMixin, NavigationMixin, QGraphicsView):
    """``SceneView(doc)``: draws ``doc.bake`` at ``doc.row`` and edits through
    ``doc.apply``.

    OVERLAY_NAMES: overlay name -> menu label, in menu order. ``overlays``: name ->
    shown (a copy); ``set_overlay(name, on)`` changes one and emits overlayChanged.
    statusMessage(str): short hints for the status bar. zoomChanged(float): pixels
    per model unit. playToggleRequested(): Space was tapped in the view (pressed and
    released without panning): play or pause. The view draws bones with
    ``EditTool.of(doc)`` when its tool is "bone".
    """

    OVERLAY_NAMES = {
        "reach": "Reach Rings",
        "residual": "Residual",
        "jitter": "Jitter (Elbow Sensitivity)",
        "limits": "Joint Limits",
        "ghost": "Mirror Solution",
        "spaces": "Space Origins",
        "onion": "Onion Skin",
        "art": "Artwork",
        "art_dim": "Dim Artwork",
        "bones": "Bones",
        "constraints": "Constraint Links",
        "paths": "Paths",
        "cracks": "Cracks at Joints",
        "mesh": "Mesh Wireframe",
        "weights": "Weight Heat Map",
        "collapse": "Collapse (Area Ratio)",
    }
    DEFAULT_OFF = ("onion", "art_dim", "cracks", "mesh", "weights", "collapse")  # cracks: about 2 ms a joint per frame

    overlayChanged = Signal(str, bool)
    statusMessage = Signal(str)
    zoomChanged = Signal(float)
    playToggleRequested = Signal()

    def __init__(self, doc, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.ctx = SceneContext()
        self._overlays = {name: name not in self.DEFAULT_OFF for name in self.OVERLAY_NAMES}
        self._scale = 1.0
        self._auto_frame = True  # frame everything on show/resize until the user navigates
        self.hint_rect = None  # where the hint card was last drawn (viewport pixels), None without one
        self._opened = doc.project  # the project when the document last got a path (opened, saved)
        self._space_down = False
        self._space_used = False  # Space is down and has panned (or met a drag): no play toggle
        self._pan_last: QPointF | None = None
        self._gesture = None
        self._rows = RowCache()

        scene = QGraphicsScene(self)
        scene.setItemIndexMethod(QGraphicsScene.NoIndex)  # the layers move on every edit
        scene.setSceneRect(QRectF(-SCENE_EXTENT, -SCENE_EXTENT, 2 * SCENE_EXTENT, 2 * SCENE_EXTENT))
        self.setScene(scene)
        self.setRenderHint(QPainter.Antialiasing, True)
        self.setTransformationAnchor(QGraphicsView.NoAnchor)
        self.setResizeAnchor(QGraphicsView.AnchorViewCenter)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setViewportUpdateMode(QGraphicsView.MinimalViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.DontAdjustForAntialiasing, True)
        self.setOptimizationFlag(QGraphicsView.DontSavePainterState, True)  # layers save their own
        self.setCacheMode(QGraphicsView.CacheBackground)  # the grid only changes with the view
        self.setFrameShape(QGraphicsView.NoFrame)
        self.setFocusPolicy(Qt.StrongFocus)
        self.setMouseTracking(True)
        self.viewport().setMouseTracking(True)

        ctx = self.ctx
        self._layers = {
            "art": ArtLayer(ctx, -1, lambda: doc.images),
            "onion": OnionLayer(ctx, 0),
            "reach": ReachLayer(ctx, 1),
            "spaces": SpaceLayer(ctx, 2),
            "limits": LimitLayer(ctx, 3),
            "ghost": GhostLayer(ctx, 4),
            "bones": BoneLayer(ctx, 5),
            "constraints": ConstraintLayer(ctx, 5.5),
            "paths": PathLayer(ctx, 5.4),
            "jitter": JitterLayer(ctx, 6),
            "residual": ResidualLayer(ctx, 7),
            "targets": TargetLayer(ctx, 8),
            "cracks": CrackLayer(ctx, 8.5, doc, lambda: doc.images),
            "weights": MeshLayer(ctx, -0.8, doc, "weights"),
            "collapse": MeshLayer(ctx, -0.7, doc, "collapse"),
            "mesh": MeshLayer(ctx, -0.6, doc, "wire"),
        }
        self._layers["labels"] = LabelLayer(ctx, 9, [
            self._layers["targets"].labels, self._layers["residual"].labels,
            self._layers["jitter"].labels, self._layers["spaces"].labels,
            self._layers["weights"].labels, self._layers["collapse"].labels,
        ])
        self._layers["art"].dim = self._overlays["art_dim"]
        for name, layer in self._layers.items():
            layer.setVisible(self._overlays.get(name, True))
        scene.addItem(LayerStack(ctx, self._layers.values()))
        self._preview = ToolPreview(ctx, 10)
        scene.addItem(self._preview)

        self._hud = Hud(self)
        self._legend = JitterLegend(self)
        self._update_legend()

        doc.projectChanged.connect(self._on_project_changed)
        doc.pathChanged.connect(self._on_path_changed)
        doc.bakeChanged.connect(self.refresh)
        doc.rangeChanged.connect(self._on_range_changed)
        doc.frameChanged.connect(self._on_frame_changed)
        doc.selectionChanged.connect(self._on_selection_changed)
        doc.modeChanged.connect(self._update_hud)
        doc.modeChanged.connect(self._on_mode_changed)
        self.edit_tool.toolChanged.connect(self._on_tool_changed)
        self.edit_tool.toolChanged.connect(lambda _t: self._repaint_all())  # the empty scene's hint names the tool
        self._apply_zoom(1.0)
        self._on_selection_changed()
        self.refresh()
        self._update_hud()
        self._idle_cursor()

    # ------------------------------------------------------------------ public
    @property
    def overlays(self) -> dict[str, bool]:
        return dict(self._overlays)

    def set_overlay(self, name: str, on: bool) -> None:
        if name not in self._overlays:
            raise KeyError(f"set_overlay: unknown overlay {name!r}; one of {list(self.OVERLAY_NAMES)}")
        on = bool(on)
        if self._overlays[name] == on:
            return
        self._overlays[name] = on
        if name == "art_dim":
            self._layers["art"].dim = on
        else:
            self._layers[name].setVisible(on)
        if name == "jitter":
            self._update_legend()
        if name == "onion":
            self.refresh()  # the onion rows are only gathered when shown
        self._repaint_all()
        self.overlayChanged.emit(name, on)

    @property
    def legend(self):
        """The jitter legend (hud.JitterLegend): the user folds and moves it."""
        return self._legend

    def layer(self, name: str):
        """The item drawing ``name`` (an overlay name, or bones / targets / labels)."""
        return self._layers[name]

    onion_offsets = ONION_OFFSETS

    def set_onion(self, before: int, after: int, step: int) -> None:
        """Onion skin: ``before`` ghosts back and ``after`` ahead, ``step`` frames apart."""
        self.onion_offsets = onion_offsets(before, after, step)
        if self._overlays["onion"]:
            self.refresh()
            self._repaint_all()

    def refresh(self) -> None:
        """Re-read the Bake at the current frame and repaint what changed (the
        structure is rebuilt only when bones, targets, chains or spaces were added,
        removed, renamed or re-parented)."""
        doc = self.doc
        self.ctx.project = doc.project
        full = False
        st = self.ctx.structure
        if st is None or st.key != structure_key(doc.project) or st.bones != doc.bake.bones:
            self.ctx.structure = Structure.build(doc.project, doc.bake)
            self._rows.clear()
            self.ctx.update_emphasis()
            self._update_legend()
            full = True
        old = self.ctx.state
        self.ctx.state = gather(doc.project, doc.bake, doc.frame, self.ctx.structure,
                                onion=self._overlays["onion"] and self.onion_offsets, cache=self._rows)
        dm = DeviceMap(self.viewportTransform())
        before = self._layers["labels"].layout(dm, keep=not full, bounds=self._label_bounds())
        if full or old is None or not doc.project.bones:  # (the empty scene's hint follows the origin)
            self.viewport().update()
            return
        boxes = [self._layers["labels"].label_damage(before)]
        for name, layer in self._layers.items():
            if name == "labels" or not layer.isVisible():
                continue
            d = layer.damage(old, self.ctx.state, dm)
            if d is None:
                self.viewport().update()
                return
            boxes.append(d)
        self._update_boxes(np.concatenate(boxes))

    MAX_DAMAGE_RECTS = 12  # beyond this, one bounding rectangle (Qt's region union is quadratic)
    MAX_RESTYLE_RECTS = 160  # a restyled reach ring is its outline's boxes (see ReachLayer.look_damage)

    def _update_boxes(self, boxes: np.ndarray, limit: int | None = None) -> None:
        """Repaint device boxes (K, 4) x0, y0, x1, y1 of the viewport (padded by
        2 px for antialiasing); more than ``limit`` (MAX_DAMAGE_RECTS) become one."""
        if not boxes.size:
            return
        vp = self.viewport().rect()
        b = np.empty_like(boxes)
        b[:, 0] = np.maximum(np.floor(boxes[:, 0]) - 2, vp.left())
        b[:, 1] = np.maximum(np.floor(boxes[:, 1]) - 2, vp.top())
        b[:, 2] = np.minimum(np.ceil(boxes[:, 2]) + 3, vp.right() + 1)
        b[:, 3] = np.minimum(np.ceil(boxes[:, 3]) + 3, vp.bottom() + 1)
        b = b[(b[:, 2] > b[:, 0]) & (b[:, 3] > b[:, 1])]
        if not len(b):
            return
        if len(b) > (self.MAX_DAMAGE_RECTS if limit is None else limit):
            b = np.array([[b[:, 0].min(), b[:, 1].min(), b[:, 2].max(), b[:, 3].max()]])
        region = QRegion()
        for x0, y0, x1, y1 in b.astype(int).tolist():
            region += QRect(x0, y0, x1 - x0, y1 - y0)
        self.viewport().update(region)

    def _repaint_all(self) -> None:
        """Lay the labels out again and repaint the whole view (zoom, selection,
        hover, overlays)."""
        self.ctx.update_emphasis()
        if self.ctx.state is not None:
            self._layers["labels"].layout(DeviceMap(self.viewportTransform()), bounds=self._label_bounds())
        self.viewport().update()

    def _restyle(self, change) -> None:
        """Make ``change`` (the hovered item, the dragged chain) and repaint only the
        elements whose look it changes (``Layer.look``) and the labels it adds, removes
        or rewrites: a whole repaint draws every picture and mesh again (tens of ms on a
        production rig), for a hover or a drag's start and end that restyle a few."""
        s = self.ctx.state
        if s is None:
            change()
            self._repaint_all()
            return
        dm = DeviceMap(self.viewportTransform())
        looks = [(layer, layer.look(s)) for layer in self._layers.values() if layer.isVisible()]
        change()
        self.ctx.update_emphasis()
        labels = self._layers["labels"]
        # Labels stay where they are (none jumps when the pointer passes over a
        # handle); those it adds or rewrites are placed around them.
        boxes = [labels.label_damage(labels.layout(dm, keep=True, bounds=self._label_bounds()))]
        for layer, old in looks:
            if old is None:
                continue
            new = layer.look(s)
            if new.shape != old.shape:
                self.viewport().update()
                return
            changed = (new != old).any(axis=1)
            if changed.any():
                boxes.append(layer.look_damage(s, dm, changed))
        self._update_boxes(np.concatenate(boxes), limit=self.MAX_RESTYLE_RECTS)

    def _label_bounds(self):
        r = self.viewport().rect()
        return (r.left() + 2.0, r.top() + 2.0, r.right() - 2.0, r.bottom() - 2.0)

    def item_at(self, pos):
        """(kind, name) of the target or bone under viewport ``pos``, or None."""
        if self.ctx.state is None:
            return None
        slots = [s.name for s in self.doc.project.art.slots] if self._overlays["art"] else None
        return pick(self.ctx.state, self.ctx.structure, DeviceMap(self.viewportTransform()), pos, slots)

    # ------------------------------------------------------------------ doc signals
    def _on_project_changed(self) -> None:
        self.ctx.project = self.doc.project

    def _on_path_changed(self) -> None:
        """Another document was opened (New, Open, Recover: a new project with an
        empty history): show all of it. Saving (same project, or edits on the
        stack) leaves the view alone. (An edit cannot be told from an opening by the
        history while it is pushed: Qt runs the first command before counting it.)"""
        self._layers["art"].cache.forget_stamps()  # a PSD imported again rewrote the pictures in place
        opened = self.doc.undo_stack.count() == 0 and self.doc.project is not self._opened
        self._opened = self.doc.project
        if opened:
            self._auto_frame = True
            if self.isVisible():
                self._auto_frame_now()

    def _on_range_changed(self) -> None:
        # The current frame was exact before the range landed; the onion skin shows
        # other frames and waits for the range.
        if self._overlays["onion"]:
            self.refresh()

    def _on_frame_changed(self, _frame: int) -> None:
        self.refresh()
        self._update_hud()

    def _on_selection_changed(self) -> None:
        sel = {"bone": set(), "target": set(), "chain": set(), "slot": set(), "transform": set(), "path": set()}
        for kind, name in self.doc.selection:
            if kind in sel:
                sel[kind].add(name)
        self.ctx.selected = sel
        self._repaint_all()

    def _update_legend(self) -> None:
        """The jitter legend shows with its overlay, when there is a chain to colour."""
        self._legend.setVisible(self._overlays["jitter"] and bool(self.doc.project.chains))
        self._legend.place()

    def _update_hud(self, *_):
        self._hud.set_text(self.doc.mode, int(self.doc.frame))

    # ------------------------------------------------------------------ internals
    def paintEvent(self, event):  # noqa: N802
        """Qt paints the exposed region; the layers draw only the elements meeting one
        of its rectangles (a drag's damage is a few boxes, often far apart, whose
        bounding rectangle would take in the neighbours' elements too)."""
        self.ctx.exposed = np.array([(r.x() - 1, r.y() - 1, r.x() + r.width() + 1, r.y() + r.height() + 1)
                                     for r in event.region()], float).reshape(-1, 4)
        try:
            super().paintEvent(event)
        finally:
            self.ctx.exposed = None

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:  # noqa: N802
        """The grid (style.GRID_*), cached by the view until it zooms or scrolls."""
        painter.fillRect(rect, style.BACKGROUND)
        painter.save()
        try:
            draw_grid(painter, rect, self._scale)
        except Exception:  # noqa: BLE001 - see report_paint_error
            report_paint_error("grid")
        finally:
            painter.restore()

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:  # noqa: N802
        """While the rig has no bone: how to start (see hint.py), in viewport pixels,
        kept off the pictures when there are some."""
        self.hint_rect = None
        if self.doc.project.bones:
            return
        painter.save()
        try:
            painter.resetTransform()
            origin = self.doc.bake.spaces[CHARACTER].take(self.doc.row)
            self.hint_rect = draw_start_hint(painter, QRectF(self.viewport().rect()), self.edit_tool.tool,
                                             avoid=self.map_to_viewport((float(origin.tx), float(origin.ty))),
                                             art=self.art_rect())
        except Exception:  # noqa: BLE001 - see report_paint_error
            report_paint_error("hint")
        finally:
            painter.restore()

    def hint_text(self) -> str | None:
        """The words of the hint the scene shows (hint.py), None once there are bones."""
        if self.doc.project.bones:
            return None
        return hint_text(self.edit_tool.tool, art=self.art_rect() is not None)

    def _frame_top(self) -> float:
        """Viewport y below which framing places the content: under the hint card
        while it shows (no bones yet), so it hides none of the pictures; at most half
        the view."""
        if self.doc.project.bones:
            return 0.0
        vp = QRectF(self.viewport().rect())
        return min(clear_top(vp, self.edit_tool.tool, art=self.art_rect() is not None), 0.5 * vp.height())

    def art_rect(self) -> QRectF | None:
        """Viewport box of the pictures drawn at this frame, or None when none is."""
        art = self.ctx.state.art if self.ctx.state is not None and self._overlays["art"] else None
        shown = art.drawn() if art is not None else []
        if not shown:
            return None
        pts = DeviceMap(self.viewportTransform())(art.corners[shown].reshape(-1, 2))
        pts = pts[np.all(np.isfinite(pts), axis=1)]
        if not len(pts):
            return None
        (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
        return QRectF(float(x0), float(y0), float(x1 - x0), float(y1 - y0))

    def _auto_frame_now(self):
        self.frame_all()
        self._auto_frame = True

    # ------------------------------------------------------------------ Qt events
    def showEvent(self, event):  # noqa: N802
        super().showEvent(event)
        if self._auto_frame:
            self._auto_frame_now()

    def resizeEvent(self, event):  # noqa: N802
        super().resizeEvent(event)
        self._hud.place()
        self._legend.place()
        if self._auto_frame and self.isVisible():
            self._auto_frame_now()
        else:
            self._repaint_all()

    def scrollContentsBy(self, dx, dy):  # noqa: N802
        super().scrollContentsBy(dx, dy)
        self._repaint_all()  # labels are laid out in viewport pixels, inside the view
