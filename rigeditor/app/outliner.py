"""The outliner: bones (as a hierarchy), IK chains, transform and physics constraints, targets and
scene objects (spaces).

Selection follows ``doc.select`` / ``selectionChanged`` both ways. Renaming an item
(double-click or F2) renames it everywhere through ``edits.rename``; dragging a bone
onto another bone (or onto the "Bones" heading) reparents it through
``edits.reparent_bone``, a scene object onto another space likewise. Every edit is
one ``doc.apply``; the tree is rebuilt from the project, never edited behind its back.

Names are shown whole at any depth: the column is as wide as its widest name (the
dock scrolls sideways when narrower), a selected item is scrolled into view name and
all, and a bone's tooltip gives its path from the root.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QMenu, QTreeWidget, QTreeWidgetItem

from rigeditor.app.gesture_pacing import GesturePacer
from rigeditor.app.guard import Guarded
from rigeditor.app import style
from rigeditor import edits
from rigeditor.app.dialogs import Dialogs
from rigeditor.model import CAUSES
from rigeditor.model.data.project import CHARACTER, WORLD

GROUPS = (("bone", "Bones"), ("chain", "IK chains"), ("transform", "Transform constraints"),
          ("path", "Path constraints"), ("physics", "Physics constraints"), ("target", "Targets"),
          ("space", "Scene objects"), ("slot", "Slots"))
ROLE = Qt.UserRole
INDENT_PX = 14  # per level: a ten-bone arm stays 140 px deep, not 200
PATH_SEP = " \u25b8 "  # between the bones of a tooltip's path


def _swatch(color: QColor, size: int = 10) -> QIcon:
    pm = QPixmap(size, size)
    pm.fill(color)
    return QIcon(pm)


class Outliner(Guarded, QTreeWidget):
    def __init__(self, doc, dialogs=None, rig_actions=None, parent=None):
        super().__init__(parent)
        self.doc = doc
        self.dialogs = dialogs or Dialogs()
        self.rig_actions = rig_actions
        self._items: dict[tuple[str, str], QTreeWidgetItem] = {}
        self._groups: dict[str, QTreeWidgetItem] = {}
        self._causes: dict[str, str] = {}  # chain -> cause its icon shows
        self._signature = None
        self._syncing = False
        self.setHeaderHidden(True)
        self.setIndentation(INDENT_PX)
        # As wide as the widest name: cut or elided, deep names all read alike ("finger_…").
        self.header().setStretchLastSection(False)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeToContents)
        self.setTextElideMode(Qt.ElideNone)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollPerPixel)
        self.setSelectionMode(QAbstractItemView.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.DoubleClicked | QAbstractItemView.EditKeyPressed)
        self.setDragEnabled(True)
        self.setAcceptDrops(True)
        self.setDropIndicatorShown(True)
        self.setDragDropMode(QAbstractItemView.InternalMove)
        self.setContextMenuPolicy(Qt.CustomContextMenu)
        self.customContextMenuRequested.connect(self._context_menu)
        self.itemSelectionChanged.connect(self._selection_to_doc)
        self.itemChanged.connect(self._item_renamed)
        doc.projectChanged.connect(self.rebuild)
        doc.selectionChanged.connect(self._selection_from_doc)
        # The chains' cause colours follow a drag or a scrub at a reading pace (the eye
        # is on the scene), the last one when it ends.
        doc.bakeChanged.connect(GesturePacer(doc, self._update_states, self))
        doc.frameChanged.connect(GesturePacer(doc, self._update_states, self, frames=True))
        self.rebuild()

    # ------------------------------------------------------------------ public
    def item_for(self, kind: str, name: str) -> QTreeWidgetItem | None:
        return self._items.get((kind, name))

    def group(self, kind: str) -> QTreeWidgetItem:
        return self._groups[kind]

    def drop(self, dragged: tuple[str, str], onto) -> bool:
        """Reparent ``dragged`` (kind, name) onto ``onto``: (kind, name) of an item, or
        ("group", kind) for a heading (a root bone; a scene object in world).
        Returns True when the project changed; refusals show their message."""
        kind, name = dragged
        okind, oname = onto
        p = self.doc.project
        try:
            if kind == "bone" and okind in ("bone", "group") and (okind == "bone" or oname == "bone"):
                parent = oname if okind == "bone" else None
                new = edits.reparent_bone(p, name, parent)
                label = f"Reparent {name} to {parent or 'root'}"
            elif kind == "space" and okind in ("space", "group") and (okind == "space" or oname == "space"):
                parent = oname if okind == "space" else WORLD
                new = edits.reparent_space(p, name, parent)
                label = f"Parent {name} to {parent}"
            else:
                return False
        except edits.EditError as exc:
            self.dialogs.error(self, "Reparent", str(exc))
            return False
        if new == p:
            return False
        self.doc.apply(label, new)
        return True

    def rename(self, kind: str, old: str, new: str) -> bool:
        try:
            project = edits.rename(self.doc.project, kind, old, new)
        except edits.EditError as exc:
            self.dialogs.error(self, "Rename", str(exc))
            self._signature = None
            self.rebuild()
            return False
        if project == self.doc.project:
            return False
        sel = [(k, new.strip() if (k, n) == (kind, old) else n) for k, n in self.doc.selection]
        self.doc.apply(f"Rename {kind} {old} to {new.strip()}", project)
        self.doc.select(sel)
        return True

    # ------------------------------------------------------------------ building
    def _make_signature(self):
        p = self.doc.project
        return (tuple((b.name, b.parent) for b in p.bones), tuple((c.name, c.bones, c.target) for c in p.chains),
                tuple((t.name, t.space) for t in p.targets), tuple((s.name, s.parent) for s in p.spaces),
                tuple((s.name, s.bone) for s in p.art.slots),
                tuple((t.name, t.bones, t.target, t.order, t.local, t.relative) for t in p.transforms),
                tuple((c.name, c.bones, c.target, c.order, c.rotate_mode) for c in p.paths),
                tuple((c.name, c.bone, c.order) for c in p.physics))

    def rebuild(self) -> None:
        sig = self._make_signature()
        if sig == self._signature:
            return
        self._signature = sig
        collapsed = {key for key, it in self._items.items() if it.childCount() and not it.isExpanded()}
        collapsed |= {("group", k) for k, it in self._groups.items() if not it.isExpanded()}
        self._syncing = True
        self.blockSignals(True)
        try:
            self.clear()
            self._items, self._groups, self._causes = {}, {}, {}
            p = self.doc.project
            for kind, title in GROUPS:
                g = QTreeWidgetItem(self, [title])
                g.setData(0, ROLE, ("group", kind))
                g.setFlags(Qt.ItemIsEnabled | Qt.ItemIsDropEnabled)
                f = g.font(0)
                f.setBold(True)
                g.setFont(0, f)
                self._groups[kind] = g

            def add_bones(parent_item, bones):
                # Depth first with a stack, not recursion: a chain of 20,000 bones is legal.
                # Ancestors as a linked (name, up) pair, so a deep chain costs no list per bone.
                stack = [(parent_item, b.name, None) for b in reversed(bones)]
                while stack:
                    parent, name, up = stack.pop()
                    it = self._make("bone", name, parent)
                    chain = p.chain_of_bone(name)
                    where = "\n" + _path_tail(name, up) if up else ""
                    it.setToolTip(0, f"bone {name}" + (f" · driven by IK chain {chain.name}" if chain else "") + where)
                    it.setForeground(0, style.BONE_IK if chain else style.BONE_FK)
                    stack.extend((it, child.name, (name, up)) for child in reversed(p.children(name)))

            add_bones(self._groups["bone"], p.children(None))
            for c in p.chains:
                it = self._make("chain", c.name, self._groups["chain"])
                it.setToolTip(0, f"{' → '.join(c.bones)} → target {c.target}")
            for t in sorted(p.transforms, key=lambda t: t.order):  # in the order they run
                it = self._make("transform", t.name, self._groups["transform"])
                it.setToolTip(0, f"{', '.join(t.bones)} follow {t.target} · "
                                 f"{'local' if t.local else 'world'}, {'relative' if t.relative else 'absolute'}"
                                 f" · order {t.order}")
            for c in sorted(p.paths, key=lambda c: c.order):  # in the order they run
                it = self._make("path", c.name, self._groups["path"])
                it.setToolTip(0, f"{', '.join(c.bones)} along the path of slot {c.target} · {c.position_mode} "
                                 f"position, {c.spacing_mode} spacing, {c.rotate_mode} · order {c.order}")
            for c in sorted(p.physics, key=lambda c: c.order):  # in the order they run
                it = self._make("physics", c.name, self._groups["physics"])
                moved = ", ".join(w for w in ("x", "y", "rotate", "scale_x", "shear_x") if getattr(c, w))
                it.setToolTip(0, f"{c.bone} sways ({moved or 'nothing'}) · order {c.order}")
            for t in p.targets:
                it = self._make("target", t.name, self._groups["target"])
                space = t.space.default
                it.setIcon(0, _swatch(style.space_color(p, space)))
                spaces = t.space.values()
                it.setToolTip(0, f"declared in {', then '.join(spaces)}")

            kids: dict = {}
            for s in p.spaces:
                kids.setdefault(s.parent, []).append(s)
            stack = [(self._groups["space"], s) for s in reversed(kids.get(WORLD, []))]
            while stack:  # depth first, as the bones
                parent, s = stack.pop()
                it = self._make("space", s.name, parent, editable=s.name != CHARACTER)
                it.setIcon(0, _swatch(style.space_color(p, s.name)))
                stack.extend((it, c) for c in reversed(kids.get(s.name, [])))
            for s in reversed(p.art.slots):  # front first, like a layer panel
                it = self._make("slot", s.name, self._groups["slot"])
                it.setToolTip(0, f"on {s.bone or 'the character (not bound)'} · "
                                 f"{', '.join(a.name for a in s.attachments) or 'no pictures'}")
            self.expandAll()
            for key in collapsed:
                it = self._groups.get(key[1]) if key[0] == "group" else self._items.get(key)
                if it is not None:
                    it.setExpanded(False)
        finally:
            self.blockSignals(False)
            self._syncing = False
        self._selection_from_doc()
        self._update_states()

    def _make(self, kind, name, parent_item, editable=True):
        it = QTreeWidgetItem(parent_item, [name])
        it.setData(0, ROLE, (kind, name))
        flags = Qt.ItemIsEnabled | Qt.ItemIsSelectable
        if editable:
            flags |= Qt.ItemIsEditable
        if kind in ("bone", "space") and editable:
            flags |= Qt.ItemIsDragEnabled | Qt.ItemIsDropEnabled
        elif kind == "space":
            flags |= Qt.ItemIsDropEnabled
        it.setFlags(flags)
        self._items[(kind, name)] = it
        return it

    def _update_states(self, *_):
        """Colour each chain by the cause of its residual on the current frame."""
        bake, row = self.doc.bake, self.doc.row
        for name, cb in bake.chains.items():  # the chains alone, not every item: asked on each move and frame
            it = self._items.get(("chain", name))
            if it is not None:
                cause = CAUSES[int(cb.cause[row])]
                if self._causes.get(name) != cause:  # icons only when they change
                    self._causes[name] = cause
                    it.setIcon(0, _swatch(style.CAUSE_COLORS[cause]))
                    it.setData(0, Qt.StatusTipRole, style.CAUSE_LABELS[cause])

    # ------------------------------------------------------------------ selection
    def _selection_to_doc(self):
        if self._syncing:
            return
        items = [it.data(0, ROLE) for it in self.selectedItems()]
        self.doc.select(tuple(tuple(x) for x in items if x and x[0] != "group"))

    def _selection_from_doc(self):
        self._syncing = True
        try:
            wanted = set(self.doc.selection)
            for key, it in self._items.items():
                it.setSelected(key in wanted)
            first = next((self._items[k] for k in self.doc.selection if k in self._items), None)
            if first is not None:
                self.scrollToItem(first)
                self._show_name(first)
        finally:
            self._syncing = False

    def _show_name(self, item) -> None:
        """Scroll sideways so ``item``'s icon and name are in view (Qt scrolls to the
        column's start, which leaves a deep item off to the right)."""
        r = self.visualItemRect(item)
        icon = self.iconSize().width() + 4 if not item.icon(0).isNull() else 0
        need = icon + self.fontMetrics().horizontalAdvance(item.text(0)) + 8
        over = r.left() + need - self.viewport().width()
        shift = min(over, r.left()) if over > 0 else min(r.left(), 0)  # never past the name's start
        if shift:
            bar = self.horizontalScrollBar()
            bar.setValue(bar.value() + shift)

    # ------------------------------------------------------------------ editing
    def _item_renamed(self, item, _column):
        data = item.data(0, ROLE)
        if self._syncing or not data or data[0] == "group":
            return
        kind, old = data
        new = item.text(0).strip()
        if new != old:
            self.rename(kind, old, new)

    def dropEvent(self, event):  # noqa: N802 - Qt's name
        target = self.itemAt(event.position().toPoint())
        dragged = [it.data(0, ROLE) for it in self.selectedItems()]
        event.setDropAction(Qt.IgnoreAction)
        event.ignore()  # the tree is rebuilt from the project, never moved by Qt
        if target is None or not dragged:
            return
        onto = tuple(target.data(0, ROLE))
        for d in dragged:
            if d and tuple(d) != onto:
                self.drop(tuple(d), onto)

    def _context_menu(self, pos):
        if self.rig_actions is None:
            return
        item = self.itemAt(pos)
        menu = QMenu(self)
        for action in self.rig_actions.context_actions(item.data(0, ROLE) if item else None):
            if action is None:
                menu.addSeparator()
            else:
                menu.addAction(action)
        rename = menu.addAction("Rename")
        rename.setEnabled(item is not None and bool(item.flags() & Qt.ItemIsEditable))
        rename.triggered.connect(lambda: self.editItem(item, 0))
        menu.exec(self.viewport().mapToGlobal(pos))


PATH_SHOWN = 12
"""Most ancestors a bone's tooltip names (a 20,000-bone chain would make each tooltip as long as the chain)."""


def _path_tail(name: str, up) -> str:
    """The bone's path from the root, its last ``PATH_SHOWN`` ancestors when deeper ("…" first)."""
    names = [name]
    while up is not None and len(names) <= PATH_SHOWN:
        names.append(up[0])
        up = up[1]
    return PATH_SEP.join((["…"] if up is not None else []) + names[::-1])
