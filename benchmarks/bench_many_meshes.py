"""A character showing many meshes at once, through the real window (offscreen).

benchmarks/rigs/mix_like.json (written by make_mix_like.py: 68 Spine bones, five IK
constraints, 60 slots, 45 of them weighted meshes with deform keys, dressed from eight
skins combined as Spine's "mix and match" combines them) is imported through
``rigeditor import-spine``'s own function, every skin it combines shown, and opened in
the main window. Three runs, each: the import's CPU time, then (as
bench_production.window_rows) the drag of an arm's IK target and scrubbing, now and
"mesh by mesh" (the same window with this round's three cuts switched off: each mesh
posed alone, each drawn in its own buffer, each damage box reduced alone), side by side.

``--profile``: one more scrub with direct CPU timers (time.thread_time) around the
evaluation, the scene's refresh, each layer's painting and the mesh drawing's parts,
printed per frame and per mesh.

Prints each figure beside its yardstick: scrub >= 60 fps, drag median < 8 ms.
"""
from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
from _common import table  # noqa: E402
from bench_production import scrub, window_rows  # noqa: E402
from bench_ui import build_window, qt_binding_keeps_none  # noqa: E402
from make_mix_like import SHOWN  # noqa: E402  (the skins the character wears together)

RIG = Path(__file__).resolve().parent / "rigs" / "mix_like.json"


def imported(folder: Path, k: int = 0):
    """(project file, its project with the combined skins shown, import CPU s)."""
    from rigeditor.edits import set_active_skins
    from rigeditor.io.project_file import load_project, save_project
    from rigeditor.io.spine.read import import_spine

    out = folder / f"mix{k}.rigproj"
    t0 = time.process_time()
    import_spine(RIG, out)
    seconds = time.process_time() - t0
    project = set_active_skins(load_project(out), SHOWN)
    save_project(project, out)
    return out, project, seconds


class _PerMesh:
    """Each shown mesh posed alone (MeshPose.vertices), as ArtBake.row did before
    mesh_frame."""

    def __init__(self, art):
        self.art = art

    def at(self, i):
        return {m.column: m.vertices(i) for m in self.art.meshes if m.shown[i]}


def _boxes_one_by_one(meshes, dm, d, corners):
    for s, v in meshes.items():
        box = dm(np.array([v.min(axis=0), v.max(axis=0)]))
        d[s] = [box[0], box[1], box[0], box[1]]
        corners[s] = [*v.min(axis=0), *v.max(axis=0), *v.sum(axis=0), *(v * v).sum(axis=0)]


@contextlib.contextmanager
def mesh_by_mesh():
    """The window as before this round's cuts (the same pixels, see tests/app/test_mesh_run.py)."""
    from rigeditor.app import art_paint
    from rigeditor.app.scene import art_layer
    from rigeditor.model.evaluation import art_bake

    saved = art_bake.ArtBake._mesh_frame, art_paint.draw_run, art_layer._mesh_elements
    art_bake.ArtBake._mesh_frame = lambda self, i: _PerMesh(self)
    art_paint.draw_run = lambda *a, **k: False
    art_layer._mesh_elements = _boxes_one_by_one
    try:
        yield
    finally:
        art_bake.ArtBake._mesh_frame, art_paint.draw_run, art_layer._mesh_elements = saved


class Timers:
    """CPU seconds (time.thread_time) and calls per label, around patched callables."""

    def __init__(self):
        self.total, self.calls, self._undo = {}, {}, []

    def wrap(self, fn, label):
        clock, total, calls = time.thread_time, self.total, self.calls
        total.setdefault(label, 0.0)
        calls.setdefault(label, 0)

        def timed(*args, **kwargs):
            t0 = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                total[label] += clock() - t0
                calls[label] += 1
        return timed

    def patch(self, owner, name, label=None):
        old = getattr(owner, name)
        setattr(owner, name, self.wrap(old, label or name))
        self._undo.append((owner, name, old))

    def undo(self):
        for owner, name, old in reversed(self._undo):
            setattr(owner, name, old)
        self._undo.clear()

    def reset(self):
        for k in self.total:
            self.total[k], self.calls[k] = 0.0, 0


def profile(app, project, path, data_dir, frames=120):
    """Per scrub frame: CPU ms of each timed part, calls, and µs per call."""
    from rigeditor.app import art_paint, mesh_raster, mesh_run
    from rigeditor.app.document import Document
    from rigeditor.app.scene import view as scene_view
    from rigeditor.model.evaluation import art_bake, deform_bake, skin_bake

    doc = Document(project, path)
    window, _ = build_window(doc, data_dir)
    window.resize(1440, 900)
    window.show()
    app.processEvents()
    window.scene.frame_all()
    app.processEvents()
    t = Timers()
    t.patch(type(doc), "set_frame", "Document.set_frame (evaluation + refresh)")
    t.patch(scene_view.SceneView, "refresh", ". SceneView.refresh")
    t.patch(art_bake.ArtBake, "row", ". . ArtBake.row (skinning + deform)")
    t.patch(skin_bake.MeshPose, "vertices", ". . . MeshPose.vertices")
    t.patch(deform_bake.DeformSampler, "moved", ". . . . DeformSampler.moved")
    t.patch(scene_view, "gather", ". . gather (the frame's state)")
    for name, layer in window.scene._layers.items():
        layer.paint_exposed = t.wrap(layer.paint_exposed, f"paint {name}")
        layer.damage = t.wrap(layer.damage, f". . damage {name}")
    t.patch(art_paint, "_run_entry", ". art_paint._run_entry (a mesh's colour, picture, device points)")
    t.patch(art_paint, "draw_run", ". mesh_run.draw_run (consecutive meshes in one buffer)")
    t.patch(mesh_run, "_copy_back", ". . _copy_back (drawImage)")
    t.patch(art_paint, "_picture", ". art_paint._picture (a region picture, or a mesh alone)")
    t.patch(art_paint, "draw_mesh", ". . draw_mesh")
    t.patch(art_paint, "draw_raster", ". . . draw_raster")
    t.patch(mesh_raster.BUFFERS, "lookup", ". . . . BUFFERS.lookup")
    t.patch(mesh_raster, "_fill", ". . . . _fill (kernel)")
    t.patch(mesh_raster, "_blit", ". . . . _blit (drawImage)")
    try:
        picks = (np.arange(frames) * 7) % len(doc.range_bake)
        scrub(app, doc, picks[:20])  # warm
        t.reset()
        c0, w0 = time.thread_time(), time.perf_counter()
        scrub(app, doc, picks)
        cpu, wall = time.thread_time() - c0, time.perf_counter() - w0
    finally:
        t.undo()
        doc.undo_stack.setClean()
        window.close()
        window.deleteLater()
        app.processEvents()
    rows = [("whole scrub frame (CPU / wall)", f"{cpu / frames * 1e3:.2f} / {wall / frames * 1e3:.2f}", "", "")]
    for label, total in t.total.items():
        n = t.calls[label]
        rows.append((label, f"{total / frames * 1e3:.2f}", f"{n / frames:.1f}", f"{total / max(n, 1) * 1e6:.0f}"))
    return rows


def main():
    from PySide6.QtWidgets import QApplication

    from rigeditor.app import mesh_raster
    from rigeditor.core.chains import compiled_loop
    from rigeditor.core.memory import tune_allocator

    tune_allocator()
    compiled_loop(wait=True)
    t0 = time.perf_counter()
    raster = mesh_raster.compiled_raster(wait=True)
    print(f"mesh rasteriser: {'compiled (numba)' if raster else 'Qt path (numba not installed)'}, "
          f"ready in {time.perf_counter() - t0:.2f} s")
    app = QApplication.instance() or QApplication([sys.argv[0]])
    if not qt_binding_keeps_none():
        print("This PySide6 loses a reference to None on every call that returns an object.")
        return 2
    rows = []
    with tempfile.TemporaryDirectory() as data_dir:
        folder = Path(data_dir)
        for run in range(0 if "--profile-only" in sys.argv else 3):
            path, project, seconds = imported(folder, run)
            meshes = sum(1 for s in project.art.slots for a in s.attachments
                         if getattr(a, "triangles", None) is not None and a.skin in SHOWN)
            name = f"mix-like run {run + 1} ({len(project.art.slots)} slots, {meshes} meshes shown)"
            rows.append((name, "import-spine (CPU)", f"{seconds * 1e3:.0f} ms", "", "", ""))
            rows += window_rows(app, name, project, "arm-l-target", 12, data_dir, path=path)
            with mesh_by_mesh():
                rows += [r for r in window_rows(app, f"{name}, mesh by mesh", project, "arm-l-target", 12, data_dir,
                                                path=path) if r[1] in ("mouse drag -> repaint", "scrub one frame")]
        print("Many meshes at once through the window (MainWindow, 1440x900, offscreen):")
        if rows:
            table(rows, ("project", "step", "median", "p95", "goal", "met"))
        if "--profile" in sys.argv or "--profile-only" in sys.argv:
            if not rows:
                path, project, _ = imported(folder)
            print()
            print("One scrub frame, CPU by part (thread_time; '. ' rows are inside the row above them):")
            for label, before in (("now", False), ("mesh by mesh", True)):
                print(f"({label})")
                with mesh_by_mesh() if before else contextlib.nullcontext():
                    table(profile(app, project, path, data_dir), ("part", "ms/frame", "calls/frame", "µs/call"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
