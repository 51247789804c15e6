"""The seam examples: their committed files are what the code paints and builds, and
the command line reports their cracks and collapse."""
from __future__ import annotations

import numpy as np
from PIL import Image

from rigeditor.cli import main
from rigeditor.io import dumps_project
from rigeditor.examples.art_files import example_project
from rigeditor.examples.skin_files import paint_arm
from rigeditor.examples.skin import SKIN_DIR, rigid_arm, skinned_arm

RIGID = example_project("rigid_arm")
SKINNED = example_project("skinned_arm")


def test_the_committed_seam_examples_are_what_the_code_builds():
    painted = paint_arm()
    for folder, names in ((RIGID.parent, ("upper_arm", "forearm")), (SKINNED.parent, ("arm",))):
        for name in names:
            committed = np.asarray(Image.open(folder / SKIN_DIR / f"{name}.png").convert("RGBA"))
            assert np.abs(committed.astype(int) - painted[name]).max() <= 2  # Pillow may differ by a level
    assert RIGID.read_text(encoding="utf-8") == dumps_project(rigid_arm()), \
        "stale: run python -m rigeditor.examples.skin_files"
    # The mesh is built from the committed picture's alpha (the one a user would mesh).
    alpha = np.asarray(Image.open(SKINNED.parent / SKIN_DIR / "arm.png").convert("RGBA"))[..., 3] / 255.0
    assert SKINNED.read_text(encoding="utf-8") == dumps_project(skinned_arm(alpha)), \
        "stale: run python -m rigeditor.examples.skin_files"


def test_the_report_shows_the_crack_closing_and_no_collapse(capsys):
    assert main(["report", str(RIGID)]) == 0
    rigid = capsys.readouterr().out
    assert "crack upper_arm|forearm (joint forearm" in rigid and "open on 5-43" in rigid
    assert main(["report", str(SKINNED)]) == 0
    out = capsys.readouterr().out
    assert "crack arm|arm (joint forearm" in out and "max 0.0 px²" in out and "open on none" in out
    assert "collapse arm/arm at joint forearm" in out and "flipped) on none" in out
