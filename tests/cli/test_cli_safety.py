"""The command line never damages the user's files: a bake does not overwrite its
own project, a FIFO or device is refused instead of blocking, and a process killed
mid-write leaves the previous output and no temporary file."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rigeditor.cli import main

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("fmt", [None, "json", "spine"])
def test_a_bake_onto_its_own_project_is_refused(project_file, capsys, fmt):
    project = project_file("arm").rename(project_file("arm").with_name("arm.json"))
    before = project.read_bytes()
    extra = ["--format", fmt] if fmt else []
    assert main(["bake", str(project), "-o", str(project), *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"rigeditor: {project}: -o: this is the project file") and len(err.splitlines()) == 1
    assert project.read_bytes() == before


def test_a_bake_onto_another_name_of_its_project_is_refused(project_file, tmp_path, capsys):
    project = project_file("arm")
    before = project.read_bytes()
    link = tmp_path / "same.json"
    os.link(project, link)
    (tmp_path / "sub").mkdir()
    dotted = tmp_path / "sub" / ".." / project.name
    for out in (link, dotted):
        assert main(["bake", str(project), "-o", str(out), "--format", "json"]) == 2
        assert "-o: this is the project file" in capsys.readouterr().err
    assert project.read_bytes() == before


def _run(args, timeout=60, **kwargs):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "rigeditor.cli", *args], capture_output=True,
                          text=True, cwd=REPO, env=env, timeout=timeout, **kwargs)


@pytest.mark.parametrize("command", [["validate"], ["report"], ["bake", "-o", "{tmp}/o.csv"],
                                     ["render", "--frame", "0", "-o", "{tmp}/o.png"]])
def test_a_fifo_as_the_project_is_refused_not_waited_on(tmp_path, command):
    fifo = tmp_path / "pipe.rigproj"
    os.mkfifo(fifo)
    args = [command[0], str(fifo)] + [a.format(tmp=tmp_path) for a in command[1:]]
    out = _run(args, timeout=30)  # a blocking open would time out here
    assert out.returncode == 2
    assert out.stderr == f"rigeditor: {fifo}: open: this is a named pipe (FIFO), not a project file\n"


def test_a_device_as_the_project_is_refused(capsys):
    assert main(["validate", os.devnull]) == 2
    assert capsys.readouterr().err == (f"rigeditor: {os.devnull}: open: this is a character device, "
                                       "not a project file\n")


# The child slows its own fsync down (test side only) and says when the write has
# begun, so the signal lands while the temporary file exists.
SLOW_WRITE = textwrap.dedent("""
    import os, sys, time
    def slow_fsync(fd):
        print("writing", flush=True)
        time.sleep(60)
    os.fsync = slow_fsync
    from rigeditor.cli import main
    sys.exit(main(sys.argv[1:]))
""")


@pytest.mark.parametrize("sig, status, word", [(signal.SIGTERM, 143, "terminated"),
                                               (signal.SIGINT, 130, "interrupted")])
def test_a_signal_during_a_write_leaves_the_old_output_and_no_temporary_file(project_file, tmp_path,
                                                                             sig, status, word):
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out = out_dir / "curves.csv"
    out.write_text("previous")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen([sys.executable, "-c", SLOW_WRITE, "bake", str(project_file("walk", end=20000)),
                              "-o", str(out), "--frames", "0:20000"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
    try:
        assert child.stdout.readline() == "writing\n"
        assert [p.name for p in out_dir.iterdir() if p.name.endswith(".tmp")], "the write has begun"
        child.send_signal(sig)
        _, err = child.communicate(timeout=30)
    finally:
        child.kill()
        child.wait()
    assert child.returncode == status and err.strip() == f"rigeditor: {word}"
    assert sorted(p.name for p in out_dir.iterdir()) == ["curves.csv"]
    assert out.read_text() == "previous"
