"""Keys between frames in the dope sheet: drawn where they are, dragged onto frames."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from rigeditor.app.document import Document
from rigeditor.app.timeline import TimelineWidget
from rigeditor.examples.rigs import walk
from rigeditor.model.data.timeline import Key

from tests.app.test_timeline import FOOT, drag, row_of


@pytest.fixture
def timeline(qtbot):
    project = walk()
    foot = project.target("foot_l")
    keys = list(foot.position.keys)  # frames 0, 8, 14, 20, 48
    keys[3] = replace(keys[3], frame=20.4)  # an imported key between frames 20 and 21
    project = project.with_target("foot_l", position=replace(foot.position, keys=tuple(keys)))
    doc = Document(project)
    w = TimelineWidget(doc)
    qtbot.addWidget(w)
    w.resize(1000, 300)
    w.show()
    qtbot.waitExposed(w)
    yield w
    doc.undo_stack.clear()


def test_a_key_between_frames_is_drawn_where_it_is(timeline):
    x, y = timeline._keys.getData()
    row = row_of(timeline, FOOT)
    on_row = sorted(float(f) for f, r in zip(x, y) if round(r) == row)
    assert on_row == [0.0, 8.0, 14.0, 20.4, 48.0]


def test_dragging_a_key_between_frames_lands_it_on_a_frame(timeline):
    doc = timeline.doc
    value = {k.frame: k.value for k in doc.project.target("foot_l").position.keys}[20.4]
    vp = timeline.plot.viewport()
    row = row_of(timeline, FOOT)
    drag(vp, timeline.key_point(FOOT, 20.4), timeline._to_viewport(timeline.track_view, 26.4, row), steps=10)
    keys = {k.frame: k.value for k in doc.project.target("foot_l").position.keys}
    # Moved by six frames and snapped: 26.4 -> 26, the value kept.
    assert sorted(keys) == [0, 8, 14, 26, 48] and keys[26] == value
    assert timeline.selected_keys() == {FOOT: (26.0,)}
    assert doc.undo_stack.count() == 1
    doc.undo_stack.undo()
    assert 20.4 in {k.frame for k in doc.project.target("foot_l").position.keys}
