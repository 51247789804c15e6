"""The built-in example projects as files: resources/examples/<name>.rigproj.

The files are built from ``rigeditor.model.examples.EXAMPLES`` by :func:`write_examples`
and committed; a test checks they equal what the code builds. At run time they are
found through importlib.resources (``rigeditor.resources``), so they work from an
installed package and the bundle too.
"""
from __future__ import annotations

from pathlib import Path

from rigeditor.io.errors import ProjectFileError
from rigeditor.io.project_file import EXTENSION, load_project, loads_project, save_project
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


def open_project(spec) -> Project:
    """The project named by a command-line argument: a project file, or, when no such
    file exists, an example by name (``arm``). Raises ProjectFileError saying which."""
    path = Path(spec)
    if not path.exists() and str(spec) in EXAMPLES:
        return load_example(str(spec))
    if not path.exists() and not path.suffix and path.name == str(spec):
        # A bare word that is neither a file nor an example: say what the examples are.
        raise ProjectFileError(spec, [f"open: no such file, and no example of that name "
                                      f"(examples: {', '.join(EXAMPLES)})"])
    return load_project(path)


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
