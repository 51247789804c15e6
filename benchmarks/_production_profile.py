"""Where a mouse move and a scrub frame spend the UI thread's time, by direct timers
(``time.thread_time``: CPU of this thread, so the range worker's share is not counted)
around the functions that matter: the edit (Document.apply), the evaluations, the scene's
refresh, each scene layer's paint_exposed, the mesh drawing and rasteriser, skinning,
the seam reduction. Nested timers overlap (apply includes its evaluation)."""
from __future__ import annotations

import threading
import time
from collections import defaultdict

SPOTS = (
    ("Document.apply", "rigeditor.app.document", "Document.apply"),
    ("evaluate (document)", "rigeditor.app.document", "evaluate"),
    ("validation (apply)", "rigeditor.app.document", "validation_problems"),
    ("SceneView.refresh", "rigeditor.app.scene.view", "SceneView.refresh"),
    ("scene gather", "rigeditor.app.scene.view", "gather"),
    ("SceneView.paintEvent", "rigeditor.app.scene.view", "SceneView.paintEvent"),
    ("draw_mesh", "rigeditor.app.art_paint", "draw_mesh"),
    ("draw_raster", "rigeditor.app.art_paint", "draw_raster"),
    ("raster: fill (kernel)", "rigeditor.app.mesh_raster", "_fill"),
    ("raster: blit", "rigeditor.app.mesh_raster", "_blit"),
    ("ArtLayer.elements", "rigeditor.app.scene.art_layer", "ArtLayer.elements"),
    ("skinning: deform", "rigeditor.core.skinning", "deform"),
    ("skinning: skin_rows", "rigeditor.model.evaluation.skin_bake", "skin_rows"),
    ("seam: worst_area_ratio", "rigeditor.core.skinning", "worst_area_ratio"),
    ("seam: area_ratios", "rigeditor.core.skinning", "area_ratios"),
    ("curves: SeamCurve.update", "rigeditor.app.seam_curve", "SeamCurve.update"),
)


class Timers:
    """Accumulated thread CPU (s) and calls per label, while installed."""

    def __init__(self):
        self.seconds, self.calls = defaultdict(float), defaultdict(int)
        self._undo = []

    def wrap(self, label, owner, name):
        fn = getattr(owner, name)
        seconds, calls = self.seconds, self.calls
        ui = threading.get_ident()

        def timed(*args, **kwargs):
            if threading.get_ident() != ui:  # the range worker's share is not the UI's
                return fn(*args, **kwargs)
            t0 = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                seconds[label] += time.thread_time() - t0
                calls[label] += 1

        setattr(owner, name, timed)
        self._undo.append((owner, name, fn))

    def install(self, window):
        import importlib

        for label, module, qualname in SPOTS:
            owner = importlib.import_module(module)
            *path, name = qualname.split(".")
            for part in path:
                owner = getattr(owner, part)
            self.wrap(label, owner, name)
        for name, layer in window.scene._layers.items():  # per instance: each layer's own label
            if layer.isVisible():
                for method in ("paint_exposed", "damage"):
                    if name != "labels" or method != "damage":
                        self.wrap(f"layer {name}.{method}", layer, method)

    def remove(self):
        for owner, name, fn in reversed(self._undo):
            if isinstance(owner, type) or not hasattr(type(owner), name):
                setattr(owner, name, fn)
            else:
                delattr(owner, name)  # an instance's wrapper: the class's method again
        self._undo.clear()

    def rows(self, per, count):
        """(label, ms per ``per``, calls per ``per``) sorted by time."""
        return [(k, f"{v / count * 1e3:.2f}", f"{self.calls[k] / count:.1f}")
                for k, v in sorted(self.seconds.items(), key=lambda kv: -kv[1])]


def _moves(app, window, doc, target, moves):
    """Mouse moves of a drag; the press, and the release with what follows it, outside."""
    from bench_ui import handle_point, mouse_circle
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    vp, centre = handle_point(window, target)
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, centre)
    app.processEvents()
    mouse_circle(app, vp, centre, 4, 14.0)
    return lambda: mouse_circle(app, vp, centre, moves, 14.0), lambda: _release(app, doc, vp, centre)


def _release(app, doc, vp, centre):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, centre)
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 1.0 or doc.range_pending:
        app.processEvents()
        time.sleep(0.001)


def profile_rows(app, window, doc, target, scrub, moves=40, frames=120, frame=500):
    """Timers over ``moves`` mouse moves of a drag and ``frames`` scrub frames
    (``scrub``: bench_production.scrub); per step: (what, thread CPU ms, rows)."""
    import numpy as np

    out = []
    drag, release = _moves(app, window, doc, target, moves)
    for what, run, count in (("move", drag, moves), ("release", release, 1),
                             ("scrub frame", lambda: scrub(app, doc, (np.arange(frames) * 7 + frame)
                                                           % len(doc.range_bake)), frames)):
        timers = Timers()
        timers.install(window)
        t0 = time.thread_time()
        try:
            run()
        finally:
            timers.remove()
        total = (time.thread_time() - t0) / count * 1e3
        out.append((what, total, timers.rows(what, count)))
    return out
