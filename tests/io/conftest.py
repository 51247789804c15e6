"""Fixtures of the io tests: example documents as plain JSON data.

The suite imports test modules by path (--import-mode=importlib), so the helper
modules beside the tests (io_rigs, spine_rules) are made importable here.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from rigeditor.io import dumps_project
from rigeditor.examples.rigs import EXAMPLES

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def example_doc():
    """example_doc(name) -> the example's project file as a fresh JSON dict."""
    return lambda name: json.loads(dumps_project(EXAMPLES[name]()))
