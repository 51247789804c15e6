"""Where the shipped resources are: ``resource("examples", "arm.rigproj")``.

The top-level ``resources/`` folder of the source tree is installed as the package
``rigeditor.resources`` (pyproject.toml maps it), so an installed wheel, an editable
install and the PyInstaller bundle all find it through importlib.resources. A source
tree put on the path without being installed has no such package (or only a stray
namespace folder of another checkout's install); then the folder beside ``rigeditor/``
is used.
"""
from __future__ import annotations

import importlib
from importlib.resources import files
from pathlib import Path

SOURCE_RESOURCES = Path(__file__).resolve().parents[1] / "resources"
"""The resources folder of the source tree this module belongs to (may not exist when installed)."""


def resource(*parts: str):
    """The shipped file or folder at ``parts`` (an importlib.resources Traversable)."""
    try:
        package = importlib.import_module("rigeditor.resources")
    except ModuleNotFoundError:
        package = None
    # Ours has an __init__.py; a namespace package of that name is some other folder.
    root = files(package) if getattr(package, "__file__", None) else SOURCE_RESOURCES
    for part in parts:  # one part at a time: namespace and zip readers take one
        root = root.joinpath(part)
    return root
