"""The dressed arm example: its committed files are what the code paints and builds."""
from __future__ import annotations

from pathlib import Path

import os
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from documents import assert_same_document
from rigeditor.cli import main
from rigeditor.io import dumps_project
from rigeditor.examples.art_files import example_project, paint_layers, paint_walk_layers
from rigeditor.examples.art import ART_DIR, SIZES, WALK_DIR, WALK_SIZES, dressed_arm, dressed_walk

REPO = Path(__file__).parents[2]
EXAMPLES = example_project("dressed_arm").parent
WALK = example_project("dressed_walk").parent


@pytest.mark.parametrize("folder, build, paint, art, sizes", [
    (EXAMPLES, dressed_arm, paint_layers, ART_DIR, SIZES),
    (WALK, dressed_walk, paint_walk_layers, WALK_DIR, WALK_SIZES),
])
def test_the_committed_examples_are_what_the_code_builds(folder, build, paint, art, sizes):
    path = folder / f"{folder.name}.rigproj"
    assert_same_document(path.read_text(encoding="utf-8"), dumps_project(build()),
                         "stale: run python -m rigeditor.examples.art_files")
    for name, px in paint().items():
        assert px.shape == (sizes[name][1], sizes[name][0], 4)
        committed = np.asarray(Image.open(folder / art / f"{name}.png").convert("RGBA"))
        # Pillow's resampling may differ by a level between versions; shapes may not.
        assert np.abs(committed.astype(int) - px).max() <= 2


def test_the_example_validates_with_every_picture_found(capsys):
    assert main(["validate", str(EXAMPLES / "dressed_arm.rigproj")]) == 0
    assert "4 slots" in capsys.readouterr().out


def test_render_draws_the_pictures_as_a_process(tmp_path):
    """A fresh process: ``render`` loads the art painter without the editor's scene."""
    out = tmp_path / "walk.png"
    run = subprocess.run([sys.executable, "-m", "rigeditor.cli", "render", str(WALK / "dressed_walk.rigproj"),
                          "--frame", "14", "-o", str(out)], capture_output=True, text=True, cwd=REPO,
                         env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, timeout=120)
    assert run.returncode == 0, run.stderr
    shot = np.asarray(Image.open(out).convert("RGB")).astype(int)
    shirt = np.array([72, 112, 168])  # the torso's colour, painted by example_art
    assert (np.abs(shot - shirt).max(axis=-1) <= 12).sum() > 500
