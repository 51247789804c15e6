"""The dope sheet's event row: a marker per event key with a tooltip of its values;
dragging a marker retimes it in one undo step; the menu adds and deletes keys."""
from __future__ import annotations

import numpy as np
import pytest

from rigeditor import edits
from rigeditor.app.document import Document
from rigeditor.app.timeline import TimelineWidget
from rigeditor.app.timeline.events_row import tooltip
from rigeditor.examples.rigs import walk

from tests.app.test_timeline import drag


def _walk_with_events():
    p = edits.add_event(walk(), "step", int_value=1, audio="sfx/step.wav", volume=0.8)
    p = edits.add_event(p, "shout", string="hey")
    p = edits.add_event_key(p, 8, "step")
    p = edits.add_event_key(p, 20, "step", volume=0.5, balance=-0.25)
    return edits.add_event_key(p, 30, "shout", float_value=2.5)


@pytest.fixture
def timeline(qtbot):
    doc = Document(_walk_with_events())
    w = TimelineWidget(doc)
    qtbot.addWidget(w)
    w.resize(1000, 300)
    w.show()
    qtbot.waitExposed(w)
    yield w
    doc.undo_stack.clear()


def _shown(w):
    x, _ = w.event_row.markers.getData()
    return x.tolist()


def test_each_event_key_is_a_marker_with_its_values_in_a_tooltip(timeline):
    assert _shown(timeline) == [8.0, 20.0, 30.0]
    p = timeline.doc.project
    # A key's volume defaults to 1, not the definition's 0.8 (as Spine plays it).
    assert tooltip(p, 0) == "step at frame 8\nint 1   float 0\naudio sfx/step.wav   volume 1   balance 0"
    assert tooltip(p, 1).endswith("volume 0.5   balance -0.25")
    assert tooltip(p, 2) == 'shout at frame 30\nint 0   float 2.5\nstring "hey"'
    # The marker's hover tooltip is that text.
    assert timeline.event_row._tip(30.0, 0.0, 2) == tooltip(p, 2)


def test_dragging_a_marker_retimes_the_key_in_one_undo_step(timeline, qtbot):
    w = timeline
    view = w.plot.viewport()
    start = w._to_viewport(w.event_row.view, 20, 0)
    end = w._to_viewport(w.event_row.view, 26, 0)
    steps = w.doc.undo_stack.count()
    drag(view, start, end)
    assert _shown(w) == [8.0, 26.0, 30.0]
    assert [k.frame for k in w.doc.project.events.keys] == [8.0, 26.0, 30.0]
    assert w.doc.project.events.keys[1].volume == 0.5  # the key keeps its values
    assert w.doc.undo_stack.count() == steps + 1
    w.doc.undo_stack.undo()
    assert _shown(w) == [8.0, 20.0, 30.0]


def test_the_menu_adds_and_deletes_event_keys(timeline):
    w = timeline
    menu = w.event_row.menu(12.2)
    add = menu.actions()[0].menu()
    assert [a.text() for a in add.actions()] == ["step", "shout"]
    add.actions()[1].trigger()
    assert [(k.frame, k.name) for k in w.doc.project.events.keys] == [(8.0, "step"), (12.0, "shout"),
                                                                      (20.0, "step"), (30.0, "shout")]
    delete = [a for a in w.event_row.menu(30.0).actions() if a.text().startswith("Delete")]
    assert [a.text() for a in delete] == ["Delete Event Key 'shout'"]
    delete[0].trigger()
    assert _shown(w) == [8.0, 12.0, 20.0]
    w.doc.undo_stack.undo()
    w.doc.undo_stack.undo()
    assert _shown(w) == [8.0, 20.0, 30.0]


def test_the_events_row_follows_the_open_animation(timeline):
    w = timeline
    p = edits.add_animation(w.doc.project, "idle")
    w.doc.apply("Add idle", p)
    w.doc.apply("Open idle", edits.switch_animation(w.doc.project, "idle"))
    assert _shown(w) == []
    w.doc.apply("Open it again", edits.switch_animation(w.doc.project, "animation"))
    assert _shown(w) == [8.0, 20.0, 30.0]


def test_a_pose_edit_leaves_the_markers_be_and_a_dropped_preview_shows_the_keys_again(timeline):
    from rigeditor.edits.posing import set_target_key

    w = timeline
    data = w.event_row.markers.data
    w.doc.apply("Move target", set_target_key(w.doc.project, "foot_l", 10, (5.0, 5.0)), touched={"target:foot_l"})
    assert w.event_row.markers.data is data  # the same keys: the row is not set (and repainted) again
    assert _shown(w) == [8.0, 20.0, 30.0]
    w.event_row.preview(1, 24)  # a marker dragged to 24...
    assert _shown(w) == [8.0, 24.0, 30.0]
    w.event_row.refresh()  # ...and dropped without an edit
    assert _shown(w) == [8.0, 20.0, 30.0]
