"""The built-in example projects as files, found by name wherever a PROJECT is accepted.

The plain rigs are ``resources/examples/<name>.rigproj``; the dressed examples (rigs
with pictures) are folders, ``resources/examples/<name>/<name>.rigproj`` with their
PNGs beside the project file, the paths in the file relative to it. The files are
built by code (:func:`write_examples`, ``rigeditor.examples.art_files``) and committed; a
test checks they equal what the code builds. At run time they are found through
importlib.resources (``rigeditor.resources``), so they work from the source tree, an
installed package (even one imported from a zip) and the bundle too.
"""
from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

from rigeditor.io.errors import ProjectFileError
from rigeditor.io.project_file import EXTENSION, loads_project, read_project, save_project
from rigeditor.examples.rigs import DESCRIPTIONS, EXAMPLES
from rigeditor.model.data.project import Project
from rigeditor.resource_files import SOURCE_RESOURCES, resource

DRESSED = {
    "dressed_arm": "the arm in layered pictures: the hand closes into a fist and passes behind the torso",
    "dressed_walk": "the walk in clothes: a picture on every bone, the far leg drawn behind",
    "rigid_arm": "an elbow bending to 90 degrees drawn as two rigid layers: a crack opens",
    "skinned_arm": "the same elbow as one skinned mesh: no crack, no collapse up to 91 degrees",
}
"""The examples that carry pictures (each a folder of its name), with a line each."""

EXAMPLE_NAMES = (*EXAMPLES, *DRESSED)
"""Every example name, in the order menus and ``rigeditor examples`` list them."""

ALL_DESCRIPTIONS = {**DESCRIPTIONS, **DRESSED}
"""One line per example name."""


def _check(name: str) -> None:
    if name not in ALL_DESCRIPTIONS:
        raise KeyError(f"no example named {name!r} (examples: {', '.join(EXAMPLE_NAMES)})")


def example_file(name: str):
    """The packaged file of example ``name`` (an importlib.resources Traversable)."""
    _check(name)
    if name in DRESSED:
        return resource("examples", name, f"{name}{EXTENSION}")
    return resource("examples", f"{name}{EXTENSION}")


def load_example(name: str) -> Project:
    """Example ``name`` as loaded from its packaged file."""
    where = f"examples/{name}/{name}{EXTENSION}" if name in DRESSED else f"examples/{name}{EXTENSION}"
    return loads_project(example_file(name).read_bytes(), where)


_extracted: dict[str, Path] = {}


def example_folder(name: str) -> Path:
    """A folder on disk that example ``name``'s picture paths are relative to.

    The packaged folder itself when the resources are files (source tree, installs,
    the bundle); when they are inside a zip (a wheel on the path), a copy extracted
    once per process into a temporary folder that is removed at exit."""
    folder = example_file(name)
    folder = folder.parent if hasattr(folder, "parent") else None
    if isinstance(folder, Path) and folder.is_dir():
        return folder
    if name not in _extracted:
        tmp = Path(tempfile.mkdtemp(prefix=f"rigeditor-{name}-"))
        atexit.register(shutil.rmtree, tmp, ignore_errors=True)
        packaged = resource("examples", name) if name in DRESSED else resource("examples")
        _copy_tree(packaged, tmp, skip_files=name not in DRESSED)
        _extracted[name] = tmp
    return _extracted[name]


def _copy_tree(src, dst: Path, *, skip_files: bool = False) -> None:
    """Copy a Traversable folder to ``dst`` (``skip_files``: only the folder, for the
    plain rigs, which carry no pictures)."""
    dst.mkdir(parents=True, exist_ok=True)
    if skip_files:
        return
    for item in src.iterdir():
        if item.is_dir():
            _copy_tree(item, dst / item.name)
        elif item.is_file():
            (dst / item.name).write_bytes(item.read_bytes())


def example_name(spec) -> str | None:
    """The example a command-line PROJECT names: its name when it is an example's name
    and no file of that name exists (a folder of that name, such as a copy of a dressed
    example, is not a project file), else None."""
    text = str(spec)
    return text if text in ALL_DESCRIPTIONS and not Path(text).is_file() else None


def resolve_project(spec, notes: list | None = None) -> tuple[Project, Path]:
    """The project a command-line PROJECT names and the folder its picture paths are
    relative to: a project file (its folder), or, when no such file exists, an example
    by name (``arm``, ``dressed_walk``: its packaged folder). Raises ProjectFileError
    saying which. ``notes``: receives what migrating an older file changed."""
    name = example_name(spec)
    if name is not None:
        return load_example(name), example_folder(name)
    path = Path(spec)
    if not path.exists() and not path.suffix and path.name == str(spec):
        # A bare word that is neither a file nor an example: say what the examples are.
        raise ProjectFileError(spec, [f"open: no such file, and no example of that name "
                                      f"(examples: {', '.join(EXAMPLE_NAMES)})"])
    loaded = read_project(path)
    if notes is not None:
        notes += loaded.notes
    return loaded.project, path.resolve().parent


def open_project(spec) -> Project:
    """The project of :func:`resolve_project` without its folder."""
    return resolve_project(spec)[0]


def write_examples(folder=None) -> list[Path]:
    """Save every plain example to ``folder`` (default: the source tree's
    resources/examples); the dressed ones are written by ``rigeditor.examples.art_files``."""
    folder = Path(folder) if folder else SOURCE_RESOURCES / "examples"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, build in EXAMPLES.items():
        path = folder / f"{name}{EXTENSION}"
        save_project(build(), path)
        written.append(path)
    return written
