"""The scene-object (space) section: parent and animated transform."""
from __future__ import annotations

from PySide6.QtWidgets import QLabel

from rigeditor import edits
from rigeditor.app.inspector.fields import DEG
from rigeditor.model.data.project import CHARACTER


def space_section(f, name: str) -> None:
    doc = f.doc
    s = lambda: doc.shown_project.space(name)  # noqa: E731 - Setup mode: its setup values
    form = f.group(f"Scene object · {name}" if name != CHARACTER else "Character space")
    f.name_edit(form, "space", name, editable=name != CHARACTER)
    blocked = {name} | edits.space_descendants(doc.project, name)
    parents = [n for n in doc.project.space_names() if n not in blocked]
    f.combo(form, "Parent", f"space.{name}.parent", parents, s().parent,
            lambda v: reparent_space(f, name, v))
    key = doc.mode == "animate"

    def setter(attr, label, transform=lambda v: v):
        path = ("space", name, attr)

        def set_(*args):
            if len(args) == 2:
                i, v = args
                value = list(getattr(s(), attr).value_at(doc.frame))
                value[i] = v
            else:
                value = [args[0]]
            value = transform(value)
            if value is None:
                f.resync()
                return
            new = (edits.set_value(doc.project, path, doc.frame, value, key=True) if key
                   else edits.set_default(doc.project, path, value))  # Setup mode: the setup pose
            f.apply(f"{label} {name}", new, None, f"spaces.{name}.{attr}@{doc.frame}")
        return set_

    def nonzero(v):
        return None if any(abs(x) < 1e-6 for x in v) else v

    f.vector(form, "Position", f"space.{name}.position", -1e5, 1e5,
             lambda: s().position.value_at(doc.frame), setter("position", "Move"),
             key_path=("space", name, "position"))
    f.spin(form, "Rotation", f"space.{name}.rotation", -720.0, 720.0,
           lambda: s().rotation.value_at(doc.frame)[0], setter("rotation", "Rotate"),
           suffix="°", scale=DEG, decimals=1, key_path=("space", name, "rotation"))
    f.vector(form, "Scale", f"space.{name}.scale", -100.0, 100.0,
             lambda: s().scale.value_at(doc.frame), setter("scale", "Scale", nonzero),
             key_path=("space", name, "scale"), decimals=3, step=0.05)
    users = edits.targets_in_space(doc.project, name)
    form.addRow("Targets", QLabel(", ".join(users) or "none declared here"))


def reparent_space(f, name, parent) -> None:
    f.command("Parent", f"Parent {name} to {parent}", lambda: edits.reparent_space(f.doc.project, name, parent))
