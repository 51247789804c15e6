"""The main window: the scene in the middle; outliner, inspector, undo history,
timeline and curves in docks; File / Edit / Rig / View menus; the mode (Setup or
Animate) always in view, in the tool bar and the status bar.

``MainWindow(doc)`` works on a :class:`~rigeditor.app.document.Document`; optional
``settings`` (QSettings), ``dialogs`` (see dialogs.py) and ``data_dir`` (autosave and
session markers) let tests keep away from the user's own.
"""
from __future__ import annotations

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QApplication, QDockWidget, QLabel, QMainWindow, QSplitter

from rigeditor.app import guard, style
from rigeditor.app.curves import CurvesWidget
from rigeditor.app.gesture_pacing import GesturePacer
from rigeditor.app.graph import GraphEditor
from rigeditor.app.history_view import HistoryView
from rigeditor.app.pose_actions import PoseActions
from rigeditor.app.dialogs import Dialogs
from rigeditor.app.files import EXPORTS, FileController
from rigeditor.app.inspector import Inspector, chain_readout, current_chain
from rigeditor.app.inspector.readouts import set_style
from rigeditor.app.outliner import Outliner
from rigeditor.app.mesh_actions import MeshActions
from rigeditor.app.rig_actions import RigActions
from rigeditor.app.scene import SceneView
from rigeditor.app.steady_label import SteadyLabel
from rigeditor.app.shortcuts import KeysOverNumbers, set_standard_shortcuts
from rigeditor.app.skin_menu import SkinMenu
from rigeditor.app.timeline import TimelineWidget
from rigeditor.examples.files import ALL_DESCRIPTIONS, EXAMPLE_NAMES


BOTTOM_DOCKS_SHARE = 0.4  # of the window's height for the timeline and curves: the scene keeps the rest
GRAPH_MIN_PX = 110

class MainWindow(guard.Guarded, QMainWindow):
    def __init__(self, doc, *, settings: QSettings | None = None, dialogs=None, data_dir=None,
                 autosave_ms: int = 60_000, restore_layout: bool = True):
        super().__init__()
        self.doc = doc
        self.dialogs = dialogs or Dialogs()
        self.settings = settings if settings is not None else QSettings()
        self.files = FileController(doc, self, settings=self.settings, dialogs=self.dialogs,
                                    data_dir=data_dir, autosave_ms=autosave_ms)
        self.rig = RigActions(doc, self.dialogs, self)
        self.mesh = MeshActions(doc, self.dialogs, self, self.rig.tool_group)
        self.edit_tool = self.rig.tool
        self.setObjectName("RigEditorMainWindow")
        self.setDockNestingEnabled(True)
        self.setPalette(style.dark_palette())
        self.setStyleSheet("QMainWindow::separator { width: 3px; height: 3px; }")

        self.scene = SceneView(doc)
        self.setCentralWidget(self.scene)
        self.outliner = Outliner(doc, self.dialogs, self.rig)
        self.inspector = Inspector(doc, self.dialogs, self.rig)
        self.undo_view = HistoryView(doc.undo_stack, "(opened)")
        self.timeline = TimelineWidget(doc, dialogs=self.dialogs)
        if hasattr(self.scene, "set_onion"):
            self.timeline.onionChanged.connect(self.scene.set_onion)
        self.curves = CurvesWidget(doc)
        self.graph = GraphEditor(doc)
        # The curve editor on top, the solver's residual and jitter curves below it.
        curves_dock = QSplitter(Qt.Vertical)
        curves_dock.addWidget(self.graph)
        curves_dock.addWidget(self.curves)
        curves_dock.setStretchFactor(0, 1)
        curves_dock.setStretchFactor(1, 1)
        curves_dock.setChildrenCollapsible(False)
        # The diagnostics plots ask for the height that keeps their axis numbers apart
        # (CurvesWidget.fit_height); the curve editor reads at any height, so it gives way first.
        self.graph.setMinimumHeight(GRAPH_MIN_PX)
        self._curves_split = curves_dock

        self.docks = {}
        self._dock("outliner", "Outliner", self.outliner, Qt.LeftDockWidgetArea)
        self._dock("inspector", "Inspector", self.inspector, Qt.RightDockWidgetArea)
        self._dock("history", "History", self.undo_view, Qt.RightDockWidgetArea)
        self.tabifyDockWidget(self.docks["inspector"], self.docks["history"])
        self.docks["inspector"].raise_()
        self._dock("timeline", "Timeline", self.timeline, Qt.BottomDockWidgetArea)
        self._dock("curves", "Curves", curves_dock, Qt.BottomDockWidgetArea)
        self.splitDockWidget(self.docks["timeline"], self.docks["curves"], Qt.Horizontal)
        self._default_dock_sizes()

        self._build_actions()
        self._build_menus()
        self._build_toolbar()
        self._build_status()

        doc.pathChanged.connect(self._update_title)
        doc.projectChanged.connect(self._update_title)
        doc.modifiedChanged.connect(self._update_title)
        doc.frameChanged.connect(self._update_status)
        self._paced_status = GesturePacer(doc, self._update_status, self)  # as the inspector
        doc.bakeChanged.connect(self._paced_status)
        doc.selectionChanged.connect(self._update_status)
        doc.modeChanged.connect(self._mode_changed)
        doc.refused.connect(self._refused)
        guard.add_sink(self.show_error)
        self.files.recentChanged.connect(self._build_recent_menu)
        self.scene.statusMessage.connect(lambda msg: self.statusBar().showMessage(msg, 4000))
        self.rig.statusMessage.connect(lambda msg: self.statusBar().showMessage(msg, 10_000))
        self.mesh.statusMessage.connect(lambda msg: self.statusBar().showMessage(msg, 10_000))
        self.scene.overlayChanged.connect(self._overlay_changed)
        self.scene.playToggleRequested.connect(self.toggle_playback)  # Space tapped in the scene
        self._mode_changed(doc.mode)
        # K, B, V... reach their actions while a number field has the focus.
        QApplication.instance().installEventFilter(KeysOverNumbers(self))
        self._update_title()
        self.resize(1440, 900)
        self._shown_once = False
        self._layout_restored = False
        if restore_layout:
            self.restore_layout()

    # ------------------------------------------------------------------ parts
    def _dock(self, key, title, widget, area):
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock_{key}")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        self.docks[key] = dock
        return dock

    def _action(self, text, slot, shortcut=None, tip=""):
        a = QAction(text, self)
        a.triggered.connect(lambda _checked=False: slot())
        if isinstance(shortcut, QKeySequence.StandardKey):
            set_standard_shortcuts(a, shortcut)  # every platform binding, not just the first
        elif shortcut is not None:
            a.setShortcut(QKeySequence(shortcut))
        a.setStatusTip(tip)
        return a

    def _build_actions(self):
        f = self.files
        self.new_action = self._action("New", f.new, QKeySequence.New,
                                       "A new, empty project: a character space to draw bones in")
        self.example_actions = {
            name: self._action(name.replace("_", " ").capitalize(), lambda n=name: f.new_from_example(n),
                               tip=ALL_DESCRIPTIONS[name])
            for name in EXAMPLE_NAMES}
        self.open_action = self._action("Open…", f.open, QKeySequence.Open)
        self.import_psd_action = self._action("Import PSD…", f.import_psd, None,
                                              "A new project from a layered PSD: one slot per layer")
        self.import_images_action = self._action("Import Images…", f.import_images, None,
                                                 "A new project from a folder of PNGs (placed by its layout.json "
                                                 "when there is one): one slot per picture")
        self.import_spine_action = self._action("Import Spine…", f.import_spine, None,
                                                "A new project from a Spine 4.0-4.2 skeleton (JSON + atlas)")
        self.save_action = self._action("Save", f.save, QKeySequence.Save)
        self.save_as_action = self._action("Save As…", f.save_as, QKeySequence.SaveAs)
        self.quit_action = self._action("Quit", self.close, QKeySequence.Quit)
        self.export_actions = {k: self._action(label, lambda k=k: f.export(k)) for k, (label, _, _) in EXPORTS.items()}
        stack = self.doc.undo_stack
        self.undo_action = stack.createUndoAction(self, "Undo")
        set_standard_shortcuts(self.undo_action, QKeySequence.Undo)
        self.redo_action = stack.createRedoAction(self, "Redo")
        set_standard_shortcuts(self.redo_action, QKeySequence.Redo)
        self.delete_action = self._action("Delete", self.delete, QKeySequence.Delete,
                                          "Delete the selected keys (timeline) or items")
        self.select_all_action = self._action("Select All", self.select_all, QKeySequence.SelectAll,
                                              "Select every bone, IK chain, target and scene object")
        # F and Shift+F frame the scene wherever a letter cannot be typed (the curve
        # editor claims its own F while it has focus): after a file dialog the focus is
        # rarely on the scene, and framing imported art must not wait for a click there.
        self.frame_all_action = self._action("Frame All", self.scene.frame_all, "F",
                                             "Fit every bone, target and picture of the animation in the view")
        self.frame_selection_action = self._action("Frame Selection", self.scene.frame_selection, "Shift+F",
                                                   "Fit the selection at the current frame in the view")
        self.mode_group = QActionGroup(self)
        self.mode_actions = {}
        for mode, text, tip in (("setup", "Setup", "Edit the rig's rest pose"),
                                ("animate", "Animate", "Edits key the current frame")):
            a = QAction(text, self)
            a.setCheckable(True)
            a.setStatusTip(tip)
            a.setToolTip(f"{text} mode: {tip.lower()}")
            a.triggered.connect(lambda _c=False, m=mode: self.doc.set_mode(m))
            self.mode_group.addAction(a)
            self.mode_actions[mode] = a
        # The timeline's transport and keying keys work window-wide. Its Delete goes
        # through our Delete (one shortcut, keys first), or both would be ambiguous.
        self.timeline_actions = []
        if hasattr(self.timeline, "actions_for_window"):
            for a in self.timeline.actions_for_window():
                if a is getattr(self.timeline, "delete_action", None):
                    a.setShortcut(QKeySequence())
                    continue
                self.addAction(a)
                self.timeline_actions.append(a)
        self.pose = PoseActions(self.doc, self, lambda text: self.statusBar().showMessage(text, 5000))
        for a in self.pose.actions():
            self.addAction(a)
        for a in (self.undo_action, self.redo_action, self.delete_action, self.select_all_action, self.rig.flip_action,
                  self.frame_all_action, self.frame_selection_action,
                  self.rig.select_tool_action, self.rig.bone_tool_action, self.rig.add_chain_action,
                  self.mesh.mesh_tool_action, self.mesh.weights_tool_action, self.mesh.bigger_action,
                  self.mesh.smaller_action, self.mesh.stronger_action, self.mesh.weaker_action):
            self.addAction(a)

    def _build_menus(self):
        mb = self.menuBar()
        m = mb.addMenu("&File")
        m.addAction(self.new_action)
        examples = m.addMenu("New from E&xample")
        for a in self.example_actions.values():
            examples.addAction(a)
        m.addAction(self.open_action)
        m.addAction(self.import_psd_action)
        m.addAction(self.import_images_action)
        m.addAction(self.import_spine_action)
        self.recent_menu = m.addMenu("Open &Recent")
        self._build_recent_menu()
        m.addSeparator()
        m.addAction(self.save_action)
        m.addAction(self.save_as_action)
        export = m.addMenu("&Export")
        for a in self.export_actions.values():
            export.addAction(a)
        m.addSeparator()
        m.addAction(self.quit_action)

        m = mb.addMenu("&Edit")
        m.addAction(self.undo_action)
        m.addAction(self.redo_action)
        m.addSeparator()
        m.addAction(self.delete_action)
        m.addAction(self.select_all_action)
        for a in self.timeline_actions:
            if a.text() in ("Set key",):
                m.addAction(a)

        r = self.rig
        m = mb.addMenu("&Rig")
        for a in (r.select_tool_action, r.bone_tool_action, None, r.add_root_bone_action, r.add_child_bone_action,
                  r.add_chain_action, r.flip_action, None, r.add_object_action):
            m.addSeparator() if a is None else m.addAction(a)

        m = mb.addMenu("&Mesh")
        for a in self.mesh.actions():
            m.addSeparator() if a is None else m.addAction(a)

        m = mb.addMenu("&View")
        for a in self.mode_actions.values():
            m.addAction(a)
        m.addSeparator()
        m.addAction(self.frame_all_action)
        m.addAction(self.frame_selection_action)
        m.addSeparator()
        for dock in self.docks.values():
            m.addAction(dock.toggleViewAction())
        self.skins = SkinMenu(self.doc, self)
        m.addMenu(self.skins.menu)
        names = self.scene.OVERLAY_NAMES
        self.overlay_actions = {}
        if names:
            m.addSeparator()
            o = m.addMenu("&Overlays")
            for name in names:
                label = names[name] if isinstance(names, dict) else name.replace("_", " ").capitalize()
                a = QAction(label, self)
                a.setCheckable(True)
                a.setChecked(bool(self.scene.overlays.get(name, False)))
                a.toggled.connect(lambda on, n=name: self._set_overlay(n, on))
                o.addAction(a)
                self.overlay_actions[name] = a
        editing = list(getattr(self.timeline, "editing_actions", list)())
        if self.timeline_actions:
            m = mb.addMenu("&Playback")
            for a in self.timeline_actions:
                if a not in editing:
                    m.addAction(a)
        m = mb.addMenu("&Animate")
        for a in editing:
            m.addAction(a)
        if hasattr(self.timeline, "interp_menu"):
            m.addMenu(self.timeline.interp_menu)
            m.addAction(self.timeline.auto_key_action)
        m.addSeparator()
        for a in self.pose.actions():
            m.addAction(a)

    def _build_recent_menu(self):
        menu = self.recent_menu
        menu.clear()
        files = self.files.recent_files()
        for path in files:
            a = menu.addAction(path)
            a.triggered.connect(lambda _c=False, p=path: self.files.open(p))
        if files:
            menu.addSeparator()
            menu.addAction("Clear list", self.files.clear_recent)
        menu.setEnabled(bool(files))

    def _build_toolbar(self):
        tb = self.addToolBar("Mode and tools")
        tb.setObjectName("toolbar_main")
        tb.setMovable(False)
        tb.addWidget(QLabel(" Mode "))
        for mode, a in self.mode_actions.items():
            tb.addAction(a)
            color = style.MODE_COLORS[mode].name()
            tb.widgetForAction(a).setStyleSheet(
                f"QToolButton:checked {{ background: {color}; color: white; font-weight: bold;"
                " border-radius: 3px; padding: 2px 8px; }")
        tb.addSeparator()
        tb.addAction(self.rig.select_tool_action)
        tb.addAction(self.rig.bone_tool_action)
        tb.addSeparator()
        tb.addAction(self.rig.add_chain_action)
        tb.addAction(self.rig.flip_action)
        tb.addSeparator()
        tb.addAction(self.undo_action)
        tb.addAction(self.redo_action)

    def _build_status(self):
        sb = self.statusBar()
        self.chain_status = QLabel()
        self.chain_status.setObjectName("status_chain")
        self.frame_status = QLabel()
        self.frame_status.setObjectName("status_frame")
        self.mode_status = QLabel()
        self.mode_status.setObjectName("status_mode")
        # The chain's residual and the frame change on every move and frame: held
        # steady, so the status bar does not lay the window out again (steady_label).
        sb.addPermanentWidget(SteadyLabel(self.chain_status))
        sb.addPermanentWidget(SteadyLabel(self.frame_status))
        sb.addPermanentWidget(self.mode_status)
        self._update_status()

    # ------------------------------------------------------------------ state
    def _set_overlay(self, name, on):
        if bool(self.scene.overlays.get(name)) != bool(on):
            self.scene.set_overlay(name, on)
        self.settings.setValue(f"overlays/{name}", bool(on))

    def _overlay_changed(self, name, on):
        a = self.overlay_actions.get(name)
        if a is not None and a.isChecked() != bool(on):
            a.setChecked(bool(on))

    def _mode_changed(self, mode):
        self.mode_actions[mode].setChecked(True)
        self.mode_status.setText(f" {mode.upper()} ")
        self.mode_status.setStyleSheet(f"background: {style.MODE_COLORS[mode].name()}; color: white; font-weight: bold;"
                                       " border-radius: 3px; padding: 1px 6px;")
        self._update_status()

    def _update_title(self, *_):
        title, modified = f"{self.files.display_name()}[*] — RigEditor", self.doc.is_modified()
        if title != self.windowTitle():  # (asked on every drag move: the same title)
            self.setWindowTitle(title)
        if modified != self.isWindowModified():
            self.setWindowModified(modified)

    def _update_status(self, *_):
        tl = self.doc.project.timeline
        self.frame_status.setText(f"Frame {self.doc.frame}  ({tl.start}–{tl.end} @ {tl.fps:g} fps)")
        chain = current_chain(self.doc)
        if chain is None or chain not in self.doc.bake.chains:
            self.chain_status.setText("No chain selected")
            set_style(self.chain_status, "color: #8b95a5;")
            return
        r = chain_readout(self.doc, chain, limits=False)
        color = style.CAUSE_COLORS[r["cause"]]
        text = f"{chain}: residual {r['residual']:.3f} u ({r['cause_label']}) · {r['reach']}"
        if r["solver"] != "analytic":
            text += f" · {r['iterations']}/{r['max_iterations']} it"
        self.chain_status.setText(text)
        set_style(self.chain_status, f"color: {color.name()}; font-weight: bold;")

    def show_error(self, message: str) -> None:
        """An internal error the guard caught: said in the status bar (no modal box,
        which a failing paint would raise again and again)."""
        self.statusBar().showMessage(message, 15_000)

    def _refused(self, title: str, message: str) -> None:
        self.statusBar().showMessage(message, 15_000)
        self.dialogs.error(self, title, message)

    def toggle_playback(self):
        """Play or pause through the timeline's play/pause action (as its Space key does)."""
        action = getattr(self.timeline, "play_action", None)
        if action is not None:
            action.trigger()
        elif hasattr(self.timeline, "toggle_play"):
            self.timeline.toggle_play()

    def delete(self):
        """Delete: selected timeline keys first, else the selected items."""
        t = self.timeline
        if hasattr(t, "selected_keys") and t.selected_keys():
            t.delete_selected_keys()
        else:
            self.rig.delete_selected()

    def select_all(self):
        """Select every bone, chain, target and scene object."""
        p = self.doc.project
        self.doc.select([(kind, x.name) for kind, pool in (("bone", p.bones), ("chain", p.chains),
                                                           ("target", p.targets), ("space", p.spaces))
                         for x in pool])

    # ------------------------------------------------------------------ layout and closing
    def _default_dock_sizes(self):
        d = self.docks
        self.resizeDocks([d["outliner"], d["inspector"]], [200, 380], Qt.Horizontal)
        bottom = max(self.curves.minimumHeight() + GRAPH_MIN_PX, round(BOTTOM_DOCKS_SHARE * self.height()))
        self.resizeDocks([d["timeline"]], [bottom], Qt.Vertical)
        self._curves_split.setSizes([GRAPH_MIN_PX + 40, bottom])
        self.resizeDocks([d["timeline"], d["curves"]], [560, 680], Qt.Horizontal)

    def showEvent(self, event):  # noqa: N802 - Qt's name
        super().showEvent(event)
        if not self._shown_once:
            self._shown_once = True
            if not self._layout_restored:
                self._default_dock_sizes()  # proportions need the real window size

    def restore_layout(self):
        geometry = self.settings.value("window/geometry")
        state = self.settings.value("window/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self._layout_restored = bool(self.restoreState(state))
        self.scene.legend.restore(self.settings.value("scene/legend"))
        for name, a in getattr(self, "overlay_actions", {}).items():
            value = self.settings.value(f"overlays/{name}")
            if value is not None:
                a.setChecked(str(value).lower() in ("true", "1"))

    def save_layout(self):
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.setValue("scene/legend", self.scene.legend.state())
        self.settings.sync()

    def closeEvent(self, event):  # noqa: N802 - Qt's name
        if not self.files.maybe_save():
            event.ignore()
            return
        if hasattr(self.timeline, "pause"):
            self.timeline.pause()
        self.save_layout()
        self.files.end_session()
        event.accept()
