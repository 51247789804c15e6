"""The arrows point one way: nothing below app/ may import Qt or pyqtgraph."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "rigeditor"
QT_FREE = [PACKAGE / "core", PACKAGE / "model", PACKAGE / "io", PACKAGE / "cli.py"]
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
