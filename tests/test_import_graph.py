"""No import circles among rigeditor's modules (what counts as an import: tests/import_graph.py)."""
from __future__ import annotations

from pathlib import Path

from import_graph import circles, import_graph


def _describe(graph, component) -> str:
    inside = set(component)
    return "; ".join(f"{m} -> {', '.join(sorted(graph[m] & inside))}" for m in component)


def test_no_import_circles():
    graph = import_graph()
    found = circles(graph)
    assert not found, "import circles:\n" + "\n".join(_describe(graph, c) for c in found)


def test_the_graph_is_read():
    graph = import_graph()
    assert len(graph) > 150
    assert "rigeditor.model.evaluation.evaluate" in graph["rigeditor.model"]
    assert "rigeditor.edits.bones" in graph["rigeditor.edits"]


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_the_check_finds_a_circle_through_a_function_level_import(tmp_path):
    package = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg.b import g\n",
        "pkg/b.py": "def g():\n    from pkg import c\n",
        "pkg/c.py": "import pkg.a as a\n",
        "pkg/d.py": "from pkg.a import *\n",
    })
    graph = import_graph(package)
    assert circles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]


def test_a_package_reexporting_its_modules_is_not_a_circle(tmp_path):
    package = _write(tmp_path, {
        "pkg/__init__.py": "from pkg.a import f\nfrom pkg.b import g\n",
        "pkg/a.py": "def f():\n    pass\n",
        "pkg/b.py": "from pkg.a import f\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/c.py": "from ..a import f\nfrom . import d\n",
        "pkg/sub/d.py": "",
    })
    graph = import_graph(package)
    assert graph["pkg.sub.c"] == {"pkg.a", "pkg.sub.d"}
    assert circles(graph) == []
    # ...but a module importing its package's __init__, which imports it back, is one.
    (package / "a.py").write_text("from pkg import g\n", encoding="utf-8")
    assert circles(import_graph(package)) == [["pkg", "pkg.a", "pkg.b"]]
