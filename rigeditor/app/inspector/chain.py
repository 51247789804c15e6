"""The IK chain sections: the chain (solver, bend, softness, mix, iteration settings),
its limit strategy and its target smoothing. Joint limits: see limits.py.

Chain settings (bend, softness, mix) key only once they have keys (the key button ◆
starts keying them). The solver is a structural choice: one undo step per switch.
"""
from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import QLabel, QPushButton

from rigeditor import edits
from rigeditor.edits import tracks
from rigeditor.app.inspector.fields import KeyButton, hbox
from rigeditor.app.inspector.spine_scale import spine_scale_section
from rigeditor.app.inspector.limits import limits_section
from rigeditor.model.data.project import MAX_SOFTNESS, SOFT_REACH

STRATEGY_LABELS = {"accept": "Accept the gap", "stretch": "Stretch bones", "move_root": "Move root"}
SMOOTHING_LABELS = {"none": "None", "ema": "EMA", "one_euro": "One Euro"}
SOLVER_LABELS = {"analytic": "Analytic (two bones)", "fabrik": "FABRIK", "ccd": "CCD", "aim": "Aim (one bone)"}


def bones_text(bones) -> str:
    """The chain's bones for a label: all of them when few, else first … last."""
    if len(bones) <= 4:
        return " → ".join(bones)
    return f"{bones[0]} → … → {bones[-1]}  ({len(bones)} bones)"


def chain_section(f, name: str) -> None:
    doc = f.doc
    c0 = doc.project.chain(name)
    c = lambda: doc.project.chain(name)  # noqa: E731
    touched = {f"chain:{name}"}
    form = f.group(f"IK chain · {name}")
    f.name_edit(form, "chain", name)
    bones = QLabel(bones_text(c0.bones))
    bones.setWordWrap(True)
    bones.setToolTip(" → ".join(c0.bones))
    form.addRow("Bones", bones)
    f.select_link(form, "Target", "target", c0.target)
    _solver_rows(f, form, name)

    if c0.solver == "analytic":  # the iterative solvers have no bend: they follow the last pose
        _bend_row(f, form, name)

    def channel_setter(attr, label):
        path = ("chain", name, attr)

        def set_(v):
            # Chain settings key only once keyed (see the module docstring).
            new = edits.set_value(doc.project, path, doc.frame, v, key=False)
            keyed = bool(tracks.channel(doc.project, path).keys)
            f.apply(f"Set {label} of {name}", new, touched,
                    f"chains.{name}.{attr}" + (f"@{doc.frame}" if keyed else ""))
        return set_

    if c0.solver == "aim":  # one bone turns to the target: no reach to soften, no joint limits
        f.spin(form, "Mix", f"chain.{name}.mix", 0.0, 1.0,
               lambda: c().mix.value_at(doc.frame)[0], channel_setter("mix", "IK mix"),
               decimals=2, step=0.05, key_path=("chain", name, "mix"), tip="0 = FK pose, 1 = IK pose")
        spine_scale_section(f, name)
        _smoothing_section(f, name)
        return
    # Spine's (quadratic) softness may exceed the chain; RigEditor's stops at half of it.
    most = 100.0 * (MAX_SOFTNESS if c0.soft_reach == "quadratic" else 0.5)
    f.spin(form, "Softness", f"chain.{name}.softness", 0.0, most,
           lambda: c().softness.value_at(doc.frame)[0], channel_setter("softness", "softness"),
           suffix=" %", scale=100.0, decimals=1, step=0.5, key_path=("chain", name, "softness"),
           tip="Soft reach width, % of the chain's length (typical 3–8 %)")
    kinds = list(SOFT_REACH)

    def set_soft_reach(kind):
        if kind != c().soft_reach:
            f.apply(f"Set soft reach of {name} to {kind}", doc.project.with_chain(name, soft_reach=kind), touched,
                    f"chains.{name}.soft_reach")
    combo = f.combo(form, "Soft reach", f"chain.{name}.soft_reach", [k.capitalize() for k in kinds],
                    c0.soft_reach, set_soft_reach, data=kinds)
    combo.setToolTip("Exponential: eases in and never quite reaches full length (RigEditor's).\n"
                     "Quadratic: Spine's, reaches full length again one softness beyond it.")
    f.spin(form, "Mix", f"chain.{name}.mix", 0.0, 1.0,
           lambda: c().mix.value_at(doc.frame)[0], channel_setter("mix", "IK mix"),
           decimals=2, step=0.05, key_path=("chain", name, "mix"), tip="0 = FK pose, 1 = IK pose")

    limits_section(f, name)
    _strategy_section(f, name)
    if c0.solver == "analytic":
        spine_scale_section(f, name)
    _smoothing_section(f, name)


def _solver_rows(f, form, name):
    doc = f.doc
    c0 = doc.project.chain(name)
    kinds = edits.solvers_for(len(c0.bones))

    def set_solver(kind):
        # A discrete choice: its own undo step (no merging with the previous switch).
        f.command("Solver", f"Set solver of {name} to {SOLVER_LABELS[kind]}",
                  lambda: edits.set_chain_solver(doc.project, name, kind), touched={f"chain:{name}"})
    combo = f.combo(form, "Solver", f"chain.{name}.solver", [SOLVER_LABELS[k] for k in kinds],
                    c0.solver, set_solver, data=kinds)
    combo.setToolTip("Analytic: exact two-bone solve with an elbow bend.\n"
                     "FABRIK / CCD: iterative, any length, warm-started from the previous frame."
                     + ("\nAim: one bone turned to point at the target (Spine's one-bone IK)."
                        if len(c0.bones) == 1 else "" if len(c0.bones) == 2 else "\n(Analytic needs exactly two bones.)"))
    if c0.solver in ("analytic", "aim"):
        return
    c = lambda: doc.project.chain(name)  # noqa: E731

    def set_field(field, label):
        def set_(v):
            try:
                new = edits.set_solver_settings(doc.project, name, **{field: v})
            except edits.EditError:
                f.resync()
                return
            f.apply(f"Set {label} of {name}", new, {f"chain:{name}"}, f"chains.{name}.{field}")
        return set_
    f.spin(form, "Tolerance", f"chain.{name}.tolerance", 0.0001, 1000.0,
           lambda: c().tolerance, set_field("tolerance", "tolerance"), decimals=4, step=0.01,
           suffix=" u", tip="The solve stops once the end is this close to the target (model units)")
    f.int_spin(form, "Iteration budget", f"chain.{name}.max_iterations", 1, 10000,
               lambda: c().max_iterations, set_field("max_iterations", "iteration budget"),
               tip="Most iterations per frame; a frame that spends them all shows “out of iterations”")


def _bend_row(f, form, name):
    doc = f.doc
    c = lambda: doc.project.chain(name)  # noqa: E731
    bend_label = f.add(f"chain.{name}.bend", QLabel())
    flip = f.add(f"chain.{name}.flip", QPushButton("Flip elbow"))
    flip.setToolTip("Mirror the elbow to the other side of the shoulder–target line (bend × −1)")
    flip.clicked.connect(lambda: f.owner.flip_elbow(name))
    kb = KeyButton(doc, ("chain", name, "bend"))
    row, h = hbox(bend_label)
    h.addWidget(flip)
    h.addWidget(kb)

    def sync_bend():
        v = c().bend.value_at(doc.frame)[0]
        bend_label.setText("+1 (counter-clockwise)" if v >= 0 else "−1 (clockwise)")
        kb.sync()
    f.on_sync(sync_bend)
    form.addRow("Bend", row)


def _strategy_section(f, name):
    c = lambda: f.doc.project.chain(name)  # noqa: E731
    form = f.group(f"When a limit binds · {name}")
    kinds = list(STRATEGY_LABELS)
    f.combo(form, "Strategy", f"chain.{name}.strategy", [STRATEGY_LABELS[k] for k in kinds],
            c().strategy.kind, lambda v: _set_strategy(f, name, kind=v), data=kinds)

    def kind_is(k):
        return lambda: c().strategy.kind == k
    f.spin(form, "Max stretch", f"chain.{name}.max_stretch", 0.0, 50.0,
           lambda: c().strategy.max_stretch, lambda v: _set_strategy(f, name, max_stretch=v),
           suffix=" %", scale=100.0, decimals=1, enabled=kind_is("stretch"),
           tip="Bones may scale by up to ± this much (stretch strategy)")
    f.spin(form, "Max root offset", f"chain.{name}.max_root_offset", 0.0, 1e5,
           lambda: c().strategy.max_root_offset, lambda v: _set_strategy(f, name, max_root_offset=v),
           suffix=" u", enabled=kind_is("move_root"), tip="How far the shoulder may lean (move root)")
    f.spin(form, "Root smoothing", f"chain.{name}.root_time_constant", 0.0, 1000.0,
           lambda: c().strategy.root_time_constant,
           lambda v: _set_strategy(f, name, root_time_constant=v),
           suffix=" frames", decimals=1, enabled=kind_is("move_root"),
           tip="Time constant smoothing the root offset over frames (move root)")


def _smoothing_section(f, name):
    c = lambda: f.doc.project.chain(name)  # noqa: E731
    form = f.group(f"Target smoothing · {name}")
    kinds = list(SMOOTHING_LABELS)
    f.combo(form, "Filter", f"chain.{name}.smoothing", [SMOOTHING_LABELS[k] for k in kinds],
            c().smoothing.kind, lambda v: _set_smoothing(f, name, kind=v), data=kinds)

    def filter_is(k):
        return lambda: c().smoothing.kind == k
    f.spin(form, "Time constant", f"chain.{name}.time_constant_s", 0.001, 10.0,
           lambda: c().smoothing.time_constant_s, lambda v: _set_smoothing(f, name, time_constant_s=v),
           suffix=" s", decimals=3, step=0.01, enabled=filter_is("ema"),
           tip="EMA: larger is smoother and lags more")
    f.spin(form, "Min cutoff", f"chain.{name}.min_cutoff_hz", 0.001, 100.0,
           lambda: c().smoothing.min_cutoff_hz, lambda v: _set_smoothing(f, name, min_cutoff_hz=v),
           suffix=" Hz", decimals=3, step=0.1, enabled=filter_is("one_euro"),
           tip="One Euro: lower is steadier when the target is still")
    f.spin(form, "Beta", f"chain.{name}.beta", 0.0, 100.0,
           lambda: c().smoothing.beta, lambda v: _set_smoothing(f, name, beta=v),
           decimals=4, step=0.001, enabled=filter_is("one_euro"),
           tip="One Euro: cutoff rise per unit/s of target speed (higher lags less)")
    f.spin(form, "Speed cutoff", f"chain.{name}.d_cutoff_hz", 0.001, 100.0,
           lambda: c().smoothing.d_cutoff_hz, lambda v: _set_smoothing(f, name, d_cutoff_hz=v),
           suffix=" Hz", decimals=3, step=0.1, enabled=filter_is("one_euro"))


def _set_strategy(f, name, **changes):
    c = f.doc.project.chain(name)
    strategy = replace(c.strategy, **changes)
    if strategy == c.strategy:
        return
    field = next(iter(changes))
    f.apply(f"Set limit strategy of {name}", f.doc.project.with_chain(name, strategy=strategy),
            {f"chain:{name}"}, f"chains.{name}.strategy.{field}")


def _set_smoothing(f, name, **changes):
    c = f.doc.project.chain(name)
    try:
        smoothing = replace(c.smoothing, **changes)
    except ValueError:
        return
    if smoothing == c.smoothing:
        return
    field = next(iter(changes))
    f.apply(f"Set target smoothing of {name}", f.doc.project.with_chain(name, smoothing=smoothing),
            {f"chain:{name}"}, f"chains.{name}.smoothing.{field}")
