"""An export's files are replaced all together or not at all (``atomic.write_files``):
a Spine skeleton with its atlas and page, one CSV per animation. Disk full is a
monkeypatched fsync raising ENOSPC at the Nth file; exports create their folder
and a failed export removes the folders it made."""
from __future__ import annotations

import errno
import json
import os
import signal
import time
from pathlib import Path

import pytest

from rigeditor import edits

from rigeditor.cli import main
from rigeditor.io import atomic, dumps_project, save_project
from rigeditor.io.errors import ExportError
from rigeditor.model.data import clips
from rigeditor.examples.files import example_folder
from rigeditor.examples.rigs import walk
from rigeditor.examples.art import dressed_arm


def _files(folder):
    """{name: bytes} of every file under ``folder`` (hidden ones included)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _full_at(monkeypatch, n):
    """The n-th fsync of a file (1-based) finds the disk full."""
    real, count = os.fsync, [0]

    def fsync(fd):
        if os.path.isfile(f"/proc/self/fd/{fd}") or not os.path.exists("/proc/self/fd"):
            count[0] += 1
            if count[0] == n:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)


def _spine(tmp_path, capsys, example="dressed_arm"):
    status = main(["bake", example, "-o", str(tmp_path / "sp.json"), "--format", "spine"])
    capsys.readouterr()
    return status


def test_a_spine_export_writes_its_json_atlas_and_page(tmp_path, capsys):
    assert _spine(tmp_path, capsys) == 0
    assert sorted(_files(tmp_path)) == ["sp.atlas", "sp.json", "sp.png"]
    assert "sp.png" in (tmp_path / "sp.atlas").read_text()


@pytest.mark.parametrize("n", [1, 2, 3])
def test_a_disk_full_at_any_file_of_a_spine_export_leaves_the_previous_set(tmp_path, capsys, monkeypatch, n):
    assert _spine(tmp_path, capsys, "dressed_walk") == 0  # the previous export: another rig
    before = _files(tmp_path)
    _full_at(monkeypatch, n)
    assert main(["bake", "dressed_arm", "-o", str(tmp_path / "sp.json"), "--format", "spine"]) == 2
    err = capsys.readouterr().err
    # The path typed, then the file that failed (the pages come first, the JSON last).
    assert err.startswith(f"rigeditor: {tmp_path / 'sp.json'}: write: sp.")
    assert err.endswith(": No space left on device (nothing was written; no file was replaced or created)\n")
    monkeypatch.undo()
    assert _files(tmp_path) == before


def test_a_failed_rename_puts_back_the_files_already_replaced(tmp_path, capsys, monkeypatch):
    assert _spine(tmp_path, capsys, "dressed_walk") == 0
    before = _files(tmp_path)
    real, count = os.replace, [0]

    def replace(src, dst):
        if Path(dst).parent == tmp_path:  # the export's renames, not a compiled-loop cache's
            count[0] += 1
            if count[0] == 3:  # two files are in place when the third cannot be
                raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    assert _spine(tmp_path, capsys) == 2
    monkeypatch.undo()
    assert _files(tmp_path) == before


def test_a_signal_during_the_renames_puts_everything_back_then_interrupts(tmp_path, capsys, monkeypatch):
    assert _spine(tmp_path, capsys, "dressed_walk") == 0
    before = _files(tmp_path)
    real, count = os.replace, [0]

    def replace(src, dst):
        real(src, dst)
        # Only the export's renames count: a compiled-loop cache written on its loading
        # thread meanwhile renames files too (and took the signal in the test's place).
        if Path(dst).parent == tmp_path:
            count[0] += 1
            if count[0] == 1:
                signal.raise_signal(signal.SIGINT)  # Ctrl+C between two renames

    monkeypatch.setattr(os, "replace", replace)
    assert main(["bake", "dressed_arm", "-o", str(tmp_path / "sp.json"), "--format", "spine"]) == 130
    assert capsys.readouterr().err == "rigeditor: interrupted\n"
    monkeypatch.undo()
    assert _files(tmp_path) == before


def test_an_interrupt_after_the_outputs_were_replaced_says_they_are_complete(tmp_path, capsys, monkeypatch):
    from rigeditor.io.progress import Progress

    def late_interrupt(self):
        raise KeyboardInterrupt  # Ctrl+C in the last moments, after the files are in place

    monkeypatch.setattr(Progress, "done", late_interrupt)
    out = tmp_path / "curves.csv"
    assert main(["bake", "arm", "-o", str(out)]) == 130
    assert capsys.readouterr().err == f"rigeditor: interrupted ({out} was already written in full)\n"
    assert out.read_bytes().startswith(b"frame,")


def _two_animations(tmp_path):
    project = edits.add_animation(walk(), "run", 0, 20)
    path = tmp_path / "walk.rigproj"
    save_project(project, path)
    return path


def test_a_disk_full_at_the_second_csv_of_several_animations_keeps_the_first(tmp_path, capsys, monkeypatch):
    project = _two_animations(tmp_path)
    out = tmp_path / "out" / "c.csv"
    assert main(["bake", str(project), "-o", str(out)]) == 0
    assert sorted(_files(out.parent)) == ["c_animation.csv", "c_run.csv"]
    (out.parent / "c_animation.csv").write_bytes(b"old walk")
    (out.parent / "c_run.csv").write_bytes(b"old run")
    _full_at(monkeypatch, 2)
    assert main(["bake", str(project), "-o", str(out)]) == 2
    assert "write: c_run.csv: No space left on device" in capsys.readouterr().err
    monkeypatch.undo()
    assert _files(out.parent) == {"c_animation.csv": b"old walk", "c_run.csv": b"old run"}


def test_an_export_into_a_new_folder_creates_it_and_a_failed_one_removes_it(tmp_path, capsys, monkeypatch):
    out = tmp_path / "new" / "deeper" / "sp.json"
    _full_at(monkeypatch, 2)
    assert main(["bake", "dressed_arm", "-o", str(out), "--format", "spine"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"rigeditor: {out}: write: ")  # the path typed, not the atlas page
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []
    assert main(["bake", "dressed_arm", "-o", str(out), "--format", "spine"]) == 0
    assert sorted(_files(out.parent)) == ["sp.atlas", "sp.json", "sp.png"]


def test_a_spine_export_never_replaces_its_project_through_a_side_file(tmp_path, capsys):
    project = tmp_path / "rig.atlas"  # a project file that happens to be named like the atlas
    project.write_text(dumps_project(dressed_arm()))
    for png in example_folder("dressed_arm").rglob("*.png"):
        target = tmp_path / png.relative_to(example_folder("dressed_arm"))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(png.read_bytes())
    before = project.read_bytes()
    assert main(["bake", str(project), "-o", str(tmp_path / "rig.json"), "--format", "spine"]) == 2
    assert capsys.readouterr().err == (f"rigeditor: {tmp_path / 'rig.json'}: rig.atlas: would replace the project "
                                       "file; choose another output name or folder (nothing was written)\n")
    assert project.read_bytes() == before and not (tmp_path / "rig.json").exists()


def test_leftovers_of_a_killed_write_are_removed_by_the_next_write_but_not_a_write_in_progress(tmp_path,
                                                                                              monkeypatch):
    import fcntl

    out = tmp_path / "out.csv"
    stale, busy = tmp_path / ".out.csv.0badf00d.tmp", tmp_path / ".out.csv.0000beef.tmp"
    stale.write_bytes(b"half")  # kill -9 mid-write: no process holds it
    busy.write_bytes(b"writing")
    fd = os.open(busy, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another write of the same file, still going
    later = time.time() + 2 * atomic.STALE_S  # the inode's change time cannot be set back: move the clock
    try:
        with monkeypatch.context() as m:
            m.setattr(atomic.time, "time", lambda: later)
            atomic.export_write(out, b"new")
    finally:
        os.close(fd)
    assert sorted(p.name for p in tmp_path.iterdir()) == [busy.name, "out.csv"]
    fresh = tmp_path / ".out.csv.00c0ffee.tmp"
    fresh.write_bytes(b"just begun")  # too young to judge: its writer may not hold its lock yet
    atomic.export_write(out, b"newer")
    assert fresh.exists() and out.read_bytes() == b"newer"
