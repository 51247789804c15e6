"""The timeline's prompts (animation names, the time scale) go through the editor's
Dialogs: scripted here, refused names said to the user and changing nothing."""
from __future__ import annotations

from rigeditor.model.data import clips

from fakes import window_with_dialogs


def test_new_animation_asks_its_name_and_refuses_an_empty_or_taken_one(qtbot, tmp_path):
    w, doc, dialogs = window_with_dialogs(qtbot, tmp_path, text=["  ", "animation", "run"])
    bar = w.timeline.animations
    before = clips.names(doc.project)
    for _ in range(2):  # empty, then the name of the open animation
        bar.add_action.trigger()
    assert clips.names(doc.project) == before and doc.undo_stack.count() == 0
    errors = [m for _, m in dialogs.asked("error")]
    assert len(errors) == 2 and "needs a name" in errors[0] and "already an animation named 'animation'" in errors[1]
    bar.add_action.trigger()
    assert clips.names(doc.project) == before + ["run"] and doc.project.animation == "run"
    assert [a[0] for a in dialogs.asked("text")] == ["New animation"] * 3


def test_rename_and_duplicate_ask_and_refuse_an_empty_or_taken_name(qtbot, tmp_path):
    w, doc, dialogs = window_with_dialogs(qtbot, tmp_path, text=["walk", "animation", "", None])
    bar = w.timeline.animations
    bar.duplicate_action.trigger()  # the copy is called walk, and opens
    assert doc.project.animation == "walk" and doc.undo_stack.count() == 1
    bar.rename_action.trigger()  # walk -> animation: taken
    bar.rename_action.trigger()  # walk -> "": no name
    bar.duplicate_action.trigger()  # cancelled: no question of an error
    assert doc.undo_stack.count() == 1 and sorted(clips.names(doc.project)) == ["animation", "walk"]
    errors = [m for _, m in dialogs.asked("error")]
    assert len(errors) == 2 and "already an animation named 'animation'" in errors[0] and "needs a name" in errors[1]


def test_scale_keys_asks_the_factor_and_a_cancel_changes_nothing(qtbot, tmp_path):
    w, doc, dialogs = window_with_dialogs(qtbot, tmp_path, form=[None, {"factor": 2.0}])
    tl = w.timeline
    tracks = [t for t in tl._tracks if len(t.frames) > 1]
    track = tracks[0]
    tl._set_selection({(track.path, f) for f in track.frames})
    pivot = doc.frame
    tl.scale_action.trigger()
    assert doc.undo_stack.count() == 0
    tl.scale_action.trigger()
    frames = next(t.frames for t in tl._tracks if t.path == track.path)
    assert frames == tuple(round(pivot + (f - pivot) * 2.0) for f in track.frames)
