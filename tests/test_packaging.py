"""The desktop integration files agree with the code: the .desktop entry, the
shared-mime-info XML, the icons. No bundle is built here (`make package-test` does that)."""
from __future__ import annotations

import ast
import configparser
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rigeditor.io.project_file import EXTENSION
from rigeditor.resource_files import resource

REPO = Path(__file__).resolve().parents[1]
PACKAGING = REPO / "packaging"
MIME_NS = "{http://www.freedesktop.org/standards/shared-mime-info}"
MIME_TYPE = "application/x-rigeditor-project"


def _desktop_entry() -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys are case-sensitive
    parser.read_string((PACKAGING / "rigeditor.desktop").read_text(encoding="utf-8"))
    assert parser.sections()[0] == "Desktop Entry", "the first group must be [Desktop Entry]"
    return dict(parser["Desktop Entry"])


def _mime_types() -> dict[str, list[str]]:
    root = ET.parse(PACKAGING / "rigeditor-mime.xml").getroot()
    assert root.tag == f"{MIME_NS}mime-info"
    return {t.get("type"): [g.get("pattern") for g in t.iter(f"{MIME_NS}glob")]
            for t in root.iter(f"{MIME_NS}mime-type")}


def _list(value: str) -> list[str]:
    assert value.endswith(";"), f"a desktop-entry list must end with ';': {value!r}"
    return value[:-1].split(";")


def test_desktop_entry_has_the_required_keys():
    entry = _desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Name"] == "RigEditor"
    assert entry["Exec"] == "rigeditor %F"
    assert entry["Icon"] == "rigeditor"
    assert _list(entry["Categories"]) == ["Graphics", "2DGraphics"]
    assert _list(entry["MimeType"]) == [MIME_TYPE]


def test_mime_xml_globs_the_project_extension():
    types = _mime_types()
    assert list(types) == [MIME_TYPE]
    assert types[MIME_TYPE] == [f"*{EXTENSION}"]


def test_desktop_entry_and_mime_xml_name_the_same_type():
    assert set(_list(_desktop_entry()["MimeType"])) == set(_mime_types())


def test_app_desktop_file_name_matches_the_desktop_file():
    # QGuiApplication.setDesktopFileName("rigeditor") <-> packaging/rigeditor.desktop
    tree = ast.parse((REPO / "rigeditor" / "app" / "main.py").read_text(encoding="utf-8"))
    names = [node.args[0].value for node in ast.walk(tree)
             if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "setDesktopFileName"
             and node.args and isinstance(node.args[0], ast.Constant)]
    assert names == [(PACKAGING / "rigeditor.desktop").stem]


def test_svg_icon_is_a_256_square_svg():
    root = ET.fromstring(resource("icons", "rigeditor.svg").read_bytes())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("viewBox", "").split() == ["0", "0", "256", "256"]


def test_png_icon_is_256_by_256():
    data = resource("icons", "rigeditor.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (256, 256)


def test_spec_bundles_the_resources_and_metadata():
    spec = (PACKAGING / "rigeditor.spec").read_text(encoding="utf-8")
    assert 'RESOURCES = ROOT / "resources"' in spec
    assert 'Path("rigeditor", "resources"' in spec  # where importlib.resources looks in the bundle
    assert 'copy_metadata("rigeditor")' in spec
    for unwanted in ("QtWebEngineCore", "QtQuick", "QtQml", "Qt3DCore", "QtMultimedia"):
        assert f'"{unwanted}"' in spec, f"the spec should exclude PySide6.{unwanted}"


def _spec_excludes() -> list[str]:
    tree = ast.parse((PACKAGING / "rigeditor.spec").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "PY_EXCLUDES":
            return [elt.value for elt in node.value.elts]
    raise AssertionError("the spec has no PY_EXCLUDES list")


def test_meshing_and_pictures_load_nothing_the_spec_leaves_out():
    # The bundle leaves out scipy's and Pillow's parts this path never loaded; if the code
    # (or a new scipy) starts loading one, the bundled editor's Make Mesh would fail.
    excluded = [m for m in _spec_excludes() if m.split(".")[0] in ("scipy", "PIL")]
    assert "scipy.optimize" in excluded  # the list is read, not empty
    script = (
        "import sys\n"
        "from rigeditor.examples.files import example_file\n"
        "from rigeditor.io.art.images import encode_png, read_rgba\n"
        "from rigeditor.examples.skin import SKIN_DIR, skinned_arm\n"
        "rgba = read_rgba(example_file('skinned_arm').parent / SKIN_DIR / 'arm.png')\n"
        "mesh = skinned_arm(rgba[..., 3] / 255.0).art.slot('arm').find('arm')\n"
        "assert len(mesh.triangles) and encode_png(rgba)[:4] == b'\\x89PNG'\n"
        "print('\\n'.join(sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=REPO, check=True)
    loaded = set(done.stdout.split())
    assert "scipy.spatial" in loaded and "scipy.sparse.linalg" in loaded
    assert not [m for m in excluded if m in loaded]
