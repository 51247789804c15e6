"""The README and docs/ point at things that exist: links, source paths, modules, and
the README opens with the two commands."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def _text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def test_the_readme_opens_with_the_two_commands():
    text = _text(REPO / "README.md")
    first_block = re.search(r"```\n(.*?)```", text, re.S).group(1)
    assert [line.split("#")[0].strip() for line in first_block.splitlines()] == ["make run", "make test"]
    assert len(text.splitlines()) <= 80, "the README is read in a minute; the rest goes to docs/"


def test_every_relative_link_resolves():
    broken = []
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", _text(page)):
            if "://" not in target and not (page.parent / target).exists():
                broken.append(f"{page.relative_to(REPO)}: {target}")
    assert not broken, "\n".join(broken)


def _names_something(dotted: str) -> bool:
    """``dotted`` is a module, or a module's attribute (``rigeditor.examples.files.write_examples``)."""
    names = dotted.split(".")
    module = None
    for n in range(1, len(names) + 1):
        try:
            found = importlib.util.find_spec(".".join(names[:n]))
        except ModuleNotFoundError:  # the prefix is a module, not a package
            found = None
        if found is None:
            break
        module = n
    if module == len(names):
        return True
    obj = importlib.import_module(".".join(names[:module]))
    for attr in names[module:]:
        if not hasattr(obj, attr):
            return False
        obj = getattr(obj, attr)
    return True


def test_every_source_path_and_module_named_exists():
    missing = []
    for page in PAGES:
        text = _text(page)
        for path in re.findall(r"\brigeditor/[\w/]+\.py\b", text):
            if not (REPO / path).exists():
                missing.append(f"{page.relative_to(REPO)}: {path}")
        for dotted in re.findall(r"`(?:python -m )?(rigeditor(?:\.[a-z_]+)+)", text):
            if not _names_something(dotted):
                missing.append(f"{page.relative_to(REPO)}: {dotted}")
    assert not missing, "\n".join(missing)
