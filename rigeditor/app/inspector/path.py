"""The path-constraint section: the slot it follows, its position, spacing and rotate
modes, order, offset rotation, and position, spacing and the three mixes (keyed in
Animate mode, set up in Setup mode). Every change is one undo step (repeated edits of
one field merge)."""
from __future__ import annotations

from rigeditor import edits
from rigeditor.app.inspector.fields import DEG, constraint_setting, wrapped_label
from rigeditor.model.data.path_constraint import POSITION_MODES, ROTATE_MODES, SPACING_MODES

VALUES = (("position", "Position", "along the path: units (fixed) or a fraction of its length (percent)"),
          ("spacing", "Spacing", "between the bones, as the spacing mode says"),
          ("mix_rotate", "Rotate mix", "0: the bones' own rotation, 1: along the path"),
          ("mix_x", "X mix", "0: the bones' own x, 1: on the path"),
          ("mix_y", "Y mix", "0: the bones' own y, 1: on the path"))
_MODE_LABELS = {"fixed": "Fixed", "percent": "Percent", "length": "Length", "proportional": "Proportional",
                "tangent": "Tangent", "chain": "Chain", "chainScale": "Chain scale"}


def path_section(f, name: str) -> None:
    doc = f.doc
    c_shown = lambda: doc.shown_project.path(name)  # noqa: E731 - Setup mode: its setup values
    c = doc.project.path(name)
    form = f.group(f"Path constraint · {name}")
    f.name_edit(form, "path", name)
    form.addRow("Bones", wrapped_label(", ".join(c.bones)))
    slots = [s.name for s in doc.project.art.slots if s.paths]
    f.combo(form, "Path slot", f"path.{name}.target", slots or [c.target], c.target,
            lambda v: _set(f, name, f"Set path slot of {name} to {v}", target=v))
    for field, label, modes in (("position_mode", "Position mode", POSITION_MODES),
                                ("spacing_mode", "Spacing mode", SPACING_MODES),
                                ("rotate_mode", "Rotate mode", ROTATE_MODES)):
        f.combo(form, label, f"path.{name}.{field}", [_MODE_LABELS[m] for m in modes], getattr(c, field),
                lambda v, field=field, label=label: _set(f, name, f"{name}: {label.lower()} {v}", **{field: v}),
                data=list(modes))
    f.int_spin(form, "Order", f"path.{name}.order", -9999, 9999, lambda: c_shown().order,
               lambda v: _set(f, name, f"Set order of {name}", merge=f"paths.{name}.order", order=int(v)),
               tip="Where it runs among all constraints (lower first)")
    f.spin(form, "Rotation offset", f"path.{name}.offset_rotation", -1e5, 1e5, lambda: c_shown().offset_rotation,
           lambda v: _set(f, name, f"Set rotation offset of {name}", merge=f"paths.{name}.offset_rotation",
                          offset_rotation=v), suffix="°", scale=DEG, decimals=1, enabled=True)
    key = doc.mode == "animate"
    for channel, label, tip in VALUES:
        path = ("path", name, channel)

        def set_value(v, path=path, label=label):
            new = (edits.set_value(doc.project, path, doc.frame, v, key=True) if key
                   else edits.set_default(doc.project, path, v))
            at = f"@{doc.frame}" if key else ""
            f.apply(f"{'Key' if key else 'Set'} {label.lower()} of {name}", new, None, f"paths.{name}.{path[2]}{at}")
        wide = channel in ("position", "spacing")
        f.spin(form, label, f"path.{name}.{channel}", -1e5 if wide else -10.0, 1e5 if wide else 10.0,
               lambda channel=channel: getattr(c_shown(), channel).value_at(doc.frame)[0], set_value,
               decimals=3, step=0.05 if not wide else 1.0, key_path=path, tip=tip)
    f.select_link(form, "Path slot", "slot", c.target)


def _set(f, name, label, merge=None, **settings) -> None:
    """One setting of constraint ``name`` (see fields.constraint_setting)."""
    constraint_setting(f, "Path constraint", lambda: edits.set_path(f.doc.project, name, **settings),
                       label, merge)
