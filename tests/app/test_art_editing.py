"""Editing the art from the outliner and the inspector: every change one undo step."""
from __future__ import annotations

import math

import numpy as np
import pytest

from rigeditor import edits
from rigeditor.app.document import Document
from rigeditor.app.inspector import Inspector
from rigeditor.app.outliner import Outliner
from rigeditor.io import load_project
from rigeditor.examples.art_files import example_project

EXAMPLE = example_project("dressed_arm")
_ALIVE = []


def _widgets(qtbot, mode="setup", frame=0):
    doc = Document(load_project(EXAMPLE), EXAMPLE)
    doc.set_mode(mode)
    doc.set_frame(frame)
    outliner, inspector = Outliner(doc), Inspector(doc)
    for w in (outliner, inspector):
        qtbot.addWidget(w)
    _ALIVE.append((doc, outliner, inspector))
    return doc, outliner, inspector


def test_the_outliner_lists_slots_front_first_and_selects_them(qtbot):
    doc, outliner, _ = _widgets(qtbot)
    group = outliner.group("slot")
    assert [group.child(i).text(0) for i in range(group.childCount())] == ["hand", "forearm", "upper_arm", "torso"]
    outliner.item_for("slot", "forearm").setSelected(True)
    assert doc.selection == (("slot", "forearm"),)


def test_the_inspector_moves_rotates_and_scales_the_picture_undoably(qtbot):
    doc, _, inspector = _widgets(qtbot)
    doc.select([("slot", "forearm")])
    before = doc.bake.art.corners.copy()
    inspector.field("slot.forearm.offset.x").edited.emit(70.0)
    inspector.field("slot.forearm.rotation").edited.emit(math.radians(10.0))
    inspector.field("slot.forearm.scale.y").edited.emit(1.5)
    a = doc.project.art.slot("forearm").find("forearm")
    assert (a.x, a.rotation, a.scale) == (70.0, pytest.approx(math.radians(10.0)), (1.0, 1.5))
    assert not np.allclose(doc.bake.art.corners, before)  # the Bake follows
    for _ in range(3):
        doc.undo_stack.undo()
    np.testing.assert_array_equal(doc.bake.art.corners, before)


def test_animate_mode_keys_the_attachment_stepped(qtbot):
    doc, _, inspector = _widgets(qtbot, mode="animate", frame=6)
    doc.select([("slot", "hand")])
    combo = inspector.field("slot.hand.attachment")
    combo.setCurrentIndex(combo.findData("hand_fist"))
    track = doc.project.art.slot("hand").attachment
    assert (6, "hand_fist") in track.keys
    s = doc.bake.art.column("hand")
    fist = [a.name for a in doc.project.art.slot("hand").attachments].index("hand_fist")
    assert doc.bake.art.attachment[doc.bake.index(6), s] == fist
    assert doc.bake.art.attachment[doc.bake.index(5), s] != fist


def test_binding_keeps_the_picture_on_screen(qtbot):
    doc, _, inspector = _widgets(qtbot, mode="setup", frame=20)
    doc.select([("slot", "hand")])
    row = doc.row
    s = doc.bake.art.column("hand")
    before = doc.bake.art.corners[row, s].copy()
    combo = inspector.field("slot.hand.bone")
    combo.setCurrentIndex(combo.findData("upper_arm"))
    assert doc.project.art.slot("hand").bone == "upper_arm"
    np.testing.assert_allclose(doc.bake.art.corners[row, s], before, atol=1e-9)


def test_deleting_a_bone_keeps_its_pictures_in_place_on_the_bone_above():
    project = load_project(EXAMPLE)
    from rigeditor.model import evaluate
    from dataclasses import replace

    rest = lambda p: evaluate(replace(p, chains=(), targets=()), [0])  # noqa: E731 - the setup pose
    before = rest(project).art.corners[0]
    gone = edits.delete_bone(project, "forearm", with_chains=True)
    assert [s.bone for s in gone.art.slots] == [None, "upper_arm", "upper_arm", "upper_arm"]
    np.testing.assert_allclose(rest(gone).art.corners[0], before, atol=1e-9)
    renamed = edits.rename(project, "bone", "forearm", "lower_arm")
    assert [s.bone for s in renamed.art.slots] == [None, "upper_arm", "lower_arm", "lower_arm"]


def _window(qtbot, tmp_path, **answers):
    from fakes import window_with_dialogs

    return window_with_dialogs(qtbot, tmp_path, **answers)


def test_file_import_psd_opens_the_layers_as_a_new_project(qtbot, tmp_path):
    from rigeditor.examples.art_files import write_dressed_example

    write_dressed_example(tmp_path / "art")  # paints the layers and writes arm_art.psd
    out = tmp_path / "hero.rigproj"
    w, doc, dialogs = _window(qtbot, tmp_path, open_file=str(tmp_path / "art" / "arm_art.psd"),
                              save_file=str(out))
    w.import_psd_action.trigger()
    assert dialogs.asked("error") == []
    assert doc.path == out
    # The hidden fist layer stays out; the others keep the document's order.
    assert [s.name for s in doc.project.art.slots] == ["torso", "upper_arm", "forearm", "hand_open"]
    assert (tmp_path / "hero_art" / "torso.png").is_file()


def test_import_psd_asks_before_replacing_the_pictures_of_an_existing_art_folder(qtbot, tmp_path):
    from rigeditor.examples.art_files import write_dressed_example

    write_dressed_example(tmp_path / "art")
    kept = tmp_path / "hero_art" / "torso.png"  # pictures the user painted over after an earlier import
    kept.parent.mkdir()
    kept.write_bytes(b"the user's own torso")
    out = tmp_path / "hero.rigproj"  # a new project file: the save dialog had nothing to ask
    w, doc, dialogs = _window(qtbot, tmp_path, open_file=str(tmp_path / "art" / "arm_art.psd"),
                              save_file=str(out), confirm=[False, True])
    before = doc.project
    w.import_psd_action.trigger()
    ((title, message),) = dialogs.asked("confirm")
    assert str(kept.parent) in message
    assert kept.read_bytes() == b"the user's own torso" and not out.exists()
    assert doc.project is before
    w.import_psd_action.trigger()  # the user agrees: the layers replace the pictures
    assert doc.path == out and kept.read_bytes()[:4] == b"\x89PNG"


def test_a_broken_psd_is_one_message_and_the_document_stays(qtbot, tmp_path):
    bad = tmp_path / "bad.psd"
    bad.write_bytes(b"8BPS broken")
    w, doc, dialogs = _window(qtbot, tmp_path, open_file=str(bad), save_file=str(tmp_path / "x.rigproj"))
    before = doc.project
    w.import_psd_action.trigger()
    ((title, message),) = dialogs.asked("error")
    assert title == "Cannot import PSD" and "not a readable PSD file" in message
    assert doc.project is before and not (tmp_path / "x.rigproj").exists()


def test_the_timeline_lists_the_attachment_track_and_retimes_its_keys():
    from rigeditor.edits import tracks
    from rigeditor.model import evaluate

    project = load_project(EXAMPLE)
    (track,) = [t for t in tracks.keyed_tracks(project) if t.path[0] == "slot"]
    assert (track.label, track.path, track.frames, track.stepped) == (
        "hand · attachment", ("slot", "hand", "attachment"), (24, 40), True)
    later = tracks.move_keys(project, {track.path: [24]}, 4)
    assert later.art.slot("hand").attachment.keys == ((28, "hand_fist"), (40, "hand_open"))
    bake = evaluate(later)
    s, fist = bake.art.column("hand"), 1
    shown = bake.art.attachment[:, s]
    assert list(bake.frames[shown == fist]) == list(range(28, 40))
    keyed, paths = tracks.key_item(project, ("slot", "hand"), 30)
    assert paths == [("slot", "hand", "attachment")]
    assert (30, "hand_fist") in keyed.art.slot("hand").attachment.keys


def test_draw_order_buttons_restack_the_setup_order_or_key_it(qtbot):
    doc, _, inspector = _widgets(qtbot, mode="setup", frame=10)
    doc.select([("slot", "torso")])
    inspector.field("slot.torso.front").click()
    assert [s.name for s in doc.project.art.slots] == ["upper_arm", "torso", "forearm", "hand"]
    doc.set_mode("animate")
    inspector.field("slot.torso.front").click()
    assert doc.project.art.draw_order[0].frame == 10
    drawn = [doc.bake.art.slots[s] for s in doc.bake.art.drawn(doc.row)]
    assert drawn == ["upper_arm", "forearm", "torso", "hand"]
    before = [doc.bake.art.slots[s] for s in doc.bake.art.drawn(doc.bake.index(9))]
    assert before == ["upper_arm", "torso", "forearm", "hand"]  # the key starts at frame 10
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert [s.name for s in doc.project.art.slots] == ["torso", "upper_arm", "forearm", "hand"]


def test_the_editors_spine_export_packs_the_atlas_beside_the_json(qtbot, tmp_path):
    w, doc, dialogs = _window(qtbot, tmp_path)
    w.files.load(EXAMPLE)
    out = tmp_path / "out" / "arm.spine.json"
    out.parent.mkdir()
    assert w.files.export("spine", out)
    assert sorted(p.name for p in out.parent.iterdir()) == ["arm.spine.atlas", "arm.spine.json", "arm.spine.png"]
    assert dialogs.asked("error") == []


def test_the_editors_spine_export_holds_every_animation_as_the_command_line_does(qtbot, tmp_path):
    import json

    from rigeditor.cli import main
    from rigeditor.io import save_project
    from rigeditor.model.data import clips
    from rigeditor.edits import animations
    from rigeditor.examples.rigs import walk

    path = tmp_path / "walk.rigproj"
    save_project(animations.add(walk(), "idle", 0, 24), path)
    w, doc, dialogs = _window(qtbot, tmp_path)
    w.files.load(path)
    assert clips.names(doc.project) == ["animation", "idle"] and doc.project.animation == "animation"
    assert w.files.export("spine", tmp_path / "editor.json")
    assert main(["bake", str(path), "-o", str(tmp_path / "cli.json"), "--format", "spine"]) == 0
    editor, cli = (json.loads((tmp_path / n).read_text()) for n in ("editor.json", "cli.json"))
    assert sorted(editor["animations"]) == ["animation", "idle"]
    assert editor == cli


def test_delete_removes_a_slot_from_the_project_and_its_draw_order_keys(qtbot, tmp_path):
    w, doc, dialogs = _window(qtbot, tmp_path)
    w.files.load(EXAMPLE)
    doc.select([("slot", "hand")])
    w.delete_action.trigger()
    assert dialogs.asked("error") == []
    assert [s.name for s in doc.project.art.slots] == ["torso", "upper_arm", "forearm"]
    assert all("hand" not in k.order for k in doc.project.art.draw_order)
    assert (EXAMPLE.parent / "arm_art" / "hand_fist.png").is_file()
    doc.undo_stack.undo()
    assert [s.name for s in doc.project.art.slots] == ["torso", "upper_arm", "forearm", "hand"]


def _png_folder(folder, sizes, layout=None):
    """PNGs of ``sizes`` {name: (w, h)} (each a flat colour) and an optional layout.json."""
    import json

    from rigeditor.io.art.images import encode_png

    folder.mkdir()
    for k, (name, (w, h)) in enumerate(sizes.items()):
        px = np.zeros((h, w, 4), np.uint8)
        px[...] = (40 * k, 200, 90, 255)
        (folder / f"{name}.png").write_bytes(encode_png(px))
    if layout is not None:
        (folder / "layout.json").write_text(json.dumps(layout), encoding="utf-8")
    return folder


def test_file_import_images_opens_a_folder_of_pngs_placed_by_its_layout(qtbot, tmp_path):
    from rigeditor.io.art.images import missing_images

    folder = _png_folder(tmp_path / "art", {"body": (60, 100), "arm": (80, 20)},
                         {"canvas": {"width": 300, "height": 200},
                          "layers": [{"file": "body.png", "x": 100, "y": 50},
                                     {"file": "arm.png", "x": 150, "y": 70, "name": "left_arm"}]})
    out = tmp_path / "hero.rigproj"
    w, doc, dialogs = _window(qtbot, tmp_path, open_folder=str(folder), save_file=str(tmp_path / "hero"))
    assert "Import Images…" in [a.text() for a in w.menuBar().actions()[0].menu().actions()]
    w.import_images_action.trigger()
    assert dialogs.asked("error") == [] and len(dialogs.asked("open_folder")) == 1
    assert doc.path == out and not doc.is_modified()  # ".rigproj" added to the name typed
    assert [s.name for s in doc.project.art.slots] == ["body", "left_arm"]  # back to front, as listed
    # Each picture's centre where the layout puts it (pixels, y flipped at the canvas height).
    for slot, (x, y, wd, ht) in (("body", (100, 50, 60, 100)), ("left_arm", (150, 70, 80, 20))):
        a = doc.project.art.slot(slot).attachments[0]
        assert a.centre() == pytest.approx((x + wd / 2, 200 - y - ht / 2))
    assert missing_images(doc.project, doc.images) == []
    assert doc.images == out.parent


def test_import_images_cancelled_or_broken_leaves_the_document(qtbot, tmp_path):
    w, doc, dialogs = _window(qtbot, tmp_path, open_folder=[None, str(tmp_path / "art")],
                              save_file=str(tmp_path / "x.rigproj"))
    before = doc.project
    w.import_images_action.trigger()  # the folder dialog cancelled: nothing asked after it
    assert dialogs.asked("save_file") == [] and doc.project is before
    folder = _png_folder(tmp_path / "art", {"body": (10, 10)})
    (folder / "arm.png").write_bytes(b"\x89PNG\r\n\x1a\n broken")
    w.import_images_action.trigger()
    ((title, message),) = dialogs.asked("error")
    assert title == "Cannot import images" and "arm.png" in message
    assert doc.project is before and not (tmp_path / "x.rigproj").exists()
