"""Hostile numbers and nesting in JSON input are refused where they are, never an
"internal error": a 400-digit integer in a v1/v3 project (OverflowError in the
migrations), a 5,000-digit number or a huge mesh index in a Spine skeleton, Spine
JSON or a layout.json nested thousands deep (RecursionError)."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rigeditor.io.schema.project import SCHEMA_VERSION

from rigeditor.cli import main
from rigeditor.io import ProjectFileError, load_project
from rigeditor.io.art.png_folder import import_images
from rigeditor.io.art.layers import ImportError_
from rigeditor.io.spine.skeleton import SpineError, parse_spine
from tests.io.test_import_spine_fuzz import DOC

FIXTURES = Path(__file__).parent / "fixtures"
BIG = "7" * 400


def _with_literal(text: str, old: str, literal: str) -> str:
    """``text`` with the first ``old`` replaced by a raw JSON literal."""
    assert old in text
    return text.replace(old, literal, 1)


@pytest.mark.parametrize("fixture, old, where", [
    ("v1_reach.rigproj", '"default": [10, 20]', "spaces[0].position.default[0]"),
    ("v1_reach.rigproj", '"fps": 30', "timeline.fps"),
    ("v3_auto_handles.rigproj", '"value": 0.0', None),
])
def test_a_400_digit_integer_in_an_older_file_is_refused_where_it_is(tmp_path, capsys, fixture, old, where):
    text = (FIXTURES / fixture).read_text()
    literal = "[" + BIG + ", 20]" if old.startswith('"default"') else BIG
    key = old.split(":")[0]
    path = tmp_path / fixture
    path.write_text(_with_literal(text, old, f"{key}: {literal}"))
    if where is None:  # the first key of the first channel: find where independently
        where = _first_key_path(json.loads(path.read_text(), parse_int=str))
    with pytest.raises(ProjectFileError) as err:
        load_project(path)
    assert err.value.problems == [f"{where}: the number 777777777777... (400 digits) is too large "
                                  "(integers must be below 2^53)"]
    assert main(["validate", str(path)]) == 2
    assert capsys.readouterr().err == f"rigeditor: {path}: {err.value.problems[0]}\n"


def test_a_400_digit_integer_in_a_current_file_is_worded_by_the_schema(tmp_path, capsys):
    path = tmp_path / "current.rigproj"  # the current schema: no migration reads it first
    text = (FIXTURES / "v5_reach.rigproj").read_text().replace('"schema_version": 5', f'"schema_version": {SCHEMA_VERSION}')
    path.write_text(_with_literal(text, '"end": 30', '"end": ' + BIG))
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"rigeditor: {path}: timeline.end: must be a frame number within +/-10,000,000, got 777")
    assert len(err.splitlines()) == 1


def _first_key_path(doc, where=""):
    """Where the 400-digit literal (parsed as a string) is in ``doc``."""
    if isinstance(doc, dict):
        items = doc.items()
    elif isinstance(doc, list):
        items = ((f"[{i}]", v) for i, v in enumerate(doc))
    else:
        return where if doc == BIG else None
    for k, v in items:
        found = _first_key_path(v, f"{where}{k}" if k.startswith("[") else (f"{where}.{k}" if where else k))
        if found:
            return found
    return None


def test_a_project_nested_thousands_deep_is_refused(tmp_path, capsys):
    text = (FIXTURES / "v4_reach.rigproj").read_text()
    path = tmp_path / "deep.rigproj"
    path.write_text(_with_literal(text, '"name": "reach"', '"name": ' + "[" * 5000 + "]" * 5000))
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"rigeditor: {path}: ") and "internal error" not in err and len(err.splitlines()) == 1


def _spine_text(mutate):
    doc = copy.deepcopy(DOC)
    return mutate(doc) or json.dumps(doc)


@pytest.mark.parametrize("edit, says", [
    (lambda d: json.dumps(d).replace('"length": ', '"length": ' + "9" * 5000 + ", \"x_\": ", 1),
     "bones[2].length: the number 999999999999... (5000 digits) is too large"),
    (lambda d: d["skins"][0]["attachments"]["shin"]["mesh"]["triangles"].__setitem__(1, 10 ** 30),
     "skins[0].attachments.shin.mesh.triangles[1]: the number 100000000000... (31 digits) is too large"),
    (lambda d: d["skins"][0]["attachments"]["shin"]["mesh"].__setitem__("hull", -(2 ** 63)),
     "skins[0].attachments.shin.mesh.hull: the number -9223372036854775808 is too large"),
    (lambda d: json.dumps(d).replace('"animations": ', '"animations_": ' + "[" * 100_000 + "]" * 100_000
                                     + ', "animations": ', 1),
     "JSON: nested deeper than 64 levels of objects and lists"),
    (lambda d: d.__setitem__("extra", json.loads("[" * 200 + "]" * 200)),
     "extra" + "[0]" * 63 + ": nested deeper than 64 levels of objects and lists"),
])
def test_hostile_numbers_and_nesting_in_a_spine_skeleton_are_refused_where_they_are(tmp_path, capsys, edit, says):
    text = _spine_text(edit)
    with pytest.raises(SpineError) as err:
        parse_spine(text)
    assert err.value.problems[0].startswith(says)
    path = tmp_path / "leg.json"
    path.write_text(text)
    assert main(["import-spine", str(path), "-o", str(tmp_path / "leg.rigproj")]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err and says in err and not (tmp_path / "leg.rigproj").exists()


def test_a_layout_json_nested_thousands_deep_is_refused(tmp_path):
    folder = tmp_path / "art"
    folder.mkdir()
    (folder / "layout.json").write_text('{"layers": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(ImportError_) as err:
        import_images(folder, tmp_path / "p.rigproj")
    assert err.value.problems == ["file: not valid JSON (nested deeper than 64 levels of objects and lists)"]
    (folder / "layout.json").write_text('{"layers": [{"file": "a.png", "x": ' + "1" * 5000 + ', "y": 0}]}')
    with pytest.raises(ImportError_) as err:
        import_images(folder, tmp_path / "p.rigproj")
    assert err.value.problems[0].startswith("layers[0].x: the number 111111111111... (5000 digits) is too large")


# ---- pictures that declare more pixels than anything should read

def _bomb(path, w=20000, h=20000):
    """A PNG whose header declares w x h RGBA pixels; its data is a few zero rows (855 bytes)."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    z = zlib.compressobj(9)
    rows = b"".join(z.compress(b"\0" * (w * 4 + 1)) for _ in range(10)) + z.flush()
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                     + chunk(b"IDAT", rows) + chunk(b"IEND", b""))


def _dressed_with_a_bomb(tmp_path):
    from rigeditor.io import save_project
    from rigeditor.examples.files import example_folder
    from rigeditor.examples.art import dressed_arm

    project = dressed_arm()
    source = example_folder("dressed_arm")
    for slot in project.art.slots:
        for a in slot.attachments:
            (tmp_path / a.path).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / a.path).write_bytes((source / a.path).read_bytes())
    bomb = project.art.slots[0].attachments[0].path
    _bomb(tmp_path / bomb)
    save_project(project, tmp_path / "dressed.rigproj")
    return tmp_path / "dressed.rigproj", bomb


def test_a_picture_declaring_20000_by_20000_pixels_is_refused_by_validate_and_bake(tmp_path, capfd):
    path, bomb = _dressed_with_a_bomb(tmp_path)
    says = "image: 20000 x 20000 pixels is more than RigEditor reads (at most 67,108,864 pixels, 8192 x 8192)"
    assert main(["validate", str(path)]) == 1  # the project is valid; one of its pictures cannot be read
    out, err = capfd.readouterr()
    assert err == f"rigeditor: {path}: slots[0].attachments[0].path: {bomb}: {says}\n"
    assert main(["bake", str(path), "-o", str(tmp_path / "sp.json"), "--format", "spine"]) == 2
    out, err = capfd.readouterr()
    assert says in err and "internal error" not in err and "Warning" not in err
    assert not (tmp_path / "sp.json").exists()


def test_a_psd_layer_of_20000_by_20000_pixels_is_refused_before_it_is_decoded(tmp_path, monkeypatch):
    import psd_tools

    from rigeditor.io.art.psd import import_psd

    class Layer:  # what psd-tools reports of a layer before decoding it
        name, visible, opacity, kind, left, top, width, height = "sky", True, 255, "pixel", 0, 0, 20000, 20000

        def is_group(self):
            return False

        def topil(self):
            raise AssertionError("decoded: 1.6 GB, Pillow's DecompressionBombError")

    class Document(list):
        width = height = 20000

    monkeypatch.setattr(psd_tools.PSDImage, "open", staticmethod(lambda path: Document([Layer()])))
    psd = tmp_path / "art.psd"
    psd.write_bytes(b"8BPS\x00\x01" + b"\x00" * 64)  # a PSD by its first bytes; psd-tools is stood in for
    with pytest.raises(ImportError_) as err:
        import_psd(psd, tmp_path / "art.rigproj")
    assert err.value.problems == ["layer 'sky': 20000 x 20000 pixels is more than RigEditor reads "
                                  "(at most 67,108,864 pixels, 8192 x 8192)"]
    assert sorted(tmp_path.iterdir()) == [psd]
