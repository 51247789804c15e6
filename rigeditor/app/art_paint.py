"""Drawing the artwork of one Bake row with QPainter (the scene and ``rigeditor render``).

Every picture is drawn through one transform, image pixels -> device pixels, built
from the Bake's ``image_world`` of that slot and frame and the view's world -> device
map, with smooth (bilinear) sampling: full quality at any zoom. A picture whose file
is missing or unreadable draws a dashed placeholder over its rectangle reading
"missing: hand.png". Images are read once per (file, modification time) and tinted
copies once per 8-bit colour; each slot draws with its colour and blend mode
(``app.blend``).

A mesh attachment is drawn whole by the compiled rasteriser (``mesh_raster``: one
buffer, one drawImage, sampled as Qt samples the Qt path below) once it is loaded.
Without it (numba missing or still loading) it is drawn by Qt triangle by triangle:
each triangle is filled with the picture as a texture brush whose transform maps the
triangle's UVs (image pixels) onto its deformed corners (device pixels), one affine
per triangle solved for all at once; the triangles that share one affine (a rigid
part) are one fill (``mesh_batches``). A brush fill needs no clip path; a hairline pen
of the same brush covers the seams between neighbours, which Qt's fill would otherwise
leave one pixel apart (the rasteriser's fill rule leaves none).

Boxes, clipping polygons and points draw as outlines over all the pictures
(``shape_paint``: guides, a game draws none of them); the slots a
clipping polygon masks (``model.evaluation.clipping``) draw through its polygon as the
painter's clip path.
"""
from __future__ import annotations

import functools
import time

from pathlib import Path

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QImageReader, QPainter, QPen, QPolygonF, QTransform
from shiboken6 import VoidPtr

from rigeditor.app.mesh_batches import draw_groups, far_shift, rigid_groups, shifted_far
from rigeditor.app import mesh_raster
from rigeditor.app.mesh_raster import draw_raster
from rigeditor.app.mesh_run import draw_run
from rigeditor.app.blend import composition, quantised, slot_paint, tinted
from rigeditor.app.shape_paint import clip_to, draw_shape
from rigeditor.io.art.images import size_problem
from rigeditor.model.data.shapes import is_shape
from rigeditor.model.evaluation.clipping import clipped_by

PLACEHOLDER = QColor("#ff7a7a")
DIM_OPACITY = 0.35
"""Opacity of the art while "Dim Artwork" is on (bones and overlays read over it)."""


COLORED_BYTES = 64 << 20
"""Bytes of coloured copies an ImageCache keeps, the least recently drawn dropped first:
a colour keyed over time makes a copy a frame, and a count alone let a scrub keep
256 of them (a 2048 x 2048 picture is 16 MB a copy). Re-tinting one costs 0.25-0.5 ms a
512 x 512 picture compiled (benchmarks/bench_tint.py), so a scrub back over a fade
longer than the bound pays that again rather than keep it all."""
COLORED_COPIES = 256
"""Most coloured copies kept, however small."""
STAMP_SECONDS = 0.5
"""How long a picture's modification time is trusted before the file is asked again:
a scene paint asks for every picture, and a ``stat`` each (about 10 us) was 0.2 ms of a
20-picture rig's scrub frame; a picture edited in a paint program shows within this."""


class ImageCache:
    """QImages by file, re-read when the file changes; None for missing/unreadable.
    The pictures as read are kept apart from their coloured copies: a colour keyed over
    time makes a new copy each frame, never a new read of the file."""

    def __init__(self, clock=time.monotonic):
        self._images: dict = {}  # (path, stamp) -> the picture, premultiplied (or None)
        self._colored: dict = {}  # (path, stamp, colour) -> a coloured copy, least recently drawn first
        self._colored_bytes = 0
        self._stamps: dict = {}  # path -> (stamp or None for unreadable, when it was asked)
        self._clock = clock

    def forget_stamps(self) -> None:
        """Ask every picture's file again at its next paint (another project opened: an
        import may have just rewritten its pictures in place)."""
        self._stamps.clear()

    def _stamp(self, path: Path):
        """The file's modification time (ns), None if it cannot be read; asked again once
        it is older than STAMP_SECONDS."""
        now = self._clock()
        known = self._stamps.get(path)
        if known is not None and now - known[1] < STAMP_SECONDS:
            return known[0]
        try:
            stamp = path.stat().st_mtime_ns
        except OSError:
            stamp = None
        if len(self._stamps) > 4096:
            self._stamps.clear()
        self._stamps[path] = (stamp, now)
        return stamp

    def get(self, path: Path | None, tint=(1.0, 1.0, 1.0, 1.0), dark=None, alpha: float = 1.0) -> QImage | None:
        """The picture at ``path`` with light RGB ``tint`` and dark RGB ``dark`` (None: no
        two-colour tint) applied and ``alpha`` premultiplied in (``app.blend.tinted``),
        cached per 8-bit colour."""
        if path is None:
            return None
        stamp = self._stamp(path)
        if stamp is None:
            return None
        base_key = (str(path), stamp)
        if base_key not in self._images:
            if len(self._images) > 512:
                self._images.clear()
            image = _read(path)
            self._images[base_key] = (None if image is None or image.isNull()
                                      else image.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied))
        image = self._images[base_key]
        light, shade, a = quantised(tint[:3]), quantised(dark), quantised((alpha,))
        if image is None or (light == (255, 255, 255) and shade is None and a == (255,)):
            return image
        key = base_key + (light, shade, a)
        colored = self._colored.pop(key, None)
        if colored is None:
            colored = tinted(image, tint, dark, a[0] / 255.0)
            self._colored_bytes += colored.sizeInBytes()
        self._colored[key] = colored  # the most recently drawn, last
        while len(self._colored) > 1 and (self._colored_bytes > COLORED_BYTES or len(self._colored) > COLORED_COPIES):
            self._colored_bytes -= self._colored.pop(next(iter(self._colored))).sizeInBytes()
        return colored


def _read(path: Path) -> QImage | None:
    """The picture, or None (a placeholder) when it is beyond what RigEditor reads:
    checked from the header, so Qt never prints "QImageIOHandler: Rejecting image"."""
    reader = QImageReader(str(path))
    size = reader.size()
    if size.isValid() and size_problem(size.width(), size.height()):
        return None
    reader.setAllocationLimit(1024)  # MB: MAX_PIXELS as ARGB32 is 256 MB, Qt's default limit
    return reader.read()


def draw_art(painter: QPainter, project, row, to_device, base: Path | None,
             cache: ImageCache, *, dim: bool = False, slots=None, clip=None) -> None:
    """Draw the pictures of one Bake row (``row`` = bake.art.row(i)) back to front.

    to_device: (K, 2) world points -> (K, 2) device points (affine). base: the project
    file's folder (None: unsaved, every picture is a placeholder). slots: columns to
    draw (default all); clip: the device rectangles being repainted ((R, 4) x0, y0, x1,
    y1; default everywhere): a mesh's triangles elsewhere are not drawn (a drag
    repaints a few rectangles). The painter's transform is left as it was.
    """
    painter.save()
    try:
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        # Bilinear sampling smooths the pictures; their own transparent margins smooth
        # their edges, so the (costly) antialiased image edges are not needed.
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        clips = clipped_by(project.art, row) if getattr(row, "shapes", None) else {}
        shapes = []  # outlines go over every picture, as guides (they draw nothing in a game)
        run = []  # consecutive meshes not drawn yet: [(image, triangles, texture, device, shift, uvs)]
        for s in row.drawn():
            if slots is not None and s not in slots:
                continue
            slot = project.art.slots[s]
            a = slot.attachments[int(row.attachment[s])]
            if is_shape(a):  # a box, clipping polygon or point: its outline, never clipped
                shapes.append((a, row.shapes[s]))
                continue
            if s not in clips:
                entry = _run_entry(a, row, s, to_device, base, cache, dim)
                if entry is not None:  # a mesh the next ones may share a buffer with (mesh_run)
                    run.append(entry)
                    continue
                _flush(painter, run, clip)
                _picture(painter, a, row, s, to_device, base, cache, dim, clip)
                continue
            _flush(painter, run, clip)
            painter.save()
            try:
                clip_to(painter, row.shapes[clips[s]].vertices(row.index), to_device)
                _picture(painter, a, row, s, to_device, base, cache, dim, clip)
            finally:
                painter.restore()
        _flush(painter, run, clip)
        for a, pose in shapes:
            draw_shape(painter, a, pose, row.index, to_device, dim)
        painter.setOpacity(1.0)
        painter.setCompositionMode(composition("normal"))
    finally:
        painter.restore()


@functools.lru_cache(maxsize=4096)
def picture_file(base, path: str) -> Path:
    """The file of a picture ``path`` ("/"-separated, relative) under the project
    folder ``base`` (remembered: asked for every slot on every frame of a scrub)."""
    return Path(base) / Path(*path.split("/"))


def _picture(painter: QPainter, a, row, s: int, to_device, base, cache: ImageCache, dim: bool, clip=None) -> None:
    """Draw the picture (image or mesh) ``a`` of slot column ``s`` of ``row``, in its
    slot's colour, two-colour tint and blend mode (app.blend)."""
    world = row.image_world[s].tolist()
    shown = getattr(row, "sequence", None)
    path = a.path if a.sequence is None or shown is None else a.sequence.paths[int(shown[s])]  # its frame's picture
    image, blend = _tinted(a, row, s, path, base, cache, dim)
    if image is None:
        _placeholder(painter, row.corners[s], to_device, path)
        return
    painter.setOpacity(1.0)  # the opacity is premultiplied into the picture (app.blend)
    painter.setCompositionMode(composition(blend))
    try:
        mesh = getattr(row, "meshes", {}).get(s)
        if mesh is not None:
            # Seams drawn twice would add up under a mode that is not normal.
            draw_mesh(painter, image, a.uvs, a.triangles, to_device(mesh), seams=blend == "normal", clip=clip)
            return
        painter.setTransform(_image_to_device(world, to_device, a, image))
        painter.drawImage(QPointF(0.0, 0.0), image)
        painter.resetTransform()
    finally:
        painter.setCompositionMode(composition("normal"))


def _tinted(a, row, s: int, path: str, base, cache: ImageCache, dim: bool):
    """(picture ``path`` of slot column ``s`` in its slot's colour, two-colour tint and
    opacity, or None when it cannot be read; the slot's blend mode)."""
    light, dark, blend = slot_paint(row, s, a)  # slot colour x tint, two-colour tint, blend mode
    opacity = light[3] * a.opacity * (DIM_OPACITY if dim else 1.0)
    return cache.get(None if base is None else picture_file(base, path), light, dark, opacity), blend


def _run_entry(a, row, s: int, to_device, base, cache: ImageCache, dim: bool):
    """Slot column ``s``'s mesh as an entry of a run of meshes drawn in one buffer
    (``mesh_run``), or None: not a mesh, not blended normally, no picture, or one the
    rasteriser leaves to Qt (too few triangles, not finite)."""
    mesh = getattr(row, "meshes", {}).get(s)
    if mesh is None or len(a.triangles) < mesh_raster.MIN_TRIANGLES or a.sequence is not None:
        return None
    if base is None:
        return None
    image, blend = _tinted(a, row, s, a.path, base, cache, dim)
    if blend != "normal" or image is None or image.isNull():
        return None
    device = to_device(mesh)
    if not np.all(np.isfinite(device)):
        return None
    texture, shift = _texture_of(a.uvs, image.width(), image.height())
    return image, a.triangles, texture, device, shift, a.uvs


_textures: dict = {}  # (id(uvs), w, h) -> (uvs, texture, shift): a mesh's structure, kept across frames


def _texture_of(uvs, width: int, height: int):
    """(texture corners (V, 2) picture px, the far tile shift (2,)) of UVs on a
    width x height picture, remembered while the UVs are the same object."""
    key = (id(uvs), width, height)
    hit = _textures.get(key)
    if hit is not None and hit[0] is uvs:
        return hit[1], hit[2]
    if len(_textures) > 4096:
        _textures.clear()
    texture = np.ascontiguousarray(np.asarray(uvs) * [width, height], dtype=float)
    texture.flags.writeable = False
    shift = far_shift(width, height)
    _textures[key] = (uvs, texture, shift)
    return texture, shift


def _flush(painter: QPainter, run: list, clip) -> None:
    """Draw the pending ``run`` of meshes (emptied): in one buffer when there are two
    or more and ``mesh_run`` can, else one by one as ``_picture`` draws them."""
    if not run:
        return
    painter.setOpacity(1.0)
    painter.setCompositionMode(composition("normal"))
    if len(run) < 2 or not draw_run(painter, run, clip):
        for image, triangles, _texture, device, _shift, uvs in run:
            draw_mesh(painter, image, uvs, triangles, device, seams=True, clip=clip)
    run.clear()


def triangle_affines(src, dst):
    """(T, 3, 2) M per triangle with [x, y, 1] @ M = the destination of source point
    (x, y): src, dst (T, 3, 2) corners. Degenerate sources give NaN rows. In closed form
    (the edge matrices' inverse by its adjugate): a batched 3 x 3 solve took 15 ms on
    20,000 triangles, a frame's whole budget."""
    src, dst = np.asarray(src, float), np.asarray(dst, float)
    e1, e2 = src[:, 1] - src[:, 0], src[:, 2] - src[:, 0]  # source edges (T, 2)
    f1, f2 = dst[:, 1] - dst[:, 0], dst[:, 2] - dst[:, 0]
    det = e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0]
    ok = np.abs(det) > 1e-9
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), np.nan)
    # Rows of M's linear part: [x, y] @ L = the destination offset; L = E^-1 F with E the
    # source edges as rows, F the destination's.
    out = np.empty(src.shape[:1] + (3, 2))
    out[:, 0] = (e2[:, 1, None] * f1 - e1[:, 1, None] * f2) * inv[:, None]
    out[:, 1] = (e1[:, 0, None] * f2 - e2[:, 0, None] * f1) * inv[:, None]
    out[:, 2] = dst[:, 0] - src[:, 0, 0, None] * out[:, 0] - src[:, 0, 1, None] * out[:, 1]
    return out


def draw_mesh(painter: QPainter, image: QImage, uvs, triangles, device, seams: bool = True, clip=None) -> None:
    """Fill each triangle (T, 3) with ``image``, UVs (V, 2) in [0, 1] (v down) to the
    device points (V, 2), in order, by the compiled rasteriser when it can
    (``mesh_raster``), else by Qt. ``seams`` (Qt's path only): cover the seams with a
    hairline pen (over the neighbour: right for normal blending, a doubled line for
    additive or screen).
    ``clip``: device rectangles ((R, 4) x0, y0, x1, y1) outside which nothing is drawn;
    the triangles drawn one by one that meet none of them are skipped."""
    t = np.asarray(triangles)
    if not len(t) or not np.all(np.isfinite(device)):
        return
    texture = np.asarray(uvs) * [image.width(), image.height()]
    # The whole mesh by the compiled rasteriser when it can (app.mesh_raster): what it
    # leaves (corners past its reach: none on screen) comes back for the Qt path.
    left = draw_raster(painter, image, t, texture, device, far_shift(image.width(), image.height()), clip)
    if left is not None and not left.any():
        return
    src, dst = texture[t], np.asarray(device, float)[t]
    m = triangle_affines(src, dst)
    finite = np.isfinite(m[:, 0, 0])
    groups, ok = rigid_groups(m, finite) if left is None else ([], finite & left)  # rigid parts: one fill each
    if clip is not None:
        ok = ok & meets(dst.min(axis=1), dst.max(axis=1), clip)
    m = shifted_far(m, image.width(), image.height())  # sampling independent of where a span starts
    draw_groups(painter, image, groups, m, t, np.asarray(device, float), seams)
    brush = QBrush(image)
    pen = QPen(brush, 1.0) if seams else QPen(Qt.PenStyle.NoPen)
    # The loop is the cost, most of it Python: one polygon whose three points are written
    # in place through a numpy view (building a QPolygonF of QPointFs costs more than
    # drawing it), rows as lists, bound methods; each triangle is the same five Qt calls.
    poly = QPolygonF()
    poly.resize(3)
    corners = np.frombuffer(VoidPtr(poly.data(), 3 * 2 * 8, True), dtype=np.float64).reshape(3, 2)
    set_transform, pen_brush = brush.setTransform, pen.setBrush
    set_brush, set_pen, polygon = painter.setBrush, painter.setPen, painter.drawPolygon
    if not seams:
        pen_brush = _ignore
    for ((m11, m12), (m21, m22), (dx, dy)), tri in zip(m[ok].tolist(), dst[ok]):
        set_transform(QTransform(m11, m12, m21, m22, dx, dy))
        pen_brush(brush)
        set_brush(brush)
        set_pen(pen)
        corners[:] = tri
        polygon(poly)
    painter.setPen(Qt.PenStyle.NoPen)


CLIP_MARGIN_PX = 2.0
"""Device pixels a triangle's antialiased edge and seam pen may reach past its box."""


def meets(lo, hi, clip) -> np.ndarray:
    """(T,) whether each device box [lo, hi] ((T, 2) each), grown by CLIP_MARGIN_PX,
    touches one of the ``clip`` rectangles ((R, 4) x0, y0, x1, y1)."""
    c = np.asarray(clip, float).reshape(-1, 4)
    lo, hi = lo - CLIP_MARGIN_PX, hi + CLIP_MARGIN_PX
    return ((hi[:, None, 0] >= c[None, :, 0]) & (lo[:, None, 0] <= c[None, :, 2])
            & (hi[:, None, 1] >= c[None, :, 1]) & (lo[:, None, 1] <= c[None, :, 3])).any(axis=1)


def _ignore(_brush) -> None:
    """A pen without a brush: no seams drawn."""


def _image_to_device(world, to_device, a, image: QImage) -> QTransform:
    """Image pixels (u right, v down, from the top-left) -> device pixels."""
    aa, bb, cc, dd, tx, ty = world
    # (As Python floats: the same arithmetic as on numpy scalars, at a fraction of the cost.)
    (ox, oy), (ux, uy), (vx, vy) = to_device(np.array([[tx, ty], [tx + aa, ty + cc], [tx + bb, ty + dd]])).tolist()
    ex0, ex1, ey0, ey1 = ux - ox, uy - oy, vx - ox, vy - oy  # device directions of the image's unit x, y (y up)
    iw, ih = image.width(), image.height()
    kx, ky = a.width / iw, a.height / ih
    # device = o + ex * kx * (u - iw/2) + ey * ky * (ih/2 - v)
    dx = ox - ex0 * kx * iw / 2 + ey0 * ky * ih / 2
    dy = oy - ex1 * kx * iw / 2 + ey1 * ky * ih / 2
    return QTransform(ex0 * kx, ex1 * kx, -ey0 * ky, -ey1 * ky, dx, dy)


def _placeholder(painter: QPainter, corners, to_device, path: str) -> None:
    dev = to_device(np.asarray(corners))
    painter.resetTransform()
    painter.setOpacity(1.0)
    painter.setPen(QPen(PLACEHOLDER, 1.5, Qt.PenStyle.DashLine))
    painter.setBrush(QColor(255, 122, 122, 60))
    # (Not scene.paint.polygon: this module also serves ``rigeditor render``, without the scene.)
    painter.drawPolygon(QPolygonF([QPointF(float(x), float(y)) for x, y in dev]))
    lo, hi = dev.min(axis=0), dev.max(axis=0)
    painter.setFont(QFont("Sans", 9))
    painter.setPen(PLACEHOLDER)
    name = path.rsplit("/", 1)[-1]
    painter.drawText(QRectF(lo[0], lo[1], max(hi[0] - lo[0], 120.0), max(hi[1] - lo[1], 16.0)),
                     int(Qt.AlignmentFlag.AlignCenter), f"missing: {name}")
