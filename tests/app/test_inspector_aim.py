"""The inspector for a one-bone (aim) chain: its solver, its mix (one undo step) and
no settings it has no use for (bend, softness, limits)."""
from __future__ import annotations

import pytest

from fakes import FakeDialogs
from rigeditor import edits
from rigeditor.app.document import Document
from rigeditor.app.inspector import Inspector
from rigeditor.examples.rigs import walk


def _aimed():
    project, name = edits.add_chain(walk(), ("head",), "character", 0)
    return project, name


def test_an_aim_chain_shows_its_solver_and_mix_and_a_mix_edit_is_one_undo_step(qtbot):
    project, name = _aimed()
    doc = Document(project)
    w = Inspector(doc, FakeDialogs())
    qtbot.addWidget(w)
    w.resize(360, 700)
    doc.select([("chain", name)])
    combo = w.field(f"chain.{name}.solver")
    assert combo.currentData() == "aim" and combo.count() == 1
    shown = set(w.field_names())
    assert f"chain.{name}.mix" in shown
    assert not {f"chain.{name}.{absent}" for absent in ("softness", "soft_reach", "limit0.min")} & shown
    steps = doc.undo_stack.count()
    w.field(f"chain.{name}.mix").setValue(0.25)
    assert doc.undo_stack.count() == steps + 1
    assert doc.project.chain(name).mix.default == pytest.approx((0.25,))
    doc.undo_stack.undo()
    assert doc.project.chain(name).mix.default == pytest.approx((1.0,))
