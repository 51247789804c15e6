"""The arrows point one way: app -> edits -> model -> core, io and cli beside app; nothing
outside app/ imports Qt or pyqtgraph, so the edits are a scripting API without a window."""
import ast
from pathlib import Path

from import_graph import import_graph

PACKAGE = Path(__file__).resolve().parents[1] / "rigeditor"
QT_FREE = [PACKAGE / "core", PACKAGE / "model", PACKAGE / "edits", PACKAGE / "io", PACKAGE / "examples",
           PACKAGE / "cli"]
FORBIDDEN = {"PySide6", "shiboken6", "pyqtgraph"}


def _imported_roots(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.lineno, node.module.split(".")[0]


def _python_files():
    for root in QT_FREE:
        yield from ([root] if root.is_file() else sorted(root.rglob("*.py")))


def test_qt_free_packages_do_not_import_qt():
    offenders = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: imports {name}"
        for path in _python_files()
        for line, name in _imported_roots(path)
        if name in FORBIDDEN
    ]
    assert not offenders, "\n".join(offenders)


def test_the_check_sees_an_import(tmp_path):
    # Guards the guard: the scanner must flag a real Qt import.
    sample = tmp_path / "m.py"
    sample.write_text("def f():\n    from PySide6 import QtCore\n", encoding="utf-8")
    assert ("PySide6" in {name for _, name in _imported_roots(sample)})


def test_there_are_qt_free_files_to_check():
    assert len(list(_python_files())) >= 4


def test_edits_are_among_the_checked_files():
    checked = {p.relative_to(PACKAGE).parts[0] for p in _python_files()}
    assert {"core", "model", "edits", "io", "examples", "cli"} <= checked


# Which rigeditor packages each layer may import besides itself (top-level modules such
# as resource_files are free). The model is data and evaluation: it cannot know who
# edits it (edits), how it is stored (io) or shown (app). The edits build on the model
# (and read a picture through io to mesh it); io reads and writes the model and runs no
# edit itself, only the examples it writes are built from edits.
MAY_IMPORT = {
    "core": set(),
    "model": {"core"},
    "edits": {"core", "model", "io"},
    "examples": {"core", "model", "edits", "io"},
    "io": {"core", "model", "examples"},
}

LAYERS = set(MAY_IMPORT) | {"app", "cli"}


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_layers_import_only_the_layers_below():
    graph = import_graph()
    offenders = [
        f"{module} imports {dep}"
        for module, deps in sorted(graph.items()) if _layer(module) in MAY_IMPORT
        for dep in sorted(deps)
        if _layer(dep) != _layer(module) and _layer(dep) in LAYERS
        and _layer(dep) not in MAY_IMPORT[_layer(module)]
    ]
    assert not offenders, "\n".join(offenders)


def test_the_app_and_the_command_line_use_the_edits():
    graph = import_graph()
    users = {m for m, deps in graph.items() if any(_layer(d) == "edits" for d in deps)}
    assert any(_layer(m) == "app" for m in users)
    assert "rigeditor.cli" in users
