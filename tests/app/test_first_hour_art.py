"""The first hour with one's own art (pytest-qt, offscreen): File > Import PSD opens
in Setup mode, framed, with a hint on rigging the pictures that keeps off them; F and
Shift+F frame pictures as they frame bones; the save question starts beside the PSD."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from windows import make_window, settle
from rigeditor.app.scene.layers import PAINT_ERRORS
from rigeditor.model.data.project import Project


@pytest.fixture(autouse=True)
def _no_paint_errors():
    del PAINT_ERRORS[:]
    yield
    assert not PAINT_ERRORS, PAINT_ERRORS[0]


def device_box(view, pts) -> QRectF:
    """Viewport box of model points, mapped by the view's own transform."""
    t = view.viewportTransform()
    mapped = [t.map(QPointF(float(x), float(y))) for x, y in np.asarray(pts).reshape(-1, 2)]
    xs, ys = [p.x() for p in mapped], [p.y() for p in mapped]
    return QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def art_box(view, slots=None) -> QRectF:
    """Where the pictures (all, or those of ``slots``) are at the current frame."""
    art, doc = view.doc.bake.art, view.doc
    cols = [k for k in art.drawn(doc.row) if slots is None or art.slots[k] in slots]
    return device_box(view, art.corners[doc.row, cols])


def painted_hint(view) -> QRectF | None:
    view.viewport().grab()  # a paint: the card is placed where it is drawn
    return view.hint_rect


def imported(qtbot, tmp_path):
    from rigeditor.examples.art_files import write_dressed_example

    write_dressed_example(tmp_path / "art")  # paints the layers and writes arm_art.psd
    psd = tmp_path / "art" / "arm_art.psd"
    w, doc, dialogs = make_window(qtbot, tmp_path, open_file=str(psd), save_file=str(tmp_path / "art" / "hero.rigproj"))
    (tmp_path / "elsewhere").mkdir()
    w.settings.setValue("lastDir", str(tmp_path / "elsewhere"))  # the last project was saved elsewhere
    w.import_psd_action.trigger()
    settle()
    assert dialogs.asked("error") == []
    return w, doc, dialogs, psd


def test_an_imported_psd_opens_in_setup_mode_its_save_question_beside_the_psd(qtbot, tmp_path):
    w, doc, dialogs, psd = imported(qtbot, tmp_path)
    ((_title, start, _filters),) = dialogs.asked("save_file")
    assert Path(start) == psd.parent / "arm_art.rigproj"
    assert doc.path == psd.parent / "hero.rigproj" and doc.project.bones == ()
    assert doc.mode == "setup" and w.mode_status.text().strip() == "SETUP"


def test_the_hint_over_imported_art_says_how_to_rig_it_and_covers_none_of_it(qtbot, tmp_path):
    w, doc, _, _ = imported(qtbot, tmp_path)
    view = w.scene
    vp = QRectF(view.viewport().rect())
    text = view.hint_text()
    assert "Import" not in text and "New from Example" not in text  # the art is in: no talk of importing it
    assert "Inspector \u25b8 Bone" in text and w.rig.bone_tool_action.shortcut().toString() in text
    card, art = painted_hint(view), art_box(view)
    assert card is not None and vp.contains(card) and vp.contains(art)
    assert not card.intersects(art)
    w.grab().save(str(tmp_path / "imported_psd.png"))
    # Zoomed out and panned away, F brings the pictures back, whole, large and clear of the card.
    view.zoom_by(0.2)
    view.pan_by(-700, 400)
    settle()
    assert not vp.contains(art_box(view))
    view.setFocus()
    QTest.keyClick(view, Qt.Key_F)
    settle()
    card, art = painted_hint(view), art_box(view)
    assert vp.contains(art) and not card.intersects(art)
    free = vp.adjusted(0, card.bottom(), 0, 0)
    assert max(art.width() / free.width(), art.height() / free.height()) > 0.7
    # Shift+F frames the selected picture: the hand, centred in the room the card
    # leaves, grows (a selection is shown at a quarter of everything or larger, as bones are).
    small = art_box(view, {"hand_open"})
    doc.select([("slot", "hand_open")])
    QTest.keyClick(view, Qt.Key_F, Qt.ShiftModifier)
    settle()
    hand, card = art_box(view, {"hand_open"}), painted_hint(view)
    assert vp.contains(hand) and not card.intersects(hand)
    assert hand.width() > 1.5 * small.width()
    assert abs(hand.center().x() - free.center().x()) < 2
    assert abs(hand.center().y() - free.center().y()) < 0.05 * free.height()
    # A project without pictures keeps the hint about starting from art.
    w.new_action.trigger()
    settle()
    assert "Import PSD" in view.hint_text() and painted_hint(view) is not None


def test_the_hint_goes_with_the_first_bone_drawn_over_the_art(qtbot, tmp_path):
    w, doc, _, _ = imported(qtbot, tmp_path)
    view = w.scene
    assert painted_hint(view) is not None
    w.rig.bone_tool_action.trigger()
    art = art_box(view, {"upper_arm"})
    a, b = QPoint(round(art.left() + 10), round(art.center().y())), QPoint(round(art.right() - 10), round(art.center().y()))
    QTest.mousePress(view.viewport(), Qt.LeftButton, Qt.NoModifier, a)
    for k in range(1, 7):
        QTest.mouseMove(view.viewport(), a + (b - a) * k / 6)
    QTest.mouseRelease(view.viewport(), Qt.LeftButton, Qt.NoModifier, b)
    settle()
    assert len(doc.project.bones) == 1
    assert view.hint_text() is None and painted_hint(view) is None
    doc.undo_stack.undo()
    settle()
    assert painted_hint(view) is not None


@pytest.mark.parametrize("kind, name", [("spine", "hero.spine.json"), ("csv", "hero.csv"), ("png", "hero.png")])
def test_after_an_export_the_status_bar_names_every_file_written(qtbot, tmp_path, kind, name):
    from rigeditor.io import load_project
    from rigeditor.examples.art_files import example_project

    source = example_project("dressed_arm")  # pictures beside it: Spine writes an atlas and its pages too
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("the user's own file")  # there before: not the export's
    w, doc, dialogs = make_window(qtbot, tmp_path, load_project(source), save_file=str(out / name))
    assert w.files.load(source)
    w.export_actions[kind].trigger()
    assert dialogs.asked("error") == []
    written = sorted(p.name for p in out.iterdir() if p.name != "notes.txt")
    assert name in written and (len(written) > 2 if kind == "spine" else written == [name])
    message = w.statusBar().currentMessage()
    assert str(out) in message and "notes.txt" not in message
    assert all(n in message for n in written), (written, message)
    # Exported again over the same files: they are written again, and said again.
    w.statusBar().clearMessage()
    assert w.files.export(kind, out / name)
    assert all(n in w.statusBar().currentMessage() for n in written)


def test_f_frames_the_imported_art_wherever_the_focus_is_after_the_dialogs(qtbot, tmp_path):
    w, doc, _, _ = imported(qtbot, tmp_path)
    view = w.scene
    vp = QRectF(view.viewport().rect())
    view.zoom_by(0.2)
    view.pan_by(-700, 400)
    settle()
    assert not vp.contains(art_box(view))
    # No bones yet, and the keyboard is in the outliner (where a file dialog may leave it).
    assert doc.project.bones == ()
    w.outliner.setFocus()
    settle()
    assert not view.hasFocus()
    QTest.keyClick(QApplication.focusWidget() or w, Qt.Key_F)
    settle()
    assert vp.contains(art_box(view))
