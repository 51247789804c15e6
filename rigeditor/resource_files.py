"""Where the shipped resources are: ``resource("examples", "arm.rigproj")``.

The top-level ``resources/`` folder of the source tree is installed as the package
``rigeditor.resources`` (pyproject.toml maps it), so an installed wheel, an editable
install and the PyInstaller bundle all find it through importlib.resources. A source
tree put on the path without being installed has no such package; then the folder
beside ``rigeditor/`` is used.
"""
from __future__ import annotations

from importlib.resources import files
from pathlib import Path

SOURCE_RESOURCES = Path(__file__).resolve().parents[1] / "resources"
"""The resources folder of the source tree this module belongs to (may not exist when installed)."""


def resource(*parts: str):
    """The shipped file or folder at ``parts`` (an importlib.resources Traversable)."""
    try:
        root = files("rigeditor.resources")
    except ModuleNotFoundError:  # a source tree on sys.path, never installed
        root = SOURCE_RESOURCES
    return root.joinpath(*parts)
