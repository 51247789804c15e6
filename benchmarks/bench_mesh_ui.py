"""What meshes cost: drawing a deformed, textured mesh on one QImage (draw_mesh, the
compiled rasteriser when loaded; per-triangle clip path + image; the same picture as
one rigid image for scale), a 20,000-triangle mesh at 1x and 2x, rest pose and bent,
by the compiled rasteriser beside the Qt path (rigid parts batched, triangle by
triangle, and the loop it replaced: a QPolygonF built per triangle), scrubbing the
skinned arm against the rigid arm in the scene view, and the evaluation with and
without the mesh part.
Everything alternated in one run, so all see the same machine load.
"""
from __future__ import annotations

import os
import sys
import time

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from _common import best_time, table  # noqa: E402
from bench_ui import measure_scrub  # noqa: E402


def _clipped(painter, image, uvs, triangles, device):
    """The alternative: per triangle, clip to it and draw the image through its affine."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QPainterPath, QPolygonF, QTransform

    from rigeditor.app.art_paint import triangle_affines

    src = (uvs * [image.width(), image.height()])[triangles]
    dst = device[triangles]
    m = triangle_affines(src, dst)
    for k in range(len(triangles)):
        (m11, m12), (m21, m22), (dx, dy) = m[k].tolist()
        path = QPainterPath()
        path.addPolygon(QPolygonF([QPointF(*p) for p in dst[k].tolist()]))
        painter.setClipPath(path)
        painter.setTransform(QTransform(m11, m12, m21, m22, dx, dy))
        painter.drawImage(QPointF(0, 0), image)
        painter.resetTransform()
    painter.setClipping(False)


def _previous_loop(painter, image, uvs, triangles, device):
    """draw_mesh's Qt path before its loop was trimmed: the same Qt calls, a QPolygonF a triangle."""
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtGui import QBrush, QPen, QPolygonF, QTransform

    from rigeditor.app.art_paint import triangle_affines

    src = (uvs * [image.width(), image.height()])[triangles]
    dst = device[triangles]
    m = triangle_affines(src, dst)
    brush = QBrush(image)
    pen = QPen(brush, 1.0)
    for k in np.flatnonzero(np.isfinite(m[:, 0, 0])):
        (m11, m12), (m21, m22), (dx, dy) = m[k].tolist()
        brush.setTransform(QTransform(m11, m12, m21, m22, dx, dy))
        pen.setBrush(brush)
        painter.setBrush(brush)
        painter.setPen(pen)
        (x0, y0), (x1, y1), (x2, y2) = dst[k].tolist()
        painter.drawPolygon(QPolygonF([QPointF(x0, y0), QPointF(x1, y1), QPointF(x2, y2)]))
    painter.setPen(Qt.PenStyle.NoPen)


def _bent(vertices, weights, bones, turns=(0.2, 0.9, 0.5)):
    """Linear blend skinning of ``vertices`` by a chain of bones, each turned by its
    angle (radians) about its head, children following their parent."""
    rot, shift, out = np.eye(2), np.zeros(2), np.zeros_like(vertices)
    for j, angle in enumerate(turns):
        c, s = np.cos(angle), np.sin(angle)
        r = np.array([[c, -s], [s, c]])
        head = bones[j][0]
        rot, shift = rot @ r, rot @ (head - r @ head) + shift
        out += weights[:, j:j + 1] * (vertices @ rot.T + shift)
    return out


def dense_mesh_cost(image, target, paint):
    """ms a frame drawing a ~20,000-triangle mesh of the example arm at 1x and 2x zoom:
    in the rest pose (every triangle moves alike: the case of a mesh without weights)
    and bent with automatic weights, by the compiled rasteriser (app.mesh_raster: one
    buffer, one drawImage) beside the Qt path (rigid parts batched, app.mesh_batches;
    triangle by triangle; the loop draw_mesh once was), alternated in one run."""
    from rigeditor.app import mesh_batches, mesh_raster
    from rigeditor.app.art_paint import draw_mesh
    from rigeditor.core.mesh import mesh_from_alpha
    from rigeditor.core.mesh.shapes import ExampleArm
    from rigeditor.core.weights import automatic_weights

    t0 = time.perf_counter()
    ready = mesh_raster.compiled_raster(wait=True) is not None
    print(f"compiled rasteriser: {'loaded' if ready else 'missing (numba not installed)'} "
          f"in {time.perf_counter() - t0:.2f} s")
    alpha = ExampleArm.alpha()
    m = mesh_from_alpha(alpha, tolerance=0.5, spacing=1.3)
    h, w = alpha.shape
    uvs = m.vertices / [w, h]
    weights = automatic_weights(m.vertices, m.triangles, ExampleArm.bones, blend_width=40.0)
    rigid = float(np.mean(np.all(weights.max(axis=1)[m.triangles] == 1.0, axis=1)))
    bent = _bent(m.vertices, weights, ExampleArm.bones)
    n = len(m.triangles)

    def once(fn, raster=True, batched=True):
        def run():
            from PySide6.QtGui import QPainter

            saved = mesh_batches.MIN_GROUP, mesh_raster.MIN_TRIANGLES
            mesh_batches.MIN_GROUP = saved[0] if batched else 10**12
            mesh_raster.MIN_TRIANGLES = saved[1] if raster else 10**12
            p = QPainter(target)
            try:
                fn(p)
            finally:
                p.end()
                mesh_batches.MIN_GROUP, mesh_raster.MIN_TRIANGLES = saved
        return run

    rows = []
    for zoom in (1.0, 2.0):
        poses = {"rest pose": m.vertices * zoom + [20.0, 20.0],
                 "bent, automatic weights": bent * zoom + [200.0, 100.0] if zoom > 1 else bent + [300.0, 250.0]}
        for name, device in poses.items():
            runs = {"compiled raster": once(lambda p: draw_mesh(p, image, uvs, m.triangles, device)),
                    "Qt path, rigid parts batched": once(lambda p: draw_mesh(p, image, uvs, m.triangles, device),
                                                         raster=False),
                    "Qt path, triangle by triangle": once(lambda p: draw_mesh(p, image, uvs, m.triangles, device),
                                                          raster=False, batched=False)}
            if zoom > 1:
                runs["the loop before (a QPolygonF a triangle)"] = once(
                    lambda p: _previous_loop(p, image, uvs, m.triangles, device), raster=False, batched=False)
            times = {k: [] for k in runs}
            for _ in range(3):
                for k, fn in runs.items():
                    times[k].append(best_time(fn, repeat=2))
            best = {k: min(v) for k, v in times.items()}
            for k, t in best.items():
                rows.append((f"{zoom:g}x, {name}: {k}", f"{t * 1e3:.1f}", f"{t / n * 1e6:.2f}",
                             f"{best['Qt path, rigid parts batched'] / t:.1f}x"))
    table(rows, (f"{n:,} triangles, 900x650 QImage", "ms a frame", "us a triangle", "vs Qt batched"))
    print(f"{rigid:.0%} of the triangles follow one bone with weight 1 under automatic weights; "
          f"60 fps needs <= {16.7e3 / n:.2f} us a triangle. Not measured here: an OpenGL viewport "
          "(no OpenGL context offscreen on this machine)\n")


def main() -> None:
    from PySide6.QtGui import QImage, QPainter, QTransform
    from PySide6.QtWidgets import QApplication

    from rigeditor.app.art_paint import draw_mesh
    from rigeditor.app.document import Document
    from rigeditor.app.scene import SceneView
    from rigeditor.io import load_project
    from rigeditor.examples.art_files import example_project
    from rigeditor.model import evaluate

    app = QApplication.instance() or QApplication([sys.argv[0]])
    path = example_project("skinned_arm")
    project = load_project(path)
    bake = evaluate(project)
    pose = bake.art.meshes[0]
    m = pose.mesh
    image = QImage(str(path.parent / m.path)).convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
    target = QImage(900, 650, QImage.Format.Format_ARGB32_Premultiplied)
    device = pose.vertices(24) * [2.0, -2.0] + [300.0, 500.0]

    def paint(fn):
        def run():
            p = QPainter(target)
            for _ in range(20):
                fn(p)
            p.end()
        return run

    brush = paint(lambda p: draw_mesh(p, image, m.uvs, m.triangles, device))
    clip = paint(lambda p: _clipped(p, image, m.uvs, m.triangles, device))
    rigid = paint(lambda p: (p.setTransform(QTransform(2, 0, 0, 2, 0, 0)), p.drawImage(0, 0, image)))
    times = {k: [] for k in ("brush", "clip", "rigid")}
    for _ in range(3):
        for k, fn in (("brush", brush), ("clip", clip), ("rigid", rigid)):
            times[k].append(best_time(fn, repeat=3) / 20 * 1000)
    t = {k: min(v) for k, v in times.items()}
    table([(f"{len(m.triangles)} triangles, draw_mesh (ours)", f"{t['brush']:.3f}"),
           (f"{len(m.triangles)} triangles, clip path + image", f"{t['clip']:.3f}"),
           ("one rigid image of the same picture", f"{t['rigid']:.3f}")],
          ("drawing the arm at 2x, 900x650 QImage", "ms"))
    print(f"clip path / draw_mesh: {t['clip'] / t['brush']:.1f}x; draw_mesh / rigid image: {t['brush'] / t['rigid']:.1f}x\n")
    dense_mesh_cost(image, target, paint)

    rigid_path = example_project("rigid_arm")
    docs = {"skinned_arm": Document(project, path), "rigid_arm": Document(load_project(rigid_path), rigid_path)}
    views = {}
    for name, doc in docs.items():
        v = views[name] = SceneView(doc)
        v.resize(900, 650)
        v.show()
    app.processEvents()
    scrub = {name: [] for name in docs}
    for _ in range(3):
        for name, doc in docs.items():
            frames = (np.arange(120) * 7) % len(doc.bake)
            scrub[name].append(measure_scrub(doc, frames, app.processEvents))
    table([(name, f"{np.median(np.concatenate(v)):.2f}", f"{np.percentile(np.concatenate(v), 95):.2f}")
           for name, v in scrub.items()], ("scrub, scene view 900x650", "median ms", "p95 ms"))

    no_mesh = project.with_bone("forearm")  # same project; the mesh part timed apart below
    ev = best_time(lambda: evaluate(no_mesh), repeat=7) * 1000
    t0 = time.perf_counter()
    for _ in range(20):
        b = evaluate(project)
        b.art.meshes[0].worst  # noqa: B018 - the whole-range reduction, as the curves ask for it
    with_mesh = (time.perf_counter() - t0) / 20 * 1000
    print(f"\nevaluate the skinned arm (49 frames): {with_mesh:.2f} ms with its worst-ratio curve; "
          f"the rig part alone {ev:.2f} ms (art included, curve not asked)")
    for v in views.values():
        v.close()


if __name__ == "__main__":
    main()
