"""No exception reaches Qt: edits that cannot be evaluated are refused before the undo
stack sees them, every Qt override of the editor is guarded, and a whole editor
process survives the move-root edit that used to kill it."""
from __future__ import annotations

import importlib
import math
import inspect
import os
import pkgutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter

import rigeditor.app
from rigeditor.app import document as document_module
from rigeditor.app import guard
from rigeditor.app.scene.stack import LayerStack
from rigeditor.io.project_file import load_project

from drive_editor import edited_project, move_root
from test_main_window import make_window

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


def failing_evaluate(monkeypatch, bad_name):
    """evaluate() raises for projects named ``bad_name`` (any failure of the one
    evaluation path: the editor must not care which)."""
    real = document_module.evaluate

    def evaluate(project, *args, **kwargs):
        if project.name == bad_name:
            raise ValueError("could not broadcast input array from shape (61,) into shape (49,)")
        return real(project, *args, **kwargs)

    monkeypatch.setattr(document_module, "evaluate", evaluate)


def test_a_failing_edit_is_refused_with_a_message_and_changes_nothing(qtbot, tmp_path, monkeypatch):
    w, doc, dialogs = make_window(qtbot, tmp_path)
    doc.apply("Set softness", edited_project(doc.project), touched={"chain:arm"})
    before, bake, count, index = doc.project, doc.bake, doc.undo_stack.count(), doc.undo_stack.index()
    failing_evaluate(monkeypatch, "broken")
    bad = replace(move_root(doc.project, frames=49, time_constant=5.0), name="broken")
    assert doc.apply("Move root", bad) is False
    assert doc.project is before and doc.bake is bake
    assert (doc.undo_stack.count(), doc.undo_stack.index()) == (count, index)
    assert doc.undo_stack.undoText() == "Set softness"  # the redo list and the last step are intact
    (title, message), = dialogs.asked("error")
    assert "Move root" in message and "(61,)" in message and "Nothing was changed" in message
    assert "refused" in w.statusBar().currentMessage()
    doc.select([("chain", "broken_chain")])  # what a refused "add" would go on to select
    assert doc.selection == ()


def test_every_qt_class_of_the_editor_is_guarded():
    """Found by walking the package, so a new widget cannot forget the guard."""
    qt_classes = []
    for info in pkgutil.walk_packages(rigeditor.app.__path__, "rigeditor.app."):
        module = importlib.import_module(info.name)
        for cls in vars(module).values():
            if inspect.isclass(cls) and cls.__module__ == module.__name__ \
                    and any(guard._foreign(k) for k in cls.__mro__):
                qt_classes.append(cls)
    assert len(qt_classes) > 20
    unguarded = [c.__qualname__ for c in qt_classes if not issubclass(c, guard.Guarded)]
    assert unguarded == []
    # The overrides Qt calls are among the wrapped methods, mixins included.
    from rigeditor.app.document import ProjectCommand
    from rigeditor.app.scene.view import SceneView

    assert {"redo", "undo"} <= set(guard.guarded_methods(ProjectCommand))
    assert {"mousePressEvent", "wheelEvent", "keyPressEvent", "drawBackground"} <= set(guard.guarded_methods(SceneView))
    assert {"paint", "boundingRect"} <= set(guard.guarded_methods(LayerStack))


def test_an_override_that_raises_is_reported_and_returns_nothing(qtbot):
    class Broken(LayerStack):  # the scene item whose painting code has a bug
        def paint(self, painter, option, widget=None):
            raise RuntimeError("paint broke")

        def boundingRect(self):  # noqa: N802 - Qt's name
            return 1 / 0

    image = QImage(8, 8, QImage.Format_ARGB32)
    painter = QPainter(image)
    try:
        with qtbot.capture_exceptions() as caught:
            assert Broken.paint(None, painter, None) is None
            assert Broken.boundingRect(None) == QRectF()  # Qt gets an empty rectangle
    finally:
        painter.end()
    assert [str(e[1]) for e in caught] == ["paint broke", "division by zero"]


def test_a_failing_undo_is_reported_not_raised(qtbot, tmp_path, monkeypatch):
    w, doc, _ = make_window(qtbot, tmp_path)
    doc.apply("Set softness", edited_project(doc.project), touched={"chain:arm"})
    after = doc.project

    def broken(project, touched):
        raise RuntimeError("evaluation broke")

    monkeypatch.setattr(doc, "_set_project", broken)
    with qtbot.capture_exceptions() as caught:
        doc.undo_stack.undo()  # Qt calls ProjectCommand.undo(); nothing may escape into it
    assert [str(e[1]) for e in caught] == ["evaluation broke"]
    assert doc.project is after  # unchanged


def test_the_guard_reports_to_the_window(qtbot, tmp_path, capsys):
    w, _, _ = make_window(qtbot, tmp_path)
    try:
        raise ZeroDivisionError("division by zero")
    except ZeroDivisionError:
        guard.report(*sys.exc_info())
    assert "division by zero" in w.statusBar().currentMessage()
    assert "Traceback" in capsys.readouterr().err


def editor_env(tmp_path) -> dict:
    """An editor process kept away from the user's settings and data."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("QT_", "XDG_"))}
    env.update(QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "share"), RIGEDITOR_DATA_DIR=str(tmp_path / "data"),
               PYTHONPATH=os.pathsep.join([str(REPO), str(HERE)]))
    return env


def test_the_editor_process_survives_the_move_root_edit(tmp_path):
    r = subprocess.run([sys.executable, str(HERE / "drive_editor.py"), "move-root"], cwd=REPO,
                       env=editor_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    words = r.stdout.split()
    assert words[:4] == ["frames", "21", "steps", "2"]
    assert 0 < float(words[5]) <= 40.0  # the shoulder leans, within max_root_offset


def test_a_slot_that_raises_is_reported_on_the_status_bar(qtbot, tmp_path, monkeypatch, capsys):
    # The editor's hook (main.run installs it): PySide hands it what a slot raises.
    monkeypatch.setattr(sys, "excepthook", guard.report)
    w, doc, _ = make_window(qtbot, tmp_path)
    doc.frameChanged.connect(lambda frame: [][frame])
    doc.set_frame(5)
    assert doc.frame == 5
    assert "IndexError" in w.statusBar().currentMessage()
    assert "Traceback" in capsys.readouterr().err


def test_an_edit_the_file_could_not_hold_is_refused_before_it_is_made(qtbot, tmp_path):
    # A rest rotation of 1e12 degrees evaluates (sin and cos take it), but the project
    # file refuses it: accepted, it would make every later Save and autosave fail.
    w, doc, dialogs = make_window(qtbot, tmp_path)
    before, count = doc.project, doc.undo_stack.count()
    bone = doc.project.bones[0]
    bad = replace(doc.project, bones=(replace(bone, rest_rotation=math.radians(1e12)), *doc.project.bones[1:]))
    assert doc.apply("Set rest rotation", bad) is False
    assert doc.project is before and doc.undo_stack.count() == count
    (title, message), = dialogs.asked("error")
    assert "rest_rotation" in message and "1e+12 deg" in message and "Nothing was changed" in message
    # The project as it was still saves, and reads back as it was.
    assert w.files.save_as(str(tmp_path / "still.rigproj"))
    assert load_project(tmp_path / "still.rigproj").bones == before.bones
