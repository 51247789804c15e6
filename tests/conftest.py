"""Shared fixtures: the reference text's boundary cases are test data inside the
repository (tests/data/two_bone_cases.json); tests never read outside it."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# CI explores the same examples on every run (a landing must not hinge on a new
# random draw); developers' runs keep exploring fresh ones.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

REPO = Path(__file__).resolve().parents[1]
# numba's compiled chain loops are cached inside the repository (build/, ignored),
# never in the user's cache folder: tests read nothing from outside.
os.environ["NUMBA_CACHE_DIR"] = str(REPO / "build" / "numba-cache")
sys.path.insert(0, str(Path(__file__).parent))  # helpers shared by the test folders (bezier_reference)


@pytest.fixture(scope="session")
def two_bone_cases():
    return json.loads((REPO / "tests" / "data" / "two_bone_cases.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session", autouse=True)
def compiled_chain_loop():
    """Every test solves iterative chains by the compiled loop (numba is a test
    dependency), not by whichever loop is ready: its loading waits here, once.
    test_chains_jit holds the Python loop to the same results."""
    from rigeditor.core.chains import compiled_loop

    return compiled_loop(wait=True)


@pytest.fixture(scope="session", autouse=True)
def compiled_physics_loop():
    """The same for the physics stepping: its compiled loop, loaded once here."""
    from rigeditor.model.evaluation.constraints.physics_jit import compiled_run

    return compiled_run(wait=True)


@pytest.fixture(params=["compiled", "python"])
def both_physics_loops(request, monkeypatch):
    """Runs a test by the compiled physics stepping and again by the Python loop
    (``pytestmark = pytest.mark.usefixtures("both_physics_loops")``): the two agree."""
    from rigeditor.model.evaluation.constraints import physics, physics_jit

    if request.param == "python":
        monkeypatch.setattr(physics_jit, "compiled_run", lambda wait=False: None)
    else:
        assert physics_jit.compiled_run(wait=True) is not None, "numba is a test dependency"
    physics._histories.clear()  # no states remembered from the other loop
    yield request.param
    physics._histories.clear()
