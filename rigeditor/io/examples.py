"""The built-in example projects as files: resources/examples/<name>.rigproj.

The files are built from ``rigeditor.model.examples.EXAMPLES`` by :func:`write_examples`
and committed; a test checks they equal what the code builds. At run time they are
found through importlib.resources (``rigeditor.resources``), so they work from an
installed package and the bundle too.
"""
from __future__ import annotations

from pathlib import Path

from rigeditor.io.project_file import EXTENSION, loads_project, save_project
from rigeditor.model.examples import EXAMPLES
from rigeditor.model.project import Project
from rigeditor.resource_files import SOURCE_RESOURCES, resource


def example_file(name: str):
    """The packaged file of example ``name`` (an importlib.resources Traversable)."""
    if name not in EXAMPLES:
        raise KeyError(f"no example named {name!r} (examples: {', '.join(EXAMPLES)})")
    return resource("examples", f"{name}{EXTENSION}")


def load_example(name: str) -> Project:
    """Example ``name`` as loaded from its packaged file."""
    return loads_project(example_file(name).read_bytes(), f"examples/{name}{EXTENSION}")


def write_examples(folder=None) -> list[Path]:
    """Save every example to ``folder`` (default: the source tree's resources/examples)."""
    folder = Path(folder) if folder else SOURCE_RESOURCES / "examples"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, build in EXAMPLES.items():
        path = folder / f"{name}{EXTENSION}"
        save_project(build(), path)
        written.append(path)
    return written
