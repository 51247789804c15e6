"""The outliner lists a bone chain deeper than Python's recursion limit (it built its
tree recursively: a 2,000-bone chain raised RecursionError in the editor)."""
from __future__ import annotations

import sys

from rigeditor.app.document import Document
from rigeditor.app.outliner import Outliner
from rigeditor.model.data.project import Bone, Project, Space

from fakes import FakeDialogs


def test_a_chain_deeper_than_the_recursion_limit_is_listed_parent_above_child(qtbot):
    n = sys.getrecursionlimit() + 500
    bones = tuple(Bone(f"b{i}", f"b{i - 1}" if i else None, 1.0, (1.0 if i else 0.0, 0.0)) for i in range(n))
    bones += (Bone("side", "b1", 1.0),)  # a second child: listed after b1's first child
    spaces = (Space("character"),) + tuple(Space(f"s{i}", f"s{i - 1}" if i else "world") for i in range(n))
    doc = Document(Project(bones=bones, spaces=spaces))
    outliner = Outliner(doc, dialogs=FakeDialogs())
    qtbot.addWidget(outliner)
    items = outliner._items
    deepest = items[("bone", f"b{n - 1}")]
    depth = 0
    while deepest.parent() is not None:
        deepest, depth = deepest.parent(), depth + 1
    assert depth == n  # under the "Bones" group, each bone under its parent
    b1 = items[("bone", "b1")]
    assert [b1.child(i).text(0) for i in range(b1.childCount())] == ["b2", "side"]
    assert items[("space", f"s{n - 1}")].parent() is items[("space", f"s{n - 2}")]
