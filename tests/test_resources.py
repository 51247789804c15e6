"""The shipped resources (example projects, icons) live in the top-level resources/
folder and install as the package ``rigeditor.resources``: the editable install, a built
wheel and a source tree that was never installed all find every one of them."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import types
import zipfile
from importlib.resources import files
from pathlib import Path

import pytest

try:
    import tomllib
except ImportError:  # Python 3.10: pip carries the same parser
    from pip._vendor import tomli as tomllib

from rigeditor.examples.files import load_example
from rigeditor.examples.rigs import EXAMPLES

DRESSED = ("dressed_arm", "dressed_walk")  # examples with pictures, each in its own folder
SEAMS = ("rigid_arm", "skinned_arm")  # the elbow drawn as two rigid layers and as one skinned mesh

REPO = Path(__file__).resolve().parents[1]
RESOURCES = REPO / "resources"
SHIPPED = sorted(p.relative_to(RESOURCES).as_posix() for p in RESOURCES.rglob("*")
                 if p.is_file() and p.suffix != ".py" and "__pycache__" not in p.parts)


def test_the_resources_folder_holds_every_example_and_both_icons():
    assert not (REPO / "rigeditor" / "resources").exists(), "resources belong in the top-level folder"
    rigs = {f"examples/{n}.rigproj" for n in EXAMPLES}
    dressed = {f"examples/{n}/{n}.rigproj" for n in DRESSED + SEAMS}
    pictures = {p for p in SHIPPED if p.startswith(tuple(f"examples/{n}/" for n in DRESSED + SEAMS))
                and p.endswith(".png")}
    assert {p for p in SHIPPED if p.startswith("examples/")} == rigs | dressed | pictures
    assert all(len([p for p in pictures if p.startswith(f"examples/{n}/")]) >= 4 for n in DRESSED)
    assert all(len([p for p in pictures if p.startswith(f"examples/{n}/")]) >= 1 for n in SEAMS)
    assert {"icons/rigeditor.png", "icons/rigeditor.svg"} <= set(SHIPPED)


@pytest.mark.parametrize("name", SHIPPED)
def test_the_installed_package_finds_each_resource(name):
    # The editable install maps rigeditor.resources to the repository's resources/.
    found = files("rigeditor.resources").joinpath(*name.split("/"))
    assert found.read_bytes() == (RESOURCES / name).read_bytes()


@pytest.mark.parametrize("installed", [None, types.ModuleType("rigeditor.resources")],
                         ids=["not installed", "a stray namespace folder"])
def test_a_source_tree_that_was_never_installed_finds_them_beside_the_package(installed, monkeypatch):
    from rigeditor.resource_files import resource

    # None: the import fails. A module without __file__: a namespace package, not ours.
    monkeypatch.setitem(sys.modules, "rigeditor.resources", installed)
    assert resource("examples", "walk.rigproj").read_bytes() == (RESOURCES / "examples" / "walk.rigproj").read_bytes()


def test_the_package_list_names_every_package_of_the_source_tree():
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    source = {".".join(p.parent.relative_to(REPO).parts) for p in (REPO / "rigeditor").rglob("__init__.py")}
    data = {"rigeditor.resources"} | {f"rigeditor.resources.{d.name}" for d in RESOURCES.iterdir()
                                      if d.is_dir() and d.name != "__pycache__"}
    assert set(config["packages"]) == source | data
    assert config["package-dir"] == {"rigeditor.resources": "resources"}


def _build_wheel(out: Path) -> Path:
    """Build the wheel from a copy of the sources (the build leaves nothing in the repository)."""
    src = out / "src"
    src.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, src / name)
    for name in ("rigeditor", "resources"):
        shutil.copytree(REPO / name, src / name, ignore=ignore)
    # The build backend comes from the package registry (or pip's cache), as in any install.
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir",
                           str(out / "dist"), str(src)], check=True, capture_output=True, text=True, timeout=600)
    # A clean configuration builds without a word from setuptools (no deprecated license
    # table, no data folder taken for an unlisted package): what `make test` shows first.
    assert "Warning" not in done.stdout + done.stderr, done.stdout + done.stderr
    (wheel,) = (out / "dist").glob("rigeditor-*.whl")
    return wheel


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    return _build_wheel(tmp_path_factory.mktemp("wheel"))


def test_the_wheel_carries_every_resource_and_every_module(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        for name in SHIPPED:
            assert z.read(f"rigeditor/resources/{name}") == (RESOURCES / name).read_bytes(), name
    modules = {p.relative_to(REPO).as_posix() for p in (REPO / "rigeditor").rglob("*.py")}
    assert modules <= names, f"missing from the wheel: {sorted(modules - names)}"


def test_the_installed_wheel_opens_every_example(wheel):
    # A pure-Python wheel imports straight from the zip: run from it, not from the repository.
    code = ("import rigeditor, sys\n"
            "from rigeditor.examples.files import load_example\n"
            "from rigeditor.examples.rigs import EXAMPLES\n"
            "print(rigeditor.__file__)\n"
            "for name in EXAMPLES: print(name, len(load_example(name).bones))\n")
    env = dict(os.environ, PYTHONPATH=str(wheel))
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=wheel.parent, check=True,
                         capture_output=True, text=True, timeout=120).stdout.splitlines()
    assert out[0].startswith(str(wheel)), out[0]
    assert out[1:] == [f"{name} {len(load_example(name).bones)}" for name in EXAMPLES]


def test_the_installed_wheel_opens_a_dressed_example_with_its_pictures(wheel, tmp_path):
    # Imported from the zip: the pictures are found (extracted), as the editor and the
    # commands find them, and read as the repository's files.
    code = ("import sys\n"
            "from rigeditor.examples.files import resolve_project\n"
            "from rigeditor.io.art.images import image_problems, image_file\n"
            "for name in sys.argv[1:]:\n"
            "    project, folder = resolve_project(name)\n"
            "    print(name, len(project.art.slots), image_problems(project, folder))\n"
            "    for s in project.art.slots:\n"
            "        for a in s.attachments: print(a.path, image_file(folder, a.path).read_bytes().hex())\n")
    env = dict(os.environ, PYTHONPATH=str(wheel))
    out = subprocess.run([sys.executable, "-c", code, *DRESSED], env=env, cwd=tmp_path, check=True,
                         capture_output=True, text=True, timeout=120).stdout.splitlines()
    for name in DRESSED:
        project = load_example(name)
        (line,) = [row for row in out if row.startswith(f"{name} ")]
        assert line == f"{name} {len(project.art.slots)} []"
        for s in project.art.slots:
            for a in s.attachments:
                assert f"{a.path} {(RESOURCES / 'examples' / name / a.path).read_bytes().hex()}" in out
