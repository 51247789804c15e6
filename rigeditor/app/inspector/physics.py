"""The physics-constraint section: bone, order, the channel weights, limit, step rate,
the keyed settings (keyed in Animate mode, set up in Setup mode; a reset key at the
current frame in Animate mode) and the global flags. Every change is one undo step
(repeated edits of one field merge)."""
from __future__ import annotations

from rigeditor import edits
from rigeditor.app.inspector.fields import constraint_setting
from rigeditor.edits.physics import checked_value
from rigeditor.model.data.physics import GLOBALS, KEYED

WEIGHT_LABELS = (("x", "X"), ("y", "Y"), ("rotate", "Rotate"), ("scale_x", "Scale X"), ("shear_x", "Shear X"))
KEYED_FIELDS = {"inertia": ("Inertia", 0.0, 1.0, "0: the bone follows its pose, 1: all of its motion lags"),
                "strength": ("Strength", 0.0, 1e5, "How hard the spring pulls back"),
                "damping": ("Damping", 0.0, 1.0, "The velocity kept per 1/60 s (1: undamped)"),
                "mass": ("Mass", 1e-3, 1e5, "Heavier: slower to move and to settle"),
                "wind": ("Wind", -1e5, 1e5, "A force toward +x"),
                "gravity": ("Gravity", -1e5, 1e5, "A force toward -y"),
                "mix": ("Mix", -10.0, 10.0, "0: no physics, 1: all")}


def physics_section(f, name: str) -> None:
    doc = f.doc
    c = lambda: doc.shown_project.physics_constraint(name)  # noqa: E731 - Setup mode: its setup values
    now = doc.project.physics_constraint(name)
    form = f.group(f"Physics constraint · {name}")
    f.name_edit(form, "physics", name)
    bones = [b.name for b in doc.project.bones]
    f.combo(form, "Bone", f"physics.{name}.bone", bones, now.bone,
            lambda v: _set(f, name, f"Move {name} to {v}", bone=v))
    f.int_spin(form, "Order", f"physics.{name}.order", -9999, 9999, lambda: c().order,
               lambda v: _set(f, name, f"Set order of {name}", merge=f"physics.{name}.order", order=int(v)),
               tip="Where it runs among all constraints (lower first)")
    for attr, label in WEIGHT_LABELS:
        f.spin(form, f"{label} weight", f"physics.{name}.{attr}", 0.0, 1.0, lambda attr=attr: getattr(c(), attr),
               lambda v, attr=attr, label=label: _set(f, name, f"Set {label.lower()} weight of {name}",
                                                      merge=f"physics.{name}.{attr}", **{attr: v}),
               decimals=3, step=0.05, enabled=True)
    f.spin(form, "Limit", f"physics.{name}.limit", 0.0, 1e7, lambda: c().limit,
           lambda v: _set(f, name, f"Set limit of {name}", merge=f"physics.{name}.limit", limit=v),
           suffix=" u/s", decimals=0, step=100.0, enabled=True)
    f.spin(form, "Step rate", f"physics.{name}.step", 1.0, 1000.0, lambda: c().step,
           lambda v: _set(f, name, f"Set step rate of {name}", merge=f"physics.{name}.step", step=v),
           suffix=" /s", decimals=0, step=10.0, enabled=True)
    key = doc.mode == "animate"
    for setting in KEYED:
        label, lo, hi, tip = KEYED_FIELDS[setting]
        path = ("physics", name, setting)

        def set_value(v, path=path, label=label):
            try:
                checked_value(path[2], v)
                new = (edits.set_value(doc.project, path, doc.frame, v, key=True) if key
                       else edits.set_physics_value(doc.project, name, path[2], v))
            except edits.EditError as exc:
                f.dialogs.error(f.owner, "Physics constraint", str(exc))
                f.refresh_later()
                return
            at = f"@{doc.frame}" if key else ""
            f.apply(f"{'Key' if key else 'Set'} {label.lower()} of {name}", new, None, f"physics.{name}.{path[2]}{at}")
        f.spin(form, label, f"physics.{name}.{setting}", lo, hi,
               lambda setting=setting: getattr(c(), setting).value_at(doc.frame)[0], set_value,
               decimals=3, step=0.05 if hi <= 10 else 5.0, key_path=path, tip=tip)
    for flag in GLOBALS:
        label = flag.replace("_global", "").capitalize()
        f.combo(form, f"{label} keys", f"physics.{name}.{flag}", ["Own", "Shared"], getattr(now, flag),
                lambda v, flag=flag: _set(f, name, f"{name}: {flag.replace('_', ' ')} {'on' if v else 'off'}",
                                          **{flag: v}), data=[False, True])
    if key:
        f.button(form, "Reset here", f"physics.{name}.reset", lambda: _reset_key(f, name),
                 label="Start from rest")
    f.select_link(form, "Bone", "bone", now.bone)


def _reset_key(f, name) -> None:
    """A reset key at the current frame: the motion starts from rest there."""
    doc = f.doc
    f.command("Physics constraint", f"Key a reset of {name} @{doc.frame}",
              lambda: edits.set_value(doc.project, ("physics", name, "reset"), doc.frame, 1.0, key=True))


def _set(f, name, label, merge=None, **settings) -> None:
    """One setting of constraint ``name`` (see fields.constraint_setting)."""
    constraint_setting(f, "Physics constraint", lambda: edits.set_physics(f.doc.project, name, **settings),
                       label, merge)
