"""The seam examples: their committed files are what the code paints and builds, and
the command line reports their cracks and collapse."""
from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image

from documents import assert_same_document
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
    stale = "stale: run python -m rigeditor.examples.skin_files"
    assert_same_document(RIGID.read_text(encoding="utf-8"), dumps_project(rigid_arm()), stale)
    # The mesh is built from the committed picture's alpha (the one a user would mesh).
    alpha = np.asarray(Image.open(SKINNED.parent / SKIN_DIR / "arm.png").convert("RGBA"))[..., 3] / 255.0
    assert_same_document(SKINNED.read_text(encoding="utf-8"), dumps_project(skinned_arm(alpha)), stale)


def test_the_skinned_arm_keeps_its_generated_numbers_to_1e_9_so_last_bits_do_not_show():
    # The sparse solve of the weights differs in its last bits between CPUs and BLAS
    # builds (6.4e-15 was measured); the builder rounds, so the committed file is stable.
    alpha = np.asarray(Image.open(SKINNED.parent / SKIN_DIR / "arm.png").convert("RGBA"))[..., 3] / 255.0
    mesh = skinned_arm(alpha).art.slot("arm").find("arm")
    for name in ("vertices", "uvs", "weights"):
        values = getattr(mesh, name)
        assert np.array_equal(values, np.round(values, 9)), name
    assert 0.0 < mesh.weights[:, 1].max() < 1.0 and len(np.unique(mesh.weights)) > 50  # real, blended weights
    np.testing.assert_allclose(mesh.weights.sum(axis=1), 1.0, rtol=0, atol=1e-8)


def test_a_committed_file_compares_to_a_tolerance_that_still_catches_a_real_change():
    text = SKINNED.read_text(encoding="utf-8")
    doc = json.loads(text)
    weights = doc["slots"][0]["attachments"][0]["weights"]
    row = next(i for i, w in enumerate(weights) if 0.0 < w[1] < 1.0)
    weights[row][0] += 6.4e-15  # another machine's last bits: the same file
    assert_same_document(text, json.dumps(doc))
    weights[row][0] += 1e-6  # a real change of a weight, far below what a user sees
    with pytest.raises(AssertionError, match=rf"slots\[0\]\.attachments\[0\]\.weights\[{row}\]\[0\]"):
        assert_same_document(text, json.dumps(doc))
    doc["slots"][0]["attachments"][0]["triangles"][0][0] += 1
    with pytest.raises(AssertionError, match="triangles"):
        assert_same_document(text, json.dumps(doc))


def test_the_report_shows_the_crack_closing_and_no_collapse(capsys):
    assert main(["report", str(RIGID)]) == 0
    rigid = capsys.readouterr().out
    assert "crack upper_arm|forearm (joint forearm" in rigid and "open on 5-43" in rigid
    assert main(["report", str(SKINNED)]) == 0
    out = capsys.readouterr().out
    assert "crack arm across joint forearm (one mesh: holes within 46 units): none; open on none" in out
    assert "collapse arm/arm at joint forearm" in out and "flipped) on none" in out
