"""Opening is all or nothing, and crash recovery keeps every autosave it does not
restore: sessions are found by a lock the kernel drops when the editor dies."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from PySide6.QtCore import QSettings

from drive_editor import edited_project
from fakes import FakeDialogs
from rigeditor.app.document import Document
from rigeditor.app.files import FileController
from rigeditor.app.main_window import MainWindow
from rigeditor.app.sessions import SessionLock
from rigeditor.io import load_project, save_project
from rigeditor.examples.rigs import arm, walk
from test_guard import HERE, REPO, editor_env, failing_evaluate
from test_main_window import make_window


def second_window(qtbot, tmp_path, data_dir, name="2", **answers):
    """Another editor on the same data folder (as after a restart)."""
    dialogs = FakeDialogs(**answers)
    settings = QSettings(str(tmp_path / f"settings{name}.ini"), QSettings.IniFormat)
    w = MainWindow(Document(arm()), settings=settings, dialogs=dialogs, data_dir=data_dir, restore_layout=False)
    qtbot.addWidget(w)
    return w, dialogs


# ----------------------------------------------------------------------------- opening

def test_open_that_cannot_be_evaluated_leaves_the_document_as_it_was(qtbot, tmp_path, monkeypatch):
    mine = tmp_path / "mine.rigproj"
    other = tmp_path / "other.rigproj"
    w, doc, dialogs = make_window(qtbot, tmp_path)
    assert w.files.save_as(mine)
    doc.apply("Set softness", edited_project(doc.project), touched={"chain:arm"})
    save_project(walk(), other)
    other_bytes = other.read_bytes()
    state = (doc.project, doc.bake, doc.path, w.windowTitle(), doc.undo_stack.count(), doc.is_modified())
    failing_evaluate(monkeypatch, walk().name)

    assert w.files.load(other) is False
    (title, message), = dialogs.asked("error")
    assert str(other) in message and "cannot be evaluated" in message
    assert state == (doc.project, doc.bake, doc.path, w.windowTitle(), doc.undo_stack.count(), doc.is_modified())
    # Save goes where it always went: the other file is untouched.
    assert w.files.save()
    assert other.read_bytes() == other_bytes
    assert load_project(mine) == edited_project(arm())


# ----------------------------------------------------------------------------- autosave

def test_autosave_follows_a_change_within_seconds(qtbot, tmp_path):
    doc = Document(arm())
    files = FileController(doc, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat),
                           dialogs=FakeDialogs(), data_dir=tmp_path / "data", autosave_delay_ms=200)
    files.begin_session()  # the periodic autosave stays a minute away
    doc.apply("Set softness", edited_project(doc.project), touched={"chain:arm"})
    assert not files.autosave_path.exists()  # debounced, not on every change
    qtbot.waitUntil(files.autosave_path.exists, timeout=5000)
    assert load_project(files.autosave_path) == doc.project
    files.end_session()
    assert not any((tmp_path / "data").rglob("*.*"))  # a clean exit leaves nothing behind


def test_a_running_session_is_never_taken_for_a_crash(qtbot, tmp_path):
    w, doc, _ = make_window(qtbot, tmp_path)
    w.files.begin_session()
    doc.apply("Set softness", edited_project(doc.project), touched={"chain:arm"})
    w.files.autosave()
    w2, dialogs2 = second_window(qtbot, tmp_path, tmp_path / "data")
    assert w2.files.crashed_sessions() == []
    assert w2.files.offer_recovery() is False and dialogs2.calls == []
    w.files.end_session()


def crash_marker(data_dir: Path, session: str, *, pid: int, project=None, lock=True) -> Path:
    """The files a session leaves behind when it dies: marker, free lock, autosave."""
    autosave = data_dir / "autosave" / f"{session}.rigproj"
    autosave.parent.mkdir(parents=True, exist_ok=True)
    save_project(project or edited_project(arm()), autosave)
    marker = data_dir / "sessions" / f"{session}.json"
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(json.dumps({"pid": pid, "autosave": str(autosave), "path": None}))
    if lock:
        marker.with_suffix(".lock").touch()
    return autosave


def test_a_crash_whose_pid_now_runs_another_process_is_offered(qtbot, tmp_path):
    # PIDs are reused after a reboot: the parent of this test is alive, yet its
    # session's lock is free, so that session is gone.
    data = tmp_path / "data"
    crash_marker(data, "a" * 32, pid=os.getppid())
    w, dialogs = second_window(qtbot, tmp_path, data, confirm=True)
    assert w.files.offer_recovery()
    assert w.doc.project == edited_project(arm()) and w.doc.is_modified()


def test_a_marker_from_an_older_version_is_recovered_by_its_pid(qtbot, tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    data = tmp_path / "data"
    crash_marker(data, str(dead.pid), pid=dead.pid, lock=False)
    w, _ = second_window(qtbot, tmp_path, data, confirm=True)
    assert w.files.offer_recovery()
    assert w.doc.project == edited_project(arm())


def test_an_unreadable_autosave_is_kept_and_the_message_says_where(qtbot, tmp_path):
    data = tmp_path / "data"
    autosave = crash_marker(data, "b" * 32, pid=0)
    autosave.write_text('{"format": "rigeditor", "version": 999}')  # a newer version's file
    content = autosave.read_bytes()
    w, dialogs = second_window(qtbot, tmp_path, data, confirm=True)
    before = w.doc.project
    assert w.files.offer_recovery() is False
    assert w.doc.project is before
    kept = list((data / "recovered").iterdir())
    assert len(kept) == 1 and kept[0].read_bytes() == content and not autosave.exists()
    (title, message), = dialogs.asked("error")
    assert str(kept[0]) in message
    assert w.files.crashed_sessions() == []  # asked once, not at every start


def test_a_recovered_unsaved_example_keeps_its_pictures(qtbot, tmp_path):
    from rigeditor.io.art.images import missing_images

    data = tmp_path / "data"
    doc = Document(arm())
    crashed = FileController(doc, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat),
                             dialogs=FakeDialogs(), data_dir=data)
    crashed.begin_session()
    assert crashed.new_from_example("dressed_arm")  # not saved yet: its pictures are the example's
    doc.apply("Set rest rotation", doc.project.with_bone("forearm", rest_rotation=0.3))
    assert crashed.autosave() is not None
    crashed._lock.release()  # the editor dies: marker, autosave and a free lock stay
    w, _ = second_window(qtbot, tmp_path, data, confirm=True)
    assert w.files.offer_recovery()
    assert abs(w.doc.project.bone("forearm").rest_rotation - 0.3) < 1e-9  # (degrees in the file)
    out = tmp_path / "saved" / "arm.rigproj"
    out.parent.mkdir()
    assert w.files.save_as(out)
    assert w.doc.project.art.slots and missing_images(w.doc.project, out.parent) == []


def test_the_lock_is_released_when_its_holder_closes_it(tmp_path):
    a, b = SessionLock(tmp_path / "s.lock"), SessionLock(tmp_path / "s.lock")
    assert a.acquire() and not b.acquire()
    a.release()
    assert b.acquire()
    b.release(remove=True)
    assert not (tmp_path / "s.lock").exists()


# ----------------------------------------------------------------------------- a real crash

def test_work_survives_a_killed_editor_and_a_declined_recovery(qtbot, tmp_path):
    env = editor_env(tmp_path)
    data = Path(env["RIGEDITOR_DATA_DIR"])
    editor = subprocess.Popen([sys.executable, str(HERE / "drive_editor.py"), "edit"], cwd=REPO, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert editor.stdout.readline().strip() == "edited"
        # The autosave comes a few seconds after the edit (the periodic one is a minute away).
        deadline = time.monotonic() + 60
        while not list((data / "autosave").glob("*.rigproj")) and time.monotonic() < deadline:
            time.sleep(0.1)
        autosaves = list((data / "autosave").glob("*.rigproj"))
        assert len(autosaves) == 1
        running, _ = second_window(qtbot, tmp_path, data, name="running")
        assert running.files.crashed_sessions() == []  # alive: its lock is held
    finally:
        editor.send_signal(signal.SIGKILL)
        editor.communicate(timeout=30)
    assert editor.returncode == -signal.SIGKILL

    # Restart; decline the offer. The work is moved, not deleted, and the message says where.
    w, dialogs = second_window(qtbot, tmp_path, data, name="declined", confirm=False)
    assert w.files.offer_recovery() is False
    assert len(dialogs.asked("confirm")) == 1
    kept = list((data / "recovered").glob("*.rigproj"))
    assert len(kept) == 1 and not autosaves[0].exists()
    (title, message), = dialogs.asked("info")
    assert str(kept[0]) in message
    # Nothing is offered again, and the kept file opens with the edit in it.
    w3, dialogs3 = second_window(qtbot, tmp_path, data, name="later")
    assert w3.files.offer_recovery() is False and dialogs3.calls == []
    assert w3.files.open(kept[0])
    assert w3.doc.project == edited_project(arm())


def _two_crashes(data):
    """Two editors killed: the older left the walk, the newer the edited arm."""
    older = crash_marker(data, "b" * 32, pid=os.getppid(), project=walk())
    os.utime(older, (time.time() - 60, time.time() - 60))
    newer = crash_marker(data, "c" * 32, pid=os.getppid())
    for marker, age in (("b" * 32, 60), ("c" * 32, 0)):
        path = data / "sessions" / f"{marker}.json"
        os.utime(path, (time.time() - age, time.time() - age))
    return older, newer


def test_with_two_editors_killed_the_next_start_opens_one_and_says_where_the_other_is(qtbot, tmp_path):
    data = tmp_path / "data"
    _two_crashes(data)
    w, dialogs = second_window(qtbot, tmp_path, data, confirm=True)
    assert w.files.offer_recovery()
    assert len(dialogs.asked("confirm")) == 1  # one window, one project: the other is kept
    opened = w.doc.project
    (title, message), = dialogs.asked("info")
    kept = [Path(line) for line in message.splitlines() if line.endswith(".rigproj")]
    assert len(kept) == 1 and kept[0].parent == data / "recovered"
    assert {load_project(kept[0]).name, opened.name} == {walk().name, arm().name}
    # Nothing waits for a later start.
    w3, dialogs3 = second_window(qtbot, tmp_path, data, name="3")
    assert w3.files.crashed_sessions() == [] and w3.files.offer_recovery() is False


def test_declining_the_latest_crash_offers_the_other(qtbot, tmp_path):
    data = tmp_path / "data"
    _two_crashes(data)
    w, dialogs = second_window(qtbot, tmp_path, data, confirm=[False, True])
    assert w.files.offer_recovery()
    assert len(dialogs.asked("confirm")) == 2
    (title, message), = dialogs.asked("info")
    kept = [Path(line) for line in message.splitlines() if line.endswith(".rigproj")]
    assert len(kept) == 1 and {load_project(kept[0]).name, w.doc.project.name} == {walk().name, arm().name}
