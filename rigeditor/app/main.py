"""Start the editor: ``run(argv) -> int``.

    rigeditor                        the arm example
    rigeditor PROJECT                open a project file (or an example by name: arm,
                                     walk, door, tail, dressed_arm, dressed_walk, when
                                     no such file exists)
    rigeditor --frame N ...          start on frame N
    rigeditor --select KIND:NAME     start with an item selected (chain:arm); an unknown
                                     item is an error naming those that exist (exit 2)
    rigeditor --mode setup|animate   start in this mode
    rigeditor --screenshot OUT.png [PROJECT] [--frame N]
                                     open the window, wait for its first full paint,
                                     save the window's image and exit (works offscreen)

On Linux without DISPLAY or WAYLAND_DISPLAY (and no display-free QT_QPA_PLATFORM such
as offscreen), the editor says so in one line and exits 2 before Qt loads.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from rigeditor.core.memory import tune_allocator
from rigeditor.resource_files import resource


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rigeditor", description="A 2D rigging editor whose IK tells the truth.")
    p.add_argument("project", nargs="?", help="project file to open (or an example: see rigeditor examples)")
    p.add_argument("--frame", type=int, help="start on this frame (within the timeline)")
    p.add_argument("--select", action="append", default=[], metavar="KIND:NAME",
                   help="select an item (bone, chain, target, space or slot), e.g. chain:arm")
    p.add_argument("--mode", choices=("setup", "animate"), help="start in this mode (default animate)")
    p.add_argument("--screenshot", metavar="OUT.png", help="save the window's image and exit")
    p.add_argument("--size", default="1440x900", metavar="WxH", help="window size for --screenshot")
    return p


def _load(spec: str | None, notes: list | None = None):
    """(project, path or None, its pictures' folder or None) for the command line's
    PROJECT (a file, or an example by name: opened unsaved, its pictures read from the
    packaged example); raises with a message. ``notes``: receives what converting an
    older file changed."""
    from rigeditor.examples.files import example_name, resolve_project
    from rigeditor.examples.rigs import arm

    if spec is None:
        return arm(), None, None
    project, images = resolve_project(spec, notes)
    return project, (None if example_name(spec) else Path(spec)), images


_DISPLAY_PLATFORMS = ("", "xcb", "wayland", "wayland-egl")
"""Values of QT_QPA_PLATFORM (the first of a ';' list) that need a display server."""


def _display_found() -> bool:
    """False on Linux when Qt would need a display server and none is announced: checked
    before Qt loads, because Qt's own failure is an abort with a plugin message."""
    if not sys.platform.startswith("linux"):
        return True
    platform = os.environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if platform not in _DISPLAY_PLATFORMS:  # offscreen, minimal, vnc, eglfs...: no server needed
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def parse_selection(items, project) -> list[tuple[str, str]]:
    """``--select KIND:NAME`` arguments as (kind, name) items of ``project``; ValueError
    naming what exists for an unknown kind or name."""
    from rigeditor.edits.names import SELECTABLE, names_of  # no Qt: before the display check

    selection = []
    for item in items:
        kind, sep, name = item.partition(":")
        if not sep or kind not in SELECTABLE:
            raise ValueError(f"--select {item}: expected KIND:NAME with KIND one of {', '.join(SELECTABLE)}")
        names = names_of(project, kind)
        if name not in names:
            raise ValueError(f"--select {item}: no {kind} named {name!r} in {project.name} "
                             f"({kind}s: {', '.join(names) or 'none'})")
        selection.append((kind, name))
    return selection


def run(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    tune_allocator()
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if not _display_found():
        if not args.screenshot:
            print("rigeditor: no display found (neither DISPLAY nor WAYLAND_DISPLAY is set); for a "
                  "picture without one use --screenshot OUT.png, or set QT_QPA_PLATFORM=offscreen",
                  file=sys.stderr)
            return 2
        os.environ["QT_QPA_PLATFORM"] = "offscreen"

    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0]])
    app.setOrganizationName("RigEditor")
    app.setApplicationName("RigEditor")
    from PySide6.QtGui import QGuiApplication, QIcon, QPixmap

    QGuiApplication.setDesktopFileName("rigeditor")  # matches packaging/rigeditor.desktop
    icon = QPixmap()
    icon.loadFromData(resource("icons", "rigeditor.png").read_bytes())
    app.setWindowIcon(QIcon(icon))
    app.setStyle("Fusion")
    from rigeditor.app import style

    app.setPalette(style.dark_palette())

    from rigeditor.app import guard
    from rigeditor.app.dialogs import Dialogs
    from rigeditor.app.document import Document
    from rigeditor.app.files import describe, file_errors
    from rigeditor.app.main_window import MainWindow
    from rigeditor.examples.rigs import arm

    guard.install()  # from here on, no exception reaches Qt unreported
    dialogs = Dialogs()
    error, notes = None, []
    try:
        project, path, images = _load(args.project, notes)
    except file_errors() as exc:
        if args.screenshot:
            print(f"rigeditor: cannot open {describe(exc, args.project)}", file=sys.stderr)
            return 2
        project, path, images, error = arm(), None, None, describe(exc, args.project)

    try:
        selection = parse_selection(args.select, project)
    except ValueError as exc:
        print(f"rigeditor: {exc}", file=sys.stderr)
        return 2
    if args.frame is not None and error is None:  # the rule of every command's frames
        from rigeditor.model.evaluation.ranges import outside_timeline

        problem = outside_timeline(project.timeline, args.frame, args.frame, "--frame", args.frame)
        if problem:
            print(f"rigeditor: {args.project or 'arm'}: {problem}", file=sys.stderr)
            return 2
    try:
        doc = Document(project, path, images=images)
    except Exception as exc:  # noqa: BLE001 - a project that cannot be evaluated opens nothing
        if args.screenshot:
            print(f"rigeditor: cannot open {args.project}: the project cannot be evaluated: {exc}", file=sys.stderr)
            return 2
        doc, error = Document(arm()), f"{args.project}: the project cannot be evaluated: {exc}"
    if args.frame is not None:
        doc.set_frame(args.frame)
    if selection:
        doc.select(selection)
    if args.mode:
        doc.set_mode(args.mode)

    if args.screenshot:
        return _screenshot(app, doc, args)

    window = MainWindow(doc, dialogs=dialogs)
    window.show()
    from PySide6.QtCore import QTimer

    from rigeditor.app import collector

    collector.follow(doc, lambda fn: QTimer.singleShot(0, fn))
    if error:
        dialogs.error(window, "Cannot open project", error)
    elif notes and path is not None:
        from rigeditor.io.project_file import older_version

        window.files.tell_conversion(path, notes, older_version(path))
    window.files.offer_recovery()
    window.files.begin_session()
    try:
        return app.exec()
    finally:
        window.files.end_session()


def _screenshot(app, doc, args) -> int:
    import tempfile

    from PySide6.QtCore import QSettings
    from PySide6.QtTest import QTest

    from rigeditor.app.main_window import MainWindow

    with tempfile.TemporaryDirectory() as tmp:
        # Keep away from the user's settings and data: a fixed, default layout.
        settings = QSettings(str(Path(tmp) / "settings.ini"), QSettings.IniFormat)
        window = MainWindow(doc, settings=settings, data_dir=Path(tmp), restore_layout=False)
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
        except ValueError:
            w, h = 1440, 900
        window.resize(w, h)
        window.show()
        QTest.qWaitForWindowExposed(window, 5000)
        # Let layouts settle, deferred paints and the views' first fit run.
        for _ in range(5):
            app.processEvents()
            QTest.qWait(60)
        image = window.grab()
        ok = image.save(str(args.screenshot))
        window.setWindowModified(False)
        doc.undo_stack.setClean()
        window.close()
        window.deleteLater()
        app.processEvents()
    if not ok:
        print(f"rigeditor: could not write {args.screenshot}", file=sys.stderr)
        return 1
    return 0
