"""Shared fixtures: the shared boundary cases are loaded from the product's case
folder (never copied), found beside the repository or through RIGEDITOR_CASES."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import settings

# CI explores the same examples on every run (a landing must not hinge on a new
# random draw); developers' runs keep exploring fresh ones.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

REPO = Path(__file__).resolve().parents[1]


def cases_dir() -> Path:
    env = os.environ.get("RIGEDITOR_CASES")
    candidates = [Path(env)] if env else []
    candidates += [REPO.parent / "shared" / "cases", REPO / "shared" / "cases"]
    for c in candidates:
        if (c / "two_bone_cases.json").is_file():
            return c
    raise FileNotFoundError(
        "two_bone_cases.json not found; set RIGEDITOR_CASES to the shared cases folder "
        f"(looked in {', '.join(map(str, candidates))})"
    )


@pytest.fixture(scope="session")
def two_bone_cases():
    return json.loads((cases_dir() / "two_bone_cases.json").read_text(encoding="utf-8"))
