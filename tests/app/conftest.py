"""The suite imports test modules by path (--import-mode=importlib), so helper
modules beside the tests (fakes) are made importable here."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))


import pytest  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def compiled_mesh_raster():
    """Every test draws big meshes by the compiled rasteriser (numba is a test
    dependency), not by whichever path is ready: its loading waits here, once.
    ``qt_mesh_path`` draws them by the Qt path instead (test_draw_mesh holds it)."""
    from rigeditor.app.mesh_raster import compiled_raster

    return compiled_raster(wait=True)


@pytest.fixture(scope="session", autouse=True)
def compiled_tint():
    """The same for the slot colour's kernel: every picture is tinted by it, loaded once
    here (test_tint_kernel holds the numpy path to the same bytes)."""
    from rigeditor.app.blend import compiled_tint

    return compiled_tint(wait=True)


@pytest.fixture
def qt_mesh_path(monkeypatch):
    """Meshes drawn by the Qt path alone (the fallback without numba)."""
    from rigeditor.app import mesh_raster

    monkeypatch.setattr(mesh_raster, "compiled_raster", lambda wait=False: None)
