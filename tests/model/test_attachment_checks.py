"""An attachment's own checks are remembered per attachment (a project stores many
animations sharing them, and the file's check opens each): what is wrong is still
named at every place the attachment is, and a fixed attachment is checked afresh."""
from __future__ import annotations

from dataclasses import replace

from rigeditor.model.data.attachments import Art, ImageAttachment, Slot
from rigeditor.model.validation.art import art_problems


def test_a_shared_bad_attachment_is_named_where_each_use_is():
    bad = ImageAttachment(name="cape", path="cape.png", width=-4.0, height=10.0)
    art = Art(slots=(Slot("front", None, (bad,)), Slot("back", None, (bad,))))
    for _ in range(2):  # (the second time from what was remembered)
        found = [p for p in art_problems(art, frozenset()) if ".width" in p]
        assert found == ["slots[0].attachments[0].width: must be a finite number of pixels > 0, got -4.0",
                         "slots[1].attachments[0].width: must be a finite number of pixels > 0, got -4.0"]
    fixed = replace(bad, width=4.0)
    assert art_problems(Art(slots=(Slot("front", None, (fixed,)),)), frozenset()) == []


def test_a_mesh_is_checked_against_the_bones_there_are():
    from rigeditor.model.data.mesh_attachment import MeshAttachment

    mesh = MeshAttachment(name="m", path="m.png", width=10.0, height=10.0,
                          vertices=[[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]], uvs=[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]],
                          triangles=[[0, 1, 2]], bones=("arm",), indices=[[0], [0], [0]], weights=[[1.0]] * 3)
    art = Art(slots=(Slot("s", "arm", (mesh,)),))
    assert not any("unknown bone" in p for p in art_problems(art, frozenset({"arm"})))
    assert any("unknown bone" in p for p in art_problems(art, frozenset({"leg"})))  # (not the remembered answer)
