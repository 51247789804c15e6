"""Saving is atomic: a failed save leaves the previous file intact and says why."""
from __future__ import annotations

import errno
import math
import os
import pwd
import shutil
import stat
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest

from rigeditor.io import ProjectFileError, load_project, save_project
from rigeditor.io.atomic import export_write
from rigeditor.io.errors import ExportError
from rigeditor.examples.rigs import arm, walk

def _saved(tmp_path) -> tuple[Path, bytes]:
    path = tmp_path / "arm.rigproj"
    save_project(arm(), path)
    return path, path.read_bytes()


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_save_replaces_the_file_and_keeps_its_permissions(tmp_path):
    path, _ = _saved(tmp_path)
    os.chmod(path, 0o640)
    save_project(walk(), path)
    assert load_project(path).name == "walk"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("step", ["write", "fsync", "replace"])
def test_a_failed_write_leaves_the_previous_file_intact(tmp_path, monkeypatch, step):
    path, before = _saved(tmp_path)

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    if step == "write":
        real_fdopen = os.fdopen

        class Full:
            def __init__(self, f):
                self.f = f

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.f.close()

            def close(self):
                self.f.close()

            def write(self, data):
                full()

        monkeypatch.setattr(os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
    else:
        monkeypatch.setattr(os, step, full)
    with pytest.raises(ProjectFileError) as err:
        save_project(walk(), path)
    assert err.value.problems == ["save: No space left on device (nothing was written; "
                                  "the previous file is unchanged)"]
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert _leftovers(tmp_path) == []


def test_a_value_that_cannot_be_saved_is_refused_with_its_place(tmp_path):
    path, before = _saved(tmp_path)
    project = walk()
    bad = project.with_bone("head", rest_offset=(math.nan, 0.0))
    with pytest.raises(ProjectFileError) as err:
        save_project(bad, path)
    assert err.value.problems == ["bones[1].rest_offset[0]: must be a finite number of magnitude <= 1e+09, got nan"]
    infinite = project.with_bone("head", length=math.inf)
    with pytest.raises(ProjectFileError) as err:
        save_project(infinite, path)
    assert err.value.problems == ["bones[1].length: must be a finite number of magnitude <= 1e+09, got inf"]
    assert path.read_bytes() == before and _leftovers(tmp_path) == []


def test_an_invalid_project_is_not_saved_since_it_would_not_load(tmp_path):
    path, before = _saved(tmp_path)
    project = arm()
    broken = replace(project, chains=(replace(project.chains[0], target="nobody"),))
    with pytest.raises(ProjectFileError) as err:
        save_project(broken, path)
    assert err.value.problems == ["chains[0].target: unknown target 'nobody'"]
    assert path.read_bytes() == before


def test_saving_into_a_read_only_folder_fails_cleanly():
    # A folder the unprivileged user below can reach (pytest's base folder is private).
    folder = Path(tempfile.mkdtemp(prefix="rigeditor-ro-", dir="/tmp"))
    os.chmod(folder, 0o755)
    path = folder / "arm.rigproj"
    try:
        save_project(arm(), path)
        before = path.read_bytes()
        os.chmod(folder, 0o555)
        # Root ignores permission bits: save as an unprivileged user (root may switch back).
        unprivileged = os.geteuid() == 0
        if unprivileged:
            os.seteuid(pwd.getpwnam("nobody").pw_uid)
        try:
            with pytest.raises(ProjectFileError) as err:
                save_project(walk(), path)
        finally:
            if unprivileged:
                os.seteuid(0)
        assert err.value.problems == ["save: Permission denied (nothing was written; "
                                      "the previous file is unchanged)"]
        assert path.read_bytes() == before
        assert sorted(p.name for p in folder.iterdir()) == ["arm.rigproj"]
    finally:
        os.chmod(folder, 0o755)
        shutil.rmtree(folder)


def test_a_failed_export_leaves_the_previous_output_intact(tmp_path, monkeypatch):
    out = tmp_path / "curves.csv"
    out.write_bytes(b"old")
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError(errno.EIO, "I/O error")))
    with pytest.raises(ExportError) as err:
        export_write(out, b"new")
    assert err.value.problems == ["write: I/O error (nothing was written; the previous file is unchanged)"]
    monkeypatch.undo()
    assert out.read_bytes() == b"old" and _leftovers(tmp_path) == []


def test_saving_into_a_missing_folder_says_no_file_was_created(tmp_path):
    with pytest.raises(ProjectFileError) as err:
        save_project(arm(), tmp_path / "missing" / "arm.rigproj")
    assert err.value.problems == ["save: No such file or directory (nothing was written; no file was created)"]
    assert sorted(tmp_path.iterdir()) == []


def test_an_export_creates_its_folder(tmp_path):
    export_write(tmp_path / "new" / "deeper" / "out.csv", b"x")
    assert (tmp_path / "new" / "deeper" / "out.csv").read_bytes() == b"x"
