"""The target section (declared space, position) and the declared-space switch."""
from __future__ import annotations

from PySide6.QtWidgets import QLabel

from rigeditor.app import style
from rigeditor import edits
from rigeditor.app.inspector.readouts import set_style
from rigeditor.edits.posing import switch_target_space

KEEP_WORLD, REDECLARE = "Keep world position", "Re-declare same numbers"


def target_section(f, name: str) -> None:
    doc = f.doc
    t = lambda: doc.shown_project.target(name)  # noqa: E731 - Setup mode: its setup values
    form = f.group(f"Target · {name}")
    f.name_edit(form, "target", name)
    spaces = doc.project.space_names()
    combo = f.combo(form, "Declared space", f"target.{name}.space", spaces,
                    t().space.value_at(doc.frame), lambda v: f.owner.change_target_space(name, v))

    def sync_combo():
        index = max(combo.findData(t().space.value_at(doc.frame)), 0)
        if combo.currentIndex() != index:
            combo.blockSignals(True)
            combo.setCurrentIndex(index)
            combo.blockSignals(False)
        color = style.space_color(doc.project, combo.currentData())
        set_style(combo, f"QComboBox {{ border-left: 6px solid {color.name()}; }}")
    f.on_sync(sync_combo)
    path = ("target", name, "position")

    def set_pos(i, v):
        pos = list(t().position.value_at(doc.frame))
        pos[i] = v
        if doc.mode == "animate":
            new = edits.set_value(doc.project, path, doc.frame, pos, key=True)
        else:  # the setup pose: the default, whatever the keys
            new = edits.set_default(doc.project, path, pos)
        f.apply(f"Move target {name}", new, {f"target:{name}"}, f"targets.{name}.position@{doc.frame}")
    f.vector(form, "Position", f"target.{name}.position", -1e5, 1e5,
             lambda: t().position.value_at(doc.frame), set_pos, key_path=path, suffix="")
    users = [c.name for c in doc.project.chain_for_target(name)]
    form.addRow("Drives", QLabel(", ".join(users) or "no chain"))


def change_target_space(doc, dialogs, parent, name: str, space: str) -> None:
    """Declare target ``name`` in ``space`` from the current frame: asks whether to keep
    its world position (a pop-free switch) or keep its numbers."""
    t = doc.project.target(name)
    if space == t.space.value_at(doc.frame):
        return
    answer = dialogs.choose(
        parent, "Change declared space",
        f"Declare '{name}' in '{space}' from frame {doc.frame}.\n\n"
        f"Keep world position: the target stays where it is (keys are converted).\n"
        f"Re-declare: the same numbers, now read in '{space}' (the target moves).",
        [KEEP_WORLD, REDECLARE])
    if answer == KEEP_WORLD:
        new = switch_target_space(doc.project, name, doc.frame, space)
        doc.apply(f"Switch {name} to {space} (keep world position)", new, touched={f"target:{name}"})
    elif answer == REDECLARE:
        new = edits.redeclare_target_space(doc.project, name, doc.frame, space)
        doc.apply(f"Declare {name} in {space}", new, touched={f"target:{name}"})
