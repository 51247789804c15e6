"""File > Import Spine…: the skeleton opens as a new project; what it drops is said once."""
from __future__ import annotations

import copy
import json

from fakes import window_with_dialogs as _window

from tests.io.spine_rigs import LEG, write_rig


def test_file_import_spine_opens_the_skeleton_and_lists_what_it_dropped(qtbot, tmp_path):
    doc_json = copy.deepcopy(LEG)
    doc_json["ik"][0]["skin"] = True
    doc_json["skins"][0]["ik"] = ["leg"]  # a skin constraint in the default skin: acting always, listed
    src = write_rig(tmp_path / "spine", doc_json)
    out = tmp_path / "leg.rigproj"
    w, doc, dialogs = _window(qtbot, tmp_path, open_file=str(src), save_file=str(out))
    w.import_spine_action.trigger()
    assert dialogs.asked("error") == []
    assert doc.path == out
    assert [b.name for b in doc.project.bones] == ["hip", "thigh", "shin"]
    assert [c.name for c in doc.project.chains] == ["leg"]
    ((title, message),) = dialogs.asked("info")
    assert title == "Imported with warnings" and "skin constraints in the default skin (acting always)" in message
    assert (tmp_path / "leg_images" / "thigh.png").is_file()


def test_a_bad_skeleton_is_one_message_and_the_document_stays(qtbot, tmp_path):
    bad = tmp_path / "old.json"
    bad.write_text(json.dumps({"skeleton": {"spine": "3.8.99"}, "bones": [{"name": "root"}]}))
    w, doc, dialogs = _window(qtbot, tmp_path, open_file=str(bad), save_file=str(tmp_path / "x.rigproj"))
    before = doc.project
    w.import_spine_action.trigger()
    ((title, message),) = dialogs.asked("error")
    assert title == "Cannot import Spine skeleton"
    assert "skeleton.spine: version 3.8 is not supported (4.0\u20134.2)" in message
    assert doc.project is before and not (tmp_path / "x.rigproj").exists()


def _skinned_window(qtbot, tmp_path):
    from tests.io.test_import_spine_skins import _skinned_doc

    src = write_rig(tmp_path / "spine", _skinned_doc())
    out = tmp_path / "leg.rigproj"
    w, doc, dialogs = _window(qtbot, tmp_path, open_file=str(src), save_file=str(out))
    w.import_spine_action.trigger()
    return w, doc


def _thigh_width(doc):
    """Width of the thigh slot's shown picture in the editor's bake (world units)."""
    art = doc.bake.art
    col = art.column("thigh")
    c = art.corners[doc.row, col]
    return round(float(((c[2] - c[1]) ** 2).sum() ** 0.5), 6)


def test_the_skins_menu_switches_and_combines_skins_one_undo_step_each(qtbot, tmp_path):
    w, doc = _skinned_window(qtbot, tmp_path)
    menu = w.skins.menu
    menu.aboutToShow.emit()
    labels = [a.text() for a in menu.actions() if not a.isSeparator()]
    assert labels == ["Default skin only", "red", "blue"] and menu.isEnabled()
    default_width = _thigh_width(doc)
    red = next(a for a in menu.actions() if a.text() == "red")
    red.trigger()
    assert doc.project.art.active_skins == ("red",) and _thigh_width(doc) == 24.0
    menu.aboutToShow.emit()  # reopened: built again from the project
    next(a for a in menu.actions() if a.text() == "blue").trigger()
    assert doc.project.art.active_skins == ("red", "blue") and _thigh_width(doc) == 30.0
    doc.undo_stack.undo()
    assert doc.project.art.active_skins == ("red",) and _thigh_width(doc) == 24.0
    menu.aboutToShow.emit()
    next(a for a in menu.actions() if a.text() == "Default skin only").trigger()
    assert doc.project.art.active_skins == () and _thigh_width(doc) == default_width
