"""The dressed arm example: its committed files are what the code paints and builds."""
from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from rigeditor.cli import main
from rigeditor.io import dumps_project
from rigeditor.io.example_art import paint_layers
from rigeditor.model.examples_art import ART_DIR, SIZES, dressed_arm

EXAMPLES = Path(__file__).parents[2] / "rigeditor" / "resources" / "examples" / "dressed_arm"


def test_the_committed_example_is_what_the_code_builds():
    path = EXAMPLES / "dressed_arm.rigproj"
    assert path.read_text(encoding="utf-8") == dumps_project(dressed_arm()), \
        "stale: run python -m rigeditor.io.example_art"
    for name, px in paint_layers().items():
        assert px.shape == (SIZES[name][1], SIZES[name][0], 4)
        committed = np.asarray(Image.open(EXAMPLES / ART_DIR / f"{name}.png").convert("RGBA"))
        # Pillow's resampling may differ by a level between versions; shapes may not.
        assert np.abs(committed.astype(int) - px).max() <= 2


def test_the_example_validates_with_every_picture_found(capsys):
    assert main(["validate", str(EXAMPLES / "dressed_arm.rigproj")]) == 0
    assert "4 slots" in capsys.readouterr().out
