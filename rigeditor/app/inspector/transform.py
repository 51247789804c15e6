"""The transform-constraint section: target, space (world or local), mode (absolute or
relative), order, the six mixes (keyed in Animate mode, set up in Setup mode) and the
offsets. Every change is one undo step (repeated edits of one field merge)."""
from __future__ import annotations

from rigeditor import edits
from rigeditor.app.inspector.fields import DEG, constraint_setting, wrapped_label

MIX_LABELS = (("mix_rotate", "Rotate mix"), ("mix_x", "X mix"), ("mix_y", "Y mix"),
              ("mix_scale_x", "Scale X mix"), ("mix_scale_y", "Scale Y mix"), ("mix_shear_y", "Shear Y mix"))
OFFSET_FIELDS = (("offset_rotation", "Rotation offset", "°", DEG), ("offset_x", "X offset", " u", 1.0),
                 ("offset_y", "Y offset", " u", 1.0), ("offset_scale_x", "Scale X offset", "", 1.0),
                 ("offset_scale_y", "Scale Y offset", "", 1.0), ("offset_shear_y", "Shear Y offset", "°", DEG))


def transform_section(f, name: str) -> None:
    doc = f.doc
    t = lambda: doc.shown_project.transform(name)  # noqa: E731 - Setup mode: its setup values
    c = doc.project.transform(name)
    form = f.group(f"Transform constraint · {name}")
    f.name_edit(form, "transform", name)
    form.addRow("Bones", wrapped_label(", ".join(c.bones)))
    others = [b.name for b in doc.project.bones if b.name not in c.bones]
    f.combo(form, "Target", f"transform.{name}.target", others, c.target,
            lambda v: _set(f, name, f"Set target of {name} to {v}", target=v))
    f.combo(form, "Space", f"transform.{name}.local", ["World", "Local"], c.local,
            lambda v: _set(f, name, f"{name}: {'local' if v else 'world'}", local=v), data=[False, True])
    f.combo(form, "Mode", f"transform.{name}.relative", ["Absolute", "Relative"], c.relative,
            lambda v: _set(f, name, f"{name}: {'relative' if v else 'absolute'}", relative=v), data=[False, True])
    f.int_spin(form, "Order", f"transform.{name}.order", -9999, 9999, lambda: t().order,
               lambda v: _set(f, name, f"Set order of {name}", merge=f"transforms.{name}.order", order=int(v)),
               tip="Where it runs among the transform constraints (lower first), after the IK chains")
    key = doc.mode == "animate"
    for mix, label in MIX_LABELS:
        path = ("transform", name, mix)

        def set_mix(v, path=path, label=label):
            new = (edits.set_value(doc.project, path, doc.frame, v, key=True) if key
                   else edits.set_default(doc.project, path, v))
            at = f"@{doc.frame}" if key else ""
            f.apply(f"{'Key' if key else 'Set'} {label.lower()} of {name}", new, None,
                    f"transforms.{name}.{path[2]}{at}")
        f.spin(form, label, f"transform.{name}.{mix}", -10.0, 10.0,
               lambda mix=mix: getattr(t(), mix).value_at(doc.frame)[0], set_mix, decimals=3, step=0.05,
               key_path=path, tip="0: the bone's own pose, 1: the target's")
    for attr, label, suffix, scale in OFFSET_FIELDS:
        f.spin(form, label, f"transform.{name}.{attr}", -1e5, 1e5, lambda attr=attr: getattr(t(), attr),
               lambda v, attr=attr, label=label: _set(f, name, f"Set {label.lower()} of {name}",
                                                      merge=f"transforms.{name}.{attr}", **{attr: v}),
               suffix=suffix, scale=scale, decimals=2 if scale == 1.0 else 1, enabled=True)
    f.select_link(form, "Target bone", "bone", c.target)


def _set(f, name, label, merge=None, **settings) -> None:
    """One setting of constraint ``name`` (see fields.constraint_setting)."""
    constraint_setting(f, "Transform constraint", lambda: edits.set_transform(f.doc.project, name, **settings),
                       label, merge)
