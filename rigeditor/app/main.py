"""Start the editor: ``run(argv) -> int``.

    rigeditor                        the arm example
    rigeditor PROJECT                open a project file (or an example by name:
                                     arm, walk, door, when no such file exists)
    rigeditor --frame N ...          start on frame N
    rigeditor --select KIND:NAME     start with an item selected (chain:arm)
    rigeditor --mode setup|animate   start in this mode
    rigeditor --screenshot OUT.png [PROJECT] [--frame N]
                                     open the window, wait for its first full paint,
                                     save the window's image and exit (works offscreen)
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from rigeditor.core.memory import tune_allocator


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rigeditor", description="A 2D rigging editor whose IK tells the truth.")
    p.add_argument("project", nargs="?", help="project file to open (or an example: arm, walk, door)")
    p.add_argument("--frame", type=int, help="start on this frame")
    p.add_argument("--select", action="append", default=[], metavar="KIND:NAME",
                   help="select an item (bone, chain, target, space or slot), e.g. chain:arm")
    p.add_argument("--mode", choices=("setup", "animate"), help="start in this mode (default animate)")
    p.add_argument("--screenshot", metavar="OUT.png", help="save the window's image and exit")
    p.add_argument("--size", default="1440x900", metavar="WxH", help="window size for --screenshot")
    return p


def _load(spec: str | None):
    """(project, path or None) for the command line's PROJECT; raises with a message."""
    from rigeditor.model.examples import EXAMPLES, arm

    if spec is None:
        return arm(), None
    path = Path(spec)
    if not path.exists() and spec in EXAMPLES:
        return EXAMPLES[spec](), None
    from rigeditor.app.files import load_project

    return load_project(path), path


def run(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    tune_allocator()
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.screenshot and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
                                or os.environ.get("QT_QPA_PLATFORM")) and sys.platform.startswith("linux"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"

    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0]])
    app.setOrganizationName("RigEditor")
    app.setApplicationName("RigEditor")
    from importlib.resources import files
    from PySide6.QtGui import QGuiApplication, QIcon, QPixmap

    QGuiApplication.setDesktopFileName("rigeditor")  # matches packaging/rigeditor.desktop
    icon = QPixmap()
    icon.loadFromData(files("rigeditor").joinpath("resources", "icons", "rigeditor.png").read_bytes())
    app.setWindowIcon(QIcon(icon))
    app.setStyle("Fusion")
    from rigeditor.app import style

    app.setPalette(style.dark_palette())

    from rigeditor.app.dialogs import Dialogs
    from rigeditor.app.document import Document
    from rigeditor.app.files import describe, file_errors
    from rigeditor.app.main_window import MainWindow
    from rigeditor.model.examples import arm

    dialogs = Dialogs()
    error = None
    try:
        project, path = _load(args.project)
    except file_errors() as exc:
        if args.screenshot:
            print(f"rigeditor: cannot open {describe(exc, args.project)}", file=sys.stderr)
            return 2
        project, path, error = arm(), None, describe(exc, args.project)

    doc = Document(project, path)
    if args.frame is not None:
        doc.set_frame(args.frame)
    selection = []
    for item in args.select:
        kind, _, name = item.partition(":")
        selection.append((kind, name))
    if selection:
        doc.select(selection)
    if args.mode:
        doc.set_mode(args.mode)

    if args.screenshot:
        return _screenshot(app, doc, args)

    window = MainWindow(doc, dialogs=dialogs)
    window.show()
    if error:
        dialogs.error(window, "Cannot open project", error)
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
