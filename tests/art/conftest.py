"""Fixtures of the artwork tests: the dressed arm and its pictures, painted here."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from art_files import paint_png  # noqa: E402


@pytest.fixture
def dressed(tmp_path):
    """(project path, project): the dressed arm saved in tmp_path with its PNGs."""
    from rigeditor.io import save_project
    from rigeditor.examples.art import dressed_arm

    project = dressed_arm()
    for k, slot in enumerate(project.art.slots):
        for a in slot.attachments:
            paint_png(tmp_path / a.path, int(a.width), int(a.height), seed=k)
    path = tmp_path / "dressed.rigproj"
    save_project(project, path)
    return path, project
