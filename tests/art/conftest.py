"""Fixtures of the artwork tests: the dressed arm and its pictures, painted here."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))


def paint_png(path: Path, width: int, height: int, seed: int = 0, margin: int = 0) -> np.ndarray:
    """Write an RGBA PNG: an opaque rounded blob with ``margin`` transparent pixels
    around it; returns the pixels (height, width, 4)."""
    from PIL import Image

    rng = np.random.default_rng(seed)
    px = np.zeros((height, width, 4), dtype=np.uint8)
    px[margin:height - margin, margin:width - margin, :3] = rng.integers(40, 220, 3)
    px[margin:height - margin, margin:width - margin, 3] = 255
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(px, "RGBA").save(path)
    return px


@pytest.fixture
def dressed(tmp_path):
    """(project path, project): the dressed arm saved in tmp_path with its PNGs."""
    from rigeditor.io import save_project
    from rigeditor.model.examples_art import dressed_arm

    project = dressed_arm()
    for k, slot in enumerate(project.art.slots):
        for a in slot.attachments:
            paint_png(tmp_path / a.path, int(a.width), int(a.height), seed=k)
    path = tmp_path / "dressed.rigproj"
    save_project(project, path)
    return path, project
