"""File > Open of a file with a 400-digit integer shows the io layer's refusal (it
printed an OverflowError traceback) and leaves the document as it was."""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from fakes import FakeDialogs
from rigeditor.app.document import Document
from rigeditor.app.files import FileController
from rigeditor.examples.rigs import arm

FIXTURE = Path(__file__).resolve().parents[1] / "io" / "fixtures" / "v1_reach.rigproj"


def test_opening_an_older_file_with_a_400_digit_integer_is_refused_where_it_is(qtbot, tmp_path):
    path = tmp_path / "big.rigproj"
    path.write_text(FIXTURE.read_text().replace('"fps": 30', '"fps": ' + "7" * 400, 1))
    doc = Document(arm())
    dialogs = FakeDialogs()
    files = FileController(doc, settings=QSettings(str(tmp_path / "s.ini"), QSettings.IniFormat),
                           dialogs=dialogs, data_dir=tmp_path / "data")
    assert files.load(path) is False
    (title, message), = dialogs.asked("error")
    assert title == "Cannot open project"
    assert message == f"{path}: timeline.fps: the number 777777777777... (400 digits) is too large " \
                      "(integers must be below 2^53)"
    assert doc.project == arm()
