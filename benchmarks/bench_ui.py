"""The editor's interactive budget: a target drag and scrubbing, measured through the
whole window (offscreen).

Drag: real mouse events on the scene's viewport (a press on the target's handle,
then moves around it), from each move event through the edit, the evaluation of the
frame under the hand, every view's signal handlers and Qt's repaint of what changed.
The whole range is evaluated behind it on the worker; the time from a drag's last
move until that range has landed is printed too. Scrub: Document.set_frame plus the
repaint, frame after frame.

Two projects: the walk example (48 frames) and a synthetic rig of 20 two-bone chains
over a 10,000-frame timeline, built from model classes here. Prints median and 95th
percentile per case beside the goals: drag median under 8 ms (walk under 5 ms),
scrubbing at 60 frames per second or better.
"""
from __future__ import annotations

import math
import os
import sys
import tempfile
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
from _common import table  # noqa: E402

from rigeditor.model import (  # noqa: E402
    CHARACTER, WORLD, Bone, Chain, Project, Space, StepChannel, Target, Timeline, keyed,
)
from rigeditor.model import Bake  # noqa: E402

try:  # an editor with the range worker evaluates short ranges whole on every move
    from rigeditor.app.document import FRAME_FIRST_MIN_FRAMES  # noqa: E402
except ImportError:
    FRAME_FIRST_MIN_FRAMES = 0
from rigeditor.examples.rigs import walk  # noqa: E402

DRAG_GOAL_MS = 8.0
WALK_DRAG_GOAL_MS = 5.0
SCRUB_GOAL_FPS = 60.0


def rig20(n_chains=20, frames=10_000, key_every=50) -> Project:
    """20 two-bone arms side by side, each target keyed every ``key_every`` frames
    along a wandering path that goes in and out of reach."""
    rng = np.random.default_rng(7)
    bones, targets, chains = [], [], []
    key_frames = np.arange(0, frames, key_every)
    for i in range(n_chains):
        x0 = 300.0 * i
        bones += [Bone(f"upper_{i}", None, 100.0, rest_offset=(x0, 0.0)),
                  Bone(f"lower_{i}", f"upper_{i}", 80.0, rest_offset=(100.0, 0.0))]
        angle = rng.uniform(0, 2 * math.pi, key_frames.size).cumsum() * 0.2
        radius = rng.uniform(40.0, 200.0, key_frames.size)
        path = [(int(f), (x0 + r * math.cos(a), r * math.sin(a))) for f, a, r in zip(key_frames, angle, radius)]
        targets.append(Target(f"hand_{i}", StepChannel(WORLD), keyed(path, "bezier")))
        chains.append(Chain(f"arm_{i}", (f"upper_{i}", f"lower_{i}"), f"hand_{i}", softness=keyed([(0, 0.04)])))
    return Project(name="rig20", timeline=Timeline(24.0, 0, frames - 1), spaces=(Space(CHARACTER),),
                   bones=tuple(bones), targets=tuple(targets), chains=tuple(chains))


def qt_binding_keeps_none() -> bool:
    """Some PySide6 builds drop a reference to None on every call that returns an
    object; on Python < 3.12 the editor then aborts after a few seconds of use."""
    from PySide6.QtWidgets import QGraphicsRectItem

    item, before = QGraphicsRectItem(), sys.getrefcount(None)
    for _ in range(100):
        item.scene()
    return sys.getrefcount(None) - before > -50


def build_window(doc, data_dir):
    """The real main window when there is one; else the scene and our views in docks."""
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtWidgets import QDockWidget, QMainWindow

    try:
        from rigeditor.app.main_window import MainWindow
    except ImportError:
        MainWindow = None
    if MainWindow is not None:
        settings = QSettings(os.path.join(data_dir, "settings.ini"), QSettings.IniFormat)
        window = MainWindow(doc, settings=settings, data_dir=data_dir, autosave_ms=10**9, restore_layout=False)
        return window, "MainWindow"
    from rigeditor.app.curves import CurvesWidget
    from rigeditor.app.timeline import TimelineWidget

    window = QMainWindow()
    try:
        from rigeditor.app.scene import SceneView
        window.setCentralWidget(SceneView(doc))
        kind = "SceneView + timeline + curves"
    except ImportError:
        kind = "timeline + curves"
    for widget, area in ((TimelineWidget(doc), Qt.BottomDockWidgetArea), (CurvesWidget(doc), Qt.RightDockWidgetArea)):
        dock = QDockWidget(type(widget).__name__, window)
        dock.setWidget(widget)
        window.addDockWidget(area, dock)
    return window, kind


def _painter(app, window, full):
    """Process events (every slot, then Qt repaints what was marked dirty); with
    ``full``, also force a synchronous repaint of the whole window (an upper bound)."""
    if window is None:
        return app.processEvents
    if full:
        return lambda: (app.processEvents(), window.repaint())
    return app.processEvents


def measure_drag(app, doc, target, moves, paint):
    """Per pointer move on ``target``: ms from the move to the end of ``paint()``."""
    chain = doc.project.chain_for_target(target)[0].name
    doc.select([("target", target)])
    handle = doc.bake.chains[chain].target_world[doc.row]
    try:
        from rigeditor.app.scene.gestures import TargetDrag
        drag = TargetDrag(doc, target, handle, handle)
        move, finish = drag.move, drag.finish
    except ImportError:  # the same command the scene's drag pushes
        from rigeditor.edits.posing import set_target_key
        start, frame, key = doc.project, doc.frame, ("drag", doc.begin_gesture())

        def move(world):
            doc.apply("Move target", set_target_key(start, target, frame, world),
                      touched={f"target:{target}"}, merge_key=key)
        finish = doc.end_gesture
    paint()
    times = []
    for i in range(moves):
        angle = 2 * math.pi * i / moves
        world = handle + 12.0 * np.array([math.cos(angle), math.sin(angle)])
        t0 = time.perf_counter()
        move(world)
        paint()
        times.append(time.perf_counter() - t0)
    finish()
    return np.array(times[3:]) * 1e3  # the first moves warm caches up


def handle_point(window, target):
    """The scene viewport and the point (viewport pixels) of ``target``'s handle."""
    from PySide6.QtCore import QPoint, QPointF

    view = window.scene
    state = view.ctx.state
    h = state.handle[state.targets.index(target)]
    p = view.viewportTransform().map(QPointF(float(h[0]), float(h[1])))
    return view.viewport(), QPoint(round(p.x()), round(p.y()))


def mouse_circle(app, vp, centre, moves, radius_px):
    """Real mouse moves on ``vp`` in a circle around ``centre`` (the button already
    down): seconds per move, from the move event until Qt processed everything it
    caused, and the time the last one ended (perf_counter)."""
    from PySide6.QtCore import QPoint
    from PySide6.QtTest import QTest

    times = []
    t0 = time.perf_counter()
    for i in range(moves):
        angle = 2 * math.pi * i / moves
        to = centre + QPoint(round(radius_px * math.cos(angle)), round(radius_px * math.sin(angle)))
        t0 = time.perf_counter()
        QTest.mouseMove(vp, to)
        app.processEvents()
        times.append(time.perf_counter() - t0)
    return times, t0


def measure_mouse_drag(app, window, doc, target, moves, radius_px=14.0):
    """Per mouse move on the scene's viewport, dragging ``target``'s handle in a circle:
    ms from the move event until Qt has processed everything it caused. Returns
    (times, ms until the whole range landed after the last move)."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    vp, centre = handle_point(window, target)
    undo = doc.undo_stack.count()
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, centre)
    app.processEvents()
    times, t0 = mouse_circle(app, vp, centre, moves, radius_px)
    while getattr(doc, "range_pending", False) and time.perf_counter() - t0 < 10:
        app.processEvents()
    landed = (time.perf_counter() - t0) * 1e3
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, centre)
    app.processEvents()
    if doc.undo_stack.count() != undo + 1 or doc.selection != (("target", target),):
        raise RuntimeError(f"the drag did not move {target} (selection {doc.selection})")
    return np.array(times[3:]) * 1e3, landed


def measure_scrub(doc, frames, paint):
    times = []
    paint()
    for f in frames:
        t0 = time.perf_counter()
        doc.set_frame(int(f))
        paint()
        times.append(time.perf_counter() - t0)
    return np.array(times) * 1e3


def measure_worker_choice(project, target, frame, steps=150):
    """Thread or process for the whole range? The UI thread's step during a drag (the
    frame under the hand) timed alone and while a thread evaluates the range without
    pause; and what a process would pay to receive the previous Bake (pickling)."""
    import pickle
    import threading

    from rigeditor.model import evaluate
    from rigeditor.edits.posing import set_target_key

    full = evaluate(project)
    row = full.rows(frame, frame + 1)
    edited = set_target_key(project, target, frame, tuple(full.chains[project.chain_for_target(target)[0].name]
                                                          .target_declared[frame] + 5.0))

    def ui_times():
        out = []
        for _ in range(steps):
            t0 = time.perf_counter()
            evaluate(edited, row.frames, previous=row, changed={f"target:{target}"})
            out.append(time.perf_counter() - t0)
            time.sleep(0.002)  # the UI thread idles between mouse moves
        return np.array(out) * 1e3

    alone = ui_times()
    stop = threading.Event()

    def worker():
        while not stop.is_set():
            evaluate(edited, previous=full, changed={f"target:{target}"})

    thread = threading.Thread(target=worker)
    thread.start()
    try:
        beside = ui_times()
    finally:
        stop.set()
        thread.join()
    t0 = time.perf_counter()
    blob = pickle.dumps(full, protocol=5)
    t1 = time.perf_counter()
    pickle.loads(blob)
    shipped = (time.perf_counter() - t0) * 1e3
    return alone, beside, len(blob) / 1e6, (t1 - t0) * 1e3, shipped


def _row(project, step, ms, goal="", met=""):
    return (project, step, f"{np.median(ms):.1f} ms", f"{np.percentile(ms, 95):.1f} ms", goal, met)


def _goal_rows(name, drag, scrub, drag_goal=DRAG_GOAL_MS):
    fps = 1e3 / np.median(scrub)
    return [_row(name, "mouse drag -> repaint", drag, f"median < {drag_goal:g} ms",
                 "yes" if np.median(drag) < drag_goal else "NO"),
            _row(name, "scrub one frame", scrub, f">= {SCRUB_GOAL_FPS:g} fps ({fps:.0f} fps)",
                 "yes" if fps >= SCRUB_GOAL_FPS else "NO")]


def main():
    from PySide6.QtWidgets import QApplication

    from rigeditor.app.curves import CurvesWidget
    from rigeditor.app.document import Document
    from rigeditor.app.timeline import TimelineWidget

    app = QApplication.instance() or QApplication([sys.argv[0]])
    if not qt_binding_keeps_none():
        import PySide6
        print(f"PySide6 {PySide6.__version__} on Python {sys.version.split()[0]} loses a reference to None on "
              "every call that returns an object: the editor would abort within seconds. Install a "
              "PySide6 without that bug (6.11.3 is fine) and run again.")
        return 2

    cases = (("walk, 48 frames", walk, "foot_l", 30, WALK_DRAG_GOAL_MS),
             ("20 chains, 10,000 frames", rig20, "hand_7", 5000, DRAG_GOAL_MS))
    moves, scrubs = 120, 300
    rows, parts, kind = [], [], ""
    with tempfile.TemporaryDirectory() as data_dir:
        for name, make, target, frame, goal in cases:
            project = make()
            doc = Document(project)
            window, kind = build_window(doc, data_dir)
            window.resize(1440, 900)
            window.show()
            doc.set_frame(frame)
            frames = (np.arange(scrubs) * 7 + frame) % len(doc.bake)
            dirty, full = _painter(app, window, False), _painter(app, window, True)
            app.processEvents()
            if kind == "MainWindow":
                measure_mouse_drag(app, window, doc, target, 20)  # warm up (first paints, caches)
                drag, landed = measure_mouse_drag(app, window, doc, target, moves)
                rows += _goal_rows(name, drag, measure_scrub(doc, frames, dirty), goal)
                rows.append((name, "whole range landed after the last move", f"{landed:.1f} ms", "", "", ""))
                if hasattr(doc, "frame_first") and len(doc.range_bake) >= FRAME_FIRST_MIN_FRAMES:
                    doc.frame_first = False  # the same drag, the whole range on every move
                    whole, _ = measure_mouse_drag(app, window, doc, target, moves)
                    doc.frame_first = True
                    rows.append(_row(name, "mouse drag, whole range per move", whole,
                                     f"frame first: {np.median(whole) / np.median(drag):.1f}x faster"))
            else:
                rows += _goal_rows(name, measure_drag(app, doc, target, moves, dirty),
                                   measure_scrub(doc, frames, dirty), goal)
            rows.append(_row(name, "drag -> full repaint", measure_drag(app, doc, target, moves // 2, full)))
            rows.append(_row(name, "scrub, full repaint", measure_scrub(doc, frames[:scrubs // 2], full)))
            doc.undo_stack.setClean()  # closing must not stop to ask about saving
            window.close()
            window.deleteLater()
            app.processEvents()

            # Where the drag goes: the evaluation alone, then each of our views alone.
            doc = Document(project)
            doc.set_frame(frame)
            parts.append(_row(name, "drag: evaluate, no view", measure_drag(app, doc, target, moves, app.processEvents)))
            for cls, size in ((TimelineWidget, (1440, 260)), (CurvesWidget, (700, 520))):
                doc = Document(project)
                doc.set_frame(frame)
                widget = cls(doc)
                widget.resize(*size)
                widget.show()
                paint = _painter(app, widget, False)
                parts.append(_row(name, f"drag: {cls.__name__} alone", measure_drag(app, doc, target, moves, paint)))
                parts.append(_row(name, f"scrub: {cls.__name__} alone", measure_scrub(doc, frames, paint)))
                widget.close()
                widget.deleteLater()
                app.processEvents()

    print(f"Interactive budget through the window ({kind}, 1440x900, offscreen): a mouse drag on a")
    print("target's handle or a frame change, until Qt has repainted what changed.")
    table(rows, ("project", "step", "median", "p95", "goal", "met"))
    print()
    print("Parts (each view alone includes the evaluation):")
    table([r[:4] for r in parts], ("project", "step", "median", "p95"))
    print()
    if not hasattr(Bake, "rows"):  # an editor without the range worker
        return 0
    alone, beside, mb, dumps, shipped = measure_worker_choice(rig20(), "hand_7", 5000)
    print("The whole range behind a drag: thread or process? (20 chains x 10,000 frames)")
    table([("frame under the hand, UI thread alone", f"{np.median(alone):.2f} ms", f"{np.percentile(alone, 95):.2f} ms"),
           ("... while a thread evaluates the range", f"{np.median(beside):.2f} ms", f"{np.percentile(beside, 95):.2f} ms"),
           ("a process: previous Bake pickled", f"{mb:.0f} MB", f"{dumps:.0f} ms to pickle, {shipped:.0f} ms both ways")],
          ("", "median", "p95"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
