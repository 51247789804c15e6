"""The editor keeps the cycle collector off what it holds for good (app/collector)."""
from __future__ import annotations

import gc
import sys
import weakref

import pytest

from rigeditor.app import collector
from rigeditor.app.document import Document
from rigeditor.examples.rigs import arm, walk


@pytest.fixture
def thawed():
    """Every test leaves the process as it found it: nothing frozen, the default switch."""
    interval = sys.getswitchinterval()
    yield
    gc.unfreeze()
    sys.setswitchinterval(interval)


class _Cycle:
    def __init__(self):
        self.me = self


def test_after_settling_a_full_collection_walks_only_what_was_made_since(thawed):
    held = [[i] for i in range(20_000)]  # long-lived, as a project's model is
    collector.settle()
    walked = len(gc.get_objects())  # what a full collection would walk now
    assert walked < 5_000 < len(held)
    assert gc.get_freeze_count() >= len(held)
    made = [[i] for i in range(3_000)]
    assert len(gc.get_objects()) >= walked + len(made)


def test_a_closed_projects_cycles_are_freed_when_the_next_one_settles(thawed):
    gone = _Cycle()
    ref = weakref.ref(gone)
    collector.settle()  # the cycle is held for good now, and frozen
    del gone
    gc.collect()
    assert ref() is not None  # frozen: no collection reaches it, as promised
    collector.settle()  # the next opening
    assert ref() is None


def test_the_editor_settles_after_each_opening(qtbot, thawed):
    scheduled = []
    doc = Document(arm())
    collector.follow(doc, scheduled.append)
    assert scheduled == [collector.settle]  # once the first project is shown
    assert sys.getswitchinterval() == pytest.approx(collector.SWITCH_INTERVAL_S)
    doc.replace_document(walk(), None)
    assert scheduled == [collector.settle] * 2
    before = gc.get_freeze_count()
    for fn in scheduled:
        fn()
    assert gc.get_freeze_count() > before
