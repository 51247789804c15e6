"""Scene layers: a handful of objects, each painting every element of one kind (all
bones, all target handles, all labels...) from the arrays of a FrameState, all drawn
by one QGraphicsItem (``stack.LayerStack``).

Few objects, updated from arrays: an edit never creates or deletes items. Each layer
describes its elements as arrays (a signature per element and its box on screen);
the view compares the signatures of the old and new FrameState and repaints only the
boxes of elements that changed, and a layer paints only the elements whose box
meets the exposed area. Dragging one chain among twenty repaints that chain.
"""
from __future__ import annotations

import logging
import traceback

import numpy as np
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainter

from rigeditor.app import style
from rigeditor.app.scene.paint import (
    NO_BRUSH, DeviceMap, Label, LabelPlacer, TextCache, overlaps, discs, draw_label, faded, label_font, pen,
    polygons, thick_line, visible,
)

EVERYWHERE = QRectF(-1e9, -1e9, 2e9, 2e9)  # layers paint wherever they are exposed

PAINT_ERRORS: list[str] = []
"""Tracebacks of exceptions raised while painting (the tests assert it stays empty)."""


def report_paint_error(where: str) -> None:
    """Log the exception being handled instead of letting it escape a paint override:
    an exception escaping a Qt virtual kills the process with some PySide builds,
    taking unsaved work along. Call from an ``except`` block."""
    text = traceback.format_exc()
    PAINT_ERRORS.append(f"{where}: {text}")
    del PAINT_ERRORS[:-20]
    logging.getLogger(__name__).error("painting %s failed:\n%s", where, text)


class SceneContext:
    """What the layers read (owned and written by the view only).

    structure / state: see rigeditor.app.scene.state. project: the Document's
    project. selected: {"bone": set, "target": set, "chain": set}. hover: (kind,
    name) under the pointer or None. emphasized: chains whose overlays draw at full
    strength (being dragged, selected, or hovered through a bone or target).
    exposed: while the view paints, the rectangles of its region (x0, y0, x1, y1),
    so layers skip elements in the gaps between them.
    """

    def __init__(self):
        self.structure = None
        self.state = None
        self.project = None
        self.selected = {"bone": set(), "target": set(), "chain": set(), "slot": set(), "transform": set(),
                         "path": set()}
        self.hover = None
        self.active_chain = None
        self.emphasized: set = set()
        self.exposed = None  # (R, 4) viewport rectangles being repainted, or None

    def device_map(self, t) -> DeviceMap:
        """The DeviceMap of transform ``t``, kept while the view's transform stays
        (every repaint of a drag paints with the same one)."""
        key = (t.m11(), t.m12(), t.m21(), t.m22(), t.dx(), t.dy())
        dm = getattr(self, "_device_map", None)
        if dm is None or dm.key() != key:
            dm = self._device_map = DeviceMap(t)
        return dm

    def space_color(self, name: str):
        """style.space_color, remembered per project spaces (asked for on every move)."""
        spaces = self.project.spaces if self.project is not None else ()
        if getattr(self, "_color_spaces", None) is not spaces:
            self._color_spaces, self._colors = spaces, {}
        c = self._colors.get(name)
        if c is None:
            c = self._colors[name] = style.space_color(self.project, name)
        return c

    def update_emphasis(self) -> None:
        s, project = self.structure, self.project
        out = set(self.selected["chain"])
        if self.active_chain:
            out.add(self.active_chain)
        if s is not None and project is not None:
            bones = set(self.selected["bone"])
            targets = set(self.selected["target"])
            if self.hover and self.hover[0] in ("bone", "target"):
                (bones if self.hover[0] == "bone" else targets).add(self.hover[1])
            out.update(s.chain_of_bone[b] for b in bones if b in s.chain_of_bone)
            out.update(c.name for c in project.chains if c.target in targets)
        self.emphasized = out


class Layer:
    """Base: one kind of element (all bones, all labels...), painted in device pixels
    (the DeviceMap maps world points) by the view's one ``LayerStack`` item, and
    only the elements whose box meets the exposed area.

    Subclasses give ``elements(state, dm) -> (signature (K, m), lo (K, 2), hi (K, 2))``
    (device boxes) and ``draw(painter, dm, mask)``; ``damage`` compares two states.
    ``zValue``/``isVisible``/``setVisible`` read like a QGraphicsItem's.
    """

    def __init__(self, ctx: SceneContext, z: float):
        self.ctx = ctx
        self._z = float(z)
        self._visible = True

    def zValue(self) -> float:  # noqa: N802 - read like a QGraphicsItem
        return self._z

    def isVisible(self) -> bool:  # noqa: N802
        return self._visible

    def setVisible(self, on: bool) -> None:  # noqa: N802
        self._visible = bool(on)

    def elements(self, state, dm: DeviceMap):
        raise NotImplementedError

    def look(self, state):
        """(K, m) what each element shows of the pointer and the drag (hovered, selected,
        emphasised), or None when the layer shows neither: a hover, or a drag's start
        and end, repaints only the elements whose look changed (``SceneView._restyle``)."""
        return None

    def look_damage(self, state, dm: DeviceMap, changed: np.ndarray) -> np.ndarray:
        """Device boxes (K, 4) to repaint for the elements ``changed`` (bool) restyles:
        their boxes, unless a layer knows tighter ones."""
        _, lo, hi = self.cached_elements(state, dm)
        return np.concatenate([lo[changed], hi[changed]], axis=1)

    def cached_elements(self, state, dm: DeviceMap):
        """``elements`` memoised for the last few (state, view) pairs: the damage pass
        and the paint that follows ask for the same ones."""
        key = (id(state), dm.key())
        cache = self.__dict__.setdefault("_elements_cache", {})
        hit = cache.get(key)
        if hit is None or hit[0] is not state:
            if len(cache) > 4:
                cache.clear()
            hit = cache[key] = (state, self.elements(state, dm))
        return hit[1]

    def damage(self, old, new, dm: DeviceMap):
        """Device boxes (K, 4) to repaint going from ``old`` to ``new`` (one per changed
        element), or None for the whole view (the elements themselves changed)."""
        if old is None or new is None:
            return None
        so, lo_o, hi_o = self.cached_elements(old, dm)
        sn, lo_n, hi_n = self.cached_elements(new, dm)
        if so.shape != sn.shape:
            return None
        changed = (so != sn).any(axis=1) if so.size else np.zeros(0, dtype=bool)
        if not changed.any():
            return np.zeros((0, 4))
        # One box per element, around where it was and where it is: a drag moves an
        # element a few pixels, so the union is hardly bigger than either.
        return np.concatenate([np.minimum(lo_o[changed], lo_n[changed]),
                               np.maximum(hi_o[changed], hi_n[changed])], axis=1)

    def paint_exposed(self, painter: QPainter, dm: DeviceMap, clip) -> None:
        """Draw the elements whose device box meets ``clip`` (x0, y0, x1, y1), or one of
        its rectangles ((R, 4)); the painter maps nothing (device pixels) and
        antialiases."""
        _, lo, hi = self.cached_elements(self.ctx.state, dm)
        if not len(lo):
            return
        mask = visible(lo, hi, clip)
        if mask.any():
            self.draw(painter, dm, mask)

    def draw(self, painter: QPainter, dm: DeviceMap, mask: np.ndarray) -> None:
        raise NotImplementedError


def _box(points_dev: list, pad: float):
    """Element-wise box of several (K, 2) device arrays, padded."""
    stack = np.stack(points_dev)
    return stack.min(axis=0) - pad, stack.max(axis=0) + pad


BONE_WIDTH = 0.11  # half width at the widest point, as a fraction of the length
BONE_MIN_PX, BONE_MAX_PX = 3.0, 12.0


def bone_outline(d0, d1, grow=0.0):
    """Tapered bone polygons in device pixels: (B, 4, 2) from joint d0 to tip d1,
    widest a sixth of the way along. Half width BONE_WIDTH x the on-screen length,
    clamped to [BONE_MIN_PX, BONE_MAX_PX] so bones read at every zoom; ``grow`` px
    all round (a selection halo). Also returns the lengths."""
    v = d1 - d0
    length = np.hypot(v[:, 0], v[:, 1])
    u = v / np.where(length > 1e-9, length, 1.0)[:, None]
    w = np.minimum(np.maximum(BONE_WIDTH * length, BONE_MIN_PX), BONE_MAX_PX) + grow
    nw = np.empty_like(u)  # the normal (-u_y, u_x) times the half width
    nw[:, 0] = -u[:, 1] * w
    nw[:, 1] = u[:, 0] * w
    m = d0 + v * 0.16
    out = np.empty((len(v), 4, 2))
    out[:, 0], out[:, 1], out[:, 2], out[:, 3] = d0, m + nw, d1, m - nw
    if grow:
        out[:, 0] -= u * grow
        out[:, 2] += u * grow
    return out, length


class BoneLayer(Layer):
    """Every bone as a tapered shape from its joint to its tip, with joint dots.
    FK bones in BONE_FK, bones driven by a chain in BONE_IK; a halo in SELECTION when
    selected (or in a selected chain), in HOVER under the pointer."""

    PAD = BONE_MAX_PX + 6.0

    def elements(self, state, dm):
        d0, d1 = dm(state.joints), dm(state.tips)
        lo, hi = _box([d0, d1], self.PAD)
        return np.concatenate([state.joints, state.tips], axis=1), lo, hi

    def _selected(self, st):
        """(B,) bool: bones selected themselves or through their chain (remembered
        per structure and selection: asked on every repaint)."""
        bones, chains = self.ctx.selected["bone"], self.ctx.selected["chain"]
        key = (frozenset(bones), frozenset(chains))
        hit = getattr(self, "_selection", None)
        if hit is None or hit[0] is not st or hit[1] != key:
            sel = np.array([b in bones or st.chain_of_bone.get(b) in chains for b in st.bones], dtype=bool)
            hit = self._selection = (st, key, sel.reshape(-1))
        return hit[2]

    def _hovered(self, st):
        hover = self.ctx.hover
        return hover[1] if hover and hover[0] == "bone" and hover[1] in st.bones else None

    def look(self, state):
        st = self.ctx.structure
        hovered = np.zeros(len(st.bones), dtype=bool)
        hover = self._hovered(st)
        if hover is not None:
            hovered[st.bones.index(hover)] = True
        return np.stack([self._selected(st), hovered], axis=1)

    def draw(self, painter, dm, mask):
        ctx, s, st = self.ctx, self.ctx.state, self.ctx.structure
        shown = np.flatnonzero(mask)
        d0, d1 = dm(s.joints[shown]), dm(s.tips[shown])
        shapes, length = bone_outline(d0, d1)
        outline = pen(style.BONE_OUTLINE)
        # One path per style (halos under every bone, then FK and IK bodies, then the
        # joints): a handful of painter calls however many bones there are.
        selected = self._selected(st)[shown]
        hover = self._hovered(st)
        hovered = (shown == st.bones.index(hover)) & ~selected if hover else None
        if selected.any() or (hovered is not None and hovered.any()):  # (no halo while dragging a target)
            halo, _ = bone_outline(d0, d1, grow=2.5)
            polygons(painter, halo[selected], style.SELECTION)
            if hovered is not None:
                polygons(painter, halo[hovered], faded(style.HOVER, 150))
        ik = st.ik[shown]
        short = length < 3.0
        for flag, color in ((False, style.BONE_FK), (True, style.BONE_IK)):
            group = ik == flag
            polygons(painter, shapes[group & ~short], color, outline)
            discs(painter, d0[group & short], 3.0, color, outline)
        # Joints on top: a dot at every bone's origin, a smaller one at leaf tips.
        r = style.JOINT_RADIUS_PX
        leaves = st.leaf[shown]
        discs(painter, np.concatenate([d0, d1[leaves]]),
              np.r_[np.full(len(shown), r), np.full(int(leaves.sum()), r * 0.6)], style.TEXT, outline)


class TargetLayer(Layer):
    """Target handles: a disc in the colour of the declared space (HANDLE_RADIUS_PX at
    any zoom) with a light rim and a dark centre; selected ones get a SELECTION ring,
    the hovered one grows."""

    PAD = style.HANDLE_RADIUS_PX + 8.0

    def elements(self, state, dm):
        d = dm(state.handle)
        codes = np.array([[hash(s) % 1_000_003] for s in state.space], dtype=float).reshape(-1, 1)
        return np.concatenate([state.handle, codes], axis=1), d - self.PAD, d + self.PAD

    def look(self, state):
        hover = self.ctx.hover[1] if self.ctx.hover and self.ctx.hover[0] == "target" else None
        chosen = self.ctx.selected["target"]
        return np.array([[name in chosen, name == hover] for name in state.targets], dtype=bool).reshape(-1, 2)

    def labels(self):
        """Each target's name and, in its space's colour, the space it is declared in."""
        s = self.ctx.state
        if s is None or not self.isVisible():
            return []
        return [Label(f"target:{name}", s.handle[j],
                      [(name, style.TEXT), (f"  {s.space[j]}", self.ctx.space_color(s.space[j]))],
                      priority=3, gap=style.HANDLE_RADIUS_PX + 3.0)
                for j, name in enumerate(s.targets)]

    def draw(self, painter, dm, mask):
        ctx, s = self.ctx, self.ctx.state
        shown = np.flatnonzero(mask).tolist()
        dev = dm(s.handle[shown])
        r = style.HANDLE_RADIUS_PX
        names = [s.targets[j] for j in shown]
        chosen = [k for k, name in enumerate(names) if name in ctx.selected["target"]]
        if chosen:
            painter.setBrush(NO_BRUSH)
            painter.setPen(pen(style.SELECTION))
            for x, y in dev[chosen].tolist():
                painter.drawEllipse(QPointF(x, y), r + 4, r + 4)
                painter.drawEllipse(QPointF(x, y), r + 5, r + 5)
        # One path per colour: rims, then the discs of each space, then the centres.
        radius = np.full(len(shown), float(r))
        hover = ctx.hover[1] if ctx.hover and ctx.hover[0] == "target" else None
        if hover in names:
            radius[names.index(hover)] += 1.5
        discs(painter, dev, radius + 1.5, style.HANDLE_RING)
        spaces = [s.space[j] for j in shown]
        for space in dict.fromkeys(spaces):
            same = [k for k, x in enumerate(spaces) if x == space]
            discs(painter, dev[same], radius[same], ctx.space_color(space))
        discs(painter, dev, 2.0, style.BONE_OUTLINE)


class OnionLayer(Layer):
    """Onion skin: the bones a few frames before (ONION_BEFORE) and after
    (ONION_AFTER), fading with distance in time."""

    def elements(self, state, dm):
        if not state.onion:
            z = np.zeros((0, 2))
            return np.zeros((0, 1)), z, z
        pts = [dm(j) for _, j, _ in state.onion] + [dm(t) for _, _, t in state.onion]
        lo, hi = _box(pts, 3.0)
        sig = np.concatenate([np.concatenate([j, t], axis=1) for _, j, t in state.onion], axis=1)
        offs = np.tile([o for o, _, _ in state.onion], (sig.shape[0], 1))
        return np.concatenate([sig, offs], axis=1), lo, hi

    def draw(self, painter, dm, mask):
        s = self.ctx.state
        far = max((abs(o) for o, _, _ in s.onion), default=1)
        idx = np.flatnonzero(mask)
        for off, joints, tips in s.onion:
            alpha = 50 + 140 * (1.0 - (abs(off) - 1) / far)
            color = faded(style.ONION_BEFORE if off < 0 else style.ONION_AFTER, alpha)
            for a, b in zip(dm(joints[idx]), dm(tips[idx])):
                thick_line(painter, a, b, 2.0, color)


class LabelLayer(Layer):
    """All text over the rig, laid out together so no two labels overlap: target
    names with their space, residual distances, jitter values, space names. Other
    layers contribute :class:`Label` objects through ``labels()``; ``layout`` places
    them on screen (the view calls it whenever the state or the view changes) and
    ``placed`` keeps the result."""

    def __init__(self, ctx, z, sources):
        super().__init__(ctx, z)
        self.sources = sources  # callables returning lists of Label
        self.placed: list = []
        self.text = TextCache(label_font())
        self._dm_key = None
        self._obstacles = None  # (K, 4) device boxes the last layout placed around

    def layout(self, dm: DeviceMap, keep: bool = False, bounds=None) -> dict:
        """Place the labels of the current state; returns the previous layout (key ->
        Label) for the view's damage.

        keep: leave in place every label whose text and anchor did not move and that
        no moved handle or joint now covers; a label whose anchor moved (the dragged
        target's, its chain's) moves along with it, keeping its spot beside the
        anchor, while that spot stays free and on screen. Only the others are placed
        afresh around them (placing costs more than the rest of a drag's layout).
        Otherwise (zoom, selection, overlays) lay everything out afresh.
        bounds: the visible area (x0, y0, x1, y1) in device pixels, where labels go.
        """
        before = {lb.key: lb for lb in self.placed}
        s = self.ctx.state
        labels = [lb for source in self.sources for lb in source()] if s is not None else []
        labels.sort(key=lambda lb: lb.priority)
        if labels:
            anchors = dm(np.array([lb.anchor for lb in labels], dtype=float))
            for lb, a in zip(labels, anchors.tolist()):
                lb.anchor_dev = a
        obstacles = []
        if s is not None:
            for pts, r in ((s.handle, style.HANDLE_RADIUS_PX + 2), (s.joints, 6), (s.tips, 5), (s.elbow, 7)):
                if len(pts):
                    d = dm(pts)
                    obstacles.append(np.concatenate([d - r, d + r], axis=1))
        obstacles = np.concatenate(obstacles) if obstacles else np.zeros((0, 4))
        kept, prev = [], self._obstacles
        if keep and self._dm_key == dm.key():
            moved, old_rects = [], []
            for lb in labels:
                old = before.get(lb.key)
                if old is None or old.rect is None or old.text != lb.text:
                    continue
                dx, dy = lb.anchor_dev[0] - old.anchor_dev[0], lb.anchor_dev[1] - old.anchor_dev[1]
                if abs(dx) < 0.05 and abs(dy) < 0.05:
                    lb.rect = old.rect
                else:
                    lb.rect = old.rect.translated(dx, dy)
                    moved.append(len(kept))
                kept.append(lb)
                old_rects.append((old.rect.left(), old.rect.top(), old.rect.right(), old.rect.bottom()))
            if kept:
                r = np.array([(lb.rect.left(), lb.rect.top(), lb.rect.right(), lb.rect.bottom()) for lb in kept])
                hit = overlaps(r, obstacles)
                if prev is not None and prev.shape == obstacles.shape:
                    # Only what newly covers a label moves it: in a crowd a label may
                    # have been placed over an obstacle, and it stays there.
                    hit &= ~overlaps(np.array(old_rects), prev)
                covered = hit.any(axis=1)
                if moved:  # a moved label must not land on another, nor leave the view
                    m = r[moved]
                    hits = overlaps(m, r)
                    hits[np.arange(len(moved)), moved] = False
                    covered[moved] |= hits.any(axis=1)
                    if bounds is not None:
                        covered[moved] |= ((m[:, 0] < bounds[0]) | (m[:, 1] < bounds[1])
                                           | (m[:, 2] > bounds[2]) | (m[:, 3] > bounds[3]))
                kept = [lb for lb, c in zip(kept, covered) if not c]
        kept_ids = {id(lb) for lb in kept}
        rects = [(lb.rect.left(), lb.rect.top(), lb.rect.right(), lb.rect.bottom()) for lb in kept]
        placer = LabelPlacer(self.text, np.concatenate([obstacles, np.array(rects).reshape(-1, 4)]),
                             bounds=bounds)
        todo = [lb for lb in labels if id(lb) not in kept_ids]
        placer.place_all(todo, np.array([lb.anchor_dev for lb in todo], dtype=float).reshape(-1, 2))
        self.placed = labels
        self._dm_key = dm.key()
        self._obstacles = obstacles
        return before

    def label_damage(self, before: dict) -> np.ndarray:
        """Boxes of labels that appeared, vanished, moved or changed text."""
        now = {lb.key: lb for lb in self.placed}
        boxes = []
        for key in set(before) | set(now):
            a, b = before.get(key), now.get(key)
            if a is not None and b is not None and a.signature() == b.signature():
                continue
            rects = [lb.rect for lb in (a, b) if lb is not None and lb.rect is not None]
            if rects:  # one box around where it was and where it is
                boxes.append((min(r.left() for r in rects), min(r.top() for r in rects),
                              max(r.right() for r in rects), max(r.bottom() for r in rects)))
        return np.array(boxes).reshape(-1, 4)

    def cached_elements(self, state, dm):
        return self.elements(state, dm)  # follows the layout, not the state

    def elements(self, state, dm):
        if not self.placed:
            z = np.zeros((0, 2))
            return np.zeros((0, 1)), z, z
        r = np.array([(lb.rect.left(), lb.rect.top(), lb.rect.right(), lb.rect.bottom()) for lb in self.placed])
        return np.zeros((len(r), 1)), r[:, :2], r[:, 2:]

    def draw(self, painter, dm, mask):
        for k in np.flatnonzero(mask):
            lb = self.placed[k]
            draw_label(painter, self.text, lb, lb.rect)


_unit_arcs: dict = {}


def arc_directions_many(matrices, lo, hi) -> np.ndarray:
    """Unit device directions (G, K, 2) along the arc from angle ``lo`` to ``hi`` (local
    radians, through each of the (G, 2, 2) local->device ``matrices``), every 7.5
    degrees or closer."""
    key = (lo, hi)
    unit = _unit_arcs.get(key)
    if unit is None:
        t = np.linspace(lo, hi, max(4, int(abs(hi - lo) / (np.pi / 24)) + 2))
        unit = np.stack([np.cos(t), np.sin(t)])
        if len(_unit_arcs) > 256:
            _unit_arcs.clear()
        _unit_arcs[key] = unit
    d = np.einsum("gij,jk->gki", matrices, unit)
    d /= np.maximum(np.sqrt(d[..., 0] ** 2 + d[..., 1] ** 2), 1e-12)[..., None]
    return d
