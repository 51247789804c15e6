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


def test_spine_stretch_is_one_undo_step_per_toggle_and_scales_the_bone(qtbot):
    project, name = _aimed()
    target = project.chain(name).target
    # The target twice as far from the head's origin as its tip: stretch doubles it.
    head = project.bone("head")
    from rigeditor.model.evaluation.evaluate import evaluate
    import numpy as np
    bake0 = evaluate(project, np.array([0.0]))
    b = bake0.bone("head")
    far = b.joint[0] + 2 * (b.tip[0] - b.joint[0])  # world; the target is declared in character space
    local = bake0.spaces["character"].take(0).inverse().apply(far[None])[0]
    project = edits.set_value(project, ("target", target, "position"), 0, tuple(map(float, local)), key=False)
    doc = Document(project)
    w = Inspector(doc, FakeDialogs())
    qtbot.addWidget(w)
    doc.select([("chain", name)])
    assert not w.field(f"chain.{name}.spine_scale.uniform").isEnabled()  # nothing to scale uniformly yet
    steps = doc.undo_stack.count()
    w.field(f"chain.{name}.spine_scale.stretch").setChecked(True)
    assert doc.project.chain(name).spine_scale == ("stretch",) and doc.undo_stack.count() == steps + 1
    bake = doc.settled_bake().bone("head")
    assert np.hypot(*(bake.tip[0] - bake.joint[0])) == pytest.approx(2 * head.length, rel=1e-9)
    w.field(f"chain.{name}.spine_scale.uniform").setChecked(True)
    assert doc.project.chain(name).spine_scale == ("stretch", "uniform") and doc.undo_stack.count() == steps + 2
    doc.undo_stack.undo()
    doc.undo_stack.undo()
    assert doc.project.chain(name).spine_scale == ()
    assert not w.field(f"chain.{name}.spine_scale.stretch").isChecked()  # the box follows undo
