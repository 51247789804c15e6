"""Project files in a temporary folder for the command-line tests."""
from __future__ import annotations

import json

import pytest

from rigeditor.io import dumps_project
from rigeditor.examples.rigs import EXAMPLES


@pytest.fixture
def project_file(tmp_path):
    """project_file(name, mutate=None, end=None) -> path of example ``name`` saved in
    tmp_path, after ``mutate(doc)`` changed its JSON data (to make it invalid, say);
    ``end``: its timeline made that long (frames on the command line lie within it)."""
    def make(name="arm", mutate=None, end=None):
        doc = json.loads(dumps_project(EXAMPLES[name]()))
        if end is not None:
            doc["timeline"]["end"] = end
            for animation in doc.get("animations", ()):
                animation["end"] = end
        if mutate:
            mutate(doc)
        path = tmp_path / f"{name}.rigproj"
        path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
        return path
    return make
