"""The editor estimates a project's bake before allocating it, as the command line does
(one estimate: ``ranges.memory_fit``), and refuses what would not fit with a range
that does, instead of growing until the kernel kills it (10,000,000 frames: 23.5 GB)."""
from __future__ import annotations

import re
from dataclasses import replace

from PySide6.QtCore import QSettings

from rigeditor.app import document
from rigeditor.app.document import Document
from rigeditor.app.files import FileController
from rigeditor.io import save_project
from rigeditor.examples.rigs import arm, walk
from rigeditor.model.data.project import Timeline
from rigeditor.model.evaluation.ranges import bake_bytes, memory_fit

from fakes import FakeDialogs

HAVE = 50_000_000  # bytes "available": what a 10,000,000-frame walk is far beyond


def _long(project, frames=10_000_000):
    return replace(project, timeline=Timeline(project.timeline.fps, 0, frames - 1))


def test_opening_a_project_too_large_for_memory_is_refused_with_a_range_that_fits(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(document, "available_bytes", lambda: HAVE)
    path = tmp_path / "long.rigproj"
    save_project(_long(walk()), path)
    doc = Document(arm())
    dialogs = FakeDialogs()
    files = FileController(doc, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat),
                           dialogs=dialogs, data_dir=tmp_path / "data")
    assert files.load(path) is False
    (title, message), = dialogs.asked("error")
    assert title == "Cannot open project" and message.startswith(f"{path}: ")
    need = bake_bytes(_long(walk()), 10_000_000, "evaluate")
    assert f"frames 0-9999999 need about {need / 1e9:.1f} GB to evaluate, 50 MB is available" in message
    last = int(re.search(r"shorten the timeline to frames 0-(\d+)", message).group(1))
    # The range offered fits, and one much longer would not: it is the estimate's edge.
    assert memory_fit(_long(walk(), last + 1), 0, last, "evaluate", HAVE).ok
    assert not memory_fit(_long(walk(), 2 * (last + 1)), 0, 2 * last + 1, "evaluate", HAVE).ok
    assert doc.project == arm() and doc.path is None  # the open document is untouched


def test_lengthening_the_timeline_beyond_memory_is_refused_and_changes_nothing(qtbot, monkeypatch):
    monkeypatch.setattr(document, "available_bytes", lambda: HAVE)
    doc = Document(walk())
    refusals = []
    doc.refused.connect(lambda label, text: refusals.append(text))
    assert doc.apply("Set end", _long(doc.project)) is False
    assert doc.project == walk()
    assert "memory: frames 0-9999999 need about" in refusals[0] and "Nothing was changed." in refusals[0]
    assert doc.apply("Set end", _long(doc.project, 200)) is True  # what fits still goes through
