"""Production scale through the real window (offscreen): an imported Spine rig, a
50-bone FABRIK tail with limits over 1,000 frames, and an arm of 20,000 skinned triangles.

(a) benchmarks/rigs/raptor_like.json (76 bones, 9 IK constraints with two one-bone
aims, a transform constraint, weighted meshes, three animations; written by
make_raptor_like.py) is imported through ``rigeditor import-spine``'s own function and
opened; (b) the tail is built from model classes here; (c) the arm
(``_production_rigs.skinned_arm``: a two-bone chain and a hand, one picture meshed at
1.3 px and skinned with automatic weights) is written with its PNG and opened. For each: real mouse events
(QTest) drag a target's handle in a circle (median and 95th percentile per move, until
Qt has processed everything the move caused), the time the release's own events take
(gesture end), then until the whole range has landed and the longest the UI thread is
busy at once meanwhile (the range's views re-plotted), and scrubbing (Document.set_frame plus the repaint).
The raptor runs twice, its meshes drawn by the Qt path and by the compiled
rasteriser (app.mesh_raster). Then the iterative solvers alone: FABRIK's and CCD's cost per bone and iteration over
the tail's whole range, beside a compiled loop's (numba, the ``bench`` extra).

Prints each figure beside its yardstick: drag median < 8 ms, scrub >= 60 fps, a
gesture's end <= 16 ms. Arguments: the cases to run (raptor, tail, mesh; default all),
and --profile: where the mesh case's move, release and scrub frame spend the UI
thread's CPU (``_production_profile``).
"""
from __future__ import annotations

import math
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np  # noqa: E402
from _common import table  # noqa: E402
from _production_rigs import skinned_arm  # noqa: E402
from bench_ui import build_window, handle_point, mouse_circle, qt_binding_keeps_none  # noqa: E402

from rigeditor.model import WORLD, Bone, Chain, Project, StepChannel, Target, Timeline, keyed  # noqa: E402
from rigeditor.model import CHARACTER, Space  # noqa: E402

RIG = Path(__file__).resolve().parent / "rigs" / "raptor_like.json"
DRAG_GOAL_MS, SCRUB_GOAL_FPS, END_GOAL_MS = 8.0, 60.0, 16.0


def tail(bones=50, frames=1000, key_every=40) -> Project:
    """A 50-bone tail (tapering, reach 250) solved by FABRIK with +-25 degree limits
    on every joint but the first, its tip keyed every ``key_every`` frames along a
    slow figure of eight inside reach."""
    lengths = np.linspace(7.0, 3.0, bones)
    chain_bones = []
    for i, length in enumerate(lengths):
        parent = None if i == 0 else f"tail_{i - 1}"
        chain_bones.append(Bone(f"tail_{i}", parent, float(length),
                                rest_offset=(0.0, 0.0) if i == 0 else (float(lengths[i - 1]), 0.0)))
    reach = float(lengths.sum())
    path = []
    for f in range(0, frames, key_every):
        t = 2 * math.pi * f / 400.0
        path.append((f, (0.55 * reach + 0.2 * reach * math.cos(t), 0.35 * reach * math.sin(2 * t))))
    limit = math.radians(25.0)
    chain = Chain("tail", tuple(b.name for b in chain_bones), "tail_tip", solver="fabrik",
                  limits=(None,) + ((-limit, limit),) * (bones - 1), tolerance=1e-3, max_iterations=64)
    return Project(name="tail50", timeline=Timeline(30.0, 0, frames - 1), spaces=(Space(CHARACTER),),
                   bones=tuple(chain_bones), targets=(Target("tail_tip", StepChannel(WORLD), keyed(path, "bezier")),),
                   chains=(chain,))


def raptor(folder: Path) -> Project:
    """The raptor-like rig imported as ``rigeditor import-spine`` does, then loaded
    (its pictures, cut from the atlas, beside it: see :func:`raptor_file`)."""
    from rigeditor.io.project_file import load_project

    return load_project(raptor_file(folder))


def raptor_file(folder: Path) -> Path:
    """The imported raptor-like project file in ``folder`` (imported once)."""
    from rigeditor.io.spine.read import import_spine

    out = folder / "raptor.rigproj"
    if not out.exists():
        import_spine(RIG, out)
    return out


def mouse_drag(app, window, doc, target, moves, radius_px=14.0):
    """Per mouse move on the viewport, dragging ``target``'s handle in a circle: ms
    from the move event until Qt processed everything it caused. Returns (times, ms
    from the release until the release's own events were processed, ms until the
    whole range landed)."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    vp, centre = handle_point(window, target)
    undo = doc.undo_stack.count()
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, centre)
    app.processEvents()
    times, _ = mouse_circle(app, vp, centre, moves, radius_px)
    t0 = time.perf_counter()
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, centre)
    app.processEvents()
    release = (time.perf_counter() - t0) * 1e3
    longest = 0.0  # the longest the UI thread was busy at once after that, until idle
    settle = None
    while time.perf_counter() - t0 < 90:
        s = time.perf_counter()
        app.processEvents()
        longest = max(longest, time.perf_counter() - s)
        if getattr(doc, "range_pending", False):
            landed = time.perf_counter()
        elif settle is None:
            settle = time.perf_counter()
        elif time.perf_counter() - settle > 0.3:  # the views' throttled re-plots, behind it
            break
        time.sleep(0.001)
    landed = ((settle or time.perf_counter()) - t0) * 1e3
    if doc.undo_stack.count() != undo + 1:
        raise RuntimeError(f"the drag did not move {target}")
    return np.array(times[3:]) * 1e3, release, landed, longest * 1e3


def scrub(app, doc, frames):
    times = []
    app.processEvents()
    for f in frames:
        t0 = time.perf_counter()
        doc.set_frame(int(f))
        app.processEvents()
        times.append(time.perf_counter() - t0)
    return np.array(times) * 1e3


def window_rows(app, name, project, target, frame, data_dir, moves=60, scrubs=200, path=None, profile=False,
                fit=None):
    """``path``: the project's file, so its pictures are found and drawn (without it
    every slot is drawn as a "missing picture" placeholder). ``profile``: then print
    where a move, the release and a scrub frame spend the UI thread's time. ``fit``:
    fit(window, doc) after framing all (a zoom onto what is to be big)."""
    from rigeditor.app.document import Document

    doc = Document(project, path)
    window, kind = build_window(doc, data_dir)
    window.resize(1440, 900)
    window.show()
    doc.set_frame(frame)
    app.processEvents()
    if kind != "MainWindow":
        raise RuntimeError("this benchmark drives the main window")
    if hasattr(window.scene, "frame_all"):
        window.scene.frame_all()  # the whole rig in view, as after opening it
    app.processEvents()
    if fit is not None:
        fit(window, doc)
        app.processEvents()
    from rigeditor.app import collector

    collector.follow(doc, lambda fn: fn())  # as the editor does once a project is shown
    from rigeditor.app import art_paint

    missing, art_paint._placeholder = art_paint._placeholder, _refuse_placeholder
    try:
        mouse_drag(app, window, doc, target, 10)  # warm up (first paints, caches)
    finally:
        art_paint._placeholder = missing
    drag, release, landed, longest = mouse_drag(app, window, doc, target, moves)
    frames = (np.arange(scrubs) * 7 + frame) % len(doc.range_bake)
    sc = scrub(app, doc, frames)
    fps = 1e3 / np.median(sc)
    rows = [(name, "mouse drag -> repaint", f"{np.median(drag):.1f} ms", f"{np.percentile(drag, 95):.1f} ms",
             f"median < {DRAG_GOAL_MS:g} ms", "yes" if np.median(drag) < DRAG_GOAL_MS else "NO"),
            (name, "gesture end (release)", f"{release:.1f} ms", "", f"<= {END_GOAL_MS:g} ms",
             "yes" if release <= END_GOAL_MS else "NO"),
            (name, "whole range landed", f"{landed:.0f} ms", "", "(behind the UI)", ""),
            (name, "then the UI thread's longest step", f"{longest:.1f} ms", "", f"<= {END_GOAL_MS:g} ms",
             "yes" if longest <= END_GOAL_MS else "NO"),
            (name, "scrub one frame", f"{np.median(sc):.1f} ms", f"{np.percentile(sc, 95):.1f} ms",
             f">= {SCRUB_GOAL_FPS:g} fps ({fps:.0f} fps)", "yes" if fps >= SCRUB_GOAL_FPS else "NO")]
    if profile:
        from _production_profile import profile_rows

        for what, total, found in profile_rows(app, window, doc, target, scrub, frame=frame):
            print(f"{name}: a {what}, {total:.2f} ms of UI-thread CPU; timed inside it:")
            table(found, ("function", f"ms a {what}", f"calls a {what}"))
    doc.undo_stack.setClean()
    window.close()
    window.deleteLater()
    app.processEvents()
    return rows


def _refuse_placeholder(painter, corners, to_device, path):
    raise RuntimeError(f"picture {path!r} not found: the benchmark would time its placeholder")


def solver_rows():
    """FABRIK and CCD per bone and iteration (rigeditor.core.chains) on the tail's
    lengths, limits and targets, warm-started frame to frame as the evaluation does,
    beside the compiled yardstick (_chain_yardstick: textbook loops under numba)."""
    from _chain_yardstick import compiled, per_bone_iteration

    from rigeditor.core.chains import solve_ccd, solve_fabrik
    from rigeditor.model import evaluate

    project = tail()
    chain = project.chains[0]
    lengths = np.array([b.length for b in project.bones])
    limits = np.array([chain.limit(i) or (-1e6, 1e6) for i in range(len(lengths))])
    targets = np.ascontiguousarray(evaluate(project).chains["tail"].target_world, dtype=float)
    yardsticks, note = compiled()
    rows = []
    for k, (name, solve) in enumerate((("FABRIK", solve_fabrik), ("CCD", solve_ccd))):
        best, sol = math.inf, None
        for _ in range(3):
            t0 = time.perf_counter()
            sol = solve(lengths, np.zeros(2), targets, limits=limits, tolerance=chain.tolerance,
                        max_iterations=chain.max_iterations)
            best = min(best, time.perf_counter() - t0)
        ours = best / (int(sol.iterations.sum()) * len(lengths)) * 1e9
        row = [name, f"{best * 1e3:.0f} ms", f"{sol.iterations.mean():.1f}", f"{ours:.0f} ns"]
        if yardsticks is not None:
            ns, its = per_bone_iteration(yardsticks[k], lengths, targets, np.zeros(len(lengths)), limits,
                                         chain.tolerance, chain.max_iterations)
            row += [f"{ns:.0f} ns ({its:.1f} it/frame)", f"{ours / ns:.2f}x", "yes" if ours <= 1.5 * ns else "NO"]
        else:
            row += ["-", "-", "-"]
        rows.append(row)
    return rows, note


def main():
    from PySide6.QtWidgets import QApplication

    from rigeditor.core.memory import tune_allocator

    tune_allocator()
    from rigeditor.core.chains import compiled_loop

    t0 = time.perf_counter()
    loop = compiled_loop(wait=True)  # as the editor has it a moment after opening a rig with a chain
    print(f"chain frame loop: {'compiled (numba)' if loop else 'Python (numba not installed)'}, "
          f"ready in {time.perf_counter() - t0:.2f} s")
    from rigeditor.app import mesh_raster

    t0 = time.perf_counter()
    raster = mesh_raster.compiled_raster(wait=True)  # as the editor has it a moment after opening
    print(f"mesh rasteriser: {'compiled (numba)' if raster else 'Qt path (numba not installed)'}, "
          f"ready in {time.perf_counter() - t0:.2f} s")
    app = QApplication.instance() or QApplication([sys.argv[0]])
    if not qt_binding_keeps_none():
        print("This PySide6 loses a reference to None on every call that returns an object; "
              "install one without that bug and run again.")
        return 2
    profile = "--profile" in sys.argv
    cases = set(sys.argv[1:]) - {"--profile"} or {"raptor", "tail", "mesh"}
    rows = []
    with tempfile.TemporaryDirectory() as data_dir:
        if "raptor" in cases:
            rows += raptor_rows(app, data_dir)
        if "tail" in cases:
            rows += window_rows(app, "50-bone FABRIK tail, 1,000 frames", tail(), "tail_tip", 500, data_dir)
        if "mesh" in cases:
            rows += mesh_rows(app, data_dir, profile)
    print("Production scale through the window (MainWindow, 1440x900, offscreen):")
    table(rows, ("project", "step", "median", "p95", "goal", "met"))
    print()
    if "tail" not in cases:
        return 0
    print("The iterative solvers alone (the tail's 1,000 frames, warm-started frame to frame):")
    rows, note = solver_rows()
    table(rows, ("", "all frames", "it/frame", "ours per bone-iteration", "compiled yardstick",
                 "ours / compiled", "<= 1.5x"))
    print(f"compiled yardstick: {note}")
    return 0


def mesh_rows(app, data_dir, profile=False):
    """Case (c): the skinned arm, written with its picture and opened from its file."""
    from rigeditor.io.project_file import load_project

    t0 = time.perf_counter()
    path, triangles = skinned_arm(Path(data_dir))
    print(f"arm: {triangles:,} triangles meshed and weighted in {time.perf_counter() - t0:.1f} s")
    return window_rows(app, f"arm, {triangles:,} skinned triangles", load_project(path), "hand_ik", 500,
                       data_dir, path=path, profile=profile, fit=fit_mesh)


def fit_mesh(window, doc, fill=0.8):
    """Zoom the scene (as the wheel and a pan would) until the mesh at the current frame
    fills ``fill`` of the viewport's width or height, centred; prints its device box."""
    from PySide6.QtCore import QPointF

    from rigeditor.app.scene.layers import DeviceMap

    view = window.scene
    mesh = doc.bake.art.meshes[0].vertices(doc.row)
    box = DeviceMap(view.viewportTransform())(mesh)
    lo, hi = box.min(axis=0), box.max(axis=0)
    size = view.viewport().size()
    view.zoom_by(fill * min(size.width() / (hi - lo)[0], size.height() / (hi - lo)[1]),
                 QPointF(*((lo + hi) / 2).tolist()))
    box = DeviceMap(view.viewportTransform())(mesh)
    lo, hi = box.min(axis=0), box.max(axis=0)
    view.pan_by(*(np.array([size.width(), size.height()]) / 2 - (lo + hi) / 2).tolist())
    box = DeviceMap(view.viewportTransform())(mesh)
    print(f"the mesh in view: {box.min(axis=0).round().tolist()} - {box.max(axis=0).round().tolist()} px of "
          f"a {size.width()}x{size.height()} viewport, {view.px_per_unit:.2f} px a model unit")


def raptor_rows(app, data_dir):
    """Case (a), its meshes drawn by Qt (the fallback) and by the compiled rasteriser."""
    from rigeditor.app import mesh_raster

    rows = []
    rap = raptor(Path(data_dir))
    feet = [t.name for t in rap.targets if "foot" in t.name]
    name = f"raptor-like ({len(rap.bones)} bones, {len(rap.chains)} chains)"
    # Its meshes drawn by Qt (the fallback) and by the compiled rasteriser, side by side.
    for path_name, min_triangles in (("Qt path", 10**12), ("compiled raster", mesh_raster.MIN_TRIANGLES)):
        saved, mesh_raster.MIN_TRIANGLES = mesh_raster.MIN_TRIANGLES, min_triangles
        try:
            rows += window_rows(app, f"{name}, meshes: {path_name}", rap, feet[0], 12, data_dir,
                                path=raptor_file(Path(data_dir)))
        finally:
            mesh_raster.MIN_TRIANGLES = saved
    return rows


if __name__ == "__main__":
    sys.exit(main())
