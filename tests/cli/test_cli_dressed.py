"""The dressed examples (pictures on the bones) by name: every command finds their
pictures in the packaged example folder, as it does beside a project file."""
from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

from rigeditor.cli import main
from rigeditor.io.art.images import read_rgba

REPO = Path(__file__).resolve().parents[2]
PACKAGED = REPO / "resources" / "examples"


def _copy(name, folder, *, pictures=True) -> Path:
    """The packaged example copied into ``folder`` (with or without its pictures)."""
    src = PACKAGED / name
    dst = folder / name
    if pictures:
        shutil.copytree(src, dst)
    else:
        dst.mkdir(parents=True)
        shutil.copy2(src / f"{name}.rigproj", dst)
    return dst / f"{name}.rigproj"


def test_validate_finds_the_pictures_of_a_dressed_example_by_name(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # nothing of that name here: the example
    assert main(["validate", "dressed_arm"]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("dressed_arm: valid: 2 bones, 1 chain, 1 target") and "4 slots" in out.out
    assert out.err == ""
    # The same project without its pictures: validate names each missing one.
    assert main(["validate", str(_copy("dressed_arm", tmp_path, pictures=False))]) == 1
    assert capsys.readouterr().err.count("image not found") == 5


def test_render_by_name_draws_the_pictures(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # A folder named like the example (its copy) is not a project file: the name still opens the example.
    for out, project in (("name.png", "dressed_walk"), ("file.png", str(_copy("dressed_walk", tmp_path))),
                         ("bare.png", str(_copy("dressed_walk", tmp_path / "bare", pictures=False)))):
        assert main(["render", project, "--frame", "10", "-o", out]) == 0
    name, file, bare = (read_rgba(tmp_path / n) for n in ("name.png", "file.png", "bare.png"))
    assert np.array_equal(name, file)  # by name = the file beside its pictures
    # Without the pictures the same frame differs (placeholders) over a picture-sized area.
    assert (np.abs(name.astype(int) - bare.astype(int)).max(axis=2) > 40).sum() > 2000


def test_spine_bake_by_name_packs_the_example_pictures_into_the_atlas(tmp_path):
    assert main(["bake", "dressed_arm", "-o", str(tmp_path / "a.json"), "--format", "spine"]) == 0
    lines = (tmp_path / "a.atlas").read_text(encoding="utf-8").splitlines()
    page = read_rgba(tmp_path / lines[0])
    regions = {lines[i - 1]: [int(v) for v in lines[i].split(":")[1].split(",")]
               for i in range(len(lines)) if lines[i].startswith("bounds:")}
    assert sorted(regions) == ["arm_art/forearm", "arm_art/hand_fist", "arm_art/hand_open", "arm_art/torso",
                               "arm_art/upper_arm"]
    for name, (x, y, w, h) in regions.items():
        picture = read_rgba(PACKAGED / "dressed_arm" / f"{name}.png")
        assert np.array_equal(page[y:y + h, x:x + w], picture), name


def test_report_by_name_measures_the_cracks_from_the_pictures(tmp_path, capsys):
    assert main(["report", "dressed_arm"]) == 0
    by_name = capsys.readouterr().out
    assert main(["report", str(_copy("dressed_arm", tmp_path))]) == 0
    by_file = capsys.readouterr().out
    cracks = [line for line in by_name.splitlines() if line.startswith("crack ")]
    assert cracks and cracks == [line for line in by_file.splitlines() if line.startswith("crack ")]
